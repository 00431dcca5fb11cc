#!/bin/sh
# Every class of bad input: exit status 2, one line naming the option and
# the value, a hint to --help, and nothing on stdout.
. "${srcdir:-.}/tests/testlib.sh"

refused "--steps: '10x' is not a whole number" --steps 10x
refused "--steps: 'abc'" --steps abc
refused "--steps: '-3' must be at least 1" --steps -3
refused "--steps: '0' must be at least 1" --steps 0
refused "--steps: '.*' is too large" --steps 123456789012345678901234567890
refused "--grid: '0'" --grid 0
refused "--grid: '64x'" --grid 64x
refused "--grid: '-8'" --grid -8
refused "--grid: .*memory" --grid 4294967296x4294967296
# ... with the memory check's status, and before the check of the axes,
# whose node count wrapped ("18446744073709551615 nodes along x cannot
# have nodes on both edges: give at least 2"; a hostile pass).
refused "^heatsim: --grid: 18446744073709551615x2 cells need more memory than this machine can address" \
  --grid 18446744073709551615x2 -n 1 --force
expect_status 2 "$HEATSIM" -q --json --grid 4294967296x4294967296
json_field status "$workdir/out" | grep -qx too_large \
  || fail "an unaddressable grid: JSON status $(json_field status "$workdir/out")"
refused "--grid: 1000000x1000000 needs" --grid 1000000x1000000 --force
refused "--alpha: 'nan'" --alpha nan
refused "--alpha: '-0.1'" --alpha -0.1
refused "--alpha: '0'" --alpha 0
refused "--alpha: '1e400' is out of range (beyond double's largest magnitude, about 1.8e308)$" \
  --alpha 1e400
refused "--alpha: 'inf' is out of range (not a finite number)$" --alpha inf
# A subnormal number (double holds it, imprecisely) and one below it.
refused "--range: '1e-310' is out of range (below double's smallest normal magnitude, about 2.2e-308: give 0 or a larger one)$" \
  --range 1e-310,1
refused "--alpha: '-1e-400' is out of range (below double's smallest normal magnitude" \
  --alpha -1e-400
refused "--length: '1x0'" --length 1x0
refused "--dt: 'fast'" --dt fast
refused "--end-time: '-1'" --end-time -1
refused "at most two" --steps 5 --dt 0.1 --end-time 1
refused "--steps auto: needs --end-time" --steps auto
refused "--steps auto: not with --dt" --steps auto --dt 0.1
refused "--steps auto sizes explicit steps; give -n or --dt with an implicit scheme" \
  -T 1 --steps auto --scheme crank-nicolson
refused "--steps auto: .* too many steps" -g 64 -T 1e300 --steps auto
refused "--offload: unknown strategy 'cuda'" --offload cuda
refused "--device: 'gpu0'" --device gpu0
# A negative number is a whole number, out of the range.
refused "^heatsim: --device: '-1' must be at least 0$" --device=-1
refused "--dt: time step .* is unstable" --grid 64 --length 65 --alpha 1 --dt 0.3
refused "unrecognized option '--colour'" --colour
refused "--steps: missing argument" --steps
refused "unexpected argument 'foo'" foo
refused "^heatsim: --restart: empty file name$" --restart ''
refused "^heatsim: --init: empty file name$" --init ''
# A range whose width HI - LO is no finite number maps every value to NaN.
expect_status 0 "$HEATSIM" -q -g 8 -n 1 --png-every 1 --png-name 'gray-%d.png'
refused "^heatsim: --init-range: '-1e308,1e308': HI - LO overflows" \
  --init gray-0.png --init-range=-1e308,1e308
# --init-dataset names an HDF5 dataset: with a PNG it is refused, as
# --init-range with an HDF5 file is (it was ignored; a hostile pass).
refused "^heatsim: --init-dataset: only for HDF5 files; gray-0.png is a PNG image" \
  --init gray-0.png --init-dataset field

