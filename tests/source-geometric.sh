#!/bin/sh
# A uniform material's heat source beside an edge held at a fixed
# temperature is the geometric multigrid's right-hand side (q / k in
# the steady state, dt q / (rho c_p) in an implicit step), not a term of
# the black box multigrid's operator: its steady state is exact for a
# quadratic, it agrees with the black box multigrid's solution of the
# same equations (a constant --source-schedule keeps that one), on every
# placement bitwise and on MPI ranks to the solver's tolerance.
. "${srcdir:-.}/tests/testlib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
  echo "SKIP: no python3 with h5py and numpy"
  exit 77
fi
printf '0,1\n1e30,1\n' >one.csv

# largest_difference A.h5 B.h5: max |a - b| / max |b| of their fields.
largest_difference () {
  "$PY" - "$1" "$2" <<'PYEOF'
import sys, h5py, numpy as np
a = h5py.File(sys.argv[1])["field"][:]
b = h5py.File(sys.argv[2])["field"][:]
print("%.3e" % (np.abs(a - b).max() / np.abs(b).max()))
PYEOF
}

# last_checkpoint DIR: the checkpoint of the run's last step.
last_checkpoint () {
  ls "$1"/heatsim-*.h5 | tail -n 1
}

# 1. -k u'' = q from a fixed left edge, the others insulated: u = T0 +
# q / (2 k) x (2 L - x), a quadratic, which the 5-point stencil and the
# insulated edge's half box hold exactly.  The report's solver is the
# geometric multigrid's (V-cycles, its levels), its residual that of
# k L u + q.
if expect_status 0 "$HEATSIM" -q --json -g 64x8 -L 1x0.125 --conductivity 2 \
    --density 1 --heat-capacity 1 --source 3 --bc left=temperature:10 \
    --bc right=insulated --bc bottom=insulated --bc top=insulated --steady \
    --rtol 1e-12 --checkpoint-every 1000 --output-dir quad; then
  [ "$(json_field levels "$workdir/out")" -ge 3 ] \
    || fail "quadratic: $(json_field levels "$workdir/out") levels: not the geometric multigrid"
  "$PY" - "$(last_checkpoint quad)" <<'PYEOF' || fail "quadratic: not exact"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1])
x = f["x"][:]
u = f["field"][:]
exact = 10 + 3 / (2 * 2) * x * (2 * 1 - x)
err = np.abs(u - exact[np.newaxis, :]).max()
print("quadratic: largest error %.2e of %.3g" % (err, np.abs(exact).max()))
sys.exit(0 if err <= 1e-9 * np.abs(exact).max() else 1)
PYEOF
fi
expect_status 0 "$HEATSIM" -g 64x8 -L 1x0.125 --conductivity 2 --density 1 \
  --heat-capacity 1 --source 3 --bc left=temperature:10 --steady
grep -q "^  steady state  reached by multigrid after [0-9]* V-cycles" \
  "$workdir/out" || fail "quadratic's report: $(grep steady "$workdir/out")"
grep -q "(residual: l2 norm over the interior of q + k times the 5-point Laplacian of u)" \
  "$workdir/out" || fail "quadratic's report: $(grep residual "$workdir/out")"

# 2. A die with two blocks, edges fixed and insulated, against the black
# box multigrid: steady, Crank-Nicolson and backward Euler.
die="-g 96x80 -L 0.01x0.008 --conductivity 148 --density 2330
  --heat-capacity 712 --edges 45,45,45,45 --bc top=insulated
  --initial-temperature 45 --source-rect 0.002,0.004,0.003,0.006,2e9
  --source-rect 0.006,0.009,0.001,0.002,5e8 --rtol 1e-12
  --checkpoint-every 1000"
for run in "--steady" "--scheme crank-nicolson -T 0.05 -n 10" \
    "--scheme backward-euler -T 0.05 -n 10"; do
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json $die $run --output-dir g \
    || continue
  geometric=$(json_field levels "$workdir/out")
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json $die $run --source-schedule one.csv \
    --output-dir b || continue
  boxmg=$(json_field levels "$workdir/out")
  [ "$geometric" -gt "$boxmg" ] \
    || fail "$run: levels $geometric and $boxmg: not two multigrids"
  d=$(largest_difference "$(last_checkpoint g)" "$(last_checkpoint b)")
  echo "$run: geometric against black box multigrid: $d"
  awk -v d="$d" 'BEGIN { exit !(d <= 1e-9) }' \
    || fail "$run: the two multigrids differ by $d"
  rm -rf g b
