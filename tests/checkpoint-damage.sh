#!/bin/sh
# heatsim's checkpoints carry a checksum in a 512-byte HDF5 user block,
# checked before libhdf5 reads the file: any damaged byte of a checkpoint
# is refused with status 2 and a message naming the file (libhdf5 1.10
# used to crash on some, status 139, or heatsim ran on from a damaged
# attribute, status 0).  Other HDF5 readers still read the files, and
# checkpoints without the user block (heatsim before the checksum) still
# restart.
. "${srcdir:-.}/tests/testlib.sh"
ck=$workdir/heatsim-000004.h5
expect_status 0 "$HEATSIM" -q -g 8x6 -n 4 --checkpoint-every 4 \
  --output-dir "$workdir"
[ "$(head -c 26 "$ck")" = "heatsim-checkpoint-seal-1" ] \
  || fail "no seal at the start of the checkpoint"

# Other readers: h5dump, h5py (where installed), the user block standard.
if [ -n "${H5DUMP:-}" ]; then
  "$H5DUMP" -B -H "$ck" | grep -q 'USERBLOCK_SIZE 512' \
    || fail "h5dump does not see a 512-byte user block"
  "$H5DUMP" -a /step "$ck" | grep -q "(0): 4" || fail "h5dump: step"
fi
PY_H5=false
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import h5py' 2>/dev/null; then
    PY_H5=$py
    "$py" -c 'import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert f.userblock_size == 512 and f["field"].shape == (6, 8)
assert f.attrs["step"] == 4' "$ck" || fail "h5py cannot read the checkpoint"
    break
  fi
done

# Checkpoints without the seal restart: with the user block removed
# (the layout before the seal) or blanked.
if command -v h5unjam >/dev/null 2>&1; then
  h5unjam -i "$ck" -o "$workdir/bare.h5" >/dev/null \
    || fail "h5unjam failed"
  expect_status 0 "$HEATSIM" -q --restart "$workdir/bare.h5" -n 1
fi
cp "$ck" "$workdir/blank.h5"
dd if=/dev/zero of="$workdir/blank.h5" bs=512 count=1 conv=notrunc 2>/dev/null
expect_status 0 "$HEATSIM" -q --restart "$workdir/blank.h5" -n 1

# Damage: 1 to 3 bytes changed at random places, 200 times, with a fixed
# seed so that every run checks the same files; the first 60 of them in
# the sanitizer and MPI builds, whose every start costs several times
# more (the other builds of the same CI run try all 200).
damages=200
if [ -n "${HEATSIM_SANITIZED:-}" ] || "$HEATSIM" --version | grep -q '^MPI: yes'; then
  damages=60
fi
size=$(wc -c <"$ck")
awk -v size="$size" -v damages=$damages 'BEGIN {
  srand(14)
  for (t = 0; t < damages; ++t) {
    n = 1 + int(rand() * 3); line = ""
    for (k = 0; k < n; ++k)
      line = line " " int(rand() * size) ":" 1 + int(rand() * 255)
    print line
  }
}' >"$workdir/plan"
t=0
while read -r changes; do
  t=$((t + 1))
  bad=$workdir/damaged-$t.h5
  cp "$ck" "$bad"
  for c in $changes; do
    at=${c%%:*}
    old=$(od -An -tu1 -j "$at" -N1 "$bad" | tr -d ' ')
    # shellcheck disable=SC2059
    printf "\\$(printf %03o $(( (old + ${c#*:}) % 256 )))" \
      | dd of="$bad" bs=1 seek="$at" conv=notrunc 2>/dev/null
  done
  if [ $((t % 10)) = 0 ]; then opt=--init; else opt=--restart; fi
  expect_status 2 "$HEATSIM" -q $opt "$bad" -n 1 \
    || fail "damage$changes: status above"
  grep -q "^heatsim: .*damaged-$t.h5: " "$workdir/err" \
    || fail "damage$changes: message does not name the file: $(cat "$workdir/err")"
  rm -f "$bad"
done <"$workdir/plan"
echo "$t damaged checkpoints refused with status 2"

# Counts of the wrong kind, written by another tool into a checkpoint
# without the seal: HDF5 converted them as it read (a step of -3 read
# as 0, an nx of 16.5 as 16) and the run went on from them (a hostile
# test pass found both).
if "$PY_H5" -c 'import h5py, numpy' 2>/dev/null; then
  for edit in 'step=np.int64(-3)' 'nx=np.float64(8.5)' 'ny=np.int32(-6)' \
              'scheme="rk4"'; do
    name=${edit%%=*}
    "$PY_H5" - "$ck" "$workdir/attr.h5" "$edit" <<'PYEOF' || { fail "h5py: $edit"; continue; }
import sys, shutil, h5py, numpy as np
src, dst, edit = sys.argv[1:4]
with open(src, "rb") as f:
    data = f.read()
# Without the user block's seal: the file as an older heatsim wrote it.
with open(dst, "wb") as f:
    f.write(b"\0" * 512 + data[512:])
key, value = edit.split("=", 1)
with h5py.File(dst, "r+") as f:
    f.attrs[key] = eval(value)
PYEOF
    case $name in
      scheme)
        # The unknown one is named alone (it read "unknown scheme 'rk4'
        # or solver 'jacobi'", the solver being right).
        refused "attr.h5: unknown scheme 'rk4'$" \
          --restart "$workdir/attr.h5" -n 1 ;;
      *)
        refused "attr.h5: attribute '$name' is not a whole number of 0 or more" \
          --restart "$workdir/attr.h5" -n 1 ;;
    esac
  done
else
  echo "SKIP (counts of the wrong kind): no python3 with h5py and numpy"
fi

finish
