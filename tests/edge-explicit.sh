#!/bin/sh
# Explicit steps of issue 24's boundary conditions, face cooling and
# source schedules, in both discrete forms (the constant-coefficient
# stencil, whose flux and convection edges live in the halo, and the
# variable step, whose edge kernel adds them to the edge nodes):
# (i) u = a + b t + b x^2 / (2 alpha) with both x edges' temperatures
#     linear schedules (@FILE) and insulated y edges: exact for the
#     discrete scheme, to rounding;
# (ii) flux in at the left, temperature at the right: explicit steps to
#     the steady state reach the exact linear profile;
# (iii) convection at the left: the exact linear profile of the Robin
#     slope;
# (iv) a transient with every kind of edge, a scheduled source and face
#     cooling: the stored heat changes by exactly dt times the boundary,
#     source and face-cooling rates at each step's start (1e-10
#     relative), worked out here from the checkpoints of every step;
# (v) host, map and resident in each kernel form bitwise alike (on the
#     plugin's device in an x86_64 build), and 1 to 4 MPI ranks in an
#     MPI build;
# (vi) schedules at the step's start time: a source ramp and face
#     cooling in an insulated box against their exact discrete
#     solutions, and a heater switched off equal bitwise to a run that
#     stops there and goes on without it.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

cat >"$workdir/check.py" <<'EOF'
"""Fixtures and exact answers of tests/edge-explicit.sh."""
import sys
import h5py
import numpy as np


def field(path):
    with h5py.File(path, "r") as h:
        return np.array(h["field"])        # rows y, columns x, interior


def report(name, err, tol):
    print("%s: error %.3e (tolerance %.1e)" % (name, err, tol))
    sys.exit(0 if err <= tol else 1)


def quadratic_init(out, nx, ny, lx, a, b, alpha):
    # Dirichlet x edges: node i (halo 0 and nx + 1) at x = i lx / (nx + 1).
    x = np.arange(nx + 2) * (float(lx) / (int(nx) + 1))
    u = np.tile(a + b * x * x / (2 * alpha), (int(ny) + 2, 1))
    with h5py.File(out, "w") as h:
        h["field"] = u


def quadratic(path, nx, lx, a, b, alpha, t):
    x = np.arange(1, nx + 1) * (lx / (nx + 1))
    exact = a + b * t + b * x * x / (2 * alpha)
    u = field(path)
    report("quadratic", np.max(np.abs(u - exact)) / np.max(np.abs(exact)),
           1e-13)


def linear(path, nx, dx, u0, slope):
    # The left edge is a node (flux or convection): x_i = (i - 1) dx.
    x = np.arange(nx) * dx
    exact = u0 + slope * x
    u = field(path)
    report("linear", np.max(np.abs(u - exact))
           / (np.max(exact) - np.min(exact)), 1e-11)


def uniform(path, want):
    u = field(path)
    report("uniform", np.max(np.abs(u - want)) / abs(want), 1e-13)


def budget(prefix, steps, dt, lx, ly, nx, ny):
    """The case of edge-explicit.sh's (iv): left temperature schedule,
    right flux 3, bottom convection 4 to 0.5, top insulated; source 5
    times the ramp 1 -> 0.2 over [0, 1]; face cooling s = 2 0.2 / 0.1
    to 1.5; k = rho c_p = 1."""
    dx = lx / nx                 # x: Dirichlet left, flux right
    dy = ly / (ny - 1)           # y: both edges are nodes
    fx = np.ones(nx)
    fx[-1] = 0.5
    fy = np.ones(ny)
    fy[0] = fy[-1] = 0.5
    volume = np.outer(fy * dy, fx * dx)
    left = lambda t: np.interp(t, [0.0, 1.0], [1.0, 2.0])
    factor = lambda t: np.interp(t, [0.0, 1.0], [1.0, 0.2])
    stored, change = [], 0.0
    scale = 0.0
    for n in range(steps + 1):
        u = field("%s-%d.h5" % (prefix, n))
        stored.append(np.sum(volume * u))
        if n == steps:
            break
        t = n * dt
        rates = [np.sum((left(t) - u[:, 0]) / dx * fy * dy),
                 3.0 * np.sum(fy * dy),
                 np.sum(4.0 * (0.5 - u[0, :]) * fx * dx),
                 factor(t) * 5.0 * np.sum(volume),
                 np.sum(4.0 * (1.5 - u) * volume)]
        change += dt * sum(rates)
        scale += dt * sum(abs(r) for r in rates)
    err = abs((stored[-1] - stored[0]) - change) / scale
    print("stored heat %.12g -> %.12g, change %.12g, rates give %.12g"
          % (stored[0], stored[-1], stored[-1] - stored[0], change))
    report("budget", err, 1e-10)


