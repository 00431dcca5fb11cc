#!/bin/sh
# --bench reports a copy bandwidth and the stencil's share of it, for each
# strategy, in text and JSON; without --bench the JSON fields are null.
. "${srcdir:-.}/tests/testlib.sh"
for s in host map resident; do
  expect_status 0 "$HEATSIM" -q --json --bench -g 256 -n 20 -o $s
  copy=$(json_field copy_gb_s "$workdir/out")
  frac=$(json_field copy_fraction "$workdir/out")
  bw=$(json_field bandwidth_gb_s "$workdir/out")
  awk -v c="$copy" -v f="$frac" -v b="$bw" 'BEGIN {
    exit !(c > 0 && f > 0 && (f - b / c) ^ 2 < 1e-6 * f * f) }' \
    || fail "$s: copy $copy GB/s, fraction $frac, stencil $bw GB/s"
done
expect_status 0 "$HEATSIM" -q --bench -g 256 -n 20
grep -q "copy bandwidth .* GB/s where the kernels ran: the stencil reaches" \
  "$workdir/out" || fail "text report lacks the copy line"
expect_status 0 "$HEATSIM" -q --json -g 64
[ "$(json_field copy_gb_s "$workdir/out")" = null ] || fail "copy without --bench"
finish
