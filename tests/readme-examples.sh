#!/bin/sh
# The README's worked examples ("Worked examples"), run as written: the
# two-material wall against its exact piecewise-linear profile, the die
# with hot spots against the power of its floorplan, the fin against the
# cosh solution and its heat balance, the die on a heat sink against its
# source's power; and the report lines
# that the README quotes found in the reports, so that a renamed option,
# a changed figure or a lost picture makes this test fail.  heatsim(1)'s
# examples of the two give the same figures.
. "${srcdir:-.}/tests/testlib.sh"

# block NAME: the indented lines between the README's markers
# "<!-- begin NAME:" and "<!-- end NAME -->", the indent taken off.
block () {
  sed -n "/^<!-- begin $1:/,/^<!-- end $1 -->/p" "$srcdir/README" \
    | sed -n 's/^    //p'
}

# quoted NAME FILE: every line of block NAME is a line of FILE.
quoted () {
  block "$1" >quoted
  [ -s quoted ] || fail "no '$1' block in README"
  while IFS= read -r line; do
    grep -q -x -F -e "$line" "$2" || fail "README's line '$line' not in the report"
  done <quoted
}

PATH=$(dirname "$HEATSIM"):$PATH
export PATH
mkdir data && cp "$srcdir/data/wall.png" data/ || exit 99
for picture in wall.png die-steady.png die-0.02s.png; do
  grep -q "](doc/$picture)" "$srcdir/README" \
    || fail "README does not show doc/$picture"
  [ -s "$srcdir/doc/$picture" ] || fail "doc/$picture missing"
done

# The wall: at mid-height, brick (k 0.72) to x = 0.25, insulation
# (k 0.04) to 0.4, 20 degC inside, -10 outside.
block wall >wall.sh
grep -q 'material-map data/wall.png' wall.sh || fail "no wall found in README"
if expect_status 0 sh wall.sh; then
  cp out wall.out
  quoted 'wall report' wall.out
  # The two figures the README gives in prose: the total heat to its
  # seven digits, the net rate zero to round-off.
  sed -n 's/^  total heat *\([^ ]*\) .*/\1/p; s/^  net rate *\([^ ]*\) .*/\1/p' \
    wall.out >figures
  heat=$(sed -n 's/.*a total heat of \([0-9.E+]*\) .*/\1/p' "$srcdir/README")
  [ -n "$heat" ] || fail "README gives no total heat of the wall"
  awk -v heat="${heat:-0}" 'NR == 1 { d = $1 / heat - 1; if (d < -1e-7 || d > 1e-7) exit 1 }
       NR == 2 { if ($1 < -1e-9 || $1 > 1e-9) exit 1 }
       END { if (NR != 2) exit 1 }' figures \
    || fail "wall: total heat and net rate not the README's: $(cat figures)"
  awk -F, 'NR > 1 { q = 30 / (0.25 / 0.72 + 0.15 / 0.04)
                    exact = $2 <= 0.25 ? 20 - q * $2 / 0.72 \
                      : 20 - q * (0.25 / 0.72 + ($2 - 0.25) / 0.04)
                    d = $4 - exact; if (d < 0) d = -d; if (d > worst) worst = d; n++ }
           END { if (n != 101 || worst > 1e-9) { print n, worst; exit 1 } }' \
    wall/profile.csv >bad || fail "wall profile not the exact one: $(cat bad)"
  [ -s wall/heatsim-000001.png ] || fail "no picture of the wall"
fi

# The die: the net rate out is the floorplan's power, Q times the nodes'
# area (node-inclusive rectangles, dx = 0.01/128): 32 x 32 nodes a core,
# 77 x 19 the cache.
block die >die.sh
grep -q 'heatsim --case chip.case' die.sh || fail "no die found in README"
if expect_status 0 sh die.sh; then
  cp out die.out
  quoted 'die report' die.out
  net=$(sed -n 's/^  net rate *\([^ ]*\) .*/\1/p' die.out | head -n 1)
  awk -v net="$net" 'BEGIN { a = (0.01 / 128) ^ 2
                             p = (2 * 32 * 32 * 2e9 + 77 * 19 * 5e8) * a
                             if (!((net + p) / p < 1e-6 && (net + p) / p > -1e-6)) exit 1 }' \
    || fail "die: net rate $net is not minus the sources' power"
  [ "$(ls die-film | grep -c '^heatsim-0000[0-5]0\.png$')" -eq 6 ] \
    || fail "die-film: not 6 frames: $(ls die-film)"
  [ -s die/heatsim-000001.png ] || fail "no picture of the die"
