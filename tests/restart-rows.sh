#!/bin/sh
# --restart never loses a row of the probe or monitor file it continues:
# a restart whose rows (--probe-every, --monitor-every) or last step
# (--steps) would not write again the rows it drops is refused, status
# 2, before anything is written; the row of the restart step stays
# unless it is the row of a run stopped there at this cadence; with the
# options of the run that wrote the file, the restart still ends with
# the file of the uninterrupted run, also past its last step.
. "${srcdir:-.}/tests/testlib.sh"

# steps FILE: the steps of FILE's rows, on one line.
steps () {
  cut -d, -f1 "$1" | tail -n +2 | tr '\n' ' '
}

# state DIR: every file of DIR and its checksum, to see that a refused
# run wrote nothing.
state () {
  (cd "$1" && ls -A | while read -r f; do cksum "$f"; done)
}

# A probe every step, a checkpoint every step: rows 0 1 2 3 4.
run="-g 16 -L 1 --dt 2.5e-5"
mkdir base six
probe="--probe 0.5,0.5"
expect_status 0 "$HEATSIM" -q $run -n 4 $probe --probe-every 1 \
  --monitor base/mon.csv --monitor-every 1 --checkpoint-every 1 \
  --output-dir base
[ "$(steps base/probes.csv)" = '0 1 2 3 4 ' ] \
  || fail "base probes: $(steps base/probes.csv)"
# The uninterrupted runs to step 6.
expect_status 0 "$HEATSIM" -q $run -n 6 $probe --probe-every 1 \
  --monitor six/mon.csv --monitor-every 1 --output-dir six
expect_status 0 "$HEATSIM" -q $run -n 6 $probe --probe-every 2 \
  --output-dir six2

# fresh DIR: a copy of base to restart in.
fresh () {
  rm -rf "$1" && cp -R base "$1"
}

# The defect: a restart from step 2 at the default cadence (a row every
# 100 steps) dropped rows 2 and 3 of the probe file, never to write them
# again.  Row 2, of the restart step, is now kept; row 3 would be lost:
# refused, naming the cadence's option and the file.
fresh a
before=$(state a)
refused "--probe-file: a/probes.csv: .*row of step 3 .*--probe-every" \
  --restart a/heatsim-000002.h5 -n 2 $probe --checkpoint-every 1 \
  --output-dir a
[ "$(state a)" = "$before" ] || fail "a refused restart changed a/"
# ... and so for the monitor file.
refused "--monitor: a/mon.csv: .*row of step 3 .*--monitor-every" \
  --restart a/heatsim-000002.h5 -n 2 --monitor a/mon.csv \
  --checkpoint-every 1 --output-dir a
[ "$(state a)" = "$before" ] || fail "a refused monitor restart changed a/"
# A row of another cadence dropped is refused as well: every 2 steps
# from step 2 does not write row 3 again.
refused "--probe-file: a/probes.csv: .*row of step 3 .*--probe-every" \
  --restart a/heatsim-000002.h5 -n 4 $probe --probe-every 2 --output-dir a
[ "$(state a)" = "$before" ] || fail "a refused restart (every 2) changed a/"

# A restart that stops before the file's last row would drop the rows
# after its last step: refused, naming --steps.
refused "--probe-file: a/probes.csv: .*row of step 4 .*--steps" \
  --restart a/heatsim-000002.h5 -n 1 $probe --probe-every 1 --output-dir a
refused "--monitor: a/mon.csv: .*row of step 4 .*--steps" \
  --restart a/heatsim-000002.h5 -n 1 --monitor a/mon.csv \
  --monitor-every 1 --output-dir a
[ "$(state a)" = "$before" ] || fail "a refused shorter restart changed a/"

# With the options that wrote them, the restart ends with the files of
# the uninterrupted run: to the old last step, and past it.
fresh b
if expect_status 0 "$HEATSIM" -q --restart b/heatsim-000002.h5 -n 2 $probe \
     --probe-every 1 --monitor b/mon.csv --monitor-every 1 --output-dir b; then
  cmp -s base/probes.csv b/probes.csv \
    || fail "restart at 2 to 4: $(diff base/probes.csv b/probes.csv)"
  cmp -s base/mon.csv b/mon.csv \
    || fail "restart at 2 to 4, monitor: $(diff base/mon.csv b/mon.csv)"
