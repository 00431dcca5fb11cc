#!/bin/sh
# Temporal blocking (--tile-steps, kernels_tiled.c): explicit host steps
# fused into passes give bitwise the fields of plain steps (--tile-steps
# 1), of the constant stencil and of a variable material (sources, a
# layered map with contrast, face cooling), for every edge kind a pass
# computes, odd and tiny grids, step
# counts that are no multiple of the pass; outputs, --monitor and probe
# rows, the NaN check and signals fall on the same steps; runs a pass
# cannot follow exactly fall back to plain steps and say why; MPI runs
# on 1-4 ranks agree, of a varying material too.
. "${srcdir:-.}/tests/testlib.sh"

run () { "$HEATSIM" -q --json -o host "$@"; }

# agree T ARGS...: the final field of --tile-steps T and of plain steps
# are bitwise the same, and the T run fused.
agree () {
  _t=$1
  shift
  expect_status 0 run --tile-steps 1 "$@" || return
  cp "$workdir/out" "$workdir/plain.json"
  expect_status 0 run --tile-steps "$_t" "$@" || return
  [ "$(json_field checksum "$workdir/out")" = \
    "$(json_field checksum "$workdir/plain.json")" ] \
    || fail "--tile-steps $_t differs from plain steps ($*)"
  [ "$(json_field tile_steps "$workdir/out")" = "$_t" ] \
    || fail "--tile-steps $_t did not fuse ($*): $(json_field tile_refusal \
"$workdir/out")"
  # The field really changed: a run that did nothing would also agree.
  [ "$(json_field min "$workdir/plain.json")" != \
    "$(json_field max "$workdir/plain.json")" ] \
    || fail "no change ($*)"
}

flux='--bc left=flux:1e3 --bc right=convection:10,20'
for t in 2 3 5 8; do
  agree $t -g 64 -n 37                                      # Dirichlet (mms)
  agree $t -p plate -g 30x41 -n 61                          # Dirichlet edges
  agree $t -p disk -g 61x45 -n 50 -b neumann                # insulated
  agree $t -p disk -g 40x30 -L 1 -a 1 -T 1e-3 -n 40 \
    --bc left=periodic --bc right=periodic                  # periodic x
  agree $t -g 57x33 -n 45 $flux --bc bottom=insulated \
    --bc top=convection:5,-3                                # heat in
  agree $t -g 33x2 -n 29 -b neumann -T 1e-3                 # two rows
  agree $t -g 2x9 -n 23 $flux                               # two columns
  agree $t -g 3x1 -n 17 -T 1e-3                             # one row
  agree $t -g 1x3 -n 19 --bc bottom=flux:2 --bc top=insulated  # one column
done
# More threads than rows; a pass longer than the run.
OMP_NUM_THREADS=5 agree 4 -g 7x3 -n 13 $flux
agree 16 -g 20x18 -n 9 $flux

# A variable material: uniform with a source in a rectangle (the
# variable step), face cooling, and a layered wall of brick and
# insulation (conductivities 18 times apart); the edges' heat goes into
# the edge nodes, after the update, as the plain step adds it.
src='-L 1 -T 1e-3 --conductivity 0.1 --density 1 --heat-capacity 1
  --source-rect 0.2,0.6,0.1,0.5,500'
cool='--thickness 0.01 --surface-convection 5,20'
wall="--material-map $srcdir/data/wall.png --material #b22222=brick
  --material #ffd700=k=0.04,rho=30,cp=840 -L 0.4x8 -T 100"
for t in 2 3 5 8; do
  agree $t -g 37x29 -n 29 $src                              # Dirichlet
  agree $t -g 40x31 -n 33 $src -b neumann $cool             # insulated
  agree $t -g 41x30 -n 31 $src $flux --bc bottom=insulated \
    --bc top=convection:5,-3                                # heat in
  agree $t -g 40x30 -n 40 $src --bc left=periodic --bc right=periodic \
    --bc top=flux:200                                       # periodic x
  agree $t -g 33x2 -n 29 $src -b neumann --bc left=flux:300 # two rows
  agree $t -g 2x9 -n 23 $src $flux                          # two columns
  agree $t -g 3x1 -n 17 $src $cool                          # one row
  agree $t -g 1x3 -n 19 $src --bc bottom=flux:2 --bc top=insulated
  agree $t $wall -n 40 --edges 20,-10,20,20                 # layered wall
  agree $t $wall -n 48 --bc left=flux:30 --bc right=convection:8,-10 \
    --bc bottom=insulated --bc top=temperature:5 $cool
