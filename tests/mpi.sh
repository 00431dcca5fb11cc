#!/bin/sh
# The MPI build (configure --with-mpi): on 1, 2, 3 and 4 ranks, oversubscribed
# on a small machine, every problem, boundary kind and strategy gives
# bitwise the same field; checkpoints written by any number of ranks are the
# same file and restart on any other; PNG snapshots are the whole field;
# probe and profile files are the same for any number of ranks;
# launches that cannot work end every rank with one message.
. "${srcdir:-.}/tests/testlib.sh"

if ! mpi_ready; then
  echo "heatsim built without MPI (or no mpiexec): nothing to test"
  exit 77
fi
OMP_NUM_THREADS=1
export OMP_NUM_THREADS

# mpi N ARGS...: heatsim on N ranks; output in $workdir/out and err.
mpi () {
  _n=$1
  shift
  "$MPIEXEC" -np "$_n" "$HEATSIM" "$@" >"$workdir/out" 2>"$workdir/err"
}

# same_field ARGS...: the checksum on 1 rank, then the same on 2, 3 and 4.
same_field () {
  mpi 1 -q --json "$@" || { fail "1 rank failed ($*): $(cat "$workdir/err")"; return; }
  want=$(json_field checksum "$workdir/out")
  [ "$(json_field ranks "$workdir/out")" = 1 ] || fail "ranks on 1 ($*)"
  for n in 2 3 4; do
    if mpi $n -q --json "$@"; then
      [ "$(json_field checksum "$workdir/out")" = "$want" ] \
        || fail "$n ranks differ from 1 ($*)"
      [ "$(json_field ranks "$workdir/out")" = $n ] || fail "ranks on $n ($*)"
      pass
    else
      fail "$n ranks failed ($*): $(cat "$workdir/err")"
    fi
  done
}

same_field -g 101x77 -n 50
same_field -g 101x77 -n 50 -o map --kernel split
same_field -g 101x77 -n 50 -o resident
same_field -p disk -b periodic -g 40x30 -L 1 -a 1 -T 0.05 -n 300
same_field -p disk -b neumann -g 30x41 -L 1 -a 1 -T 0.01 -n 200 -o host
# Parts one row thin at a zero-flux edge mirror the row their neighbour
# sends, of the same step (issue 24: the edge's nodes lie on it).
same_field -p disk -b neumann -g 6x3 -L 1 -a 1 -T 0.01 -n 20 -o host
same_field -p plate -g 30x41 -n 60 --edges 1,2,3,4
same_field -p plate -s --solver jacobi -g 47x33 --tol 0.05 -o host
same_field -g 4x3 -n 7 -o host
# A uniform source in a uniform material: the constant stencil plus the
# source's rise, which every rank must choose alike.
heated='-g 60x41 -L 0.1 --conductivity 10 --density 1000 --heat-capacity 500
  --source 1e5 --initial-temperature 300 --dt 0.02 -n 40
  --bc left=convection:50,290 --bc right=flux:2000'
same_field $heated -o host
same_field $heated -o resident --tile-steps 1
# Multigrid, its levels split over the ranks: with Dirichlet edges the
# 1-rank field bitwise (same colours, transfers and coarse solves), so
# the same V-cycles; steady and implicit, odd and non-square grids,
# dx != dy, where the coarse levels become whole on every rank.
same_field -p plate -s -g 301x203 -o host
same_field -p plate -s -g 30x41 -L 2 --edges 1,2,3,4 -o resident
same_field -p plate -s -g 1000x17
same_field -g 255x127 -L 1 -a 1 -T 0.01 -n 5 --scheme crank-nicolson
same_field -g 64x48 -L 1 -a 1 -T 0.01 -n 3 --scheme backward-euler -o map

