#!/bin/sh
# The inputs of the general heat equation (issue 23): every material,
# source and initial-temperature option is accepted and its effect shows
# (the derived alpha, the grid a map sets, the stability number from the
# largest k / (rho c_p), the initial field); every bad input is refused
# with status 2 and one message naming the option, the file, the key or
# the cell, nothing crashes and no output is left.  The HDF5 and PNG
# maps are written here with h5py and zlib, independently of heatsim.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

# close A B: |A - B| <= 1e-12 |B|.
close () {
  "$PY" -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 1e-12 * abs(b))' "$1" "$2"
}

# check_json KEY WANT ARGS...: heatsim --json ARGS succeeds and reports
# KEY equal to WANT (to 1e-12).
check_json () {
  key=$1 value=$2
  shift 2
  if expect_status 0 "$HEATSIM" -q --json "$@"; then
    got=$(json_field "$key" "$workdir/out")
    close "$got" "$value" || fail "'$*': $key $got, expected $value"
  fi
}

# The maps: a two-material wall (k 2 | 8, rho c_p 4) on 6 x 4 nodes,
# the same as keys of --material definitions, damaged variants, and a
# source map.
"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
k = np.full((4, 6), 2.0); k[:, 3:] = 8.0
cap = np.full((4, 6), 4.0)
def write(name, **sets):
    with h5py.File(name, "w") as f:
        for key, value in sets.items():
            f[key] = value
write("wall.h5", conductivity=k, volumetric_heat_capacity=cap)
write("konly.h5", conductivity=k)
write("caponly.h5", volumetric_heat_capacity=cap)
bad = k.copy(); bad[2, 1] = -1.0; write("negative.h5", conductivity=bad)
bad = k.copy(); bad[1, 4] = np.nan; write("nan.h5", conductivity=bad)
bad = cap.copy(); bad[3, 0] = 0.0; write("zero.h5", volumetric_heat_capacity=bad)
write("sizes.h5", conductivity=k, volumetric_heat_capacity=cap[:, :5])
write("other.h5", field=k)
write("intk.h5", conductivity=k.astype(np.int32))
keys = np.zeros((4, 6), dtype=np.int32); keys[:, 3:] = 7
write("keys.h5", material=keys)
write("both.h5", material=keys, conductivity=k)
write("floatkeys.h5", material=keys.astype(float))
write("source.h5", source=np.arange(24.0).reshape(4, 6))
bad = np.zeros((4, 6)); bad[0, 5] = np.inf; write("source-inf.h5", source=bad)
bad = np.ones((4, 6)); bad[2, 3] = 5e-324; write("source-sub.h5", source=bad)
bad = k.copy(); bad[1, 2] = 1e-310
write("ksmall.h5", conductivity=bad, volumetric_heat_capacity=cap)
write("source8.h5", source=np.zeros((8, 8)))
# One row, one column: too few nodes for edge nodes on both edges.
write("row.h5", conductivity=np.full((1, 16), 2.0),
      volumetric_heat_capacity=np.full((1, 16), 4.0))
write("col.h5", conductivity=np.full((16, 1), 2.0),
      volumetric_heat_capacity=np.full((16, 1), 4.0))
write("sourcerow.h5", source=np.ones((1, 16)))
write("initrow.h5", field=np.zeros((3, 18)))   # a ring around 16x1
EOF
printf 'not a map' >text.map
head -c 600 wall.h5 >truncated.h5

# A uniform SI material: alpha = k / (rho c_p), the unit K.
check_json alpha "$("$PY" -c 'print(repr(401 / (8933 * 385)))')" -g 20 -L 0.1 \
  --conductivity 401 --density 8933 --heat-capacity 385 -n 1 --dt 1e-3
[ "$(json_field temperature_unit "$workdir/out")" = K ] \
  || fail "a material run is not in K: $(json_field temperature_unit "$workdir/out")"
check_json alpha 0.25 -g 20 --conductivity 1 --density 2 --heat-capacity 2 \
  --temperature-unit degC -n 1
[ "$(json_field temperature_unit "$workdir/out")" = degC ] \
  || fail "--temperature-unit degC not kept with a material"
# The uniform material is the constant case: the same field as --alpha.
# (-p mms: a material run's own default problem is uniform.)
"$HEATSIM" -q --json -p mms -g 20 --conductivity 1 --density 2 \
  --heat-capacity 2 --temperature-unit K -n 5 >a.json 2>/dev/null
"$HEATSIM" -q --json -g 20 --alpha 0.25 --temperature-unit K -n 5 >b.json 2>/dev/null
[ -n "$(json_field checksum a.json)" ] \
  && [ "$(json_field checksum a.json)" = "$(json_field checksum b.json)" ] \
  || fail "uniform material and --alpha 0.25 differ"