if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    if what == "quadratic-init":
        quadratic_init(args[0], *map(float, args[1:]))
    elif what == "quadratic":
        quadratic(args[0], int(args[1]), *map(float, args[2:]))
    elif what == "linear":
        linear(args[0], int(args[1]), *map(float, args[2:]))
    elif what == "uniform":
        uniform(args[0], float(args[1]))
    elif what == "budget":
        budget(args[0], int(args[1]), float(args[2]), float(args[3]),
               float(args[4]), int(args[5]), int(args[6]))
EOF
check () {
  "$PY" "$workdir/check.py" "$@" >"$workdir/check.out" 2>&1
  _s=$?
  cat "$workdir/check.out"
  checks=$((checks + 1))
  [ $_s -eq 0 ] || fail "check $*: $(cat "$workdir/check.out")"
}

# Each run leaves its last field in $1.h5 (the first argument names it)
# and its report in $1.json.
run () {
  _name=$1
  shift
  expect_status 0 "$HEATSIM" -q --json --output-dir "$workdir" \
    --checkpoint-every 1000000 --checkpoint-name "$_name-%d.h5" "$@" \
    || return 1
  cp "$workdir/out" "$workdir/$_name.json"
  _last=$(ls "$workdir/$_name"-*.h5 | sed 's/.*-\([0-9]*\)\.h5$/\1/' \
          | sort -n | tail -n 1)
  mv "$workdir/$_name-$_last.h5" "$workdir/$_name.h5"
}

# A run of the variable step that changes nothing of the equation: face
# cooling with H = 0.
variable="--thickness 1 --surface-convection 0,0"

# ---------------------------------------------------------------- (i)
# a = 1, b = 2, alpha = 1 on [0, 1]: left 1 + 2 t, right 2 + 2 t.
printf 'time,temperature\n0,1\n1,3\n' >"$workdir/left.csv"
printf 'time,temperature\n0,2\n1,4\n' >"$workdir/right.csv"
"$PY" "$workdir/check.py" quadratic-init "$workdir/quad.h5" 20 4 1 1 2 1
for form in constant variable; do
  extra=
  [ $form = variable ] && extra=$variable
  run quad-$form --init "$workdir/quad.h5" --length 1x0.25 --alpha 1 \
    --dt 5e-4 --steps 100 --bc left=temperature:@"$workdir/left.csv" \
    --bc right=temperature:@"$workdir/right.csv" --bc bottom=insulated \
    --bc top=insulated $extra || continue
  check quadratic "$workdir/quad-$form.h5" 20 1 1 2 1 0.05
done

# ---------------------------------------------------------------- (ii)
# Flux 3 in at x = 0, 1 at x = 1, k = 1: u = 1 + 3 (1 - x); 10 nodes on
# x (the left one at x = 0), dx = 0.1.
for form in constant variable; do
  extra=
  [ $form = variable ] && extra=$variable
  run flux-$form --grid 10x3 --length 1 --alpha 1 --end-time 15 \
    --steps auto --bc left=flux:3 --bc right=temperature:1 \
    --bc bottom=insulated --bc top=insulated $extra || continue
  check linear "$workdir/flux-$form.h5" 10 0.1 4 -3
done

# ---------------------------------------------------------------- (iii)
# Convection H = 2 to 5 at x = 0, 1 at x = 1, k = 1: u(0) = 11/3, slope
# H (u(0) - 5) / k = -8/3.
for form in constant variable; do
  extra=
  [ $form = variable ] && extra=$variable
  run robin-$form --grid 10x3 --length 1 --alpha 1 --end-time 15 \
    --steps auto --bc left=convection:2,5 --bc right=temperature:1 \
    --bc bottom=insulated --bc top=insulated $extra || continue
  check linear "$workdir/robin-$form.h5" 10 0.1 3.6666666666666667 \
    -2.6666666666666667
done

# ---------------------------------------------------------------- (iv)
printf 'time,T\n0,1\n1,2\n' >"$workdir/budget-left.csv"
printf 'time,factor\n0,1\n1,0.2\n' >"$workdir/ramp.csv"
every="--grid 12x10 --length 1x0.8 --alpha 1 --dt 1e-3 --steps 40
  --initial-temperature 0.25
  --bc left=temperature:@$workdir/budget-left.csv --bc right=flux:3
  --bc bottom=convection:4,0.5 --bc top=insulated --source 5
  --source-schedule $workdir/ramp.csv --thickness 0.1
  --surface-convection 0.2,1.5"
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q --json --output-dir "$workdir" \
  --checkpoint-every 1 --checkpoint-name "budget-%d.h5" $every \
  && check budget "$workdir/budget" 40 1e-3 1 0.8 12 10