# values FILE: the field of checkpoint FILE, a value per line.
values () {
  "$H5DUMP" -A 0 -d /field -y -w 0 -m %.17g "$1" | sed -n '/DATA {/,/}/p' \
    | tr -d ' ,' | grep -v '[{}]'
}
# close_field CELLS ARGS...: without a Dirichlet edge the mean and the
# total heat that multigrid keeps are sums over the ranks, added in
# another order: on 2, 3 and 4 ranks the 1-rank V-cycles, and the last
# checkpoint's CELLS values within 1e-12 of the largest.
close_field () {
  _cells=$1
  shift
  rm -rf mg1
  mpi 1 -q --json "$@" --checkpoint-every 100000 --output-dir mg1 \
    || { fail "1 rank failed ($*): $(cat "$workdir/err")"; return; }
  cycles=$(json_field cycles "$workdir/out")
  last=$(ls mg1/heatsim-*.h5 | tail -n 1)
  values "$last" >mg1.txt
  [ "$(wc -l <mg1.txt)" = "$_cells" ] || fail "$last: not $_cells values"
  for n in 2 3 4; do
    rm -rf mgn
    mpi $n -q --json "$@" --checkpoint-every 100000 --output-dir mgn \
      || { fail "$n ranks failed ($*): $(cat "$workdir/err")"; continue; }
    [ "$(json_field cycles "$workdir/out")" = "$cycles" ] \
      || fail "$n ranks: V-cycles differ from 1 rank's $cycles ($*)"
    values "mgn/${last#mg1/}" >mgn.txt
    paste mg1.txt mgn.txt | awk '
      { d = $1 - $2; if (d < 0) d = -d; if (d > worst) worst = d
        a = $1 < 0 ? -$1 : $1; if (a > top) top = a }
      END { exit !(NR > 0 && top > 0 && worst <= 1e-12 * top) }' \
      || fail "$n ranks: field further than 1e-12 from 1 rank's ($*)"
    pass
  done
}
if [ -n "${H5DUMP:-}" ]; then
  close_field 1200 -p disk -b periodic -s -g 40x30 -L 1 -a 1
  close_field 1230 -p disk -b neumann -g 30x41 -L 1 -a 1 -T 0.01 -n 5 \
    --scheme crank-nicolson
  close_field 18 -p disk -b neumann -g 6x3 -L 1 -a 1 -T 0.01 -n 4 \
    --scheme crank-nicolson
  close_field 1200 -p disk -b periodic -g 40x30 -L 1 -a 1 -T 0.05 -n 5 \
    --scheme backward-euler -o resident
  # The split level's field did change: a crank-nicolson run that did
  # nothing would agree with itself as well.
  [ "$(values mg1/heatsim-000000.h5 | md5sum)" != "$(md5sum <mg1.txt)" ] \
    || fail "5 backward-euler steps left the field as it was"
fi
# A steady multigrid run stopped by checkpoints on 4 ranks and restarted
# on 3 ends where the unbroken 1-rank run does.
mpi 1 -q --json -p plate -s -g 97x83 || fail "unbroken: $(cat "$workdir/err")"
want=$(json_field checksum "$workdir/out")
rm -rf mgc
mpi 4 -q -p plate -s -g 97x83 --checkpoint-every 4 --output-dir mgc \
  || fail "4 ranks with checkpoints: $(cat "$workdir/err")"
mpi 3 -q --json -s --restart mgc/heatsim-000004.h5 \
  || fail "restart on 3: $(cat "$workdir/err")"
[ "$(json_field checksum "$workdir/out")" = "$want" ] \
  || fail "steady multigrid restarted on 3 ranks ends elsewhere"
pass
# The field really evolved: a run that did nothing would agree as well.
mpi 4 -q --json -g 101x77 -n 50
[ "$(json_field checksum "$workdir/out")" != \
  "$(mpi 4 -q --json -g 101x77 -n 1 && json_field checksum "$workdir/out")" ] \
  || fail "50 steps and 1 step give the same field"
mpi 4 -q --json -g 101x77 -n 50
[ "$(json_field ranks_x "$workdir/out")x$(json_field ranks_y "$workdir/out")" \
  = 2x2 ] || fail "4 ranks are not split 2 x 2"

