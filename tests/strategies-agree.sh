#!/bin/sh
# The three offload strategies, and the offload ones in each kernel form,
# compute the same field: bitwise where they run on the same processor (same
# checksum; in a host plugin build the kernels must have run on its
# device), to 1e-12 relative where the kernels ran on a GPU and the host
# strategy on the CPU.  Odd and even step
# counts both run, so a dump of the wrong buffer after the pointer swaps
# would show.
. "${srcdir:-.}/tests/testlib.sh"

variants="map resident map-split resident-split"
plugin=false
host_plugin && plugin=true
# The bare form runs only where target regions reach a GPU; elsewhere it
# is refused with status 3 (no device) before anything runs.
"$HEATSIM" -q -o resident --kernel bare --grid 8 --steps 1 >/dev/null \
  2>"$workdir/bare"
case $? in
  0) variants="$variants map-bare resident-bare" ;;
  3) grep -q "kernel bare: needs a GPU" "$workdir/bare" \
       || fail "--kernel bare: $(cat "$workdir/bare")"
     pass ;;
  *) fail "--kernel bare: $(cat "$workdir/bare")" ;;
esac

# --offload auto (the default) that finds no device runs on the host,
# which has no target kernels: a --kernel (a script's, for machines with
# a GPU) is said not to be used, not refused and not passed over in
# silence.
for form in split bare; do
  "$HEATSIM" -q --json --kernel $form --grid 8 --steps 1 >"$workdir/out" \
    2>"$workdir/err"
  got=$?
  checks=$((checks + 1))
  # Where auto finds a device that is no GPU (the host plugin), bare is
  # refused as above.
  if [ $got -eq 3 ] && [ $form = bare ]; then
    grep -q "kernel bare: needs a GPU" "$workdir/err" \
      || fail "--kernel bare under auto: $(cat "$workdir/err")"
    continue
  fi
  [ $got -eq 0 ] || { fail "--kernel $form under auto: status $got: $(cat "$workdir/err")"; continue; }
  if [ "$(json_field strategy "$workdir/out")" = host ]; then
    grep -q "^heatsim: warning: --kernel $form: not used: --offload auto runs on the host" \
      "$workdir/err" || fail "--kernel $form on the host: $(cat "$workdir/err")"
  else
    [ -s "$workdir/err" ] && fail "--kernel $form on a device: $(cat "$workdir/err")"
  fi
done

compare () {
  expect_status 0 "$HEATSIM" -q --json --offload host "$@" || return
  cp "$workdir/out" "$workdir/host.json"
  for s in $variants; do
    case $s in
      *-*) form="--kernel ${s#*-}" ;;
      *) form= ;;
    esac
    expect_status 0 "$HEATSIM" -q --json --offload ${s%-*} $form "$@" || return
    cp "$workdir/out" "$workdir/$s.json"
  done
  for s in $variants; do
    on=$(json_field on_device "$workdir/$s.json")
    if $plugin && [ "$on" != true ]; then
      fail "$s: the host plugin's device was not used ($*)"
    fi
    if $plugin || [ "$on" = false ]; then
      [ "$(json_field checksum "$workdir/$s.json")" = \
        "$(json_field checksum "$workdir/host.json")" ] \
        || fail "$s and host differ bitwise on the same processor ($*)"
    else
      for k in heat l2_error; do
        close_to "$(json_field $k "$workdir/$s.json")" \
                 "$(json_field $k "$workdir/host.json")" 1e-12 \
          || fail "$s and host differ in $k by more than 1e-12 ($*)"
      done
    fi
    pass
  done
  # The field really changed: a run that did nothing would also agree.
  [ "$(json_field l2_error "$workdir/host.json")" != 0 ] \
    && [ "$(json_field min "$workdir/host.json")" != \
         "$(json_field max "$workdir/host.json")" ] || fail "no change ($*)"
}

compare --grid 257x129 --length 1x0.5 --alpha 1 --end-time 0.0001 --steps 41
compare --grid 100 --length 1 --alpha 1 --end-time 0.001 --steps 50
compare --grid 33x65 --steps 1
compare --grid 1000
compare --problem disk --boundary periodic --grid 40x30 --length 1 \
  --alpha 1 --end-time 0.05 --steps 1001
compare --problem plate --grid 30x41 --steps 60
compare --boundary neumann --grid 30x41 --length 1 --alpha 1 --end-time 0.01 \
  --steps 200
# Steady sweeps use the fused update-and-reduction kernels.
compare --problem plate --steady --solver jacobi --grid 47x33 --tol 0.05 --residual-every 3
# Multigrid solves on the host copy of the field, which each strategy
# fetches before and stores back after: the same bits everywhere.
compare --problem plate --steady --grid 47x33
compare --problem mms --grid 40x30 --length 1 --alpha 1 --end-time 0.05 \
  --steps 5 --scheme crank-nicolson
compare --grid 31x45 --length 1 --alpha 1 --end-time 0.05 --steps 4 \
  --scheme backward-euler --boundary neumann --png-every 2
finish
