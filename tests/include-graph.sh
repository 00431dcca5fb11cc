#!/bin/sh
# The modules of src/ form layers: a file includes only files below it.
# Derive the graph of modules (x.c and x.h are module x) from the
# '#include "..."' lines and fail, printing the loop, if it has a cycle.
# tsort(1) finds the loops; the test checks first that it can see one.
. "${srcdir:-.}/tests/testlib.sh"

src=$srcdir/src
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

# One "includer included" pair per line.
for f in "$src"/*.c "$src"/*.h; do
  from=$(basename "$f"); from=${from%.*}
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
    while read -r to; do
      [ "$to" = "$from" ] || [ "$to" = config ] || echo "$from $to"
    done
done >"$edges"

[ -s "$edges" ] || fail "no #include lines found under $src"

# The detector itself: a planted loop must be reported.
printf 'a b\nb c\nc a\n' | tsort >/dev/null 2>&1 \
  && fail "tsort does not report a planted cycle"

if ! loops=$(tsort "$edges" 2>&1 >/dev/null) || [ -n "$loops" ]; then
  echo "include cycle among the modules of src/:" >&2
  echo "$loops" >&2
  exit 1
fi
echo "include graph: $(wc -l <"$edges") edges, $(tr ' ' '\n' <"$edges" | sort -u | wc -l) modules, no cycle"
