#!/bin/sh
# Periodic edges in the steady state and implicit steps of a material
# (the black box multigrid; issue 23): a random two-material map
# (contrast 1e3) with a source map against a sparse direct solve that
# Python builds here from the documented discretisation with the ring's
# faces, to 1e-9: x periodic with fixed bottom and top temperatures,
# y periodic with fixed left and right ones, both periodic with face
# cooling, both periodic with a balanced source and nothing else (the
# initial total heat kept), and an unbalanced one refused, as a large
# grid whose odd periodic axis cannot coarsen; a map and
# source shifted along the ring give the shifted field; backward Euler
# and Crank-Nicolson steps against the same matrices' steps, their total
# heat growing by the source's power times the time to 1e-10; and host,
# map, resident (x86_64 host plugin) and 1, 2, 4 MPI ranks bitwise alike.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy scipy.sparse.linalg

# 192 x 96 nodes (two levels), k 1 or 1e3 and rho c_p 1 or 3 at random; a source map,
# the same shifted 8 nodes along x, and a balanced one (zero sum: every
# node owns a whole box on a ring).
"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
rng = np.random.default_rng(2023)
ny, nx = 96, 192
high = rng.random((ny, nx)) < 0.4
k = np.where(high, 1e3, 1.0)
cap = np.where(rng.random((ny, nx)) < 0.5, 3.0, 1.0)
q = rng.uniform(-2e3, 5e3, (ny, nx))
for name, shift in (("map", 0), ("shifted", 8)):
    with h5py.File(name + ".h5", "w") as f:
        f["conductivity"] = np.roll(k, shift, axis=1)
        f["volumetric_heat_capacity"] = np.roll(cap, shift, axis=1)
    with h5py.File(name + "-source.h5", "w") as f:
        f["source"] = np.roll(q, shift, axis=1)
with h5py.File("balanced.h5", "w") as f:
    f["source"] = q - q.mean()
# 64 x 32 nodes, few enough to be the coarsest level (the band factor
# takes the finest operator), and the same with one k of 1e308: its
# faces' conductances overflow.
rng = np.random.default_rng(7)
k = np.where(rng.random((32, 64)) < 0.4, 1e3, 1.0)
cap = np.where(rng.random((32, 64)) < 0.5, 3.0, 1.0)
with h5py.File("small.h5", "w") as f:
    f["conductivity"] = k
    f["volumetric_heat_capacity"] = cap
k[5, 7] = 1e308
with h5py.File("huge.h5", "w") as f:
    f["conductivity"] = k
    f["volumetric_heat_capacity"] = cap
EOF

# The discretisation of heatsim(1) and operator.h, written here: node P
# exchanges heat with each neighbour N through their face, conductance
# the harmonic mean of their k over dx^2 (dy^2); on a periodic axis of n
# nodes (spacing L / n) node n's neighbour beyond it is node 1; a fixed
# edge's face (spacing L / (n + 1)) leads to the edge value with the
# edge node's own k; face cooling adds 2 h / D (u - TINF).  A steady
# state with nothing fixed keeps the total heat sum rho c_p u of the
# initial field.  Steps: (C + w A) u1 = (C - (dt - w) A) u0 + dt b, w =
# dt (backward Euler) or dt / 2 (Crank-Nicolson).
# Usage: reference.py MAP SOURCE CHECKPOINT LX LY XKIND YKIND H D TINF
#   MODE [DT STEPS T0]; KIND p (periodic) or d,LO,HI (fixed); MODE
#   steady, steady-singular T0, backward-euler or crank-nicolson.
cat >reference.py <<'EOF'
import sys, h5py, numpy as np, scipy.sparse as sp, scipy.sparse.linalg as sl
mat, src, checkpoint, lx, ly, xkind, ykind, h, d, tinf, mode = sys.argv[1:12]
with h5py.File(mat) as f:
    k = f["conductivity"][()]
    cap = f["volumetric_heat_capacity"][()]
