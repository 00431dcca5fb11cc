#!/bin/sh
# Each host path (baseline x86-64, AVX2, AVX-512) this processor has,
# forced with HEATSIM_HOST_ISA, runs every kernel on that path (as
# --version and the JSON report say) and gives bitwise the baseline
# path's results: every path does the same arithmetic per cell, without
# fused multiply-adds, and the reductions (largest change, residual
# norms) are order-independent or summed in a fixed order.  Explicit
# steps (whole field and largest change), a material run (plain and
# fused into passes over the field), a multigrid steady plate,
# Crank-Nicolson steps, a steady material map (the black box
# multigrid's band substitutions) and a steady convection run on three
# levels (its host passes); in an MPI build, explicit and
# material steps on two ranks (the frame kernels).  Paths the processor
# (or the build) lacks are refused with status 2, and skipped here.
. "${srcdir:-.}/tests/testlib.sh"

kernels="explicit explicit_tiled material mg_smooth mg_residual mg_norms
  mg_transfer boxmg_band boxmg_passes"

# A name that is no path is refused before anything runs.
export HEATSIM_HOST_ISA=sse9
refused "HEATSIM_HOST_ISA=sse9: not a path" -g 8 -n 1
unset HEATSIM_HOST_ISA

paths=
for p in baseline avx2 avx512; do
  if HEATSIM_HOST_ISA=$p "$HEATSIM" --version >"$workdir/version" \
       2>"$workdir/err"; then
    paths="$paths $p"
  else
    grep -q "HEATSIM_HOST_ISA=$p: this .* lacks\|baseline path only" \
      "$workdir/err" || fail "HEATSIM_HOST_ISA=$p: $(cat "$workdir/err")"
    echo "path $p: not on this processor or build, skipped"
    continue
  fi
  # --version names the forced path for every kernel.
  want="Host paths:"
  sep=
  for k in $kernels; do
    want="$want$sep $k $p"
    sep=,
  done
  grep -qx "$want" "$workdir/version" \
    || fail "HEATSIM_HOST_ISA=$p --version: $(grep Host "$workdir/version")"
done
echo "paths run:$paths"
case $paths in
  " baseline") echo "only the baseline path here: nothing to compare"
               exit 77 ;;
  " baseline"*) ;;
  *) fail "the baseline path does not run"; finish; exit ;;
esac

# run NAME ARGS...: heatsim -q --json ARGS on each path (through
# $launch) into NAME-PATH.json; the JSON must name the path of every
# kernel.
launch=
run () {
  _name=$1
  shift
  for p in $paths; do
    expect_status 0 env HEATSIM_HOST_ISA=$p $launch "$HEATSIM" -q --json \
      "$@" || continue
    cp "$workdir/out" "$workdir/$_name-$p.json"
    for k in $kernels; do
      [ "$(json_field "$k" "$workdir/out")" = "$p" ] \
        || fail "$_name, HEATSIM_HOST_ISA=$p: JSON says $k ran" \
                "$(json_field "$k" "$workdir/out")"
    done
  done
}

# same NAME KEY...: each path's KEYs equal the baseline path's, bitwise
# (the checksum is of the field's bits; numbers are printed with 17
# digits).
same () {
  _name=$1
  shift
  for p in $paths; do
    [ -f "$workdir/$_name-$p.json" ] || continue
    for key in "$@"; do
      _want=$(json_field "$key" "$workdir/$_name-baseline.json")
      _got=$(json_field "$key" "$workdir/$_name-$p.json")
      [ -n "$_want" ] && [ "$_got" = "$_want" ] && pass \
        || fail "$_name: $key on $p is '$_got', on baseline '$_want'"
    done
  done
}

# Odd sizes, so that every vector loop has a remainder.
run explicit -g 37x29 -n 21 -o host --tile-steps 1
same explicit checksum l2_error
# The same steps fused in passes of 8 (the rows of the temporally
# blocked kernel), with insulated and convection edges.
run tiled -g 37x29 -n 21 -o host --tile-steps 8 --bc left=insulated \
  --bc top=convection:10,0.5
same tiled checksum l2_error
# Jacobi sweeps: the update fused with the largest change.
run jacobi -p plate -s --solver jacobi -g 45x33 --tol 1e-2 -o host
same jacobi checksum residual steps
# A material run: the variable-coefficient kernel.
run material --material-map "$srcdir/data/wall.png" \
  --material '#b22222=brick' --material '#ffd700=k=0.04,rho=30,cp=840' \
  -L 0.4x8 --edges 20,-10,20,20 -n 30 -o host --tile-steps 1
same material checksum heat
# Its steps fused in passes of 8 (the material rows of the temporally
# blocked kernel), with flux and convection edges and face cooling.
run material-tiled --material-map "$srcdir/data/wall.png" \
  --material '#b22222=brick' --material '#ffd700=k=0.04,rho=30,cp=840' \
  -L 0.4x8 -T 100 -n 48 -o host --tile-steps 8 --bc left=flux:30 \
  --bc right=convection:8,-10 --bc bottom=insulated --thickness 0.01 \
  --surface-convection 5,20
same material-tiled checksum heat tile_steps
[ "$(json_field tile_steps "$workdir/material-tiled-baseline.json")" = 8 ] \
  || fail "the material run did not fuse: $(json_field tile_refusal \
"$workdir/material-tiled-baseline.json")"
# Multigrid: smoothers, residual and norms.
run steady -p plate -s -g 127x95 -o host
same steady checksum residual_norm_final cycles
run cn -g 63x47 -n 4 --scheme crank-nicolson -o host
same cn checksum l2_error
# The black box multigrid's band substitutions: the wall's 99^2 nodes
# are one level, solved by its split band factor.
run material-steady --material-map "$srcdir/data/wall.png" \
  --material '#b22222=brick' --material '#ffd700=k=0.04,rho=30,cp=840' \
  -L 0.4x8 --edges 20,-10,20,20 -s -o host
same material-steady checksum residual_norm_final
# Its passes over finer levels (the host's wavefront, boxmg_passes): a
# uniform material with a convection edge takes the black box multigrid
# too, on three levels here, the finest 5-point and the next 9-point.
run boxmg-levels -g 300x260 -L 3x2.6 --conductivity 2 --density 1 \
  --heat-capacity 1 --source-rect 0.5,1,1,2,400 \
  --bc left=convection:8,20 --bc right=temperature:30 \
  --bc bottom=insulated --bc top=insulated -s -o host
same boxmg-levels checksum residual_norm_final cycles levels
[ "$(json_field levels "$workdir/boxmg-levels-baseline.json")" = 3 ] \
  || fail "the convection run took $(json_field levels \
"$workdir/boxmg-levels-baseline.json") levels, not 3"

# On two MPI ranks the cells next to the halo are updated after the
# exchange, by the frame kernels.
if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  launch="$MPIEXEC -np 2"
  run mpi-explicit -g 37x29 -n 21 -o host
  same mpi-explicit checksum l2_error
  run mpi-material --material-map "$srcdir/data/wall.png" \
    --material '#b22222=brick' --material '#ffd700=k=0.04,rho=30,cp=840' \
    -L 0.4x8 --edges 20,-10,20,20 -n 30 -o host
  same mpi-material checksum heat
else
  echo "heatsim built without MPI (or no mpiexec): frame kernels not compared"
fi
finish
