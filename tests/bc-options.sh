#!/bin/sh
# The options of issue 24 (--bc, schedules, --source-schedule, face
# cooling; --boundary and --edges as shorthands): every bad input is
# refused with status 2, a message naming the option (and a schedule's
# file and line), and no output file; the shorthands give the run that
# --bc gives; a restart goes on with the conditions of its checkpoint
# (old checkpoints too) and reads their schedules again; a case file
# holds --bc options.
. "${srcdir:-.}/tests/testlib.sh"

# Schedules: good ones, and one for each way a file can be wrong.
printf 'time,value\n0,10\n1,20\n' >ramp.csv
printf '0,25\n' >flat.csv
printf 'time,value\n0,1\n2,-2\n' >negative.csv
printf 'time,value\n0,1\n2,1\n1,1\n' >decreasing.csv
printf 't,v\n0,1\n2,warm\n' >words.csv
printf '0,5\r1,6\r' >oldmac.csv
printf 'nan,1\n1,2\n' >nanfirst.csv
printf '\357\273\2770,5\n1,7\n' >bom.csv

# refused_clean WANT ARGS...: refused (testlib.sh), and no file written
# although the run asks for every kind of output.
refused_clean () {
  _want=$1
  shift
  mkdir outputs
  refused "$_want" "$@" --output-dir outputs --checkpoint-every 1 \
    --png-every 1 --monitor outputs/monitor.csv
  [ -z "$(ls -A outputs)" ] \
    || fail "'$*': refused, but wrote $(ls -A outputs)"
  rm -rf outputs
}

run='-g 8 -n 2'
refused_clean "^heatsim: --bc: unknown edge 'middle' (choose left, right, bottom, top or all)" \
  $run --bc middle=insulated
refused_clean "^heatsim: --bc left: unknown kind 'hot'" $run --bc left=hot:1
refused_clean "^heatsim: --bc: 'left' is not EDGE=SPEC" $run --bc left
refused_clean "^heatsim: --bc: the left edge is periodic but the right edge is temperature" \
  $run --bc left=periodic
refused_clean "^heatsim: --bc: the top edge is periodic but the bottom edge is insulated" \
  $run -b periodic --bc bottom=insulated
refused_clean "^heatsim: --bc top: '-1,20': H -1 is negative" $run \
  --bc top=convection:-1,20
refused_clean "^heatsim: --bc top: negative.csv:3: value -2 is below 0" $run \
  --bc top=convection:@negative.csv,20
refused_clean "^heatsim: --bc left: decreasing.csv:4: time 1 does not follow 2" \
  $run --bc left=temperature:@decreasing.csv
refused_clean "^heatsim: --bc right: words.csv:3: '2,warm' is not a row" $run \
  --bc right=flux:@words.csv
# Rows are not lost to a carriage return inside a line (old Mac line
# ends) or a first field that is a number but not finite (not a header).
refused_clean "^heatsim: --bc left: oldmac.csv:1: a carriage return inside a line" $run \
  --bc left=temperature:@oldmac.csv
refused_clean "^heatsim: --bc left: nanfirst.csv:1: 'nan,1' is not a row" \
  $run --bc left=temperature:@nanfirst.csv
# A UTF-8 byte order mark (spreadsheets write one) is not a header: the
# first row counts (5 at t = 0, 7 at t = 1: 6 at t = 0.5).
expect_status 0 "$HEATSIM" -q --json -g 4 -L 1 -a 1 --dt 0.01 -n 50 \
  --bc all=insulated --bc left=temperature:@bom.csv --bc right=temperature:6 \
  --probe 0,0.5 --probe-file bom-probe.csv -o host
[ "$(sed -n 2p bom-probe.csv)" = 0,0,5 ] \
  || fail "BOM: left edge at t = 0: $(sed -n 2p bom-probe.csv)"
[ "$(tail -n 1 bom-probe.csv)" = 50,0.5,6 ] \
  || fail "BOM: left edge at t = 0.5: $(tail -n 1 bom-probe.csv)"
refused_clean "^heatsim: --bc bottom: missing.csv: cannot open" $run \
  --bc bottom=convection:5,@missing.csv
refused_clean "^heatsim: --bc left: 'temperature' needs a value" $run \
  --bc left=temperature
refused_clean "^heatsim: --bc all: '5': convection needs H,TINF" $run \
  --bc all=convection:5
refused_clean "^heatsim: --bc left: 'inf' is out of range" $run --bc left=flux:inf
refused_clean "^heatsim: --bc left: 'insulated:0': insulated takes no value" $run \
  --bc left=insulated:0
refused_clean "^heatsim: --source-schedule: decreasing.csv:4: time 1" $run \
  --source 1 --source-schedule decreasing.csv
refused_clean "^heatsim: --source-schedule: only with a heat source" $run \
  --source-schedule ramp.csv
refused_clean "^heatsim: --surface-convection: negative.csv:3: value -2 is below 0" \
  $run --thickness 1e-3 --surface-convection @negative.csv,20
