#!/bin/sh
# Heat rates through the edges (issue 25: the steady report gives them):
# the plate's steady state against the rates of its exact bilinear field,
# worked by hand (the 5-point fluxes across each edge sum to closed
# forms); the heat balance at a steady state; an explicit step changes the
# total heat by dt times the net rate, as the scheme conserves it;
# zero-flux edges carry nothing and periodic ones cancel in pairs; a
# heat source's power closes the balance of a steady state.
. "${srcdir:-.}/tests/testlib.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: no jq"; exit 77; }

# key NAME: the JSON report's NAME from $workdir/out.
key () {
  jq -r ".$1" "$workdir/out"
}
# close A B TOL WHAT: |A - B| <= TOL (absolute).
close () {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
    exit !(d <= t) }' || fail "$4: $1, not $2 (within $3)"
  checks=$((checks + 1))
}

# The plate, u = 100 (x/Lx)(1 - y/Ly), nx x ny interior nodes, alpha a:
#   left  = -a 100/Lx dy ny/2          right = -left
#   bottom = a 100/(Lx Ly) dx^2 nx (nx+1)/2   top = -bottom
plate () {
  nx=$1 ny=$2 lx=$3 ly=$4 a=$5
  expect_status 0 "$HEATSIM" -q --json -p plate -s -g "${nx}x$ny" \
    -L "${lx}x$ly" -a "$a" || return
  awk -v nx="$nx" -v ny="$ny" -v lx="$lx" -v ly="$ly" -v a="$a" 'BEGIN {
    dx = lx / (nx + 1); dy = ly / (ny + 1);
    printf "%.17g %.17g\n", -a * 100 / lx * dy * ny / 2,
      a * 100 / (lx * ly) * dx * dx * nx * (nx + 1) / 2 }' >"$workdir/want"
  read -r left bottom <"$workdir/want"
  scale=$(awk -v l="$left" -v b="$bottom" 'BEGIN { l = l < 0 ? -l : l;
    b = b < 0 ? -b : b; printf "%.17g", (l > b ? l : b) * 1e-8 }')
  what="plate ${nx}x$ny, ${lx}x$ly, alpha $a"
  close "$(key heat_rate_left)" "$left" "$scale" "$what: left"
  close "$(key heat_rate_right)" "$(awk -v v="$left" 'BEGIN { printf "%.17g", -v }')" \
    "$scale" "$what: right"
  close "$(key heat_rate_bottom)" "$bottom" "$scale" "$what: bottom"
  close "$(key heat_rate_top)" "$(awk -v v="$bottom" 'BEGIN { printf "%.17g", -v }')" \
    "$scale" "$what: top"
  close "$(key heat_rate_net)" 0 "$scale" "$what: net (the heat balance)"
}
plate 31 15 1 1 1
plate 63 15 2 1 0.5
plate 40 27 3 0.7 2

# An explicit step: heat(2) - heat(1) = dt * net rate of the field after
# step 1 (the 5-point sums telescope to the edge terms).
mms='-p mms -g 40x30 -L 1x0.75 -a 1 --dt 1e-4'
expect_status 0 "$HEATSIM" -q --json $mms -n 1 && {
  h1=$(key heat)
  net=$(key heat_rate_net)
  expect_status 0 "$HEATSIM" -q --json $mms -n 2 && {
    h2=$(key heat)
    change=$(awk -v a="$h2" -v b="$h1" 'BEGIN { printf "%.17g", a - b }')
    want=$(awk -v n="$net" 'BEGIN { printf "%.17g", n * 1e-4 }')
    tol=$(awk -v w="$want" 'BEGIN { w = w < 0 ? -w : w; printf "%.17g", w * 1e-9 }')
    close "$change" "$want" "$tol" "explicit step: heat change against dt x net rate"
  }
}

# A source closes the balance: a steady die with a hot block, q = 1e9
# W/m^3 on the 13 x 13 nodes (x, y = 13 .. 25 dx, dx = 0.01/64) inside
# the rectangle; source_power is their q dx dy exactly, and heat_balance,
# the net rate through the edges plus it, is zero to the solver's
# tolerance at the steady state: the sum of the nodes' residuals times
# dx dy, at most sqrt(nodes) times the residual's norm times dx dy.  The
# initial residual is that of the edges' 300 K beside a field of 0
# (2.9e13): at --rtol 1e-10 the final one, 584, allows 9e-4 W, 2e-7 of
# the power (the geometric multigrid of this uniform material's source
# leaves 8.7e-5 W); --rtol 1e-12 brings it below 1e-9.
expect_status 0 "$HEATSIM" -q --json -g 63 -L 0.01 --conductivity 148 \
  --density 2330 --heat-capacity 712 --steady --edges 300,300,300,300 \
  --source-rect 0.002,0.004,0.002,0.004,1e9 --rtol 1e-12 && {
  bound=$(awk -v r="$(key residual_norm_final)" 'BEGIN {
    dx = 0.01 / 64; printf "%.17g", 63 * r * dx * dx }')
  close "$(key heat_balance)" 0 "$bound" "steady die: heat balance within its residual's"
  power=$(awk 'BEGIN { dx = 0.01 / 64; printf "%.17g", 169 * dx * dx * 1e9 }')
  close "$(key source_power)" "$power" "$(awk -v p="$power" 'BEGIN { printf "%.17g", p * 1e-13 }')" \
    "source power of the block"
  close "$(key heat_balance)" 0 "$(awk -v p="$power" 'BEGIN { printf "%.17g", p * 1e-9 }')" \
    "steady die: heat balance"
  close "$(key heat_rate_net)" "-$power" "$(awk -v p="$power" 'BEGIN { printf "%.17g", p * 1e-9 }')" \
    "steady die: the edges carry the source's power out"
}

# Zero-flux edges carry nothing; periodic ones cancel in pairs exactly.
expect_status 0 "$HEATSIM" -q --json -p disk -b neumann -g 32x24 -L 1 -a 1 \
  --dt 1e-5 -n 10 && for e in left right bottom top net; do
  [ "$(key heat_rate_$e)" = 0 ] || fail "zero flux: heat_rate_$e $(key heat_rate_$e)"
  checks=$((checks + 1))
done
expect_status 0 "$HEATSIM" -q --json -p disk -b periodic -g 32x24 -L 1 -a 1 \
  --dt 1e-5 -n 300 && {
  l=$(key heat_rate_left) r=$(key heat_rate_right)
  [ "$(awk -v l="$l" -v r="$r" 'BEGIN { print (l + r == 0 && l != 0) }')" = 1 ] \
    || fail "periodic: left $l, right $r: not opposite, or zero"
  [ "$(key heat_rate_net)" = 0 ] || fail "periodic: net $(key heat_rate_net)"
  checks=$((checks + 2))
}

finish
