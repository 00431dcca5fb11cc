#!/bin/sh
# Under --json every run that got as far as parsing its options prints one
# JSON object on stdout, failed or not: status and exit_status say how it
# ended and error holds the message that also went to stderr, so a script
# collecting results gets a row for every run.  Exit statuses are those of
# the text mode.
. "${srcdir:-.}/tests/testlib.sh"

command -v jq >/dev/null 2>&1 || { echo "jq not found: skipped"; exit 77; }

# ended WANT_EXIT WANT_STATUS ARGS...: heatsim --json ARGS exits with
# WANT_EXIT and prints exactly one JSON object whose status and
# exit_status agree, whose error is the message on stderr (null on
# success), and which carries the provenance keys.
ended () {
  _exit=$1 _status=$2
  shift 2
  expect_status "$_exit" "$HEATSIM" -q "$@" || return
  [ "$(wc -l <"$workdir/out")" -eq 1 ] \
    || { fail "'$*': not one line on stdout: $(cat "$workdir/out")"; return; }
  jq -e . "$workdir/out" >/dev/null 2>&1 \
    || { fail "'$*': stdout is not JSON: $(cat "$workdir/out")"; return; }
  [ "$(jq -r .status "$workdir/out")" = "$_status" ] \
    || fail "'$*': status $(jq .status "$workdir/out"), expected $_status"
  [ "$(jq -r .exit_status "$workdir/out")" = "$_exit" ] \
    || fail "'$*': exit_status $(jq .exit_status "$workdir/out"), not $_exit"
  [ "$(jq -r .schema_version "$workdir/out")" -ge 1 ] 2>/dev/null \
    || fail "'$*': no schema_version"
  jq -e '.command_line and .version and .device_code and .mpi' \
    "$workdir/out" >/dev/null || fail "'$*': provenance missing"
  if [ "$_exit" -eq 0 ]; then
    [ "$(jq -r .error "$workdir/out")" = null ] || fail "'$*': error on success"
  else
    # The message on stderr is "heatsim: " and the error text.
    _msg=$(jq -r .error "$workdir/out")
    grep -qxF "heatsim: $_msg" "$workdir/err" \
      || fail "'$*': error '$_msg' is not the message on stderr: $(cat "$workdir/err")"
  fi
}

ended 0 ok -g 16 -n 3 --json
ended 0 ok -g 16 -L 17 -a 1 -T 1 --steps auto --json
# Option errors: --json anywhere in the command line, before or after the
# option that is wrong; not when it is the value of another option.
ended 2 usage_error --json --steps 0
[ "$(jq -r .error "$workdir/out")" = "--steps: '0' must be at least 1" ] \
  || fail "option error: $(cat "$workdir/out")"
ended 2 usage_error --steps x --json
ended 2 usage_error --jso --colour
ended 2 usage_error --json --steps auto
ended 2 usage_error --json -g 64 --length 65 --alpha 1 --dt 0.3
expect_status 2 "$HEATSIM" -q --output-dir --json --steps 0
[ -s "$workdir/out" ] && fail "--json as a value printed: $(cat "$workdir/out")"
expect_status 2 "$HEATSIM" -q --steps 0
[ -s "$workdir/out" ] && fail "without --json: stdout: $(cat "$workdir/out")"
# Failures after parsing.
ended 2 bad_file --json --init "$workdir/missing.h5"
printf 'not a field' >"$workdir/junk"
ended 2 bad_file --json --init "$workdir/junk"
# The other input files: one that cannot be opened or read is a bad
# file too, as --init's; one whose contents the options refuse (a value,
# a size against the grid) stays a usage error.
ended 2 bad_file --json --material-map "$workdir/nofile.png"
ended 2 bad_file --json --material-map "$workdir/junk"
ended 2 bad_file --json --source-map "$workdir/nofile.h5" --source-range 0,1
ended 2 bad_file --json --source 1 --source-schedule "$workdir/nofile.csv"
ended 2 bad_file --json --bc "left=temperature:@$workdir/nofile.csv"
ended 2 bad_file --json --surface-convection "@$workdir/nofile.csv,20" \
  --thickness 0.01
