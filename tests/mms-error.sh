#!/bin/sh
# heatsim's error against the exact solution equals that of an independent
# reference implementation (tests/mms_reference.c: plain loops with
# branches at the boundary, no code shared), and is small.
. "${srcdir:-.}/tests/testlib.sh"
: "${MMS_REFERENCE:?MMS_REFERENCE must name the reference program}"

# agree L2TOL NX NY LX LY ALPHA DT STEPS
agree () {
  tol=$1
  shift
  ref=$("$MMS_REFERENCE" "$@") || { fail "reference failed: $*"; return; }
  expect_status 0 "$HEATSIM" -q --json --grid "$1x$2" --length "$3x$4" \
    --alpha "$5" --dt "$6" --steps "$7" || return
  l2=$(json_field l2_error "$workdir/out")
  heat=$(json_field heat "$workdir/out")
  close_to "$l2" "${ref% *}" "$tol" \
    || fail "L2 error $l2, reference ${ref% *} ($*)"
  close_to "$heat" "${ref#* }" 1e-12 \
    || fail "total heat $heat, reference ${ref#* } ($*)"
}

# Error dominated by truncation: agreement to nine digits.
agree 1e-9 63 47 1 0.75 1 2e-5 500
agree 1e-9 40 40 2 2 0.5 1e-3 200
# The tutorial's default case: the error is ~1e-12 per cell, so round-off
# in the exact solution shows from the fourth digit; agreement to 1e-3.
agree 1e-3 1000 1000 1000 1000 0.1 0.05 10

# heatsim's defaults are that case, and the error it prints is small.
expect_status 0 "$HEATSIM" -q
grep -q "grid          1000 x 1000 cells, domain 1000 x 1000" "$workdir/out" \
  || fail "default grid is not the tutorial's"
grep -q "10 steps to t = 0.5" "$workdir/out" || fail "default steps"
rel=$(sed -n 's/^  rel. error *//p' "$workdir/out")
awk -v r="$rel" 'BEGIN { exit !(r > 0 && r < 1e-11) }' \
  || fail "default relative error $rel not in (0, 1e-11)"
finish
