#!/bin/sh
# LLVM's host plugin (a build with --with-offload-arch=x86_64) loads a
# device's code by writing it to /tmp/tmpfile_XXXXXX and opening that as
# a shared library, and never removes the file: half a megabyte in /tmp
# for every device a run touches, tens of gigabytes after a few test
# suites.  heatsim removes the files it maps once they are loaded.  The
# test looks at the maps of a running heatsim: every such file it maps
# must be removed ("(deleted)"), which no other process's runs disturb.
# Elsewhere (no device code, or a GPU's) it is skipped.
. "${srcdir:-.}/tests/testlib.sh"

host_plugin || { echo "SKIP: no host plugin device code"; exit 77; }

# Whether the process PID maps a device image from /tmp: its lines in
# $workdir/images.
maps_image () {
  grep ' /tmp/tmpfile_' "/proc/$1/maps" >"$workdir/images" 2>/dev/null
}

# Whether every image PID maps is removed.
images_removed () {
  maps_image "$1" && ! grep -v ' (deleted)$' "$workdir/images" >/dev/null
}

for placement in resident map; do
  "$HEATSIM" -q --offload $placement --grid 64 --steps 100000000 \
    --output-dir "$workdir/$placement" >"$workdir/out" 2>"$workdir/err" &
  pid=$!
  checks=$((checks + 1))
  if ! WAIT_LIMIT=60 wait_for $pid maps_image $pid; then
    fail "--offload $placement: no device image mapped from /tmp; stderr: \
$(cat "$workdir/err")"
  elif ! WAIT_LIMIT=30 wait_for $pid images_removed $pid; then
    fail "--offload $placement: a device image is left in /tmp: \
$(grep -v ' (deleted)$' "$workdir/images" | awk '{ print $NF }' | sort -u)"
  fi
  kill -TERM $pid 2>/dev/null
  wait $pid
  # The image files heatsim mapped are gone from /tmp, not only unlinked
  # in name by some other process.
  for f in $(awk '{ print $6 }' "$workdir/images" | sort -u); do
    checks=$((checks + 1))
    [ ! -e "$f" ] || fail "--offload $placement: $f is still in /tmp"
  done
done
# Under a file size limit too small for an image, or a /tmp too full,
# libomptarget aborted (SIGABRT, exit 134) in the first target region,
# leaving the truncated file: heatsim refuses first (status 1, as for a
# write its own outputs cannot make), naming the limit.  ulimit -f
# counts blocks of 512 or 1024 bytes: 100 of them hold no image.
for run in "-g 10 -n 3" "-g 10 -n 3 --offload resident" --list-devices; do
  (ulimit -f 100 && exec "$HEATSIM" $run) >"$workdir/out" 2>"$workdir/err"
  got=$?
  checks=$((checks + 1))
  [ $got -eq 1 ] || fail "ulimit -f 100, $run: exit $got, not 1: \
$(cat "$workdir/err")"
  grep -q "^heatsim: the offload runtime (LLVM's host plugin) writes each device's code to /tmp, up to [0-9]* bytes, beyond the file size limit (ulimit -f) of [0-9]* bytes: raise it, or use --offload host$" \
    "$workdir/err" || fail "ulimit -f 100, $run: $(cat "$workdir/err")"
done
# A limit that an image fits (1000 blocks, 512 KB or more, against the
# section of about 450 KB that holds it) is no obstacle (a review found
# the whole executable's 3.5 MB counted).
(ulimit -f 1000 && exec "$HEATSIM" -q -g 10 -n 3 --offload resident) \
  >"$workdir/out" 2>"$workdir/err"
got=$?
checks=$((checks + 1))
[ $got -eq 0 ] || fail "ulimit -f 1000: exit $got: $(cat "$workdir/err")"
# --offload host runs no target region, nor does auto where the default
# device is the host (OMP_DEFAULT_DEVICE past the plugin's devices):
# the limit is no obstacle.
devices=$("$HEATSIM" --list-devices | sed -n 's/^OpenMP offload devices: \([0-9]*\).*/\1/p')
(ulimit -f 100 && OMP_DEFAULT_DEVICE=$devices exec "$HEATSIM" -q -g 10 -n 3) \
  >"$workdir/out" 2>"$workdir/err"
got=$?
checks=$((checks + 1))
[ $got -eq 0 ] || fail "ulimit -f 100, OMP_DEFAULT_DEVICE=$devices: exit \
$got: $(cat "$workdir/err")"
(ulimit -f 100 && exec "$HEATSIM" -q -g 10 -n 3 --offload host) \
  >"$workdir/out" 2>"$workdir/err"
got=$?
checks=$((checks + 1))
[ $got -eq 0 ] || fail "ulimit -f 100, --offload host: exit $got: \
$(cat "$workdir/err")"
finish