done
OMP_NUM_THREADS=5 agree 4 -g 7x3 -n 13 $src $flux

# Column tiles (HEATSIM_TILE_COLUMNS) of the rows a band sweeps: one
# column (far narrower than the 2T - 2 columns its trapezoid's first
# level reaches beyond it), widths that do not divide the grid's, tiles
# wider than the grid; every edge kind at the tiles that reach an edge
# (a periodic side's halo needs the far end: one tile spans the grid).
for w in 1 3 5 16 100; do
  HEATSIM_TILE_COLUMNS=$w
  export HEATSIM_TILE_COLUMNS
  for t in 2 5 8; do
    agree $t -g 37x23 -n 29 $flux --bc bottom=insulated \
      --bc top=convection:5,-3
    agree $t -p disk -g 41x30 -n 31 -b neumann
    agree $t -p plate -g 23x17 -n 25
  done
  agree 4 -p disk -g 40x30 -L 1 -a 1 -T 1e-3 -n 40 \
    --bc left=periodic --bc right=periodic
  agree 3 -g 2x9 -n 23 $flux
  OMP_NUM_THREADS=3 agree 6 -g 45x19 -n 40 $flux --bc top=insulated
  agree 5 -g 37x23 -n 29 $src $flux --bc bottom=insulated $cool
  agree 4 -g 40x30 -n 40 $src --bc left=periodic --bc right=periodic
  OMP_NUM_THREADS=3 agree 6 $wall -n 44 --bc left=flux:30 \
    --bc right=convection:8,-10 -b neumann
done
unset HEATSIM_TILE_COLUMNS
for w in 0 -2 x 3c ''; do
  HEATSIM_TILE_COLUMNS=$w
  export HEATSIM_TILE_COLUMNS
  refused "HEATSIM_TILE_COLUMNS=$w: not a whole" -o host -g 20 -n 5 \
    --tile-steps 4
done
# A whole number too large is said so, not "not a whole number".
HEATSIM_TILE_COLUMNS=99999999999999999999
export HEATSIM_TILE_COLUMNS
refused "HEATSIM_TILE_COLUMNS=99999999999999999999: too many columns" -o host \
  -g 20 -n 5 --tile-steps 4
unset HEATSIM_TILE_COLUMNS

# Fallbacks: decided once, reported, and the field is still the same.
# fallback WHY ARGS...
fallback () {
  _why=$1
  shift
  expect_status 0 run --tile-steps 4 "$@" || return
  [ "$(json_field tile_steps "$workdir/out")" = 1 ] \
    || fail "fused where it cannot ($*)"
  json_field tile_refusal "$workdir/out" | grep -q -e "$_why" \
    || fail "($*): refusal '$(json_field tile_refusal "$workdir/out")', \
not '$_why'"
}
fallback 'periodic bottom and top' -p disk -b periodic -g 40x30 -L 1 -a 1 \
  -T 1e-3 -n 20
fallback 'one column wide' -g 1x9 -n 5 --bc left=flux:1
printf 'time,value\n0,10\n1,20\n' >ramp.csv
fallback 'schedule' -g 20 -n 5 --bc left=flux:@ramp.csv
fallback 'schedule' -g 20 -n 5 --bc left=temperature:@ramp.csv
fallback "edge's heat follows a schedule" -g 20 -n 5 --source 1 \
  --bc left=flux:@ramp.csv
fallback 'source follows a schedule' -g 20 -n 5 --source 1 \
  --source-schedule ramp.csv
fallback 'face cooling follows a schedule' -g 20 -n 5 -T 1e-3 --source 1 \
  --thickness 1 --surface-convection @ramp.csv,3
fallback 'target regions' -g 20 -n 5 -o resident
expect_status 0 "$HEATSIM" -q --json -g 16 -n 3 --scheme backward-euler
[ "$(json_field tile_steps "$workdir/out")" = 1 ] || fail "implicit fused"
expect_status 0 run -g 300 -n 20
[ "$(json_field tile_steps "$workdir/out")" -gt 1 ] \
  || fail "auto did not fuse an eligible run"
expect_status 0 run -g 300 -n 40 $src
[ "$(json_field tile_steps "$workdir/out")" -gt 1 ] \
  || fail "auto did not fuse an eligible material run"

