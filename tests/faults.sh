#!/bin/sh
# Runs that go wrong: a field that turns NaN/Inf is caught within the
# check interval, reported with its step, ends with status 5, and the last
# good checkpoint stays; SIGINT/SIGTERM stop after the current step with a
# checkpoint and status 128+N; a second signal ends heatsim at once and
# leaves every checkpoint whole.
. "${srcdir:-.}/tests/testlib.sh"
out=$workdir/f
unstable='--grid 64 --length 65 --alpha 1 --dt 0.3 --force --steps 100000'

# newest DIR: the newest checkpoint under its final name.
newest () {
  ls "$1" | grep '^heatsim-[0-9]*\.h5$' | sort | tail -n 1
}

expect_status 5 "$HEATSIM" -q $unstable --checkpoint-every 50 \
  --output-dir "$out/nan"
bad=$(sed -n 's/.*NaN or infinite values after step \([0-9]*\).*/\1/p' \
  "$workdir/err")
last=$(newest "$out/nan")
echo "non-finite after step $bad; newest checkpoint $last"
[ -n "$bad" ] || fail "no step in the message: $(cat "$workdir/err")"
grep -q "the time step is unstable" "$workdir/err" || fail "no hint"
step=$(echo "$last" | sed 's/heatsim-0*\([0-9]*\)\.h5/\1/')
[ "$step" -lt "$bad" ] && [ $((bad - step)) -le 50 ] \
  || fail "newest checkpoint $last vs failure at $bad"
# The checkpoint's dt is unstable: a restart needs --force, as the run did.
expect_status 2 "$HEATSIM" -q --restart "$out/nan/$last" -n 1
expect_status 0 "$HEATSIM" -q --json --restart "$out/nan/$last" -n 1 --force
[ "$(json_field max "$workdir/out")" != nan ] || fail "kept checkpoint is NaN"
# Without output the check interval bounds the delay.
expect_status 5 "$HEATSIM" -q $unstable --nan-check-every 7
bad7=$(sed -n 's/.*after step \([0-9]*\).*/\1/p' "$workdir/err")
[ $((bad7 % 7)) -eq 0 ] && [ "$bad7" -gt "$step" ] && [ "$bad7" -le "$bad" ] \
  || fail "--nan-check-every 7 reported step $bad7 (finite at $step, not at $bad)"

# A diffusivity whose alpha pi^2 overflows still starts from the mms
# field: its decay at t = 0 read alpha pi^2 0 = inf 0, so the initial
# field was NaN, the first monitor row empty, min above max (a hostile
# pass).
rm -f huge.csv
expect_status 5 "$HEATSIM" -q -g 16 -n 2 --alpha 1e308 --force \
  --monitor huge.csv --monitor-every 1
row0=$(sed -n 2p huge.csv)
echo "alpha 1e308, step 0: $row0"
echo "$row0" | awk -F, '$1 == 0 && $3 != "" && $4 > 0.03 && $4 < 0.04 \
                        && $5 > 0.99 && $5 < 1 && $6 == 0 { ok = 1 }
                        END { exit !ok }' \
  || fail "alpha 1e308: step 0 is not the mms field: $row0"

# start_run DIR ARGS...: heatsim in the background, once it is in its time
# loop (it has written its first checkpoint).
start_run () {
  dir=$1
  shift
  "$HEATSIM" -q "$@" --output-dir "$dir" >"$workdir/bg.out" 2>"$workdir/bg.err" &
  pid=$!
  wait_for $pid has_checkpoint "$dir" && return 0
  fail "background run never wrote a checkpoint: $(cat "$workdir/bg.err")"
  return 1
}

# has_checkpoint DIR: whether DIR holds a checkpoint under its final name.
has_checkpoint () {
  [ -n "$(newest "$1" 2>/dev/null)" ]
}

