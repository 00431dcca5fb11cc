#!/bin/sh
# Every input file is checked for its kind before it is opened: a FIFO
# (or a device, a socket) would block the run forever or never end, and
# a directory has nothing to read.  Each option that names an input
# (--case and its includes, --material-map, --source-map, --init,
# --restart, --source-schedule, --bc @FILE, --surface-convection @FILE)
# is refused with status 2, a message naming the option and the file
# ("not a regular file", or for a directory "is a directory"), the JSON
# status bad_file and no output.  timeout turns a hang into a failure.
. "${srcdir:-.}/tests/testlib.sh"

mkfifo fifo.h5 fifo.png fifo.case fifo.csv || { echo "no mkfifo"; exit 77; }
mkdir dir.h5
printf 'grid = 8\ncase = fifo.case\n' >includes-fifo.case
printf 'grid = 8\ncase = dir.h5\n' >includes-dir.case
printf 'material-map = fifo.h5\n' >names-fifo.case

mat="--conductivity 1 --density 1 --heat-capacity 1"
src="--source 1 $mat"
outputs="--output-dir outdir --checkpoint-every 1 --png-every 1 --monitor outdir/m.csv"

# kind_refused WANT ARGS...: heatsim ARGS (a small run writing every
# output) ends within 60 s with status 2, one message on stderr matching
# WANT (naming the option and the file) and a hint to --help, nothing on
# stdout, bad_file under --json, and no output left.
kind_refused () {
  _kmsg=$1
  shift
  rm -rf outdir
  if expect_status 2 timeout 60 "$HEATSIM" -q -n 2 $outputs \
      "$@"; then
    grep -q -e "$_kmsg" "$workdir/err" \
      || fail "'$*': stderr lacks '$_kmsg': $(cat "$workdir/err")"
    [ "$(grep -c . "$workdir/err")" -eq 2 ] \
      && grep -q -e "--help" "$workdir/err" \
      || fail "'$*': not one message and a hint: $(cat "$workdir/err")"
    [ -s "$workdir/out" ] && fail "'$*': wrote to stdout"
  fi
  [ -e outdir ] && fail "'$*': left output: $(ls -A outdir)"
  if expect_status 2 timeout 60 "$HEATSIM" -q --json -n 2 $outputs "$@"; then
    [ "$(json_field status "$workdir/out")" = bad_file ] \
      || fail "'$*' --json: status $(json_field status "$workdir/out"), expected bad_file"
  fi
  rm -rf outdir
}

g="-g 8"

# FIFOs.
kind_refused "^heatsim: --case: 'fifo.case' is not a regular file" \
  $g --case fifo.case
kind_refused "^heatsim: includes-fifo.case:2: 'fifo.case' is not a regular file" \
  --case includes-fifo.case
kind_refused "^heatsim: --material-map: fifo.h5: not a regular file" \
  $g --material-map fifo.h5
kind_refused "^heatsim: --material-map: fifo.png: not a regular file" \
  $g --material-map fifo.png --material 0=copper
kind_refused "^heatsim: --material-map: fifo.h5: not a regular file" \
  $g --case names-fifo.case
kind_refused "^heatsim: --source-map: fifo.h5: not a regular file" \
  $g --source-map fifo.h5 $mat
kind_refused "^heatsim: --source-map: fifo.png: not a regular file" \
  $g --source-map fifo.png --source-range 0,1 $mat
kind_refused "^heatsim: --init: fifo.h5: not a regular file" --init fifo.h5
kind_refused "^heatsim: --restart: fifo.h5: not a regular file" \
  --restart fifo.h5
kind_refused "fifo.csv: not a regular file" $g --source-schedule fifo.csv $src
kind_refused "fifo.csv: not a regular file" $g --bc left=temperature:@fifo.csv
kind_refused "fifo.csv: not a regular file" \
  $g --thickness 1e-3 --surface-convection @fifo.csv,20 $mat

# Directories: a map or an initial field says that it is one.
kind_refused "^heatsim: --case: 'dir.h5' is a directory, not a case file" \
  $g --case dir.h5
kind_refused "^heatsim: includes-dir.case:2: 'dir.h5' is a directory, not a case file" \
  --case includes-dir.case
kind_refused "^heatsim: --material-map: dir.h5: is a directory" \
  $g --material-map dir.h5
kind_refused "^heatsim: --material-map: \.: is a directory" $g --material-map .
kind_refused "^heatsim: --source-map: dir.h5: is a directory" \
  $g --source-map dir.h5 $mat
kind_refused "^heatsim: --init: dir.h5: is a directory" --init dir.h5
kind_refused "^heatsim: --restart: dir.h5: is a directory" --restart dir.h5
kind_refused "dir.h5: not a regular file" $g --source-schedule dir.h5 $src

# A device: /dev/zero never ends.
if [ -c /dev/zero ]; then
  kind_refused "^heatsim: --material-map: /dev/zero: not a regular file" \
    $g --material-map /dev/zero
  kind_refused "^heatsim: --case: '/dev/zero' is not a regular file" \
    $g --case /dev/zero
fi

# A link to a regular file is read as the file.
printf 'grid = 8\nsteps = 1\n' >plain.case
ln -s plain.case link.case
expect_status 0 timeout 60 "$HEATSIM" -q --case link.case
finish
