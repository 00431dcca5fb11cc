#!/bin/sh
# How an HDF5 dataset's values are stored, as heatsim's readers see it.
# A dataset created with a fill value and never written (or written in
# part, chunk by chunk) holds its fill value where nothing was written,
# as h5dump and h5py show: it is read so, not called damaged.  One whose
# storage was never written and whose fill value is never written in
# its place has no values: refused, saying so.  A dataset that claims
# more storage than the whole file is refused, saying that (the message
# had it the wrong way round).  A dataset compressed with a filter this
# HDF5 library lacks (LZF, which h5py brings) is refused naming the
# filter, not called truncated.  Refusals: status 2, one message naming
# the option and the file, bad_file under --json, no output.  Fixtures
# by h5py.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
cap = np.full((4, 5), 4.0)
# k never written: its fill value, 2, everywhere.
with h5py.File("fill.h5", "w") as f:
    f.create_dataset("conductivity", (4, 5), dtype="f8", fillvalue=2.0)
    f["volumetric_heat_capacity"] = cap
# Chunks of two rows, only the first written: rows 2 and 3 hold 2.
with h5py.File("partial.h5", "w") as f:
    d = f.create_dataset("conductivity", (4, 5), dtype="f8", chunks=(2, 5),
                         fillvalue=2.0)
    d[0:2, :] = 3.0
    f["volumetric_heat_capacity"] = cap
# Keys never written: 7 everywhere.
with h5py.File("keys.h5", "w") as f:
    f.create_dataset("material", (4, 5), dtype="i4", fillvalue=7)
# An initial field never written: 1 everywhere.
with h5py.File("init.h5", "w") as f:
    f.create_dataset("field", (6, 7), dtype="f8", fillvalue=1.0)
# Never written, and no fill value written in its place: no values.
fid = h5py.h5f.create(b"never.h5", h5py.h5f.ACC_TRUNC)
dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
dcpl.set_fill_time(h5py.h5d.FILL_TIME_NEVER)
h5py.h5d.create(fid, b"conductivity", h5py.h5t.IEEE_F64LE,
                h5py.h5s.create_simple((4, 5)), dcpl=dcpl).close()
fid.close()
with h5py.File("never.h5", "a") as f:
    f["volumetric_heat_capacity"] = cap
# Storage claimed beyond the end of the file: the size in the
# contiguous layout message (after the data's address) made huge.
with h5py.File("beyond.h5", "w") as f:
    f["conductivity"] = np.full((4, 5), 2.0)
    f["volumetric_heat_capacity"] = cap
    offset = f["conductivity"].id.get_offset()
import struct
data = bytearray(open("beyond.h5", "rb").read())
at = data.find(struct.pack("<QQ", offset, 160))
assert at > 0 and data.find(struct.pack("<QQ", offset, 160), at + 1) < 0
data[at + 8:at + 16] = struct.pack("<Q", 846108559360)
open("beyond.h5", "wb").write(data)
# LZF, a filter of h5py's own.
try:
    with h5py.File("lzf.h5", "w") as f:
        f.create_dataset("conductivity", data=np.full((4, 5), 2.0),
                         compression="lzf")
        f["volumetric_heat_capacity"] = cap
except (ValueError, OSError):
    pass
EOF

run="-n 1 --dt 1e-9 --temperature-unit K"
outputs="--output-dir outdir --checkpoint-every 1 --png-every 1 --monitor outdir/m.csv"

# conductivity FILE: a checkpoint's conductivity, row by row, or
# "uniform" where the material does not vary (it has none).
conductivity () {
  "$PY" -c 'import h5py, sys
f = h5py.File(sys.argv[1], "r")
if "conductivity" not in f:
    sys.exit(print("uniform"))
print(";".join(",".join("%g" % v for v in row) for row in f["conductivity"][()]))' "$1"
}

# bad_file WANT ARGS...: refused with the message WANT, bad_file under
# --json, no output left.
bad_file () {
  _bmsg=$1
  shift
  refused "$_bmsg" "$@" $outputs
  [ -e outdir ] && fail "'$*': left output: $(ls -A outdir)"
  rm -rf outdir
  if expect_status 2 "$HEATSIM" -q --json "$@" $outputs; then
    [ "$(json_field status "$workdir/out")" = bad_file ] \
      || fail "'$*' --json: status $(json_field status "$workdir/out"), expected bad_file"
  fi
  [ -e outdir ] && fail "'$*' --json: left output: $(ls -A outdir)"
  rm -rf outdir
}

# Fill values are the values.
if expect_status 0 "$HEATSIM" -q --json --material-map fill.h5 $run; then
  [ "$(json_field alpha "$workdir/out")" = 0.5 ] \
    || fail "fill.h5: alpha $(json_field alpha "$workdir/out"), expected k / (rho c_p) = 2 / 4"
fi
if expect_status 0 "$HEATSIM" -q --material-map partial.h5 $run \
    --checkpoint-every 1 --checkpoint-name partial-%d.h5; then
  [ "$(conductivity partial-1.h5)" = "3,3,3,3,3;3,3,3,3,3;2,2,2,2,2;2,2,2,2,2" ] \
    || fail "partial.h5: conductivity $(conductivity partial-1.h5)"
fi
if expect_status 0 "$HEATSIM" -q --json --material-map keys.h5 \
    --material 7=k=2,rho=1,cp=4 $run; then
  [ "$(json_field alpha "$workdir/out")" = 0.5 ] \
    || fail "keys.h5: alpha $(json_field alpha "$workdir/out"), expected 0.5"
fi
if expect_status 0 "$HEATSIM" -q --json --init init.h5 -n 1; then
  [ "$(json_field nx "$workdir/out")" = 5 ] \
    && [ "$(json_field max "$workdir/out")" = 1 ] \
    || fail "init.h5: nx $(json_field nx "$workdir/out"), max $(json_field max "$workdir/out")"
fi

# No values at all.
bad_file "^heatsim: --material-map: never.h5: dataset 'conductivity' was never written and has no fill value in its place$" \
  --material-map never.h5 $run

# More storage than the file.
size=$(wc -c <beyond.h5)
bad_file "^heatsim: --material-map: beyond.h5: dataset 'conductivity' claims 846108559360 bytes of storage in a file of $size bytes (damaged file?)$" \
  --material-map beyond.h5 $run

# A filter this library lacks.
if [ -f lzf.h5 ]; then
  bad_file "^heatsim: --material-map: lzf.h5: dataset 'conductivity' is compressed with filter 32000 (lzf), which this heatsim's HDF5 library lacks$" \
    --material-map lzf.h5 $run
else
  echo "h5py without LZF: that check skipped"
fi
finish