# Checkpoints and snapshots: the same files whether 1 or 4 ranks wrote them.
run="-p disk -b neumann -g 61x47 -L 1 -a 1 -T 0.01 -n 400 --png-every 200"
run="$run --checkpoint-every 200 --compress 3"
mpi 1 -q --json $run --output-dir one || fail "1 rank: $(cat "$workdir/err")"
whole=$(json_field checksum "$workdir/out")
mpi 4 -q --json $run --output-dir four || fail "4 ranks: $(cat "$workdir/err")"
cmp -s one/heatsim.xmf four/heatsim.xmf || fail "heatsim.xmf differs between 1 and 4 ranks"
# Pixels: the text chunks hold the command line, whose --output-dir differs.
for f in heatsim-000000.png heatsim-000200.png heatsim-000400.png; do
  [ "$("$PNG_PROBE" one/$f pixels)" = "$("$PNG_PROBE" four/$f pixels)" ] \
    || fail "$f differs between 1 and 4 ranks"
done
# The recorded command lines and cases differ in the output directory:
# compare the rest, and that each names its own.
if [ -n "${H5DUMP:-}" ]; then
  for step in 000000 000200 000400; do
    for d in one four; do
      "$H5DUMP" $d/heatsim-$step.h5 >$d.dump
      grep -q "(0): \".*--output-dir $d\"" $d.dump \
        || fail "checkpoint $step of $d: command_line lacks --output-dir $d"
      grep -q "^ *output-dir = $d\$" $d.dump \
        || fail "checkpoint $step of $d: case lacks output-dir = $d"
      sed '1d; /ATTRIBUTE "command_line"/,/^   }$/d
           /ATTRIBUTE "case"/,/^   }$/d' $d.dump >$d.txt
    done
    cmp -s one.txt four.txt || fail "checkpoint $step: 4 ranks wrote other data"
  done
fi
# A checkpoint's halo lines are those of its own field on any number of
# ranks: across a periodic axis split between ranks the neighbour's
# line (they held the halo of the field two steps before).
# dataset FILE NAME [H5DUMP ARGS]: dataset NAME of FILE, a value per line.
dataset () {
  _file=$1
  _name=$2
  shift 2
  "$H5DUMP" -A 0 -d "$_name" "$@" -y -w 0 -m %.17g "$_file" \
    | sed -n '/DATA {/,/}/p' | tr -d ' ,' | grep -v '[{}]'
}
if [ -n "${H5DUMP:-}" ]; then
  ring="-p disk --bc left=periodic --bc right=periodic --bc bottom=flux:2"
  ring="$ring --bc top=insulated -g 61x47 -L 1 -a 1 --dt 1e-5 -n 7"
  ring="$ring --checkpoint-every 7"
  for n in 1 4; do
    # shellcheck disable=SC2086
    mpi $n -q $ring --output-dir ring$n \
      || { fail "ring on $n: $(cat "$workdir/err")"; continue; }
    f=ring$n/heatsim-000007.h5
    [ "$(dataset $f /boundary/left)" = "$(dataset $f /field -s 0,60 -c 47,1)" ] \
      && [ "$(dataset $f /boundary/right)" = "$(dataset $f /field -s 0,0 -c 47,1)" ] \
      && [ "$(dataset $f /boundary/top)" = "$(dataset $f /field -s 45,0 -c 1,61)" ] \
      || fail "$n ranks: the checkpoint's periodic or insulated halo is not its field's"
  done
  for e in left right bottom top; do
    [ "$(dataset ring1/heatsim-000007.h5 /boundary/$e)" = \
      "$(dataset ring4/heatsim-000007.h5 /boundary/$e)" ] \
      || fail "/boundary/$e differs between 1 and 4 ranks"
  done
fi
# Restart from step 200 written by 4 ranks on 1, 2, 3; from 1 rank on 4.
for n in 1 2 3; do
  mpi $n -q --json --restart four/heatsim-000200.h5 -n 200 \
    || fail "restart on $n: $(cat "$workdir/err")"
  [ "$(json_field checksum "$workdir/out")" = "$whole" ] \
    || fail "4-rank checkpoint restarted on $n ranks ends elsewhere"
done
mpi 4 -q --json --restart one/heatsim-000200.h5 -n 200 \
  || fail "restart on 4: $(cat "$workdir/err")"
[ "$(json_field checksum "$workdir/out")" = "$whole" ] \
  || fail "1-rank checkpoint restarted on 4 ranks ends elsewhere"
# Restarted in place on 4 ranks, the run keeps its index and does not
# rewrite the checkpoint it started from (rank 0 decides for all).
ls -i four/heatsim-000200.h5 >inode.txt
mpi 4 -q --restart four/heatsim-000200.h5 -n 200 --checkpoint-every 200 \
  --output-dir four || fail "restart in place on 4: $(cat "$workdir/err")"
