#!/bin/sh
# The black box multigrid (a source, a map, flux or convection edges)
# solves a field of any magnitude double holds: its sums of squares and
# dot products are taken of the field scaled by a power of two, so that
# a source of 1e-160 (or 1e160, or a uniform k of 1e170 or 1e-200, whose
# steady field is q / k) gives the field of a source of 1 scaled, where
# before the squares vanished (a field of zeros "converged" at once, no
# V-cycle run) or overflowed (status 5).  A hostile test pass found it.
. "${srcdir:-.}/tests/testlib.sh"

python_with numpy

# scaled NAME FACTOR ARGS...: heatsim ARGS converges, and its largest
# value and its initial residual norm are those of run $base times
# FACTOR, to 1e-10 relative (a power-of-two scaling is exact; the
# factors here are decimal, one rounding each).
scaled () {
  _name=$1 _factor=$2
  shift 2
  expect_status 0 "$HEATSIM" -q --json "$@" || return
  cp "$workdir/out" "$workdir/$_name.json"
  "$PY" - "$workdir/$base.json" "$workdir/$_name.json" "$_factor" <<'PYEOF' \
    || fail "$_name ($*): not run $base scaled by $_factor"
import json, sys
base, run = (json.load(open(p)) for p in sys.argv[1:3])
factor = float(sys.argv[3])
ok = run["converged"] is not False and run["cycles"] > 0
for key in ("max", "residual_norm_initial", "heat"):
    if base[key] is None:
        continue
    want = base[key] * factor
    got = run[key]
    good = got is not None and abs(got - want) <= 1e-10 * abs(want)
    print(f"{sys.argv[2]}: {key} {got} against {want}")
    ok = ok and good
sys.exit(not ok)
PYEOF
}

material="-g 8 -L 1 --conductivity 1 --density 1 --heat-capacity 1"
steady="--steady --bc left=temperature:0"

# ---- 1. Steady states: a source far from 1 either way.
base=steady1
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q --json $material --source 1 $steady \
  && cp "$workdir/out" "$workdir/$base.json"
for q in 1e-160 1e-300 1e160 1e300; do
  # shellcheck disable=SC2086
  scaled "steady$q" "$q" $material --source "$q" $steady
done

# ---- 2. A uniform k far from 1: the field is q / k (its heat alike;
# the residual's norm, of the heat's balance, does not change).
for k in 1e170 1e-200; do
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json -g 8 -L 1 --conductivity "$k" \
    --density 1 --heat-capacity 1 --source 1 $steady || continue
  "$PY" - "$workdir/$base.json" "$workdir/out" "$k" <<'PYEOF' \
    || fail "k $k: not the field of k 1 divided by $k"
import json, sys
base, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
k = float(sys.argv[3])
ok = run["cycles"] > 0
for key in ("max", "heat"):
    want = base[key] / k
    print(f"k {k}: {key} {run[key]} against {want}")
    ok = ok and abs(run[key] - want) <= 1e-10 * abs(want)
sys.exit(not ok)
PYEOF
done

# ---- 3. A map of two materials (no uniform k to divide out).
"$PY" "$srcdir/tests/gray_png.py" two.png 8 8 0 200 || exit 99
map="-L 1 --material-map $workdir/two.png --material 0=copper
     --material 200=fr4"
base=map1
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q --json $map --source 1 $steady \
  && cp "$workdir/out" "$workdir/$base.json"
for q in 1e-200 1e200; do
  # shellcheck disable=SC2086
  scaled "map$q" "$q" $map --source "$q" $steady
done

# ---- 4. Implicit steps: each step's solve alike.
for scheme in backward-euler crank-nicolson; do
  base=$scheme
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json $material --source 1 \
    --scheme $scheme -n 4 -T 0.01 \
    && cp "$workdir/out" "$workdir/$base.json"
  for q in 1e-170 1e170; do
    # shellcheck disable=SC2086
    scaled "$scheme$q" "$q" $material --source "$q" --scheme $scheme \
      -n 4 -T 0.01
  done
done


# ---- 5. Near the ends of double: a right-hand side whose largest value
# is subnormal (its scale 2^-e was infinite: status 5), and a floating
# problem (insulated, implicit) whose heat, the sum of f, overflowed
# before it was scaled (a review found both).
wide="-g 256x200 -L 1 --conductivity 1 --density 1 --heat-capacity 1"
base=wide1
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q --json $wide --source 1 $steady \
  && cp "$workdir/out" "$workdir/$base.json"
# shellcheck disable=SC2086
scaled wide1e-305 1e-305 $wide --source 1e-305 $steady
base=floating1
insulated="-g 64 -L 1 --conductivity 1 --density 1 --heat-capacity 1
           --bc all=insulated --scheme backward-euler -n 2 -T 0.01"
# shellcheck disable=SC2086
expect_status 0 "$HEATSIM" -q --json $insulated --source 1 \
  && cp "$workdir/out" "$workdir/$base.json"
# shellcheck disable=SC2086
scaled floating1e307 1e307 $insulated --source 1e307

# ---- 6. Every placement and rank count: the scaled solves of a map at
# 256 x 200 (six V-cycles, not the coarsest level's direct solve alone)
# give the checksum of --offload host on map and resident (on the host
# plugin's device in an x86_64 offload build) and on 2-4 ranks of an
# MPI build.
"$PY" "$srcdir/tests/gray_png.py" wide.png 256 200 0 200 || exit 99
map="-L 1 --material-map $workdir/wide.png --material 0=copper
     --material 200=fr4 $steady"
mpi=false
mpi_ready && mpi=true
for q in 1e200 1e-300; do
  # shellcheck disable=SC2086
  expect_status 0 "$HEATSIM" -q --json $map --source "$q" -o host || continue
  want=$(json_field checksum "$workdir/out")
  [ "$(json_field cycles "$workdir/out")" -gt 1 ] \
    || fail "source $q: $(json_field cycles "$workdir/out") cycles"
  for o in map resident; do
    # shellcheck disable=SC2086
    expect_status 0 "$HEATSIM" -q --json $map --source "$q" -o $o \
      && { [ "$(json_field checksum "$workdir/out")" = "$want" ] \
             || fail "source $q: -o $o differs from -o host"; }
  done
  $mpi || continue
  for n in 2 3 4; do
    # shellcheck disable=SC2086
    expect_status 0 env OMP_NUM_THREADS=1 "$MPIEXEC" -np $n "$HEATSIM" -q \
      --json $map --source "$q" \
      && { [ "$(json_field checksum "$workdir/out")" = "$want" ] \
             || fail "source $q: $n ranks differ from 1"; }
  done
done

finish
