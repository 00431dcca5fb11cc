#!/bin/sh
# Zero-flux and periodic edges act at the domain's edge, at second order
# (issue 24): the decaying modes
#   u = cos(pi x) exp(-pi^2 t)        insulated x edges (nodes on them),
#   u = sin(2 pi x) exp(-4 pi^2 t)    periodic x (nx nodes per period),
# uniform in y (insulated, resp. periodic, y edges), and
#   u = cos(pi x) cos(pi y) exp(-2 pi^2 t)   on an insulated square
# (edge nodes owning half a box, corners a quarter), L = 1, alpha = 1,
# started from the exact mode at the nodes' positions (x_i = (i - 1) / (nx
# - 1), resp. (i - 1) / nx) and compared with it at the end: the largest
# error falls four-fold per halving of dx (32, 64, 128 intervals; observed
# order >= 1.9) and stays small in absolute terms, with Crank-Nicolson at
# dt halved with dx, explicit and backward Euler steps at dt ~ dx^2; the
# same with a uniform SI material (--conductivity, --density,
# --heat-capacity: k / (rho c_p) = 1) and with a variable one (1-D modes:
# layers along y of k = rho c_p = 1 and 4; the square: a zero --source,
# which runs the same kernels): the operator of materials, its explicit
# kernel and the black box multigrid.  A grid of one node between two
# such edges is refused.  Before the fix the edge acted half a cell
# inside the domain and the period was L nx / (nx + 1): orders near 1.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

cat >"$workdir/tool.py" <<'EOF'
"""Fixtures and errors of tests/edge-order.sh (numpy, h5py)."""
import sys
import h5py, numpy

def positions (kind, n):
    """x of nodes 0 .. n + 1 on [0, 1]: with insulated edges nodes 1 and
    n lie on them (n - 1 intervals); a periodic axis has n nodes per
    period, node 1 at 0."""
    h = 1.0 / (n - 1) if kind == 'cos' else 1.0 / n
    return (numpy.arange (n + 2) - 1.0) * h

def mode (kind, x, t):
    if kind == 'cos':
        return numpy.cos (numpy.pi * x) * numpy.exp (-numpy.pi ** 2 * t)
    return numpy.sin (2 * numpy.pi * x) * numpy.exp (-4 * numpy.pi ** 2 * t)

def field (kind, n, ny, t):
    """The mode on n x ny nodes, halo ring included (rows along y)."""
    if kind != 'square':
        return numpy.tile (mode (kind, positions (kind, n), t), (ny + 2, 1))
    profile = mode ('cos', positions ('cos', n), t)
    return profile[:, None] * profile[None, :]

def write_init (kind, n, ny, out):
    with h5py.File (out, 'w') as f:
        f['field'] = field (kind, n, ny, 0.0)

def write_map (n, ny, out):
    """Rows of k = rho c_p = 1 and 4 in turn: diffusivity 1 everywhere."""
    k = numpy.array ([[1.0 + 3.0 * (j % 2)] * n for j in range (ny)])
    with h5py.File (out, 'w') as f:
        f['conductivity'] = k
        f['volumetric_heat_capacity'] = k

def cmd_fixtures (workdir, *intervals):
    """Every initial field and map of the runs, in one process (each
    python start costs more than a run)."""
    for m in map (int, intervals):
        write_init ('cos', m + 1, 3, '%s/init-cos-%d.h5' % (workdir, m + 1))
        write_init ('sin', m, 4, '%s/init-sin-%d.h5' % (workdir, m))
        write_init ('square', m + 1, m + 1,
                    '%s/init-square-%d.h5' % (workdir, m + 1))
        write_map (m + 1, 3, '%s/map-%d-3.h5' % (workdir, m + 1))
        write_map (m, 4, '%s/map-%d-4.h5' % (workdir, m))

def cmd_errors (kind, t, *paths):
    """Largest difference of each checkpoint's field from the mode."""
    for path in paths:
        u = numpy.array (h5py.File (path, 'r')['field'])
        ny, n = u.shape
        exact = field (kind, n, ny, float (t))[1:ny + 1, 1:n + 1]
        print ('%.6e' % numpy.max (numpy.abs (u - exact)))

