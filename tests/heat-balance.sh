#!/bin/sh
# The heat budget of issue 24 (heat_rates.c, the report, --monitor): the
# edge rates of exact steady states of every kind (a flux in and a fixed
# temperature out; convection out), a fin's base rate against the cosh
# solution (second order) and against its face cooling; the heat balance
# closing at a steady state with a source, convection and face cooling;
# the energy budget of transients (the --monitor rows' rates integrated
# over every step against the stored heat's change) with schedules, for
# explicit, Crank-Nicolson and backward Euler steps and every strategy;
# and the same numbers on 1 to 4 MPI ranks in an MPI build.
. "${srcdir:-.}/tests/testlib.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: no jq"; exit 77; }

# key NAME: the JSON report's NAME from $workdir/out.
key () {
  jq -r ".$1" "$workdir/out"
}
# near A B TOL WHAT: |A - B| <= TOL |B|.
near () {
  close_to "$1" "$2" "$3" || fail "$4: $1, not $2 (within $3 relative)"
  checks=$((checks + 1))
}
# below A LIMIT WHAT: |A| <= LIMIT.
below () {
  awk -v a="$1" -v l="$2" 'BEGIN { a = a < 0 ? -a : a; exit !(a <= l) }' \
    || fail "$3: $1, above $2"
  checks=$((checks + 1))
}

# A steel plate 0.1 x 0.05 m, insulated top and bottom.
steel='-L 0.1x0.05 --conductivity 50 --density 7800 --heat-capacity 500
  --temperature-unit K --bc bottom=insulated --bc top=insulated'

# A flux Q in at the left, 300 K at the right: u = 300 + Q (0.1 - x) / k,
# linear, which the scheme holds exactly.  The left edge's nodes stand
# for its whole length (halves at the insulated corners): Q Ly exactly;
# the right edge's faces carry it out to the solver's tolerance.
for grid in 31x15 40x9; do
  if expect_status 0 "$HEATSIM" -q --json $steel -g $grid --steady \
       --rtol 1e-12 --bc left=flux:2e4 --bc right=temperature:300; then
    near "$(key heat_rate_left)" 1000 1e-13 "flux in ($grid): left rate"
    near "$(key heat_rate_right)" -1000 1e-9 "flux in ($grid): right rate"
    below "$(key heat_rate_bottom)" 0 "flux in ($grid): bottom rate"
    near "$(key max)" 340 1e-12 "flux in ($grid): the edge node's temperature"
    below "$(key imbalance_relative)" 1e-9 "flux in ($grid): imbalance"
  fi
done

# Convection out: 400 K at the left, H = 100, TINF = 300 at the right:
# linear with q = 100 / (0.1 / 50 + 1 / 100); the edge node is at
# TINF + q / H.
q=$(awk 'BEGIN { printf "%.17g", 100 / (0.1 / 50 + 1 / 100) }')
if expect_status 0 "$HEATSIM" -q --json $steel -g 31x15 --steady \
     --rtol 1e-12 --bc left=temperature:400 --bc right=convection:100,300; then
  rate=$(awk -v q="$q" 'BEGIN { printf "%.17g", q * 0.05 }')
  near "$(key heat_rate_left)" "$rate" 1e-9 "convection: left rate"
  near "$(key heat_rate_right)" "-$rate" 1e-9 "convection: right rate"
  near "$(key min)" "$(awk -v q="$q" 'BEGIN { printf "%.17g", 300 + q / 100 }')" \
    1e-12 "convection: the edge node's temperature"
fi

# A fin: an aluminium strip 50 x 10 mm, 2 mm thick, its base (left) at
# 100 degC, insulated tip and sides, cooled through its faces (H = 25,
# TINF = 20).  The base's rate per metre of depth, k m tanh(mL) (Tb -
# TINF) W, m^2 = 2 H / (k D).  The discrete rate through the base's faces
# equals the face cooling of the nodes to the solver's tolerance; it is
# the flow at x = dx/2, so that with the cooling of the base's own half
# cell, 2 H / D (Tb - TINF) W dx / 2, it converges to the flow at x = 0
# at second order.
fin='-L 0.05x0.01 --conductivity 237 --density 2702 --heat-capacity 903
  --temperature-unit degC --bc all=insulated --bc left=temperature:100
  --thickness 0.002 --surface-convection 25,20 --steady --rtol 1e-12'
