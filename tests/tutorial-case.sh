#!/bin/sh
# The OpenMP GPU tutorial's large case, 8000 x 8000 cells and 10 steps.
# Its r = alpha dt / dx^2 = 0.32 passes the tutorial's 1-D check (0.5) but
# breaks the 2-D rule alpha dt (1/dx^2 + 1/dy^2) = 0.64 > 1/2, so heatsim
# refuses it unless forced.  Forced, the growing modes amplify round-off
# (up to 1.56x per step), so the L2 error depends on the processor's
# rounding; it must match the independent reference run on this machine.
. "${srcdir:-.}/tests/testlib.sh"
: "${MMS_REFERENCE:?MMS_REFERENCE must name the reference program}"

expect_status 2 "$HEATSIM" -q --grid 8000
grep -q "unstable.*= 0.64" "$workdir/err" \
  || fail "8000x8000: no stability message: $(cat "$workdir/err")"

ref=$("$MMS_REFERENCE" 8000 8000 1000 1000 0.1 0.05 10) || fail "reference"
expect_status 0 "$HEATSIM" -q --json --grid 8000 --force --offload host
l2=$(json_field l2_error "$workdir/out")
echo "8000x8000, 10 steps: heatsim L2 error $l2, reference ${ref% *}"
close_to "$l2" "${ref% *}" 1e-3 || fail "L2 error $l2 vs reference ${ref% *}"
close_to "$(json_field heat "$workdir/out")" "${ref#* }" 1e-12 \
  || fail "total heat differs from the reference"
finish
