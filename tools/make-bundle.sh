#!/bin/sh
# make-bundle.sh BINARY DIR [MAPS]: make DIR a relocatable copy of heatsim
# for a GPU node that has the NVIDIA driver but no LLVM: the binary, every
# shared library it loads (libomptarget, libomp, libLLVM and theirs,
# libpng, HDF5) except the C library itself, and a launcher DIR/heatsim
# that puts DIR/lib first on the library path, and bench/run to measure
# the node (DIR/bench).  MAPS, bench/contrast_maps, comes too, with a
# launcher DIR/contrast_maps: bench/run's steady table writes its maps
# with it.  The CUDA driver (libcuda.so.1) is the node's own:
# libomptarget opens it at run time.
set -eu
if [ $# -ne 2 ] && [ $# -ne 3 ]; then
  echo "usage: make-bundle.sh BINARY DIR [MAPS]" >&2
  exit 2
fi
binary=$1
dir=$2
maps=${3:-}
for program in "$binary" ${maps:+"$maps"}; do
  [ -x "$program" ] || {
    echo "make-bundle.sh: cannot run '$program'" >&2
    exit 2
  }
done
mkdir -p "$dir/bin" "$dir/lib"

# add PROGRAM NAME: DIR/bin/NAME.bin, the libraries it loads, and a
# launcher DIR/NAME in which the bundled libraries come first.
add () {
  cp "$1" "$dir/bin/$2.bin"
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
  while read -r lib; do
    case ${lib##*/} in
      libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
      *) cp -L "$lib" "$dir/lib/" ;;
    esac
  done
  sed "s/@NAME@/$2/g" >"$dir/$2" <<'LAUNCHER'
#!/bin/sh
# @NAME@ launcher: the bundled libraries come before the system's.
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  exec "$here/bin/@NAME@.bin" "$@"
LAUNCHER
  chmod +x "$dir/$2"
}

add "$binary" heatsim
[ -z "$maps" ] || add "$maps" contrast_maps
cp "$(dirname "$0")/../bench/run" "$dir/bench"
echo "bundle in $dir: $(ls "$dir/lib" | wc -l) libraries, $(du -sh "$dir" | cut -f1)"
