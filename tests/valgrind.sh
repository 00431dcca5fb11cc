#!/bin/sh
# valgrind memcheck finds no invalid access and no leak (definite or
# indirect) in a short run that writes PNG snapshots and HDF5 checkpoints
# and in a restart from one.  Skipped where valgrind is missing and in
# sanitizer builds (HEATSIM_SANITIZED), which check the same with ASan.
. "${srcdir:-.}/tests/testlib.sh"
: "${FAILWRITE:?FAILWRITE must name tests/failwrite.so}"
if ! command -v valgrind >/dev/null 2>&1 || [ -n "${HEATSIM_SANITIZED:-}" ]; then
  echo "valgrind not found or sanitizer build: skipped"
  exit 77
fi
vg="valgrind -q --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite,indirect
    --show-leak-kinds=definite,indirect
    --suppressions=${srcdir:-.}/tests/ldso.supp"
# Resolve every symbol at start-up: glibc's lazy-binding trampoline saves
# vector state in a way memcheck misreads on some CPUs (tests/ldso.supp).
LD_BIND_NOW=1
# memcheck runs one thread at a time anyway; one OpenMP thread keeps the
# runs short and the main thread's stack the only one in play (memcheck
# once flagged snprintf's own frame on it, not reproducibly).
OMP_NUM_THREADS=1
export LD_BIND_NOW OMP_NUM_THREADS
# An MPI build also runs Open MPI, whose start-up allocations live until
# exit: leave those out, deep stacks included.
if "$HEATSIM" --version | grep -q '^MPI: yes'; then
  vg="$vg --num-callers=50 --suppressions=$srcdir/tests/openmpi.supp"
fi
# So does the offload runtime once it has a device (the host plugin).
if host_plugin; then
  vg="$vg --num-callers=50 --suppressions=$srcdir/tests/omptarget.supp"
fi

expect_status 0 $vg "$HEATSIM" -q -p plate -g 48x32 -n 20 -T 2000 \
  --png-every 10 --checkpoint-every 10 --output-dir "$workdir/vg"
expect_status 0 $vg "$HEATSIM" -q --restart "$workdir/vg/heatsim-000020.h5" \
  -n 5 --png-every 5 --png-depth 16 --png-legend --png-scale 3 \
  --output-dir "$workdir/vg2"
expect_status 0 $vg "$HEATSIM" -q --init "${srcdir:-.}/data/ring-and-bar.png" \
  -L 2x1 -a 1 -T 0.0001 -n 5
expect_status 2 $vg "$HEATSIM" -q --restart "$workdir/vg/heatsim.xmf"
# Failing writes (tests/failwrite.so, as on a full disk): of a
# checkpoint, of the XDMF index after it, and of a PNG snapshot, at step 0
# (before the time loop), and of a checkpoint in the loop.
for fault in "1 --checkpoint-every" "2 --checkpoint-every" "1 --png-every" \
    "3 --checkpoint-every"; do
  set -- $fault
  expect_status 1 env FAILWRITE_AT="$1" FAILWRITE_DIR="$workdir/full" \
    LD_PRELOAD="$FAILWRITE" $vg "$HEATSIM" -q -p plate -g 48x32 -n 4 \
    -T 2000 "$2" 2 --output-dir "$workdir/full/$1$2"
done
finish
