#!/bin/sh
# The total heat of a field near the top of double's range: finite
# wherever the true total is (the sum over the nodes overflowed to
# infinity, reported null, although every node and the total were
# finite), null where the total itself exceeds DBL_MAX.  The field's
# mean over the area, a sum over the nodes too, is finite always (it is
# no larger than the largest node); so is the sources' power wherever it
# is below DBL_MAX.
#
# A field 2^K times another has 2^K times its total heat, bit for bit:
# scaling by a power of two commutes with rounding, in the steps of a
# uniform field and in the sum alike.  So a run at 2^1020 (or 2^1000
# with a material map of rho c_p up to 1.6e6) must report exactly 2^K
# times the total of the same run at 1, which never comes near
# overflow.
. "${srcdir:-.}/tests/testlib.sh"

# times2 H K: H * 2^K, as heatsim prints it (%.17g).
times2 () {
  awk -v h="$1" -v k="$2" 'BEGIN { printf "%.17g", h * 2 ^ k }'
}

# scaled WHAT K ARGS...: the runs of ARGS at --initial-temperature 1
# and 2^K (and -1 and -2^K): heat_initial, heat and mean 2^K times the
# first's, in the report and in the monitor's total_heat column.
scaled () {
  _what=$1 _k=$2
  shift 2
  for _sign in "" -; do
    _big=$(times2 "${_sign}1" "$_k")
    rm -f one.csv big.csv
    expect_status 0 "$HEATSIM" -q --json -p uniform \
      --initial-temperature "${_sign}1" --monitor one.csv --monitor-every 1 \
      "$@" || continue
    _h0=$(json_field heat_initial "$workdir/out")
    _h=$(json_field heat "$workdir/out")
    _mean=$(json_field mean "$workdir/out")
    expect_status 0 "$HEATSIM" -q --json -p uniform \
      --initial-temperature "$_big" --monitor big.csv --monitor-every 1 \
      "$@" || continue
    [ "$(json_field heat_initial "$workdir/out")" = "$(times2 "$_h0" "$_k")" ] \
      || fail "$_what at ${_sign}2^$_k: heat_initial $(json_field heat_initial "$workdir/out"), expected $(times2 "$_h0" "$_k")"
    [ "$(json_field heat "$workdir/out")" = "$(times2 "$_h" "$_k")" ] \
      || fail "$_what at ${_sign}2^$_k: heat $(json_field heat "$workdir/out"), expected $(times2 "$_h" "$_k")"
    [ "$(json_field mean "$workdir/out")" = "$(times2 "$_mean" "$_k")" ] \
      || fail "$_what at ${_sign}2^$_k: mean $(json_field mean "$workdir/out"), expected $(times2 "$_mean" "$_k")"
    cut -d, -f3 one.csv | sed 1d >one.heat
    cut -d, -f3 big.csv | sed 1d >big.heat
    while read -r _one; do times2 "$_one" "$_k"; echo; done <one.heat \
      >want.heat
    cmp -s want.heat big.heat \
      || fail "$_what at ${_sign}2^$_k: monitor total_heat $(tr '\n' ' ' <big.heat), expected $(tr '\n' ' ' <want.heat)"
    checks=$((checks + 4))
  done
}

# 100^2 nodes of 2^1020 (1.1e307) sum to 1.1e311, beyond DBL_MAX; times
# dx dy = 1/101^2 the total is 1.1e307.
scaled "uniform field" 1020 -g 100 -L 1 -n 2 --dt 1e-5
# With a uniform rho c_p of 10: 1.1e308, still below DBL_MAX (1.8e308).
scaled "rho c_p 10" 1020 -g 100 -L 1 -n 2 --dt 1e-5 --conductivity 1 \
  --density 10 --heat-capacity 1
# A map's rho c_p (brick: 1.6e6) times 2^1000 (1.1e301) overflows in
# each node's term; the total over 0.4 x 8 m is about 5e306.
scaled "material map" 1000 --material-map "$srcdir/data/wall.png" \
  --material '#b22222=brick' --material '#ffd700=k=0.04,rho=30,cp=840' \
  -L 0.4x8 -n 2 --dt 1e-3
# Insulated edges: edge nodes of half and quarter volume.
scaled "insulated edges" 1020 -g 30x20 -L 1 -b neumann -n 2 --dt 1e-5

# The sources' power, a sum over the nodes too: q = 2^1023 (9e307) on
# 16^2 nodes sums to 2.3e310, times dx dy the power is 8e307, exactly
# 2^1023 times that of q = 1; insulated edges too (edge nodes' shares).
for _edges in dirichlet neumann; do
  expect_status 0 "$HEATSIM" -q --json -g 16 -L 1 -b "$_edges" --source 1 \
    --conductivity 1 --density 1 --heat-capacity 1 -n 1 --dt 1e-12 \
    || continue
  _p=$(json_field source_power "$workdir/out")
  expect_status 0 "$HEATSIM" -q --json -g 16 -L 1 -b "$_edges" \
    --source "$(times2 1 1023)" --conductivity 1 --density 1 \
    --heat-capacity 1 -n 1 --dt 1e-12 || continue
  [ "$(json_field source_power "$workdir/out")" = "$(times2 "$_p" 1023)" ] \
    || fail "q = 2^1023, $_edges edges: source_power $(json_field source_power "$workdir/out"), expected $(times2 "$_p" 1023)"
  checks=$((checks + 1))
done

# A total that exceeds DBL_MAX is infinite: null in the report, an
# empty field in the monitor, "overflow" in the text report.
rm -f over.csv
if expect_status 0 "$HEATSIM" -q --json -p uniform \
     --initial-temperature 1e307 -g 100 -L 10 -n 1 --dt 1e-3 \
     --monitor over.csv; then
  [ "$(json_field heat "$workdir/out")" = null ] \
    || fail "total beyond DBL_MAX: heat $(json_field heat "$workdir/out"), expected null"
  [ -z "$(tail -n 1 over.csv | cut -d, -f3)" ] \
    || fail "total beyond DBL_MAX: monitor total_heat $(tail -n 1 over.csv | cut -d, -f3)"
fi
if expect_status 0 "$HEATSIM" -q -p uniform --initial-temperature 1e307 \
     -g 100 -L 10 -n 1 --dt 1e-3; then
  grep -q '^  total heat    overflow (initially overflow)$' "$workdir/out" \
    || fail "total beyond DBL_MAX: $(grep 'total heat' "$workdir/out")"
fi
# A source near DBL_MAX: the field stays finite (5e307), its total, the
# heat rates, the power and their balance do not.  The text says
# "overflow" for each (the JSON's null); INF - INF printed "-NAN".
if expect_status 0 "$HEATSIM" --source 1e308 -g 8 -n 2; then
  ! grep -q 'INF\|NAN' "$workdir/out" \
    || fail "source 1e308: $(grep 'INF\|NAN' "$workdir/out")"
  for line in '  total heat    overflow (initially 0.000000000000000E+00)' \
      '  heat balance  overflow (net rate + source power - face cooling; 0 at a steady state)' \
      '  source power  overflow'; do
    checks=$((checks + 1))
    grep -qxF "$line" "$workdir/out" \
      || fail "source 1e308: no line '$line': $(cat "$workdir/out")"
  done
fi
finish
