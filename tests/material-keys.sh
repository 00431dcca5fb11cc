#!/bin/sh
# The keys of a material map and the options that go with them.  The
# integer keys of an HDF5 'material' dataset are compared with the
# --material keys exactly, as 64-bit integers, whatever the dataset's
# integer type: 2^53 and 2^53 + 1 are two keys (through a double they
# were one), the ends of the 64-bit range are keys, and an unsigned key
# beyond them is refused by name.  Refusals: status 2, one message
# naming the option, the file and the cell or key, the JSON status
# (usage_error for what the file holds that the options do not fit),
# and no output.  Maps are written with h5py.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
def keys(name, rows, dtype):
    with h5py.File(name, "w") as f:
        f["material"] = np.array(rows, dtype=dtype)
big = 2**53
# Cell (1, 0) holds 2^53 + 1, which a double rounds to 2^53.
keys("near.h5", [[big, big + 1, big], [big, big, big]], np.int64)
keys("ends.h5", [[2**63 - 1, -2**63, 7], [7, 7, 7]], np.int64)
keys("unsigned.h5", [[5, 5, 5], [5, 5, 2**64 - 1]], np.uint64)
keys("unsigned-ok.h5", [[5, 5, 5], [5, 6, 5]], np.uint64)
keys("small.h5", [[-3, 200, -3], [-3, -3, -3]], np.int16)
keys("byte.h5", [[255, 1, 1], [1, 1, 1]], np.uint8)
keys("keys.h5", [[7, 7, 7], [7, 7, 7]], np.int32)
# A map of k and rho c_p, no keys; one of k alone.
with h5py.File("fields.h5", "w") as f:
    f["conductivity"] = np.full((2, 3), 2.0)
    f["volumetric_heat_capacity"] = np.full((2, 3), 4.0)
with h5py.File("k-only.h5", "w") as f:
    f["conductivity"] = np.full((2, 3), 2.0)

# An 8-bit gray PNG of 3 x 2 pixels, levels 0 and 255, by zlib.
import struct, zlib
def chunk(t, d):
    return (struct.pack(">I", len(d)) + t + d
            + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff))
