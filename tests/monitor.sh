#!/bin/sh
# --monitor FILE: the CSV's header and rows, its last row against the final
# report, a killed run's file, continuation on --restart, refusals; and
# progress lines with the simulated time (--progress-every).
. "${srcdir:-.}/tests/testlib.sh"

header='step,time,total_heat,min,max,l2_error,max_change,residual,heat_rate_left,heat_rate_right,heat_rate_bottom,heat_rate_top,source_power,face_cooling,stored_heat_rate,imbalance'

# field N FILE: column N of the last row of FILE.
last_field () {
  tail -n 1 "$2" | cut -d, -f"$1"
}

# The rows fall on step 0, every K steps and the last; the last row is the
# final report, to the digit (both print %.17g), for every strategy: in a
# host-plugin build map and resident must fetch the field from the
# device's own memory for each row.
for o in host map resident; do
  rm -f m.csv
  if expect_status 0 "$HEATSIM" -q --json -o "$o" -g 48x40 -L 1 -a 1e-4 \
       -n 250 -T 0.5 --monitor m.csv --monitor-every 100; then
    cp "$workdir/out" r.json
    [ "$(head -n 1 m.csv)" = "$header" ] || fail "$o: header: $(head -n 1 m.csv)"
    steps=$(cut -d, -f1 m.csv | tail -n +2 | tr '\n' ' ')
    [ "$steps" = "0 100 200 250 " ] || fail "$o: rows at steps '$steps'"
    [ "$(last_field 2 m.csv)" = 0.5 ] || fail "$o: last time $(last_field 2 m.csv)"
    for pair in 3:heat 4:min 5:max 6:l2_error; do
      col=${pair%%:*} key=${pair#*:}
      [ "$(last_field "$col" m.csv)" = "$(json_field "$key" r.json)" ] \
        || fail "$o: last row's $key $(last_field "$col" m.csv) is not the report's $(json_field "$key" r.json)"
    done
    [ "$(sed -n 2p m.csv | cut -d, -f6)" = 0 ] || fail "$o: error at step 0 not 0"
    # No sweeps: the max_change column is empty.
    [ -z "$(cut -d, -f7,8 m.csv | tail -n +2 | tr -d ',\n')" ] \
      || fail "$o: max_change or residual in a time-dependent run"
    pass
  fi
done

# Text report: the same numbers at its printing precision.
rm -f m.csv
if expect_status 0 "$HEATSIM" -q -g 32 -L 1 -a 1e-4 -n 30 --monitor m.csv; then
  heat=$(sed -n 's/^  total heat *\([^ ]*\) .*/\1/p' "$workdir/out")
  close_to "$(last_field 3 m.csv)" "$heat" 1e-14 \
    || fail "text report heat $heat, monitor $(last_field 3 m.csv)"
  [ "$(cut -d, -f1 m.csv | tail -n +2 | tr '\n' ' ')" = "0 30 " ] \
    || fail "default --monitor-every: rows $(cut -d, -f1 m.csv | tr '\n' ' ')"
  # The output time is the rows': the report says so.
  grep -q ' output [0-9.]* (0 files, --monitor rows) ' "$workdir/out" \
    || fail "text report: $(grep ' output ' "$workdir/out")"
fi

# No exact solution: the error column is empty.
if expect_status 0 "$HEATSIM" -q -p disk -g 32 -L 1 -a 1e-3 -n 20 \
     --monitor disk.csv --monitor-every 5; then
  [ "$(wc -l <disk.csv)" -eq 6 ] || fail "disk: $(wc -l <disk.csv) lines"
  [ -z "$(cut -d, -f6 disk.csv | tail -n +2 | tr -d '\n')" ] \
    || fail "disk: error column not empty"
fi

# Steady runs: no time; the largest change of the row's sweep, the same
# as the report's at a checked sweep; the rows change nothing (checksum).
expect_status 0 "$HEATSIM" -q --json -p plate --steady --solver jacobi -g 32 --residual-every 7
cp "$workdir/out" plain.json
if expect_status 0 "$HEATSIM" -q --json -p plate --steady --solver jacobi -g 32 \
     --residual-every 7 --monitor s.csv --monitor-every 10; then
  [ "$(json_field checksum "$workdir/out")" = "$(json_field checksum plain.json)" ] \
    || fail "steady: --monitor changed the field"
  [ -z "$(cut -d, -f2 s.csv | tail -n +2 | tr -d '\n')" ] || fail "steady: time given"
  [ "$(sed -n 3p s.csv | cut -d, -f1)" = 10 ] || fail "steady: second row $(sed -n 3p s.csv)"
  [ -n "$(sed -n 3p s.csv | cut -d, -f7)" ] || fail "steady: no max_change at sweep 10"
  [ "$(last_field 7 s.csv)" = "$(json_field residual "$workdir/out")" ] \
    || fail "steady: last max_change $(last_field 7 s.csv), residual $(json_field residual "$workdir/out")"
  [ "$(last_field 6 s.csv)" = "$(json_field l2_error "$workdir/out")" ] \
    || fail "steady: last error is not the report's"
  [ "$(last_field 8 s.csv)" = "$(json_field residual_norm_final "$workdir/out")" ] \
    || fail "steady: last residual $(last_field 8 s.csv) is not the report's"
  [ "$(sed -n 2p s.csv | cut -d, -f8)" = "$(json_field residual_norm_initial "$workdir/out")" ] \
    || fail "steady: first residual is not the report's initial one"
fi
# Multigrid: a row every --monitor-every V-cycles, with the residual norm
# the report ends with; it falls by orders of magnitude.
if expect_status 0 "$HEATSIM" -q --json -p plate --steady -g 63x41 \
     --monitor mg.csv --monitor-every 2; then
  cycles=$(json_field cycles "$workdir/out")
  [ "$(tail -n +2 mg.csv | cut -d, -f1 | tr '\n' ' ')" = \
    "$(seq 0 2 $((cycles - 1)) | tr '\n' ' ')$cycles " ] \
    || fail "multigrid: rows at $(tail -n +2 mg.csv | cut -d, -f1 | tr '\n' ' ') of $cycles cycles"
  # Near round-off the norm differs in its last digits with the order of
  # the sum (multigrid's own against the monitor's).
  close_to "$(last_field 8 mg.csv)" \
    "$(json_field residual_norm_final "$workdir/out")" 1e-3 \
    || fail "multigrid: last residual $(last_field 8 mg.csv) is not the report's"
  close_to "$(sed -n 2p mg.csv | cut -d, -f8)" \
    "$(json_field residual_norm_initial "$workdir/out")" 1e-15 \
    || fail "multigrid: first residual is not the report's initial one"
  awk -F, 'NR > 2 && $8 >= prev { bad = 1 } NR > 1 { prev = $8 } END { exit bad }' mg.csv \
    || fail "multigrid: the residual does not fall: $(cut -d, -f1,8 mg.csv | tr '\n' ' ')"
fi

# A number that is infinite or NaN is an empty field, as it is null in
# the JSON report: the heat of a field near the largest double overflows.
if expect_status 4 "$HEATSIM" -q --json -p plate --edges 0,1e306,0,0 --steady \
     --solver jacobi -g 16 --max-steps 3 --monitor inf.csv --monitor-every 1; then
  [ "$(json_field heat "$workdir/out")" = null ] \
    || fail "JSON heat $(json_field heat "$workdir/out"), expected null"
  [ -z "$(last_field 3 inf.csv)" ] || fail "monitor heat $(last_field 3 inf.csv)"
  grep -i -e nan -e inf inf.csv && fail "non-finite numbers in the monitor"
fi

# A run killed by SIGKILL leaves the header and complete rows only.
"$HEATSIM" -q -g 24 -L 1 -a 1e-6 -n 100000000 --monitor killed.csv \
  --monitor-every 3 >/dev/null 2>&1 &
pid=$!
# lines FILE: the lines of FILE so far, 0 before it exists.
lines () {
  cat "$1" 2>/dev/null | wc -l
}
enough_rows () {
  [ "$(lines killed.csv)" -ge 2000 ]
}
wait_for $pid enough_rows \
  || fail "the run to kill wrote $(lines killed.csv) lines, not 2000"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
checks=$((checks + 1))
rows=$(($(wc -l <killed.csv) - 1))
[ "$rows" -ge 2 ] || fail "killed run: only $rows rows"
[ "$(head -n 1 killed.csv)" = "$header" ] || fail "killed run: header"
[ "$(tail -c 1 killed.csv | od -An -c | tr -d ' ')" = '\n' ] \
  || fail "killed run: the file does not end with a whole line"
awk -F, -v h="$header" '
  NR == 1 { next }
  NF != 16 || $1 != (NR - 2) * 3 || $7 != "" || $8 != "" { bad = NR ": " $0; exit }
  { for (i = 2; i <= 16; ++i)
      if (i != 7 && i != 8 && !(NR == 2 && i >= 15) \
          && $i !~ /^-?[0-9.]+(e[-+][0-9]+)?$/) { bad = NR ": " $0; exit } }
  END { if (bad != "") { print bad; exit 1 } }' killed.csv \
  || fail "killed run: bad row $(awk -F, 'NF != 16' killed.csv | head -n 1)"

# --restart continues the file: rows from the restart step on are dropped
# and written again, giving the file of an uninterrupted run.
mkdir -p full part
"$HEATSIM" -q -g 32 -L 1 -a 1e-4 -n 300 --dt 0.002 --monitor full.csv \
  --monitor-every 50 >/dev/null
"$HEATSIM" -q -g 32 -L 1 -a 1e-4 -n 170 --dt 0.002 --checkpoint-every 100 \
  --output-dir part --monitor part.csv --monitor-every 50 >/dev/null
if expect_status 0 "$HEATSIM" -q --restart part/heatsim-000100.h5 -n 200 \
     --monitor part.csv --monitor-every 50; then
  cmp -s full.csv part.csv \
    || fail "restarted monitor differs: $(diff full.csv part.csv | head -n 6)"
fi
# A restart at a step the rows do not fall on (120 of every 50) writes no
# row there, as the uninterrupted run has none.
"$HEATSIM" -q -g 32 -L 1 -a 1e-4 -n 120 --dt 0.002 --checkpoint-every 120 \
  --output-dir odd >/dev/null
cp full.csv odd.csv
if expect_status 0 "$HEATSIM" -q --restart odd/heatsim-000120.h5 -n 180 \
     --monitor odd.csv --monitor-every 50; then
  cmp -s full.csv odd.csv \
    || fail "restart at 120: $(diff full.csv odd.csv | head -n 6)"
fi
# A steady state restarted from its converged checkpoint (step 6, off
# the rows' grid) ends where it starts: its last row stays, in the
# monitor and the probe file alike.
if expect_status 0 "$HEATSIM" -q -s -p plate -g 32x32 --checkpoint-every 100 \
     --output-dir cz --monitor cz/mon.csv --probe 0.5,0.5; then
  cp cz/mon.csv cz-mon.csv
  cp cz/probes.csv cz-probes.csv
  if expect_status 0 "$HEATSIM" -q -s --restart cz/heatsim-000006.h5 \
       --checkpoint-every 100 --output-dir cz --monitor cz/mon.csv \
       --probe 0.5,0.5; then
    cmp -s cz-mon.csv cz/mon.csv && cmp -s cz-probes.csv cz/probes.csv \
      || fail "a converged steady restart: $(diff cz-mon.csv cz/mon.csv; diff cz-probes.csv cz/probes.csv)"
  fi
fi
# A line that is not a row (edited by hand) before the restart step is
# kept as it is, and so are the rows after it.
awk 'NR == 3 { print "not a row"; next } { print }' full.csv >edited.csv
cp edited.csv want.csv
if expect_status 0 "$HEATSIM" -q --restart part/heatsim-000100.h5 -n 200 \
     --monitor edited.csv --monitor-every 50; then
  cmp -s want.csv edited.csv \
    || fail "restart after an edited row: $(diff want.csv edited.csv | head -n 6)"
fi
# A run stopped by a signal (at a step the rows do not fall on, as good as
# surely) and restarted from the checkpoint of its stop: the file is the
# uninterrupted run's.  The stopped run is too long to end by itself (a
# run of 300000 steps took 0.1 s, one poll of wait_for, and sometimes
# ended before the signal); the uninterrupted one ends three rows past
# the stop, where the restart ends too.
long='-g 16 -L 1 -a 1e-4 --dt 0.002'
"$HEATSIM" -q $long -n 1000000000 --checkpoint-every 1000000000 \
  --output-dir sig --monitor sig.csv --monitor-every 1000 >/dev/null \
  2>sig.err &
pid=$!
three_rows () {
  [ "$(lines sig.csv)" -ge 4 ]
}
wait_for $pid three_rows
kill -TERM $pid
wait $pid
status=$?
at=$(sed -n 's/.*stopped after step \([0-9]*\).*/\1/p' sig.err)
if [ "$status" -ne 143 ] || [ -z "$at" ]; then
  fail "SIGTERM: status $status, expected 143: $(cat sig.err)"
else
  end=$(((at / 1000 + 3) * 1000))
  "$HEATSIM" -q $long -n "$end" --monitor sig-full.csv --monitor-every 1000 \
    >/dev/null
  if expect_status 0 "$HEATSIM" -q --restart "sig/heatsim-$(printf %06d "$at").h5" \
       -n $((end - at)) --monitor sig.csv --monitor-every 1000; then
    cmp -s sig-full.csv sig.csv \
      || fail "restart after SIGTERM at $at: $(diff sig-full.csv sig.csv | head -n 6)"
  fi
fi
# A Jacobi restart keeps the largest change of the sweep it restarts from.
jacobi='-p plate --steady --solver jacobi -g 32 --residual-every 7'
"$HEATSIM" -q $jacobi --monitor jacobi-full.csv --monitor-every 10 >/dev/null
expect_status 4 "$HEATSIM" -q $jacobi --max-steps 45 --checkpoint-every 20 \
  --output-dir jacobi --monitor jacobi.csv --monitor-every 10
if expect_status 0 "$HEATSIM" -q --steady --residual-every 7 \
     --restart jacobi/heatsim-000040.h5 --monitor jacobi.csv --monitor-every 10; then
  cmp -s jacobi-full.csv jacobi.csv \
    || fail "Jacobi restart at 40: $(diff jacobi-full.csv jacobi.csv | head -n 6)"
fi
# An empty file (killed before its header) is continued from scratch.
: >empty.csv
if expect_status 0 "$HEATSIM" -q --restart part/heatsim-000100.h5 -n 50 \
     --monitor empty.csv --monitor-every 50; then
  [ "$(head -n 1 empty.csv)" = "$header" ] || fail "empty.csv: no header"
  [ "$(cut -d, -f1 empty.csv | tail -n +2 | tr '\n' ' ')" = "100 150 " ] \
    || fail "empty.csv: rows $(cut -d, -f1 empty.csv | tr '\n' ' ')"
fi
# ... and a file that is not a monitor file is left alone.
echo 'my notes' >notes.csv
refused "--monitor: notes.csv exists and is not a heatsim monitor file" \
  --restart part/heatsim-000100.h5 -n 10 --monitor notes.csv
[ "$(cat notes.csv)" = 'my notes' ] || fail "notes.csv changed"

# Refusals, before the first step: nothing is overwritten or created.
echo 'earlier run' >old.csv
refused "--monitor: old.csv exists; heatsim does not overwrite it" \
  -g 8 -n 1 --monitor old.csv
[ "$(cat old.csv)" = 'earlier run' ] || fail "old.csv changed"
mkdir adir
refused "--monitor: adir is a directory" -g 8 -n 1 --monitor adir
refused "--monitor: part/heatsim-000100.h5 is the input file" \
  --restart part/heatsim-000100.h5 -n 1 --monitor part/heatsim-000100.h5
refused "--monitor: heatsim-000010.png would be overwritten" \
  -g 8 -n 20 --png-every 10 --monitor heatsim-000010.png
[ -e heatsim-000010.png ] && fail "a refused run wrote a snapshot"
refused "--monitor: xmfdir/heatsim.xmf would be overwritten" \
  -g 8 -n 20 --checkpoint-every 10 --output-dir xmfdir --monitor xmfdir/heatsim.xmf
refused "--monitor: no/such/dir.csv: cannot create" -g 8 -n 1 \
  --monitor no/such/dir.csv
refused "--monitor-every: only with --monitor" -g 8 -n 1 --monitor-every 5
refused "--monitor-every: " -g 8 -n 1 --monitor x.csv --monitor-every 0
refused "--monitor: empty file name" -g 8 -n 1 --monitor ''
[ -e x.csv ] && fail "a refused run created x.csv"
if [ "$(id -u)" -ne 0 ]; then
  mkdir ro && chmod a-w ro
  refused "--monitor: ro/m.csv: cannot create" -g 8 -n 1 --monitor ro/m.csv
fi

# Progress lines on stderr show the step and the simulated time, at the
# interval of --progress-every; 0 and -q turn them off.
expect_status 0 "$HEATSIM" -g 128 -L 1 -a 1e-5 -n 3000 -T 3 --progress-every 0.001
grep -q '^heatsim: step [0-9]* of 3000 ([0-9]*%), t = [0-9.e+-]*, ' "$workdir/err" \
  || fail "no progress line with the time: $(head -n 3 "$workdir/err")"
expect_status 0 "$HEATSIM" -p plate --steady --solver jacobi -g 64 --progress-every 0.001
grep -q '^heatsim: sweep [0-9]*' "$workdir/err" || fail "no steady progress line"
expect_status 0 "$HEATSIM" -g 64 -L 1 -a 1e-5 -n 3000 -T 3 --progress-every 0
[ -s "$workdir/err" ] && fail "--progress-every 0: $(head -n 2 "$workdir/err")"
expect_status 0 "$HEATSIM" -q -g 128 -L 1 -a 1e-5 -n 3000 -T 3 --progress-every 0.001
[ -s "$workdir/err" ] && fail "-q: $(head -n 2 "$workdir/err")"
refused "--progress-every: '-1' is negative" --progress-every -1
refused "--progress-every: " --progress-every soon

finish
