#!/bin/sh
# PNG snapshots: names, initial and final step, text chunks, colour maps, 16-bit gray,
# orientation (y up), and a mid-run snapshot of an offload strategy equal
# to the same step computed by the host strategy.
. "${srcdir:-.}/tests/testlib.sh"
: "${PNG_PROBE:?PNG_PROBE must name tests/png_probe}"
out=$workdir/png
plate='--problem plate --grid 40x20 --end-time 3000'

expect_status 0 "$HEATSIM" -q $plate --steps 25 --png-every 10 --output-dir "$out"
[ "$(cd "$out" && echo *)" = \
  "heatsim-000000.png heatsim-000010.png heatsim-000020.png heatsim-000025.png" ] \
  || fail "snapshots: $(cd "$out" && echo *)"
"$PNG_PROBE" "$out/heatsim-000000.png" >"$workdir/probe" || fail "probe 0"
grep -qx "heatsim:step=0" "$workdir/probe" || fail "snapshot 0 is not of step 0"
# A field width without a 0 pads with zeros too (%4d is %04d, as in
# ffmpeg's image sequences), never with printf's spaces: snapshots,
# checkpoints and frames.
expect_status 0 "$HEATSIM" -q $plate --steps 12 --png-every 10 \
  --png-name 'w-%4d.png' --checkpoint-every 10 --checkpoint-name 'c-%3d.h5' \
  --output-dir "$out/width"
[ "$(cd "$out/width" && echo *)" = \
  "c-000.h5 c-010.h5 c-012.h5 heatsim.xmf w-0000.png w-0010.png w-0012.png" ] \
  || fail "%Nd names: $(cd "$out/width" && echo *)"
expect_status 0 "$HEATSIM" -q $plate --steps 12 --png-every 10 \
  --png-name 'f-%3f.png' --output-dir "$out/frames"
[ "$(cd "$out/frames" && echo *)" = "f-000.png f-001.png f-002.png" ] \
  || fail "%Nf names: $(cd "$out/frames" && echo *)"
"$PNG_PROBE" "$out/heatsim-000025.png" >"$workdir/probe" || fail "probe"
for line in "40x20 depth 8 type 2" "Software=heatsim 0.1.0" \
    "heatsim:step=25" "heatsim:time=3000" "heatsim:range=0 100" \
    "heatsim:colormap=viridis" "heatsim:problem=plate"; do
  grep -qx "$line" "$workdir/probe" || fail "snapshot lacks '$line'"
done

# 16-bit linear gray: the hot corner of the plate is at the bottom right
# (y up), and a pixel is (u - lo) / (hi - lo) * 65535.
expect_status 0 "$HEATSIM" -q $plate --steps 30 --png-every 30 \
  --png-depth 16 --range 0,200 --output-dir "$out/16"
"$PNG_PROBE" "$out/16/heatsim-000030.png" 39 19 >"$workdir/br"
"$PNG_PROBE" "$out/16/heatsim-000030.png" 0 0 >"$workdir/tl"
grep -qx "40x20 depth 16 type 0" "$workdir/br" || fail "not 16-bit gray"
br=$(tail -n 1 "$workdir/br")
tl=$(tail -n 1 "$workdir/tl")
echo "16-bit plate: bottom right $br, top left $tl"
[ "$br" -gt 1000 ] && [ "$br" -le 32768 ] && [ "$tl" -eq 0 ] \
  || fail "orientation or scaling: bottom right $br, top left $tl"

# Gray colour map: equal channels.  Names follow --png-name.
expect_status 0 "$HEATSIM" -q $plate --steps 10 --png-every 10 \
  --colormap gray --png-name 'frame-%04d-100%%.png' --output-dir "$out/g"
[ -f "$out/g/frame-0010-100%.png" ] || fail "--png-name: $(ls "$out/g")"
px=$("$PNG_PROBE" "$out/g/frame-0010-100%.png" 39 19 | tail -n 1)
set -- $px
[ "$1" = "$2" ] && [ "$2" = "$3" ] && [ "$1" -gt 0 ] || fail "gray pixel $px"

# A mid-run snapshot of each offload strategy is the host's field of that
# step: resident fetches the grid holding the newest step after the swaps.
mms='--grid 64x48 --length 1 --alpha 1 --dt 0.00005'
expect_status 0 "$HEATSIM" -q $mms --steps 10 -o host --png-every 5 \
  --png-depth 16 --range 0,1 --output-dir "$out/host"
for s in map resident; do
  expect_status 0 "$HEATSIM" -q $mms --steps 20 -o $s \
    --png-every 5 --png-depth 16 --range 0,1 --output-dir "$out/$s"
  for k in 5 10; do
    # Pixels, not bytes: the text chunks hold each run's command line.
    f=heatsim-0000$(printf %02d $k).png
    [ "$("$PNG_PROBE" "$out/host/$f" pixels)" = \
      "$("$PNG_PROBE" "$out/$s/$f" pixels)" ] \
      || fail "$s: snapshot of step $k differs from the host's"
  done
done
[ "$("$PNG_PROBE" "$out/host/heatsim-000005.png" pixels)" = \
  "$("$PNG_PROBE" "$out/host/heatsim-000010.png" pixels)" ] \
  && fail "steps 5 and 10 gave the same image: the test proves nothing"

# Bad values for the PNG options.
expect_status 2 "$HEATSIM" -q --png-every 5 --png-name 'x.png'
grep -q -e "--png-name: 'x.png' needs exactly one step field" "$workdir/err" \
  || fail "bad --png-name message: $(cat "$workdir/err")"
expect_status 2 "$HEATSIM" -q --png-every 5 --png-name 'a%d%d.png'
expect_status 2 "$HEATSIM" -q --png-every 5 --png-name 'dir/%d.png'
expect_status 2 "$HEATSIM" -q --png-every 5 --png-name '%s.png'
expect_status 2 "$HEATSIM" -q --png-every 5 --colormap jet
expect_status 2 "$HEATSIM" -q --png-every 5 --range 1,0
expect_status 2 "$HEATSIM" -q --png-every 5 --png-depth 12
expect_status 2 "$HEATSIM" -q --colormap gray
grep -q -e "--colormap: only with --png-every" "$workdir/err" || fail "colormap"
finish