cmp -s one/heatsim.xmf four/heatsim.xmf \
  || fail "restart in place on 4 ranks: index differs from the whole run's"
[ "$(ls -i four/heatsim-000200.h5)" = "$(cat inode.txt)" ] \
  || fail "restart in place on 4 ranks rewrote its --restart file"
# --init from a file on several ranks.
mpi 1 -q --json --init "$srcdir/data/ring-and-bar.png" -n 20 --force
want=$(json_field checksum "$workdir/out")
mpi 4 -q --json --init "$srcdir/data/ring-and-bar.png" -n 20 --force
[ "$(json_field checksum "$workdir/out")" = "$want" ] \
  || fail "--init on 4 ranks differs from 1"

# one_message PATTERN: the last launch printed exactly one heatsim
# message, and it matches PATTERN.
one_message () {
  checks=$((checks + 1))
  lines=$(grep -c '^heatsim: ' "$workdir/err")
  [ "$lines" = 1 ] || fail "$lines messages, not 1: $(cat "$workdir/err")"
  grep -q -e "$1" "$workdir/err" || fail "message lacks '$1': $(cat "$workdir/err")"
}
mpi 2 -q -g 1x1 -n 1
[ $? -eq 2 ] || fail "2 ranks on a 1x1 grid: not status 2"
one_message "2 MPI ranks cannot share a 1x1 grid"
mpi 3 -q -g 2x2 -n 1
[ $? -eq 2 ] || fail "3 ranks on a 2x2 grid: not status 2"
one_message "3 MPI ranks cannot share a 2x2 grid"
mpi 4 -q -g 10 -n 1 --steps 0x
[ $? -eq 2 ] || fail "bad option on 4 ranks: not status 2"
one_message "steps"
# The ranks on one node share its memory: parts that each fit but
# together do not are refused before any is allocated (each rank
# checked its own part alone, and the OOM killer could end the run).
# The whole grid's two fields take 120 % of MemAvailable, a part of 4
# about 30 %; ulimit -v holds each rank to 25 %, so that a run past the
# check fails to allocate (exit 1) rather than taking the machine's
# memory.
kib=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
if [ -n "$kib" ] && [ -z "${HEATSIM_SANITIZED:-}" ]; then
  n=$(awk -v k="$kib" 'BEGIN { printf "%d", sqrt(1.2 * k * 1024 / 16) - 2 }')
  (ulimit -v $((kib / 4)) && mpi 4 -q -g "$n" -n 1 --force --png-every 1 \
     --output-dir big)
  [ $? -eq 2 ] || fail "4 parts that do not fit together: not status 2: \
$(cat "$workdir/err")"
  one_message "^heatsim: --grid: ${n}x${n}: the parts of the 4 ranks on this node need [0-9.]* GiB together for an explicit run (fields); only [0-9.]* GiB are available$"
  [ ! -e big ] || fail "the refusal of 4 parts made big/"
fi
# Only rank 1 lacks its device (OMP_TARGET_OFFLOAD=MANDATORY there, where
# there is none; offload disabled there and --require-device, where the
# host plugin gives every rank devices): all ranks stop, and rank 1 says
# why.
if host_plugin; then
  lack='env OMP_TARGET_OFFLOAD=DISABLED'
  want="rank 1: --require-device: target regions on device [0-9]* run on the host"
  required=--require-device
else
  lack='env OMP_TARGET_OFFLOAD=MANDATORY'
  want="rank 1: --offload [a-z]*: no offload device"   # auto, the default
  required=
fi
"$MPIEXEC" -np 1 "$HEATSIM" -q -g 64 : -np 1 $lack \
  "$HEATSIM" -q -g 64 $required >"$workdir/out" 2>"$workdir/err"
[ $? -eq 3 ] || fail "device missing on rank 1: not status 3"
one_message "$want"
# Under --json rank 0 alone prints one object, with the message of the
# rank that failed; also for a refused command line.
"$MPIEXEC" -np 1 "$HEATSIM" -q --json -g 64 : -np 1 $lack \
  "$HEATSIM" -q --json -g 64 $required >"$workdir/out" 2>"$workdir/err"
