#!/bin/sh
# heatsim --help (printed from the program's table of options) and the
# manual page list the same long options, and each option the same way:
# its short name, and whether it takes a value.
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

# Each option's heading, as '[-X ]--name [=]': in --help the lines that
# define one, in the man page the line after each .TP.
sed -n -E 's/^  (-[A-Za-z]), /\1 /p; s/^      (--)/\1/p' "$workdir/out" \
  | sed -E 's/^(-[A-Za-z] )?(--[a-z-]+)(=?).*/\1\2 \3/' | sort >"$workdir/help-heads"
awk 'prev == ".TP" { print } { prev = $0 }' "${srcdir:-.}/man/heatsim.1" \
  | sed 's/\\-/-/g' | grep -e '^\\fB--' -e '^\\fB-[A-Za-z]\\fR, ' \
  | sed -E 's/\\f[BIR]//g' \
  | sed -E 's/^(-[A-Za-z]), /\1 /; s/^(-[A-Za-z] )?(--[a-z-]+)(=?).*/\1\2 \3/' \
  | sort >"$workdir/man-heads"
[ "$(wc -l <"$workdir/help-heads")" -eq "$(wc -l <"$workdir/help")" ] \
  || fail "--help: $(wc -l <"$workdir/help-heads") option headings for $(wc -l <"$workdir/help") options"
diff "$workdir/help-heads" "$workdir/man-heads" >"$workdir/diff" \
  || fail "short names or values differ (< --help, > man/heatsim.1): $(cat "$workdir/diff")"
pass
finish
