#!/bin/sh
# Issue 26, item 3: an input file is compared with the run's outputs by
# what it is, not by how it is named.  Through a symbolic link to a file,
# a symbolic link to the output directory or a path with '..', an --init
# or --restart file that the run would write over is refused, status 2,
# with a message naming the input and the output, and is left as it was;
# so is a --monitor file that reaches a checkpoint through a link.
. "${srcdir:-.}/tests/testlib.sh"
small='-p mms -g 8x6 -L 1 -a 1 -T 1e-4'

expect_status 0 "$HEATSIM" -q $small -n 4 --checkpoint-every 2 --png-every 2 \
  --output-dir ow
cp ow/heatsim-000002.h5 orig.h5
cp ow/heatsim-000002.png orig.png
unchanged () {
  cmp -s ow/heatsim-000002.h5 orig.h5 || fail "$1: the input checkpoint was overwritten"
  cmp -s ow/heatsim-000002.png orig.png || fail "$1: the input image was overwritten"
}

# The reproducer of the issue: a link to the file.  (Its /field is read
# as a plain dataset, so that the run starts at step 0: from the
# checkpoint itself it would go on from step 2, whose checkpoint it is,
# and index it without writing, issue 25.)
ln -s ow/heatsim-000002.h5 in.h5
refused "--init: in.h5 would be overwritten by the checkpoint of step 2, ow/heatsim-000002.h5" \
  --init in.h5 --init-dataset field -n 3 --checkpoint-every 1 --output-dir ow
unchanged "--init through a link"

# The same with a PNG input and snapshots.
ln -s ow/heatsim-000002.png in.png
refused "--init: in.png would be overwritten by the snapshot of step 2, ow/heatsim-000002.png" \
  --init in.png -n 3 --png-every 1 --output-dir ow
unchanged "--init PNG through a link"

# A link to the output directory, and a path through '..'.
ln -s ow linkdir
refused "--init: linkdir/heatsim-000002.h5 would be overwritten" \
  --init linkdir/heatsim-000002.h5 --init-dataset field -n 3 \
  --checkpoint-every 1 --output-dir ow
mkdir -p sub
refused "--init: sub/../ow/heatsim-000002.png would be overwritten" \
  --init sub/../ow/heatsim-000002.png -n 3 --png-every 1 --output-dir linkdir
unchanged "--init through a linked directory"

# A link in a link: resolved to the end.
ln -s in.h5 in2.h5
refused "--init: in2.h5 would be overwritten by the checkpoint of step 2" \
  --init in2.h5 --init-dataset field -n 2 --checkpoint-every 2 \
  --output-dir "$workdir/ow"
unchanged "--init through two links"

# --restart through a link: its snapshot of step 0, named as checkpoints
# are, would overwrite it.
cp ow/heatsim-000000.h5 orig0.h5
ln -s ow/heatsim-000000.h5 restart0.h5
refused "--restart: restart0.h5 would be overwritten by the snapshot of step 0, ow/heatsim-000000.h5" \
  --restart restart0.h5 -n 2 --png-every 1 --png-name 'heatsim-%06d.h5' \
  --output-dir ow
cmp -s ow/heatsim-000000.h5 orig0.h5 || fail "--restart through a link: overwritten"

# What must still run: a link to a file that the run does not write, and
# a restart in place through a link (its own step is indexed, not
# rewritten).
expect_status 0 "$HEATSIM" -q --init in.h5 -T 1e-4 -n 2 --checkpoint-every 2 \
  --output-dir elsewhere
# From the checkpoint itself, in place through a link: it goes on from
# step 2, whose checkpoint is the file, indexed and not rewritten.
expect_status 0 "$HEATSIM" -q --init in.h5 -T 1e-4 -n 3 --checkpoint-every 1 \
  --output-dir ow
unchanged "an --init in place through a link"
ln -s ow/heatsim-000002.h5 restart.h5
expect_status 0 "$HEATSIM" -q --restart restart.h5 -n 2 --checkpoint-every 2 \
  --output-dir ow
unchanged "a restart in place through a link"

# --monitor through a link to a checkpoint that a restart writes.
ln -s ow/heatsim-000004.h5 mon.csv
cp ow/heatsim-000004.h5 orig4.h5
expect_status 2 "$HEATSIM" -q --restart ow/heatsim-000002.h5 -n 2 \
  --checkpoint-every 1 --monitor mon.csv --output-dir ow
grep -q -e "--monitor: mon.csv would be overwritten" "$workdir/err" \
  || fail "--monitor through a link: $(cat "$workdir/err")"
cmp -s ow/heatsim-000004.h5 orig4.h5 || fail "--monitor through a link: checkpoint changed"

finish
