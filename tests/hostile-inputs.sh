#!/bin/sh
# Hostile but realistic inputs (issue 14, items 4-9, 11, 12): every one is
# refused with a message naming the option or file and exit status 2, or
# handled correctly; none crashes, runs wrongly or overwrites a file.
. "${srcdir:-.}/tests/testlib.sh"
d=$workdir/d
mkdir -p "$d"
small='-p mms -g 24x16 -L 1 -a 1'

# 4. --restart applies the stability rule of the checkpoint's dt.
expect_status 0 "$HEATSIM" -q $small --dt 1e-3 -n 4 -f --checkpoint-every 4 \
  --output-dir "$d/unstable"
refused "--restart: .*unstable" --restart "$d/unstable/heatsim-000004.h5" -n 2
expect_status 0 "$HEATSIM" -q --restart "$d/unstable/heatsim-000004.h5" -n 2 \
  --force --output-dir "$d/unstable2"

# 5. Step counts that would overflow are refused, before any step.
expect_status 0 "$HEATSIM" -q $small -T 1e-4 -n 10 --checkpoint-every 10 \
  --output-dir "$d/big"
# (timeout: today's code would compute for ever.)
expect_status 2 timeout 300 "$HEATSIM" -q --restart "$d/big/heatsim-000010.h5" \
  -n 18446744073709551610
grep -q -e "--steps: .*too many steps" "$workdir/err" \
  || fail "overflowing --steps: $(cat "$workdir/err")"
