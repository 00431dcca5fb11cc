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

# Every file the run reads is an input, not only --init and --restart: a
# --material-map, --source-map, --source-schedule, @FILE schedule of --bc
# or --surface-convection, or --case file that a snapshot, checkpoint,
# XDMF index or profile would write over is refused, status 2, with a
# message that names the option, the file and the output; the file is
# left as it was.
mkdir -p io
wall="$srcdir/data/wall.png"
brick='#b22222=brick'
foam='#ffd700=k=0.04,rho=30,cp=840'
kept () {
  cmp -s "$1" "$2" || fail "$3: $1 was overwritten"
}
cp "$wall" io/in-000000.png
refused "--material-map: io/in-000000.png would be overwritten by the snapshot of step 0, io/in-000000.png (--png-name)" \
  --material-map io/in-000000.png --material "$brick" --material "$foam" \
  -L 0.4x8 -n 2 --png-every 1 --png-name 'in-%06d.png' --output-dir io
kept io/in-000000.png "$wall" "--material-map, --png-name"
cp "$wall" io/map-0.png
ln -s io/map-0.png map-link.png
refused "--material-map: map-link.png would be overwritten by the checkpoint of step 0, io/map-0.png (--checkpoint-name)" \
  --material-map map-link.png --material "$brick" --material "$foam" \
  -L 0.4x8 -n 2 --checkpoint-every 1 --checkpoint-name 'map-%d.png' \
  --output-dir io
kept io/map-0.png "$wall" "--material-map through a link, --checkpoint-name"
# A gray map of sources where the default snapshots go.
expect_status 0 "$HEATSIM" -q -g 8x8 -n 1 --png-every 1 --png-depth 16 \
  --output-dir gray
cp gray/heatsim-000000.png io/heatsim-000000.png
refused "--source-map: io/heatsim-000000.png would be overwritten by the snapshot of step 0" \
  -g 8x8 -n 1 --source-map io/heatsim-000000.png --source-range 0,1 \
  --png-every 1 --output-dir io
kept io/heatsim-000000.png gray/heatsim-000000.png "--source-map, --png-every"
# Schedules and case files, by the XDMF index and the profile.
printf '0,1\n1,2\n' >sched.csv
cp sched.csv io/heatsim.xmf
refused "--source-schedule: io/heatsim.xmf would be overwritten by the XDMF index" \
  -g 8x8 -n 2 --source 1 --source-schedule io/heatsim.xmf \
  --checkpoint-every 1 --output-dir io
kept io/heatsim.xmf sched.csv "--source-schedule, the XDMF index"
cp sched.csv io/profile.csv
refused "--source-schedule: io/profile.csv would be overwritten by the profile, io/profile.csv (--profile)" \
  -g 8x8 -n 2 --source 1 --source-schedule io/profile.csv \
  --profile 0,0,1,1 --output-dir io
kept io/profile.csv sched.csv "--source-schedule, --profile"
cp sched.csv io/profile-000002.csv
ln -s io/profile-000002.csv bc-link.csv
refused "--bc: bc-link.csv would be overwritten by the profile, io/profile-000002.csv (--profile)" \
  -g 8x8 -n 2 --bc left=temperature:@bc-link.csv --checkpoint-every 2 \
  --profile 0,0,1,1 --output-dir io
kept io/profile-000002.csv sched.csv "--bc, numbered profiles"
printf 'grid = 8x8\nsteps = 2\n' >run.case
cp run.case io/profile.csv
refused "--case: io/profile.csv would be overwritten by the profile, io/profile.csv (--profile)" \
  --case io/profile.csv --profile 0,0,1,1 --output-dir io
kept io/profile.csv run.case "--case, --profile"
# An included case file, by a checkpoint.
printf 'case = heatsim-000001.h5\n' >io/top.case
cp run.case io/heatsim-000001.h5
refused "--case: io/heatsim-000001.h5 would be overwritten by the checkpoint of step 1" \
  --case io/top.case --checkpoint-every 1 --output-dir io
kept io/heatsim-000001.h5 run.case "an included case file, a checkpoint"
# An included case file of comments only is an input too.
printf '# shared\n' >io/profile.csv
cp io/profile.csv comments.case
printf 'case = profile.csv\ngrid = 16x16\n' >io/main.case
refused "--case: io/profile.csv would be overwritten by the profile, io/profile.csv (--profile)" \
  --case io/main.case -n 2 --profile 0.1,0.1,900,900 --output-dir io
kept io/profile.csv comments.case "an included case file of comments, --profile"

# --monitor and --probe-file are written to: neither may be an input.
cp sched.csv h.csv
refused "--monitor: h.csv is the input file of --surface-convection" \
  -g 8x8 -n 2 --scheme backward-euler --thickness 0.01 \
  --surface-convection @h.csv,0 --monitor h.csv
kept h.csv sched.csv "--surface-convection, --monitor"
cp "$wall" map.png
refused "--probe-file: map.png is the input file of --material-map" \
  --material-map map.png --material "$brick" --material "$foam" -L 0.4x8 \
  -n 2 --probe 0.1,1 --probe-file map.png
kept map.png "$wall" "--material-map, --probe-file"

# A restart's material map is its checkpoint: continued in place, its
# own step is indexed, not refused.
expect_status 0 "$HEATSIM" -q --material-map "$wall" --material "$brick" \
  --material "$foam" -L 0.4x8 -n 4 --checkpoint-every 2 --output-dir mat
cp mat/heatsim-000002.h5 mat2.h5
expect_status 0 "$HEATSIM" -q --restart mat/heatsim-000002.h5 -n 2 \
  --checkpoint-every 2 --output-dir mat
kept mat/heatsim-000002.h5 mat2.h5 "a material run restarted in place"

finish
