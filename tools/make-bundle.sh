#!/bin/sh
# make-bundle.sh BINARY DIR: make DIR a relocatable copy of heatsim for a
# GPU node that has the NVIDIA driver but no LLVM: the binary, every shared
# library it loads (libomptarget, libomp, libLLVM and theirs, libpng,
# HDF5) except the C library itself, and a launcher DIR/heatsim that puts
# DIR/lib first on the library path, and bench/run to measure the node.
# The CUDA driver (libcuda.so.1) is
# the node's own: libomptarget opens it at run time.
set -eu
if [ $# -ne 2 ]; then
  echo "usage: make-bundle.sh BINARY DIR" >&2
  exit 2
fi
binary=$1
dir=$2
mkdir -p "$dir/bin" "$dir/lib"
cp "$binary" "$dir/bin/heatsim.bin"
ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
while read -r lib; do
  case ${lib##*/} in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
    *) cp -L "$lib" "$dir/lib/" ;;
  esac
done
cat >"$dir/heatsim" <<'LAUNCHER'
#!/bin/sh
# heatsim launcher: the bundled libraries come before the system's.
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  exec "$here/bin/heatsim.bin" "$@"
LAUNCHER
chmod +x "$dir/heatsim"
cp "$(dirname "$0")/../bench/run" "$dir/bench"
echo "bundle in $dir: $(ls "$dir/lib" | wc -l) libraries, $(du -sh "$dir" | cut -f1)"