# Option errors.
refused "tile-steps.*whole number" --tile-steps x
refused "tile-steps.*at least 1" --tile-steps 0
refused "tile-steps: '-3' must be at least 1" --tile-steps -3
refused "tile-steps.*at most" --tile-steps 100000

# Outputs at steps inside a pass: the same files, rows and fields.
# files DIR: one line per output file with what it holds, provenance
# (which names the options) left out.
files () {
  for f in $(ls "$1"); do
    case $f in
      *.h5)
        if [ -n "${H5DUMP:-}" ]; then
          echo "$f $("$H5DUMP" -d /field -g /boundary "$1/$f" | tail -n +2 \
                     | cksum)"
        else
          echo "$f"
        fi ;;
      *.png) echo "$f $("$PNG_PROBE" "$1/$f" pixels)" ;;
      *) echo "$f $(cksum <"$1/$f")" ;;
    esac
  done
}
outputs="-g 37x29 -n 30 $flux --bc bottom=insulated --checkpoint-every 7
  --png-every 4 --monitor-every 3 --probe 300,400 --probe-every 5"
material_outputs="-g 37x29 -n 30 $flux --bc bottom=insulated
  --checkpoint-every 7 --png-every 4 --monitor-every 3 --probe 0.3,0.4
  --probe-every 5 $src $cool"
# Fused passes of 6, in one column tile and in tiles of 4 columns; of
# the constant stencil (c) and of a variable material (m).
for m in c m; do
  case $m in c) args=$outputs ;; m) args=$material_outputs ;; esac
  for t in 1 6 6x4; do
    mkdir "$workdir/o$m$t"
    case $t in *x*) w=${t#*x} ;; *) w=100000 ;; esac
    expect_status 0 env HEATSIM_TILE_COLUMNS=$w "$HEATSIM" -q --json \
      -o host --tile-steps ${t%x*} $args --output-dir "$workdir/o$m$t" \
      --monitor "$workdir/o$m$t/monitor.csv"
    files "$workdir/o$m$t" >"$workdir/files$m$t"
  done
  [ "$(wc -l <"$workdir/files${m}1")" -ge 20 ] \
    || fail "outputs ($m): too few files"
  for t in 6 6x4; do
    cmp -s "$workdir/files${m}1" "$workdir/files$m$t" \
      || fail "outputs differ ($m $t): $(diff "$workdir/files${m}1" \
"$workdir/files$m$t")"
  done
done

# An unstable step overflows mid-pass: the NaN check reports the same
# step (the first multiple of 7 after the overflow), constant (c) and
# variable (m).
for m in c m; do
  case $m in
    c) args='-a 1' ;;
    m) args='--conductivity 1 --density 1 --heat-capacity 1 --source 1' ;;
  esac
  for t in 1 5; do
    expect_status 5 run --tile-steps $t -g 64 -L 65 $args --dt 1 --force \
      -n 100000 --nan-check-every 7
    sed -n 's/.*after step \([0-9]*\).*/\1/p' "$workdir/err" \
      >"$workdir/nan$m$t"
  done
  [ -s "$workdir/nan${m}1" ] && cmp -s "$workdir/nan${m}1" "$workdir/nan${m}5" \
    || fail "NaN ($m) reported after step $(cat "$workdir/nan${m}5") fused, \
$(cat "$workdir/nan${m}1") plain"
done

# SIGTERM mid-run: it stops after a pass with that pass's checkpoint, and
# the restart ends with the field of an uninterrupted plain run.
sig="-p disk -g 150x130 -L 1 -a 1 --dt 1e-6"
mkdir "$workdir/sig"
"$HEATSIM" -q -o host $sig --tile-steps 8 -n 100000000 \
  --checkpoint-every 1000 --output-dir "$workdir/sig" \
  >"$workdir/bg.out" 2>"$workdir/bg.err" &
pid=$!
second () { [ -f "$workdir/sig/heatsim-001000.h5" ]; }
if wait_for $pid second; then
  kill -TERM $pid
  wait $pid
  status=$?
  [ "$status" -eq 143 ] || fail "SIGTERM: status $status"
  at=$(sed -n 's/.*stopped after step \([0-9]*\); checkpoint.*/\1/p' \
    "$workdir/bg.err")
  ckpt="$workdir/sig/heatsim-$(printf %06d "$at").h5"
  if [ -n "$at" ] && [ -f "$ckpt" ]; then
    expect_status 0 run --tile-steps 8 --restart "$ckpt" -n 50
    cp "$workdir/out" "$workdir/restarted.json"
    expect_status 0 run $sig --tile-steps 1 -n $((at + 50))
    [ "$(json_field checksum "$workdir/out")" = \
      "$(json_field checksum "$workdir/restarted.json")" ] \
      || fail "SIGTERM after step $at and restart differ from plain steps"
  else
    fail "SIGTERM: no checkpoint at the stop: $(cat "$workdir/bg.err")"
  fi