exact=$(awk 'BEGIN { m = sqrt(2 * 25 / (237 * 0.002)); x = m * 0.05
  t = (exp(x) - exp(-x)) / (exp(x) + exp(-x))
  printf "%.17g", 237 * m * t * 80 * 0.01 }')
: >fin-errors
for nx in 25 50 100; do
  if expect_status 0 "$HEATSIM" -q --json $fin -g ${nx}x5; then
    base=$(key heat_rate_left)
    near "$(key face_cooling)" "$base" 1e-9 "fin ($nx): face cooling against the base's rate"
    below "$(key imbalance_relative)" 1e-9 "fin ($nx): imbalance"
    awk -v b="$base" -v e="$exact" -v dx="$(key dx)" 'BEGIN {
      d = (b + 2 * 25 / 0.002 * 80 * 0.01 * dx / 2) / e - 1
      printf "%.17g\n", d < 0 ? -d : d }' >>fin-errors
  fi
done
awk 'NR > 1 { r = prev / $1; if (r < 3.5 || r > 4.5) bad = 1 } { prev = $1 }
     END { exit bad || NR != 3 || prev > 1e-5 }' fin-errors \
  || fail "fin: base rate errors $(tr '\n' ' ' <fin-errors) not second order"

# A die with a heat sink: a 1 GW/m^3 block in a 10 mm silicon die,
# convection at the right edge, the rest insulated, face cooling: the
# balance closes at the steady state to the solver's tolerance, and the
# sinks carry the source's power.
die='-g 65 -L 0.01 --conductivity 148 --density 2330 --heat-capacity 712
  --temperature-unit degC --bc all=insulated --bc right=convection:2000,25
  --thickness 0.0005 --surface-convection 5000,25
  --source-rect 0.0025,0.0075,0.0025,0.0075,1e9'
if expect_status 0 "$HEATSIM" -q --json $die --steady --rtol 1e-11; then
  power=$(key source_power)
  near "$power" "$(awk 'BEGIN { d = 0.01 / 64; printf "%.17g", 33 * 33 * d * d * 1e9 }')" \
    1e-13 "die: source power (33 x 33 nodes)"
  below "$(key imbalance_relative)" 1e-8 "die: imbalance"
  near "$(awk -v c="$(key face_cooling)" -v r="$(key heat_rate_right)" \
    'BEGIN { printf "%.17g", c - r }')" "$power" 1e-8 "die: face cooling and convection carry the power"
  below "$(key stored_heat_rate)" 0 "die: stored heat rate of a steady state"
fi

# Sinks too weak to fix the steady state's level in double precision:
# with no fixed edge the level is set by the sinks alone, whose share of
# the operator (the mean sink term against the largest diagonal term,
# about 4 k / dx^2) fell below rounding: H = 1e-8 gave 1.7e11 for the
# exact 1e11, "converged" after 1 cycle, status 0; H = 1e-6 0.4 % off.  Refused where
# that ratio is below 1e-13 (here 1.5e-8 H for the edge, 3e-7 H for the
# faces), naming the sink.  Where it is not, the
# edge nodes (the coldest) hold the exact 1000 / H: the sources' 1000
# W/m^3 over 2 x 1 m leave through H u over the 2 m bottom edge.
weak='-g 256x128 -L 2x1 --conductivity 1000 --density 1 --heat-capacity 1
  --temperature-unit K --source 1000 --bc left=periodic --bc right=periodic
  --bc top=insulated --steady'
for h in 1e-10 1e-06; do
  # shellcheck disable=SC2086
  refused "^heatsim: --steady: the sink of --bc bottom (H $h) is too weak beside the conduction" \
    $weak --bc bottom=convection:$h,0