fi
for at in 2 4; do
  fresh c$at
  if expect_status 0 "$HEATSIM" -q --restart "c$at/heatsim-00000$at.h5" \
       -n $((6 - at)) $probe --probe-every 1 --monitor c$at/mon.csv \
       --monitor-every 1 --output-dir c$at; then
    cmp -s six/probes.csv c$at/probes.csv \
      || fail "restart at $at to 6: $(diff six/probes.csv c$at/probes.csv)"
    cmp -s six/mon.csv c$at/mon.csv \
      || fail "restart at $at to 6, monitor: $(diff six/mon.csv c$at/mon.csv)"
  fi
done

# The row of the restart step is the state the run starts from: kept
# where the run has it off its rows, rather than lost.  From step 4,
# the last row, at a row every 100 steps: rows 0 to 4, then 6.
fresh d
if expect_status 0 "$HEATSIM" -q --restart d/heatsim-000004.h5 -n 2 $probe \
     --output-dir d; then
  [ "$(steps d/probes.csv)" = '0 1 2 3 4 6 ' ] \
    || fail "restart at the last row, every 100: $(steps d/probes.csv)"
  head -n 6 d/probes.csv | cmp -s - base/probes.csv \
    || fail "restart at the last row changed the rows before it"
fi
# A row of a run stopped off its rows (every 2 steps, stopped at 5 by
# --steps) is dropped: the uninterrupted run has none there.
expect_status 0 "$HEATSIM" -q $run -n 5 $probe --probe-every 2 \
  --checkpoint-every 2 --output-dir e
[ "$(steps e/probes.csv)" = '0 2 4 5 ' ] \
  || fail "stopped at 5: $(steps e/probes.csv)"
for at in 2 4 5; do
  rm -rf e$at && cp -R e e$at
  if expect_status 0 "$HEATSIM" -q --restart "e$at/heatsim-00000$at.h5" \
       -n $((6 - at)) $probe --probe-every 2 --output-dir e$at; then
    cmp -s six2/probes.csv e$at/probes.csv \
      || fail "restart at $at after a stop at 5: $(diff six2/probes.csv e$at/probes.csv)"
  fi
done
# ... but not a last row off the rows of a file written at another
# cadence: rows 1 and 2 show one, so row 4 is no stopped run's.  From
# step 3 every 3 steps the restart would drop it: refused.
fresh f
before=$(state f)
refused "--probe-file: f/probes.csv: .*row of step 4 .*--probe-every" \
  --restart f/heatsim-000003.h5 -n 3 $probe --probe-every 3 --output-dir f
[ "$(state f)" = "$before" ] || fail "a refused restart changed f/"

# A steady restart runs at most --max-steps sweeps: rows after that are
# refused with it named.
jacobi='-p plate --steady --solver jacobi -g 32 --residual-every 7'
mkdir j
expect_status 4 "$HEATSIM" -q $jacobi --max-steps 45 --checkpoint-every 20 \
  --output-dir j --monitor j/mon.csv --monitor-every 10
before=$(state j)
refused "--monitor: j/mon.csv: .*rows of steps 40 to 45 (2 rows).*step 30 at the latest (--max-steps)" \
  --steady --residual-every 7 --restart j/heatsim-000020.h5 --max-steps 10 \
  --monitor j/mon.csv --monitor-every 10
[ "$(state j)" = "$before" ] || fail "a refused steady restart changed j/"

# A file's first row is the start of the run that wrote it: a restart
# there keeps it, off its rows or not.  A restart from 2 every 3 steps
# into a new file, rows 2 3 4, restarted again from 2, is the same file.
fresh g
if expect_status 0 "$HEATSIM" -q --restart g/heatsim-000002.h5 -n 2 $probe \
     --probe-every 3 --probe-file g/new.csv --output-dir g; then
  [ "$(steps g/new.csv)" = '2 3 4 ' ] || fail "new file: $(steps g/new.csv)"
  cp g/new.csv g/want.csv
  if expect_status 0 "$HEATSIM" -q --restart g/heatsim-000002.h5 -n 2 \
       $probe --probe-every 3 --probe-file g/new.csv --output-dir g; then
    cmp -s g/want.csv g/new.csv \
      || fail "restart at the file's first row: $(diff g/want.csv g/new.csv)"
  fi
fi

finish
