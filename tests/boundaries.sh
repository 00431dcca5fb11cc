#!/bin/sh
# Boundary conditions through the halo ring.  Zero flux and periodic
# boundaries conserve the total heat to 1e-12 relative over 1000 steps
# (with heat reaching the edges), and differ from each other; fixed edge
# values lead to the steady state they imply.
. "${srcdir:-.}/tests/testlib.sh"

# heat_conserved ARGS...: total heat after == before, to 1e-12 relative.
heat_conserved () {
  expect_status 0 "$HEATSIM" -q --json "$@" || return
  before=$(json_field heat_initial "$workdir/out")
  after=$(json_field heat "$workdir/out")
  echo "$*: heat $before -> $after"
  close_to "$after" "$before" 1e-12 || fail "heat not conserved: $*"
  cp "$workdir/out" "$workdir/conserved.json"
}

run='--grid 50x40 --length 1 --alpha 1 --steps 1000 --end-time 0.1'
for b in neumann periodic; do
  for s in host resident; do
    heat_conserved --problem disk --boundary $b --offload $s $run
  done
  cp "$workdir/conserved.json" "$workdir/$b.json"
  heat_conserved --problem mms --boundary $b $run
done
[ "$(json_field checksum "$workdir/neumann.json")" != \
  "$(json_field checksum "$workdir/periodic.json")" ] \
  || fail "neumann and periodic runs gave the same field"

# The runs above moved heat across the edges: with zero Dirichlet edges the
# same run loses most of it.
expect_status 0 "$HEATSIM" -q --json --problem disk $run
lost=$(json_field heat "$workdir/out")
awk -v h="$lost" 'BEGIN { exit !(h < 19.7 / 2) }' \
  || fail "dirichlet run kept heat $lost: the test above proves nothing"

# Fixed edge values: the steady state of constant edges is that constant.
expect_status 0 "$HEATSIM" -q --json --problem disk --edges 5,5,5,5 \
  --grid 20 --steady --solver jacobi --tol 1e-12
for k in min max; do
  close_to "$(json_field $k "$workdir/out")" 5 1e-9 \
    || fail "edges 5,5,5,5: steady $k is $(json_field $k "$workdir/out")"
done
finish