with h5py.File(src) as f:
    q = f["source"][()]
with h5py.File(checkpoint) as f:
    u = f["field"][()]
ny, nx = k.shape
def axis(kind, n, length):
    if kind == "p":
        return True, length / n, 0.0, 0.0
    _, lo, hi = kind.split(",")
    return False, length / (n + 1), float(lo), float(hi)
px, dx, left, right = axis(xkind, nx, float(lx))
py, dy, bottom, top = axis(ykind, ny, float(ly))
sink = 2 * float(h) / float(d) if float(d) > 0 else 0.0
n = nx * ny
index = np.arange(n).reshape(ny, nx)
rows, cols, vals = [], [], []
b = (q + sink * float(tinf)).ravel().copy()
diag = np.full(n, sink)
for di, dj, h2, lo, hi in ((-1, 0, dx * dx, left, None),
                           (1, 0, dx * dx, None, right),
                           (0, -1, dy * dy, bottom, None),
                           (0, 1, dy * dy, None, top)):
    for j in range(ny):
        for i in range(nx):
            ni, nj, p = i + di, j + dj, index[j, i]
            if px:
                ni %= nx
            if py:
                nj %= ny
            inside = 0 <= ni < nx and 0 <= nj < ny
            kn = k[nj, ni] if inside else k[j, i]
            g = 2 * k[j, i] * kn / (k[j, i] + kn) / h2
            diag[p] += g
            if inside:
                rows.append(p); cols.append(index[nj, ni]); vals.append(-g)
            else:
                b[p] += g * (lo if lo is not None else hi)
a = (sp.csr_matrix((vals, (rows, cols)), shape=(n, n)) + sp.diags(diag))
c = sp.diags(cap.ravel())
if mode == "steady":
    ref = sl.spsolve(a.tocsc(), b)
elif mode == "steady-singular":
    heat = np.sum(cap) * float(sys.argv[12])
    a = a.tolil()
    b = b - b.mean()
    a[n - 1, :] = cap.ravel()
    b[n - 1] = heat
    ref = sl.spsolve(a.tocsc(), b)
else:
    dt, steps, t0 = float(sys.argv[12]), int(sys.argv[13]), float(sys.argv[14])
    w = dt if mode == "backward-euler" else dt / 2
    lhs = (c + w * a).tocsc()
    ref = np.full(n, t0)
    for _ in range(steps):
        ref = sl.spsolve(lhs, c @ ref - (dt - w) * (a @ ref) + dt * b)
ref = ref.reshape(ny, nx)
error = np.sqrt(np.sum((u - ref) ** 2) / np.sum(ref ** 2))
print(f"{mode} {xkind} {ykind}: relative difference {error:.3g}")
sys.exit(not error <= 1e-9)
EOF