done
# shellcheck disable=SC2086
refused "^heatsim: --steady: the sink of --surface-convection (H 1e-09) is too weak" \
  $weak --bc bottom=insulated --thickness 0.01 --surface-convection 1e-9,0
# shellcheck disable=SC2086
refused "^heatsim: --steady: the sinks of --bc bottom (H 1e-07), --surface-convection (H 1e-09) are too weak" \
  $weak --bc bottom=convection:1e-7,0 --thickness 0.01 --surface-convection 1e-9,0
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $weak --bc bottom=convection:1e-4,0; then
  near "$(key min)" 1e7 1e-3 "a weak sink (H = 1e-4): the edge's temperature"
  [ "$(key converged)" = true ] || fail "a weak sink (H = 1e-4): not converged"
fi
# The same for implicit steps, whose level rho c_p / dt holds too: a
# uniform k of 1e6 on 64 x 64 nodes, H = 1e-6 at dt 1e6 (ratio 2e-16)
# left the field as the first step made it, status 0 (the mean 335755
# after 6 steps where a 0-D model of backward Euler gives 912209).
# Refused; H = 1 at the same dt gives that model's 1.0 to 1e-5.
stiff="-g 64 --length 1 --conductivity 1e6 --density 2 --heat-capacity 1
  --scheme backward-euler --dt 1e6 -n 6 --source 1 --bc all=insulated"
# shellcheck disable=SC2086
refused "^heatsim: --scheme backward-euler: dt 1e+06: with no edge at a fixed temperature, rho c_p / dt and the sink of --bc top (H 1e-06) hold the step's level too weakly" \
  $stiff --bc top=convection:1e-6,0
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json $stiff --bc top=convection:1,0; then
  near "$(key mean)" 1 1e-5 "a stiff plate, H = 1, dt 1e6: the mean"
fi
# A copper plate of 0.1 m on 256 x 256 nodes cooled at one edge (H = 10,
# ratio 1e-8): the edge at TINF + q Ly / H.
# shellcheck disable=SC2086
if expect_status 0 "$HEATSIM" -q --json -g 256 -L 0.1 --conductivity 401 \
    --density 8933 --heat-capacity 385 --temperature-unit K --source 1e5 \
    --bc all=insulated --bc bottom=convection:10,20 --steady; then
  near "$(key min)" 1020 1e-6 "copper plate, H = 10: the edge's temperature"
fi

# Energy budget of a transient: rows every step; the heat balances of the
# rows, integrated as each scheme takes its step (explicit: at the step's
# start; backward Euler: its end; Crank-Nicolson: the mean), against the
# total heat's change.  A flux switched on over 5 s at the left, a fixed
# temperature at the bottom, convection at the right, a source switched
# off after 10 s, face cooling.
printf 'time,value\n0,0\n5,3e4\n' >flux.csv
printf 'time,value\n0,1\n10,1\n10.5,0\n' >switch.csv
transient="$steel -g 24x12 --bc left=flux:@flux.csv --bc bottom=temperature:330
  --bc right=convection:200,290 --initial-temperature 310
  --source-rect 0.02,0.05,0.01,0.04,2e6 --source-schedule switch.csv
  --thickness 0.003 --surface-convection 20,290"
# budget CSV RULE: relative difference of the heat's change and the rows'
# balances integrated by RULE (start, end or mean).
budget () {
  awk -F, -v rule="$2" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    { t[NR] = $col["time"]; h[NR] = $col["total_heat"]
      b[NR] = $col["heat_rate_left"] + $col["heat_rate_right"] \
        + $col["heat_rate_bottom"] + $col["heat_rate_top"] \
        + $col["source_power"] - $col["face_cooling"] }
    END { for (n = 2; n < NR; ++n) {
            dt = t[n + 1] - t[n]
            w = rule == "start" ? b[n] : rule == "end" ? b[n + 1] \
              : (b[n] + b[n + 1]) / 2
            sum += dt * w }
          change = h[NR] - h[2]; d = (sum - change) / change
          printf "%.3g\n", d < 0 ? -d : d }' "$1"
}
for o in host map resident; do
  rm -f "explicit-$o.csv"
  if expect_status 0 "$HEATSIM" -q --json $transient -o $o -T 20 -n 400 \
       --monitor "explicit-$o.csv" --monitor-every 1; then
    below "$(budget "explicit-$o.csv" start)" 1e-10 "explicit ($o): energy budget"
    key stored_heat_rate >"stored-$o"
    key imbalance >>"stored-$o"
    # The last row is the report.
    [ "$(tail -n 1 "explicit-$o.csv" | cut -d, -f15,16)" \
      = "$(jq -r '"\(.stored_heat_rate),\(.imbalance)"' "$workdir/out" \
           | awk -F, '{ printf "%.17g,%.17g", $1, $2 }')" ] \
      || fail "explicit ($o): the last row's stored rate and imbalance are not the report's"
    checks=$((checks + 1))
  fi
