#!/bin/sh
# --probe, --profile and the report's peak against the checkpoints of the
# same steps, read by h5dump (no heatsim code): a probe on a node is that
# node, a probe between nodes the bilinear interpolation of its four
# (computed here), a profile along a grid line the row or column, the
# peak the checkpoint's largest value at its node, and the mean its
# mean; a steady run's last row has no time; the probe file of a
# restarted run (at a step rows fall on, and at one they do not) is the
# unbroken run's byte for byte; host, map and resident write the same
# file; refusals of bad input with status 2 and no file left behind.
. "${srcdir:-.}/tests/testlib.sh"

[ -n "${H5DUMP:-}" ] || { echo "SKIP: no h5dump"; exit 77; }

# field FILE: the interior of checkpoint FILE, one value a line, row by
# row from the bottom (y = dy) up, with 17 digits.
field () {
  "$H5DUMP" -d /field -y -w 0 -m %.17g "$1" \
    | awk '/^   DATA \{/ { on = 1; next } on && /\}/ { exit }
           on { sub(/,$/, ""); print $1 }'
}

# column FILE STEP N: column N of the row of STEP in CSV FILE.
column () {
  awk -F, -v s="$2" -v n="$3" '$1 == s { print $n }' "$1"
}

# A plate of 9 x 7 cells on 1 x 0.8: dx = dy = 0.1, nodes at 0.1 k.
plate="-p plate -g 9x7 -L 1x0.8 -a 1 --dt 1e-4"
probes="--probe 0.3,0.5 --probe 0.45,0.32 --probe 0.9,0.1"
expect_status 0 "$HEATSIM" -q --json $plate -n 100 $probes --probe-every 25 \
  --checkpoint-every 50 --profile 0,0.4,1,0.4 --output-dir run
[ "$(head -n 1 run/probes.csv)" = 'step,time,T(0.3;0.5),T(0.45;0.32),T(0.9;0.1)' ] \
  || fail "probe header: $(head -n 1 run/probes.csv)"
[ "$(cut -d, -f1 run/probes.csv | tr '\n' ' ')" = 'step 0 25 50 75 100 ' ] \
  || fail "probe rows: $(cut -d, -f1 run/probes.csv | tr '\n' ' ')"
[ "$(column run/probes.csv 50 2)" = 0.0050000000000000001 ] \
  || fail "time of step 50: $(column run/probes.csv 50 2)"
for step in 50 100; do
  ck=$(printf 'run/heatsim-%06d.h5' $step)
  field "$ck" >f$step.txt
  [ "$(wc -l <f$step.txt)" -eq 63 ] || { fail "h5dump of $ck"; continue; }
  # Node (i, j) of the grid is line (j - 1) * 9 + i of the interior.
  node () { sed -n "$((($2 - 1) * 9 + $1))p" f$step.txt; }
  [ "$(column run/probes.csv $step 3)" = "$(node 3 5)" ] \
    || fail "step $step: probe on node (3, 5): $(column run/probes.csv $step 3), checkpoint $(node 3 5)"
  [ "$(column run/probes.csv $step 5)" = "$(node 9 1)" ] \
    || fail "step $step: probe on node (9, 1) differs from the checkpoint"
  # (0.45, 0.32): x half way from node 4 to 5, y 0.2 of the way from 3 to 4.
  awk -v t="$(column run/probes.csv $step 4)" -v a="$(node 4 3)" \
      -v b="$(node 5 3)" -v c="$(node 4 4)" -v d="$(node 5 4)" 'BEGIN {
        want = 0.8 * (0.5 * a + 0.5 * b) + 0.2 * (0.5 * c + 0.5 * d)
        e = t - want; if (e < 0) e = -e
        exit !(e <= 1e-14 * want && t != a && t != b) }' \
    || fail "step $step: probe between nodes: $(column run/probes.csv $step 4)"
  # The profile at y = 0.4 (row 4): 11 points from x = 0 to 1, the
  # interior ones the nodes of the row.
  prof=$(printf 'run/profile-%06d.csv' $step)
  [ -f "$prof" ] || { fail "no $prof"; continue; }
  [ "$(head -n 1 "$prof")" = 's,x,y,T' ] || fail "$prof: header"
  [ "$(wc -l <"$prof")" -eq 12 ] || fail "$prof: $(wc -l <"$prof") lines"
  sed -n 3,11p "$prof" | cut -d, -f4 >row.txt
  sed -n 28,36p f$step.txt | cmp -s - row.txt \
    || fail "$prof: not row 4 of $ck: $(tr '\n' ' ' <row.txt)"
  awk -F, 'NR > 1 { if ($1 != $2 || $3 != 0.4) bad = 1 } END { exit bad }' \
    "$prof" || fail "$prof: s, x or y wrong"
  pass
