#!/bin/sh
# Explicit steps of a variable material (issue 23), against what is exact
# with heatsim's boundaries: a layered wall (contrast 1e4, interface on a
# face) started from its exact piecewise-linear steady state stays there
# to round-off; with zero-flux edges and sources the total heat grows by
# the sources' power times the time to 1e-10, and with fixed edges one
# step changes it by dt times the heat rates plus the power (1e-9); a
# manufactured solution with smooth variable k and a source map
# converges at second order in space; host, map and resident (each
# kernel form) agree bitwise, and so do 1 to 4 MPI ranks in an MPI
# build and a restart; steady Jacobi sweeps of a variable material are refused.  Maps,
# initial fields and sources are HDF5 files made by h5import from
# numbers python3 writes with 17 digits; fields are read back from
# checkpoints by h5dump.
. "${srcdir:-.}/tests/testlib.sh"

py=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1; then
    py=$p
    break
  fi
done
if [ -z "$py" ] || ! command -v h5import >/dev/null 2>&1 \
    || [ -z "${H5DUMP:-}" ]; then
  echo "python3, h5import or h5dump missing: nothing to test"
  exit 77
fi

cat >"$workdir/tool.py" <<'EOF'
"""Fixtures and checks of tests/materials-explicit.sh (python3, no
modules beyond the standard library).  HDF5 through h5import and h5dump.
"""
import math, os, random, re, subprocess, sys

def h5 (path, sets):
    """Datasets name -> rows (lists of floats) into a new HDF5 file."""
    args = ['h5import']
    for name, rows in sets.items ():
        txt = path + '.' + name + '.txt'
        with open (txt, 'w') as f:
            for r in rows:
                f.write (' '.join ('%.17g' % v for v in r) + '\n')
        with open (txt + '.conf', 'w') as f:
            f.write ('PATH %s\nINPUT-CLASS TEXTFP\nINPUT-SIZE 64\nRANK 2\n'
                     'DIMENSION-SIZES %d %d\nOUTPUT-CLASS FP\nOUTPUT-SIZE 64\n'
                     'OUTPUT-ARCHITECTURE IEEE\nOUTPUT-BYTE-ORDER LE\n'
                     % (name, len (rows), len (rows[0])))
        args += [txt, '-c', txt + '.conf']
    subprocess.run (args + ['-o', path], check=True)

def field (path):
    """The /field of a checkpoint as rows, bottom row first."""
    out = subprocess.run ([os.environ['H5DUMP'], '-d', '/field', '-m',
                           '%.17g', '-y', '-w', '0', path], check=True,
                          capture_output=True, text=True).stdout
    dims = re.search (r'DATASPACE\s+SIMPLE\s+\{\s*\(\s*(\d+),\s*(\d+)\s*\)',
                      out)
    ny, nx = int (dims.group (1)), int (dims.group (2))
    data = out[out.index ('DATA {') + 6:]
    data = data[:data.index ('}')]
    v = [float (t) for t in data.replace (',', ' ').split ()]
    assert len (v) == nx * ny, (len (v), nx, ny)
    return [v[j * nx:(j + 1) * nx] for j in range (ny)]

def wall (nx, ny, m, k1, k2):
    """Layers of k1 (nodes 1..m) and k2 (m+1..nx), interface on the face
    between them, left edge 1, right edge 0: the exact profile at the
    nodes (the edge nodes take their neighbours' k).  Lx = 1."""
    dx = 1.0 / (nx + 1)
    r = (m * dx / k1 + 0.5 * dx * (1 / k1 + 1 / k2) + (nx - m) * dx / k2)
    flux = 1.0 / r
    t = [1.0 - flux * i * dx / k1 if i <= m
         else flux * (nx + 1 - i) * dx / k2 for i in range (nx + 2)]
    t[0], t[nx + 1] = 1.0, 0.0
    return t

def cmd_wall (nx, ny, m, k1, k2, out):
    """wall.h5 (the map) and init.h5 (the exact profile, ring included)."""
    nx, ny, m, k1, k2 = int (nx), int (ny), int (m), float (k1), float (k2)
    t = wall (nx, ny, m, k1, k2)
    k = [[k1 if i <= m else k2 for i in range (1, nx + 1)]
         for _ in range (ny)]
    c = [[1e6] * nx for _ in range (ny)]
    h5 (os.path.join (out, 'wall.h5'),
        {'conductivity': k, 'volumetric_heat_capacity': c})
    h5 (os.path.join (out, 'init.h5'), {'field': [t] * (ny + 2)})