done
cmp -s stored-host stored-map && cmp -s stored-host stored-resident \
  || fail "stored heat rate differs among strategies: $(cat stored-*)"
# Without rows every step the heat a step before the report's, and before
# each row, is fetched for them alone: the same numbers on every strategy
# (in an x86_64 build map and resident hold the field in the plugin
# device's memory).
for o in host map resident; do
  rm -f "every7-$o.csv"
  if expect_status 0 "$HEATSIM" -q --json $transient -o $o -T 20 -n 400 \
       --monitor "every7-$o.csv" --monitor-every 7; then
    key stored_heat_rate >"stored7-$o"
    cut -d, -f15,16 "every7-$o.csv" >>"stored7-$o"
  fi
done
[ "$(grep -c '^-\{0,1\}[0-9]' stored7-host)" -eq 59 ] \
  || fail "rows every 7 steps: stored rates $(tr '\n' ' ' <stored7-host)"
cmp -s stored7-host stored7-map && cmp -s stored7-host stored7-resident \
  || fail "stored heat rates of rows every 7 steps differ among strategies"
checks=$((checks + 2))
rm -f be.csv cn.csv
expect_status 0 "$HEATSIM" -q $transient --scheme backward-euler --rtol 1e-13 \
  -T 20 -n 40 --monitor be.csv --monitor-every 1 \
  && below "$(budget be.csv end)" 1e-10 "backward Euler: energy budget"
expect_status 0 "$HEATSIM" -q $transient --scheme crank-nicolson --rtol 1e-13 \
  -T 20 -n 40 --monitor cn.csv --monitor-every 1 \
  && below "$(budget cn.csv mean)" 1e-10 "Crank-Nicolson: energy budget"

# A material run without --problem starts from the uniform field of
# --initial-temperature, its fixed edges included (0 without it): without
# a source nothing changes, and the report names the problem uniform and
# no exact solution.  Before issue 23's cleanup it started from the mms
# sine with 0 K edges.
plain='-g 12x8 -L 0.1x0.05 --conductivity 50 --density 7800 --heat-capacity 500 -n 20'
if expect_status 0 "$HEATSIM" -q --json $plain --initial-temperature 300; then
  [ "$(key problem)" = uniform ] || fail "material run: problem $(key problem), not uniform"
  # (To round-off: the kernel sums k (T_N - T_P) terms, not exactly 0.)
  near "$(key min)" 300 1e-14 "material run at 300 K: lowest temperature"
  near "$(key max)" 300 1e-14 "material run at 300 K: highest temperature"
  [ "$(key l2_error)" = null ] || fail "material run: an error against an exact solution"
  checks=$((checks + 2))
fi
if expect_status 0 "$HEATSIM" -q --json $plain --source 1e5; then
  below "$(key heat_initial)" 0 "material run from 0 K: initial heat"
  # All of the source's heat in the interior still: nodes of 0.1/13 x 0.05/9.
  near "$(key source_power)" "$(awk 'BEGIN { printf "%.17g", 1e5 * 12 * 8 * 0.1 / 13 * 0.05 / 9 }')" \
    1e-13 "material run: source power"