for sig in INT:2 TERM:15 HUP:1; do
  number=${sig#*:}
  sig=${sig%:*}
  start_run "$out/$sig" -p plate -s --solver jacobi -g 400 --tol 1e-12 \
    --checkpoint-every 500 || continue
  kill -$sig $pid
  wait $pid
  status=$?
  want=$((128 + number))
  [ "$status" -eq "$want" ] || fail "SIG$sig: status $status, expected $want"
  grep -q "stopped after step [0-9]*; checkpoint written" "$workdir/bg.err" \
    || fail "SIG$sig: message: $(cat "$workdir/bg.err")"
  at=$(sed -n 's/.*stopped after step \([0-9]*\).*/\1/p' "$workdir/bg.err")
  [ -f "$out/$sig/heatsim-$(printf %06d "$at").h5" ] \
    || fail "SIG$sig: no checkpoint at the stop, step $at: $(ls "$out/$sig")"
  expect_status 4 "$HEATSIM" -q --json -s --tol 1e-12 --max-steps 10 \
    --restart "$out/$sig/$(newest "$out/$sig")"
  [ "$(json_field start_step "$workdir/out")" = "$at" ] \
    || fail "SIG$sig: restart did not continue from step $at"
done

# Faults of the process's surroundings that killed heatsim without a
# word (a hostile pass): a closed pipe (SIGPIPE, 141) and a file size
# limit (SIGXFSZ, 153) fail the write instead, status 1, and a closed
# stderr is not taken by the first file opened (progress lines went
# into the --monitor file).
if [ -x /usr/bin/python3 ]; then
  /usr/bin/python3 - "$HEATSIM" "$out/pipe" <<'EOF' \
    || fail "a closed pipe: $(cat "$workdir/pipe.txt" 2>/dev/null)"
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
# subprocess gives the child SIGPIPE's default action back.
p = subprocess.run([sys.argv[1], "-g", "32", "-n", "20", "--checkpoint-every",
                    "20", "--output-dir", sys.argv[2]], stdout=w,
                   stderr=subprocess.PIPE)
ok = p.returncode == 1 and os.path.exists(sys.argv[2] + "/heatsim-000020.h5")
if not ok:
    print("status", p.returncode, p.stderr.decode())
sys.exit(not ok)
EOF
fi
# (LLVM's x86_64 plugin writes its device image to a temporary file
# before main, and aborts under such a limit: not heatsim's write.)
if host_plugin; then
  echo "ulimit -f: not checked with the x86_64 plugin's device code"
else
  rm -rf "$out/fsz"
  (ulimit -f 8 && exec "$HEATSIM" -q -g 64 -n 4 --checkpoint-every 1 \
     --output-dir "$out/fsz") >"$workdir/out" 2>"$workdir/err"
  status=$?
  [ "$status" = 1 ] && grep -q "^heatsim: " "$workdir/err" \
    && [ -z "$(ls -A "$out/fsz" | grep '^\.')" ] \
    || fail "ulimit -f: status $status, $(cat "$workdir/err"), left $(ls -A "$out/fsz")"
fi
rm -f closed.csv
"$HEATSIM" -g 32 -n 400 --monitor closed.csv --monitor-every 100 \
  --progress-every 0.0001 >/dev/null 2>&-
[ "$(grep -c -v '^[0-9s]' closed.csv)" = 0 ] \
  || fail "stderr closed: the monitor file holds $(grep -v '^[0-9s]' closed.csv | head -n 2)"

# Two signals in a row: heatsim dies of the second at once.  Every file
# under a final name is whole.
if start_run "$out/twice" -p disk -g 600 -L 1 -a 1 --dt 1e-7 -n 1000000 \
     --checkpoint-every 20; then
  kill -TERM $pid
  kill -TERM $pid
  wait $pid
  status=$?
  [ "$status" -ge 128 ] || fail "two SIGTERMs: status $status"
  for f in $(ls "$out/twice" | grep '\.h5$'); do
    expect_status 0 "$HEATSIM" -q --restart "$out/twice/$f" -n 1
  done
fi
finish