pass
# --steps auto and the stability number from k / (rho c_p).
if expect_status 0 "$HEATSIM" -q --json -g 20 -L 0.1 --conductivity 401 \
    --density 8933 --heat-capacity 385 --end-time 2 --steps auto; then
  s=$(json_field stability "$workdir/out")
  "$PY" -c "import sys; sys.exit(not 0.45 < $s <= 0.5)" \
    || fail "--steps auto with copper: stability $s, expected just below 0.5"
fi
refused "--alpha: not with --conductivity" -g 8 --alpha 1 --conductivity 1 \
  --density 1 --heat-capacity 1
refused "--alpha: not with --density" -g 8 --density 1 --alpha 1
refused "--alpha: not with --material-map" --material-map wall.h5 --alpha 1
refused "--conductivity: needs --density too" -g 8 --conductivity 1
refused "--density: needs --conductivity too" -g 8 --density 1 --heat-capacity 1
refused "--heat-capacity: needs --conductivity too" -g 8 --heat-capacity 1
refused "--conductivity: '0' must be" -g 8 --conductivity 0 --density 1 --heat-capacity 1
refused "--density: 'nan'" -g 8 --conductivity 1 --density nan --heat-capacity 1
refused "--heat-capacity: '-3'" -g 8 --conductivity 1 --density 1 --heat-capacity -3
# The explicit limit from the largest k / (rho c_p): copper's refuses
# where --alpha 1e-6 runs.
expect_status 0 "$HEATSIM" -q -g 20 -L 0.1 --alpha 1e-6 --temperature-unit K \
  --end-time 1 -n 10
refused "unstable" -g 20 -L 0.1 --conductivity 401 --density 8933 \
  --heat-capacity 385 --end-time 1 -n 10

# HDF5 material maps: the grid takes the map's size, alpha its largest
# diffusivity (8 / 4).
check_json alpha 2 --material-map wall.h5 -n 1 --dt 1e-4 -L 1
[ "$(json_field nx "$workdir/out")x$(json_field ny "$workdir/out")" = 6x4 ] \
  || fail "--material-map wall.h5: grid $(json_field nx "$workdir/out")x$(json_field ny "$workdir/out"), expected 6x4"
check_json alpha 2 --material-map wall.h5 -g 6x4 -n 1 --dt 1e-4 -L 1
check_json alpha 1 --material-map konly.h5 --density 2 --heat-capacity 4 -n 1 --dt 1e-4 -L 1
check_json alpha 0.75 --material-map caponly.h5 --conductivity 3 -n 1 --dt 1e-4 -L 1
check_json alpha "$("$PY" -c 'print(repr(401 / (8933 * 385)))')" --material-map keys.h5 \
  --material 0=copper --material 7=fr4 -n 1 --dt 1e-4 -L 1
check_json alpha "$("$PY" -c 'print(repr(0.3 / (1850 * 1100)))')" --material-map keys.h5 \
  --material 0=fr4 --material 7=fr4 -n 1 --dt 1e-4 -L 1
check_json alpha 0.5 --material-map keys.h5 --material 0=k=1,rho=1,cp=2 \
  --material 7=cp=4,k=2,rho=1 --material 9=air -n 1 --dt 1e-4 -L 1
# Without an exact solution for a varying material.
[ -z "$(json_field l2_error "$workdir/out" | grep -v null)" ] \
  || fail "a material map reports an error against the mms solution"
refused "--material-map: wall.h5 is 6x4 but the grid is 5x4 (--grid)" \
  --material-map wall.h5 -g 5x4
refused "--material-map: konly.h5 has no dataset 'volumetric_heat_capacity': give --density and --heat-capacity" \
  --material-map konly.h5
refused "--material-map: caponly.h5 has no dataset 'conductivity': give --conductivity" \
  --material-map caponly.h5 --density 1
refused "--conductivity: wall.h5 gives the conductivity" --material-map wall.h5 \
  --conductivity 1
refused "--density: wall.h5 gives rho c_p" --material-map wall.h5 --density 1
refused "--material-map: negative.h5: conductivity at cell (1, 2) is -1" \
  --material-map negative.h5 --density 1 --heat-capacity 1
refused "--material-map: nan.h5: conductivity at cell (4, 1) is nan" \
  --material-map nan.h5 --density 1 --heat-capacity 1
refused "--material-map: zero.h5: volumetric_heat_capacity at cell (0, 3) is 0" \
  --material-map zero.h5 --conductivity 1
refused "--material-map: sizes.h5: 'conductivity' is 6x4 but 'volumetric_heat_capacity' 5x4" \
  --material-map sizes.h5
refused "--material-map: other.h5 has none of the datasets" --material-map other.h5
# An empty dataset is refused by name, not taken for k / (rho c_p) = 0.
"$PY" -c 'import h5py, numpy as np
for name, shape, kind in (("conductivity", (0, 0), "f8"),
                          ("volumetric_heat_capacity", (0, 0), "f8"),
                          ("material", (0, 0), "i4"),
                          ("source", (0, 16), "f8")):
    with h5py.File("empty-" + name + ".h5", "w") as f:
        f.create_dataset(name, shape, dtype=kind)' || exit 99
