#!/bin/sh
# Case files (issue 25): --case FILE runs what the same options on the
# command line run, bit for bit; options after --case override it, those
# before it are overridden; includes are relative to the including file;
# cycles, too deep nesting and every kind of bad line are refused with
# the file and line; --print-case round-trips; and each run's checkpoints,
# images and JSON report record exactly what --print-case prints.
. "${srcdir:-.}/tests/testlib.sh"

# sum ARGS...: the checksum of heatsim -q --json ARGS.
sum () {
  expect_status 0 "$HEATSIM" -q --json "$@" || return 1
  json_field checksum "$workdir/out"
}

plate='-p plate -g 24x16 -L 2x1 -a 0.5 -T 0.02 --steps auto'
cat >plate.case <<'EOF'
# The heated plate, as $plate gives it.
problem = plate

grid = 24x16
   length=2x1
	alpha	=	0.5
end-time = 0.02
steps = auto
EOF
want=$(sum $plate)
[ -n "$want" ] || fail "no checksum from '$plate'"
[ "$(sum --case plate.case)" = "$want" ] \
  || fail "the case file and the command line give different results"
# CR LF line ends read the same.
sed 's/$/\r/' plate.case >crlf.case
[ "$(sum --case crlf.case)" = "$want" ] || fail "a CR LF case file differs"

# In place: after --case overrides it, before --case is overridden.
other=$(sum $plate -a 0.25)
[ "$other" != "$want" ] || fail "--alpha changes nothing: the test cannot fail"
[ "$(sum --case plate.case -a 0.25)" = "$other" ] \
  || fail "--alpha after --case does not override the case file"
[ "$(sum -a 0.25 --case plate.case)" = "$want" ] \
  || fail "--alpha before --case overrides the case file"

# A UTF-8 byte order mark at the start of a case file is skipped, as
# in a schedule file (it was read as part of the first option's name).
printf '\357\273\277' | cat - plate.case >bom.case
[ "$(sum --case bom.case)" = "$want" ] || fail "a case file with a BOM differs"

# Options that a case file can give only once or key by key are
# overridden after --case too: --profile (one profile a run: the last
# counts) and a --material key defined again (the later definition
# wins, on the command line alone as well); --print-case prints what
# runs.
printf 'case = plate.case\nprofile = 0,0.5,2,0.5\n' >profile.case
if expect_status 0 "$HEATSIM" -q --case profile.case --profile 1,0,1,1,5 \
     --output-dir prof; then
  [ "$(sed -n 2p prof/profile.csv | cut -d, -f2,3)" = "1,0" ] \
    || fail "--profile after --case: $(head -n 2 prof/profile.csv)"
  [ "$(wc -l <prof/profile.csv)" -eq 6 ] \
    || fail "--profile after --case: not 5 points"
fi
if expect_status 0 "$HEATSIM" --case profile.case --profile 1,0,1,1,5 \
     --print-case; then
  [ "$(grep -c '^profile = ' "$workdir/out")" -eq 1 ] \
    && grep -q -x 'profile = 1,0,1,1,5' "$workdir/out" \
    || fail "--print-case after --profile: $(cat "$workdir/out")"
fi
wall="--material-map $(cd "$srcdir" && pwd)/data/wall.png -L 0.4x8
  --edges 20,-10,20,20 --steady"
printf 'material-map = %s/data/wall.png\nmaterial = #b22222=brick\n' \
  "$(cd "$srcdir" && pwd)" >wall.case
printf 'material = #ffd700=k=0.04,rho=30,cp=840\nlength = 0.4x8\n' >>wall.case
printf 'edges = 20,-10,20,20\nsteady\n' >>wall.case
# shellcheck disable=SC2086
concrete=$(sum $wall --material '#b22222=concrete' \
  --material '#ffd700=k=0.04,rho=30,cp=840')
# shellcheck disable=SC2086
brick=$(sum $wall --material '#b22222=brick' \
  --material '#ffd700=k=0.04,rho=30,cp=840')
[ -n "$concrete" ] && [ "$concrete" != "$brick" ] \
  || fail "brick and concrete walls alike: the test cannot fail"
