#!/bin/sh
# completion/heatsim, driven in bash as bash-completion would: it completes
# every long option of --help (and no other: it reads them from the
# program's --help, so a program with another option gets that one), each
# value list as the program's name tables and messages give it, file names
# after --init, --restart, --monitor, --case, --material-map,
# --source-map and --source-schedule, the edges of --bc, and directories after
# --output-dir.
. "${srcdir:-.}/tests/testlib.sh"

command -v bash >/dev/null 2>&1 || { echo "SKIP: no bash"; exit 77; }
completion=${COMPLETION:-$srcdir/completion/heatsim}

# comp WORD...: the completions, one a line, of the last WORD of the
# command line 'heatsim WORD...' (an empty last WORD: nothing typed yet),
# heatsim being $program ($HEATSIM unless set).
comp () {
  bash -c '. "$1" || exit 1; command=$2; shift 2
    COMP_WORDS=("$command" "$@"); COMP_CWORD=$#
    COMP_LINE="$command $*"; COMP_POINT=${#COMP_LINE}
    _heatsim "$command" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' bash "$completion" "${program:-$HEATSIM}" \
    "$@" | sed '/^$/d' | sort
}

# expect WANT WORD...: the completions, sorted and joined by spaces.
expect () {
  _want=$1
  shift
  _got=$(comp "$@" | tr '\n' ' ' | sed 's/ $//')
  checks=$((checks + 1))
  [ "$_got" = "$_want" ] || fail "heatsim $* <TAB>: '$_got', expected '$_want'"
}

bash -c '. "$1" && complete -p heatsim' bash "$completion" >"$workdir/spec" 2>&1
grep -q -e '-F _heatsim heatsim' "$workdir/spec" \
  || fail "sourcing does not register _heatsim: $(cat "$workdir/spec")"

# Option names: those --help defines, at the start of a line, exactly.
expect_status 0 "$HEATSIM" --help
cp "$workdir/out" help.txt
sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' help.txt \
  | sort -u >help-options
comp -- >completed-options
[ -s help-options ] || fail "no options in --help"
diff help-options completed-options >diff.txt \
  || fail "completion and --help differ (< only in --help, > only completed): $(cat diff.txt)"
# Those taking a value must not be followed by option names, and flags
# must be: --help writes them OPTION=VALUE.
sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\)=.*/\2/p' help.txt \
  | sort -u >with-value
for opt in $(cat help-options); do
  if grep -qx -e "$opt" with-value; then
    comp "$opt" '' | grep -q '^--' && fail "$opt: option names offered for its value"
  else
    comp "$opt" '' | grep -q '^--grid$' || fail "$opt: no option names after it"
  fi
done
pass
expect '--monitor --monitor-every' --mon
expect '--start-time --steady --steps' -q --st

# choices OPTION: the values heatsim's message for a bad one lists.
choices () {
  "$HEATSIM" -q "$1" no-such-value 2>&1 | sed -n 's/.*(choose \(.*\))$/\1/p' \
    | sed 's/, / /g; s/ or / /' | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'
}
# table HEADING: the names of a --help table (first word of each line).
table () {
  awk -v h="$1" '$0 == h { on = 1; next } on && NF == 0 { exit }
                 on { print $1 }' help.txt | sort | tr '\n' ' ' | sed 's/ $//'
}
for opt in --problem --boundary --offload --kernel --colormap --solver --scheme \
    --temperature-unit; do
  want=$(choices "$opt")
  [ -n "$want" ] || fail "$opt: no list of choices in heatsim's message"
  expect "$want" "$opt" ''
  expect "$want" "$opt" = ''
  expect "$(printf '%s\n' $want | sed "s/^/$opt=/" | tr '\n' ' ' | sed 's/ $//')" "$opt="
done
[ "$(table 'Problems:')" = "$(choices --problem)" ] || fail "--problem: --help table '$(table 'Problems:')'"
[ "$(table 'Offload strategies:')" = "$(choices --offload)" ] \
  || fail "--offload: --help table '$(table 'Offload strategies:')'"
maps=$(sed -n 's/^Colour maps: //p' help.txt | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
[ "$maps" = "$(choices --colormap)" ] || fail "--colormap: --help lists '$maps'"
expect 'plate' --problem pl
expect 'resident' -o r
expect 'neumann' -b n
expect 'all= bottom= left= right= top=' --bc ''
expect 'left=' --bc l
expect '16 8' --png-depth ''

# File names where a file is expected, directories for --output-dir.
mkdir -p runs/a-dir
: >runs/a-file.h5
: >'runs/with space.csv'
for opt in --init --restart --monitor --probe-file --case --material-map \
    --source-map --source-schedule; do
  expect 'runs/a-dir runs/a-file.h5 runs/with space.csv' "$opt" runs/
  expect 'runs/a-file.h5' "$opt" runs/a-f
done
expect 'runs/a-dir' --output-dir runs/
expect '' --grid ''
expect '' --monitor-every ''
expect '' --probe ''
expect '--probe --probe-every --probe-file' --probe

# The option names are the program's: another --help, other names.
cat >other-heatsim <<'EOF2'
#!/bin/sh
printf '%s\n' 'Usage: heatsim [OPTION]...' '  -z, --zeta=Z      a value' \
  '      --zero        a flag' '  -h, --help        help'
EOF2
chmod +x other-heatsim
program=./other-heatsim
expect '--help --zero --zeta' --
expect '--zero' --zer
expect '' -z ''
expect '--help --zero --zeta' --zero ''
program=

finish