done
cmp -s run/profile.csv run/profile-000100.csv \
  || fail "profile.csv is not the last step's profile"
# The peak: the checkpoint's largest value, at its node, and the mean.
awk -v v="$(json_field peak out)" -v x="$(json_field peak_x out)" \
    -v y="$(json_field peak_y out)" -v m="$(json_field mean out)" '
  { if (NR == 1 || $1 > best) { best = $1; k = NR - 1 } sum += $1 }
  END {
    px = (k % 9 + 1) * 0.1; py = (int(k / 9) + 1) * 0.1
    ex = x - px; ey = y - py; em = m - sum / NR
    if (ex < 0) ex = -ex; if (ey < 0) ey = -ey; if (em < 0) em = -em
    exit !(v == best && ex < 1e-15 && ey < 1e-15 && em <= 1e-14 * m) }' \
  f100.txt || fail "peak $(json_field peak out) at ($(json_field peak_x out), $(json_field peak_y out)), mean $(json_field mean out)"

# A profile along a column, N given.
expect_status 0 "$HEATSIM" -q $plate -n 50 --profile 0.7,0.8,0.7,0,9 \
  --checkpoint-every 50 --output-dir col
field col/heatsim-000050.h5 >c.txt
awk 'NR % 9 == 7' c.txt | sort -g >col.txt
sed -n '2,$p' col/profile.csv | cut -d, -f4 | sed -n 2,8p | sort -g \
  | cmp -s - col.txt || fail "profile along x = 0.7 is not column 7"
[ "$(wc -l <col/profile.csv)" -eq 10 ] || fail "profile of 9 points"

# Zero-flux and periodic edges (issue 24): the nodes of a zero-flux edge
# lie on it (-g 8: dx = 1/7), so a probe there is the edge node; a
# periodic axis has 8 nodes per period (dx = 1/8), and a probe on its
# high edge reads its first node, at every step, not the halo of a step
# before.
g9="-p disk -g 8 -L 1 -a 1 --dt 1e-3 -n 6 --probe-every 1"
y3=0.42857142857142855
expect_status 0 "$HEATSIM" -q $g9 -b neumann --probe 0,$y3 --probe 1,$y3 \
  --checkpoint-every 6 --output-dir neumann
field neumann/heatsim-000006.h5 >n6.txt
[ "$(column neumann/probes.csv 6 3)" = "$(sed -n 25p n6.txt)" ] \
  && [ "$(column neumann/probes.csv 6 4)" = "$(sed -n 32p n6.txt)" ] \
  || fail "zero-flux edges: $(cat neumann/probes.csv), not the edge nodes"
expect_status 0 "$HEATSIM" -q $g9 -b periodic --probe 0.5,0 --probe 0.5,1 \
  --output-dir periodic
awk -F, 'NR > 1 && $3 != $4 { bad = 1 } END { exit bad }' \
  periodic/probes.csv || fail "periodic edges: $(cat periodic/probes.csv)"
[ "$(tail -n 1 neumann/probes.csv | cut -d, -f3)" != 0 ] \
  || fail "zero-flux edge: no heat has reached it"

# Steady: rows without time; the last is the steady field's.
expect_status 0 "$HEATSIM" -q -p plate -s -g 9x7 -L 1x0.8 --probe 0.5,0.3 \
  --probe-every 3 --checkpoint-every 1000 --output-dir steady
