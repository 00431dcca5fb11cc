#!/bin/sh
# The time series of a run: step 0 is written (PNG, checkpoint, XDMF
# entry), and a restart keeps the XDMF entries of earlier steps whose
# checkpoints are still there, drops those after the restart step, and
# does not rewrite the checkpoint it starts from.
. "${srcdir:-.}/tests/testlib.sh"
run='-p disk -g 30x20 -L 1 -a 1 --dt 5e-5'
a=$workdir/a

# well_formed FILE: an XML parser reads it, where one is installed.
well_formed () {
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import xml.dom.minidom' 2>/dev/null; then
      "$py" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" \
        2>"$workdir/xml" || fail "$1: not XML: $(tail -n 1 "$workdir/xml")"
      return
    fi
  done
}

# Step 0: a snapshot and a checkpoint of the initial state, indexed.
expect_status 0 "$HEATSIM" -q --json $run -n 40 --checkpoint-every 10 \
  --png-every 20 --output-dir "$a"
whole=$(json_field checksum "$workdir/out")
[ "$(json_field files "$workdir/out")" = 8 ] \
  || fail "files written: $(json_field files "$workdir/out"), expected 8"
for f in heatsim-000000.png heatsim-000000.h5; do
  [ -f "$a/$f" ] || fail "no $f: $(ls "$a")"
done
[ "$(xdmf_steps "$a/heatsim.xmf")" = "0 10 20 30 40" ] \
  || fail "index of a whole run: steps $(xdmf_steps "$a/heatsim.xmf")"
grep -q '<Time Value="0"/>' "$a/heatsim.xmf" || fail "index: no time 0"
well_formed "$a/heatsim.xmf"
if [ -n "${H5DUMP:-}" ]; then
  "$H5DUMP" -a /step "$a/heatsim-000000.h5" | grep -q "(0): 0" \
    || fail "heatsim-000000.h5 is not of step 0"
fi
# It is the initial state: the run from it ends where the whole run does.
expect_status 0 "$HEATSIM" -q --json --restart "$a/heatsim-000000.h5" -n 40
[ "$(json_field checksum "$workdir/out")" = "$whole" ] \
  || fail "restart from step 0 does not end where the whole run does"
# Without output, nothing is written.
expect_status 0 "$HEATSIM" -q --json $run -n 4 --output-dir "$workdir/none"
[ "$(json_field files "$workdir/out")" = 0 ] || fail "files without output"
[ -e "$workdir/none" ] && fail "a run without output made its directory"

# Restart in place from step 20, as after a batch time limit, once the
# user removed the checkpoint of step 10: the index keeps 0 and 20, drops
# 10 (gone) and the old 30 and 40 (rewritten by this run).
cp "$a/heatsim.xmf" "$workdir/old.xmf"
rm "$a/heatsim-000010.h5"
ls -i "$a/heatsim-000020.h5" >"$workdir/inode"
expect_status 0 "$HEATSIM" -q --json --restart "$a/heatsim-000020.h5" -n 10 \
  --checkpoint-every 10 --output-dir "$a"
[ "$(json_field files "$workdir/out")" = 1 ] \
  || fail "restart in place wrote $(json_field files "$workdir/out") files, expected 1"
[ "$(xdmf_steps "$a/heatsim.xmf")" = "0 20 30" ] \
  || fail "index after a restart in place: steps $(xdmf_steps "$a/heatsim.xmf")"
[ "$(ls -i "$a/heatsim-000020.h5")" = "$(cat "$workdir/inode")" ] \
  || fail "the restart rewrote the checkpoint it started from"
# Entries are as the whole run wrote them.
for k in 0 20 30; do
  sed -n "/<Grid Name=\"step $k\"/,/<\/Grid>/p" "$workdir/old.xmf" \
    >"$workdir/want"
  sed -n "/<Grid Name=\"step $k\"/,/<\/Grid>/p" "$a/heatsim.xmf" \
    >"$workdir/got"
  cmp -s "$workdir/want" "$workdir/got" || fail "entry of step $k changed"
done
well_formed "$a/heatsim.xmf"

# Restart in place with other checkpoint names: the kept entries keep
# their files' names, the restart step gets a file of the new name.
expect_status 0 "$HEATSIM" -q --restart "$a/heatsim-000020.h5" -n 20 \
  --checkpoint-every 10 --checkpoint-name 'b&%d.h5' --output-dir "$a"
[ "$(xdmf_steps "$a/heatsim.xmf")" = "0 20 30 40" ] \
  || fail "index after a renamed restart: steps $(xdmf_steps "$a/heatsim.xmf")"
[ "$(xdmf_names "$a/heatsim.xmf")" = \
  "heatsim-000000.h5 b&amp;20.h5 b&amp;30.h5 b&amp;40.h5" ] \
  || fail "index after a renamed restart: files $(xdmf_names "$a/heatsim.xmf")"
[ -f "$a/b&20.h5" ] || fail "restart step not written under the new name"
well_formed "$a/heatsim.xmf"
# A colon is refused: the index names a dataset FILE:/field, and
# ParaView's XDMF readers split at the first colon ('run:%06d.h5' could
# not be read, and one reader aborted; a hostile test pass).
refused "^heatsim: --checkpoint-name: 'run:%06d.h5': no ':'" -g 16 -n 2 \
  --checkpoint-every 1 --checkpoint-name 'run:%06d.h5' \
  --output-dir "$workdir/colon"
[ -e "$workdir/colon" ] && fail "the refused --checkpoint-name wrote $(ls "$workdir/colon")"
# So are a control character and bytes that are not UTF-8, which made
# the index XML no reader takes (exit 0; a hostile pass).
refused "^heatsim: --checkpoint-name: a control character (byte 1)" -g 8 -n 2 \
  --checkpoint-every 1 --checkpoint-name "$(printf 'run%%d\001.h5')" \
  --output-dir "$workdir/control"