refused "^heatsim: --material-map: empty-conductivity.h5: dataset 'conductivity' has shape (0, 0) (rows, columns): empty" \
  --material-map empty-conductivity.h5 --density 1 --heat-capacity 1
refused "^heatsim: --material-map: empty-volumetric_heat_capacity.h5: dataset 'volumetric_heat_capacity' has shape (0, 0) (rows, columns): empty" \
  --material-map empty-volumetric_heat_capacity.h5 --conductivity 1
refused "^heatsim: --material-map: empty-material.h5: dataset 'material' has shape (0, 0) (rows, columns): empty" \
  --material-map empty-material.h5 --material 1=copper
refused "^heatsim: --source-map: empty-source.h5: dataset 'source' has shape (0, 16) (rows, columns): empty" \
  --source-map empty-source.h5
refused "^heatsim: --source-map: empty-source.h5: dataset 'source' has shape (0, 16) (rows, columns): empty" \
  -g 16 --source-map empty-source.h5
refused "--material-map: intk.h5: dataset 'conductivity' is not floating point" \
  --material-map intk.h5 --density 1 --heat-capacity 1
refused "--material-map: floatkeys.h5: dataset 'material' is not integer" \
  --material-map floatkeys.h5 --material 0=air
refused "--material-map: keys.h5: cell (3, 0) has material 7, which no --material defines" \
  --material-map keys.h5 --material 0=copper
refused "--conductivity: keys.h5 gives every cell's material" --material-map keys.h5 \
  --material 0=copper --material 7=air --conductivity 1
refused "--material-map: both.h5 has both" --material-map both.h5 --material 0=air \
  --material 7=air --density 1 --heat-capacity 1
refused "--material-map: nosuch.h5: cannot open" --material-map nosuch.h5
refused "--material-map: text.map: neither an HDF5 file nor a PNG image" \
  --material-map text.map
refused "--material-map: truncated.h5" --material-map truncated.h5
refused "--material-map: empty file name" --material-map ''
refused "--source-map: source8.h5 is 8x8 but the grid is 6x4 (wall.h5)" \
  --material-map wall.h5 --source-map source8.h5
# --material's SPEC and KEY.
refused "--material: only with --material-map" -g 8 --material 1=copper
# A key defined again takes the later definition (fr4's alpha, not
# copper's).
check_json alpha "$("$PY" -c 'print(repr(0.3 / (1850 * 1100)))')" --material-map keys.h5 \
  --material 0=copper --material 7=fr4 --material 0=fr4 -n 1 --dt 1e-4 -L 1
refused "--material: '0=unobtainium': unknown built-in material 'unobtainium'" \
  --material-map keys.h5 --material 0=unobtainium
refused "--material: '0=k=1,rho=2' gives no cp=" --material-map keys.h5 \
  --material 0=k=1,rho=2
refused "--material: '0=k=1,k=2,rho=1,cp=1': 'k=2' is not one of" \
  --material-map keys.h5 --material 0=k=1,k=2,rho=1,cp=1
refused "--material: '0=k=1,rho=1,cp=1,x=2': 'x=2' is not one of" \
  --material-map keys.h5 --material 0=k=1,rho=1,cp=1,x=2
refused "--material 0=k=-1,rho=1,cp=1: '-1'" --material-map keys.h5 \
  --material 0=k=-1,rho=1,cp=1
refused "--material 0=k=1,rho=nan,cp=1: 'nan'" --material-map keys.h5 \
  --material 0=k=1,rho=nan,cp=1
refused "--material: key 'x' is neither a whole number nor a colour" \
  --material-map keys.h5 --material x=copper
refused "--material: key '#12345' is not a colour #rrggbb" \
  --material-map keys.h5 --material '#12345=copper'
refused "--material: key '#12345g' is not a colour #rrggbb" \
  --material-map keys.h5 --material '#12345g=copper'
refused "--material: 'copper' is not KEY=SPEC" --material-map keys.h5 \
  --material copper

# Sources: accepted alone and together; no exact solution then.
for src in "--source 1e3" "--source -5" "--source-rect 0,500,0,500,7" \
    "--source-rect 0,1000,0,1000,1 --source-rect 10,20,10,20,2 --source 3"; do
  # shellcheck disable=SC2086
  if expect_status 0 "$HEATSIM" -q --json -g 8 -n 1 $src; then
    [ "$(json_field l2_error "$workdir/out")" = null ] \
      || fail "$src: an mms error reported with a source"
  fi