# last_checkpoint DIR: the checkpoint of the last step in DIR.
last_checkpoint () {
  ls "$1"/*.h5 | sort -t- -k2 -n | tail -n 1
}

# run DIR ARGS...: heatsim with the map, its JSON in $workdir/out and
# checkpoints of its first and last step in DIR.
run () {
  _dir=$1
  shift
  expect_status 0 "$HEATSIM" -q --json --length 2x1.5 \
    --checkpoint-every 1000000 --checkpoint-name "s-%d.h5" \
    --output-dir "$_dir" "$@"
}

xring="--bc left=periodic --bc right=periodic"
yring="--bc bottom=periodic --bc top=periodic"
cooling="--thickness 0.01 --surface-convection 30,20"
# One case: NAME, heatsim's arguments, the reference's axis kinds, face
# cooling (H D TINF) and mode.
while IFS='|' read -r name args xkind ykind face mode; do
  # shellcheck disable=SC2086
  if run "$name" --material-map map.h5 --source-map map-source.h5 \
      --steady --rtol 1e-14 $args; then
    [ "$(json_field converged "$workdir/out")" = true ] \
      || fail "$name: not converged"
    # shellcheck disable=SC2086
    "$PY" reference.py map.h5 map-source.h5 "$(last_checkpoint "$name")" \
      2 1.5 "$xkind" "$ykind" $face $mode \
      || fail "$name: not the direct solution"
    pass
  fi
done <<EOF
x|$xring --bc bottom=temperature:10 --bc top=temperature:40|p|d,10,40|0 0 0|steady
y|$yring --bc left=temperature:-5 --bc right=temperature:25|d,-5,25|p|0 0 0|steady
both|$xring $yring $cooling|p|p|30 0.01 20|steady
EOF

# Both rings with nothing fixed: the balanced source keeps the initial
# heat; the unbalanced one has no steady state.
if run balanced --material-map map.h5 --source-map balanced.h5 --steady \
    --rtol 1e-14 $xring $yring --initial-temperature 7; then
  "$PY" reference.py map.h5 balanced.h5 "$(last_checkpoint balanced)" 2 1.5 \
    p p 0 0 0 steady-singular 7 || fail "balanced rings: not the direct solution"
  pass
fi
refused "no steady state exists; check --bc and the sources" \
  --material-map map.h5 --source-map map-source.h5 --steady $xring $yring
# Face cooling or convection of H = 0 takes no heat out: still none (it
# used to pass as a sink, and the solve dropped the sources' mean).
refused "no steady state exists; check --bc and the sources" \
  --material-map map.h5 --source-map map-source.h5 --steady $xring $yring \
  --thickness 0.01 --surface-convection 0,20
refused "no steady state exists; check --bc and the sources" \
  --material-map map.h5 --source-map map-source.h5 --steady $xring \
  --bc bottom=convection:0,3 --bc top=insulated
# A periodic axis of odd node count stops the coarsening at once: a large
# grid's coarsest solve would be too large.
# It names the solver the run takes: a uniform material with a source and
# a convection edge is no "multigrid of a material" (a hostile test
# pass).  Without the convection edge, the source is the geometric
# multigrid's right-hand side (fixed top and bottom), which takes it.
refused "^heatsim: --bc periodic: the black box multigrid (of a material, a source or edge terms) halves a periodic axis only while its node count is even; a 1023 x 600 grid stops at 1023 x 600 nodes" \
  --grid 1023x600 $xring --conductivity 1 --density 1 --heat-capacity 1 \
  --source 1 --steady --bc bottom=convection:1,0
expect_status 0 "$HEATSIM" -q --grid 1023x600 $xring --conductivity 1 \
  --density 1 --heat-capacity 1 --source 1 --steady

# Implicit steps with nothing to tie the temperature's level (a ring and
# insulated edges, no sink) at a huge dt: rho c_p / dt vanishes to
# rounding beside k / dx^2, and the band factor meets a pivot that is
# not positive.  It was refused as "a coefficient is not finite or
# positive", which none is.
for e in 12 16 24; do
  refused "--scheme backward-euler: dt 1e+$e: the step's operator is singular to rounding: rho c_p / dt vanishes beside k / dx^2 .*take a smaller dt" \
    --material-map small.h5 --length 2x1 $xring --bc bottom=insulated \
    --bc top=insulated --source 1 --scheme backward-euler --dt 1e$e -n 1
done
# The same singular operator reached mid-run: the bottom edge's H falls
# to 0 after the first step, whose hierarchy is then set up again.  It
# was reported as "the residual norm is not finite" (status 5).
printf '0,1000\n1e12,1000\n2e12,0\n' >falling-h.csv
if expect_status 4 "$HEATSIM" -q --material-map small.h5 --length 2x1 $xring \
    --bc bottom=convection:@falling-h.csv,0 --bc top=insulated --source 1 \
    --scheme backward-euler --dt 1e12 -n 3; then
  grep -q "step 2: the operator set up for the step's heat transfer coefficients is singular to rounding" \
    "$workdir/err" || fail "H falling to 0 at dt 1e12: $(cat "$workdir/err")"
fi
# At any huge dt a step runs, is refused as singular to rounding, or
# fails (status 4) saying that conjugate gradients broke down: which
# one depends on rounding (a log-uniform map of 192 x 96 broke down at
# dt 1e26, reported as "did not reach --rtol ... in 0 V-cycles").
"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
rng = np.random.default_rng(5)
with h5py.File("logmap.h5", "w") as f:
    f["conductivity"] = np.exp(rng.random((96, 192)) * np.log(1e3))
    f["volumetric_heat_capacity"] = 1 + 2 * rng.random((96, 192))
EOF
for dt in 1e18 1e22 1e26 1e30; do
  for m in logmap.h5 map.h5; do
    # shellcheck disable=SC2086
    "$HEATSIM" -q --material-map $m --length 2x1 $xring --bc bottom=insulated \
      --bc top=insulated --source 1 --scheme backward-euler --dt $dt -n 1 \
      >"$workdir/out" 2>"$workdir/err"
    case $?:$(cat "$workdir/err") in
      0:) pass ;;
      2:*"singular to rounding"*) pass ;;
      4:*"conjugate gradients broke down before their first iteration"*) pass ;;
      *) fail "$m at dt $dt: $(cat "$workdir/err")" ;;
    esac
  done
done
# A k whose coefficients overflow is refused, before the hierarchy is
# built, as beyond the range of k the steady solve takes, naming the map;
# the steady state quotes no dt (it quoted its sweeps', 0 or 2.9e-306).
refused "^heatsim: --material-map huge.h5: k from 1 to 1e+308: the steady black box multigrid takes k from .* on cells of 0.0307692 x 0.030303" \
  --material-map huge.h5 --length 2x1 --bc left=temperature:0 --steady
grep -q "dt" "$workdir/err" && fail "the steady refusal quotes a dt: $(cat "$workdir/err")"

# Shifted 8 nodes along the x ring, the map and the source give the
# field shifted (to the solver's tolerance).
args="$xring --bc bottom=temperature:10 --bc top=temperature:40 --steady --rtol 1e-14"
# shellcheck disable=SC2086
if run plain --material-map map.h5 --source-map map-source.h5 $args \
    && run moved --material-map shifted.h5 --source-map shifted-source.h5 \
      $args; then
  "$PY" - "$(last_checkpoint plain)" "$(last_checkpoint moved)" <<'EOF' \
    || fail "shifted map: not the shifted field"
import sys, h5py, numpy as np
u = h5py.File(sys.argv[1])["field"][()]
v = h5py.File(sys.argv[2])["field"][()]
error = np.max(np.abs(np.roll(u, 8, axis=1) - v)) / np.max(np.abs(u))
print(f"shifted by 8 nodes: largest difference {error:.3g}")
sys.exit(not error <= 1e-11)
EOF
  pass
fi

# Implicit steps on both rings from 300 K: the direct solve's steps,
# and the total heat grows by the source's power (every node a whole
# box of dx dy) times the time.
for scheme in backward-euler crank-nicolson; do
  if run "$scheme" --material-map map.h5 --source-map map-source.h5 \
      $xring $yring --initial-temperature 300 --scheme "$scheme" \
      --dt 1e-3 -n 4 --rtol 1e-14; then
    "$PY" reference.py map.h5 map-source.h5 "$(last_checkpoint "$scheme")" \
      2 1.5 p p 0 0 0 "$scheme" 1e-3 4 300 \
      || fail "$scheme: not the direct solve's steps"
    heat0=$(json_field heat_initial "$workdir/out")
    heat=$(json_field heat "$workdir/out")
    "$PY" - "$heat0" "$heat" <<'EOF' || fail "$scheme: heat not conserved ($heat0 -> $heat)"
import sys, h5py, numpy as np
heat0, heat = map(float, sys.argv[1:])
q = h5py.File("map-source.h5")["source"][()]
ny, nx = q.shape
gain = np.sum(q) * (2.0 / nx) * (1.5 / ny) * 4 * 1e-3
print(f"heat gained {heat - heat0!r}, source {gain!r}")
sys.exit(not abs((heat - heat0) - gain) <= 1e-10 * abs(gain))
EOF
    pass
  fi
done

# A flux and a convection edge beside the x ring: implicit steps of a
# varying material gave a NaN residual (the halo of a heated edge was
# the mirror plus infinity: 2 dx / k with no uniform k).  Backward
# Euler with steps far longer than the slowest time constant reaches
# the steady state of the same edges, and keeps the heat balance.
edges="$xring --bc bottom=flux:300 --bc top=convection:50,20"
# shellcheck disable=SC2086
if run heated-steady --material-map map.h5 --source-map map-source.h5 \
    $edges --steady --rtol 1e-14 \
    && run heated-be --material-map map.h5 --source-map map-source.h5 \
      $edges --scheme backward-euler --dt 1e6 -n 3 --rtol 1e-14 \
      --initial-temperature 20; then
  imbalance=$(json_field imbalance_relative "$workdir/out")
  "$PY" - "$(last_checkpoint heated-steady)" "$(last_checkpoint heated-be)" \
    "$imbalance" <<'EOF' || fail "flux and convection: implicit steps wrong"
import sys, h5py, numpy as np
u = h5py.File(sys.argv[1])["field"][()]
v = h5py.File(sys.argv[2])["field"][()]
error = np.max(np.abs(u - v)) / np.max(np.abs(u))
print(f"backward Euler against the steady state: {error:.3g}, "
      f"imbalance {sys.argv[3]}")
sys.exit(not (error <= 1e-9 and abs(float(sys.argv[3])) <= 1e-9))
EOF
  pass
fi

# The cases of the placements and ranks: x ring steady, y ring with
# face cooling and Crank-Nicolson, both rings backward Euler.
cases="$xring --bc bottom=temperature:10 --bc top=temperature:40 --steady --rtol 1e-12
$yring --bc left=temperature:-5 --bc right=insulated $cooling --scheme crank-nicolson --dt 1e-3 -n 3
$xring $yring --scheme backward-euler --dt 1e-3 -n 3 --initial-temperature 300"

# Every placement gives bitwise the same fields (map and resident run
# the passes in target regions, on the host plugin's own memory).
if host_plugin; then
  while read -r args; do
    # shellcheck disable=SC2086
    expect_status 0 "$HEATSIM" -q --json --material-map map.h5 \
      --source-map map-source.h5 --length 2x1.5 $args --offload host
    want=$(json_field checksum "$workdir/out")
    for placement in map resident; do
      # shellcheck disable=SC2086
      if expect_status 0 "$HEATSIM" -q --json --material-map map.h5 \
          --source-map map-source.h5 --length 2x1.5 $args \
          --offload $placement; then
        [ "$(json_field checksum "$workdir/out")" = "$want" ] \
          || fail "$args: --offload $placement differs from host"
        pass
      fi
    done
  done <<EOF
$cases
EOF
fi

# 1, 2 and 4 MPI ranks: bitwise alike (oversubscribed, as root in CI
# containers: see tests/mpi.sh).
if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  while read -r args; do
    want=
    for n in 1 2 4; do
      # shellcheck disable=SC2086
      if "$MPIEXEC" -np $n "$HEATSIM" -q --json --material-map map.h5 \
          --source-map map-source.h5 --length 2x1.5 $args >"$workdir/out" \
          2>"$workdir/err"; then
        got=$(json_field checksum "$workdir/out")
        [ -n "$want" ] || want=$got
        [ "$got" = "$want" ] || fail "$args: $n ranks differ from 1"
        pass
      else
        fail "$args: $n ranks failed: $(cat "$workdir/err")"
      fi
    done
  done <<EOF
$cases
EOF
fi
finish