[ $? -eq 3 ] || fail "--json, device missing on rank 1: not status 3"
one_message "$want"
[ "$(wc -l <"$workdir/out")" -eq 1 ] \
  && grep -q "\"status\": \"no_device\", \"exit_status\": 3, \"error\": \"$want" \
    "$workdir/out" || fail "--json, device missing on rank 1: $(cat "$workdir/out")"
# Without --require-device, a rank whose target regions run on the host
# makes the whole run's report say so: on_device is every rank's (it was
# rank 0's, a hostile test pass found).
if host_plugin; then
  "$MPIEXEC" -np 1 "$HEATSIM" -q --json -g 64 -o resident : -np 1 $lack \
    "$HEATSIM" -q --json -g 64 -o resident >"$workdir/out" 2>"$workdir/err"
  [ $? -eq 0 ] && grep -q '"on_device": false' "$workdir/out" \
    || fail "rank 1 on the host: $(cat "$workdir/out" "$workdir/err")"
fi
mpi 4 -q --json -g 10 -n 1 --steps 0x
[ $? -eq 2 ] && [ "$(wc -l <"$workdir/out")" -eq 1 ] \
  && grep -q '"status": "usage_error"' "$workdir/out" \
  || fail "bad option on 4 ranks, --json: $(cat "$workdir/out")"
# Ranks given different options or inputs (an MPMD launch, or node-local
# copies of one path that differ) end, each, with status 2 and one
# message from the first rank that differs, instead of a mixed field, a
# hang or an MPI abort.  timeout bounds each launch: a hang fails.
# mpmd ARGS0 -- ARGS1: heatsim with ARGS0 on rank 0 and ARGS1 on rank 1.
mpmd () {
  _args0=
  while [ "$1" != -- ]; do
    _args0="$_args0 $1"
    shift
  done
  shift
  timeout "${MPI_LIMIT:-120}" "$MPIEXEC" -np 1 "$HEATSIM" $_args0 : -np 1 \
    "$HEATSIM" "$@" >"$workdir/out" 2>"$workdir/err"
}
# disagree WANT ARGS0 -- ARGS1: that launch exits 2 with one message
# matching WANT.
disagree () {
  _want=$1
  shift
  mpmd "$@"
  _status=$?
  if [ $_status -eq 2 ]; then
    one_message "$_want"
  else
    fail "$*: status $_status$([ $_status -eq 124 ] && echo ' (hung)'), expected 2: $(cat "$workdir/err")"
  fi
}
rm -rf ab
mpi 1 -q -p disk -g 24x20 -L 1 -a 1 --dt 1e-5 -n 10 --checkpoint-every 5 \
  --output-dir ab || fail "checkpoints for --init: $(cat "$workdir/err")"
cp ab/heatsim-000000.h5 ab/copy.h5
disagree "rank 1: --init: ab/heatsim-000005.h5 differs from rank 0's file" \
  -q --init ab/heatsim-000000.h5 -n 5 -- -q --init ab/heatsim-000005.h5 -n 5
disagree "rank 1: --restart: ab/heatsim-000010.h5 differs from rank 0's file" \
  -q --restart ab/heatsim-000005.h5 -n 5 -- -q --restart ab/heatsim-000010.h5 -n 5
disagree "rank 1: --steps differs from rank 0's" -q -g 32 -n 5 -- -q -g 32 -n 6
disagree "rank 1: --grid differs from rank 0's" -q -g 32 -n 5 -- -q -g 33 -n 5
disagree "rank 1: --residual-every differs from rank 0's" \
  -q -p plate -s --solver jacobi -g 32 -- -q -p plate -s --solver jacobi -g 32 --residual-every 7
disagree "rank 1: --png-every differs from rank 0's" -q -g 32 -n 5 --output-dir pngs \
  -- -q -g 32 -n 5 --output-dir pngs --png-every 2
disagree "rank 1: --temperature-unit differs from rank 0's" -q -g 32 -n 5 \
  -L 1 -a 1e-5 --temperature-unit K -- -q -g 32 -n 5 -L 1 -a 1e-5 --temperature-unit degC