done
check_json nx 6 --source-map source.h5 -n 1
refused "--source: 'x' is not a number" -g 8 --source x
refused "--source: 'inf'" -g 8 --source inf
refused "--source-rect: '1,0,0,1,5': X0 > X1 or Y0 > Y1" -g 8 --source-rect 1,0,0,1,5
refused "--source-rect: '0,1,2,1,5': X0 > X1 or Y0 > Y1" -g 8 --source-rect 0,1,2,1,5
refused "--source-rect" -g 8 --source-rect 0,1,0,1
# A rectangle off the domain (mm for m) would heat nothing: refused;
# one that touches an edge is not.
refused "--source-rect: 2,3,2,3,1e+06 lies off the domain, \[0, 0.01\] x \[0, 0.01\]" \
  -g 8 -L 0.01 --conductivity 1 --density 1 --heat-capacity 1 --edges 20,20,20,20 \
  --source-rect 2,3,2,3,1e6
refused "--source-rect: 0.2,0.4,-2,-1,1 lies off the domain" -g 9 -L 1 \
  --source-rect 0.2,0.4,0.2,0.4,1 --source-rect 0.2,0.4,-2,-1,1
# The right edge's column (half volumes), rows y = 4/7 .. 7/7 of 0.9
# (the top one half): 1/2 x 3.5 nodes of (0.9 / 7)^2.
check_json source_power "$(awk 'BEGIN { printf "%.17g", 1.75 * (0.9 / 7) ^ 2 }')" \
  -g 8 -L 0.9 -b neumann --conductivity 1 --density 1 --heat-capacity 1 \
  --source-rect 0.9,2,0.45,1,1 -n 1 --dt 1e-6
refused "--source-map: wall.h5 has no dataset 'source'" --source-map wall.h5
refused "--source-map: source-inf.h5: source at cell (5, 0) is inf" \
  --source-map source-inf.h5
# Subnormal values, which --source and --conductivity refuse, are
# refused in maps too (a source of 5e-324 was reported as power that
# never reached the field; a hostile pass).
refused "^heatsim: --source-map: source-sub.h5: source at cell (3, 2) is 4.94066e-324; it must be finite, and 0 or of magnitude at least 2.22507e-308$" \
  --source-map source-sub.h5
refused "^heatsim: --material-map: ksmall.h5: conductivity at cell (2, 1) is 1e-310; it must be positive and finite, at least 2.22507e-308$" \
  --material-map ksmall.h5
refused "--source-map: source.h5 is 6x4 but the grid is 8x8 (--grid)" -g 8 \
  --source-map source.h5
refused "--source-range: only with a PNG --source-map" -g 8 --source-range 0,1
refused "--source-range: only for a PNG --source-map; source.h5 is an HDF5 file" \
  --source-map source.h5 --source-range 0,1
refused "--source-map: nosuch.h5: cannot open" --source-map nosuch.h5

# --initial-temperature: the interior starts at T, the edges keep the
# problem's values (those of the run without it).
if expect_status 0 "$HEATSIM" -q -g 6x5 -p plate --initial-temperature 42.5 \
    -n 1 --checkpoint-every 1 --checkpoint-name init-%d.h5 \
  && expect_status 0 "$HEATSIM" -q -g 6x5 -p plate -n 1 --checkpoint-every 1 \
    --checkpoint-name plate-%d.h5; then
  "$PY" - init-0.h5 plate-0.h5 <<'EOF' || fail "--initial-temperature: the checkpoint of step 0 is not T inside and the plate's edges"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1]) as f, h5py.File(sys.argv[2]) as g:
    same = all(np.array_equal(f["boundary/" + e][()], g["boundary/" + e][()])
               for e in ("left", "right", "bottom", "top"))
    sys.exit(not (np.all(f["field"][()] == 42.5) and same
                  and np.any(g["field"][()] != 42.5)))
EOF
fi
refused "--initial-temperature: not with --init" --init wall.h5 \
  --init-dataset conductivity --initial-temperature 1
refused "--initial-temperature: 'hot'" -g 8 --initial-temperature hot
refused "--initial-temperature: not with --restart" --restart init-0.h5 \
  --initial-temperature 1
refused "--source: the material differs from that of init-0.h5 (it varies or has a source; recorded: alpha 0.1" \
  --restart init-0.h5 --source 1

# PNG maps: colours (#rrggbb, either case) or gray levels are keys; the
# image's top row is the grid's top (largest y), as for --init.  A
# 16-bit gray source map spans --source-range.
"$PY" - <<'EOF' || exit 99
import struct, zlib
def png(path, rows, colour, depth=8):
    """rows top first; colour: (r, g, b) pixels, else gray levels."""
    raw = b""
    for r in rows:
        raw += b"\0"
        for p in r:
            raw += (bytes(p) if colour else struct.pack(">H", p)
                    if depth == 16 else bytes([p]))
    def chunk(t, d):
        return (struct.pack(">I", len(d)) + t + d
                + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff))
    head = struct.pack(">IIBBBBB", len(rows[0]), len(rows), depth,
                       2 if colour else 0, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
                           + chunk(b"IDAT", zlib.compress(raw))
                           + chunk(b"IEND", b""))
