#!/bin/sh
# Heat flux, convection and face cooling in the multigrid steady state
# and the implicit schemes (issue 24), against exact solutions:
# - flux in at one edge and a fixed temperature at the other, and
#   convection at one edge: linear, exact to round-off of the range on a
#   coarse grid, along x and along y, steady and by backward Euler;
# - a fin (fixed base, face cooling, insulated tip): the cosh profile,
#   second order;
# - a manufactured 2-D solution with a flux edge, a convection edge and a
#   source map: second order in space (steady); with a source schedule in
#   time, Crank-Nicolson second order and backward Euler first order with
#   dt halved with dx;
# - linear Dirichlet temperature schedules, u = a + b t + b x^2 / (2 k):
#   exact for both schemes, on both multigrids;
# - a convection coefficient that changes in time (the hierarchy set up
#   again): the steady profile of the new one;
# - all-flux problems: a steady state refused where the heat does not
#   balance, solved with the initial heat where it does; implicit steps
#   gain the net heat rate times the time;
# - 1-4 MPI ranks, and host, map and resident (x86_64 offload build),
#   bitwise alike.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

# SI, rho c_p = 1 unless said: lengths in m, times in s.
material () {
  echo "--conductivity $1 --density 1 --heat-capacity 1"
}

# run NAME ARGS...: heatsim ARGS with a checkpoint of its last step in
# NAME.h5, its JSON in NAME.json.
run () {
  _name=$1
  shift
  rm -rf "out-$_name"
  expect_status 0 "$HEATSIM" -q --json --checkpoint-every 1000000 \
    --checkpoint-name "c-%d.h5" --output-dir "out-$_name" "$@" || return 1
  cp "$workdir/out" "$_name.json"
  cp "$(ls "out-$_name"/c-*.h5 | sort -t- -k2 -n | tail -n 1)" "$_name.h5"
}

# check.py KIND FILE ARGS...: the field of FILE against an exact
# solution; prints the largest error and fails beyond the tolerance.
# Node positions follow heatsim(1): a Dirichlet edge's nodes are the
# halo, any other edge's node is an unknown on the edge.
cat >check.py <<'EOF'
import sys, math, h5py, numpy as np

def positions(n, length, lo_fixed, hi_fixed):
    intervals = n + 1 - (not lo_fixed) - (not hi_fixed)
    d = length / intervals
    return (np.arange(n) + lo_fixed) * d

def load(path, lx, ly, fixed):
    with h5py.File(path) as f:
        u = f["field"][()]
        fx, fy = f["x"][()], f["y"][()]
    ny, nx = u.shape
    x = positions(nx, lx, fixed[0], fixed[1])
    y = positions(ny, ly, fixed[2], fixed[3])
    assert np.allclose(fx, x, rtol=0, atol=1e-12 * lx), "x coordinates"
    assert np.allclose(fy, y, rtol=0, atol=1e-12 * ly), "y coordinates"
    return u, x, y

kind, path = sys.argv[1:3]
a = [float(v) for v in sys.argv[3:]]
if kind == "linear":
    # along x or y: lx ly fixed(4 flags) t0 slope position-of-t0 tol
    axis, lx, ly = a[0], a[1], a[2]
    fixed = [bool(v) for v in a[3:7]]
    t0, slope, x0, tol = a[7:11]
    u, x, y = load(path, lx, ly, fixed)
    s = x[None, :] if axis == 0 else y[:, None]
    exact = t0 + slope * (s - x0)
    err = np.max(np.abs(u - exact))
    rng = abs(slope) * (lx if axis == 0 else ly)
    print(f"{path}: largest error {err:.3g}, {err / rng:.3g} of the range")
    sys.exit(not err <= tol * rng)
if kind == "fin":
    # length m tb tinf: error of the cosh profile along x
    length, m, tb, tinf = a
    u, x, y = load(path, length, length / 4, [True, False, False, False])
    exact = tinf + (tb - tinf) * np.cosh(m * (length - x)) / np.cosh(m * length)
    err = np.max(np.abs(u - exact[None, :]))
    print(err)
    sys.exit(0)