ended 2 bad_file --json --case "$workdir/nofile.case"
ended 2 bad_file --json --case "$workdir"
printf 'case = nofile.case\n' >"$workdir/outer.case"
ended 2 bad_file --json --case "$workdir/outer.case"
ended 2 bad_file --json --init "$srcdir/data/ring-and-bar.png" \
  --material-map "$workdir/nofile.png"
printf '0,1\n1,x\n' >"$workdir/rows.csv"
ended 2 usage_error --json --source 1 --source-schedule "$workdir/rows.csv"
printf 'grid = fine\n' >"$workdir/value.case"
ended 2 usage_error --json --case "$workdir/value.case"
ended 2 usage_error --json -g 16 --material-map "$srcdir/data/wall.png" \
  --material '#000000=copper'
ended 4 not_converged --json -p plate -s --solver jacobi -g 16 --max-steps 10
jq -e '.converged == false and .l2_error != null and .residual > 0.01' \
  "$workdir/out" >/dev/null || fail "not_converged: no full report"
ended 5 not_finite --json -g 64 -L 65 -a 1 --dt 0.3 --force -n 100000
ndev=$("$HEATSIM" --list-devices | sed -n 's/^OpenMP offload devices: \([0-9]*\).*/\1/p')
if [ "$ndev" = 0 ]; then
  ended 3 no_device --json -g 16 -o resident --require-device
  ended 2 usage_error --json -g 16 --device 0
fi
# A message with characters JSON must escape, from the user's own text.
ended 2 bad_file --json --init "$workdir/q\"uo\\te	tab"
# A write that fails (tests/failwrite.so): write_failed, exit 1.
if [ -n "${FAILWRITE:-}" ] && [ -f "$FAILWRITE" ]; then
  if [ -n "${HEATSIM_SANITIZED:-}" ]; then
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
    export ASAN_OPTIONS
  fi
  # The shim goes to heatsim alone: the checks' wc, cat and jq must not
  # load it (in a sanitizer build it needs the ASan runtime).
  printf '#!/bin/sh\nFAILWRITE_AT=1 FAILWRITE_DIR=%s LD_PRELOAD=%s exec %s "$@"\n' \
    "$workdir/failing" "$FAILWRITE" "$HEATSIM" >"$workdir/full-disk"
  chmod +x "$workdir/full-disk"
  plain=$HEATSIM
  HEATSIM=$workdir/full-disk
  ended 1 write_failed --json -g 16 -n 4 --checkpoint-every 2 \
    --output-dir "$workdir/failing"
  HEATSIM=$plain
fi
# SIGTERM once the run is in its loop (its first checkpoint is there).
"$HEATSIM" -q --json -p plate -s --solver jacobi -g 400 --tol 1e-12 --checkpoint-every 500 \
  --output-dir "$workdir/sig" >"$workdir/out" 2>"$workdir/err" &
pid=$!
has_checkpoint () {
  ls "$workdir/sig" 2>/dev/null | grep -q '^heatsim-.*\.h5$'
}
wait_for $pid has_checkpoint || fail "the run to stop wrote no checkpoint"
kill -TERM $pid
wait $pid
[ $? -eq 143 ] && [ "$(jq -r '.status + " " + (.exit_status | tostring)' \
  "$workdir/out")" = "interrupted 143" ] \
  && grep -qF "heatsim: $(jq -r .error "$workdir/out")" "$workdir/err" \
  || fail "SIGTERM: $(cat "$workdir/out" "$workdir/err")"
# No number is printed as -0 (valid JSON, but a script's string compare
# of "0" and a reader's eye both trip on it): a temperature given as -0.
expect_status 0 "$HEATSIM" -q --json -g 8 -n 2 --initial-temperature -0 \
  --bc all=temperature:-0
jq -e . "$workdir/out" >/dev/null && ! grep -q -- '-0[,}]' "$workdir/out" \
  || fail "a -0 in the JSON report: $(grep -o '"[a-z_]*": -0[,}]' "$workdir/out")"
# --help, --version and --list-devices stay text.
expect_status 0 "$HEATSIM" --json --version
grep -q '^heatsim [0-9]' "$workdir/out" || fail "--json --version"
finish