R, B = (255, 0, 0), (0, 0, 255)
png("colour.png", [[R, R, B], [R, R, B]], True)
png("gray.png", [[0, 0, 128], [0, 128, 128]], False)
png("src16.png", [[0, 65535, 0], [0, 0, 32768]], False, 16)
png("src8.png", [[0, 255, 0], [0, 0, 0]], False)
png("row.png", [[0] * 16], False)
EOF
check_json alpha "$("$PY" -c 'print(repr(401 / (8933 * 385)))')" \
  --material-map colour.png --material '#ff0000=copper' --material '#0000FF=air' \
  -n 1 --dt 1e-4 -L 1
check_json ny 2 --material-map colour.png --material '#ff0000=copper' \
  --material '#0000FF=air' -n 1 --dt 1e-4 -L 1
refused "--material-map: colour.png: pixel (2, 1) has colour #0000ff, which no --material defines" \
  --material-map colour.png --material '#ff0000=copper'
refused "--material-map: colour.png: pixel (0, 1) has colour #ff0000, which no --material defines" \
  --material-map colour.png --material 255=copper --material '#0000ff=air'
refused "--material-map: gray.png: pixel (1, 1) has gray level 128, which no --material defines" \
  --material-map gray.png --material 0=copper
refused "--source-map: src16.png is a PNG image: give --source-range LO,HI" \
  --source-map src16.png
refused "--source-map: colour.png: a colour image; a map of values must be gray" \
  --source-map colour.png --source-range 0,1
refused "--source-range: '1,1'" --source-map src16.png --source-range 1,1
printf '\211PNG\r\n\032\n garbage' >broken.png
refused "--material-map: broken.png: not a usable PNG image" \
  --material-map broken.png --material 0=air

# A --source-rect whose bounds fall on nodes holds them, though the
# nodes' positions are rounded (0.1 * 7 = 0.7000000000000001, 0.9 / 8
# * 8 = 0.9000000000000001): a symmetric 5 x 5 block of dx dy = 0.01,
# and the whole domain of 0.9 x 0.9.
check_json source_power 0.25 -g 9 -L 1 --conductivity 1 --density 1 \
  --heat-capacity 1 --source-rect 0.3,0.7,0.3,0.7,1 -n 1 --dt 1e-6
check_json source_power 0.81 -g 8 -L 0.9 -b neumann --conductivity 1 \
  --density 1 --heat-capacity 1 --source-rect 0,0.9,0,0.9,1 -n 1 --dt 1e-6

# Checkpoints carry the material and the sources (k, rho c_p, q per node,
# as the maps give them), labelled for xarray and indexed for ParaView.
if expect_status 0 "$HEATSIM" -q --material-map gray.png --material 0=k=2,rho=1,cp=4 \
    --material 128=k=8,rho=2,cp=1 --source-map src16.png --source-range 0,100 \
    --source-rect 0.2,0.3,0.4,1,5 -L 1 -n 2 --dt 1e-4 --checkpoint-every 1 \
    --output-dir ck; then
  "$PY" - ck/heatsim-000002.h5 <<'EOF' || fail "the checkpoint's material fields are not the maps'"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1]) as f:
    k, cap, q = (f[n][()] for n in ("conductivity", "volumetric_heat_capacity", "source"))
    units = [f[n].attrs["units"] for n in ("conductivity", "volumetric_heat_capacity", "source")]
    x = f["x"][()]
# Row 0 is the bottom (y = dy): the image's last row.
want_k = np.array([[2, 8, 8], [2, 2, 8]], float)
want_cap = np.array([[4, 2, 2], [4, 4, 2]], float)
want_q = np.array([[0, 0, 100 * 32768 / 65535], [0, 100, 0]])
# --source-rect x in [0.2, 0.3], y in [0.4, 1]: node x = 0.25, y = 2/3.
want_q[1, 0] += 5
ok = (np.array_equal(k, want_k) and np.array_equal(cap, want_cap)
      and np.allclose(q, want_q, rtol=1e-15, atol=0) and x[0] == 0.25
      and [u if isinstance(u, str) else u.decode() for u in units]
          == ["W m-1 K-1", "J m-3 K-1", "W m-3"])
if not ok:
    print(k, cap, q, units, file=sys.stderr)
sys.exit(not ok)
EOF
  for set in conductivity volumetric_heat_capacity source; do
    grep -q "heatsim-000002.h5:/$set<" ck/heatsim.xmf \
      || fail "the XDMF index lacks $set"
  done
  if "$PY" -c 'import xarray, netCDF4' 2>/dev/null; then
    "$PY" -c 'import sys, xarray as xr