done

# 2b. Magnitudes at the ends of double's range run as the black box
# multigrid runs them (same status; where it solves, the same field):
# q/k of 1e-324 made the geometric right-hand side 0 (a field of zeros,
# status 0), subnormal q/k stopped with status 4 or 5, dt/(rho c_p) of
# 1e-400 lost the source, and dt q/(rho c_p) of 1e310 ended with status
# 5 where the black box refused it (a hostile test pass); a subnormal
# q/(rho c_p) times a dt of 1e60 lost its bits (a review).
while read -r args; do
  # shellcheck disable=SC2086
  "$HEATSIM" -q --json -g 32x32 --density 1 --heat-capacity 1 \
    --edges 0,0,0,0 $args >geo.json 2>geo.err
  geo=$?
  # shellcheck disable=SC2086
  "$HEATSIM" -q --json -g 32x32 --density 1 --heat-capacity 1 \
    --edges 0,0,0,0 $args --source-schedule one.csv >box.json 2>box.err
  box=$?
  if [ "$geo" != "$box" ]; then
    fail "$args: status $geo, the black box's $box: $(cat geo.err)"
  elif [ "$geo" = 0 ]; then
    awk -v a="$(json_field max geo.json)" -v b="$(json_field max box.json)" \
      'BEGIN { r = b != 0 ? (a - b) / b : 1; exit !(r * r <= 1e-12) }' \
      || fail "$args: max $(json_field max geo.json), the black box's $(json_field max box.json)"
    pass
  else
    pass
  fi
done <<'CASES'
-L 1e100 --conductivity 1e24 --source 1e-300 --steady
-L 1e100 --conductivity 1e200 --source 1e-300 --steady
-L 1e100 --conductivity 1e15 --source 1e-300 --steady
-L 1e100 --conductivity 1e20 --source 1e-300 --steady
-L 1 --conductivity 1e10 --source 1e-290 --steady --rtol 1e-30
-L 1 --conductivity 1e200 --density 1e200 --source 1e300 --scheme backward-euler --dt 1e-200 -n 3
-L 1 --conductivity 1e200 --density 1e200 --source 1e300 --scheme crank-nicolson --dt 1e-200 -n 3
-L 1 --conductivity 1 --source 1e250 --scheme backward-euler --dt 1e60 -n 2
-L 1 --conductivity 1e-25 --density 1e12 --heat-capacity 1e11 --source 1.2345678e-300 --scheme backward-euler --dt 1e60 -n 1 --rtol 1e-12
CASES

# 3. Every placement the same bits (on LLVM's host plugin, map and
# resident solve in the plugin's memory).
want=
for o in host map resident; do
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json $die --steady -o "$o" || continue
  got=$(json_field checksum "$workdir/out")
  [ -n "$want" ] || want=$got
  [ "$got" = "$want" ] || fail "-o $o: checksum $got, not host's $want"
done

# 4. MPI ranks split the geometric hierarchy: the field of one rank to
# the solver's tolerance.
if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  for run in "--steady" "--scheme crank-nicolson -T 0.05 -n 4"; do
    for n in 1 2 3 4; do
      # shellcheck disable=SC2086
      if "$MPIEXEC" -np $n "$HEATSIM" -q $die $run --output-dir "r$n" \
          >"$workdir/out" 2>"$workdir/err"; then
        d=$(largest_difference "$(last_checkpoint "r$n")" \
          "$(last_checkpoint r1)")
        awk -v d="$d" 'BEGIN { exit !(d <= 1e-9) }' \
          || fail "$run: $n ranks differ from 1 by $d"
        pass
      else
        fail "$run: $n ranks failed: $(cat "$workdir/err")"
      fi
    done
    rm -rf r1 r2 r3 r4
  done
fi
finish