[ "$(sum --case wall.case)" = "$brick" ] || fail "the wall's case file differs"
[ "$(sum --case wall.case --material '#B22222=concrete')" = "$concrete" ] \
  || fail "--material after --case does not override the case file's key"
# shellcheck disable=SC2086
[ "$(sum $wall --material '#b22222=brick' --material '#b22222=concrete' \
      --material '#ffd700=k=0.04,rho=30,cp=840')" = "$concrete" ] \
  || fail "a --material key defined again: not the later definition"
if expect_status 0 "$HEATSIM" --case wall.case --material '#b22222=concrete' \
     --print-case; then
  cp "$workdir/out" rewall.case
  [ "$(sum --case rewall.case)" = "$concrete" ] \
    || fail "--print-case of an overridden key: $(cat rewall.case)"
fi

# Includes, relative to the including file's directory (not the working
# directory, where common/ is not).
mkdir -p cases/common
printf 'problem = plate\ngrid = 24x16\nlength = 2x1\n' >cases/common/base.case
printf 'case = base-time.case\n' >>cases/common/base.case
printf 'end-time = 0.02\nsteps = auto\n' >cases/common/base-time.case
printf '# a die on the base\ncase = common/base.case\nalpha = 0.5\n' \
  >cases/die.case
[ "$(sum --case cases/die.case)" = "$want" ] \
  || fail "an included case file differs"
printf 'case = %s/plate.case\n' "$workdir" >absolute.case
[ "$(sum --case absolute.case)" = "$want" ] \
  || fail "an absolute include differs"
# Nesting: 16 deep is read, 17 refused.
k=1
while [ $k -le 17 ]; do
  printf 'case = d%d.case\n' $((k + 1)) >d$k.case
  k=$((k + 1))
done
printf 'grid = 8\n' >d16.case
expect_status 0 "$HEATSIM" -q --case d1.case -n 1
printf 'case = d17.case\n' >d16.case
printf 'grid = 8\n' >d17.case
refused "^heatsim: d16.case:1: case = d17.case: case files nested more than 16 deep$" \
  --case d1.case

# At most 64 files in all: the include that reads the 65th is named.
: >many.case
k=1
while [ $k -le 64 ]; do
  printf 'case = m%d.case\n' $k >>many.case
  printf 'grid = 8\n' >m$k.case
  k=$((k + 1))
done
refused "^heatsim: many.case:64: case = m64.case: more than 64 case files read (each include counts)$" \
  --case many.case
# On the command line, the --case that reads it.
set --
k=1
while [ $k -le 65 ]; do
  set -- "$@" --case m$k.case
  k=$((k + 1))
done
printf 'grid = 8\n' >m65.case
refused "^heatsim: --case: m65.case: more than 64 case files read (each include counts)$" "$@"
set --

# Every read counts, the same file's again too: includes that fan out
# (f0 includes f1 ten times, f1 f2 ten times, ..., f10 sets the grid:
# 10^10 reads) are refused at the 65th read, the 6th include of f9 by
# f8 (f0 to f9 are 10 reads, each f9 reads f10 ten times), at once and
# under --print-case too (timeout makes a hang fail).
k=0
while [ $k -lt 10 ]; do
  : >f$k.case
  for line in 1 2 3 4 5 6 7 8 9 10; do
    printf 'case = f%d.case\n' $((k + 1)) >>f$k.case
  done
  k=$((k + 1))
done
printf 'grid = 16\n' >f10.case
fanout="^heatsim: f8.case:6: case = f9.case: more than 64 case files read (each include counts)$"
for print in "" --print-case; do
  if expect_status 2 timeout 60 "$HEATSIM" -q $print --case f0.case -n 1; then
    grep -q -e "$fanout" "$workdir/err" || fail "fan-out $print: $(cat "$workdir/err")"
  fi
done
# --print-case checks the options as a run would, the schedules and maps
# they name included (heatsim(1) said it read no file but case files);
# --init is left to the run, and so are the maps beside it (they must
# match its grid), not its schedules.
expect_status 2 "$HEATSIM" -q -g 10 --bc left=temperature:@missing.csv \
  --print-case
