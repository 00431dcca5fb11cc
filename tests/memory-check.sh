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
# needs: "needs at least" where a map or source is given (the count
# before it is read, derive.c), "needs" where none is (main's count).
refused_early () {
  needs=$1
  what=$2
  shift 2
  refused "^heatsim: --grid: ${n}x${n} $needs [0-9.]* GiB for $what; only [0-9.]* GiB are available$" \
    -g "$n" --png-every 1 "$@"
  [ -z "$(ls -A)" ] || fail "'$*' left files: $(ls -A)"
}
refused_early "needs at least" \
  "an explicit run (fields, material, material step)" --source 1 \
  --thickness 1 --surface-convection 1,0 -n 1 --force
# A uniform source in a uniform material steps by the constant stencil,
# without the variable step's arrays: counted as fields and material
# (two grids take 60 % here).
n3=$(awk -v k="$kib" 'BEGIN { printf "%d", sqrt(0.6 * k * 1024 / 16) - 2 }')
refused "^heatsim: --grid: ${n3}x${n3} needs at least [0-9.]* GiB for an explicit run (fields, material); only [0-9.]* GiB are available$" \
  -g "$n3" --png-every 1 --source 1 -n 1 --force
[ -z "$(ls -A)" ] || fail "the uniform source's refusal left files: $(ls -A)"
refused_early needs "an implicit multigrid run (fields, levels)" \
  --scheme backward-euler -n 1
refused_early "needs at least" \
  "a steady multigrid run (fields, material, source, levels)" \
  --steady --source 1
refused_early "needs at least" \
  "a steady black box multigrid run (fields, material, operator, levels)" \
  --steady --source 1 --thickness 1 --surface-convection 1,0
# Before any map is read or source grid made: a run that could not fit
# even if every map were uniform is refused first (a 20000^2 steady run
# with --source 1 held a 3 GB source grid for 6 s before the refusal;
# at 50000^2, 19.5 GB for 41 s), here before the map it names is opened.
refused_early "needs at least" \
  "a steady multigrid run (fields, material, source, levels)" \
  --steady --source-map absent.h5
refused_early "needs at least" \
  "a steady black box multigrid run (fields, material, operator, levels)" \
  --steady --material-map absent.h5 --source 1 --edges 0,0,0,0 \
  --surface-convection 1,0 --thickness 1
# ... with the memory check's status in --json.
if expect_status 2 "$HEATSIM" -q --json -g "$n" --steady --source-map absent.h5
then
  grep -q '"status": *"too_large"' "$workdir/out" \
    || fail "--json: the early refusal's status is not too_large: $(cat "$workdir/out")"
fi
[ -z "$(ls -A)" ] || fail "the --json refusal left files: $(ls -A)"
# A run that the early count lets through reaches main's check, which
# counts what the maps and sources decided, exactly: a source of 1e-300
# (q/k beyond the geometric multigrid's range) takes the black box
# multigrid.  Two grids here take 10 % of MemAvailable.
n2=$(awk -v k="$kib" 'BEGIN { printf "%d", sqrt(0.1 * k * 1024 / 16) - 2 }')
refused "^heatsim: --grid: ${n2}x${n2} needs [0-9.]* GiB for a steady black box multigrid run (fields, material, operator, levels); only [0-9.]* GiB are available$" \
  -g "$n2" --png-every 1 --steady --source 1e-300
[ -z "$(ls -A)" ] || fail "the late refusal left files: $(ls -A)"

# A map that declares a size whose reading cannot fit is refused from its
# header, before any value is decoded: a 30000 x 30000 PNG of 875 kB took
# 21 GB here (its pixels and their keys, then the keys, k and rho c_p:
# three grid-sized arrays) where the check counted two.  The map's two
# grids take 90 % of MemAvailable, so that its three cannot fit.  The
# PNG's IDAT is as long as deflate needs for its pixels and is never
# inflated; the HDF5 map's 'material' is chunked and never written, a
# dataset of fill values, which the check before it (two grids) let
# heatsim read whole.
if py=$(command -v python3); then
  m=$(awk -v k="$kib" 'BEGIN { printf "%d", sqrt(0.9 * k * 1024 / 16) - 2 }')
  "$py" "$srcdir/tests/png_file.py" huge.png "$m" "$m" || exit 99
  refused "^heatsim: --material-map: huge.png: not a usable PNG image: a ${m}x${m} map needs [0-9]* bytes for [0-9] grids; only [0-9]* are available$" \
    --material-map huge.png --material 0=copper -n 1
  [ "$(ls -A)" = huge.png ] || fail "the refused map left files: $(ls -A)"
  rm huge.png
  h5py=
  for p in /usr/bin/python3 python3; do
    "$p" -c 'import h5py' 2>/dev/null && { h5py=$p; break; }
  done
  if [ -n "$h5py" ]; then
    "$h5py" - "$m" <<'PY' || exit 99
import sys, h5py
m = int(sys.argv[1])
with h5py.File("huge.h5", "w") as f:
    f.create_dataset("material", (m, m), dtype="i8", chunks=(256, 256),
                     fillvalue=0)
PY
    refused "^heatsim: --material-map: huge.h5: a ${m} x ${m} map needs [0-9]* bytes for [0-9] grids; only [0-9]* are available$" \
      --material-map huge.h5 --material 0=copper -n 1
    [ "$(ls -A)" = huge.h5 ] || fail "the refused map left files: $(ls -A)"
  else
    echo "no python3 with h5py: the HDF5 map is not tried"
  fi
fi

finish
