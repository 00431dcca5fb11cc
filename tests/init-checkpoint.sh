#!/bin/sh
# --init from a heatsim checkpoint (issue 25, defects 1 and 4): the run
# takes the checkpoint's domain and alpha unless given, refuses given ones
# that contradict them, and goes on from its step and time (or
# --start-time), so that segments chained with --init in one output
# directory make one XDMF index with increasing steps and times.  A
# plain HDF5 field gives the grid only, as before.
. "${srcdir:-.}/tests/testlib.sh"
: "${H5_FIXTURES:?H5_FIXTURES must name tests/h5_fixtures}"

# A 0.2 x 0.1 m plate of alpha 1.17e-5 (the issue's), dt 0.5: stable.
plate='-p disk -g 30x20 -L 0.2x0.1 -a 1.17e-5'
c=$workdir/c

# json_is KEY VALUE: the key of the last --json report.
json_is () {
  [ "$(json_field "$1" "$workdir/out")" = "$2" ] \
    || fail "$3: $1 is $(json_field "$1" "$workdir/out"), not $2"
}

# The first segment: steps 0 to 20, checkpoints at 0, 10 and 20.
expect_status 0 "$HEATSIM" -q --json $plate --dt 0.5 -n 20 \
  --checkpoint-every 10 --output-dir "$c"
whole=$(json_field checksum "$workdir/out")

# Defect 1: the domain and alpha come from the checkpoint.  From step 10
# with the same dt, the run is the restart's, bit for bit.
expect_status 0 "$HEATSIM" -q --json --init "$c/heatsim-000010.h5" --dt 0.5 \
  -n 10
json_is lx 0.20000000000000001 "--init of a 0.2 x 0.1 checkpoint"
json_is ly 0.10000000000000001 "--init of a 0.2 x 0.1 checkpoint"
json_is alpha 1.17e-05 "--init of a checkpoint of alpha 1.17e-5"
json_is start_step 10 "--init of step 10"
json_is start_time 5 "--init of step 10 at t = 5"
json_is end_time 10 "--init of t = 5 for 10 steps of 0.5"
json_is checksum "$whole" "--init from step 10 to step 20"
# Given ones that agree are accepted; others are refused, naming the
# option and the file's value.
expect_status 0 "$HEATSIM" -q --json --init "$c/heatsim-000010.h5" \
  -L 0.2x0.1 -a 1.17e-5 --dt 0.5 -n 10
json_is checksum "$whole" "--init with its own -L and -a"
expect_status 2 "$HEATSIM" -q --init "$c/heatsim-000010.h5" -L 1 --dt 0.5 \
  -n 1
grep -q -e "--length: 1x1 contradicts the domain 0.2x0.1 of .*heatsim-000010.h5" \
  "$workdir/err" || fail "-L against the checkpoint: $(cat "$workdir/err")"
expect_status 2 "$HEATSIM" -q --init "$c/heatsim-000010.h5" -a 2e-5 \
  --dt 0.5 -n 1
grep -q -e "--alpha: 2e-05 contradicts the alpha 1.17e-05 of .*heatsim-000010.h5" \
  "$workdir/err" || fail "-a against the checkpoint: $(cat "$workdir/err")"
# Values that differ in their eighth digit are printed so: %g made them
# "0.2x0.1 contradicts the domain 0.2x0.1" (a hostile test pass).
expect_status 2 "$HEATSIM" -q --init "$c/heatsim-000010.h5" \
  -L 0.2x0.10000001 --dt 0.5 -n 1
grep -q -e "--length: 0.2x0.10000001 contradicts the domain 0.2x0.1 of .*heatsim-000010.h5" \
  "$workdir/err" || fail "-L close to the checkpoint's: $(cat "$workdir/err")"
expect_status 2 "$HEATSIM" -q --init "$c/heatsim-000010.h5" \
  -a 1.1700001e-5 --dt 0.5 -n 1
grep -q -e "--alpha: 1.1700001e-05 contradicts the alpha 1.17e-05 of .*heatsim-000010.h5" \
  "$workdir/err" || fail "-a close to the checkpoint's: $(cat "$workdir/err")"
# The issue's command line: 1 s in 10 steps from the plate's checkpoint
# runs on the plate, not on the default 1000 x 1000 domain.
expect_status 0 "$HEATSIM" -q --json --init "$c/heatsim-000020.h5" \
  -a 1.17e-5 -T 1 -n 10
json_is lx 0.20000000000000001 "the issue's command line"
json_is end_time 11 "the issue's command line"

# A steady state has no time: the run starts at step 0, time 0, on the
# checkpoint's domain, with any alpha.
expect_status 0 "$HEATSIM" -q -p plate -s -g 16 -L 0.5 --checkpoint-every 100 \
  --checkpoint-name 'steady-%d.h5'
set -- steady-*.h5
expect_status 0 "$HEATSIM" -q --json --init "$1" -a 7 --dt 1e-5 -n 2
json_is lx 0.5 "--init of a steady checkpoint"
json_is alpha 7 "--init of a steady checkpoint with -a"
json_is start_step 0 "--init of a steady checkpoint"
json_is start_time 0 "--init of a steady checkpoint"

