#!/bin/sh
# --png-legend, --png-scale and --png-name %f: the documented image sizes
# (even ones for video encoders), the field untouched by the legend, K x K
# blocks equal to the plain image's pixels, the legend's text decoded with
# src/font.c's glyph table, frame numbering and restarts, the text chunks
# of provenance, and bad values.
. "${srcdir:-.}/tests/testlib.sh"
: "${PNG_PROBE:?PNG_PROBE must name tests/png_probe}"
# zlib is all the helper needs; Debian's python3 has it.
PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import zlib' 2>/dev/null || { echo "no python3"; exit 77; }
check () {
  "$PYTHON" "$srcdir/tests/png_legend.py" "$@" >"$workdir/py" 2>&1 \
    || fail "png_legend.py $*: $(cat "$workdir/py")"
  checks=$((checks + 1))
}
# size FILE WxH: the image's width and height.
size () {
  got=$("$PNG_PROBE" "$1" | sed -n '1s/ .*//p')
  [ "$got" = "$2" ] || fail "$1 is $got, not $2"
}
# says FILE LINE...: the legend's text, line by line.
says () {
  f=$1
  shift
  check text "$f" "$srcdir/src/font.c"
  printf '%s\n' "$@" >"$workdir/want"
  cmp -s "$workdir/py" "$workdir/want" \
    || fail "$f: legend says '$(cat "$workdir/py")', not '$*'"
}
plate='--problem plate --grid 40x20 --end-time 3000 --steps 25 --png-every 10'

# The plain image and the legend's, K = 1: the legend is 39 pixels under
# the field and 6 D + 121 = 157 wide (D = 6: room for steps up to
# 999999), made even: 158x60, for every frame.
expect_status 0 "$HEATSIM" -q $plate --output-dir plain
expect_status 0 "$HEATSIM" -q $plate --png-legend --output-dir legend
size plain/heatsim-000025.png 40x20
for s in 10 20 25; do
  size legend/heatsim-0000$s.png 158x60
done
# The field is the plain image's, beside it is background, under it the
# bar and its labels.
check scale plain/heatsim-000025.png legend/heatsim-000025.png 1
check legend legend/heatsim-000025.png
says legend/heatsim-000010.png "0 50 100" "step 10 t=1200"
says legend/heatsim-000025.png "0 50 100" "step 25 t=3000"
# Another range, and the labels follow it.
expect_status 0 "$HEATSIM" -q $plate --png-legend --range -5,7.5 \
  --output-dir range
says range/heatsim-000020.png "-5 1.25 7.5" "step 20 t=2400"
[ "$("$PNG_PROBE" range/heatsim-000020.png pixels)" != \
  "$("$PNG_PROBE" legend/heatsim-000020.png pixels)" ] \
  || fail "legends of different ranges are alike"

# K = 4: 160x80 cells, text magnified 2: 314 wide, 80 + 78 high.
expect_status 0 "$HEATSIM" -q $plate --png-legend --png-scale 4 \
  --output-dir k4
size k4/heatsim-000025.png 314x158
check scale plain/heatsim-000025.png k4/heatsim-000025.png 4
check legend k4/heatsim-000025.png
says k4/heatsim-000025.png "0 50 100" "step 25 t=3000"

# Odd sizes: 41x21 cells at K = 3 are 123x63 pixels, padded to 124x64;
# the plain image keeps its odd size.
odd='--problem disk --grid 41x21 --length 1 --alpha 1 --end-time 1e-4 --steps 4 --png-every 4'
expect_status 0 "$HEATSIM" -q $odd --output-dir odd1
expect_status 0 "$HEATSIM" -q $odd --png-scale 3 --output-dir odd3
size odd1/heatsim-000004.png 41x21
size odd3/heatsim-000004.png 124x64
check scale odd1/heatsim-000004.png odd3/heatsim-000004.png 3
expect_status 0 "$HEATSIM" -q $odd --png-scale 1 --output-dir odd1e
size odd1e/heatsim-000004.png 42x22

# 16-bit gray: the same layout, the bar a gray ramp; small times in
# exponent form.
mms='--grid 64x48 --length 1 --alpha 1 --dt 1e-5 --steps 3 --png-every 3'
expect_status 0 "$HEATSIM" -q $mms --png-depth 16 --range 0,1 --png-legend \
  --output-dir g16