# Multigrid options: --rtol, --solver and --scheme.
refused "--rtol: '0'" --steady --rtol 0
refused "--rtol: '-1e-3'" --steady --rtol -1e-3
refused "--rtol: '1' must be below 1" --steady --rtol 1
refused "--rtol: '2' must be below 1" --steady --rtol 2
refused "--rtol: 'tight'" --steady --rtol tight
refused "--rtol: 'nan'" --steady --rtol nan
refused "--rtol: only for multigrid" --rtol 1e-6
refused "--rtol: only for multigrid" --steady --solver jacobi --rtol 1e-6
refused "--solver: unknown solver 'sor'" --steady --solver sor
refused "--solver: only with --steady" --solver multigrid
refused "--solver: only with --steady" --solver jacobi \
  --scheme crank-nicolson
refused "--scheme: unknown scheme 'rk4'" --scheme rk4
refused "--scheme: not used with --steady" --steady --scheme backward-euler
refused "--scheme: not used with --steady" --steady --solver jacobi \
  --scheme crank-nicolson
refused "--tol: only with --solver jacobi" --steady --tol 1e-3
refused "--residual-every: only with --solver jacobi" --steady \
  --residual-every 5
refused "--force: not used with --scheme crank-nicolson" \
  --scheme crank-nicolson --force
# ... and the same on a restart of an implicit run.
expect_status 0 "$HEATSIM" -q -g 8 -n 2 --scheme backward-euler \
  --checkpoint-every 2 --checkpoint-name 'implicit-%d.h5'
refused "^heatsim: --force: implicit-2.h5 is from a --scheme backward-euler run (implicit steps are stable for any dt)$" \
  --restart implicit-2.h5 -n 2 --force
expect_status 0 "$HEATSIM" -q --restart implicit-2.h5 -n 2
# The steady solvers and multigrid's matrix work with 1/dx^2 (alpha
# dt/dx^2 for implicit steps): a scale that doubles cannot hold is refused
# for what it is, not blamed on a time step that a steady run does not
# have.
refused "^heatsim: --steady: cells of .* are too large" -g 16 -L 1e308 --steady
refused "^heatsim: --steady: cells of .* are too large" -g 16 -L 1e308 \
  --steady --solver jacobi
refused "^heatsim: --steady: cells of .* are too small" -g 16 -L 1e-150 --steady
refused "^heatsim: --scheme backward-euler: alpha\*dt/dx^2 = .* out of multigrid's range" \
  -g 16 -L 1e308 --scheme backward-euler -n 2
# A material's black box multigrid does not scale its sums: alpha
# dt/dx^2 beyond 1e60 is refused (at 2e153 a source's residual
# overflowed, status 5, blaming the field); 2e53 runs.  Face cooling
# keeps the black box: a uniform material's source alone, beside a fixed
# edge, is the geometric multigrid's right-hand side, whose norms are
# scaled: one step of 1e150 is the steady state.
refused "^heatsim: --scheme backward-euler: dt 1e+150: alpha\*dt/dx^2 = 2.1125e+153, .*beyond 1e+60" \
  -g 64 -L 1 --conductivity 1 --density 2 --heat-capacity 1 --source 1 \
  --thickness 1 --surface-convection 1e-3,0 --scheme backward-euler \
  --dt 1e150 -n 1
expect_status 0 "$HEATSIM" -q -g 64 -L 1 --conductivity 1 --density 2 \
  --heat-capacity 1 --source 1 --thickness 1 --surface-convection 1e-3,0 \
  --scheme backward-euler --dt 1e50 -n 1
expect_status 0 "$HEATSIM" -q --json -g 64 -L 1 --conductivity 1 \
  --density 2 --heat-capacity 1 --source 1 --steady
steady=$(json_field max "$workdir/out")
expect_status 0 "$HEATSIM" -q --json -g 64 -L 1 --conductivity 1 \
  --density 2 --heat-capacity 1 --source 1 --scheme backward-euler \
  --dt 1e150 -n 1
awk -v a="$(json_field max "$workdir/out")" -v b="$steady" 'BEGIN {
  d = a - b; exit !(b > 0.07 && d * d <= (1e-9 * b) ^ 2) }' \
  || fail "one backward Euler step of 1e150: max $(json_field max "$workdir/out"), not the steady $steady"