ds = xr.open_dataset(sys.argv[1], engine="netcdf4")
sys.exit(not all(ds[n].dims == ("y", "x") for n in
                 ("conductivity", "volumetric_heat_capacity", "source"))
         or ds.conductivity.attrs["units"] != "W m-1 K-1"
         or float(ds.conductivity.sel(x=0.25, y=1 / 3)) != 2.0)' \
      ck/heatsim-000002.h5 || fail "xarray does not see the material fields"
  fi
  # A restart goes on with the checkpoint's material; the same options
  # are accepted, others refused naming the option and the cell.
  check_json diffusivity_max 4 --restart ck/heatsim-000002.h5 -n 1
  [ "$(json_field material_map "$workdir/out")" = ck/heatsim-000002.h5 ] \
    || fail "a restart does not take the checkpoint's material"
  expect_status 0 "$HEATSIM" -q --restart ck/heatsim-000002.h5 -n 1 \
    --checkpoint-every 1 --output-dir ck --material-map gray.png --material 0=k=2,rho=1,cp=4 \
    --material 128=k=8,rho=2,cp=1 --source-map src16.png \
    --source-range 0,100 --source-rect 0.2,0.3,0.4,1,5
  refused "--material-map: the material differs from that of ck/heatsim-000002.h5 (conductivity at cell (0, 0): 3, recorded 2)" \
    --restart ck/heatsim-000002.h5 -n 1 --material-map gray.png \
    --material 0=k=3,rho=1,cp=4 --material 128=k=8,rho=2,cp=1 \
    --source-map src16.png --source-range 0,100 --source-rect 0.2,0.3,0.4,1,5
  refused "--source-map: the material differs from that of ck/heatsim-000002.h5 (source at cell (0, 1): 0, recorded 5)" \
    --restart ck/heatsim-000002.h5 -n 1 --material-map gray.png \
    --material 0=k=2,rho=1,cp=4 --material 128=k=8,rho=2,cp=1 \
    --source-map src16.png --source-range 0,100
  # The same sources without the material's options: those are missing.
  refused "--source-map: ck/heatsim-000002.h5 records another material than a run without material options has (conductivity at cell (0, 0): recorded 2, without them 4); give the material options of the run that wrote it" \
    --restart ck/heatsim-000002.h5 -n 1 --source-map src16.png \
    --source-range 0,100 --source-rect 0.2,0.3,0.4,1,5
  "$PY" - ck/heatsim-000002.h5 ck/heatsim-000003.h5 <<'EOF' || fail "the restart's checkpoint has another material"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1]) as f, h5py.File(sys.argv[2]) as g:
    sys.exit(not all(np.array_equal(f[n][()], g[n][()]) for n in
                     ("conductivity", "volumetric_heat_capacity", "source")))
EOF
fi
# A uniform material is no field in a checkpoint but three attributes;
# its restart compares k and rho c_p (not only alpha, which k 2, rho c_p
# 12 share with it).
if expect_status 0 "$HEATSIM" -q -g 8 --conductivity 1 --density 2 \
    --heat-capacity 3 -n 1 --checkpoint-every 1 --output-dir uniform; then
  "$PY" -c 'import sys, h5py; sys.exit("conductivity" in h5py.File(sys.argv[1]))' \
    uniform/heatsim-000001.h5 || fail "a uniform material wrote fields"
  grep -q conductivity uniform/heatsim.xmf && fail "a uniform material is indexed"
  expect_status 0 "$HEATSIM" -q --restart uniform/heatsim-000001.h5 -n 1 \
    --conductivity 1 --density 2 --heat-capacity 3
  refused "--conductivity: the material differs from that of uniform/heatsim-000001.h5 (another k or rho c_p; recorded: k 1, rho c_p 6)" \
    --restart uniform/heatsim-000001.h5 -n 1 --conductivity 1 --density 3 \
    --heat-capacity 3
  # A source of 0 is no source: the run that wrote it had none (it was
  # refused as "it varies or has a source"; a hostile test pass found
  # it).  One that is not 0 is refused.
  expect_status 0 "$HEATSIM" -q --restart uniform/heatsim-000001.h5 -n 1 \
    --conductivity 1 --density 2 --heat-capacity 3 --source 0 \
    --source-rect 0,500,0,500,0
  refused "--conductivity: the material differs from that of uniform/heatsim-000001.h5 (it varies or has a source" \
    --restart uniform/heatsim-000001.h5 -n 1 --conductivity 1 --density 2 \
    --heat-capacity 3 --source-rect 0,500,0,500,1
  refused "--conductivity: the material differs from that of uniform/heatsim-000001.h5 (another k or rho c_p; recorded: k 1, rho c_p 6)" \
    --restart uniform/heatsim-000001.h5 -n 1 --conductivity 2 --density 4 \
    --heat-capacity 3
fi

