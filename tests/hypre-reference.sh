#!/bin/sh
# hypre as an independent reference for the variable-coefficient steady
# state (issue 23): on 150 random disks of conductivity 1e4 in a matrix of
# 1 (bench/contrast_maps disks 63 1e4), zero Dirichlet edges and a uniform
# source, heatsim's steady field equals the solution that hypre's
# SMG-preconditioned CG finds for the documented discretisation (built
# from DESIGN.md in bench/hypre_bench.c, nothing of heatsim's) to 1e-8 of
# its largest value, on a square and a non-square domain, and differs by
# more from the solution for the contrast-2e4 map (the comparison sees a
# wrong conductivity).  Explicit steps run to the steady state end within
# 1e-10 of hypre's solution.  bench/contrast tabulates small maps with
# both.  Skipped where configure found no hypre (no bench/hypre_bench) or
# heatsim has no --material-map.
. "${srcdir:-.}/tests/testlib.sh"

if [ -z "${HYPRE_BENCH:-}" ] || [ ! -x "$HYPRE_BENCH" ]; then
  echo "SKIP: no bench/hypre_bench (configure found no hypre)"
  exit 77
fi
if ! "$HEATSIM" --help | grep -q -e '--material-map'; then
  echo "SKIP: heatsim has no --material-map"
  exit 77
fi
# hypre_bench is a single-rank Open MPI program: its runtime's own
# allocations are no concern of this test's.
if [ -n "${HEATSIM_SANITIZED:-}" ]; then
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  export ASAN_OPTIONS
fi

n=63
expect_status 0 "$CONTRAST_MAPS" disks "$n" 1e4 disks.h5 || exit 1
expect_status 0 "$CONTRAST_MAPS" disks "$n" 2e4 wrong.h5 || exit 1

# steady_field LENGTH: heatsim's steady state of disks.h5 on LENGTH into
# field.h5.
steady_field () {
  rm -rf run field.h5
  mkdir run
  expect_status 0 "$HEATSIM" -q --json --steady --material-map disks.h5 \
    --density 1 --heat-capacity 1 \
    --source 1 -b dirichlet --edges 0,0,0,0 -g "$n" -L "$1" \
    --output-dir run --checkpoint-every 1000000 \
    --checkpoint-name 'T-%d.h5' || return 1
  [ "$(json_field status "$workdir/out")" = ok ] \
    || { fail "-L $1: status $(json_field status "$workdir/out")"; return 1; }
  last=$(ls run | sed -n 's/^T-\([0-9]*\)\.h5$/\1/p' | sort -n | tail -n 1)
  [ -n "$last" ] && [ "$last" != 0 ] \
    || { fail "-L $1: no final checkpoint in $(ls run)"; return 1; }
  mv "run/T-$last.h5" field.h5
}

# difference MAP LENGTH: d = max |T - T_heatsim| / max |T|, T hypre's
# SMG-CG solution of MAP on LENGTH to a relative residual of 1e-12,
# T_heatsim field.h5's; empty when hypre_bench failed.
difference () {
  d=
  expect_status 0 "$HYPRE_BENCH" -s smg-cg -t 1e-12 -L "$2" -q 1 \
    -c field.h5 "$1" || return
  d=$(sed -n 's/^# max relative difference \([^ ]*\) from.*/\1/p' \
    "$workdir/out")
  [ -n "$d" ] \
    || fail "hypre_bench -c printed no difference: $(cat "$workdir/out")"
}

for length in 1000 2x1; do
  steady_field "$length" || continue
  difference disks.h5 "$length"
  [ -n "$d" ] && { awk -v d="$d" 'BEGIN { exit !(d <= 1e-8) }' \
    || fail "-L $length: heatsim differs from hypre by $d (> 1e-8)"; }
  difference wrong.h5 "$length"
  [ -n "$d" ] && { awk -v d="$d" 'BEGIN { exit !(d > 1e-8) }' \
    || fail "-L $length: the contrast 2e4 map's solution differs by only $d"; }
done

# Explicit steps reach the same steady state: 31x31 disks at contrast 10
# on a 2x1 domain (dx = 2 dy), for 3.5 time units, 43 e-foldings of the
# slowest mode (rate pi^2 k_min (1/2^2 + 1/1^2), rho c_p = 1), within
# 1e-10 of hypre's solution.
expect_status 0 "$CONTRAST_MAPS" disks 31 10 small.h5 || exit 1
rm -rf run field.h5
mkdir run
if expect_status 0 "$HEATSIM" -q --json --material-map small.h5 \
    --density 1 --heat-capacity 1 --source 1 -b dirichlet \
    --edges 0,0,0,0 -g 31 -L 2x1 -n auto -T 3.5 --output-dir run \
    --checkpoint-every 1000000000 --checkpoint-name 'T-%d.h5'; then
  last=$(ls run | sed -n 's/^T-\([0-9]*\)\.h5$/\1/p' | sort -n | tail -n 1)
  if [ -n "$last" ] && [ "$last" != 0 ]; then
    mv "run/T-$last.h5" field.h5
    difference small.h5 2x1
    [ -n "$d" ] && { awk -v d="$d" 'BEGIN { exit !(d <= 1e-10) }' \
      || fail "explicit steps end $d (> 1e-10) from hypre's steady state"; }
  else
    fail "explicit run: no final checkpoint in $(ls run)"
  fi
fi

# bench/contrast on small maps: per case one heatsim row, ok and within
# 1e-8 of hypre's SMG-CG, and converged SMG-CG and PFMG-CG rows.
HYPRE_BENCH=$HYPRE_BENCH CONTRAST_SIZES=31 CONTRAST_KINDS="layered disks" \
  CONTRAST_VALUES=1e2 \
  expect_status 0 "$srcdir/bench/contrast" "$HEATSIM" "$CONTRAST_MAPS"
awk -F ' [|] ' '
  $4 == "heatsim" { h++; d = $9; sub(/ [|]$/, "", d)
    if ($8 != "ok" || d !~ /^[0-9.]+e[-+][0-9]+$/ || d + 0 > 1e-8) bad = 1 }
  $4 ~ /^hypre / { p++; if ($8 != "converged") bad = 1 }
  END { exit bad || h != 2 || p != 4 }' "$workdir/out" \
  || fail "bench/contrast: $(cat "$workdir/out")"

finish