def cmd_wall_check (nx, ny, m, k1, k2, path, tol):
    nx, ny, m = int (nx), int (ny), int (m)
    t = wall (nx, ny, m, float (k1), float (k2))
    u = field (path)
    err = max (abs (u[j][i] - t[i + 1]) for j in range (ny)
               for i in range (nx))
    print ('layered wall: largest distance from the exact profile %.3g'
           % err)
    sys.exit (0 if err <= float (tol) else 1)

def cmd_random (nx, ny, seed, out):
    """A random material (k and rho c_p over four and two decades) and a
    random source map of one sign; prints the sources' sum, and their sum
    over zero-flux edges, whose nodes own half a box (a quarter at a
    corner)."""
    nx, ny = int (nx), int (ny)
    g = random.Random (int (seed))
    k = [[10 ** g.uniform (-1, 3) for _ in range (nx)] for _ in range (ny)]
    c = [[10 ** g.uniform (5, 7) for _ in range (nx)] for _ in range (ny)]
    q = [[g.uniform (1e5, 1e6) for _ in range (nx)] for _ in range (ny)]
    h5 (os.path.join (out, 'random.h5'),
        {'conductivity': k, 'volumetric_heat_capacity': c})
    h5 (os.path.join (out, 'source.h5'), {'source': q})
    share = lambda k, n: 0.5 if k in (0, n - 1) else 1.0
    print ('%.17g %.17g' % (math.fsum (v for r in q for v in r),
                            math.fsum (v * share (i, nx) * share (j, ny)
                                       for j, r in enumerate (q)
                                       for i, v in enumerate (r))))

# The manufactured solution on (0,1)^2: u = sin(pi x) sin(pi y), zero on
# the edges, steady; k = 1 + x y + 0.5 sin(2 x + y) (smooth, >= 0.5);
# rho c_p = 1; q = -div (k grad u).
def mms_u (x, y):
    return math.sin (math.pi * x) * math.sin (math.pi * y)

def mms_q (x, y):
    p = math.pi
    k = 1 + x * y + 0.5 * math.sin (2 * x + y)
    kx = y + math.cos (2 * x + y)
    ky = x + 0.5 * math.cos (2 * x + y)
    ux = p * math.cos (p * x) * math.sin (p * y)
    uy = p * math.sin (p * x) * math.cos (p * y)
    return -(kx * ux + ky * uy - 2 * p * p * k * mms_u (x, y))

def cmd_mms (n, out):
    n = int (n)
    h = 1.0 / (n + 1)
    nodes = range (1, n + 1)
    k = [[1 + i * h * j * h + 0.5 * math.sin (2 * i * h + j * h)
          for i in nodes] for j in nodes]
    c = [[1.0] * n for _ in nodes]
    q = [[mms_q (i * h, j * h) for i in nodes] for j in nodes]
    u = [[mms_u (i * h, j * h) for i in range (n + 2)] for j in range (n + 2)]
    h5 (os.path.join (out, 'mms-map-%d.h5' % n),
        {'conductivity': k, 'volumetric_heat_capacity': c})
    h5 (os.path.join (out, 'mms-source-%d.h5' % n), {'source': q})
    h5 (os.path.join (out, 'mms-init-%d.h5' % n), {'field': u})

def cmd_mms_error (n, path):
    n = int (n)
    h = 1.0 / (n + 1)
    u = field (path)
    print ('%.17g' % max (abs (u[j - 1][i - 1] - mms_u (i * h, j * h))
                          for j in range (1, n + 1)
                          for i in range (1, n + 1)))

globals ()['cmd_' + sys.argv[1].replace ('-', '_')] (*sys.argv[2:])
EOF
tool () {
  "$py" "$workdir/tool.py" "$@"
}
mkdir "$workdir/ck"