grep -q "^heatsim: --bc left: missing.csv: cannot open" "$workdir/err" \
  || fail "--print-case of a missing schedule: $(cat "$workdir/err")"
expect_status 2 "$HEATSIM" -q --material-map missing.h5 --print-case
grep -q "^heatsim: --material-map: .*missing.h5" "$workdir/err" \
  || fail "--print-case of a missing map: $(cat "$workdir/err")"
expect_status 0 "$HEATSIM" -q --init missing.h5 --material-map missing.h5 \
  --print-case
grep -q "^init = $(pwd -P)/missing.h5$" "$workdir/out" \
  || fail "--print-case of a missing --init: $(cat "$workdir/out")"
expect_status 2 "$HEATSIM" -q --init missing.h5 \
  --bc left=temperature:@missing.csv --print-case
grep -q "^heatsim: --bc left: missing.csv: cannot open" "$workdir/err" \
  || fail "--print-case of --init and a missing schedule: $(cat "$workdir/err")"

# A file included again and again is read each time, up to 64 reads in
# all: --case of a file that includes common.case 63 times runs, and
# 64 times is refused at its 64th include.
: >repeat.case
for k in $(seq 1 63); do
  printf 'case = common.case\n' >>repeat.case
done
printf 'grid = 8\nsteps = 1\n' >common.case
expect_status 0 "$HEATSIM" -q --case repeat.case
printf 'case = common.case\n' >>repeat.case
refused "^heatsim: repeat.case:64: case = common.case: more than 64 case files read (each include counts)$" \
  --case repeat.case
# On the command line: 64 --case of one file run, 65 are refused.
set --
for k in $(seq 1 64); do
  set -- "$@" --case common.case
done
expect_status 0 "$HEATSIM" -q "$@"
refused "^heatsim: --case: common.case: more than 64 case files read (each include counts)$" \
  "$@" --case common.case
set --

# Cycles, found by the file's identity whatever the path, with the chain.
mkdir -p sub
printf 'case = b.case\n' >a.case
printf 'grid = 8\ncase = sub/../a.case\n' >b.case
refused "^heatsim: b.case:2: case = sub/../a.case: an include cycle: a.case -> b.case -> sub/../a.case$" \
  --case a.case
printf 'case = self.case\n' >self.case
refused "^heatsim: self.case:1: case = self.case: an include cycle: self.case -> self.case$" \
  --case self.case
printf 'grid = 8\ncase = link.case\n' >target.case
ln -s target.case link.case
refused "^heatsim: target.case:2: case = link.case: an include cycle: target.case -> link.case$" \
  --case target.case
# The same file twice, not nested, is no cycle.
expect_status 0 "$HEATSIM" -q --case d16.case --case d16.case -n 1

# bad LINE WANT: a case file of LINE (printf format) is refused with the
# message WANT.
bad () {
  printf "$1" >bad.case
  refused "$2" --case bad.case
}
bad 'grid = 8\n\ncondutivity = 3\n' "^heatsim: bad.case:3: unknown option 'condutivity'$"
bad 'gri = 8\n' "^heatsim: bad.case:1: unknown option 'gri'$"
bad 'alpha\n' "^heatsim: bad.case:1: alpha: needs a value (alpha = ALPHA)$"
bad 'steady = yes\n' "^heatsim: bad.case:1: steady: a flag takes no value (write 'steady' alone)$"
bad 'alpha = fast\n' "^heatsim: bad.case:1: --alpha: 'fast'"
bad '# comment\nalpha = 0.1 # m^2/s\n' "^heatsim: bad.case:2: --alpha: '0.1 # m^2/s'"
bad 'help\n' "^heatsim: bad.case:1: help: not a setting (for the command line only)$"
bad 'print-case\n' "^heatsim: bad.case:1: print-case: not a setting"
bad 'version\n' "^heatsim: bad.case:1: version: not a setting"
bad ' --alpha = 1\n' "^heatsim: bad.case:1: '--alpha': write the option's long name without '--'$"
bad 'alpha 0.1\n' "^heatsim: bad.case:1: 'alpha 0.1': expected NAME = VALUE, or a bare NAME for a flag$"
bad ' = 3\n' "^heatsim: bad.case:1: no option name before '='$"
bad 'case =\n' "^heatsim: bad.case:1: case: needs a file name (case = FILE)$"
bad 'case = nowhere.case\n' "^heatsim: bad.case:1: cannot open 'nowhere.case': No such file or directory$"
bad 'grid = 8\n\000\n' "^heatsim: bad.case:2: a NUL byte: not a text file$"
bad "output-dir = $(printf '%05000d' 0)\n" "^heatsim: bad.case:1: line longer than 4096 bytes$"
refused "^heatsim: --case: cannot open 'missing.case': No such file or directory$" \
  --case missing.case