fi
if expect_status 0 "$HEATSIM" $plain; then
  grep -q '^  problem       uniform, dirichlet boundaries$' "$workdir/out" \
    || fail "material run: the text report's problem: $(grep problem "$workdir/out")"
  grep -q 'no exact solution' "$workdir/out" \
    || fail "material run: the text report gives an error"
  checks=$((checks + 2))
fi

# Zero rates are 0 in --monitor's rows, not -0: a zero H times a
# negative difference, a flux of -0 and zero face cooling.
rm -f zero.csv
if expect_status 0 "$HEATSIM" -q -g 8 -n 2 --bc left=convection:0,0 \
     --bc right=flux:-0 --thickness 1 --surface-convection 0,5 \
     --monitor zero.csv --monitor-every 1; then
  [ "$(awk -F, 'NR > 1 { print $9, $10, $14 }' zero.csv | sort -u)" = "0 0 0" ] \
    || fail "monitor: zero rates as $(awk -F, 'NR > 1 { print $9, $10, $14 }' zero.csv | tr '\n' ' ')"
  tr ',' '\n' <zero.csv | grep -q -x -e '-0' && fail "monitor: a -0 in $(cat zero.csv)"
  checks=$((checks + 2))
fi

# The relative imbalance of a budget whose terms are all round-off
# (insulated edges, no source: the stored rate is the rounding of two
# total heats) is 0, not 1; one above rounding is relative to the
# largest term.
if expect_status 0 "$HEATSIM" -q --json -p mms -g 8 -n 3 -b neumann; then
  [ "$(key imbalance_relative)" = 0 ] \
    || fail "round-off budget: imbalance_relative $(key imbalance_relative) (stored $(key stored_heat_rate))"
  checks=$((checks + 1))
fi
# So does a steady state that is uniform (edges and ambients at 20),
# whose edge rates are what the solver's last bits leave: no warning
# that rounding spoiled the field either (it did at 1.7 to 3 of the
# largest term).  Steps from the uniform field keep it to the last bit.
for edges in "--bc all=temperature:20" "--bc all=convection:10,20" \
    "--bc all=insulated --thickness 0.01 --surface-convection 10,20" \
    "--bc left=periodic --bc right=periodic --bc bottom=temperature:20 --bc top=convection:3,20"; do
  for size in "-g 8x8 -L 1x1" "-g 16x9 -L 0.1x2" "-g 200x200 -L 1x1"; do
    for run in -s "-s --rtol 1e-14" \
        "--initial-temperature 20 -n 10 --dt 1e-6" \
        "--initial-temperature 20 -n 10 --dt 10 --scheme backward-euler"; do
      # shellcheck disable=SC2086
      if expect_status 0 "$HEATSIM" -q --json $size --conductivity 1 \
           --density 1 --heat-capacity 1 $edges $run; then
        [ "$(key imbalance_relative)" = 0 ] && [ ! -s "$workdir/err" ] \
          || fail "uniform steady state ($edges $size $run): imbalance_relative $(key imbalance_relative) $(cat "$workdir/err")"
        checks=$((checks + 1))
      fi
    done
  done
done
# A steady run restarted from its checkpoint reports what the whole run
# does: a steady state of 0 to 3e-8 from a disk of 100 is noise against
# the field the run started from, not against the checkpoint's (which
# read 0.96 off and warned that rounding had spoiled the field; a
# hostile pass), by multigrid and by Jacobi sweeps.
for solver in multigrid jacobi; do
  rm -rf "$workdir/whole"
  if expect_status 0 "$HEATSIM" -q --json -p disk -g 37x29 -s \
       --solver "$solver" --checkpoint-every 2 --output-dir "$workdir/whole"; then
    whole=$(key imbalance_relative)
    if expect_status 0 "$HEATSIM" -q --json -s \
         --restart "$workdir/whole/heatsim-000002.h5" \
         --output-dir "$workdir/again-$solver"; then
      [ "$(key imbalance_relative)" = "$whole" ] && [ ! -s "$workdir/err" ] \
        || fail "$solver restart: imbalance_relative $(key imbalance_relative), not $whole: $(cat "$workdir/err")"
      checks=$((checks + 1))
    fi
  fi
done