# ---- (a) the layered wall: k 1 and 1e4, rho c_p 1e6, the interface on
# the face between nodes 20 and 21 of 39.  The exact profile is the
# discrete steady state of the harmonic-mean faces: 2000 steps at the
# stability limit leave it to round-off, on every strategy.  An
# arithmetic mean at the interface would move it by 1e-3 in one step.
tool wall 39 6 20 1 1e4 "$workdir" || fail "wall fixtures"
wall_run () {
  expect_status 0 "$HEATSIM" -q --json --init "$workdir/init.h5" -p file \
    --material-map "$workdir/wall.h5" -L 1x0.175 -n 2000 \
    --dt 0.015 --checkpoint-every 2000 \
    --checkpoint-name "wall-$1-%d.h5" --output-dir "$workdir/ck" -o "$@"
}
for s in host map resident; do
  if wall_run $s; then
    tool wall-check 39 6 20 1 1e4 "$workdir/ck/wall-$s-2000.h5" 1e-12 \
      || fail "layered wall ($s) left its exact profile"
  fi
done

# ---- (b) conservation: zero-flux edges, a random material and a random
# source map plus a uniform source; the total heat grows by the power
# times the time.  (dx dy = 1/39 * 1/29 with -L 1: the edges' nodes lie
# on them and own half a box, a quarter at the corners; 39 x 29 boxes in
# all.)
powers=$(tool random 40 30 7 "$workdir") || fail "random fixtures"
power=${powers% *} insulated_power=${powers#* }
expect_status 0 "$HEATSIM" -q --json -b neumann \
  --material-map "$workdir/random.h5" --source-map "$workdir/source.h5" \
  --source 2e5 --initial-temperature 1 -L 1 -T 300 -n auto -o host
cp "$workdir/out" "$workdir/conserve.json"
gain=$(awk -v a="$(json_field heat "$workdir/out")" \
  -v b="$(json_field heat_initial "$workdir/out")" \
  'BEGIN { printf "%.17g", a - b }')
want=$(awk -v q="$insulated_power" 'BEGIN { printf "%.17g",
  (q + 2e5 * 39 * 29) / 39 / 29 * 300 }')
echo "conservation: total heat gained $gain, sources gave $want"
close_to "$gain" "$want" 1e-10 || fail "heat gained $gain, not $want"
# The sources really moved heat: the field is not uniform.
[ "$(json_field min "$workdir/out")" != "$(json_field max "$workdir/out")" ] \
  || fail "conservation run: uniform field"
# Without the source map the gain is the uniform source's alone: the
# check above can tell a map that was not applied.
uniform=$(awk 'BEGIN { printf "%.17g", 2e5 * 300 }')
close_to "$gain" "$uniform" 1e-3 && fail "the source map added nothing"

# The heat rates through fixed edges close the balance: one more step
# changes the total heat by dt times the net rate of the field it
# started from plus dt times the sources' power.
plate="-p plate --material-map $workdir/random.h5
  --source-map $workdir/source.h5 --initial-temperature 1 -L 1 --dt 0.015"
if expect_status 0 "$HEATSIM" -q --json $plate -n 40 -o host; then
  before=$(json_field heat "$workdir/out")
  rate=$(json_field heat_rate_net "$workdir/out")
  if expect_status 0 "$HEATSIM" -q --json $plate -n 41 -o host; then
    step=$(awk -v a="$(json_field heat "$workdir/out")" -v b="$before" \
      'BEGIN { printf "%.17g", a - b }')
    want=$(awk -v r="$rate" -v q="$power" \
      'BEGIN { printf "%.17g", 0.015 * (r + q / 41 / 31) }')
    echo "heat balance: a step gained $step, rates and sources $want"
    close_to "$step" "$want" 1e-9 || fail "step gained $step, not $want"
    # The edges carry heat: the check above weighs them.
    awk -v r="$rate" -v w="$want" 'BEGIN { exit !(r * 0.015 > 1e-3 * w \
      || -r * 0.015 > 1e-3 * w) }' || fail "edges carry no heat: $rate"
  fi
fi

# ---- (c) manufactured solution: second order in space.  From the exact
# field, to t = 0.05 at the stability limit: the error is that of the
# discretisation, a quarter per halving of dx.
errors=
for n in 31 63 127; do
  tool mms $n "$workdir" || fail "mms fixtures $n"
  if expect_status 0 "$HEATSIM" -q --json --init "$workdir/mms-init-$n.h5" \
      -p file --material-map "$workdir/mms-map-$n.h5" \
      --source-map "$workdir/mms-source-$n.h5" -L 1 -T 0.05 -n auto \
      --checkpoint-every 1000000 --checkpoint-name "mms-$n-%d.h5" \
      --output-dir "$workdir/ck" -o host; then
    last=$(ls "$workdir/ck"/mms-$n-*.h5 | grep -v -e '-0\.h5$')
    errors="$errors $(tool mms-error $n "$last")"
  fi
done
echo "manufactured solution: largest errors at dx 1/32, 1/64, 1/128:$errors"
set -- $errors
if [ $# -eq 3 ]; then
  for pair in "$1 $2" "$2 $3"; do
    awk -v p="$pair" 'BEGIN { split (p, e, " ");
      r = log (e[1] / e[2]) / log (2);
      printf "order %.3f\n", r; exit !(r >= 1.8 && r <= 2.2) }' \
      || fail "not second order: $pair"
  done
  # Small, too: a wrong source or flux would converge to something else.
  awk -v e="$3" 'BEGIN { exit !(e < 1e-3) }' || fail "error $3 at 127^2"
else
  fail "manufactured solution: missing runs"
fi

# ---- (d) host, map and resident, each offload kernel form, bitwise
# equal (the same processor; in a host-plugin build on its device).
plugin=false
host_plugin && plugin=true
agree () {
  expect_status 0 "$HEATSIM" -q --json -o host "$@" || return
  want=$(json_field checksum "$workdir/out")
  for s in map resident "map --kernel split" "resident --kernel split"; do
    expect_status 0 "$HEATSIM" -q --json -o $s "$@" || continue
    [ "$(json_field checksum "$workdir/out")" = "$want" ] \
      || fail "$s differs from host ($*)"
    if $plugin && [ "$(json_field on_device "$workdir/out")" != true ]; then
      fail "$s: the host plugin's device was not used ($*)"
    fi
  done
}
# Odd and even step counts: a dump of the wrong buffer would show.
random_run="--material-map $workdir/random.h5 --source-map $workdir/source.h5
  -L 1 --dt 0.015 --initial-temperature 1"
agree $random_run -b neumann -n 201
agree $random_run -b periodic -n 200
agree $random_run -p plate --source 1e6 -n 101

# A restart from a checkpoint of a material run (which carries the
# material and the sources) continues it bitwise, on another strategy.
if expect_status 0 "$HEATSIM" -q --json $random_run -p plate -n 40 -o host
then
  want=$(json_field checksum "$workdir/out")
  expect_status 0 "$HEATSIM" -q $random_run -p plate -n 20 -o resident \
    --checkpoint-every 20 --output-dir "$workdir/rs" \
    && expect_status 0 "$HEATSIM" -q --json -o map \
         --restart "$workdir/rs/heatsim-000020.h5" -n 20 \
    && { [ "$(json_field checksum "$workdir/out")" = "$want" ] \
           || fail "restart differs from the unbroken run"; }
fi

# Jacobi sweeps have no variable operator: refused, not run without it.
refused "--solver jacobi: Jacobi sweeps take no source (--source)" \
  -p plate -s --solver jacobi --source 1 -g 20
# Nor a heat flux or convection edge (issue 24): the sweeps diverged
# (NaN) with convection and ran to --max-steps with an unbalanced flux.
refused "--solver jacobi: Jacobi sweeps take no convection edge (--bc left)" \
  -g 8 -s --solver jacobi --bc all=insulated --bc left=convection:1,5
refused "--solver jacobi: Jacobi sweeps take no heat flux edge (--bc left)" \
  -g 8 -s --solver jacobi --bc all=insulated --bc left=flux:1

# ---- (e) 1 to 4 MPI ranks give the same bits.
if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  ranks () {
    expect_status 0 "$MPIEXEC" -np 1 "$HEATSIM" -q --json "$@" || return
    want=$(json_field checksum "$workdir/out")
    for n in 2 3 4; do
      expect_status 0 "$MPIEXEC" -np $n "$HEATSIM" -q --json "$@" || continue
      [ "$(json_field checksum "$workdir/out")" = "$want" ] \
        || fail "$n ranks differ from 1 ($*)"
      [ "$(json_field ranks "$workdir/out")" = $n ] || fail "ranks ($*)"
    done
  }
  ranks $random_run -b neumann -n 51 -o host
  ranks $random_run -b periodic -n 50 -o resident
  ranks $random_run -p plate --source 1e6 -n 31 -o map --kernel split
else
  echo "heatsim built without MPI (or no mpiexec): ranks not compared"
fi
finish