# Options compared from the option table, the material ones too.
disagree "rank 1: --source differs from rank 0's" -q -g 32 -n 5 \
  --conductivity 1 --density 1 --heat-capacity 1 --source 1 -- -q -g 32 -n 5 \
  --conductivity 1 --density 1 --heat-capacity 1 --source 2
disagree "rank 1: --start-time differs from rank 0's" \
  -q --init ab/heatsim-000005.h5 -n 5 -- -q --init ab/heatsim-000005.h5 -n 5 --start-time 1
# Schedules (issue 24) are inputs: their contents are compared, for
# --source-schedule instead of its name, for --bc's @FILE besides it
# (node-local copies: one name, a directory of each rank's own).
printf '0,1\n1,2\n' >sched-a.csv
printf '0,1\n1,3\n' >sched-b.csv
disagree "rank 1: --source-schedule: sched-b.csv differs from rank 0's file" \
  -q -g 32 -n 5 --source 1 --source-schedule sched-a.csv -- -q -g 32 -n 5 \
  --source 1 --source-schedule sched-b.csv
mkdir -p node0 node1
cp sched-a.csv node0/h.csv
cp sched-b.csv node1/h.csv
timeout "${MPI_LIMIT:-120}" "$MPIEXEC" -np 1 -wdir node0 "$HEATSIM" -q -g 32 \
  -n 5 --bc left=convection:@h.csv,0 : -np 1 -wdir node1 "$HEATSIM" -q \
  -g 32 -n 5 --bc left=convection:@h.csv,0 >"$workdir/out" 2>"$workdir/err"
[ $? -eq 2 ] || fail "--bc schedules that differ: not status 2"
one_message "rank 1: --bc: h.csv differs from rank 0's file"
# A file that one rank alone cannot read (or reads otherwise, so that
# its options fail there only) ends every rank with that rank's message,
# not a hang in the others' first collective operation; with --json rank
# 0 prints one object with it.
cp sched-a.csv node0/s.csv
rm -f node1/s.csv
timeout "${MPI_LIMIT:-120}" "$MPIEXEC" -np 1 -wdir node0 "$HEATSIM" -q --json \
  -g 32 -L 1 -a 1e-3 -n 3 --source 1 --source-schedule s.csv : -np 1 -wdir node1 \
  "$HEATSIM" -q --json -g 32 -L 1 -a 1e-3 -n 3 --source 1 --source-schedule s.csv \
  >"$workdir/out" 2>"$workdir/err"
_status=$?
[ $_status -eq 2 ] \
  || fail "a schedule missing on rank 1: status $_status$([ $_status -eq 124 ] && echo ' (hung)'), expected 2: $(cat "$workdir/err")"
one_message "rank 1: --source-schedule: s.csv: cannot open"
grep -q '"exit_status": 2, "error": "rank 1: --source-schedule' "$workdir/out" \
  || fail "--json, a schedule missing on rank 1: $(cat "$workdir/out")"
# Under --json rank 0 prints one object with that message.
disagree "rank 1: --steady differs from rank 0's" -q --json -p plate -g 32 -- \
  -q --json -p plate -g 32 -s
grep -q '"status": "usage_error", "exit_status": 2, "error": "rank 1: --steady' \
  "$workdir/out" || fail "--json, --steady on rank 1 only: $(cat "$workdir/out")"
# The contents decide, not the names: a copy under another name is the
# same input; and each rank's device is its own.
dev=
host_plugin && dev='--device 0'
# (The checkpoint's domain and alpha are taken: --dt keeps it stable.)
if mpmd -q --json --init ab/heatsim-000000.h5 --dt 1e-5 -n 5 -- -q --json \
  --init ab/copy.h5 --dt 1e-5 -n 5 $dev
then
  got=$(json_field checksum "$workdir/out")
  mpi 2 -q --json --init ab/heatsim-000000.h5 --dt 1e-5 -n 5
  [ "$got" = "$(json_field checksum "$workdir/out")" ] \
    || fail "--init of a copy on rank 1: another field"
else
  fail "--init of a copy on rank 1: $(cat "$workdir/err")"