size g16/heatsim-000003.png 158x88
check legend g16/heatsim-000003.png
says g16/heatsim-000003.png "0 0.5 1" "step 3 t=3e-05"
# A steady run counts sweeps.  Long labels set the legend's width, the
# two of them 12 apart inside margins of 4: 59 + 12 + 53 + 8 = 132, with
# no room for the middle one.
expect_status 4 "$HEATSIM" -q --problem plate --grid 30x20 --steady --solver jacobi \
  --max-steps 40 --png-every 20 --png-legend --colormap gray \
  --range -12345.6,98765.4 --output-dir steady
size steady/heatsim-000040.png 132x60
says steady/heatsim-000040.png "-1.235e+04 9.877e+04" "sweep 40"
check legend steady/heatsim-000040.png

# Frame numbers: 0, 1, 2, ... whatever the steps, and a restart into the
# same names is refused, so that it cannot write over the first frames.
expect_status 0 "$HEATSIM" -q $plate --png-name 'f-%03f.png' \
  --checkpoint-every 10 --output-dir frames
n=0
for f in frames/f-*.png; do
  [ "$f" = "frames/f-$(printf %03d $n).png" ] || fail "frame $n is $f"
  n=$((n + 1))
done
"$PNG_PROBE" "frames/f-$(printf %03d $((n - 1))).png" | grep -qx 'heatsim:step=25' \
  || fail "the last frame is not step 25"
expect_status 2 "$HEATSIM" -q --restart frames/heatsim-000020.h5 -n 10 \
  --png-every 10 --png-name 'f-%03f.png' --output-dir frames
grep -q -e "--png-name: frames/f-00[0-9].png would be overwritten" \
  "$workdir/err" || fail "restart over frames: $(cat "$workdir/err")"
expect_status 0 "$HEATSIM" -q --restart frames/heatsim-000020.h5 -n 10 \
  --png-every 10 --png-name 'g-%03f.png' --output-dir frames
[ -f frames/g-000.png ] || fail "restart frames: $(ls frames)"
# An --init image named like a frame this run writes is kept.
cp frames/f-001.png init-001.png
refused "--init: ./init-001.png would be overwritten by the snapshot of frame 1" \
  --init ./init-001.png --init-range 0,100 --steps 3 --png-every 1 \
  --png-name 'init-%03f.png'


# Provenance and parameters in text chunks, exactly; a command line
# beyond ASCII goes in an iTXt chunk as UTF-8.
expect_status 0 "$HEATSIM" -q $plate --png-scale 2 --png-name 'é-%d.png' \
  --output-dir text
"$PNG_PROBE" text/é-25.png >"$workdir/probe"
version=$("$HEATSIM" --version | sed -n 1p)
device=$("$HEATSIM" --version | sed -n 's/^Device code: //p')
mpi=$("$HEATSIM" --version | sed -n 's/^MPI: //p')
for line in "heatsim:grid=40x20" "heatsim:length=1000x1000" \
    "heatsim:alpha=0.1" "heatsim:dt=120" "heatsim:step=25" \
    "heatsim:time=3000" "heatsim:range=0 100" "heatsim:scale=2" \
    "heatsim:version=$version" "heatsim:device-code=$device" \
    "heatsim:mpi=$mpi" \
    "heatsim:command-line=$HEATSIM -q $plate --png-scale 2 --png-name 'é-%d.png' --output-dir text"; do
  grep -qxF "$line" "$workdir/probe" || fail "text chunks lack '$line'"
done

# Bad values, and the options without --png-every.
for k in 0 -1 65 99999999999999999999 abc 2.5 ''; do
  refused "--png-scale: " --png-every 1 --png-scale "$k"
done
refused "--png-legend: only with --png-every" --png-legend
refused "--png-scale: only with --png-every" --png-scale 2
refused "--png-legend: takes no argument" --png-every 1 --png-legend=yes
refused "--png-name: 'a-%d-%f.png' needs exactly one" --png-every 1 \
  --png-name 'a-%d-%f.png'
refused "--checkpoint-name: 'c-%f.h5': %f (frame index) is only for --png-name" \
  --checkpoint-every 1 --checkpoint-name 'c-%f.h5'
# 20000 cells at 64 pixels each: wider than libpng allows, before the run.
refused "--png-every: a 20000x2 grid at this --png-scale" \
  --grid 20000x2 --length 20000x2 --png-every 1 --png-scale 64 \
  --output-dir big
[ ! -e big ] || fail "the run began before refusing the image size"
finish
