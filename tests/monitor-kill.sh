#!/bin/sh
# A run killed between a checkpoint and its monitor row: the checkpoint
# on disk has its row, and a restart from it continues the monitor to
# the uninterrupted run's file, row for row, with no row twice.
#
# tests/killrename.so kills heatsim with SIGKILL at the rename(2) that
# puts a chosen checkpoint in place, just after it or instead of it: the
# two edges of the window between a checkpoint and its row, each hit
# every time (a kill from outside lands anywhere).  Written after the
# checkpoint, the row was lost to a kill just after its rename, and the
# restart wrote it again without what only the killed run knew: the
# stored heat's rate over the step before, Jacobi's largest change of
# the sweep.  Its log shows the order of renames and fsyncs: the rows
# reach the disk before the checkpoint of their step is renamed into
# place, so that a crash of the machine cannot part them either.
. "${srcdir:-.}/tests/testlib.sh"
: "${KILLRENAME:?KILLRENAME must name tests/killrename.so}"

run='-g 32 -L 1 -a 1e-4 --dt 0.002'
# shellcheck disable=SC2086
"$HEATSIM" -q $run -n 300 --monitor full.csv --monitor-every 50 >/dev/null \
  || fail "the uninterrupted run failed"

# killed WHEN NAME DIR ARGS...: heatsim ARGS --output-dir DIR, killed at
# the rename of DIR/NAME (WHEN: after or before it).
killed () {
  _when=$1 _name=$2 _dir=$3
  shift 3
  expect_status 137 env KILLRENAME_NAME="$_name" KILLRENAME_WHEN="$_when" \
    LD_PRELOAD="$KILLRENAME" "$HEATSIM" -q "$@" --output-dir "$_dir"
}

# Killed just after the checkpoint of step 200 is in place: the row of
# step 200 is there, as the uninterrupted run has it, stored heat's rate
# included; the restart from that checkpoint writes it not again.
# shellcheck disable=SC2086
if killed after heatsim-000200.h5 after $run -n 300 --checkpoint-every 100 \
     --monitor after.csv --monitor-every 50; then
  [ -f after/heatsim-000200.h5 ] || fail "after the rename: no checkpoint"
  [ "$(grep '^200,' after.csv)" = "$(grep '^200,' full.csv)" ] \
    || fail "after the rename: row 200 '$(grep '^200,' after.csv)', expected '$(grep '^200,' full.csv)'"
  if expect_status 0 "$HEATSIM" -q --restart after/heatsim-000200.h5 -n 100 \
       --monitor after.csv --monitor-every 50; then
    cmp -s full.csv after.csv \
      || fail "restart after the rename: $(diff full.csv after.csv | head -n 6)"
  fi
fi

# Killed instead of that rename: row 200 may be there, its checkpoint is
# not; the restart from step 100 drops the rows after it and writes them
# again, once.
# shellcheck disable=SC2086
if killed before heatsim-000200.h5 before $run -n 300 --checkpoint-every 100 \
     --monitor before.csv --monitor-every 50; then
  [ -f before/heatsim-000200.h5 ] && fail "before the rename: a checkpoint"
  if expect_status 0 "$HEATSIM" -q --restart before/heatsim-000100.h5 -n 200 \
       --monitor before.csv --monitor-every 50; then
    cmp -s full.csv before.csv \
      || fail "restart before the rename: $(diff full.csv before.csv | head -n 6)"
  fi
fi

# Jacobi: the row of the checkpoint's sweep keeps its largest change.
jacobi='-p plate --steady --solver jacobi -g 32 --residual-every 7'
# shellcheck disable=SC2086
"$HEATSIM" -q $jacobi --monitor jacobi-full.csv --monitor-every 10 \
  >/dev/null || fail "the uninterrupted Jacobi run failed"
# shellcheck disable=SC2086
if killed after heatsim-000040.h5 jacobi $jacobi --checkpoint-every 20 \
     --monitor jacobi.csv --monitor-every 10; then
  [ "$(grep '^40,' jacobi.csv)" = "$(grep '^40,' jacobi-full.csv)" ] \
    || fail "Jacobi after the rename: row 40 '$(grep '^40,' jacobi.csv)', expected '$(grep '^40,' jacobi-full.csv)'"
  if expect_status 0 "$HEATSIM" -q --steady --residual-every 7 \
       --restart jacobi/heatsim-000040.h5 --monitor jacobi.csv \
       --monitor-every 10; then
    cmp -s jacobi-full.csv jacobi.csv \
      || fail "Jacobi restart after the rename: $(diff jacobi-full.csv jacobi.csv | head -n 6)"
  fi
fi

# The order on disk: after the first checkpoint (the initial field's,
# whose row holds nothing a restart cannot compute again), the monitor
# is flushed after each checkpoint's rename and before the next: every
# row of a step reaches the disk before the checkpoint of that step is
# renamed into place.
mkdir order
# shellcheck disable=SC2086
if expect_status 0 env KILLRENAME_LOG="$workdir/order.log" \
     LD_PRELOAD="$KILLRENAME" "$HEATSIM" -q $run -n 300 \
     --checkpoint-every 100 --output-dir order --monitor order/m.csv \
     --monitor-every 50; then
  awk '
    $1 == "rename" && $2 ~ /heatsim-[0-9]+\.h5$/ {
      if (renames++ > 0 && !flushed) { print "no fsync of the monitor before " $2; bad = 1 }
      flushed = 0
    }
    $1 == "fsync" && $2 ~ /\/m\.csv$/ { flushed = 1 }
    END { if (renames != 4) { print renames " checkpoint renames, not 4"; bad = 1 }
          exit bad }' "$workdir/order.log" >"$workdir/order.out" \
    || fail "order: $(cat "$workdir/order.out"): $(tr '\n' ';' <"$workdir/order.log")"
fi
finish
