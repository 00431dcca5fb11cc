#!/bin/sh
# --steady by multigrid (the default solver): the plate reaches its exact
# bilinear steady state to 1e-8 of its largest value on square and
# non-square grids that do not halve evenly; a problem with no closed form
# (four different edges, odd non-square grid, dx != dy) agrees with an
# independent direct sparse solve (tests/steady_reference.py, scipy); the
# singular zero-flux and periodic cases keep the initial total heat to
# 1e-12; Jacobi reports the residual it leaves and what it checked; a run
# cut short by --max-steps and restarted from its checkpoint ends bitwise
# where an unbroken run ends.
. "${srcdir:-.}/tests/testlib.sh"

# json_check FILE EXPR: EXPR (Python, d the JSON report) is true.
PY=
for py in /usr/bin/python3 python3; do
  if "$py" -c 'import json' 2>/dev/null; then PY=$py; break; fi
done
[ -n "$PY" ] || { echo "no python3"; exit 77; }
json_check () {
  "$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2"
}

# The plate's steady state is bilinear: the 5-point Laplacian is exact.
for grid in "255" "200x137 --length 2x1" "1000x63 --length 3x1"; do
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json --problem plate --steady \
    --grid $grid || continue
  json_check "$workdir/out" 'd["solver"] == "multigrid" and d["converged"]
and d["max_error"] <= 1e-8 * d["max"] and d["cycles"] >= 1
and d["residual_norm_final"] <= max(1e-10 * d["residual_norm_initial"],
                                    d["residual_floor"])
and 0 < d["mean_reduction_per_cycle"] < 0.3 and d["levels"] >= 2' \
    || fail "plate --grid $grid: $(cat "$workdir/out")"
done
expect_status 0 "$HEATSIM" -q --problem plate --steady --grid 63
grep -q "steady state  reached by multigrid after" "$workdir/out" \
  || fail "text report: $(cat "$workdir/out")"
grep -q "round-off floor" "$workdir/out" || fail "text report lacks the floor"

# No closed form: against a direct sparse solve.
if /usr/bin/python3 -c 'import h5py, scipy.sparse, numpy' 2>/dev/null; then
  expect_status 0 "$HEATSIM" -q --steady --grid 61x37 --length 2x1 \
    --edges 1,-2,3.5,7 --checkpoint-every 100000 --output-dir "$workdir"
  ck=$(ls "$workdir"/heatsim-*.h5 | tail -n 1)
  diff=$(/usr/bin/python3 "$srcdir/tests/steady_reference.py" "$ck" 2 1 \
         1 -2 3.5 7) || fail "steady_reference.py failed"
  echo "61x37, dx != dy, four edges: relative difference $diff"
  awk -v d="$diff" 'BEGIN { exit !(d <= 1e-9) }' \
    || fail "multigrid and the direct solve differ by $diff"
else
  echo "SKIP: /usr/bin/python3 lacks h5py or scipy: no direct-solve reference"
fi

# Singular: no Dirichlet edge.  The steady state is the constant of the
# initial field's total heat.
for b in neumann periodic; do
  expect_status 0 "$HEATSIM" -q --json --problem disk --boundary $b \
    --steady --grid 61x37 --length 2x1 || continue
  json_check "$workdir/out" 'd["converged"]
and abs(d["heat"] / d["heat_initial"] - 1) <= 1e-12
and d["max"] - d["min"] <= 1e-6 * d["max"]' \
    || fail "--boundary $b: heat or flatness: $(cat "$workdir/out")"
done

# Jacobi says what it checked, and the residual it leaves.
expect_status 0 "$HEATSIM" -q --problem plate --steady --solver jacobi \
  --grid 64 --tol 0.05
grep -q "steady state reached" "$workdir/out" \
  && fail "Jacobi claims the steady state"
grep -q "largest change per sweep .* <= --tol 0.05 after" "$workdir/out" \
  || fail "Jacobi report: $(cat "$workdir/out")"
grep -q "^  residual  " "$workdir/out" || fail "Jacobi: no residual"
expect_status 0 "$HEATSIM" -q --json --problem plate --steady --solver jacobi \
  --grid 64 --tol 0.05
json_check "$workdir/out" 'd["solver"] == "jacobi" and d["cycles"] is None
and d["residual_norm_final"] > 1e-3 * d["residual_norm_initial"]
and d["rtol"] is None and d["tol"] == 0.05' \
  || fail "Jacobi JSON: $(cat "$workdir/out")"

# Cut short and restarted: the same field, bit for bit.
expect_status 0 "$HEATSIM" -q --json --problem plate --steady --grid 127x95
full=$(json_field checksum "$workdir/out")
cycles=$(json_field cycles "$workdir/out")
expect_status 4 "$HEATSIM" -q --problem plate --steady --grid 127x95 \
  --max-steps 3 --checkpoint-every 3 --output-dir "$workdir"
expect_status 0 "$HEATSIM" -q --json --steady \
  --restart "$workdir/heatsim-000003.h5"
[ "$(json_field checksum "$workdir/out")" = "$full" ] \
  || fail "restarted multigrid differs from the unbroken run"
[ "$(json_field steps "$workdir/out")" -eq $((cycles - 3)) ] \
  || fail "restart took $(json_field steps "$workdir/out") cycles, not $((cycles - 3))"
finish