# ---------------------------------------------------------------- (v)
variants="map resident map-split resident-split"
plugin=false
host_plugin && plugin=true
same_everywhere () {
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json --offload host "$@" || return
  want=$(json_field checksum "$workdir/out")
  for s in $variants; do
    case $s in
      *-*) form="--kernel ${s#*-}" ;;
      *) form= ;;
    esac
    # shellcheck disable=SC2086
    expect_status 0 "$HEATSIM" -q --json --offload ${s%-*} $form "$@" \
      || continue
    if $plugin && [ "$(json_field on_device "$workdir/out")" != true ]; then
      fail "$s: the host plugin's device was not used ($*)"
    fi
    [ "$(json_field checksum "$workdir/out")" = "$want" ] \
      || fail "$s and host differ bitwise ($*)"
  done
  if mpi_ready; then
    for n in 1 2 3 4; do
      OMP_NUM_THREADS=1 \
        "$MPIEXEC" -np $n "$HEATSIM" -q --json "$@" >"$workdir/out" \
        2>"$workdir/err" || { fail "$n ranks failed: $(cat "$workdir/err")"
                              continue; }
      [ "$(json_field checksum "$workdir/out")" = "$want" ] \
        || fail "$n ranks differ from host ($*)"
      pass
    done
  fi
}
# Insulated is a flux of 0: the plain mirror, bitwise what -b neumann
# gives.
expect_status 0 "$HEATSIM" -q --json -b neumann --grid 30x20 --length 1 \
  --alpha 1 --end-time 0.01 --steps 200
want=$(json_field checksum "$workdir/out")
for bc in all=insulated all=flux:0; do
  expect_status 0 "$HEATSIM" -q --json --bc $bc --grid 30x20 --length 1 \
    --alpha 1 --end-time 0.01 --steps 200
  [ "$(json_field checksum "$workdir/out")" = "$want" ] \
    || fail "--bc $bc differs from -b neumann"
done
# Odd and even step counts: a dump of the wrong buffer would show.
# shellcheck disable=SC2086
same_everywhere $every
# shellcheck disable=SC2086
same_everywhere $(echo "$every" | sed 's/--steps 40/--steps 41/')
# The constant-coefficient stencil with every kind of edge.
same_everywhere --grid 24x20 --length 1x0.8 --alpha 1 --dt 2.5e-4 \
  --steps 41 --initial-temperature 0.25 \
  --bc left=temperature:@"$workdir/budget-left.csv" --bc right=flux:3 \
  --bc bottom=convection:4,0.5 --bc top=insulated
same_everywhere --grid 24x20 --length 1x0.8 --alpha 1 --dt 2.5e-4 \
  --steps 40 --bc left=periodic --bc right=periodic \
  --bc bottom=convection:4,0.5 --bc top=flux:-2
same_everywhere --grid 24x20 --length 1x0.8 --alpha 1 --dt 2.5e-4 \
  --steps 40 --bc left=periodic --bc right=periodic \
  --bc bottom=convection:4,0.5 --bc top=flux:-2 --source 3 \
  --source-schedule "$workdir/ramp.csv"

# ---------------------------------------------------------------- (vi)
box="--grid 6x5 --length 1 --alpha 1 --dt 1e-3 --steps 50
  --initial-temperature 2 --bc all=insulated"
# Source 4 times the ramp f(t) = t / 0.05 (from 0 at t = 0): the steps
# from t_n = n dt add dt 4 f(t_n): u = 2 + 4e-3 (0 + 1 + ... + 49) / 50
# = 2.098 (from t_{n+1} it would be 2.102).
printf '0,0\n0.05,1\n' >"$workdir/rise.csv"
# shellcheck disable=SC2086
run ramp $box --source 4 --source-schedule "$workdir/rise.csv" \
  && check uniform "$workdir/ramp.h5" 2.098
# Face cooling s = 2 3 / 0.5 = 12 to 1: u = 1 + (1 - 12 dt)^50.
cooled=$(awk 'BEGIN { printf "%.17g", 1 + (1 - 12e-3) ^ 50 }')
# shellcheck disable=SC2086
run cool $box --thickness 0.5 --surface-convection 3,1 \
  && check uniform "$workdir/cool.h5" "$cooled"

