#!/bin/sh
# heatsim --help and the manual page list the same long options.
. "${srcdir:-.}/tests/testlib.sh"

expect_status 0 "$HEATSIM" --help
grep -o -e '--[a-z][a-z-]*' "$workdir/out" | sort -u >"$workdir/help"
# In the man page options are bold, with roff's escaped minus: \fB\-\-name.
sed 's/\\-/-/g' "${srcdir:-.}/man/heatsim.1" | grep -o -e '\\fB--[a-z][a-z-]*' \
  | sed 's/^\\fB//' | sort -u >"$workdir/man"
[ -s "$workdir/help" ] || fail "no options found in --help"
[ -s "$workdir/man" ] || fail "no options found in the man page"
diff "$workdir/help" "$workdir/man" >"$workdir/diff" \
  || fail "--help and man/heatsim.1 differ: $(cat "$workdir/diff")"
pass
finish