last=$(tail -n 1 steady/probes.csv)
[ "$(echo "$last" | cut -d, -f2)" = "" ] || fail "steady row has a time: $last"
ck=$(ls steady/heatsim-*.h5 | tail -n 1)
[ "$(echo "$last" | cut -d, -f3)" = "$(field "$ck" | sed -n 23p)" ] \
  || fail "steady: last probe row is not the last checkpoint's node"

# A run that starts later (--init of a checkpoint, --start-time) stamps
# its probe rows with the simulated time, the monitor's: not step dt.
# same_times DIR MONITOR: the time column of DIR/probes.csv is MONITOR's.
same_times () {
  cut -d, -f1,2 "$1/probes.csv" >pt.txt
  cut -d, -f1,2 "$2" | cmp -s - pt.txt \
    || fail "$1: probe times $(cut -d, -f2 pt.txt | tr '\n' ' '), monitor $(cut -d, -f2 "$2" | tr '\n' ' ')"
}
expect_status 0 "$HEATSIM" -q -p disk -g 16 -n 4 -T 2 --checkpoint-every 4 \
  --output-dir early
expect_status 0 "$HEATSIM" -q -n 3 -T 0.3 --init early/heatsim-000004.h5 \
  --monitor late.csv --monitor-every 1 --probe 500,500 --probe-every 1 \
  --output-dir late
same_times late late.csv
[ "$(column late/probes.csv 5 2)" = 2.1000000000000001 ] \
  || fail "--init: time of step 5: $(column late/probes.csv 5 2)"
expect_status 0 "$HEATSIM" -q --init "$srcdir/data/ring-and-bar.png" \
  --start-time 5 -n 3 --monitor start.csv --monitor-every 1 \
  --probe 0.5,0.5 --probe-every 1 --output-dir start
same_times start start.csv
[ "$(column start/probes.csv 0 2)" = 5 ] \
  || fail "--start-time 5: time of the first row: $(column start/probes.csv 0 2)"

# Restart: the probe file continued is the unbroken run's, restarted at a
# step rows fall on (every 25) and at one they do not (every 30).
for every in 25 30; do
  expect_status 0 "$HEATSIM" -q $plate -n 100 $probes \
    --probe-every $every --output-dir whole$every
  expect_status 0 "$HEATSIM" -q $plate -n 50 $probes --probe-every $every \
    --checkpoint-every 50 --output-dir cut$every
  expect_status 0 "$HEATSIM" -q -n 50 $probes --probe-every $every \
    --restart cut$every/heatsim-000050.h5 --checkpoint-every 50 \
    --output-dir cut$every
  cmp -s whole$every/probes.csv cut$every/probes.csv \
    || fail "restart (every $every): $(diff whole$every/probes.csv cut$every/probes.csv)"
done
# Other probes than those of the file continued are refused.
refused "--probe-file: cut25/probes.csv exists and is not a heatsim probe file" \
  -n 10 --probe 0.5,0.5 --restart cut25/heatsim-000100.h5 --output-dir cut25

# Every strategy writes the same file.
for o in host map resident; do
  expect_status 0 "$HEATSIM" -q $plate -n 60 $probes --probe-every 7 \
    --profile 0,0,1,0.8 -o $o --output-dir s-$o
done
for o in map resident; do
  cmp -s s-host/probes.csv s-$o/probes.csv || fail "--offload $o: other probes"
  cmp -s s-host/profile.csv s-$o/profile.csv || fail "--offload $o: other profile"
done

# Refusals: status 2, a message, no file.
refused "--probe: (2, 0.5) lies outside" $plate -n 1 --probe 2,0.5 --output-dir r
refused "--probe: (0.5, -0.1) lies outside" $plate -n 1 --probe 0.5,-0.1 --output-dir r
refused "--probe: " -n 1 --probe 1 --output-dir r
refused "--probe: " -n 1 --probe 1,2,3 --output-dir r
refused "--probe: " -n 1 --probe a,b --output-dir r
refused "--probe: 'nan'" -n 1 --probe nan,1 --output-dir r
refused "--probe-every: " -n 1 --probe 1,1 --probe-every 0 --output-dir r
refused "--probe-every: only with --probe" -n 1 --probe-every 5
refused "--probe-file: only with --probe" -n 1 --probe-file p.csv
refused "--probe-file: empty file name" -n 1 --probe 1,1 --probe-file ''
refused "--probe-file: run/probes.csv exists; heatsim does not overwrite it" \
  -n 1 --probe 1,1 --output-dir run