# Implicit steps take a dt far past the explicit limit without --force.
expect_status 0 "$HEATSIM" -q --grid 16 --length 17 --alpha 1 --dt 30 \
  --steps 2 --scheme crank-nicolson
refused "--dt: time step 30 is unstable" --grid 16 --length 17 --alpha 1 \
  --dt 30 --steps 2

# Issue 25, defect 3: the refusal names the options that made dt (not
# --dt when it was not given) and offers the implicit schemes.
refused "^heatsim: --end-time 1 with --steps 2: time step 0.5 is unstable on this grid: alpha\*dt\*(1/dx^2 + 1/dy^2) = 1 > 0.5; .*--steps auto.*--scheme backward-euler or crank-nicolson.*--force$" \
  --grid 9 --length 10 --alpha 1 -T 1 -n 2
refused "^heatsim: --steps 2 (with the default --end-time 0.5): time step 0.25 is unstable" \
  --grid 9 --length 10 --alpha 3 -n 2
refused "^heatsim: --end-time 1 (with the default 10 steps): time step 0.1 is unstable" \
  --grid 9 --length 10 --alpha 10 -T 1
refused "^heatsim: the default --end-time 0.5 and 10 steps: time step 0.05 is unstable" \
  --grid 9 --length 10 --alpha 10

# Issue 25, defect 2: --problem file is the problem of --init, and may be
# named with it; --help says it needs --init.
expect_status 0 "$HEATSIM" -q --init gray-0.png -p file -n 1
expect_status 0 "$HEATSIM" -q -p file --init gray-0.png -n 1
refused "^heatsim: --problem plate: not with --init" --init gray-0.png -p plate
refused "^heatsim: --problem file: needs --init FILE" -p file
expect_status 0 "$HEATSIM" --help
sed -n '/--problem=NAME/{N;p;}' "$workdir/out" | tr -s ' \n' '  ' \
  | grep -q -e "--problem=NAME .*file (with --init FILE)" \
  || fail "--help: --problem does not say file needs --init"

# A stable run is accepted and --force overrides the stability rule.
expect_status 0 "$HEATSIM" -q --grid 16 --length 17 --alpha 1 --dt 0.25
expect_status 0 "$HEATSIM" -q --grid 16 --length 17 --alpha 1 --dt 0.3 --force
# The OpenMP runtime's settings that made it abort (status 134) or hang
# (a hostile pass): a thread count that is no positive whole number or
# list of them, or absurdly large, and a default device past the host's
# number.  (With device code, LLVM's offload runtime starts the OpenMP
# runtime before main, which reads OMP_NUM_THREADS then: not checked.)
bad_threads="-1 abc 0 '' 2, 100000 99999999999999999999 '2 2'"
"$HEATSIM" --list-devices 2>/dev/null \
  | grep -q '^device code in this binary: none$' || bad_threads=
eval "set -- $bad_threads"
for threads; do
  OMP_NUM_THREADS=$threads
  export OMP_NUM_THREADS
  refused "^heatsim: OMP_NUM_THREADS: '$threads': give a whole number of threads" \
    -g 8 -n 1
done
for threads in 1 ' 2' 2,1; do
  OMP_NUM_THREADS=$threads
  expect_status 0 "$HEATSIM" -q -g 8 -n 1
done
unset OMP_NUM_THREADS
OMP_DEFAULT_DEVICE=99
export OMP_DEFAULT_DEVICE
refused "^heatsim: OMP_DEFAULT_DEVICE: 99: there" -g 8 -n 1
unset OMP_DEFAULT_DEVICE
# --steps auto: stable by construction, wherever the unstable dt was refused.
expect_status 0 "$HEATSIM" -q --grid 64 --length 65 --alpha 1 -T 3 --steps auto
grep -q "stability .* = 0\.4[0-9]* (explicit limit 0.5)\|stability .* = 0\.5 (explicit limit" \
  "$workdir/out" || fail "--steps auto: $(cat "$workdir/out")"
finish