# A nondimensional run's checkpoint has no temperature unit, which an SI
# material needs: a restart (or --init) of it with one is refused, as a
# run of one without a unit is (it ran, reporting "units none" beside
# k in W/(m K); a hostile test pass found it).
if expect_status 0 "$HEATSIM" -q -g 8 -a 0.1 -n 1 --checkpoint-every 1 \
    --output-dir nondim; then
  for from in --restart --init; do
    refused "^heatsim: --conductivity: an SI material needs a temperature unit, and nondim/heatsim-000001.h5 is of a nondimensional run (temperature_unit 1)" \
      $from nondim/heatsim-000001.h5 -n 1 --conductivity 0.1 --density 1 \
      --heat-capacity 1
  done
fi

# A restart of a uniform material without its options goes on with the
# checkpoint's: an edge flux and convection (k and rho c_p, not alpha
# alone, set their effect) give the bits of the run without a break, and
# the report names the material.
wall="-g 16x8 -L 0.1x0.05 --bc left=flux:500 --bc right=convection:10,20
  --bc bottom=insulated --bc top=insulated --scheme backward-euler --dt 5"
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $wall --conductivity 1 --density 1000 \
    --heat-capacity 1000 -n 10 --checkpoint-every 5 --output-dir uwall; then
  whole=$(json_field checksum "$workdir/out")
  # shellcheck disable=SC2086
  check_json conductivity 1 --restart uwall/heatsim-000005.h5 -n 5
  [ "$(json_field checksum "$workdir/out")" = "$whole" ] \
    || fail "a uniform material's restart without its options: checksum $(json_field checksum "$workdir/out"), the run without a break $whole"
  check_json heat_capacity 1000 --restart uwall/heatsim-000005.h5 -n 5
fi

# --init fixes the grid (a ring off the dataset): the map must match it.
refused "--material-map: wall.h5 is 6x4 but the grid is 4x2 (wall.h5)" \
  --init wall.h5 --init-dataset conductivity --material-map wall.h5

# A map or an --init file of one row (column) sets a grid with too few
# nodes for edge nodes on the bottom and top (left and right) edges:
# refused as --grid 16x1 is, naming the file that set the grid, before
# the steady and implicit solvers' check of the cells' size (dy would be
# infinite: a run gave inf and NaN, exit 0).  Between edges at a fixed
# temperature one row is a grid.
shut="--bc bottom=insulated --bc top=insulated"
for run in "-n 5" "--steady" "--scheme backward-euler -n 1 --dt 1"; do
  # shellcheck disable=SC2086
  refused "--material-map row.h5: 1 node along y cannot have nodes on both edges (bottom insulated, top insulated): give at least 2" \
    --material-map row.h5 $shut --bc left=temperature:10 --source 100 $run
done
refused "--material-map col.h5: 1 node along x cannot have nodes on both edges (left insulated, right insulated)" \
  --material-map col.h5 --bc left=insulated --bc right=insulated -n 1
# shellcheck disable=SC2086
refused "--material-map row.png: 1 node along y cannot have nodes on both edges" \
  --material-map row.png --material 0=copper $shut -n 1
# shellcheck disable=SC2086
refused "--source-map sourcerow.h5: 1 node along y cannot have nodes on both edges" \
  --source-map sourcerow.h5 $shut -n 1
# shellcheck disable=SC2086
refused "--init initrow.h5: 1 node along y cannot have nodes on both edges" \
  --init initrow.h5 $shut -n 1
# shellcheck disable=SC2086
refused "--grid: 1 node along y cannot have nodes on both edges" -g 16x1 $shut \
  --material-map row.h5 -n 1
check_json ny 1 --material-map row.h5 -n 1 --dt 1e-4 -L 1

# Every rank of an MPI run takes its part of the maps: checkpoints on 1
# and 4 ranks hold the same fields.
if mpi_ready; then
  "$PY" -c 'import h5py, numpy as np
r = np.random.default_rng(1)
with h5py.File("random.h5", "w") as f:
    for n in ("conductivity", "volumetric_heat_capacity", "source"):
        f[n] = r.uniform(1, 10, (13, 17))' || exit 99
  for n in 1 4; do
    "$MPIEXEC" -np $n "$HEATSIM" -q -L 1 -n 2 --dt 1e-5 --material-map random.h5 \
      --source-map random.h5 --source-rect 0.1,0.5,0.2,0.9,3 \
      --checkpoint-every 2 --output-dir mpi$n >/dev/null 2>mpi$n.err \
      || fail "$n ranks: $(cat mpi$n.err)"
  done
  "$PY" - <<'EOF' || fail "the material fields on 4 ranks differ from 1 rank's"
import h5py, numpy as np
with h5py.File("mpi1/heatsim-000002.h5") as a, h5py.File("mpi4/heatsim-000002.h5") as b:
    import sys
    sys.exit(not all(np.array_equal(a[n][()], b[n][()]) for n in
                     ("conductivity", "volumetric_heat_capacity", "source")))