fi
# --monitor: the values are reduced over all ranks and rank 0 writes;
# min, max and the steady change are the 1-rank values exactly (sums may
# differ in the last digit), and the last row is that run's report.
for n in 1 3; do
  rm -f "mon$n.csv"
  mpi $n -q --json -g 48x40 -L 1 -a 1e-4 -n 250 -T 0.5 -o resident \
    --monitor "mon$n.csv" --monitor-every 100 \
    || fail "--monitor on $n ranks: $(cat "$workdir/err")"
  [ "$(tail -n 1 "mon$n.csv" | cut -d, -f3)" = "$(json_field heat "$workdir/out")" ] \
    || fail "--monitor on $n ranks: last heat is not the report's"
  rm -f "steady$n.csv"
  mpi $n -q -p plate -s --solver jacobi -g 47x33 --tol 0.05 --monitor "steady$n.csv" \
    --monitor-every 20 || fail "steady --monitor on $n ranks"
done
[ "$(cut -d, -f1,2,4,5 mon1.csv)" = "$(cut -d, -f1,2,4,5 mon3.csv)" ] \
  || fail "--monitor rows differ on 3 ranks: $(diff mon1.csv mon3.csv)"
[ "$(cut -d, -f1,4,5,7 steady1.csv)" = "$(cut -d, -f1,4,5,7 steady3.csv)" ] \
  || fail "steady --monitor rows differ on 3 ranks"
close_to "$(tail -n 1 mon3.csv | cut -d, -f3)" "$(tail -n 1 mon1.csv | cut -d, -f3)" 1e-13 \
  || fail "--monitor heat on 3 ranks far from 1 rank's"
pass
# --probe and --profile: every value gathered exactly, so the files are
# the same byte for byte on any number of ranks; so are the peak and its
# node (the mean is a sum: close).
for n in 1 3 4; do
  rm -rf "probe$n"
  mpi $n -q --json -p disk -g 48x40 -L 1 -a 1 --dt 1e-5 -n 120 -o resident \
    --probe 0.5,0.5 --probe 0.123,0.877 --probe 0,0.3 --probe 1,1 \
    --probe 0.34,0.26 --probe-every 25 --profile 0,0,1,1 \
    --checkpoint-every 60 --output-dir "probe$n" \
    || { fail "--probe on $n ranks: $(cat "$workdir/err")"; continue; }
  json_field peak "$workdir/out" >"peak$n"
  json_field peak_x "$workdir/out" >>"peak$n"
  json_field peak_y "$workdir/out" >>"peak$n"
  json_field mean "$workdir/out" >"mean$n"
done
for n in 3 4; do
  for f in probes.csv profile.csv profile-000060.csv; do
    cmp -s "probe1/$f" "probe$n/$f" \
      || fail "$f differs on $n ranks: $(diff "probe1/$f" "probe$n/$f" | head -n 4)"
  done
  cmp -s peak1 "peak$n" || fail "peak on $n ranks: $(tr '\n' ' ' <"peak$n")"
  close_to "$(cat "mean$n")" "$(cat mean1)" 1e-13 || fail "mean on $n ranks"
  pass
done
[ "$(wc -l <probe1/probes.csv)" -eq 7 ] || fail "--probe on MPI: rows"
# Heat rates through the edges: sums along the edges, so close on any
# number of ranks (to 1e-12 of the largest), for fixed and periodic edges
# (an uneven field, so that no rate is zero by symmetry).
for b in dirichlet periodic; do
  for n in 1 2 3 4; do
    mpi $n -q --json --init "$srcdir/data/ring-and-bar.png" -b "$b" -L 1 \
      -a 1 --dt 1e-6 -n 200 \
      || { fail "heat rates ($b) on $n ranks: $(cat "$workdir/err")"; continue; }
    for e in left right bottom top; do
      json_field "heat_rate_$e" "$workdir/out"
    done >"rates$n"
  done
  for n in 2 3 4; do
    paste rates1 "rates$n" | awk '{ d = $1 - $2; d = d < 0 ? -d : d;
      m = $1 < 0 ? -$1 : $1; if (m > big) big = m; if (d > worst) worst = d }
      END { exit !(big > 0 && worst <= 1e-12 * big) }' \
      || fail "heat rates ($b) on $n ranks: $(paste rates1 "rates$n" | tr '\n' ' ')"
    pass
  done
done
finish
