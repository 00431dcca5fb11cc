#!/bin/sh
# The steady state and implicit steps of a variable material (issue 23),
# solved by the black box multigrid: a layered wall (contrast 1e4, the
# interface on a face) against its exact piecewise-linear profile to
# round-off; a random material and source map against a sparse direct
# solve that Python builds here from the documented discretisation
# (Dirichlet edges, and insulated ones with a balanced source, where the
# solution keeps the initial total heat), and cut for output as unbroken;
# backward Euler and Crank-Nicolson with insulated edges and a source,
# whose total heat grows by the source's power times the time to 1e-10;
# the offload
# placements (x86_64 host plugin), 1-3 threads and 1-4 MPI ranks bitwise
# alike
# (periodic edges: periodic-material.sh).
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy scipy.sparse.linalg

# The maps.  wall: 241 x 100 nodes (two multigrid levels), k = 3 on the
# first 97 columns, 3e4 beyond; its init file's outer ring holds the exact
# profile on the top and bottom rows, so that every row is the 1-D wall.
# random: 150 x 130 nodes, k log-uniform in [1, 1e4], rho c_p in [1, 3],
# a source map, and a source balanced for insulated edges.
"$PY" - <<'EOF' || exit 99
import h5py, numpy as np
nx, ny, m = 241, 100, 97
k = np.where(np.arange(1, nx + 1) <= m, 3.0, 3e4)
with h5py.File("wall.h5", "w") as f:
    f["conductivity"] = np.tile(k, (ny, 1))
kk = np.concatenate(([k[0]], k, [k[-1]]))   # the halo takes the edge's k
g = 2 * kk[:-1] * kk[1:] / (kk[:-1] + kk[1:])
resistance = np.concatenate(([0.0], np.cumsum(1 / g)))
profile = 300.0 + 100.0 * resistance / resistance[-1]
start = np.full((ny + 2, nx + 2), 350.0)
start[0, :] = start[-1, :] = profile
start[:, 0], start[:, -1] = 300.0, 400.0
with h5py.File("wall-init.h5", "w") as f:
    f["field"] = start
np.save("wall-exact.npy", profile[1:-1])

rng = np.random.default_rng(23)
nx, ny = 150, 130
with h5py.File("random.h5", "w") as f:
    f["conductivity"] = 10 ** rng.uniform(0, 4, (ny, nx))
    f["volumetric_heat_capacity"] = rng.uniform(1, 3, (ny, nx))
with h5py.File("source.h5", "w") as f:
    f["source"] = rng.uniform(-2e3, 5e3, (ny, nx))
q = rng.uniform(0, 1e4, (ny, nx))
# Balanced over the nodes' shares of a box (insulated edges: half on an
# edge, a quarter at a corner), or there is no steady state.
share = np.ones((ny, nx))
share[[0, -1], :] *= 0.5
share[:, [0, -1]] *= 0.5
with h5py.File("balanced.h5", "w") as f:
    f["source"] = q - np.sum(share * q) / np.sum(share)
EOF

# The discretisation of heatsim(1) and operator.h, written here: node P
# exchanges heat with each neighbour N through their face, conductance
# the harmonic mean of their k over dx^2 (dy^2); a Dirichlet edge's face
# leads to the edge value with the edge node's own k; an insulated
# edge's nodes lie on it and own half a box (a quarter at a corner): the
# face beyond them carries nothing, their faces along the edge are half
# as long, their capacity and source count half.  -L_k u = q.  Without a
# Dirichlet edge the last equation becomes sum rho c_p u V = the initial
# total heat.
cat >reference.py <<'EOF'
import sys, h5py, numpy as np, scipy.sparse as sp, scipy.sparse.linalg as sl
material, source, checkpoint, start, kind = sys.argv[1:6]
with h5py.File(material) as f:
    k = f["conductivity"][()]
    cap = f["volumetric_heat_capacity"][()]
