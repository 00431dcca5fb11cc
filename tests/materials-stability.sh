#!/bin/sh
# The explicit stability limit of a varying material keeps the maximum
# principle: a face between nodes of k 1 and 100 conducts 2 * 100 / 101
# = 1.98, nearly twice the k of the weaker node, so a node's rate of
# decay is its faces' conductances over its rho c_p, not its own
# k / (rho c_p).  A checkerboard of k = rho c_p = 1 and k = rho c_p = 100
# (diffusivity 1 everywhere), insulated, a hot node of 100 in a field of
# 0: with --steps auto no node may leave [0, 100] (with the node's own
# k / (rho c_p) as the limit, one step took the hot node to -42.6); a
# dt between the two limits is refused unless forced, and a forced run
# says its stability number is over 1/2.  A uniform material keeps its
# limit, alpha dt (1/dx^2 + 1/dy^2).  HDF5 inputs made by
# h5import from numbers python3 writes.
. "${srcdir:-.}/tests/testlib.sh"

python_with math
py=$PY
if ! command -v h5import >/dev/null 2>&1; then
  echo "h5import missing: nothing to test"
  exit 77
fi

# h5 NAME ROWS COLS EXPR FILE: dataset NAME of ROWS x COLS doubles, the
# value of python expression EXPR in row j and column i.
h5 () {
  "$py" -c "
import sys
rows, cols = int (sys.argv[1]), int (sys.argv[2])
for j in range (rows):
    print (' '.join ('%.17g' % ($4) for i in range (cols)))
" "$2" "$3" >"$workdir/$1.txt" || exit 99
  printf 'PATH %s\nINPUT-CLASS TEXTFP\nINPUT-SIZE 64\nRANK 2\nDIMENSION-SIZES %s %s\nOUTPUT-CLASS FP\nOUTPUT-SIZE 64\nOUTPUT-ARCHITECTURE IEEE\nOUTPUT-BYTE-ORDER LE\n' \
    "$1" "$2" "$3" >"$workdir/$1.conf"
  set -- "$5" "$workdir/$1.txt" "$workdir/$1.conf"
  if [ -f "$1" ]; then
    h5import "$2" -c "$3" -o "$1" >/dev/null 2>&1 || exit 99
  else
    h5import "$2" -c "$3" -o "$1" >/dev/null || exit 99
  fi
}

h5 conductivity 16 16 '1.0 if (i + j) % 2 == 0 else 100.0' "$workdir/board.h5"
h5 volumetric_heat_capacity 16 16 '1.0 if (i + j) % 2 == 0 else 100.0' \
  "$workdir/board.h5"
# The initial field with its ring: 0, and 100 at node (8, 8) of a k = 1
# node ((i + j) even: row 8, column 8 of the ring's 18 x 18).
h5 field 18 18 '100.0 if i == 8 and j == 8 else 0.0' "$workdir/spot.h5"

run="--material-map $workdir/board.h5 --init $workdir/spot.h5 -L 1x1 --bc all=insulated"
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $run -T 0.0008 -n auto; then
  lo=$(json_field min "$workdir/out")
  hi=$(json_field max "$workdir/out")
  steps=$(json_field steps "$workdir/out")
  "$py" -c "import sys; sys.exit (not (0.0 <= float ('$lo') and float ('$hi') <= 100.0))" \
    || fail "--steps auto: $steps step(s) left the field in [$lo, $hi], outside [0, 100]"
fi

# The node-own limit allowed dt = 1/2 / (2 * 15^2) = 1/900 (stability
# 1/2); the faces' allow 1/2 / ((2 * 1.98 + 2 * 1.98) * 15^2 / 2) = 1/1782.
# shellcheck disable=SC2086
refused "stability" $run -T 0.001 -n 1
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $run -T 0.001 -n 1 -f; then
  r=$(json_field stability "$workdir/out")
  # 0.001 / 2 * (4 * 200 / 101) * 15^2
  "$py" -c "import sys; r = float ('$r'); sys.exit (abs (r - 0.001 / 2 * 4 * 200 / 101 * 225) > 1e-12 * r)" \
    || fail "forced: stability $r, expected $("$py" -c 'print (0.001 / 2 * 4 * 200 / 101 * 225)')"
fi

# A uniform material: the limit alpha dt (1/dx^2 + 1/dy^2), as before.
if expect_status 0 "$HEATSIM" -q --json -g 15 -L 1 --conductivity 2 \
    --density 4 --heat-capacity 0.125 --bc all=insulated -T 0.0001 -n 1; then
  r=$(json_field stability "$workdir/out")
  "$py" -c "import sys; r = float ('$r'); e = 4 * 0.0001 * 2 * 14 ** 2; sys.exit (abs (r - e) > 1e-14 * e)" \
    || fail "uniform material: stability $r, expected 0.1568"
fi

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
