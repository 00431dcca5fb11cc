#!/bin/sh
# --help, --version and --list-devices; where the kernels ran is reported
# from inside a target region, and --require-device refuses a host run.
. "${srcdir:-.}/tests/testlib.sh"

expect_status 0 "$HEATSIM" --help
grep -q "^Usage: heatsim" "$workdir/out" || fail "--help: no usage line"
expect_status 0 "$HEATSIM" --version
grep -q "^heatsim [0-9]" "$workdir/out" || fail "--version: no version line"
expect_status 0 "$HEATSIM" --list-devices
grep -q "OpenMP offload devices: [0-9]" "$workdir/out" \
  || fail "--list-devices: no device count"
ndev=$(sed -n 's/^OpenMP offload devices: \([0-9]*\).*/\1/p' "$workdir/out")

expect_status 0 "$HEATSIM" -q --grid 32 --offload host --json
[ "$(json_field on_device "$workdir/out")" = false ] \
  || fail "host strategy claims to have run on a device"
grep -q '"strategy": "host"' "$workdir/out" || fail "host: strategy missing"

# --offload auto (the default) says what it chose and why.
expect_status 0 "$HEATSIM" -q --grid 32 --json
[ "$(json_field strategy_auto "$workdir/out")" = true ] \
  || fail "default strategy is not auto: $(cat "$workdir/out")"
reason=$(json_field strategy_reason "$workdir/out")
if [ "$ndev" -eq 0 ]; then
  [ "$(json_field strategy "$workdir/out")" = host ] && [ "$reason" = "no offload device" ] \
    || fail "auto without a device did not choose host: $(cat "$workdir/out")"
  expect_status 2 "$HEATSIM" -q --grid 32 --device 0
  grep -q -e "--device: 0: there is no offload device" "$workdir/err" \
    || fail "--device without a device: $(cat "$workdir/err")"
else
  [ "$(json_field strategy "$workdir/out")" = resident ] \
    && [ "$(json_field on_device "$workdir/out")" = true ] \
    || fail "auto with a device did not run resident on it: $(cat "$workdir/out")"
fi
expect_status 0 "$HEATSIM" -q --grid 32 --json -o resident
[ "$(json_field strategy_auto "$workdir/out")" = false ] \
  && [ "$(json_field strategy_reason "$workdir/out")" = null ] \
  || fail "a named strategy is reported as automatic: $(cat "$workdir/out")"

if [ "$ndev" -eq 0 ]; then
  # No device: offload strategies fall back, and say so.
  for s in map resident; do
    expect_status 0 "$HEATSIM" -q --grid 32 --offload $s
    grep -q "FALLBACK" "$workdir/out" || fail "$s: host fallback not reported"
    expect_status 3 "$HEATSIM" -q --grid 32 --offload $s --require-device
    grep -q "no offload device" "$workdir/err" \
      || fail "$s --require-device: unclear message: $(cat "$workdir/err")"
  done
  OMP_TARGET_OFFLOAD=MANDATORY expect_status 3 "$HEATSIM" -q --grid 32
  # Host strategy never needs a device.
  expect_status 0 "$HEATSIM" -q --grid 32 --offload host --require-device
else
  expect_status 0 "$HEATSIM" -q --grid 32 --json --require-device
  [ "$(json_field on_device "$workdir/out")" = true ] \
    || fail "device present but kernels did not run on it"
  expect_status 2 "$HEATSIM" -q --grid 32 --device "$ndev"
  grep -q -e "--device: $ndev" "$workdir/err" || fail "bad --device not named"
fi
finish