if kind == "mms":
    # t mu: u = tinf + 1 + 1/h - x + cos x cos(pi y) exp(-mu t) on the
    # unit square (flux 1 in at the left, convection h = tan 1 to
    # tinf = 20 at the right, insulated bottom and top)
    t, mu = a
    u, x, y = load(path, 1.0, 1.0, [False] * 4)
    h = math.tan(1.0)
    exact = (21.0 + 1.0 / h - x[None, :]
             + np.cos(x)[None, :] * np.cos(np.pi * y)[:, None]
             * math.exp(-mu * t))
    print(np.max(np.abs(u - exact)))
    sys.exit(0)
if kind == "quadratic":
    # a b k lx ly t tol: u = a + b t + b x^2 / (2 k), Dirichlet left and
    # right, insulated bottom and top
    qa, qb, k, lx, ly, t, tol = a
    u, x, y = load(path, lx, ly, [True, True, False, False])
    exact = qa + qb * t + qb * x ** 2 / (2 * k)
    err = np.max(np.abs(u - exact[None, :]))
    print(f"{path}: largest error {err:.3g}")
    sys.exit(not err <= tol)
if kind == "mean":
    # lx ly heat q k tol: insulated but for the flux q in at the left
    # edge and out at the right (or the sources): the field less its
    # volume-weighted mean is -q x / k plus a constant, and that mean
    # keeps the initial heat (per unit area: the initial temperature)
    lx, ly, mean0, q, k, tol = a
    u, x, y = load(path, lx, ly, [False] * 4)
    wx = np.ones_like(x); wx[0] = wx[-1] = 0.5
    wy = np.ones_like(y); wy[0] = wy[-1] = 0.5
    w = wy[:, None] * wx[None, :]
    mean = np.sum(w * u) / np.sum(w)
    shape = -q * x / k
    shape -= np.sum(wx * shape) / np.sum(wx)
    err = max(np.max(np.abs(u - mean - shape[None, :])) / (q * lx / k),
              abs(mean - mean0) / abs(mean0))
    print(f"{path}: relative error {err:.3g}")
    sys.exit(not err <= tol)
sys.exit(2)
EOF

# order E1 E2 LO HI: log2 (E1 / E2) in [LO, HI].
order () {
  "$PY" -c 'import sys, math
e1, e2, lo, hi = map(float, sys.argv[1:])
p = math.log2(e1 / e2)
print(f"errors {e1:.3g} {e2:.3g}: order {p:.3f}")
sys.exit(not lo <= p <= hi)' "$@"
}

# Flux in at one edge, a fixed temperature at the other: T = T1 + Q
# (L - x) / k, linear, exact on 9 x 5 nodes; the same along y; and by
# backward Euler with a step long enough to reach it.  k = 2, Q = 5000,
# L = 0.3: a range of 750 K.  The edges' heat rates (JSON) are exact
# too.
K=2
for axis in x y; do
  if [ $axis = x ]; then
    edges="--bc left=flux:5000 --bc right=temperature:300 --bc bottom=insulated --bc top=insulated"
    geom="--grid 9x5 --length 0.3x0.1" dims="0 0.3 0.1 0 1 0 0"
    rates="left:500 right:-500"
  else
    edges="--bc bottom=flux:5000 --bc top=temperature:300 --bc left=insulated --bc right=insulated"
    geom="--grid 5x9 --length 0.1x0.3" dims="1 0.1 0.3 0 0 0 1"
    rates="bottom:500 top:-500"
  fi
  for how in "--steady --rtol 1e-14" "--scheme backward-euler --dt 1e9 -n 3 --rtol 1e-14"; do
    # shellcheck disable=SC2086
    if run flux $(material $K) $geom $edges --initial-temperature 300 $how; then
      "$PY" check.py linear flux.h5 $dims 300 -2500 0.3 1e-12 \
        || fail "flux along $axis ($how): not the linear profile"
      # 5000 W/m^2 over 0.1 m in, and out through the fixed edge.
      for e in $rates; do
        got=$(json_field "heat_rate_${e%:*}" flux.json)
        close_to "$got" "${e#*:}" 1e-12 \
          || fail "flux along $axis ($how): heat rate ${e%:*} $got, not ${e#*:}"
      done
      pass
    fi
  done