rows = [[0, 255, 0], [0, 0, 0]]
raw = b"".join(b"\0" + bytes(r) for r in rows)
open("gray.png", "wb").write(
    b"\x89PNG\r\n\x1a\n"
    + chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 0, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
EOF

outputs="--output-dir outdir --checkpoint-every 1 --png-every 1 --monitor outdir/m.csv"
run="-n 1 --dt 1e-9 --temperature-unit K"

# no_output ARGS...: the refused run ARGS left nothing behind, and under
# --json it ends with status usage_error.
no_output () {
  [ -e outdir ] && fail "'$*': left output: $(ls -A outdir)"
  rm -rf outdir
  if expect_status 2 "$HEATSIM" -q --json "$@"; then
    [ "$(json_field status "$workdir/out")" = usage_error ] \
      || fail "'$*' --json: status $(json_field status "$workdir/out"), expected usage_error"
  fi
  [ -e outdir ] && fail "'$*' --json: left output: $(ls -A outdir)"
  rm -rf outdir
}

# conductivity FILE: the conductivity dataset of a checkpoint, row by
# row ("uniform" where the material does not vary: it has none).
conductivity () {
  "$PY" -c 'import h5py, sys
f = h5py.File(sys.argv[1], "r")
if "conductivity" not in f:
    sys.exit(print("uniform"))
print(";".join(",".join("%g" % v for v in row) for row in f["conductivity"][()]))' "$1"
}

# 2^53 + 1 is a key of its own: undefined, it is refused, ...
args="--material-map near.h5 --material 9007199254740992=copper $run $outputs"
refused "^heatsim: --material-map: near.h5: cell (1, 0) has material 9007199254740993, which no --material defines$" \
  $args
no_output $args
# ... and defined, its cell takes its material.
if expect_status 0 "$HEATSIM" -q --material-map near.h5 \
    --material 9007199254740992=copper --material 9007199254740993=air \
    $run --checkpoint-every 1 --checkpoint-name near-%d.h5; then
  [ "$(conductivity near-1.h5)" = "401,0.0263,401;401,401,401" ] \
    || fail "2^53 + 1: conductivity $(conductivity near-1.h5)"
fi

# The ends of the 64-bit range are keys like any other.
if expect_status 0 "$HEATSIM" -q --material-map ends.h5 \
    --material 9223372036854775807=copper \
    --material -9223372036854775808=air --material 7=steel \
    $run --checkpoint-every 1 --checkpoint-name ends-%d.h5; then
  [ "$(conductivity ends-1.h5)" = "401,0.0263,60.5;60.5,60.5,60.5" ] \
    || fail "64-bit ends: conductivity $(conductivity ends-1.h5)"
fi
refused "^heatsim: --material-map: ends.h5: cell (1, 0) has material -9223372036854775808, which no --material defines$" \
  --material-map ends.h5 --material 9223372036854775807=copper \
  --material 7=steel $run

# Unsigned keys: those a signed 64-bit key can name are keys; one beyond
# is refused by name.
args="--material-map unsigned.h5 --material 5=copper $run $outputs"
refused "^heatsim: --material-map: unsigned.h5: cell (2, 1) has material 18446744073709551615, beyond the keys --material can name (-9223372036854775808 to 9223372036854775807)$" \
  $args
no_output $args
if expect_status 0 "$HEATSIM" -q --material-map unsigned-ok.h5 \
    --material 5=copper --material 6=air \
    $run --checkpoint-every 1 --checkpoint-name unsigned-%d.h5; then
  [ "$(conductivity unsigned-1.h5)" = "401,401,401;401,0.0263,401" ] \
    || fail "uint64: conductivity $(conductivity unsigned-1.h5)"
fi

# Narrow integer types, signed and not.
if expect_status 0 "$HEATSIM" -q --material-map small.h5 \
    --material -3=copper --material 200=air \
    $run --checkpoint-every 1 --checkpoint-name small-%d.h5; then
  [ "$(conductivity small-1.h5)" = "401,0.0263,401;401,401,401" ] \
    || fail "int16: conductivity $(conductivity small-1.h5)"
fi
if expect_status 0 "$HEATSIM" -q --material-map byte.h5 \
    --material 255=copper --material 1=air \
    $run --checkpoint-every 1 --checkpoint-name byte-%d.h5; then
  [ "$(conductivity byte-1.h5)" = "401,0.0263,0.0263;0.0263,0.0263,0.0263" ] \
    || fail "uint8: conductivity $(conductivity byte-1.h5)"
fi
# A PNG map gives every pixel's material through --material: the
# uniform material options would be ignored, so they are refused, as
# for an HDF5 'material' dataset.
gray="--material-map gray.png --material 0=copper --material 255=air"
for opt in "--conductivity 5" "--density 5" "--heat-capacity 5" \
    "--conductivity 5 --density 5 --heat-capacity 5"; do
  name=${opt%% *}
  refused "^heatsim: $name: gray.png gives every cell's material (a PNG map: each pixel's --material)$" \
    $gray $opt $run $outputs
  no_output $gray $opt $run $outputs
done
refused "^heatsim: --density: keys.h5 gives every cell's material (its 'material' dataset)$" \
  --material-map keys.h5 --material 7=copper --density 5 $run
expect_status 0 "$HEATSIM" -q $gray $run

# --material names keys of a 'material' dataset or a PNG map's pixels: a
# map without keys (k and rho c_p given as fields, or by the options)
# would leave it unused, a likely mistake; it is refused.  A key map
# may leave definitions unused (one set of them for several maps).
refused "^heatsim: --material: fields.h5 has no 'material' dataset, so no keys for --material to define (a map of 'conductivity' and 'volumetric_heat_capacity' takes none)$" \
  --material-map fields.h5 --material 1=copper $run $outputs
no_output --material-map fields.h5 --material 1=copper $run $outputs
refused "^heatsim: --material: k-only.h5 has no 'material' dataset" \
  --material-map k-only.h5 --density 1 --heat-capacity 1 \
  --material 1=copper $run
printf 'material = 1=copper\n' >defs.case
refused "^heatsim: --material: fields.h5 has no 'material' dataset" \
  --case defs.case --material-map fields.h5 $run
expect_status 0 "$HEATSIM" -q --material-map fields.h5 $run
expect_status 0 "$HEATSIM" -q --material-map byte.h5 --material 255=copper \
  --material 1=air --material 2=steel $run
expect_status 0 "$HEATSIM" -q $gray --material 7=steel $run

# At most 64 --material keys, as --help and the manual say; a key
# defined again replaces its definition and is not counted twice.
# $gray defines 2.
set --
for k in $(seq 1 62); do
  set -- "$@" --material $((k + 1000))=air
done
expect_status 0 "$HEATSIM" -q "$@" $gray $run
refused "^heatsim: --material: at most 64 materials$" "$@" $gray \
  --material 5=steel $run
expect_status 0 "$HEATSIM" -q "$@" $gray --material 1001=steel $run
set --
"$HEATSIM" --help | grep -A 3 -e '--material=KEY=SPEC' | grep -q 'at most 64' \
  || fail "--help: --material does not say at most 64"
pass
grep -A 40 'fB\\-\\-material\\fR=\\fIKEY' "$srcdir/man/heatsim.1" \
  | grep -q 'at most 64' || fail "heatsim.1: --material does not say at most 64"
pass
finish
