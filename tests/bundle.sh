#!/bin/sh
# The relocatable bundle (make bundle) runs from anywhere, loads the
# OpenMP offload runtime from its own lib/ directory, and here, with no
# GPU, falls back to the host and says so (or, built for LLVM's host
# plugin, runs on that plugin's device).
. "${srcdir:-.}/tests/testlib.sh"
if ! ldd "$HEATSIM" | grep -q libomptarget; then
  echo "host-only build (no device code, no libomptarget): nothing to bundle"
  exit 77
fi
b=$workdir/somewhere/heatsim-bundle
maps=$(dirname "$HEATSIM")/../bench/contrast_maps
expect_status 0 "$srcdir/tools/make-bundle.sh" "$HEATSIM" "$b" "$maps"
for lib in libomptarget.so.19.1 libomp.so.5 libLLVM.so.19.1; do
  [ -f "$b/lib/$lib" ] || fail "bundle lacks $lib"
done
LD_LIBRARY_PATH=$b/lib ldd "$b/bin/heatsim.bin" >"$workdir/ldd"
grep -q "libomptarget.so.19.1 => $b/lib/" "$workdir/ldd" \
  || fail "libomptarget does not come from the bundle: $(grep omptarget "$workdir/ldd")"
expect_status 0 env -u LD_LIBRARY_PATH "$b/heatsim" -q --json -g 64 \
  -o resident
if host_plugin; then
  grep -q '"on_device": true' "$workdir/out" \
    || fail "bundle run: $(cat "$workdir/out")"
else
  grep -q '"on_device": false' "$workdir/out" \
    || fail "bundle run: $(cat "$workdir/out")"
  expect_status 0 "$b/heatsim" -g 64 -o resident
  grep -q "FALLBACK" "$workdir/out" \
    || fail "bundle run does not report the fallback"
  # The default, auto, takes host threads where no device is.
  expect_status 0 "$b/heatsim" -g 64
  grep -q "strategy      host (auto: no offload device)" "$workdir/out" \
    || fail "bundle default run: $(cat "$workdir/out")"
fi
# The bundled bench finds the bundled map writer for its steady table;
# without LD_LIBRARY_PATH, the launchers alone find the libraries.
BENCH_GRIDS=32 BENCH_UPDATES=1000 BENCH_PLATE=0 BENCH_VARIANTS=resident \
  BENCH_HOST=0 BENCH_STEADY=32 expect_status 0 env -u LD_LIBRARY_PATH \
  "$b/bench" "$b/heatsim"
grep -q '^| resident | collapse | 32^2 |' "$workdir/out" \
  || fail "bundled bench: $(cat "$workdir/out")"
grep -q '^| 32^2 | resident | disks 1e6 | ' "$workdir/out" \
  || fail "bundled bench, steady table: $(cat "$workdir/out")"
finish
