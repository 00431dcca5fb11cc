#!/bin/sh
# The README's worked examples ("Worked examples"), run as written: the
# two-material wall against its exact piecewise-linear profile, the die
# with hot spots against the power of its floorplan; and the report lines
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
finish