refused "^heatsim: --case: 'cases' is a directory, not a case file$" --case cases
# A case file's --json answers a later refusal in JSON.
printf 'json\nalpha = fast\n' >json.case
expect_status 2 "$HEATSIM" --case json.case
grep -q '"status": "usage_error"' "$workdir/out" \
  || fail "--json in a case file: no JSON for its refusal: $(cat "$workdir/out")"

# --print-case: checked as a run, nothing run or written.
args='-p disk -g 20x12 -L 3x2 --disk 0.5,80 -a 0.3 -T 0.05 --steps auto
      -b neumann --png-every 3 --range 0,100 --checkpoint-every 3
      --output-dir run -o host'
expect_status 0 "$HEATSIM" $args --print-case
cp "$workdir/out" a.case
[ ! -e run ] || fail "--print-case wrote output"
[ "$(sed -n 1p a.case)" = "# heatsim case file (heatsim --case FILE runs it; the files it reads are named by absolute paths, those it writes from the run's directory)" ] \
  || fail "--print-case: header: $(sed -n 1p a.case)"
grep -qx 'disk = 0.5,80' a.case && grep -qx 'steps = auto' a.case \
  && grep -qx 'offload = host' a.case && [ "$(wc -l <a.case)" = 14 ] \
  || fail "--print-case: values not as given: $(cat a.case)"
[ "$(sum --case a.case)" = "$(sum $args)" ] \
  || fail "the printed case does not run what its command line runs"
expect_status 0 "$HEATSIM" --case a.case --print-case
cmp -s "$workdir/out" a.case || fail "--print-case of the printed case differs"
# Each option once, with its last value.
expect_status 0 "$HEATSIM" --case a.case -a 0.4 --disk 0.6 --print-case
[ "$(grep -c '^alpha' "$workdir/out")" = 1 ] \
  && grep -qx 'alpha = 0.4' "$workdir/out" && grep -qx 'disk = 0.6' "$workdir/out" \
  || fail "--print-case after an override: $(cat "$workdir/out")"
# The last --disk is the whole setting, as the case file records it.
[ "$(sum -p disk -g 16 --disk 300,1,2 --disk 250 -n 2)" = \
  "$(sum -p disk -g 16 --disk 250 -n 2)" ] \
  || fail "--disk R after --disk R,IN,OUT keeps the earlier temperatures"
refused "^heatsim: --solver: only with --steady" --solver jacobi --print-case
refused "^heatsim: --print-case: --output-dir: ' run' cannot be written in a case file" \
  --output-dir ' run' --print-case

