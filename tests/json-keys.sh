#!/bin/sh
# The keys heatsim --json prints are the keys man/heatsim.1 documents
# under JSON REPORT, both ways: every key printed in some mode is
# documented, every documented key is printed in some mode, each object
# keeps the documented order, and a failure prints exactly the first
# nine (schema_version to mpi).
. "${srcdir:-.}/tests/testlib.sh"

command -v jq >/dev/null 2>&1 || { echo "jq not found: skipped"; exit 77; }

# The list: a .TP paragraph whose tag is ".B key", in that section only.
sed -n '/^\.SH "JSON REPORT"/,/^\.SH [^"]/p' "$srcdir/man/heatsim.1" \
  | awk 'prev == ".TP" && /^\.B [a-z0-9_]+$/ { print $2 } { prev = $0 }' \
  >"$workdir/documented"
[ "$(wc -l <"$workdir/documented")" -ge 50 ] \
  || fail "man page: only $(wc -l <"$workdir/documented") keys found"
head -n 9 "$workdir/documented" >"$workdir/failure-keys"

: >"$workdir/printed"
# mode WANT_EXIT ARGS...: heatsim -q --json ARGS; its keys join the
# printed ones and must come in the documented order.
mode () {
  _want=$1
  shift
  expect_status "$_want" "$HEATSIM" -q --json "$@" || return
  jq -r 'keys_unsorted[]' "$workdir/out" >"$workdir/keys" \
    || { fail "'$*': not JSON: $(cat "$workdir/out")"; return; }
  cat "$workdir/keys" >>"$workdir/printed"
  # Documented order: the printed keys are a subsequence of the list.
  awk 'NR == FNR { rank[$1] = NR; next }
       ($1 in rank) { if (rank[$1] < last) bad = $1; last = rank[$1] }
       END { if (bad != "") { print bad; exit 1 } }' \
    "$workdir/documented" "$workdir/keys" >"$workdir/order" \
    || fail "'$*': key $(cat "$workdir/order") out of the documented order"
}

# A failure prints the failure keys, no more, no fewer.
failure () {
  mode "$@"
  cmp -s "$workdir/keys" "$workdir/failure-keys" \
    || fail "'$*': failure object keys: $(tr '\n' ' ' <"$workdir/keys")"
}

mode 0 -g 16 -n 3                                   # time-dependent, exact
mode 0 -p disk -g 16 -L 1 -a 1 -T 1e-3 --steps auto # no exact solution
mode 0 -p plate -s --solver jacobi -g 16 --tol 1    # steady, Jacobi
mode 4 -p plate -s --solver jacobi -g 16 --max-steps 10   # not converged
mode 0 -p plate -s -g 16                            # steady, multigrid
mode 0 -g 16 -n 3 --scheme crank-nicolson           # implicit steps
mode 0 -g 16 -n 3 -o resident --bench               # target kernels, --bench
failure 2 --steps 0                                 # refused option
failure 2 --init "$workdir/missing.h5"              # bad file
failure 5 -g 64 -L 65 -a 1 --dt 0.3 --force -n 100000   # NaN

sort -u "$workdir/printed" >"$workdir/printed.set"
sort -u "$workdir/documented" >"$workdir/documented.set"
comm -23 "$workdir/printed.set" "$workdir/documented.set" >"$workdir/undoc"
comm -13 "$workdir/printed.set" "$workdir/documented.set" >"$workdir/unseen"
[ -s "$workdir/undoc" ] \
  && fail "printed but not in man/heatsim.1 JSON REPORT: $(tr '\n' ' ' <"$workdir/undoc")"
[ -s "$workdir/unseen" ] \
  && fail "documented but printed in no mode: $(tr '\n' ' ' <"$workdir/unseen")"
[ "$(sort "$workdir/documented" | uniq -d)" = "" ] \
  || fail "documented twice: $(sort "$workdir/documented" | uniq -d)"
pass
finish