with h5py.File(source) as f:
    q = f["source"][()]
with h5py.File(checkpoint) as f:
    u = f["field"][()]
    edge = {e: f["boundary/" + e][()] for e in ("left", "right", "bottom", "top")}
    lx, ly = (float(f[a][-1] + f[a][0]) for a in ("x", "y"))
ny, nx = k.shape
ends = 2 if kind == "insulated" else 0
dx, dy = lx / (nx + 1 - ends), ly / (ny + 1 - ends)
sx, sy = np.ones(nx), np.ones(ny)
if kind == "insulated":
    sx[[0, -1]] = sy[[0, -1]] = 0.5
share = sy[:, None] * sx[None, :]
n = nx * ny
index = np.arange(n).reshape(ny, nx)
rows, cols, vals = [], [], []
b = (share * q).ravel()
for di, dj, h2, name in ((-1, 0, dx * dx, "left"), (1, 0, dx * dx, "right"),
                         (0, -1, dy * dy, "bottom"), (0, 1, dy * dy, "top")):
    for j in range(ny):
        for i in range(nx):
            ni, nj, p = i + di, j + dj, index[j, i]
            inside = 0 <= ni < nx and 0 <= nj < ny
            if not inside and kind == "insulated":
                continue
            kn = k[nj, ni] if inside else k[j, i]
            g = 2 * k[j, i] * kn / (k[j, i] + kn) / h2 * (sy[j] if di else sx[i])
            rows.append(p); cols.append(p); vals.append(g)
            if inside:
                rows.append(p); cols.append(index[nj, ni]); vals.append(-g)
            else:
                along = j if name in ("left", "right") else i
                b[p] += g * edge[name][along]
a = sp.csr_matrix((vals, (rows, cols)), shape=(n, n)).tolil()
if kind == "insulated":
    with h5py.File(start) as f:
        heat = np.sum(share * cap * f["field"][()])
    b -= b.mean()
    a[n - 1, :] = (share * cap).ravel()
    b[n - 1] = heat
ref = sl.spsolve(a.tocsc(), b).reshape(ny, nx)
error = np.sqrt(np.sum((u - ref) ** 2) / np.sum(ref ** 2))
print(f"{kind}: relative difference {error:.3g}")
sys.exit(not error <= 1e-9)
EOF

