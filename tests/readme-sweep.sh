#!/bin/sh
# The README's parameter sweep ("Looking at results"), run as written
# with GNU parallel and jq: every point of the alpha x grid sweep runs
# with --steps auto and gives a stable CSV row; a failing point still
# gives its row, with status and error.  Its case-file variant gives the
# same rows.
. "${srcdir:-.}/tests/testlib.sh"

if ! parallel --version 2>/dev/null | grep -q '^GNU parallel' \
   || ! command -v jq >/dev/null 2>&1; then
  echo "GNU parallel or jq not found: skipped"
  exit 77
fi
sed -n '/^<!-- begin sweep/,/^<!-- end sweep/p' "$srcdir/README" \
  | sed -n 's/^    //p' >sweep.sh
grep -q 'steps auto' sweep.sh || fail "no sweep found in README"
PATH=$(dirname "$HEATSIM"):$PATH
export PATH

# rows STATUS: the data rows of sweep.csv with that status.
rows () {
  awk -F, -v s="\"$1\"" 'NR > 1 && $3 == s' sweep.csv
}

expect_status 0 sh sweep.sh
[ "$(head -n 1 sweep.csv)" = \
  '"alpha","grid","status","steps","dt","stability","max","time_solve","error"' ] \
  || fail "header: $(head -n 1 sweep.csv)"
[ "$(rows ok | wc -l)" -eq 9 ] && [ "$(wc -l <sweep.csv)" -eq 10 ] \
  || fail "not 9 good rows: $(cat sweep.csv)"
# Each point: stable, and its steps the fewest (one fewer is unstable).
rows ok | awk -F, '{ if (!($6 <= 0.5 && ($4 == 1 || $6 * $4 / ($4 - 1) > 0.5))) bad = bad " " $0 }
                   END { if (bad != "") { print bad; exit 1 } }' >bad \
  || fail "rows not the fewest stable steps: $(cat bad)"
for a in 0.25 0.5 1; do
  for g in 32 64 128; do
    grep -q "^\"$a\",\"$g\",\"ok\"," sweep.csv || fail "no row for alpha $a, grid $g"
  done
done

# The case-file variant: the same rows but for the timings.
sed -n '/^<!-- begin case sweep/,/^<!-- end case sweep/p' "$srcdir/README" \
  | sed -n 's/^    //p' >case-sweep.sh
grep -q 'case disk.case' case-sweep.sh || fail "no case-file sweep found in README"
expect_status 0 sh case-sweep.sh
cut -d, -f1-7,9 sweep.csv >rows
cut -d, -f1-7,9 sweep-case.csv >case-rows
[ "$(wc -l <case-rows)" -eq 10 ] && cmp -s rows case-rows \
  || fail "the case-file sweep differs: $(diff rows case-rows)"

# A point that fails is a row too, with its parameters and message.
sed 's/::: 32 64 128/::: 32 0/' sweep.sh >fail.sh
cmp -s sweep.sh fail.sh && fail "could not vary the sweep"
expect_status 0 sh fail.sh
[ "$(rows usage_error | grep -c "^\"[0-9.]*\",\"0\",.*,\"--grid: '0' must be at least 1\"$")" -eq 3 ] \
  && [ "$(rows ok | wc -l)" -eq 3 ] || fail "failed points: $(cat sweep.csv)"
finish
