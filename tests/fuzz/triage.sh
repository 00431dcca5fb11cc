#!/bin/sh
# triage.sh FUZZER DIR: replay each crash, leak or oom artifact in DIR and
# sort it by where the report points.  A report whose first frame outside
# the sanitizer's own interceptors lies in libhdf5 or libpng is a library
# finding: listed, kept as a regression input, not fatal (heatsim refuses
# those files cleanly outside ASan; tests/fuzz-regressions.sh checks it).
# Anything else is a heatsim bug: exit 1.
fuzzer=$1
dir=$2
status=0
for f in "$dir"/crash-* "$dir"/leak-* "$dir"/oom-*; do
  [ -e "$f" ] || continue
  if ASAN_OPTIONS=allocator_may_return_null=1 "$fuzzer" "$f" \
       >"$f.replay" 2>&1; then
    echo "did not reproduce (a timing or memory-pressure effect): $f"
    continue
  fi
  frame=$(grep -E '^ *#[0-9]+ 0x' "$f.replay" \
    | grep -v -E ' in (fuzzer::|__interceptor_|__asan|__sanitizer|__lsan|memcpy|memmove|memset|malloc|calloc|realloc|free|aligned_alloc|strlen|strcmp|strncmp)' \
    | head -n 1)
  case $frame in
    *libhdf5*|*libpng*)
      echo "library finding: $f:$frame" ;;
    *)
      echo "HEATSIM BUG: $f:$frame"
      status=1 ;;
  esac
done
exit $status
