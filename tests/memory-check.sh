#!/bin/sh
# The host memory check counts the arrays a run allocates, not only its two
# grids: at a size whose two grids take 40 % of MemAvailable, runs that
# hold many more grid-sized arrays (a varying material's explicit step, an
# implicit multigrid step, a steady black box multigrid solve) are refused
# with exit 2 before allocating, and write nothing.  Only refusals run at
# such sizes; ulimit -v keeps a run that got past the check from taking
# the machine's memory (it fails to allocate instead, exit 1).
. "${srcdir:-.}/tests/testlib.sh"

# A sanitizer reserves terabytes of address space for its shadow memory,
# which ulimit -v forbids.
if [ -n "${HEATSIM_SANITIZED:-}" ]; then
  echo "SKIP: ulimit -v and the sanitizers' shadow memory do not mix"
  exit 77
fi
kib=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
if [ -z "$kib" ]; then
  echo "SKIP: no MemAvailable in /proc/meminfo"
  exit 77
fi
# Two padded n x n grids of doubles: 16 (n + 2)^2 bytes = 40 % of it.
n=$(awk -v k="$kib" 'BEGIN { printf "%d", sqrt(0.4 * k * 1024 / 16) - 2 }')
ulimit -v $((kib / 2)) || exit 99

mkdir "$workdir/run" && cd "$workdir/run" || exit 99
refused_early () {
  what=$1
  shift
  refused "^heatsim: --grid: ${n}x${n} needs [0-9.]* GiB for $what; only [0-9.]* GiB are available$" \
    -g "$n" --png-every 1 "$@"
  [ -z "$(ls -A)" ] || fail "'$*' left files: $(ls -A)"
}
refused_early "an explicit run (fields, material, material step)" \
  --source 1 -n 1 --force
refused_early "an implicit multigrid run (fields, levels)" \
  --scheme backward-euler -n 1
refused_early "a steady black box multigrid run (fields, material, operator, levels)" \
  --steady --source 1

finish