# A steady state that is not uniform keeps its imbalance: one solved to
# a loose --rtol is off by about that much, and does not warn (the
# solver did what was asked).
if expect_status 0 "$HEATSIM" -q --json -p plate -s -g 64 --rtol 0.5; then
  awk -v r="$(key imbalance_relative)" 'BEGIN { exit !(r > 0.1) }' \
    && [ ! -s "$workdir/err" ] \
    || fail "plate to --rtol 0.5: imbalance_relative $(key imbalance_relative) $(cat "$workdir/err")"
  checks=$((checks + 1))
fi
if expect_status 0 "$HEATSIM" -q --json -p mms -g 8 -n 2 \
     --bc left=convection:0,0 --bc right=flux:-0; then
  want=$(awk -v i="$(key imbalance)" -v s="$(key stored_heat_rate)" \
    -v r="$(key heat_rate_left) $(key heat_rate_right) $(key heat_rate_bottom) $(key heat_rate_top)" \
    'function abs(x) { return x < 0 ? -x : x }
     BEGIN { n = split(r, t, " "); m = abs(s)
             for (k = 1; k <= n; ++k) if (abs(t[k]) > m) m = abs(t[k])
             printf "%.17g", abs(i) / m }')
  near "$(key imbalance_relative)" "$want" \
    1e-12 "imbalance relative to the largest term"
fi

# MPI: the same field and budget on 1 to 4 ranks (sums along the edges
# and over the nodes: close to 1e-12 of the largest term; the stored
# heat's rate, a difference of two total heats summed in another order
# over the ranks, to 1e-9 of itself).
if mpi_ready; then
  OMP_NUM_THREADS=1
  export OMP_NUM_THREADS
  terms='heat_rate_left heat_rate_right heat_rate_bottom heat_rate_top
    source_power face_cooling'
  for n in 1 2 3 4; do
    if "$MPIEXEC" -np $n "$HEATSIM" -q --json $transient -T 20 -n 400 \
         >"$workdir/out" 2>"$workdir/err"; then
      for t in $terms; do key "$t"; done >"mpi$n"
      key checksum >"sum$n"
      key stored_heat_rate >"stored$n"
    else
      fail "$n ranks: $(cat "$workdir/err")"
    fi
  done
  for n in 2 3 4; do
    cmp -s sum1 "sum$n" || fail "field on $n ranks differs from 1"
    paste mpi1 "mpi$n" | awk '{ d = $1 - $2; d = d < 0 ? -d : d;
      m = $1 < 0 ? -$1 : $1; if (m > big) big = m; if (d > worst) worst = d }
      END { exit !(big > 0 && worst <= 1e-12 * big) }' \
      || fail "budget on $n ranks: $(paste mpi1 "mpi$n" | tr '\n' ' ')"
    near "$(cat "stored$n")" "$(cat stored1)" 1e-9 "stored heat rate on $n ranks"
    checks=$((checks + 2))
  done
  # The weak sinks' check decides alike on every rank (its sums are
  # taken once and sent to all): refused with one message, status 2;
  # H = 1e-4 solves, the field of one rank.
  for n in 1 3; do
    # shellcheck disable=SC2086
    "$MPIEXEC" -np $n "$HEATSIM" -q $weak --bc bottom=convection:1e-6,0 \
      >"$workdir/out" 2>"$workdir/err"
    status=$?
    [ $status -eq 2 ] && [ "$(grep -c 'is too weak' "$workdir/err")" -eq 1 ] \
      || fail "weak sink on $n ranks: status $status, $(cat "$workdir/err")"
    # shellcheck disable=SC2086
    if "$MPIEXEC" -np $n "$HEATSIM" -q --json $weak \
         --bc bottom=convection:1e-4,0 >"$workdir/out" 2>"$workdir/err"; then
      key checksum >"weak$n"
    else
      fail "H = 1e-4 on $n ranks: $(cat "$workdir/err")"
    fi
    checks=$((checks + 2))
  done
  cmp -s weak1 weak3 || fail "H = 1e-4: the field on 3 ranks differs from 1"
fi
finish