# The files a case file names are relative to its directory, as its
# includes are (absolute ones stay): schedules (@FILE in --bc and
# --surface-convection, --source-schedule) and maps; what the run writes
# stays in the current directory.  --print-case names them by absolute
# paths, so that its case file runs wherever it is saved.
mkdir -p cases/data
printf 'time,value\n0,300\n1,320\n' >cases/data/t.csv
printf 'time,value\n0,1\n' >cases/data/on.csv
printf 'time,value\n0,5\n' >"$workdir/h.csv"
cat >cases/wall.case <<EOF
grid = 8
length = 0.1
conductivity = 50
density = 7800
heat-capacity = 500
steps = 2
source = 1e3
bc = left=temperature:@data/t.csv
bc = right=convection:@$workdir/h.csv,@data/t.csv
thickness = 0.01
surface-convection = @data/t.csv,@data/t.csv
source-schedule = data/on.csv
monitor = wall.csv
EOF
here=$(pwd -P)
if expect_status 0 "$HEATSIM" -q --case cases/wall.case --print-case; then
  for want in "bc = left=temperature:@$here/cases/data/t.csv" \
      "bc = right=convection:@$workdir/h.csv,@$here/cases/data/t.csv" \
      "surface-convection = @$here/cases/data/t.csv,@$here/cases/data/t.csv" \
      "source-schedule = $here/cases/data/on.csv" 'monitor = wall.csv'; do
    grep -q -x -e "$want" "$workdir/out" \
      || fail "case file's relative names: no '$want' in $(cat "$workdir/out")"
  done
fi
expect_status 0 "$HEATSIM" -q --case cases/wall.case \
  && { [ -s wall.csv ] || fail "the case file's --monitor is not ./wall.csv"; }
# A map too; and a missing file is named from the current directory.
cp "$srcdir/data/wall.png" cases/data/map.png || fail "no data/wall.png"
cat >cases/map.case <<'EOF'
material-map = data/map.png
material = #b22222=brick
material = #ffd700=k=0.04,rho=30,cp=840
steps = 1
EOF
expect_status 0 "$HEATSIM" -q --case cases/map.case
printf 'source-map = data/missing.h5\n' >cases/missing.case
refused "cases/data/missing.h5" -g 8 -n 1 --case cases/missing.case
# A case printed here and saved elsewhere runs the same (its relative
# names were the working directory's, and its reader took them as the
# case file's directory's: "cannot open cases/cases/data/map.png").
set -- --material-map cases/data/map.png --material '#b22222=brick' \
  --material '#ffd700=k=0.04,rho=30,cp=840' -n 2
if expect_status 0 "$HEATSIM" -q "$@" --print-case; then
  mkdir -p elsewhere/deeper
  cp "$workdir/out" elsewhere/deeper/map.case
  grep -qx "material-map = $here/cases/data/map.png" elsewhere/deeper/map.case \
    || fail "--print-case: the map not by its absolute name: $(cat elsewhere/deeper/map.case)"
  [ "$(sum --case elsewhere/deeper/map.case)" = "$(sum "$@")" ] \
    || fail "a printed case saved in another directory runs differently"
fi
# A ',' in a directory's name cannot stand in an @FILE name that another
# value follows (convection:@H,TINF): a case file in such a directory,
# or a case printed from one, is refused naming it (its reader said
# "'d/h.csv,5' is not a number"; the printed case would not have run).
# A name nothing follows is fine there.
mkdir -p 'c,d'
printf 'time,value\n0,1\n1,2\n' >'c,d/h.csv'
printf 'grid = 16\nsteps = 2\nscheme = backward-euler\nbc = left=convection:@h.csv,5\n' \
  >'c,d/x.case'
refused "^heatsim: c,d/x.case:4: bc: the ',' in the case file's directory would end the @FILE name of 'left=convection:@h.csv,5' early" \
  --case 'c,d/x.case'
printf 'grid = 16\nsteps = 2\nscheme = backward-euler\nbc = left=convection:5,@h.csv\n' \
  >'c,d/y.case'
expect_status 0 "$HEATSIM" -q --case 'c,d/y.case'
(cd 'c,d' && "$HEATSIM" -q -g 16 -n 2 --scheme backward-euler \
  --bc 'left=convection:@h.csv,5' --print-case) >"$workdir/out" 2>"$workdir/err"
[ $? = 2 ] && [ ! -s "$workdir/out" ] \
  && grep -q "^heatsim: --print-case: --bc: '.*' cannot be written in a case file: the ',' in the working directory's name would end its @FILE name early" \
    "$workdir/err" \
  || fail "--print-case in a directory with a ',': $(cat "$workdir/out" "$workdir/err")"