fi
# The fin: the base's rate equals the face cooling to the solver's
# tolerance; the profile is the cosh solution to 5e-5 K; the base's rate
# with its own half cell's cooling (2 H / D 80 K W dx / 2) is k m tanh(mL)
# 80 K W to 1e-5.
block fin >fin.sh
grep -q 'surface-convection 25,20' fin.sh || fail "no fin found in README"
if expect_status 0 sh fin.sh; then
  cp out fin.out
  quoted 'fin report' fin.out
  awk -F, 'NR > 1 { m = sqrt(2 * 25 / (237 * 0.002)); a = m * (0.05 - $2)
                    b = m * 0.05
                    exact = 20 + 80 * (exp(a) + exp(-a)) / (exp(b) + exp(-b))
                    d = $4 - exact; if (d < 0) d = -d; if (d > worst) worst = d; n++ }
           END { if (n != 101 || worst > 5e-5) { print n, worst; exit 1 } }' \
    fin/profile.csv >bad || fail "fin profile not the cosh one: $(cat bad)"
  base=$(sed -n 's/^  heat rates *left \([^ ]*\) .*/\1/p' fin.out)
  awk -v base="${base:-0}" 'BEGIN { m = sqrt(2 * 25 / (237 * 0.002)); b = m * 0.05
      exact = 237 * m * (exp(b) - exp(-b)) / (exp(b) + exp(-b)) * 80 * 0.01
      d = (base + 2 * 25 / 0.002 * 80 * 0.01 * 0.0005 / 2) / exact - 1
      exit !(d < 1e-5 && d > -1e-5) }' \
    || fail "fin: base rate $base and half cell not k m tanh(mL) (Tb - TINF) W"
  grep -q '^  imbalance  .*, [0-9.]*E-1[0-9] of the largest term$' fin.out \
    || fail "fin: $(grep '^  imbalance' fin.out)"
fi

# The die on a heat sink: the source's power is Q times 65 x 65 nodes'
# area (dx = 0.01/128), and the face cooling carries it all (to the
# report's seven digits).
block heatsink >heatsink.sh
grep -q 'surface-convection 5000,25' heatsink.sh || fail "no heat sink found in README"
if expect_status 0 sh heatsink.sh; then
  cp out heatsink.out
  quoted 'heatsink report' heatsink.out
  sed -n 's/^  source power *\([^ ]*\)$/\1/p; s/^  face cooling *\([^ ]*\) .*/\1/p' \
    heatsink.out >figures
  awk 'BEGIN { p = 1e9 * (65 * 0.01 / 128) ^ 2 }
       { d = $1 / p - 1; if (d < -1e-6 || d > 1e-6) exit 1 }
       END { if (NR != 2) exit 1 }' figures \
    || fail "heat sink: source power and face cooling not 65^2 dx^2 Q: $(cat figures)"
  grep -q '^  imbalance  .*, [0-9.]*E-1[0-9] of the largest term$' heatsink.out \
    || fail "heat sink: $(grep '^  imbalance' heatsink.out)"
fi

# heatsim(1)'s EXAMPLES give the same two steady states in one command
# each (the map from where it is installed): the same report lines.
man_example () {
  grep "^\.B heatsim .*$1" "$srcdir/man/heatsim.1" \
    | sed 's/^\.B //; s/\\-/-/g; s|/usr/local/share/heatsim/|data/|'
}
man_example 'wall\.png' >man-wall.sh
man_example 'source\\-rect' >man-die.sh
[ "$(cat man-wall.sh man-die.sh | wc -l)" -eq 2 ] \
  || fail "heatsim(1) lacks the wall or the die: $(cat man-wall.sh man-die.sh)"
if expect_status 0 sh man-wall.sh; then
  quoted 'wall report' out
fi
if expect_status 0 sh man-die.sh; then
  block 'die report' | head -n 3 >die-steady
  while IFS= read -r line; do
    grep -q -x -F -e "$line" out || fail "heatsim(1)'s die: no '$line'"
  done <die-steady
fi
# The plate's heat rates as README quotes jq's output (its digits had
# drifted since they were written).
if command -v jq >/dev/null 2>&1; then
  quote=$(sed -n 's/^gives `\(\[-46[^`]*\]\)`:$/\1/p' "$srcdir/README")
  [ -n "$quote" ] || fail "README lacks the plate's heat rates"
  got=$(heatsim -q --json -p plate -s -g 31x15 -L 1 -a 1 \
    | jq -c '[.heat_rate_left, .heat_rate_bottom, .heat_rate_net]')
  [ "$got" = "$quote" ] || fail "the plate's heat rates: $got, README $quote"
fi
finish