refused_clean "^heatsim: --thickness: needs --surface-convection" $run \
  --thickness 1e-3
refused_clean "^heatsim: --edges: fixed edge values need --boundary dirichlet" \
  $run -b neumann --edges 1,2,3,4
refused_clean "^heatsim: --bc left: ramp.csv: the values change in time: not with --steady" \
  -p plate -g 8 -s --bc left=temperature:@ramp.csv
# A schedule that does not vary is a constant: a steady run takes it.
expect_status 0 "$HEATSIM" -p plate -g 8 -s --bc left=temperature:@flat.csv \
  --print-case

# sum ARGS...: the checksum of heatsim -q --json ARGS.
sum () {
  expect_status 0 "$HEATSIM" -q --json "$@" || return 1
  json_field checksum "$workdir/out"
}
# bc ARGS...: the JSON report's "bc" object.
bc () {
  expect_status 0 "$HEATSIM" -q --json "$@" || return 1
  sed -n 's/.*"bc": \({[^}]*}, "right": {[^}]*}, "bottom": {[^}]*}, "top": {[^}]*}}\).*/\1/p' \
    "$workdir/out"
}
# edges_line ARGS...: the text report's line of the edges.
edges_line () {
  expect_status 0 "$HEATSIM" -q "$@" || return 1
  grep '^  edges ' "$workdir/out"
}

# The shorthands: the same conditions, the same run.
run='-g 12x10 -T 0.01 --steps auto -a 1 -L 1'
want=$(bc $run --bc all=insulated)
[ "$want" = '{"left": {"kind": "insulated", "value": 0}, "right": {"kind": "insulated", "value": 0}, "bottom": {"kind": "insulated", "value": 0}, "top": {"kind": "insulated", "value": 0}}' ] \
  || fail "--bc all=insulated: bc $want"
[ "$(bc $run -b neumann)" = "$want" ] || fail "-b neumann: bc $(bc $run -b neumann)"
[ "$(sum $run -b neumann)" = "$(sum $run --bc all=insulated)" ] \
  || fail "-b neumann and --bc all=insulated run differently"
[ "$(sum $run -b periodic)" = "$(sum $run --bc all=periodic)" ] \
  || fail "-b periodic and --bc all=periodic run differently"
[ "$(sum $run -b dirichlet)" = "$(sum $run)" ] \
  || fail "-b dirichlet is not the problem's own edges"
[ "$(sum $run -b periodic)" != "$(sum $run -b neumann)" ] \
  || fail "the kinds give the same field: the comparisons cannot fail"
want='  edges         left temperature 1, right temperature 2, bottom temperature 3, top temperature 4'
[ "$(edges_line $run --edges 1,2,3,4)" = "$want" ] \
  || fail "--edges: $(edges_line $run --edges 1,2,3,4)"
[ "$(edges_line $run --bc left=temperature:1 --bc right=temperature:2 \
      --bc bottom=temperature:3 --bc top=temperature:4)" = "$want" ] \
  || fail "--bc temperatures: not the --edges line"
[ "$(bc $run --edges 1,2,3,4)" = "$(bc $run --bc left=temperature:1 \
      --bc right=temperature:2 --bc bottom=temperature:3 --bc top=temperature:4)" ] \
  || fail "--edges and --bc temperatures: different bc objects"
# --bc over --edges over --boundary, whatever their order.
want='  edges         left temperature 1, right temperature 2, bottom insulated, top temperature 4'
[ "$(edges_line $run --bc bottom=insulated --edges 1,2,3,4 -b dirichlet)" = "$want" ] \
  || fail "--bc before --edges: $(edges_line $run --bc bottom=insulated --edges 1,2,3,4)"
[ "$(edges_line $run -b dirichlet --edges 1,2,3,4 --bc bottom=insulated)" = "$want" ] \
  || fail "--bc after --edges: $(edges_line $run --edges 1,2,3,4 --bc bottom=insulated)"
# SI units and schedules in the line.
want='  edges         left temperature (the problem'"'"'s), right flux 300 W/m^2, bottom convection 10 W/(m^2 K) to @ramp.csv, top insulated'
[ "$(edges_line -g 8 -n 2 --conductivity 1 --density 1 --heat-capacity 1 \
      --bc right=flux:300 --bc bottom=convection:10,@ramp.csv \
      --bc top=insulated)" = "$want" ] \
  || fail "SI line: $(edges_line -g 8 -n 2 --conductivity 1 --density 1 \
        --heat-capacity 1 --bc right=flux:300 \
        --bc bottom=convection:10,@ramp.csv --bc top=insulated)"
# A run no option gave conditions keeps its report.
[ -z "$(edges_line $run)" ] || fail "an edges line without options"