refused "--probe-file: m.csv is also the --monitor file" \
  -n 1 --probe 1,1 --probe-file m.csv --monitor ./m.csv
[ -e m.csv ] && fail "a refused run left the monitor file"
refused "--probe-file: d/x.csv: cannot create" -n 1 --probe 1,1 \
  --probe-file d/x.csv --monitor m.csv
[ -e m.csv ] && fail "a refused probe file left the monitor file"
refused "--profile: (0, 2) lies outside" $plate -n 1 --profile 0,0,0,2 --output-dir r
refused "--profile: .*no length" -n 1 --profile 1,1,1,1 --output-dir r
refused "--profile: .*not a whole number" -n 1 --profile 0,0,1,1,1 --output-dir r
refused "--profile: .*not a whole number" -n 1 --profile 0,0,1,1,2.5 --output-dir r
# The number as given, not rounded to 6 digits (1e+06 would be allowed).
refused "--profile: .*the number of points, 1000001, is not" -g 10x5 \
  --profile 0,0,1000,1000,1000001 --output-dir r
refused "--profile: .*the number of points, 0.1, is not" -n 1 \
  --profile 0,0,1,1,0.1 --output-dir r
# A later --profile replaces an earlier one (as after --case).
if expect_status 0 "$HEATSIM" -q -n 1 --profile 0,0,1,1 --profile 0,0,1,2 \
    --output-dir twice; then
  tail -n 1 twice/profile.csv | grep -q '^2.236067977499789[0-9]*,1,2,' \
    || fail "a later --profile does not count: $(tail -n 1 twice/profile.csv)"
fi
refused "--profile: its files.*--monitor" -n 1 --profile 0,0,1,1 \
  --monitor profile.csv
[ -e profile.csv ] && fail "a refused profile left the monitor file"
refused "--profile: its files.*snapshot" -n 1 --profile 0,0,1,1 \
  --output-dir r --checkpoint-every 1 --checkpoint-name 'profile-%d.csv'
[ -e r/probes.csv ] || [ -e r/profile.csv ] || [ -e r/m.csv ] \
  && fail "a refused run left a file in r: $(ls r)"
# profile-STEP.csv comes with checkpoints alone: without them a PNG
# pattern of those names clashes with nothing (it was refused), with
# them it is refused.
expect_status 0 "$HEATSIM" -q -g 16 -n 4 -L 1 -T 1e-3 -p disk \
  --png-every 2 --png-name 'profile-0000%d.csv' --profile 0,0,1,1 \
  --output-dir pngs
refused "--profile: its files.*snapshot" -g 16 -n 4 -L 1 -T 1e-3 \
  -p disk --png-every 2 --png-name 'profile-0000%d.csv' --profile 0,0,1,1 \
  --checkpoint-every 4 --output-dir pngs2

# A segment far shorter than a cell still has its two ends (N is at
# least 2): its default count was ceil(cells - 1e-9) + 1 = 1, one row,
# the end point labelled s = 0 (a hostile test pass found it).
expect_status 0 "$HEATSIM" -q -g 16 -n 4 -L 1 -T 1e-3 -p disk \
  --profile 0.25,0.5,0.25000000000001,0.5 --output-dir short
rows=$(tail -n +2 short/profile.csv | wc -l)
[ "$rows" -eq 2 ] || fail "--profile of a segment under a cell: $rows rows, not 2: $(cat short/profile.csv)"
[ "$(tail -n +2 short/profile.csv | head -n 1 | cut -d, -f2)" = 0.25 ] \
  || fail "--profile of a segment under a cell: first point $(tail -n +2 short/profile.csv | head -n 1)"

finish
