#!/bin/sh
# Palette (indexed-colour) PNGs as inputs: a pixel is the colour its index
# picks from the PLTE chunk, so a palette map's keys are its colours.  An
# index beyond the palette picks no colour (libpng reads it as black,
# silently): such a --material-map, --source-map or --init image is
# refused with status 2, one message naming the file and the pixel (x
# from the left, y from the top, as the material map's messages count),
# and no output is left.  The images are written here with zlib, at 1,
# 2, 4 and 8 bits a pixel and interlaced, independently of heatsim and
# libpng.
. "${srcdir:-.}/tests/testlib.sh"

python_with zlib

"$PY" - <<'EOF' || exit 99
import struct, zlib

def chunk(t, d):
    return (struct.pack(">I", len(d)) + t + d
            + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff))

def pack(row, depth):
    """A row of indices at depth bits each, high bits first."""
    out, acc, n = b"", 0, 0
    for v in row:
        acc, n = acc << depth | v, n + depth
        if n == 8:
            out, acc, n = out + bytes([acc]), 0, 0
    if n:
        out += bytes([acc << (8 - n)])
    return out

# Adam7: (x0, y0, dx, dy) of the seven passes.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
         (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

def png(path, rows, palette, depth=8, interlace=False):
    """rows of palette indices, top first; palette of (r, g, b)."""
    w, h = len(rows[0]), len(rows)
    raw = b""
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        for y in range(y0, h, dy):
            sub = [rows[y][x] for x in range(x0, w, dx)]
            if sub:                    # empty passes have no rows
                raw += b"\0" + pack(sub, depth)
    head = struct.pack(">IIBBBBB", w, h, depth, 3, 0, 0, 1 if interlace else 0)
    plte = b"".join(bytes(c) for c in palette)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
                           + chunk(b"PLTE", plte)
                           + chunk(b"IDAT", zlib.compress(raw))
                           + chunk(b"IEND", b""))

R, B, K = (255, 0, 0), (0, 0, 255), (0, 0, 0)
good = [[0, 0, 1, 1], [0, 2, 1, 1], [0, 0, 1, 1]]
png("good.png", good, [R, B, K])
png("good4.png", good, [R, B, K], 4)
png("good-adam7.png", good, [R, B, K], 8, True)
# Index 5 at pixel (3, 1) of a palette of 2 colours.
png("beyond.png", [[0, 0, 1, 1], [0, 1, 1, 5], [0, 0, 1, 1]], [R, B])
# Index 15 at pixel (2, 2), 4 bits a pixel, a palette of 3 colours.
png("beyond4.png", [[0, 0, 1, 1], [0, 2, 1, 1], [0, 0, 15, 1]], [R, B, K], 4)
# Index 3, the first beyond a palette of 3, at pixel (1, 2), interlaced:
# the pixel comes in Adam7's last pass.
png("beyond-adam7.png", [[0, 0, 1, 1], [0, 2, 1, 1], [0, 3, 1, 1]],
    [R, B, K], 8, True)
# 2 bits a pixel, interlaced: index 3 at pixel (2, 0), a palette of 2.
png("beyond2-adam7.png", [[0, 0, 3, 1], [0, 1, 1, 1], [0, 0, 1, 1]],
    [R, B], 2, True)
# 1 bit a pixel: index 1 at pixel (0, 2), a palette of 1 colour.
png("beyond1.png", [[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]], [K], 1)
EOF

mats="--material #ff0000=copper --material #0000ff=air --material #000000=steel"

# In-range palettes are maps of their colours, in every layout.
for f in good.png good4.png good-adam7.png; do
  if expect_status 0 "$HEATSIM" -q --json --material-map $f $mats -n 1 \
      --dt 1e-4 -L 1; then
    [ "$(json_field nx "$workdir/out")" = 4 ] && [ "$(json_field ny "$workdir/out")" = 3 ] \
      || fail "$f: grid $(json_field nx "$workdir/out") x $(json_field ny "$workdir/out"), expected 4 x 3"
  fi
done

# Indices beyond the palette: refused, naming the file and the pixel,
# even where black (what libpng makes of them) is a defined key.
refused "--material-map: beyond.png: .*pixel (3, 1) has palette index 5, beyond its palette of 2 colours" \
  --material-map beyond.png $mats -n 1 --dt 1e-4 -L 1
refused "--material-map: beyond4.png: .*pixel (2, 2) has palette index 15, beyond its palette of 3 colours" \
  --material-map beyond4.png $mats -n 1 --dt 1e-4 -L 1
refused "--material-map: beyond-adam7.png: .*pixel (1, 2) has palette index 3, beyond its palette of 3 colours" \
  --material-map beyond-adam7.png $mats -n 1 --dt 1e-4 -L 1
refused "--material-map: beyond2-adam7.png: .*pixel (2, 0) has palette index 3, beyond its palette of 2 colours" \
  --material-map beyond2-adam7.png $mats -n 1 --dt 1e-4 -L 1
refused "--material-map: beyond1.png: .*pixel (0, 2) has palette index 1, beyond its palette of 1 colour$" \
  --material-map beyond1.png $mats -n 1 --dt 1e-4 -L 1
refused "--source-map: beyond.png: .*pixel (3, 1) has palette index 5" \
  --source-map beyond.png --source-range 0,1 --conductivity 1 --density 1 \
  --heat-capacity 1 -n 1 --dt 1e-4 -L 1
refused "beyond.png: .*pixel (3, 1) has palette index 5" \
  --init beyond.png -n 1

# Under --json the refusal is a damaged file's, as for other PNG faults.
if expect_status 2 "$HEATSIM" -q --json --material-map beyond.png $mats -n 1 \
    --dt 1e-4 -L 1; then
  [ "$(json_field status "$workdir/out")" = bad_file ] \
    || fail "--json: status $(json_field status "$workdir/out"), expected bad_file"
fi

# A refused image leaves no output behind.
for opt in --material-map --init; do
  mkdir outputs
  case $opt in
    --init) args="--init beyond.png" ;;
    *) args="--material-map beyond.png $mats" ;;
  esac
  refused "beyond.png: .*palette index 5" $args -n 2 --dt 1e-4 -L 1 \
    --output-dir outputs --checkpoint-every 1 --png-every 1 \
    --monitor outputs/monitor.csv
  [ -z "$(ls outputs)" ] || fail "$opt: a refused image left files: $(ls outputs)"
  pass
  rm -rf outputs
done
finish
