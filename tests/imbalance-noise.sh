#!/bin/sh
# imbalance_relative of budgets whose every term is noise reads 0, not
# 1 or 4; budgets that do not close keep their imbalance.
#
# Two kinds of noise:
# - a time-dependent field of both signs whose total heat is near 0
#   (insulated or convection edges at 0): the stored rate is the
#   rounding of two totals of large terms of both signs, which the
#   rounding of the small total, |heat|, underestimated (read 1);
# - a steady state of zero edges and no source (the manufactured
#   problem's): the field is zero to the solver's tolerance, 1e-12 of
#   the initial field, and its edge rates, all out of the domain, are
#   what the solver left of it (read 4, whatever --rtol).
. "${srcdir:-.}/tests/testlib.sh"

# relative WANT WHAT ARGS...: heatsim --json ARGS reports
# imbalance_relative WANT: 0, ">X" for more than X or "<X" for less.
relative () {
  _expected=$1 _what=$2
  shift 2
  expect_status 0 "$HEATSIM" -q --json "$@" || return
  _got=$(json_field imbalance_relative "$workdir/out")
  case $_expected in
    ">"*)
      awk -v r="$_got" -v t="${_expected#>}" 'BEGIN { exit !(r > t) }' ;;
    "<"*)
      awk -v r="$_got" -v t="${_expected#<}" 'BEGIN { exit !(r < t) }' ;;
    *)
      [ "$_got" = "$_expected" ] ;;
  esac || fail "$_what: imbalance_relative $_got (stored $(json_field stored_heat_rate "$workdir/out"), heat $(json_field heat "$workdir/out")), expected $_expected"
}

# A disk of 1 in a field of -1 with as much area: total heat -0.004
# of the 1 that its nodes' terms add up to.
half='-p disk --disk 0.3989422804014327,1,-1 -g 16 -L 1 -n 3'
# shellcheck disable=SC2086
relative 0 "insulated, total heat near 0" $half -b neumann --dt 1e-5
# shellcheck disable=SC2086
relative 0 "convection to 0 with H = 0" $half --bc all=convection:0,0 \
  --dt 1e-5
# shellcheck disable=SC2086
relative 0 "insulated, backward Euler" $half -b neumann --dt 1e-2 \
  --scheme backward-euler
# shellcheck disable=SC2086
relative 0 "insulated, near 1e-300" -p disk \
  --disk 0.3989422804014327,1e-300,-1e-300 -g 16 -L 1 -n 3 -b neumann \
  --dt 1e-5
# In degrees Celsius about 0: a plate of +5 and -5 degC.
# shellcheck disable=SC2086
relative 0 "degC about 0, insulated" $half -b neumann --dt 1e-3 \
  --temperature-unit degC --conductivity 1 --density 1000 \
  --heat-capacity 1000
# Not noise: the same field losing heat through convection edges in
# long explicit steps, whose stored rate (the balance at the last
# step's start) differs from the balance at its end by 0.27 of it.
# shellcheck disable=SC2086
relative '>0.1' "convection, long explicit steps" $half \
  --bc all=convection:10,0 --dt 1e-3

# Steady states of zero edges and no source: zero to the solver's
# tolerance, to 1e-12 of the initial field or much less.
relative 0 "steady mms" -p mms -s -g 63 -L 1
relative 0 "steady mms, --rtol 1e-14" -p mms -s -g 63 -L 1 --rtol 1e-14
relative 0 "steady mms, 8 x 8" -p mms -s -g 8
relative 0 "steady from 1 with edges at 0" -p uniform \
  --initial-temperature 1 --bc all=temperature:0 -s -g 31 -L 1
relative 0 "steady from 1 with convection to 0" -p uniform \
  --initial-temperature 1 --bc all=convection:5,0 -s -g 31 -L 1 \
  --conductivity 1 --density 1 --heat-capacity 1
# Not noise: Jacobi's --tol stops far from that steady state (the
# field still 0.4 of the initial one), and a plate solved to a loose
# --rtol.
relative '>1' "Jacobi, far from steady" -p mms -s --solver jacobi -g 31 -L 1
relative '>0.1' "plate to --rtol 0.5" -p plate -s -g 64 --rtol 0.5

# Steady states whose sources and edge flows change sign along the
# domain and add up to 0: each net term is rounding, but the balance
# is not noise; each term's scale is the sum of its magnitudes (a
# hostile test pass found a "rounding has spoiled the field" warning
# and imbalance_relative 1 on these correct fields).
python_with h5py numpy
"$PY" - <<'PYEOF' || exit 99
import h5py, numpy as np
n = 64
c = np.cos(np.pi * (np.arange(n) + 0.5) / n)
with h5py.File("across.h5", "w") as f:
    f["source"] = np.tile(c, (n, 1))            # varies along x
with h5py.File("along.h5", "w") as f:
    f["source"] = np.tile(c[:, None], (1, n))   # varies along y
PYEOF
material="-L 1 --conductivity 1 --density 1 --heat-capacity 1 -s"
# shellcheck disable=SC2086
relative '<1e-8' "insulated, a source adding up to 0" $material \
  -b neumann --source-map "$workdir/across.h5"
grep -q warning "$workdir/err" && fail "insulated, a source adding up to 0: $(cat "$workdir/err")"
# shellcheck disable=SC2086
relative '<1e-8' "convection edges, flows adding up to 0" $material \
  --bc all=insulated --bc left=convection:1,0 --bc right=convection:1,0 \
  --source-map "$workdir/along.h5"
grep -q warning "$workdir/err" && fail "convection edges, flows adding up to 0: $(cat "$workdir/err")"
finish