done

# Convection at the right edge, the left at 400: q = (400 - 300) /
# (L/k + 1/H), T = 400 - q x / k (also along y); q times the edge's
# length, 0.1 m, in at the fixed edge and out at the convection one.
for axis in x y; do
  if [ $axis = x ]; then
    edges="--bc left=temperature:400 --bc right=convection:50,300 --bc bottom=insulated --bc top=insulated"
    geom="--grid 9x5 --length 0.3x0.1" dims="0 0.3 0.1 1 0 0 0"
    rates="left:-1 right:1"
  else
    edges="--bc bottom=temperature:400 --bc top=convection:50,300 --bc left=insulated --bc right=insulated"
    geom="--grid 5x9 --length 0.1x0.3" dims="1 0.1 0.3 0 0 1 0"
    rates="bottom:-1 top:1"
  fi
  slope=$("$PY" -c 'print(-100 / (0.3 / 2 + 1 / 50) / 2)')
  for how in "--steady --rtol 1e-14" "--scheme backward-euler --dt 1e9 -n 3 --rtol 1e-14"; do
    # shellcheck disable=SC2086
    if run robin $(material $K) $geom $edges --initial-temperature 350 $how; then
      "$PY" check.py linear robin.h5 $dims 400 "$slope" 0 1e-12 \
        || fail "convection along $axis ($how): not the linear profile"
      for e in $rates; do
        got=$(json_field "heat_rate_${e%:*}" robin.json)
        want=$("$PY" -c "print(${e#*:} * 2 * $slope * 0.1)")
        close_to "$got" "$want" 1e-12 \
          || fail "convection along $axis ($how): heat rate ${e%:*} $got, not $want"
      done
      pass
    fi
  done
done

# The fin: base 100 at the left, insulated tip and sides, face cooling
# H = 25, TINF = 20 through a plate 2 mm thick; k = 200, L = 0.1:
# m^2 = 2 H / (k D) = 125.  Second order with dx halved.
m=$("$PY" -c 'print(125 ** 0.5)')
prev=
for n in 8 16 32; do
  if run fin $(material 200) --grid ${n}x3 --length 0.1x0.025 \
      --bc left=temperature:100 --bc right=insulated --bc bottom=insulated \
      --bc top=insulated --thickness 0.002 --surface-convection 25,20 \
      --initial-temperature 50 --steady --rtol 1e-13; then
    err=$("$PY" check.py fin fin.h5 0.1 "$m" 100 20) || fail "fin $n"
    if [ -n "$prev" ]; then
      order "$prev" "$err" 1.9 2.1 || fail "fin: not second order at $n nodes"
    fi
    prev=$err
  fi
done

# The manufactured solution on the unit square, k = rho c_p = 1:
# u = 21 + 1/H - x + cos x cos(pi y) T(t), flux 1 in at the left,
# convection H = tan 1, TINF = 20 at the right, insulated bottom and top
# (each term meets them), source q = (lambda - mu) cos x cos(pi y) T(t),
# lambda = 1 + pi^2, T(t) = exp(-mu t).  Steady: mu = 0.
cat >maps.py <<'EOF'
import sys, math, h5py, numpy as np
n, mu, dt_min, steps = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
lam = 1 + math.pi ** 2
x = np.linspace(0, 1, n)
p = np.cos(x)[None, :] * np.cos(np.pi * x)[:, None]
with h5py.File(f"q{n}.h5", "w") as f:
    f["source"] = (lam - mu) * p if mu == 0 else p
# The initial field, its halo ring as the edges' lines (not read).
h = math.tan(1.0)
u = 21 + 1 / h - x[None, :] + p
ring = np.pad(u, 1, mode="edge")
with h5py.File(f"u{n}.h5", "w") as f:
    f["field"] = ring
# The source's factor at every step time of the finest run: exact there.
with open("factor.csv", "w") as f:
    f.write("time,factor\n")
    for k in range(steps + 1):
        t = k * dt_min
        f.write(f"{t!r},{(lam - mu) * math.exp(-mu * t)!r}\n")