# A plain HDF5 field says nothing of the domain: as before.
mkdir fx && "$H5_FIXTURES" fx || fail "cannot make the fixtures"
expect_status 0 "$HEATSIM" -q --json --init fx/good.h5 -n 1
json_is lx 1000 "--init of a plain field"
json_is start_step 0 "--init of a plain field"
expect_status 0 "$HEATSIM" -q --json --init fx/good.h5 -L 2 -a 3 --dt 1e-3 -n 1
json_is lx 2 "--init of a plain field with -L"
json_is alpha 3 "--init of a plain field with -a"

# Defect 4: a second segment into the same directory, with another dt
# and names, continues the steps and times, and the index keeps the
# first segment's entries before its start.
expect_status 0 "$HEATSIM" -q --init "$c/heatsim-000020.h5" --dt 0.25 -n 20 \
  --checkpoint-every 10 --checkpoint-name 'b-%06d.h5' --output-dir "$c"
[ "$(xdmf_steps "$c/heatsim.xmf")" = "0 10 20 30 40" ] \
  || fail "chained index: steps $(xdmf_steps "$c/heatsim.xmf")"
[ "$(xdmf_times "$c/heatsim.xmf")" = "0 5 10 12.5 15" ] \
  || fail "chained index: times $(xdmf_times "$c/heatsim.xmf")"
[ "$(xdmf_names "$c/heatsim.xmf")" = \
  "heatsim-000000.h5 heatsim-000010.h5 b-000020.h5 b-000030.h5 b-000040.h5" ] \
  || fail "chained index: files $(xdmf_names "$c/heatsim.xmf")"
# A third in place, from the second's last checkpoint: that file is
# indexed, not rewritten.
ls -i "$c/b-000040.h5" >"$workdir/inode"
expect_status 0 "$HEATSIM" -q --init "$c/b-000040.h5" --dt 0.25 -n 10 \
  --checkpoint-every 10 --checkpoint-name 'b-%06d.h5' --output-dir "$c"
[ "$(xdmf_steps "$c/heatsim.xmf")" = "0 10 20 30 40 50" ] \
  || fail "third segment: steps $(xdmf_steps "$c/heatsim.xmf")"
[ "$(xdmf_times "$c/heatsim.xmf")" = "0 5 10 12.5 15 17.5" ] \
  || fail "third segment: times $(xdmf_times "$c/heatsim.xmf")"
[ "$(ls -i "$c/b-000040.h5")" = "$(cat "$workdir/inode")" ] \
  || fail "the third segment rewrote the checkpoint it started from"

# --start-time sets the time of the initial field instead of the
# checkpoint's; entries at or after it are left out of the index, whose
# times must increase.
expect_status 0 "$HEATSIM" -q --json --init "$c/heatsim-000020.h5" \
  --start-time 3 --dt 0.25 -n 10 --checkpoint-every 10 \
  --checkpoint-name 'd-%06d.h5' --output-dir "$c"
json_is start_time 3 "--start-time 3"
json_is end_time 5.5 "--start-time 3"
[ "$(xdmf_steps "$c/heatsim.xmf")" = "0 20 30" ] \
  || fail "--start-time: steps $(xdmf_steps "$c/heatsim.xmf")"
[ "$(xdmf_times "$c/heatsim.xmf")" = "0 3 5.5" ] \
  || fail "--start-time: times $(xdmf_times "$c/heatsim.xmf")"
# It also sets the time of a field that has none.
expect_status 0 "$HEATSIM" -q --json --init fx/good.h5 --start-time 2.5 \
  --dt 0.5 -n 1
json_is start_time 2.5 "--start-time of a plain field"
json_is end_time 3 "--start-time of a plain field"
refused "--start-time: only with --init" --start-time 1 -n 1
refused "--start-time: not with --restart" --restart "$c/heatsim-000010.h5" \
  --start-time 1 -n 1
refused "--start-time: not used with --steady" --init fx/good.h5 -s \
  --start-time 1
refused "--start-time: " --init fx/good.h5 --start-time nan -n 1

# --init takes a checkpoint's field, not its material or sources: a run
# that does not give them again solves another equation, and says so.
mat="--conductivity 50 --density 7800 --heat-capacity 460 --source 1e5"
mkdir m || exit 99
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q -g 12x8 -L 0.1 $mat -T 1 -n 4 \
  --checkpoint-every 4 --output-dir m
expect_status 0 "$HEATSIM" -q --init m/heatsim-000004.h5 -T 1 -n 4
grep -q "warning: --init m/heatsim-000004.h5: .*material.*sources" \
  "$workdir/err" \
  || fail "--init of a material checkpoint alone: no warning: $(cat "$workdir/err")"
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q --init m/heatsim-000004.h5 $mat \
  -T 1 -n 4
[ -s "$workdir/err" ] \
  && fail "--init with the material again warned: $(cat "$workdir/err")"
finish
