#!/bin/sh
# Numerical faults of issue 26 (items 1, 2, 6, 7, 9) on a 33x17 grid:
# residual norms whose sums of squares leave the range of double (an
# implicit step, a steady multigrid run) solve the problem the unscaled
# one solves, scaled; an implicit step that fails reports the last good
# field; implicit steps with zero-flux or periodic edges work at any dt;
# the steady multigrid monitor's last residual is the JSON one.
. "${srcdir:-.}/tests/testlib.sh"

g='-g 33x17 -L 1 -a 1'
field () { json_field "$1" "$workdir/$2.json" 2>/dev/null; }
keep () { cp "$workdir/out" "$workdir/$1.json"; }

# 1. Backward Euler: the plate with its right edge at 1e154 is the plate
# with the edge at 1 scaled by 1e154 (the sums of squares overflow).
for edge in 1 1e154; do
  expect_status 0 "$HEATSIM" -q --json $g --dt 1e-3 -n 2 \
    --scheme backward-euler -p plate --edges 0,$edge,0,0 && keep be$edge
done
[ "$(field cycles be1e154)" -gt 0 ] 2>/dev/null \
  || fail "backward Euler, edge 1e154: $(field cycles be1e154) V-cycles"
for q in max heat; do
  close_to "$(field $q be1e154)" \
    "$(awk -v v="$(field $q be1)" 'BEGIN { printf "%.17g", v * 1e154 }')" \
    1e-8 || fail "backward Euler, edge 1e154: $q $(field $q be1e154), \
not 1e154 times $(field $q be1)"
done

# Crank-Nicolson at dt 1e150 with zero edges: u1 = (I - cL)^-1 (I + cL) u0
# is -u0 to within 1/c.
expect_status 0 "$HEATSIM" -q --json $g --dt 1e150 -n 1 \
  --scheme crank-nicolson && keep cn
close_to "$(field heat cn)" \
  "$(awk -v v="$(field heat_initial cn)" 'BEGIN { printf "%.17g", -v }')" \
  1e-8 || fail "Crank-Nicolson dt 1e150: heat $(field heat cn), not minus \
$(field heat_initial cn)"

# Underflow: backward Euler at dt 1e6 divides the disk by more than 1e7
# a step (zero edges; dt alpha lambda_1 > 1e7): its sums of squares
# underflowed to 0 from step 22, and the field stopped there, at 1e-171
# (norm 0, converged).  It must go on down, through the subnormal range
# (where its spacing, not its magnitude, bounds the residual), to below
# 1e-300 by step 60.  (+ 0: mawk compares a subnormal -v value as a
# string.)
for n in 20 30 60; do
  expect_status 0 "$HEATSIM" -q --json $g -p disk --scheme backward-euler \
    --dt 1e6 -n $n && keep decay$n
done
awk -v a="$(field max decay20)" -v b="$(field max decay30)" \
  -v c="$(field max decay60)" \
  'BEGIN { exit !(a != "" && b != "" && c != "" && b + 0 <= 1e-60 * a \
                  && c + 0 <= 1e-300) }' \
  || fail "backward Euler dt 1e6: max $(field max decay20) after 20 steps, \
$(field max decay30) after 30, $(field max decay60) after 60"

# 2. Steady multigrid: the plate with its right edge at 1e160 is the
# plate with it at 1 scaled (the problem is linear), and the plate on a
# 1e-100 square (1/dx^2 near 1e203) is the exact bilinear one.
for edge in 1 1e160; do
  expect_status 0 "$HEATSIM" -q --json -g 33x17 -p plate --steady \
    --edges 0,$edge,0,0 && keep st$edge
done
for q in max heat; do
  close_to "$(field $q st1e160)" \
    "$(awk -v v="$(field $q st1)" 'BEGIN { printf "%.17g", v * 1e160 }')" \
    1e-9 || fail "steady plate, edge 1e160: $q $(field $q st1e160), not \
1e160 times $(field $q st1)"
done
expect_status 0 "$HEATSIM" -q --json -g 33x17 -L 1e-100 -p plate --steady \
  && keep st_small
