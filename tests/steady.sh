#!/bin/sh
# Steady state by Jacobi iteration (--solver jacobi).  The plate's steady state is the
# bilinear u = 100 (x/Lx) (1 - y/Ly), which the 5-point stencil reproduces
# exactly, so a converged run must match it.
. "${srcdir:-.}/tests/testlib.sh"

for g in 24 31x17; do
  expect_status 0 "$HEATSIM" -q --json --problem plate --steady --solver jacobi --grid $g \
    --tol 1e-11 --residual-every 1
  err=$(json_field max_error "$workdir/out")
  echo "plate $g: max error $err after $(json_field steps "$workdir/out") sweeps"
  awk -v e="$err" 'BEGIN { exit !(e >= 0 && e < 1e-7) }' \
    || fail "plate $g: steady state is off the bilinear solution by $err"
  [ "$(json_field converged "$workdir/out")" = true ] || fail "not converged"
done

# The residual is read every K sweeps: the stop comes at the first multiple
# of K at or after the sweep where the change first fell below tol.
expect_status 0 "$HEATSIM" -q --json -p plate -s --solver jacobi -g 40x30 --tol 1e-6 \
  --residual-every 1
n1=$(json_field steps "$workdir/out")
for k in 7 10 64; do
  expect_status 0 "$HEATSIM" -q --json -p plate -s --solver jacobi -g 40x30 --tol 1e-6 \
    --residual-every $k
  nk=$(json_field steps "$workdir/out")
  [ "$nk" -eq $(( (n1 + k - 1) / k * k )) ] \
    || fail "--residual-every $k stopped at $nk, expected after $n1"
done

# All strategies sweep to the same field.
for s in host map resident; do
  expect_status 0 "$HEATSIM" -q --json -p plate -s --solver jacobi -g 33x20 --tol 1e-3 -o $s
  sed -n 's/.*"steps": \([0-9]*\).*"checksum": "\([0-9a-f]*\)".*/\1 \2/p' \
    "$workdir/out" >"$workdir/$s.sum"
done
cmp -s "$workdir/host.sum" "$workdir/map.sum" || fail "map differs from host"
cmp -s "$workdir/host.sum" "$workdir/resident.sum" \
  || fail "resident differs from host"

# Not converged within --max-steps: a warning, the report, status 4.
expect_status 4 "$HEATSIM" -q -p plate -s --solver jacobi -g 40 --max-steps 100
grep -q "warning: --steady: .*--max-steps 100" "$workdir/err" \
  || fail "no warning when --max-steps ran out: $(cat "$workdir/err")"
grep -q "> --tol 0.01 after 100 sweeps" "$workdir/out" || fail "report lacks NOT reached"
grep -q "odd-even" "$workdir/err" \
  && fail "the plate's Dirichlet edges: the odd-even hint: $(cat "$workdir/err")"

# Jacobi sweeps never damp the odd-even pattern of a grid whose every
# axis is periodic with an even number of nodes, or insulated at both
# ends: the disk's stays (a change of 0.39 a sweep) and the warning says
# why and what converges; an odd periodic axis has no such pattern.
for edges in "-g 32x16 -b periodic" "-g 33x17 -b neumann" \
    "-g 32x17 --bc left=periodic --bc right=periodic --bc bottom=insulated --bc top=flux:0"; do
  # shellcheck disable=SC2086
  expect_status 4 "$HEATSIM" -q -p disk $edges -L 2x1 -s --solver jacobi \
    --max-steps 2000
  grep -q "odd-even.*--solver multigrid" "$workdir/err" \
    || fail "$edges: no odd-even hint: $(cat "$workdir/err")"
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q -p disk $edges -L 2x1 -s
done
expect_status 0 "$HEATSIM" -q -p disk -g 33x16 -L 2x1 -s -b periodic \
  --solver jacobi --max-steps 2000

# A run that starts at its steady state ends at its first step, written
# once: one --monitor and one probe row, one checkpoint file.
expect_status 0 "$HEATSIM" -q --json -g 8x8 -L 1x1 --initial-temperature 5 \
  --edges 5,5,5,5 -s --monitor conv.csv --probe 0.5,0.5 --checkpoint-every 5 \
  --output-dir conv
for f in conv.csv conv/probes.csv; do
  [ "$(grep -c '^0,' "$f")" -eq 1 ] && [ "$(wc -l <"$f")" -eq 2 ] \
    || fail "converged at the start: $f is not its header and one row of step 0: $(cat "$f")"
done
[ "$(json_field files "$workdir/out")" = 1 ] \
  || fail "converged at the start: files $(json_field files "$workdir/out"), expected 1"
# Its text report has no reduction per cycle to give, and says so.
expect_status 0 "$HEATSIM" -g 8x8 -L 1x1 --initial-temperature 5 \
  --edges 5,5,5,5 -s
grep -q 'after 0 V-cycles (.*), mean residual reduction - per cycle' \
  "$workdir/out" || fail "converged at the start: $(grep 'steady state' "$workdir/out")"
finish