# A heater switched off after t1 = 20 dt: the steps from t_0 .. t_20 take
# the full source, those from t_21 on none.  The same as 21 steps with
# the source and 19 more with a schedule of 0, from the checkpoint.
printf '0,1\n0.02025,1\n0.0205,0\n' >"$workdir/off.csv"
printf '0,0\n' >"$workdir/zero.csv"
heater="--length 1 --alpha 1 --dt 1e-3
  --bc left=temperature:0.5 --bc right=convection:2,0 --bc bottom=insulated
  --bc top=flux:1 --source-rect 0.2,0.5,0.3,0.6,40"
# shellcheck disable=SC2086
run off $heater --grid 16x12 --initial-temperature 1 --steps 40 \
  --source-schedule "$workdir/off.csv"
# shellcheck disable=SC2086
run on $heater --grid 16x12 --initial-temperature 1 --steps 21 \
  --source-schedule "$workdir/off.csv"
# shellcheck disable=SC2086
run rest $heater --steps 19 --init "$workdir/on.h5" \
  --source-schedule "$workdir/zero.csv"
if [ -f "$workdir/rest.h5" ]; then
  [ "$(json_field checksum "$workdir/rest.json")" = \
    "$(json_field checksum "$workdir/off.json")" ] \
    || fail "switched off: the heater's run and the continued one differ"
  [ "$(json_field checksum "$workdir/on.json")" != \
    "$(json_field checksum "$workdir/off.json")" ] \
    || fail "switched off: the field did not change after t1"
fi
# ---------------------------------------------------------------- (vii)
# The stability limit counts convection: on 10x3 nodes of [0, 1]^2 with
# insulated y edges (dx = 0.1, dy = 0.5) the diffusion alone allows
# dt = 0.0038 (number 0.395); convection H = 1e4 at x = 0 adds 2 H / dx =
# 2e5 to the edge nodes' rate: refused.  --steps auto takes dt <= 1 /
# (2 104 + 2e5), which keeps the field within its initial and edge
# values (every node's own weight stays >= 0: the maximum principle);
# the edge nodes' mode, whose rate is nearly 2e5 + 208, grows without
# bound (status 5) at 2.2 times that dt, past 2 / rate, where the
# diffusion alone would be stable.
stiff="--grid 10x3 --length 1 --alpha 1 --bc left=convection:1e4,0
  --bc right=temperature:1 --bc bottom=insulated --bc top=insulated"
# The number is named with the terms it holds: convection, no face
# cooling (it said "with convection and face cooling" for either).
# shellcheck disable=SC2086
refused "time step 0.0038 is unstable on this grid: alpha\*dt\*(1/dx^2 + 1/dy^2) + dt/2 times the rate of convection = 380.395 > 0.5; use dt <= 4.99481e-06" \
  $stiff --dt 0.0038 --steps 10
# shellcheck disable=SC2086
refused "unstable on this grid: alpha\*dt\*(1/dx^2 + 1/dy^2) + dt/2 times the rate of face cooling = " \
  --grid 10x3 --length 1 --alpha 1 --thickness 1e-3 \
  --surface-convection 1e4,0 --dt 0.0038 --steps 10
# shellcheck disable=SC2086
refused "unstable on this grid: alpha\*dt\*(1/dx^2 + 1/dy^2) + dt/2 times the rate of convection and face cooling = " \
  $stiff --thickness 1e-3 --surface-convection 1e4,0 --dt 0.0038 --steps 10
# The report's stability line names them so too (it said "with
# convection", under a label the number exceeds by the convection's term).
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" $stiff --dt 4e-6 --steps 2
grep -q '^  stability     alpha\*dt\*(1/dx^2+1/dy^2) + dt/2 times the rate of convection = 0.400416 (explicit limit 0.5)$' \
  "$workdir/out" || fail "report's stability line: $(grep stability "$workdir/out")"
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $stiff --steps auto --end-time 0.05
then
  [ "$(json_field steps "$workdir/out")" = 10011 ] \
    || fail "--steps auto with convection: $(json_field steps "$workdir/out") steps, not 10011"
  awk -v lo="$(json_field min "$workdir/out")" \
      -v hi="$(json_field max "$workdir/out")" \
      'BEGIN { exit !(lo >= 0 && hi <= 1) }' \
    || fail "--steps auto with convection: the field left [0, 1]"
fi
# shellcheck disable=SC2086
expect_status 5 "$HEATSIM" -q $stiff --dt 1.1e-5 --end-time 0.1 --force
finish
