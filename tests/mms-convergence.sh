#!/bin/sh
# Second order in space: with r = alpha dt (1/dx^2 + 1/dy^2) held at 0.4,
# halving dx divides the relative error by 4, within 5 %.  A first-order or
# inconsistent stencil gives ratios near 2 or 1.
. "${srcdir:-.}/tests/testlib.sh"

prev=
for m in 16 32 64 128; do
  dt=$(awk -v m=$m 'BEGIN { printf "%.17g", 0.2 / (m * m) }')
  expect_status 0 "$HEATSIM" -q --json --grid $((m - 1)) --length 1 \
    --alpha 1 --end-time 0.05 --dt "$dt" || continue
  err=$(json_field relative_error "$workdir/out")
  echo "dx = 1/$m: relative error $err"
  if [ -n "$prev" ]; then
    awk -v a="$prev" -v b="$err" 'BEGIN { r = a / b; printf "  ratio %.4f\n", r;
      exit !(r >= 3.8 && r <= 4.2) }' || fail "ratio at dx = 1/$m is not 4 +- 5 %"
  fi
  prev=$err
done
# Non-square cells (dx = 2 dy) converge at the same order.
prev=
for m in 16 32 64; do
  dt=$(awk -v m=$m 'BEGIN { printf "%.17g", 0.08 / (m * m) }')
  expect_status 0 "$HEATSIM" -q --json --grid $((m - 1))x$((2 * m - 1)) \
    --length 1 --alpha 1 --end-time 0.05 --dt "$dt" || continue
  err=$(json_field relative_error "$workdir/out")
  if [ -n "$prev" ]; then
    awk -v a="$prev" -v b="$err" 'BEGIN { r = a / b; exit !(r >= 3.8 && r <= 4.2) }' \
      || fail "non-square: ratio $prev / $err at dx = 1/$m is not 4 +- 5 %"
  fi
  prev=$err
done
finish