[ "$(ls "$d/big")" = "heatsim-000000.h5
heatsim-000010.h5
heatsim.xmf" ] || fail "files after an overflowing restart: $(ls "$d/big")"

# 6. A steady run restarted from a checkpoint stops on the same sweep with
# the same field as the uninterrupted run.
steady='-p plate -s --solver jacobi -g 20x14 --tol 1e-3 --residual-every 10'
expect_status 0 "$HEATSIM" -q --json $steady
whole=$(json_field checksum "$workdir/out")
sweeps=$(json_field steps "$workdir/out")
expect_status 4 "$HEATSIM" -q $steady --max-steps 25 --checkpoint-every 25 \
  --output-dir "$d/steady"
expect_status 0 "$HEATSIM" -q --json -s --tol 1e-3 --residual-every 10 \
  --restart "$d/steady/heatsim-000025.h5"
[ "$(json_field checksum "$workdir/out")" = "$whole" ] \
  || fail "steady restart: checksum $(json_field checksum "$workdir/out"), uninterrupted $whole"
[ $((25 + $(json_field steps "$workdir/out"))) -eq "$sweeps" ] \
  || fail "steady restart: 25 + $(json_field steps "$workdir/out") sweeps, uninterrupted $sweeps"

# 7. A restarted --edges run still has no exact solution, and the colour
# range of its frames is the one the run started with.
expect_status 0 "$HEATSIM" -q --json $small --edges 1,2,3,4 -T 1e-3 -n 20 \
  --checkpoint-every 10 --png-every 10 --colormap gray --output-dir "$d/edges"
[ "$(json_field l2_error "$workdir/out")" = null ] || fail "--edges run has an error"
expect_status 0 "$HEATSIM" -q --json --restart "$d/edges/heatsim-000010.h5" \
  -n 10 --png-every 10 --colormap gray --output-dir "$d/edges2"
[ "$(json_field l2_error "$workdir/out")" = null ] \
  || fail "restarted --edges run claims an exact solution: $(cat "$workdir/out")"
if [ -n "${PNG_PROBE:-}" ]; then
  # All but the command line and the case (its lines up to the next
  # chunk, heatsim:version), which differ.
  for _run in edges:a edges2:b; do
    "$PNG_PROBE" "$d/${_run%:*}/heatsim-000020.png" 2>&1 \
      | sed '/^heatsim:case=/,/^heatsim:version=/{/^heatsim:version=/!d;}' \
      | grep -v '^heatsim:command-line=' >"$workdir/${_run#*:}"
  done
  grep -q '^heatsim:version=' "$workdir/a" || fail "no text chunks: $(cat "$workdir/a")"
  cmp -s "$workdir/a" "$workdir/b" \
    || fail "frame 20 differs after restart (colour range recomputed)"
fi

# 8. JSON has no inf or nan; a colour range of extreme values still maps.
expect_status 0 "$HEATSIM" -q --json -p disk -g 8 -L 1e300 -n 1 --force
grep -q -i -e 'inf\b' -e 'nan\b' "$workdir/out" && fail "--json printed inf/nan: $(cat "$workdir/out")"
expect_status 0 "$HEATSIM" -q -p disk -g 16 -L 1 -a 1 -T 1e-5 -n 1 --png-every 1 \
  --colormap gray --range -1e308,1e308 --output-dir "$d/range"
if [ -n "${PNG_PROBE:-}" ]; then
  # Values 0..100 sit at the middle of -1e308..1e308: mid-gray, not black.
  [ "$("$PNG_PROBE" "$d/range/heatsim-000001.png" 3 3 | tail -n 1)" = "127 127 127" ] \
    || fail "--range -1e308,1e308: pixel $("$PNG_PROBE" "$d/range/heatsim-000001.png" 3 3 | tail -n 1)"
fi

# 9. Outputs never overwrite each other or the inputs.
refused "--checkpoint-name: .*--png-name" $small -T 1e-4 -n 2 --png-every 1 \
  --checkpoint-every 1 --png-name 'x-%d.out' --checkpoint-name 'x-%d.out' \
  --output-dir "$d/clash"
refused "--checkpoint-name: .*--png-name" $small -T 1e-4 -n 2 --png-every 1 \
  --checkpoint-every 1 --png-name 'x%d' --checkpoint-name 'x1%d' \
  --output-dir "$d/clash"
[ -e "$d/clash" ] && fail "a refused run created its output directory"
cp "$srcdir/data/ring-and-bar.png" "$d/heatsim-000001.png"
cp "$d/heatsim-000001.png" "$d/orig.png"
refused "--init: .*would be overwritten" --init "$d/heatsim-000001.png" \
  -L 1 -a 1 -T 1e-6 -n 2 --png-every 1 --output-dir "$d"
cmp -s "$d/heatsim-000001.png" "$d/orig.png" || fail "--init file overwritten"
# Step 0 is written too: an --init file named as its checkpoint is refused.
# (Its /field is read as a plain dataset: from a checkpoint itself the
# run would go on from the checkpoint's step 10, issue 25.)
cp "$d/big/heatsim-000010.h5" "$d/heatsim-000000.h5"
cp "$d/heatsim-000000.h5" "$d/orig.h5"
refused "--init: .*would be overwritten" --init "$d/heatsim-000000.h5" \
  --init-dataset field -L 1 -a 1 -T 1e-6 -n 2 --checkpoint-every 5 \
  --output-dir "$d"
cmp -s "$d/heatsim-000000.h5" "$d/orig.h5" || fail "--init file overwritten"
# Restarting in place is fine: later steps have other names.
expect_status 0 "$HEATSIM" -q --restart "$d/big/heatsim-000010.h5" -n 10 \
  --checkpoint-every 10 --output-dir "$d/big"

# 11. Outputs that cannot be written are found before the computation.
mkdir -p "$d/ro" && chmod a-w "$d/ro"
if ! touch "$d/ro/probe" 2>/dev/null; then
  refused "--output-dir: .*ro.*not writable\|--output-dir: .*ro.*Permission denied" \
    $small -T 1e-4 -n 2 --png-every 1 --output-dir "$d/ro"
else
  echo "running as a user who can write anywhere: read-only directory check skipped"
  rm -f "$d/ro/probe"
fi
# The profile's files too, as the probes' and the snapshots' are: a
# directory that takes no files (/sys, even for root), and a directory
# where its final file would go.
if [ -d /sys ] && ! touch /sys/heatsim-probe 2>/dev/null; then
  refused "--output-dir: /sys: not writable" $small -T 1e-4 -n 2 \
    --profile 0,0,1,1 --output-dir /sys
fi
mkdir -p "$d/pdir/profile.csv"
refused "--profile: .*/pdir/profile.csv is not a regular file" $small \
  -T 1e-4 -n 2 --profile 0,0,1,1 --output-dir "$d/pdir"
[ -z "$(ls -A "$d/pdir/profile.csv")" ] || fail "--profile wrote into a directory"
long=$(printf 'n%.0s' $(seq 1 250))
refused "--png-name: .*too long" $small -T 1e-4 -n 2 --png-every 1 \
  --png-name "$long-%d.png" --output-dir "$d/long"
refused "--png-every: .*1000000" -p mms -g 1000001x1 -T 1e-9 -n 1 --png-every 1 \
  --output-dir "$d/wide"

# 12. Small contract mismatches.
for info in --help --version --list-devices; do
  expect_status 1 sh -c "\"$HEATSIM\" $info >/dev/full"
done
refused "--json: .*takes no argument" --json=1
refused "--quiet: .*takes no argument" --quiet=yes
refused "'--st' is ambiguous" --st
refused "--png-name: only with --png-every" --png-name 'a%d.png'
refused "--checkpoint-name: only with --checkpoint-every" --checkpoint-name 'a%d.h5'
refused "--compress: only with --checkpoint-every" --compress 3
refused "--init-range: only with --init" --init-range 0,1
# A FIFO (or device) as input is refused rather than read: reading it
# would block.  timeout turns a hang into a failure of this test.
mkfifo "$d/fifo"
expect_status 2 timeout 300 "$HEATSIM" -q --init "$d/fifo"
grep -q "fifo: not a regular file" "$workdir/err" \
  || fail "--init FIFO: $(cat "$workdir/err")"

# 13. Hexadecimal numbers, which strtod and strtoul would read, are
# refused, naming the option; the decimal forms are taken.
refused "^heatsim: --conductivity: '0x10' is not a number" -g 8 -n 1 \
  --conductivity 0x10 --density 1 --heat-capacity 1
refused "^heatsim: --alpha: '-0X1p-3' is not a number" -g 8 -n 1 --alpha -0X1p-3
refused "^heatsim: --grid: '0x40'" -g 0x40 -n 1
refused "^heatsim: --steps: '0x10' is not a whole number" -g 8 -n 0x10
refused "^heatsim: --bc left: '0x1p3' is not a number" -g 8 -n 1 \
  --bc left=flux:0x1p3
refused "^heatsim: --bc left: '0x1' is not a number" -g 8 -n 1 \
  --bc left=convection:10,0x1
refused "^heatsim: --source-rect: '0x1' is not a number" -g 8 -n 1 \
  --source-rect 0,0x1,0,1,1
expect_status 0 "$HEATSIM" -q -g 8 -n 1 --conductivity 1e3 --density .5 \
  --heat-capacity +2 --bc left=flux:-1.5E2 --steps auto -T 1e-3

# 14. A heat transfer coefficient that is not finite is refused with its
# option, on the command line and in a schedule; one so large that the
# stability number overflows too, rather than offering 'dt <= 0' (or,
# with --force, running into NaN).
refused "^heatsim: --bc left: 'inf' is out of range" -g 8 -n 1 \
  --bc left=convection:inf,20
refused "^heatsim: --bc left: 'nan' is out of range" -g 8 -n 1 \
  --bc left=convection:10,nan
refused "^heatsim: --surface-convection: 'inf' is out of range" -g 8 -n 1 \
  --thickness 1 --surface-convection inf,2
printf 'time,value\n0,1e308\n' >"$d/huge.csv"
refused "^heatsim: --bc right: a heat transfer coefficient H so large" \
  -g 8 -n 1 --bc right=convection:@"$d/huge.csv",20
refused "^heatsim: --surface-convection: a heat transfer coefficient H so large" \
  -g 8 -n 1 --force --bc left=convection:1,2 --thickness 1 \
  --surface-convection 1e308,2
finish