else
  kill -9 $pid 2>/dev/null
  fail "the run to stop never reached step 1000: $(cat "$workdir/bg.err")"
fi

# MPI: 1-4 ranks with fusing asked for agree with plain steps on 1.
# A part widened by its neighbours' cells as deep as the pass
# (tiled_ranks.c) fuses on every rank count, its material's step
# widened with it: every edge kind, periodic
# edges split over ranks (bottom and top too, which one rank cannot
# fuse), odd grids split unevenly, parts split along x (one row high),
# outputs and the NaN check inside passes, passes capped by the
# narrowest part.
if mpi_ready; then
  # ranks N T ARGS...: heatsim on N ranks, one thread each, --tile-steps T.
  ranks () {
    _n=$1 _t=$2
    shift 2
    env OMP_NUM_THREADS=1 "$MPIEXEC" -np "$_n" "$HEATSIM" -q --json -o host \
      --tile-steps "$_t" "$@"
  }
  mpi_case="-g 61x47 -n 45 $flux --bc bottom=insulated"
  expect_status 0 run --tile-steps 1 $mpi_case
  want=$(json_field checksum "$workdir/out")
  for n in 1 2 3 4; do
    expect_status 0 ranks $n 6 $mpi_case || continue
    [ "$(json_field checksum "$workdir/out")" = "$want" ] \
      || fail "MPI $n ranks, --tile-steps 6, differ from plain steps"
    [ "$(json_field tile_steps "$workdir/out")" = 6 ] \
      || fail "$n ranks did not fuse: $(json_field tile_refusal \
"$workdir/out")"
  done
  # mpi_agree ARGS...: plain steps on 1 rank; on 2, 3 and 4 ranks 3 and
  # 16 fused steps give its field, and fused (plain steps on several
  # ranks agree with one rank: mpi.sh).
  mpi_agree () {
    expect_status 0 ranks 1 1 "$@" || return
    _sum=$(json_field checksum "$workdir/out")
    for _n in 2 3 4; do
      for _t in 3 16; do
        expect_status 0 ranks $_n $_t "$@" || continue
        [ "$(json_field checksum "$workdir/out")" = "$_sum" ] \
          || fail "MPI $_n ranks, --tile-steps $_t, differ ($*)"
        _fused=$(json_field tile_steps "$workdir/out")
        case $_t in
          3) [ "$_fused" = 3 ] ;;
          *) [ "$_fused" -gt 3 ] ;;
        esac || fail "MPI $_n ranks, --tile-steps $_t fused $_fused ($*): \
$(json_field tile_refusal "$workdir/out")"
      done
    done
  }
  mpi_agree -g 64 -n 37                                     # Dirichlet
  mpi_agree -p plate -g 30x41 -n 61                         # given edges
  mpi_agree -p disk -g 61x45 -n 50 -b neumann               # insulated
  mpi_agree -g 57x33 -n 45 $flux --bc bottom=insulated \
    --bc top=convection:5,-3                                # heat in
  mpi_agree -p disk -g 40x30 -L 1 -a 1 -T 1e-3 -n 40 \
    --bc left=periodic --bc right=periodic                  # periodic x
  mpi_agree -p disk -b periodic -g 40x30 -L 1 -a 1 -T 1e-3 -n 40  # all
  # One row: the ranks split x, across the periodic sides too.
  mpi_agree -g 97x1 -n 31 -T 1e-3
  mpi_agree -g 97x1 -n 31 -T 1e-3 --bc left=periodic --bc right=periodic
  mpi_agree -g 83x1 -n 29 $flux -T 1e-3
  # A varying material (brick and an insulation 180 times less
  # conductive, a source rectangle, face cooling): the widened parts
  # carry its step's coefficients.  99 x 99 splits 1 x 2, 1 x 3 and
  # 2 x 2 (unevenly but for 3): Dirichlet and insulated edges, periodic
  # sides within a part (2, 3 ranks) and split (4); periodic bottom and
  # top split, flux and convection edges.
  mat="--material-map $srcdir/data/wall.png --material #b22222=brick
    --material #ffd700=k=0.004,rho=30,cp=840 -L 0.4x8 -T 100
    --source-rect 0.1,0.3,2,5,500 $cool"
  mpi_agree $mat -n 40 --bc left=periodic --bc right=periodic \
    --bc bottom=temperature:20 --bc top=insulated
  mpi_agree $mat -n 40 --bc bottom=periodic --bc top=periodic \
    --bc left=flux:30 --bc right=convection:8,-10
  # Parts 4 cells high (2 x 2 ranks): passes of at most 3 steps.
  expect_status 0 ranks 4 16 -g 30x8 -n 20
  [ "$(json_field tile_steps "$workdir/out")" = 3 ] \
    || fail "4 ranks of 30x8: not 3 steps per pass"
  # Parts 2 cells high cannot fuse: the run says why.
  expect_status 0 ranks 4 16 -g 30x4 -n 20
  json_field tile_refusal "$workdir/out" | grep -q "less than 3 cells" \
    || fail "4 ranks of 30x4: $(json_field tile_refusal "$workdir/out")"
  # auto takes plain steps on several ranks for the constant stencil
  # (slower fused, as measured) and fuses a varying material's (faster
  # fused, as measured), bitwise as plain steps.
  expect_status 0 ranks 2 auto -g 64 -n 37
  json_field tile_refusal "$workdir/out" | grep -q "auto on several MPI" \
    || fail "2 ranks, auto: $(json_field tile_refusal "$workdir/out")"
  auto_material="-g 20 -n 25 --conductivity 1 --density 1 --heat-capacity 1
    --source-rect 0,500,0,500,1"
  expect_status 0 ranks 2 1 $auto_material
  _sum=$(json_field checksum "$workdir/out")
  expect_status 0 ranks 2 auto $auto_material
  [ "$(json_field tile_steps "$workdir/out")" -gt 1 ] \
    || fail "2 ranks, auto, a material: $(json_field tile_refusal \
"$workdir/out")"
  [ "$(json_field checksum "$workdir/out")" = "$_sum" ] \
    || fail "2 ranks, auto, a material: differs from plain steps"
  # A schedule of one part's edge stops all parts fusing.
  expect_status 0 ranks 2 auto -g 20 -n 5 --bc left=flux:@ramp.csv
  json_field tile_refusal "$workdir/out" | grep -q schedule \
    || fail "2 ranks, a scheduled edge: $(json_field tile_refusal \
"$workdir/out")"
  # Outputs inside passes: the same files, rows and checkpoints (their
  # halo lines too) as plain steps on as many ranks.
  periodic="-p disk -b periodic -g 37x29 -L 1 -a 1 -T 3e-3 -n 30
    --checkpoint-every 7 --png-every 4 --monitor-every 3
    --probe 0.3,0.4 --probe-every 5"
  material="$mat -n 30 --bc bottom=periodic --bc top=periodic
    --bc left=flux:30 --checkpoint-every 7 --png-every 4 --monitor-every 3
    --probe 0.2,4 --probe-every 5"
  for n in 2 4; do
    for v in outputs periodic material; do
      for t in 1 6; do
        o=$workdir/m$n-$v-$t
        mkdir "$o"
        eval "args=\$$v"
        expect_status 0 ranks $n $t $args --output-dir "$o" \
          --monitor "$o/monitor.csv"
        files "$o" >"$o.files"
      done
      o=$workdir/m$n-$v
      [ "$(wc -l <"$o-1.files")" -ge 20 ] \
        || fail "MPI outputs: too few files ($n ranks, $v)"
      cmp -s "$o-1.files" "$o-6.files" \
        || fail "MPI $n ranks: outputs differ ($v): $(diff "$o-1.files" \
"$o-6.files")"
    done
  done
  # The NaN check inside a pass on 2 ranks: the same step as plain ones.
  for t in 1 5; do
    expect_status 5 ranks 2 $t -g 64 -L 65 -a 1 --dt 1 --force \
      -n 100000 --nan-check-every 7
    sed -n 's/.*after step \([0-9]*\).*/\1/p' "$workdir/err" \
      >"$workdir/mnan$t"
  done
  [ -s "$workdir/mnan1" ] && cmp -s "$workdir/mnan1" "$workdir/mnan5" \
    || fail "MPI: NaN reported after step $(cat "$workdir/mnan5") fused, \
$(cat "$workdir/mnan1") plain"
fi
finish
