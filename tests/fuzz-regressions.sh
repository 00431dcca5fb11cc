#!/bin/sh
# Every input that made a fuzzer fail (tests/fuzz/regressions) is refused
# cleanly by heatsim, as --restart and as --init: status 2, one message.
. "${srcdir:-.}/tests/testlib.sh"
: "${H5_FIXTURES:?H5_FIXTURES must name tests/h5_fixtures}"

for f in "$srcdir"/tests/fuzz/regressions/*; do
  # Inputs named *libhdf5* trip memory errors inside libhdf5 1.10.8 itself,
  # which ASan reports however heatsim handles the outcome: they are
  # checked in the plain build only.
  case $(basename "$f") in
    *libhdf5*) [ -n "${HEATSIM_SANITIZED:-}" ] && continue ;;
  esac
  for opt in --restart --init; do
    refused "$(basename "$f"): " $opt "$f"
  done
done
# A damaged file sealed anew (the seal is a checksum anyone can compute):
# libhdf5 crashed reading h5-libhdf5-sealed-1 in heatsim itself (status
# 139), because a seal spared the test read in a child; the loop above
# refuses it now.  tests/fuzz/hangs/h5-sealed-hang-1 hangs libhdf5 in
# its strings (refused after the test read's 60 s): SIGTERM during that
# read ends heatsim at once with status 143, the child with it (before,
# heatsim spun in libhdf5 itself, and only SIGKILL ended it).
hang=$srcdir/tests/fuzz/hangs/h5-sealed-hang-1
for opt in --restart --init; do
  "$HEATSIM" -q $opt "$hang" -n 1 >/dev/null 2>&1 &
  pid=$!
  sleep 2
  kill -TERM "$pid"
  # Still running 20 s on: a failure, and SIGKILL ends it.
  tenths=0
  while kill -0 "$pid" 2>/dev/null && [ $tenths -lt 200 ]; do
    sleep 0.1
    tenths=$((tenths + 1))
  done
  kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "$opt h5-sealed-hang-1: SIGTERM did not end heatsim"; }
  wait "$pid"
  got=$?
  checks=$((checks + 1))
  [ "$got" -eq 143 ] || fail "$opt h5-sealed-hang-1, SIGTERM: status $got, expected 143"
done

# The first fuzz_h5 finding: a tiny file whose dataset claims 7 x 117440521
# values made heatsim allocate 6.5 GB before reading.  A dataset never
# written holds its fill value (HDF5 reads it so, tests/h5-storage.sh),
# so such a file is a field as large as it claims: one of 2^24 x 2^24
# values (2 PB) is refused before allocation by the memory check, at
# once.  A dataset whose storage is smaller than its values is damaged
# (tests/fuzz/regressions).
"$H5_FIXTURES" "$workdir" || fail "fixtures"
refused "huge.h5: a 16777214 x 16777214 field needs [0-9]* bytes for two grids; only [0-9]* are available" \
  --init "$workdir/huge.h5"
# A fuzz_png finding: a 247-byte PNG whose text chunk claims 1.3 GB made
# libpng allocate and clear that much before failing.  heatsim now skips
# text chunks: refused with a small footprint (peak memory, where
# /usr/bin/time can tell; sanitizers change the footprint).
if [ -x /usr/bin/time ] && [ -z "${HEATSIM_SANITIZED:-}" ]; then
  /usr/bin/time -f %M -o "$workdir/kb" "$HEATSIM" -q --init \
    "$srcdir/tests/fuzz/regressions/png-text-length" >/dev/null 2>&1
  kb=$(tail -n 1 "$workdir/kb")
  checks=$((checks + 1))
  [ "$kb" -lt 200000 ] \
    || fail "png-text-length: peak memory $kb KiB, expected under 200000"
fi
finish
