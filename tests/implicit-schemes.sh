#!/bin/sh
# --scheme backward-euler and crank-nicolson: time steps 10 to 300 times
# the explicit limit are taken without --force; against a reference of the
# same grid with 64 times smaller steps (so that the spatial error, which
# the two share, drops out) backward Euler's error halves with dt (order
# in [0.85, 1.15]) and Crank-Nicolson's quarters (order in [1.8, 2.2]) on
# the manufactured solution; zero-flux and periodic steps keep the total
# heat to 1e-12; a run restarted from its checkpoint halfway ends bitwise
# where an unbroken one ends.
. "${srcdir:-.}/tests/testlib.sh"

python_with h5py numpy

# mms on the unit square, alpha 0.1, to t = 0.5: the explicit limit is
# dt <= 0.5 / (0.1 * 2 * 64^2) = 6.1e-4; these steps are 0.1 to 0.00156.
run () {   # run SCHEME STEPS NAME
  expect_status 0 "$HEATSIM" -q --json --grid 63 --length 1 --alpha 0.1 \
    --end-time 0.5 --steps "$2" --scheme "$1" --checkpoint-every "$2" \
    --checkpoint-name "$3-%d.h5" --output-dir "$workdir" || return 1
  cp "$workdir/out" "$workdir/$3.json"
}
distance () {   # distance A.h5 B.h5: l2 norm of the difference of the fields
  "$PY" -c 'import sys, h5py, numpy
a, b = (numpy.array(h5py.File(p, "r")["field"]) for p in sys.argv[1:3])
print(numpy.sqrt(numpy.sum((a - b) ** 2)))' "$1" "$2"
}

run crank-nicolson 320 ref || exit 1
for scheme in backward-euler crank-nicolson; do
  case $scheme in
    backward-euler) lo=0.85 hi=1.15 ;;
    *) lo=1.8 hi=2.2 ;;
  esac
  prev=
  for n in 5 10 20; do
    run $scheme $n $scheme$n || continue
    stab=$(json_field stability "$workdir/$scheme$n.json")
    awk -v s="$stab" 'BEGIN { exit !(s >= 10 * 0.5) }' \
      || fail "$scheme $n steps: dt not far above the explicit limit ($stab)"
    grep -q '"cycles_per_step_max": [1-9]' "$workdir/$scheme$n.json" \
      || fail "$scheme: no V-cycles per step reported"
    e=$(distance "$workdir/$scheme$n-$n.h5" "$workdir/ref-320.h5")
    if [ -n "$prev" ]; then
      order=$(awk -v a="$prev" -v b="$e" 'BEGIN { printf "%.3f", log(a / b) / log(2) }')
      echo "$scheme: dt = 0.5/$n: error $e, order $order"
      awk -v p="$order" -v lo=$lo -v hi=$hi 'BEGIN { exit !(p >= lo && p <= hi) }' \
        || fail "$scheme: observed order $order at $n steps not in [$lo, $hi]"
    fi
    prev=$e
  done
done

# The total heat without Dirichlet edges.
for b in neumann periodic; do
  for scheme in backward-euler crank-nicolson; do
    expect_status 0 "$HEATSIM" -q --json --problem disk --boundary $b \
      --grid 61x37 --length 2x1 --end-time 1 --steps 10 --scheme $scheme \
      || continue
    close_to "$(json_field heat "$workdir/out")" \
      "$(json_field heat_initial "$workdir/out")" 1e-12 \
      || fail "$scheme --boundary $b: heat $(json_field heat "$workdir/out") \
from $(json_field heat_initial "$workdir/out")"
  done
done

# Restart halfway: the scheme comes from the checkpoint.
for scheme in backward-euler crank-nicolson; do
  expect_status 0 "$HEATSIM" -q --json --grid 40x30 --length 1 --alpha 1 \
    --end-time 0.08 --steps 8 --scheme $scheme
  full=$(json_field checksum "$workdir/out")
  expect_status 0 "$HEATSIM" -q --grid 40x30 --length 1 --alpha 1 \
    --end-time 0.04 --steps 4 --scheme $scheme --checkpoint-every 4 \
    --checkpoint-name "half-$scheme-%d.h5" --output-dir "$workdir"
  expect_status 0 "$HEATSIM" -q --json --steps 4 \
    --restart "$workdir/half-$scheme-4.h5"
  [ "$(json_field scheme "$workdir/out")" = $scheme ] \
    || fail "restart of a $scheme run ran $(json_field scheme "$workdir/out")"
  [ "$(json_field checksum "$workdir/out")" = "$full" ] \
    || fail "$scheme: 4 + restart 4 steps differ from 8 steps"
done
finish