# Restart: the conditions of the checkpoint, its schedules read again;
# bitwise the run without the stop.
run='-g 12x10 --dt 1e-3 -n 8 -a 1 -L 1 -o host'
conds='--bc left=convection:@ramp.csv,20 --bc right=flux:3 --bc bottom=insulated --bc top=temperature:@flat.csv'
whole_bc=$(bc $run $conds)
whole=$(sum $run $conds)
mkdir first
expect_status 0 "$HEATSIM" -q $run $conds -n 4 --checkpoint-every 4 \
  --output-dir first
[ "$(bc --restart first/heatsim-000004.h5 -n 4 -o host)" = "$whole_bc" ] \
  || fail "restart: bc $(bc --restart first/heatsim-000004.h5 -n 4)"
[ "$(sum --restart first/heatsim-000004.h5 -n 4 -o host)" = "$whole" ] \
  || fail "restart: not bitwise the uninterrupted run"
# The restart's index lists the kept checkpoints where their nodes lie,
# as the new ones: one origin and one spacing for every step.
expect_status 0 "$HEATSIM" -q --restart first/heatsim-000004.h5 -n 4 \
  --checkpoint-every 4 --output-dir first -o host
[ "$(grep -c '<Grid Name="step' first/heatsim.xmf)" = 3 ] \
  || fail "restart: index of $(grep -c '<Grid Name="step' first/heatsim.xmf) steps"
[ "$(grep -A2 '<Geometry' first/heatsim.xmf | grep DataItem | sort -u | wc -l)" = 2 ] \
  || fail "restart: kept checkpoints placed apart: $(grep -A2 '<Geometry' first/heatsim.xmf | grep DataItem | sort -u)"
refused "^heatsim: --bc: not allowed with --restart (the checkpoint fixes it)" \
  --restart first/heatsim-000004.h5 -n 4 --bc right=flux:3
refused "^heatsim: --thickness: not allowed with --restart" \
  --restart first/heatsim-000004.h5 -n 4 --thickness 1 \
  --surface-convection 1,2
mv ramp.csv ramp-moved.csv
refused "^heatsim: --restart: first/heatsim-000004.h5: --bc left: ramp.csv: cannot open" \
  --restart first/heatsim-000004.h5 -n 4
mv ramp-moved.csv ramp.csv
# Face cooling and the source schedule go on too.
expect_status 0 "$HEATSIM" -q $run -n 4 --checkpoint-every 4 --output-dir \
  first --checkpoint-name cool-%d.h5 --source 1 --source-schedule ramp.csv \
  --thickness 2e-3 --surface-convection 0.1,@flat.csv
expect_status 0 "$HEATSIM" -q --restart first/cool-4.h5 -n 4 \
  --checkpoint-every 4 --output-dir second --checkpoint-name cool-%d.h5
if [ -n "$H5DUMP" ]; then
  for a in source_schedule thickness surface_convection; do
    $H5DUMP -a "$a" first/cool-4.h5 | grep '(0)' >one
    $H5DUMP -a "$a" second/cool-8.h5 | grep '(0)' >two
    [ -s one ] && cmp -s one two \
      || fail "restart: attribute $a $(cat one) became $(cat two)"
  done
  $H5DUMP -a bc_left first/heatsim-000004.h5 | grep -q '"convection:@ramp.csv,20"' \
    || fail "bc_left: $($H5DUMP -a bc_left first/heatsim-000004.h5)"
fi
# A checkpoint of heatsim-checkpoint-1, before --bc: its boundary
# attribute's kind on every edge.
[ "$(bc --restart "$srcdir/tests/data/checkpoint-v1.h5" -n 1)" = '{"left": {"kind": "periodic"}, "right": {"kind": "periodic"}, "bottom": {"kind": "periodic"}, "top": {"kind": "periodic"}}' ] \
  || fail "old checkpoint: bc $(bc --restart "$srcdir/tests/data/checkpoint-v1.h5" -n 1)"

# A case file with --bc options: the command line's run, and
# --print-case gives them back in order (the schedule by its absolute
# name).
run='-g 12x10 -T 0.01 --steps auto -a 1 -L 1'
cat >walls.case <<'EOF'
grid = 12x10
end-time = 0.01
steps = auto
alpha = 1
length = 1
edges = 100,0,0,0
bc = all=insulated
bc = left=temperature:100
bc = right=convection:2,@flat.csv
EOF
want=$(sum $run --edges 100,0,0,0 --bc all=insulated --bc left=temperature:100 \
  --bc right=convection:2,@flat.csv)
[ -n "$want" ] && [ "$(sum --case walls.case)" = "$want" ] \
  || fail "the case file and the command line differ"
expect_status 0 "$HEATSIM" --case walls.case --print-case
grep -v '^#' "$workdir/out" | grep '^bc = ' >printed
printf '%s\n' 'bc = all=insulated' 'bc = left=temperature:100' \
  "bc = right=convection:2,@$(pwd -P)/flat.csv" | cmp -s - printed \
  || fail "--print-case: $(cat printed)"
[ "$(edges_line --case walls.case)" = '  edges         left temperature 100, right convection 2 to @flat.csv, bottom insulated, top insulated' ] \
  || fail "case file: $(edges_line --case walls.case)"

finish