EOF
MMS_EDGES="--bc left=flux:1 --bc right=convection:1.5574077246549023,20 --bc bottom=insulated --bc top=insulated"
prev=
for n in 9 17 33; do
  "$PY" maps.py $n 0 1 1 || exit 99
  # shellcheck disable=SC2086
  if run mms $(material 1) --grid ${n}x$n --length 1 $MMS_EDGES \
      --source-map q$n.h5 --initial-temperature 20 --steady --rtol 1e-13; then
    err=$("$PY" check.py mms mms.h5 0 0) || fail "mms steady $n"
    if [ -n "$prev" ]; then
      order "$prev" "$err" 1.85 2.2 || fail "mms steady: not second order at $n nodes"
    fi
    prev=$err
  fi
done

# In time: to t = 0.2 with mu = 4, dt = 0.1 at dx = 1/8, halved with dx.
for scheme in crank-nicolson backward-euler; do
  case $scheme in
    crank-nicolson) lo=1.85 hi=2.2 ;;
    *) lo=0.85 hi=1.2 ;;
  esac
  prev=
  steps=1
  for n in 9 17 33; do
    steps=$((steps * 2))
    "$PY" maps.py $n 4 0.0125 16 || exit 99
    # shellcheck disable=SC2086
    if run mmst $(material 1) --init u$n.h5 --length 1 $MMS_EDGES \
        --source-map q$n.h5 --source-schedule factor.csv --scheme $scheme \
        --end-time 0.2 --steps $steps --rtol 1e-12; then
      err=$("$PY" check.py mms mmst.h5 0.2 4) || fail "mms $scheme $n"
      if [ -n "$prev" ]; then
        order "$prev" "$err" $lo $hi || fail "mms $scheme: wrong order at $n nodes"
      fi
      prev=$err
    fi
  done
done

# Linear temperature schedules at both Dirichlet edges: u = a + b t +
# b x^2 / (2 k), a = 10, b = 3, k = 0.5, L = 0.2, is exact for both
# schemes (the halo at the right time level), on the geometric
# multigrid (uniform material, Dirichlet and insulated edges) and, with
# a flux schedule of zeros at the top, on the black box one.
printf 'time,T\n0,10\n1,13\n' >left.csv
printf 'time,T\n0,10.12\n1,13.12\n' >right.csv
printf 'time,Q\n0,0\n1,0\n' >zero.csv
"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
x = (np.arange(12)) * 0.2 / 11
u = 10 + 3 * x ** 2 / (2 * 0.5)
with h5py.File("quad.h5", "w") as f:
    f["field"] = np.tile(u, (7, 1))
EOF
for top in insulated flux:@zero.csv; do
  for scheme in backward-euler crank-nicolson; do
    # shellcheck disable=SC2086
    if run quad $(material 0.5) --init quad.h5 --length 0.2x0.1 \
        --bc left=temperature:@left.csv --bc right=temperature:@right.csv \
        --bc bottom=insulated --bc top=$top --scheme $scheme --dt 0.05 \
        -n 6 --rtol 1e-14; then
      "$PY" check.py quadratic quad.h5 10 3 0.5 0.2 0.1 0.3 1e-10 \
        || fail "temperature schedules, top $top, $scheme: not exact"
      pass
    fi
  done
done

# A convection coefficient that steps from 10 to 50 at t = 1: backward
# Euler to t = 50 ends at the linear profile of H = 50 (the hierarchy
# follows H).
printf 'time,H\n0,10\n1,50\n' >h.csv
if run robinh $(material $K) --grid 9x5 --length 0.3x0.1 \
    --bc left=temperature:400 --bc right=convection:@h.csv,300 \
    --bc bottom=insulated --bc top=insulated --initial-temperature 350 \
    --scheme backward-euler --dt 10 -n 5 --rtol 1e-14; then
  "$PY" check.py linear robinh.h5 0 0.3 0.1 1 0 0 0 400 "$slope" 0 1e-9 \
    || fail "convection schedule: not the profile of the last H"
  pass
fi

