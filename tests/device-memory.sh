#!/bin/sh
# The map and resident strategies move the newest field where it is
# needed: mid-run PNG snapshots and checkpoints, the final field and steady
# runs are bitwise those of --offload host.  This catches a missing target
# update or a map of the wrong buffer after a pointer swap only where the
# device has memory of its own: a build with --with-offload-arch=x86_64
# (LLVM's host plugin), where this test also asserts that the target
# regions really ran on that device.  Elsewhere it runs where the kernels
# run, bitwise on the host fallback, to 1e-12 on a GPU.
. "${srcdir:-.}/tests/testlib.sh"

plugin=false
host_plugin && plugin=true

# same NAME FILE: the JSON report in FILE matches host.json (bitwise where
# the kernels ran on this processor), and ran on the device in a host
# plugin build.
same () {
  on=$(json_field on_device "$2")
  if $plugin && [ "$on" != true ]; then
    fail "$1: the host plugin's device was not used (on_device $on)"
  fi
  if $plugin || [ "$on" = false ]; then
    [ "$(json_field checksum "$2")" = \
      "$(json_field checksum "$workdir/host.json")" ] \
      || fail "$1: differs bitwise from host"
  else
    close_to "$(json_field heat "$2")" \
      "$(json_field heat "$workdir/host.json")" 1e-12 \
      || fail "$1: heat differs from host by more than 1e-12"
  fi
}

# Snapshots and checkpoints after steps 10, 20 and 30 (an even count of
# swaps) and after step 25 (odd): each must hold the field of its step.
run='--problem disk --boundary periodic --grid 40x30 --length 1 --alpha 1
  --dt 5e-5'
for s in host map resident; do
  expect_status 0 "$HEATSIM" -q --json $run --steps 25 --png-every 10 \
    --checkpoint-every 10 --output-dir "$workdir/$s" -o $s || continue
  cp "$workdir/out" "$workdir/$s.json"
done
for s in map resident; do
  same "$s" "$workdir/$s.json"
  if $plugin || [ "$(json_field on_device "$workdir/$s.json")" = false ]; then
    for f in heatsim-000010.png heatsim-000020.png heatsim-000025.png; do
      # Pixels: the text chunks hold the command line (-o differs).
      [ "$("$PNG_PROBE" "$workdir/host/$f" pixels)" = \
        "$("$PNG_PROBE" "$workdir/$s/$f" pixels)" ] \
        || fail "$s: $f differs from host's"
    done
  fi
  pass
done

# A checkpoint written mid-run by map or resident, continued by host, ends
# bitwise where host's own uninterrupted run does.
expect_status 0 "$HEATSIM" -q --json $run --steps 25 -o host
cp "$workdir/out" "$workdir/host.json"
for s in map resident; do
  for k in 10 20; do
    expect_status 0 "$HEATSIM" -q --json -o host --steps $((25 - k)) \
      --restart "$workdir/$s/heatsim-0000$k.h5" || continue
    cp "$workdir/out" "$workdir/restart.json"
    if $plugin || [ "$(json_field on_device "$workdir/$s.json")" = false ]
    then
      [ "$(json_field checksum "$workdir/restart.json")" = \
        "$(json_field checksum "$workdir/host.json")" ] \
        || fail "$s: its checkpoint of step $k is not host's step $k"
    fi
  done
done

# Steady runs: fused residual kernels, the residual read every 3 sweeps,
# and an odd number of sweeps; the same sweeps and field as host.
steady='--problem plate --steady --solver jacobi --grid 47x33 --tol 0.05 --residual-every 3'
expect_status 0 "$HEATSIM" -q --json $steady -o host
cp "$workdir/out" "$workdir/host.json"
for s in map resident; do
  for k in collapse split; do
    expect_status 0 "$HEATSIM" -q --json $steady -o $s --kernel $k \
      || continue
    same "$s-$k steady" "$workdir/out"
    [ "$(json_field steps "$workdir/out")" = \
      "$(json_field steps "$workdir/host.json")" ] \
      || fail "$s-$k: $(json_field steps "$workdir/out") sweeps, host" \
              "$(json_field steps "$workdir/host.json")"
  done
done

# A field that turns NaN is found where it lives (the count runs on the
# device for resident).
unstable='--grid 64 --length 65 --alpha 1 --dt 0.3 --force --steps 100000'
for s in map resident; do
  expect_status 5 "$HEATSIM" -q $unstable --nan-check-every 7 -o $s
done
finish
