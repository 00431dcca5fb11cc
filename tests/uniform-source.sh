#!/bin/sh
# The explicit step of a uniform material with one uniform source is
# the constant-coefficient stencil plus the source's rise dt q / (rho
# c_p) per step: 16 bytes a cell, not the variable step's 48.  Checked:
# the bytes a cell the report counts; insulated edges keep the field
# uniform, rising by exactly what the source gives (where dt q alone
# would overflow, too); mixed edges agree to
# round-off with the variable step (forced by a source schedule of
# constant 1); host, map, resident and fused steps agree bitwise (to
# 1e-12 on a GPU), and a restart is bitwise the uninterrupted run (its
# source comes back from the checkpoint, as a field).
. "${srcdir:-.}/tests/testlib.sh"

plugin=false
host_plugin && plugin=true

# bytes NAME: the bytes a cell update moves by the report in $workdir/out,
# rounded.
bytes () {
  awk -v b="$(json_field bandwidth_gb_s "$workdir/out")" \
    -v c="$(json_field cell_updates_per_s "$workdir/out")" \
    'BEGIN { printf "%.0f", b * 1e9 / c }'
}

# agree WHAT FILE REF: the reports FILE and REF give the same field:
# bitwise where their kernels ran on the same processor, to 1e-12 of the
# mean where FILE's ran on a GPU.
agree () {
  checks=$((checks + 1))
  if $plugin || [ "$(json_field on_device "$2")" != true ]; then
    [ "$(json_field checksum "$2")" = "$(json_field checksum "$3")" ] \
      || fail "$1: differs bitwise from --offload host"
  else
    close_to "$(json_field mean "$2")" "$(json_field mean "$3")" 1e-12 \
      || fail "$1: mean differs from --offload host by more than 1e-12"
  fi
}

si='--conductivity 10 --density 1000 --heat-capacity 500
  --temperature-unit K --source 1e5 --initial-temperature 300'

# Insulated edges: every node, edge nodes too, rises by dt q / (rho c_p)
# a step, to 300 + t 1e5 / 5e5 at the end time t.
if expect_status 0 "$HEATSIM" -q --json $si --grid 48x32 --length 0.1 \
     --steps 400 --bc all=insulated -o host; then
  [ "$(bytes)" = 16 ] \
    || fail "insulated plate: $(bytes) bytes a cell, not the stencil's 16"
  want=$(awk -v t="$(json_field end_time "$workdir/out")" \
    'BEGIN { printf "%.17g", 300 + t * 1e5 / 5e5 }')
  for k in min max mean; do
    close_to "$(json_field $k "$workdir/out")" "$want" 1e-13 \
      || fail "insulated plate: $k $(json_field $k "$workdir/out"), not \
$want"
  done
fi

# The rise is (dt / (rho c_p)) q, as the variable step's gain times q:
# dt q alone overflows here (1e310), the rise (1e290) does not.
if expect_status 0 "$HEATSIM" -q --json --conductivity 1e-20 \
     --density 1e10 --heat-capacity 1e10 --source 1e290 --length 1e-3 \
     --grid 10 --dt 1e20 --steps 3 --bc all=insulated --temperature-unit K \
     --initial-temperature 0; then
  for k in min max; do
    close_to "$(json_field $k "$workdir/out")" 3e290 1e-15 \
      || fail "dt q beyond double: $k $(json_field $k "$workdir/out"), not \
3e290"
  done
fi

# Where dt / (rho c_p) is subnormal the step would keep a few digits of
# the heat it adds (a hostile pass found the mean 1.2 % short): refused.
refused "^heatsim: --dt: dt / (rho c_p) = 1e-14 / 1e+308 is below double's smallest normal magnitude" \
  -g 20x10 -L 1x1 --conductivity 1 --density 1e154 --heat-capacity 1e154 \
  --source 1e300 --bc all=insulated -n 10 --dt 1e-14
# ... but the constant stencil of a uniform material without a source
# takes alpha alone, whatever dt / (rho c_p) is (a review found it
# refused).
expect_status 0 "$HEATSIM" -q -g 20x10 -L 1x1 --conductivity 1e306 \
  --density 1e153 --heat-capacity 1e153 --bc left=temperature:100 \
  --bc right=temperature:0 --bc bottom=insulated --bc top=insulated \
  -n 1000 --dt 1e-4

# Mixed edges, against the variable step of the same equation.
mixed="$si --grid 60x40 --length 0.1 --steps 300 --dt 0.02
  --bc left=convection:50,290 --bc right=flux:2000
  --bc bottom=temperature:310 --bc top=insulated"
printf 'time,value\n0,1\n1e9,1\n' >one.csv
expect_status 0 "$HEATSIM" -q --json $mixed -o host \
  && cp "$workdir/out" host.json
[ "$(bytes)" = 16 ] \
  || fail "mixed edges: $(bytes) bytes a cell, not the stencil's 16"
if expect_status 0 "$HEATSIM" -q --json $mixed -o host \
     --source-schedule one.csv; then
  [ "$(bytes)" = 48 ] \
    || fail "source schedule: $(bytes) bytes a cell, not the variable 48"
  for k in min max mean heat; do
    close_to "$(json_field $k "$workdir/out")" \
      "$(json_field $k host.json)" 1e-12 \
      || fail "mixed edges: $k $(json_field $k host.json) differs from \
the variable step's $(json_field $k "$workdir/out")"
  done
fi

for s in map resident; do
  expect_status 0 "$HEATSIM" -q --json $mixed -o $s \
    && agree "--offload $s" "$workdir/out" host.json
done
# Temporal blocking (host): 4 and 7 steps fused a pass.
for t in 4 7; do
  if expect_status 0 "$HEATSIM" -q --json $mixed -o host --tile-steps $t; then
    [ "$(json_field tile_steps "$workdir/out")" = $t ] \
      || fail "--tile-steps $t: ran $(json_field tile_steps "$workdir/out")"
    agree "--tile-steps $t" "$workdir/out" host.json
  fi
done

# A restart at step 120 of 300.
expect_status 0 "$HEATSIM" -q $mixed -o host --steps 120 \
  --checkpoint-every 1000 --output-dir part
if expect_status 0 "$HEATSIM" -q --json --restart part/heatsim-000120.h5 \
     --steps 180 -o host; then
  [ "$(bytes)" = 16 ] \
    || fail "restart: $(bytes) bytes a cell, not the stencil's 16"
  [ "$(json_field checksum "$workdir/out")" = \
    "$(json_field checksum host.json)" ] \
    || fail "restart at 120 of 300 is not bitwise the uninterrupted run"
fi
finish