EOF
  pass
fi

# A refused map leaves no output behind.
mkdir outputs
refused "--material-map: negative.h5" --material-map negative.h5 --density 1 \
  --heat-capacity 1 --output-dir outputs --checkpoint-every 1 --png-every 1 \
  --monitor outputs/monitor.csv
[ -z "$(ls outputs)" ] || fail "a refused map left files: $(ls outputs)"
pass

# k / (rho c_p) beyond double's range is refused naming where: the
# uniform options' rho c_p, a map's cell and its k and rho c_p (they said
# "k / (rho c_p) = 0 is out of range" alone; a hostile test pass found
# it).
"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
with h5py.File("ksub.h5", "w") as f:
    f["conductivity"] = np.full((6, 5), 1e-300)
    f["volumetric_heat_capacity"] = np.full((6, 5), 1e300)
with h5py.File("kbig.h5", "w") as f:
    k = np.ones((6, 5)); k[2, 3] = 1e308
    c = np.ones((6, 5)); c[2, 3] = 1e-300
    f["conductivity"] = k
    f["volumetric_heat_capacity"] = c
EOF
refused "^heatsim: --density, --heat-capacity: rho c_p = 1e+200 x 1e+200 = inf is not a positive finite number" \
  --conductivity 1 --density 1e200 --heat-capacity 1e200 -n 1
refused "^heatsim: --density, --heat-capacity: rho c_p = 1e-200 x 1e-200 = 0 is not a positive finite number" \
  --material-map konly.h5 --density 1e-200 --heat-capacity 1e-200 -n 1
refused "^heatsim: --conductivity: k / (rho c_p) = 1e-300 / 1e+300 is 0, beyond the range of double" \
  --conductivity 1e-300 --density 1e200 --heat-capacity 1e100 -n 1
refused "^heatsim: --material-map: ksub.h5: k / (rho c_p) = 1e-300 / 1e+300 (every cell) is 0, beyond the range of double" \
  --material-map ksub.h5 -n 1
refused "^heatsim: --material-map: kbig.h5: k / (rho c_p) at cell (3, 2) is inf (k 1e+308, rho c_p 1e-300), beyond the range of double" \
  --material-map kbig.h5 -n 1
# A PNG's pixels are named as the image's, row 0 at the top (a review
# found the grid's row named: another pixel, of a sound material).
"$PY" "$srcdir/tests/png_file.py" corner.png 3 2 0,0,0,0,0,7 || exit 99
refused "^heatsim: --material-map: corner.png: k / (rho c_p) at pixel (2, 1) is inf (k 1e+308, rho c_p 1e-300), beyond the range of double" \
  --material-map corner.png --material 0=k=1,rho=1,cp=1 \
  --material 7=k=1e308,rho=1e-150,cp=1e-150 -n 1

# Maps of fill values declared 2^30 x 2^32: their bytes overflow size_t,
# which the message said as 18446744073709551615 needed and 0 available
# (a hostile test pass found it).
"$PY" - <<'EOF' || exit 99
import h5py
for path, name, dtype in (("vast.h5", "source", "f2"),
                          ("vast-keys.h5", "material", "u1")):
    with h5py.File(path, "w") as f:
        f.create_dataset(name, (2**32, 2**30), dtype=dtype,
                         chunks=(1024, 1024), fillvalue=1)
EOF
refused "^heatsim: --source-map: vast.h5: a 1073741824 x 4294967296 field needs more bytes than memory can address$" \
  --source-map vast.h5 -n 1
# A map of another size than the grid is refused from its header or its
# dataset's shape, before its values are read: a PNG of 10000^2 pixels
# whose IDAT is no deflate stream, which decoding would refuse (a map of
# 120 kB took 2.4 GB and 9.5 s to be refused once decoded; a hostile test
# pass found it), and the vast source above.
"$PY" "$srcdir/tests/png_file.py" wide.png 10000 10000 || exit 99
refused "^heatsim: --material-map: wide.png is 10000x10000 but the grid is 10x10 (--grid)$" \
  -g 10 --material-map wide.png --material 0=copper -n 1
refused "^heatsim: --source-map: wide.png is 10000x10000 but the grid is 10x10 (--grid)$" \
  -g 10 --source-map wide.png --source-range 0,1 -n 1
refused "^heatsim: --source-map: vast.h5 is 1073741824x4294967296 but the grid is 8x8 (--grid)$" \
  -g 8 --source-map vast.h5 -n 1
refused "^heatsim: --material-map: vast-keys.h5 is 1073741824x4294967296 but the grid is 8x8 (--grid)$" \
  -g 8 --material-map vast-keys.h5 --material 1=copper -n 1
refused "^heatsim: --material-map: vast-keys.h5: a 1073741824 x 4294967296 map needs more bytes than memory can address$" \
  --material-map vast-keys.h5 --material 1=copper -n 1
finish