globals ()['cmd_' + sys.argv[1]] (*sys.argv[2:])
EOF
tool () { "$PY" "$workdir/tool.py" "$@"; }

# Under the sanitizers, which find memory errors at any size and run
# five times slower, a coarser ladder: the orders hold from 16
# intervals, and the absolute bound scales with dx^2.
intervals="32 64 128" bound=1e-3
[ -z "${HEATSIM_SANITIZED:-}" ] || intervals="16 32 64" bound=4e-3
end_time () { case $1 in cos) echo 0.1 ;; sin) echo 0.025 ;; *) echo 0.05 ;; esac; }
tool fixtures "$workdir" $intervals || fail "cannot write the fixtures"

# run KIND MATERIAL SCHEME INTERVALS: run to the end time; print the
# checkpoint's path.
# cos: nx = intervals + 1 nodes, 3 rows (2 intervals) of insulated y;
# sin: nx = intervals nodes, 4 rows of periodic y; square: both axes as
# cos's x.
run () {
  kind=$1 material=$2 scheme=$3 m=$4
  case $kind in
    cos) n=$((m + 1)) ny=3 b=neumann r=0.4 ;;
    sin) n=$m ny=4 b=periodic r=0.4 ;;
    *) n=$((m + 1)) ny=$((m + 1)) b=neumann r=0.2 ;;
  esac
  t=$(end_time $kind)
  # dt: Crank-Nicolson's halves with dx (16 t / m); explicit and backward
  # Euler steps are first order in time: dt = r dx^2 (r = 0.4, or 0.2 on
  # the square, within the stability limit) and 0.8 dx^2.
  case $scheme in
    crank-nicolson) steps=$((m / 2)) ;;
    explicit) steps=$(awk -v m=$m -v t=$t -v r=$r \
                        'BEGIN { print m * m * t / r }') ;;
    *) steps=$(awk -v m=$m -v t=$t 'BEGIN { print m * m * t / 0.8 }') ;;
  esac
  init="$workdir/init-$kind-$n.h5"
  set -- --alpha 1
  case $material in
    si) set -- --conductivity 2 --density 1 --heat-capacity 2 ;;
    layers)
      set -- --material-map "$workdir/map-$n-$ny.h5" ;;
    zero-source) set -- --alpha 1 --source 0 ;;
  esac
  name="$kind-$material-$scheme-$m"
  # Host threads: the order is the discretisation's, and the placements
  # are bitwise alike (strategies-agree.sh, edge-explicit.sh); thousands
  # of tiny steps as target regions would cost minutes in an offload build.
  expect_status 0 "$HEATSIM" -q -o host --init "$init" -p file -b $b -L 1 \
    "$@" -T $t -n $steps --scheme $scheme \
    --checkpoint-every $steps --checkpoint-name "$name-%d.h5" \
    --output-dir "$workdir" || return 1
  echo "$workdir/$name-$steps.h5"
}

for kind in cos sin square; do
  case $kind in
    square) materials="none si zero-source" ;;
    *) materials="none si layers" ;;
  esac
  for material in $materials; do
    for scheme in crank-nicolson explicit backward-euler; do
      paths=
      for m in $intervals; do
        paths="$paths $(run $kind $material $scheme $m)"
      done
      set -- $paths
      errors=
      [ $# -ne 3 ] || errors=$(tool errors $kind "$(end_time $kind)" "$@")
      set -- $errors
      echo "$kind $material $scheme: largest errors at $intervals intervals: $*"
      if [ $# -ne 3 ]; then
        fail "$kind $material $scheme: a run failed"
        continue
      fi
      awk -v a="$1" -v b="$2" -v c="$3" -v bound=$bound 'BEGIN {
        p = log (a / b) / log (2); q = log (b / c) / log (2);
        printf "  orders %.3f %.3f\n", p, q
        exit !(p >= 1.9 && q >= 1.9 && c <= bound) }' \
        && pass || fail "$kind $material $scheme: not second order ($*)"
    done
  done
done

# An axis with no interval between two edges of edge nodes is refused.
refused "--grid: 1 node along x cannot have nodes on both edges" \
  -g 1x5 -b neumann -n 1
refused "--grid: 1 node along y cannot have nodes on both edges (bottom insulated, top flux)" \
  -g 5x1 -b neumann --bc top=flux:2 -n 1
finish