# An '@' inside a name is part of it, not another name (a directory
# "d:@x" was printed as "@/here/d:@/here/x/h.csv").
mkdir -p 'd:@x'
printf 'time,value\n0,1\n1,2\n' >'d:@x/h.csv'
if expect_status 0 "$HEATSIM" -q -g 16 -n 2 --bc 'left=temperature:@d:@x/h.csv' \
     --print-case; then
  grep -qx "bc = left=temperature:@$here/d:@x/h.csv" "$workdir/out" \
    || fail "an '@' inside a name: $(grep '^bc' "$workdir/out")"
  mkdir -p at && cp "$workdir/out" at/at.case
  expect_status 0 "$HEATSIM" -q --case at/at.case
fi
# A relative name in a working directory removed under the run cannot be
# named absolutely: refused, saying so.
mkdir gone2
(cd gone2 && rmdir ../gone2 \
 && "$HEATSIM" -q -n 1 --init x.h5 --material-map m.png --print-case) \
  >"$workdir/out" 2>"$workdir/err"
[ $? = 2 ] && [ ! -s "$workdir/out" ] \
  && grep -q "^heatsim: --print-case: --init: cannot read the working directory to name 'x.h5' from it" "$workdir/err" \
  || fail "a relative name in a removed directory: $(cat "$workdir/out" "$workdir/err")"
# Nor may a printed line be longer than the reader takes (4096 bytes).
long_name=$(awk 'BEGIN { for (k = 0; k < 4100; ++k) printf "m" }')
refused "^heatsim: --print-case: --material-map: its line of a case file would be 4116 bytes, more than the 4096 a case file's reader takes" \
  --material-map "/$long_name" --init x.h5 --print-case

# Absolute names alone need no working directory: one removed under the
# run still prints them (only a relative name is made absolute).
mkdir gone
if (cd gone && rmdir ../gone \
    && "$HEATSIM" -q --material-map "$here/cases/data/map.png" \
       --material '#b22222=brick' --material '#ffd700=k=0.04,rho=30,cp=840' \
       --print-case >"$workdir/out" 2>"$workdir/err"); then
  grep -qx "material-map = $here/cases/data/map.png" "$workdir/out" \
    || fail "--print-case in a removed directory: $(cat "$workdir/out")"
else
  fail "--print-case of absolute names in a removed directory: $(cat "$workdir/err")"
fi

# The records of a run: JSON, checkpoint attribute and PNG text chunk all
# hold what --print-case prints.
expect_status 0 "$HEATSIM" $args --json --print-case
cp "$workdir/out" p.case
expect_status 0 "$HEATSIM" $args --json
if command -v jq >/dev/null 2>&1; then
  jq -j .case "$workdir/out" >report.case
  cmp -s report.case p.case || fail "JSON case differs: $(cat report.case)"
fi
if [ -n "${H5DUMP:-}" ]; then
  "$H5DUMP" -a /case -y -w 0 run/heatsim-000003.h5 >dump \
    || fail "h5dump -a /case"
  # The string, indented by h5dump, between its quotes.
  sed -n '/DATA {/,/^   }/p' dump | sed '1d;$d' | sed '$d' \
    | sed 's/^ *//; 1s/^"//' >h5.case
  cmp -s h5.case p.case || fail "checkpoint case differs: $(cat dump)"
fi
"$PNG_PROBE" run/heatsim-000003.png >probe || fail "png_probe"
sed -n '/^heatsim:case=/,/^heatsim:version=/p' probe | sed '$d' \
  | sed '1s/^heatsim:case=//' | sed '$d' >png.case
cmp -s png.case p.case || fail "PNG case differs: $(cat probe)"
pass

# A refusal naming a case file of a long path keeps its reason (the
# parser's buffer cut it at 512 bytes, inside the path; a review found
# it).
long=$workdir/$(awk 'BEGIN { for (i = 0; i < 3; ++i) { for (k = 0; k < 200; ++k) printf "c"; printf "/" } }')
mkdir -p "$long"
printf 'grid = 8\nbogus = 1\n' >"$long/case.txt"
refused "case.txt:2: unknown option 'bogus'" --case "$long/case.txt"

finish
