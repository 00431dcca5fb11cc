#!/bin/sh
# The sample initial field in data/ (a grayscale PNG) loads as documented:
# its outer ring of pixels is the boundary, the rest the interior, gray
# levels 0..255 mapped to --init-range, y up.
. "${srcdir:-.}/tests/testlib.sh"
: "${PNG_PROBE:?PNG_PROBE must name tests/png_probe}"
png=${srcdir:-.}/data/ring-and-bar.png

"$PNG_PROBE" "$png" >"$workdir/probe" || fail "sample is not a readable PNG"
grep -qx "130x66 depth 8 type 0" "$workdir/probe" || fail "sample format"
sum=$("$PNG_PROBE" "$png" inner-sum | tail -n 1)

expect_status 0 "$HEATSIM" -q --json --init "$png" --init-range 0,100 \
  --length 2x1 --alpha 1 --end-time 0.002 --steps 200
[ "$(json_field nx "$workdir/out")" = 128 ] \
  && [ "$(json_field ny "$workdir/out")" = 64 ] || fail "grid not 128x64"
[ "$(json_field problem "$workdir/out")" = file ] || fail "problem not file"
want=$(awk -v s="$sum" 'BEGIN { printf "%.17g", s / 255 * 100 * (2/129) * (1/65) }')
close_to "$(json_field heat_initial "$workdir/out")" "$want" 1e-12 \
  || fail "initial heat $(json_field heat_initial "$workdir/out"), want $want"

# The warm bottom edge (gray 128 on the last image row) is the y = 0
# boundary: with zero-flux edges it is ignored, with the file's Dirichlet
# ring heat flows in from it.
expect_status 0 "$HEATSIM" -q --json --init "$png" --init-range 0,100 \
  --length 2x1 --alpha 1 --end-time 0.002 --steps 200 --edges 0,0,0,0
cold=$(json_field heat "$workdir/out")
expect_status 0 "$HEATSIM" -q --json --init "$png" --init-range 0,100 \
  --length 2x1 --alpha 1 --end-time 0.002 --steps 200 --edges 0,0,50.19607843137255,0
warm=$(json_field heat "$workdir/out")
expect_status 0 "$HEATSIM" -q --json --init "$png" --init-range 0,100 \
  --length 2x1 --alpha 1 --end-time 0.002 --steps 200
[ "$(json_field heat "$workdir/out")" = "$warm" ] \
  || fail "the PNG's bottom row is not the y = 0 boundary"
awk -v c="$cold" -v w="$warm" 'BEGIN { exit !(w > c) }' || fail "no warm edge"

# The same pixels, Adam7-interlaced, give the same field (the reader once
# took the interlaced passes for rows: garbage, status 0).
"$PNG_PROBE" "$png" interlace "$workdir/interlaced.png" \
  || fail "cannot write the interlaced fixture"
"$PNG_PROBE" "$workdir/interlaced.png" 0 0 >/dev/null \
  || fail "the interlaced fixture is unreadable"
for f in "$png" "$workdir/interlaced.png"; do
  expect_status 0 "$HEATSIM" -q --json --init "$f" --init-range 0,100 \
    --length 2x1 --alpha 1 --end-time 0.002 --steps 200
  json_field checksum "$workdir/out" >>"$workdir/sums"
done
[ "$(sort -u "$workdir/sums" | wc -l)" = 1 ] \
  || fail "interlaced PNG: field checksum $(tail -n 1 "$workdir/sums"), not $(head -n 1 "$workdir/sums")"
finish