# Heat that does not balance: no steady state.
refused "no steady state exists" $(material 1) --grid 9x5 --length 0.3x0.1 \
  --bc left=flux:100 --bc right=insulated --bc bottom=insulated \
  --bc top=insulated --steady
refused "no steady state exists" $(material 1) --grid 9x5 --length 0.3x0.1 \
  --bc all=insulated --source 10 --steady
# Heat that balances: 100 in at the left, 100 out at the right; the mean
# keeps the initial 300.
if run balanced $(material 2) --grid 9x5 --length 0.3x0.1 \
    --bc left=flux:100 --bc right=flux:-100 --bc bottom=insulated \
    --bc top=insulated --initial-temperature 300 --steady --rtol 1e-14; then
  "$PY" check.py mean balanced.h5 0.3 0.1 300 100 2 1e-12 \
    || fail "balanced fluxes: not the linear profile of the initial mean"
  pass
fi
# Implicit steps of the unbalanced problem: the heat grows by Q L_y t
# (100 W/m^2 over 0.1 m for 0.5 s: 5 J per metre of depth).
for scheme in backward-euler crank-nicolson; do
  if run gain $(material 1) --grid 9x5 --length 0.3x0.1 \
      --bc left=flux:100 --bc right=insulated --bc bottom=insulated \
      --bc top=insulated --initial-temperature 300 --scheme $scheme \
      --dt 0.1 -n 5 --rtol 1e-12; then
    heat0=$(json_field heat_initial gain.json)
    heat=$(json_field heat gain.json)
    "$PY" -c 'import sys
h0, h = map(float, sys.argv[1:])
print(f"heat gained {h - h0!r}")
sys.exit(not abs(h - h0 - 5.0) <= 1e-10 * 5.0)' "$heat0" "$heat" \
      || fail "$scheme: heat $heat0 -> $heat, not 5 J/m more"
    pass
  fi
done

# The same runs on every placement and rank count, bitwise.
cases="flux|$(material $K) --grid 9x5 --length 0.3x0.1 --bc left=flux:5000 --bc right=temperature:300 --bc bottom=insulated --bc top=insulated --initial-temperature 300 --steady --rtol 1e-14
robin|$(material $K) --grid 17x13 --length 0.3x0.1 --bc left=temperature:400 --bc right=convection:@h.csv,300 --bc bottom=flux:20 --bc top=insulated --initial-temperature 350 --scheme crank-nicolson --dt 0.5 -n 4
fin|$(material 200) --grid 33x9 --length 0.1x0.025 --bc left=temperature:100 --bc right=insulated --bc bottom=convection:5,20 --bc top=insulated --thickness 0.002 --surface-convection 25,20 --initial-temperature 50 --scheme backward-euler --dt 1 -n 3
mms|$(material 1) --init u17.h5 --length 1 $MMS_EDGES --source-map q17.h5 --source-schedule factor.csv --scheme crank-nicolson --end-time 0.2 --steps 4"
"$PY" maps.py 17 4 0.0125 16 || exit 99
if host_plugin; then
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086
    expect_status 0 "$HEATSIM" -q --json $args --offload host || continue
    want=$(json_field checksum "$workdir/out")
    for placement in map resident; do
      # shellcheck disable=SC2086
      if expect_status 0 "$HEATSIM" -q --json $args --offload $placement; then
        [ "$(json_field checksum "$workdir/out")" = "$want" ] \
          || fail "$name: --offload $placement differs from host"
      fi
    done
  done <<EOF
$cases
EOF
fi
if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  while IFS='|' read -r name args; do
    want=
    for n in 1 2 3 4; do
      # shellcheck disable=SC2086
      if "$MPIEXEC" -np $n "$HEATSIM" -q --json $args </dev/null >"$workdir/out" \
          2>"$workdir/err"; then
        got=$(json_field checksum "$workdir/out")
        [ -n "$want" ] || want=$got
        [ "$got" = "$want" ] || fail "$name: $n ranks differ from 1"
        pass
      else
        fail "$name: $n ranks failed: $(cat "$workdir/err")"
      fi
    done
  done <<EOF
$cases
EOF
fi
finish
