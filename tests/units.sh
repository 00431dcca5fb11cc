#!/bin/sh
# Units (issue 25): without --temperature-unit a run is nondimensional and
# says so (text report, JSON null, HDF5 units "1"); with K or degC it is
# SI: checkpoints label the field with the unit, x and y with m, time
# with s, as netCDF readers see them (ncdump); the PNG legend writes the
# unit after its values and s after the time; a checkpoint records the
# unit, which --restart keeps and --init takes, refusing another.
. "${srcdir:-.}/tests/testlib.sh"
: "${PNG_PROBE:?PNG_PROBE must name tests/png_probe}"

run='-p disk -g 12x8 -L 0.12x0.08 -a 1e-4 --dt 0.05 -n 4'

# has FILE LINE: FILE has the line LINE (fixed string, whole line).
has () {
  grep -qxF -e "$2" "$1" || fail "$1 lacks '$2': $(cat "$1")"
}
# header FILE: ncdump's header of a checkpoint, lines unindented, in
# $workdir/h; false where ncdump is missing.
ncdump_ok=
command -v ncdump >/dev/null 2>&1 && ncdump_ok=yes
header () {
  [ -n "$ncdump_ok" ] || return 1
  ncdump -h "$1" >"$workdir/h.raw" 2>&1 \
    || fail "ncdump -h $1: $(cat "$workdir/h.raw")"
  sed 's/^[[:space:]]*//' "$workdir/h.raw" >"$workdir/h"
}

# Nondimensional.
expect_status 0 "$HEATSIM" $run --checkpoint-every 4 --output-dir nd
has "$workdir/out" "  units         none (nondimensional)"
expect_status 0 "$HEATSIM" -q --json $run
[ "$(json_field temperature_unit "$workdir/out")" = null ] \
  || fail "nondimensional: temperature_unit $(json_field temperature_unit "$workdir/out")"
if header nd/heatsim-000004.h5; then
  for v in field x y time step; do
    has "$workdir/h" "string $v:units = \"1\" ;"
  done
  has "$workdir/h" "string :temperature_unit = \"1\" ;"
fi

# Kelvin: the report, JSON, checkpoint and image say so.
expect_status 0 "$HEATSIM" $run --temperature-unit K --checkpoint-every 4 \
  --png-every 4 --png-legend --output-dir k
has "$workdir/out" \
  "  units         SI: lengths in m, times in s, alpha in m^2/s, temperatures in K"
if header k/heatsim-000004.h5; then
  has "$workdir/h" 'string field:units = "K" ;'
  has "$workdir/h" 'string x:units = "m" ;'
  has "$workdir/h" 'string y:units = "m" ;'
  has "$workdir/h" 'string time:units = "s" ;'
  has "$workdir/h" 'string step:units = "1" ;'
  has "$workdir/h" 'string :temperature_unit = "K" ;'
fi
"$PNG_PROBE" k/heatsim-000004.png >"$workdir/probe"
has "$workdir/probe" "heatsim:temperature-unit=K"
PYTHON=${PYTHON:-python3}
if "$PYTHON" -c 'import zlib' 2>/dev/null; then
  "$PYTHON" "$srcdir/tests/png_legend.py" text k/heatsim-000004.png \
    "$srcdir/src/font.c" >"$workdir/legend" 2>&1 \
    || fail "png_legend.py: $(cat "$workdir/legend")"
  printf '%s\n' "0 K 50 K 100 K" "step 4 t=0.2 s" >"$workdir/want"
  cmp -s "$workdir/legend" "$workdir/want" \
    || fail "legend says '$(cat "$workdir/legend")', not '$(cat "$workdir/want")'"
fi

# Celsius.
expect_status 0 "$HEATSIM" -q --json $run --temperature-unit degC \
  --checkpoint-every 4 --output-dir c
[ "$(json_field temperature_unit "$workdir/out")" = degC ] \
  || fail "degC: temperature_unit $(json_field temperature_unit "$workdir/out")"
if header c/heatsim-000004.h5; then
  has "$workdir/h" 'string field:units = "degC" ;'
  has "$workdir/h" 'string time:units = "s" ;'
fi

# --restart keeps the unit; a contradicting one is refused.
expect_status 0 "$HEATSIM" -q --json --restart k/heatsim-000004.h5 -n 2
[ "$(json_field temperature_unit "$workdir/out")" = K ] \
  || fail "restart of K: temperature_unit $(json_field temperature_unit "$workdir/out")"
expect_status 0 "$HEATSIM" -q --restart k/heatsim-000004.h5 -n 2 \
  --temperature-unit K
refused "--temperature-unit: degC contradicts the unit K of k/heatsim-000004.h5" \
  --restart k/heatsim-000004.h5 -n 2 --temperature-unit degC
# --init takes it the same way, and refuses a unit on a nondimensional
# checkpoint.
expect_status 0 "$HEATSIM" -q --json --init k/heatsim-000004.h5 --dt 0.05 -n 2
[ "$(json_field temperature_unit "$workdir/out")" = K ] \
  || fail "--init of K: temperature_unit $(json_field temperature_unit "$workdir/out")"
refused "--temperature-unit: degC contradicts the unit K of k/heatsim-000004.h5" \
  --init k/heatsim-000004.h5 --dt 0.05 -n 2 --temperature-unit degC
refused "--temperature-unit: K contradicts the unit 1 (nondimensional) of nd/heatsim-000004.h5" \
  --init nd/heatsim-000004.h5 --dt 0.05 -n 2 --temperature-unit K

# Bad values.
for u in F kelvin '' k 1; do
  refused "--temperature-unit: unknown unit '$u'.*(choose K or degC)" $run \
    --temperature-unit "$u"
done
finish