awk -v e="$(field relative_error st_small)" \
  'BEGIN { exit !(e != "" && e <= 1e-9) }' \
  || fail "steady plate, -L 1e-100: relative error \
$(field relative_error st_small)"

# 6. A failed implicit step (status 4) reports the last good field.
# With periodic edges and dy = dx / 1000 multigrid stalls (a limit of
# its coarsening, not of this test: find another failing step if it is
# lifted; insulated edges, which stalled too, now take the black box
# multigrid): backward Euler at dt 5e-4 fails at step 2.  Whatever step
# fails, the report and the last --monitor row (one every step) are
# those of a run of one step fewer.
aniso='-g 128x128 -L 1x1e-3 -p disk -b periodic --scheme backward-euler'
if expect_status 4 "$HEATSIM" -q --json $aniso --dt 5e-4 -n 3 \
     --monitor "$workdir/failed.csv" --monitor-every 1; then
  keep failed
  bad=$(sed -n 's/.*step \([0-9]*\): multigrid did not reach.*/\1/p' \
        "$workdir/err")
  if [ -n "$bad" ] && [ "$bad" -gt 1 ]; then
    expect_status 0 "$HEATSIM" -q --json $aniso --dt 5e-4 -n $((bad - 1)) \
      --monitor "$workdir/good.csv" --monitor-every 1 && keep good
    for q in steps heat min max checksum; do
      [ "$(field $q failed)" = "$(field $q good)" ] \
        || fail "failed step $bad: $q $(field $q failed), the last good \
step's $(field $q good)"
    done
    [ "$(tail -n 1 "$workdir/failed.csv")" = \
      "$(tail -n 1 "$workdir/good.csv")" ] \
      || fail "failed step $bad: last --monitor row \
'$(tail -n 1 "$workdir/failed.csv")', not the last good step's"
  else
    fail "no failing step after the first in: $(cat "$workdir/err")"
  fi
fi

# 9. The last --monitor row's residual is the report's, as printed.
expect_status 0 "$HEATSIM" -q --json -g 33x17 -p plate --steady \
  --monitor "$workdir/st.csv" && keep stm
last=$(tail -n 1 "$workdir/st.csv" | cut -d, -f8)
[ "$last" = "$(field residual_norm_final stm)" ] \
  || fail "steady multigrid: monitor's last residual $last, JSON \
$(field residual_norm_final stm)"

# 7. Zero-flux and periodic edges at huge dt: the total heat kept, and
# backward Euler ends at the uniform mean field (its other modes shrink
# by dt lambda_1 > 1e10 a step).  Crank-Nicolson's modes tend to -1 a
# step: one step takes u0 to 2 mean - u0, so its max is 2 mean minus the
# min of two steps (u0 again).
disk () {   # disk NAME SCHEME BOUNDARY DT STEPS
  expect_status 0 "$HEATSIM" -q --json $g -p disk --scheme $2 -b $3 \
    --dt $4 -n $5 && keep $1
  close_to "$(field heat $1)" "$(field heat_initial $1)" 1e-12 \
    || fail "$2 -b $3 dt $4: heat $(field heat $1) from \
$(field heat_initial $1)"
}
mean () {   # mean NAME: heat over the domain's area (the nodes' boxes)
  awk -v h="$(field heat $1)" -v lx="$(field lx $1)" -v ly="$(field ly $1)" \
    'BEGIN { printf "%.17g", h / (lx * ly) }'
}
for dt in 1e10 1e12; do
  disk be$dt backward-euler neumann $dt 2
  for q in min max; do
    close_to "$(field $q be$dt)" "$(mean be$dt)" 1e-9 \
      || fail "backward Euler -b neumann dt $dt: $q $(field $q be$dt), not \
the mean $(mean be$dt)"
  done
done
disk cn1 crank-nicolson periodic 1e12 1
disk cn2 crank-nicolson periodic 1e12 2
close_to "$(field max cn1)" \
  "$(awk -v m="$(mean cn1)" -v lo="$(field min cn2)" \
     'BEGIN { printf "%.17g", 2 * m - lo }')" 1e-9 \
  || fail "Crank-Nicolson -b periodic dt 1e12: max $(field max cn1) after \
one step, min $(field min cn2) after two, mean $(mean cn1)"
finish