# last_checkpoint DIR: the checkpoint of the last step in DIR.
last_checkpoint () {
  ls "$1"/*.h5 | sort -t- -k2 -n | tail -n 1
}

# steady DIR ARGS...: a steady run to the round-off floor, its JSON in
# $workdir/out and checkpoints of its first and last step in DIR.
steady () {
  _dir=$1
  shift
  expect_status 0 "$HEATSIM" -q --json --steady --rtol 1e-14 \
    --checkpoint-every 1000000 --checkpoint-name "s-%d.h5" \
    --output-dir "$_dir" "$@"
}

# The layered wall: exact to round-off, on two levels.
if steady wall --material-map wall.h5 --density 1 --heat-capacity 1 \
    --init wall-init.h5 --length 1; then
  [ "$(json_field levels "$workdir/out")" = 2 ] \
    || fail "wall: $(json_field levels "$workdir/out") multigrid levels, not 2"
  "$PY" - "$(last_checkpoint wall)" <<'EOF' || fail "wall: not the exact profile"
import sys, h5py, numpy as np
u = h5py.File(sys.argv[1])["field"][()]
error = np.max(np.abs(u - np.load("wall-exact.npy")[None, :])) / 400.0
print(f"wall: largest error {error:.3g} of the hottest edge")
sys.exit(not error <= 1e-12)
EOF
  pass
fi

# A random material and source map against the direct solve.
if steady dirichlet --material-map random.h5 --source-map source.h5 \
    --length 2x1.5 --edges 10,20,30,40; then
  [ "$(json_field converged "$workdir/out")" = true ] \
    || fail "random map: not converged"
  "$PY" reference.py random.h5 source.h5 "$(last_checkpoint dirichlet)" \
    dirichlet/s-0.h5 dirichlet || fail "random map: not the direct solution"
  pass
fi
if steady insulated --material-map random.h5 --source-map balanced.h5 \
    --length 2x1.5 -b neumann; then
  "$PY" reference.py random.h5 balanced.h5 "$(last_checkpoint insulated)" \
    insulated/s-0.h5 insulated \
    || fail "insulated random map: not the direct solution"
  pass
fi

# Cells far from square (dx/dy about 20 and 1/20), relaxed by lines: the
# direct solution too.
for length in 30x1.3 0.15x13; do
  if steady "stretched-$length" --material-map random.h5 \
      --source-map source.h5 --length "$length" --edges 10,20,30,40; then
    "$PY" reference.py random.h5 source.h5 \
      "$(last_checkpoint "stretched-$length")" "stretched-$length/s-0.h5" \
      dirichlet || fail "random map, length $length: not the direct solution"
    pass
  fi
done

# A steady run that stops for output every 2 iterations goes on with its
# conjugate gradients: the iterations and the bits of the unbroken run.
for edges in "--edges 10,20,30,40 --source-map source.h5" \
    "-b neumann --source-map balanced.h5"; do
  # shellcheck disable=SC2086
  steady unbroken --material-map random.h5 --length 2x1.5 $edges
  want="$(json_field cycles "$workdir/out") $(json_field checksum "$workdir/out")"
  # shellcheck disable=SC2086
  if expect_status 0 "$HEATSIM" -q --json --steady --rtol 1e-14 \
      --checkpoint-every 2 --output-dir broken --material-map random.h5 \
      --length 2x1.5 $edges; then
    got="$(json_field cycles "$workdir/out") $(json_field checksum "$workdir/out")"
    [ "$got" = "$want" ] \
      || fail "$edges: output every 2 iterations: $got, unbroken $want"
    pass
  fi
  rm -rf unbroken broken
done

# Implicit steps with insulated edges and a source: the total heat grows
# by the source's power (the map's sum, edge nodes counting half, times
# dx dy) times the time.
for scheme in backward-euler crank-nicolson; do
  if expect_status 0 "$HEATSIM" -q --json --material-map random.h5 \
      --source-map source.h5 --length 2x1.5 -b neumann --scheme "$scheme" \
      --dt 1e-3 -n 5; then
    heat0=$(json_field heat_initial "$workdir/out")
    heat=$(json_field heat "$workdir/out")
    "$PY" - "$heat0" "$heat" <<'EOF' || fail "$scheme: heat not conserved ($heat0 -> $heat)"
import sys, h5py, numpy as np
heat0, heat = map(float, sys.argv[1:])
q = h5py.File("source.h5")["source"][()]
ny, nx = q.shape
q[[0, -1], :] *= 0.5
q[:, [0, -1]] *= 0.5
gain = np.sum(q) * (2.0 / (nx - 1)) * (1.5 / (ny - 1)) * 5 * 1e-3
print(f"heat gained {heat - heat0!r}, source {gain!r}")
sys.exit(not abs((heat - heat0) - gain) <= 1e-10 * abs(gain))
EOF
    pass
  fi
done

# Every placement gives bitwise the same fields: map and resident run
# the passes in target regions, on the host plugin's own memory, where a
# missing transfer changes the answer (unit_boxmg checks what each moves).
if host_plugin; then
  for args in "--steady --rtol 1e-12" "--scheme crank-nicolson --dt 1e-3 -n 3"; do
    # shellcheck disable=SC2086
    expect_status 0 "$HEATSIM" -q --json --material-map random.h5 \
      --source-map source.h5 --length 2x1.5 $args --offload host
    want=$(json_field checksum "$workdir/out")
    for placement in map resident; do
      # shellcheck disable=SC2086
      if expect_status 0 "$HEATSIM" -q --json --material-map random.h5 \
          --source-map source.h5 --length 2x1.5 $args --offload $placement
      then
        [ "$(json_field checksum "$workdir/out")" = "$want" ] \
          || fail "$args: --offload $placement differs from host"
        pass
      fi
    done
  done
fi

# The set-up and the solve take their sums in a fixed order: 1, 2 and 3
# threads give the same bits (the random map: its finest level and its
# set-up run on the threads).
for args in "--steady --rtol 1e-12" "-b neumann --scheme backward-euler --dt 1e-3 -n 3"; do
  want=
  for threads in 1 2 3; do
    # shellcheck disable=SC2086
    if OMP_NUM_THREADS=$threads "$HEATSIM" -q --json --material-map \
        random.h5 --source-map source.h5 --length 2x1.5 $args \
        >"$workdir/out" 2>"$workdir/err"; then
      got=$(json_field checksum "$workdir/out")
      [ -n "$want" ] || want=$got
      [ "$got" = "$want" ] || fail "$args: $threads threads differ from 1"
      pass
    else
      fail "$args: $threads threads failed: $(cat "$workdir/err")"
    fi
  done
done

# Several MPI ranks: bitwise the field of one (oversubscribed, as root in
# CI containers: see tests/mpi.sh).
# Cells far from square: a copper strip of 256 x 128 nodes at dx/dy =
# 50 took the point smoother past --max-steps 100; the line smoother
# converges in a handful of iterations.  Where the strong axis is a
# periodic one (no lines along a ring), a run that reaches --max-steps
# says the cells slow the black box multigrid; one of square cells
# stopped early does not.
strip="-g 256x128 --conductivity 400 --density 8960 --heat-capacity 385
  --source 1e6 --edges 20,20,20,20 --steady"
# shellcheck disable=SC2086
for length in 0.1x0.001 0.001x0.1; do
  if expect_status 0 "$HEATSIM" -q --json $strip --length "$length"; then
    cycles=$(json_field cycles "$workdir/out")
    [ "$cycles" -le 8 ] \
      || fail "stretched cells $length: $cycles iterations (at most 8)"
  fi
done
# (Face cooling, however slight, keeps the black box: the source alone
# is the geometric multigrid's right-hand side, which coarsens the ring
# and converges in 11 V-cycles.)
# shellcheck disable=SC2086
if expect_status 4 "$HEATSIM" -q $strip --length 0.1x0.001 \
    --bc bottom=periodic --bc top=periodic --thickness 1 \
    --surface-convection 1e-6,20; then
  grep -q 'cells far from square' "$workdir/err" \
    || fail "stretched cells: no hint: $(cat "$workdir/err")"
fi
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q $strip --length 0.1x0.001 \
  --bc bottom=periodic --bc top=periodic
# Cells so far from square that the x couplings vanish to rounding
# beside the y ones (dx/dy 7e7): refused as singular, naming them.
refused "singular to rounding.*cells too far from square" --steady \
  -g 300x200 --conductivity 400 --density 8960 --heat-capacity 385 \
  --source 1e6 --length 1x1e-8 --bc left=temperature:20 \
  --bc right=temperature:30 --bc bottom=insulated --bc top=insulated
# shellcheck disable=SC2086
if expect_status 4 "$HEATSIM" -q $strip --length 0.1x0.05 --max-steps 2; then
  grep -q 'still above --rtol' "$workdir/err" \
    || fail "square cells: no warning: $(cat "$workdir/err")"
  grep -q 'cells far from square' "$workdir/err" \
    && fail "square cells: the stretched cells' hint"
fi
# A uniform material without a source: a fin (its short side's axis
# with insulated ends, the domain long), whose coarse levels the
# geometric multigrid cannot keep near square cells (323 V-cycles at
# 300 x 10 cells, 171 at 3000 x 40, implicit steps that never
# converged), takes the black box multigrid and its lines: its steady
# state is the straight line between the fixed ends, max
# 20 + 10 * 300/301 (to 1e-6: a half-cell shift of the edges is 0.017),
# in a few iterations; implicit steps far beyond the explicit limit
# converge to it too (the fin's time constant L^2 / alpha is 10 s).  A
# large fin 200 times longer than wide keeps the geometric multigrid (10
# V-cycles), and so does a ring across (periodic faces, which the black
# box multigrid relaxes no better), whose warning at --max-steps says
# why.
fin="-g 300x10 --length 1x1e-3 --bc left=temperature:20
  --bc right=temperature:30 --bc bottom=insulated --bc top=insulated"
line_check () {
  "$PY" -c "
import json, sys
d = json.load(open('$workdir/out'))
exact = 20 + 10 * $1 / ($1 + 1)
if abs(d['max'] - exact) > 1e-6 or abs(d['mean'] - 25) > 1e-6:
    sys.exit('max %r (exact %r), mean %r' % (d['max'], exact, d['mean']))
" || fail "$2: not the straight line"
}
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $fin --steady; then
  cycles=$(json_field cycles "$workdir/out")
  [ "$cycles" -le 5 ] || fail "fin: $cycles iterations"
  line_check 300 fin
  [ -s "$workdir/err" ] && fail "fin: a warning: $(cat "$workdir/err")"
fi
# Cells of dx/dy 1e5: the residual falls to --rtol, but rounding leaves
# the field off the line (mean 25.016, worst 0.023), and the heat
# balance shows it (1.8e-2 of the heat through the edges): the run says
# so.  Not where a loose --rtol leaves the imbalance.
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $fin --steady -g 100x1000 \
    --length 1x1e-4; then
  grep -q 'warning: --steady: the heat balance is off by .* rounding has spoiled.*cells far from square' \
    "$workdir/err" || fail "cells of dx/dy 1e5: no warning"
fi
# The same cells with fixed faces at 25 (a field far from uniform)
# balance no better (0.19): they warn too, and report it.
if expect_status 0 "$HEATSIM" -q --json --steady -g 100x1000 --length 1x1e-4 \
    --bc left=temperature:20 --bc right=temperature:30 \
    --bc bottom=temperature:25 --bc top=temperature:25; then
  grep -q 'warning: --steady: the heat balance is off by' "$workdir/err" \
    || fail "fixed faces, cells of dx/dy 1e5: no warning"
  awk -v r="$(json_field imbalance_relative "$workdir/out")" \
    'BEGIN { exit !(r > 1e-2) }' \
    || fail "fixed faces, cells of dx/dy 1e5: imbalance_relative $(json_field imbalance_relative "$workdir/out")"
fi
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q $fin --steady -g 100x1000 --length 1x1e-4 \
    --rtol 1e-4; then
  [ -s "$workdir/err" ] && fail "a loose --rtol warns: $(cat "$workdir/err")"
fi
# Not a steady state of next to no heat (the manufactured problem's
# edges at 0), whose rates are rounding and balance no better.
if expect_status 0 "$HEATSIM" -q --steady -g 200 -L 1x1e-5; then
  [ -s "$workdir/err" ] && fail "a steady state of no heat warns: \
$(cat "$workdir/err")"
fi
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $fin --steady -g 3000x40; then
  cycles=$(json_field cycles "$workdir/out")
  [ "$cycles" -le 8 ] || fail "fin of 3000 x 40 cells: $cycles iterations"
  line_check 3000 "fin of 3000 x 40 cells"
fi
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $fin --scheme backward-euler \
    --dt 100 -T 1000; then
  cycles=$(json_field cycles_per_step_max "$workdir/out")
  [ "$cycles" -le 5 ] || fail "fin, implicit: $cycles iterations a step"
  line_check 300 "fin, implicit"
fi
# Jacobi sweeps of a fin: the 5-point stencil, and its residual.
# shellcheck disable=SC2086
if expect_status 4 "$HEATSIM" $fin --steady --solver jacobi --max-steps 5
then
  grep -q 'residual: l2 norm over the interior of the 5-point Laplacian' \
    "$workdir/out" || fail "fin, Jacobi: not the 5-point residual"
fi
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" $fin --scheme backward-euler --dt 100 -T 200
then
  grep -q 'multigrid     PCG iterations per step' "$workdir/out" \
    || fail "fin, implicit: the report does not count PCG iterations"
fi
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" $fin --steady -g 2000x200 --length 1x5e-3; then
  grep -q 'steady state by multigrid, 5-point stencil' "$workdir/out" \
    || fail "a fin 200 times longer than wide: not the geometric multigrid"
fi
# Nor does a long domain with fixed faces (its short side's last nodes
# held by the edges), nor an implicit step whose capacity term holds
# the fin's short side together (alpha dt 1e-7 against 1e-6 squared).
if expect_status 0 "$HEATSIM" -g 300x10 --length 1x1e-4 --steady \
    --edges 20,30,25,25; then
  grep -q 'steady state by multigrid, 5-point stencil' "$workdir/out" \
    || fail "fixed faces: not the geometric multigrid"
fi
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" $fin --scheme backward-euler --dt 1e-6 \
    --steps 2; then
  grep -q 'backward Euler 5-point stencil, multigrid' "$workdir/out" \
    || fail "a short implicit step: not the geometric multigrid"
fi
if expect_status 4 "$HEATSIM" -q -g 300x10 --length 1x1e-3 --steady \
    --bc left=temperature:20 --bc right=temperature:30 \
    --bc bottom=periodic --bc top=periodic; then
  grep -q 'after --max-steps 100 V-cycles (cells far from square across a periodic axis' \
    "$workdir/err" || fail "a ring across: no hint: $(cat "$workdir/err")"
fi
# Nor does the geometric multigrid of a uniform material without a
# source where it does coarsen the short side's axis to square cells
# (fixed ends on it).
if expect_status 4 "$HEATSIM" -q -g 256x128 --length 0.1x0.001 --steady \
    --max-steps 3; then
  grep -q 'cells far from square' "$workdir/err" \
    && fail "geometric multigrid: the stretched cells' hint"
fi

if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  # Square cells, and cells of dx/dy about 20 (column lines).
  for length in 2x1.5 30x1.3; do
    for args in "--steady --rtol 1e-12" "-b neumann --scheme backward-euler --dt 1e-3 -n 3"; do
      want=
      for n in 1 2 3 4; do
        # shellcheck disable=SC2086
        if "$MPIEXEC" -np $n "$HEATSIM" -q --json --material-map random.h5 \
            --source-map source.h5 --length $length $args >"$workdir/out" \
            2>"$workdir/err"; then
          got=$(json_field checksum "$workdir/out")
          [ -n "$want" ] || want=$got
          [ "$got" = "$want" ] \
            || fail "$length $args: $n ranks differ from 1"
          pass
        else
          fail "$length $args: $n ranks failed: $(cat "$workdir/err")"
        fi
      done
    done
  done
  # A fin, which takes the black box multigrid: the same bits too.
  for args in "--steady" "--scheme crank-nicolson --dt 10 -n 2"; do
    want=
    for n in 1 2 3 4; do
      # shellcheck disable=SC2086
      if "$MPIEXEC" -np $n "$HEATSIM" -q --json $fin -g 3000x40 $args \
          >"$workdir/out" 2>"$workdir/err"; then
        got=$(json_field checksum "$workdir/out")
        [ -n "$want" ] || want=$got
        [ "$got" = "$want" ] || fail "fin $args: $n ranks differ from 1"
        pass
      else
        fail "fin $args: $n ranks failed: $(cat "$workdir/err")"
      fi
    done
  done
fi

finish