refused "^heatsim: --checkpoint-name: not UTF-8" -g 8 -n 2 \
  --checkpoint-every 1 --checkpoint-name "$(printf 'run%%d\377.h5')" \
  --output-dir "$workdir/latin1"
[ -e "$workdir/control" ] || [ -e "$workdir/latin1" ] \
  && fail "a refused --checkpoint-name wrote files"

# Restart into another directory: its index lists only its own files,
# beginning with the restart step, written there.
expect_status 0 "$HEATSIM" -q --json --restart "$a/heatsim-000020.h5" -n 20 \
  --checkpoint-every 10 --png-every 10 --output-dir "$workdir/b"
[ "$(cd "$workdir/b" && echo *)" = "heatsim-000020.h5 heatsim-000020.png heatsim-000030.h5 heatsim-000030.png heatsim-000040.h5 heatsim-000040.png heatsim.xmf" ] \
  || fail "restart elsewhere: files $(cd "$workdir/b" && echo *)"
[ "$(xdmf_steps "$workdir/b/heatsim.xmf")" = "20 30 40" ] \
  || fail "restart elsewhere: steps $(xdmf_steps "$workdir/b/heatsim.xmf")"
[ "$(json_field checksum "$workdir/out")" = "$whole" ] \
  || fail "restart elsewhere does not end where the whole run does"

# A restart into a directory that holds another run's checkpoints (issue
# 26, item 5): the entries it keeps describe those files as they are, 9 x
# 12 cells of 1/10 x 1/13 at their own times, not with this run's grid,
# spacing and dt.
mkdir "$workdir/o"
# Their times, 1e-4 and 2e-4, come before the restart's, 20 x 5e-5 = 1e-3
# (kept entries' times must increase: issue 25).
expect_status 0 "$HEATSIM" -q -p disk -g 9x12 -L 1 -a 1 --dt 1e-4 -n 2 \
  --checkpoint-every 1 --output-dir "$workdir/o"
expect_status 0 "$HEATSIM" -q --restart "$a/heatsim-000020.h5" -n 10 \
  --checkpoint-every 10 --output-dir "$workdir/o"
[ "$(xdmf_steps "$workdir/o/heatsim.xmf")" = "0 1 2 20 30" ] \
  || fail "index over another run: steps $(xdmf_steps "$workdir/o/heatsim.xmf")"
# grid K: the lines of the entry of step K.
grid () {
  sed -n "/<Grid Name=\"step $1\"/,/<\/Grid>/p" "$workdir/o/heatsim.xmf"
}
for k in 1 2; do
  grid $k | grep -q 'Topology TopologyType="3DCoRectMesh" Dimensions="1 12 9"' \
    || fail "kept step $k: not 9 x 12: $(grid $k)"
  grid $k | grep -q '>0 0.076923076923076927 0.10000000000000001<' \
    || fail "kept step $k: origin not (1/10, 1/13): $(grid $k)"
  grid $k | grep -q '<Time Value="0.000'$k'0*1*"/>' \
    || fail "kept step $k: time not $k x 1e-4: $(grid $k)"
done
grid 30 | grep -q 'Dimensions="1 20 30"' \
  || fail "this run's step 30: not 30 x 20: $(grid 30)"
well_formed "$workdir/o/heatsim.xmf"

# An index that is not heatsim's, or lists missing or foreign files,
# gives none of its entries to the new one.
mkdir "$workdir/c"
cp "$a/heatsim-000020.h5" "$workdir/c/start.h5"
printf '<Grid Name="step 5" GridType="Uniform">\n<DataItem Format="HDF">../a/heatsim-000000.h5:/field</DataItem>\n<Grid Name="step 6" GridType="Uniform">\n<DataItem Format="HDF">gone.h5:/field</DataItem>\n<Grid Name="step 7" GridType="Uniform">\n<DataItem Format="HDF">bad&entity;.h5:/field</DataItem>\n' \
  >"$workdir/c/heatsim.xmf"
expect_status 0 "$HEATSIM" -q --restart "$workdir/c/start.h5" -n 10 \
  --checkpoint-every 10 --output-dir "$workdir/c"
[ "$(xdmf_steps "$workdir/c/heatsim.xmf")" = "20 30" ] \
  || fail "foreign index: steps $(xdmf_steps "$workdir/c/heatsim.xmf")"
# A FIFO in its place is not read (that would block): a warning, and the
# new index replaces it.
rm "$workdir/c/heatsim.xmf"
if mkfifo "$workdir/c/heatsim.xmf" 2>/dev/null; then
  expect_status 0 timeout 300 "$HEATSIM" -q --restart "$workdir/c/start.h5" \
    -n 10 --checkpoint-every 10 --output-dir "$workdir/c"
  grep -q "^heatsim: warning: .*heatsim.xmf: cannot read" "$workdir/err" \
    || fail "FIFO index: no warning: $(cat "$workdir/err")"
  [ "$(xdmf_steps "$workdir/c/heatsim.xmf")" = "20 30" ] \
    || fail "FIFO index: steps $(xdmf_steps "$workdir/c/heatsim.xmf")"
fi
echo garbage >"$workdir/c/heatsim.xmf"
expect_status 0 "$HEATSIM" -q --restart "$workdir/c/start.h5" -n 10 \
  --checkpoint-every 10 --output-dir "$workdir/c"
[ "$(xdmf_steps "$workdir/c/heatsim.xmf")" = "20 30" ] \
  || fail "garbage index: steps $(xdmf_steps "$workdir/c/heatsim.xmf")"
finish
