# Shared helpers of heatsim's shell tests.  Source it; it sets up a scratch
# directory removed at exit and counts checks.  The Automake harness gives
# HEATSIM (the binary) and srcdir.

: "${HEATSIM:?HEATSIM must name the heatsim binary}"
workdir=$(mktemp -d "${TMPDIR:-/tmp}/heatsim-test.XXXXXX") || exit 99
trap 'rm -rf "$workdir"' EXIT
# Run in the scratch directory, so that nothing a test runs can litter the
# build tree; srcdir becomes absolute first.
srcdir=$(cd "${srcdir:-.}" && pwd) || exit 99
cd "$workdir" || exit 99
checks=0
failures=0

fail () {
  failures=$((failures + 1))
  echo "FAIL: $*" >&2
}

pass () {
  checks=$((checks + 1))
}

# expect_status WANT CMD...: run CMD, keep its output in $workdir/out and
# $workdir/err, and check its exit status.
expect_status () {
  _want=$1
  shift
  "$@" >"$workdir/out" 2>"$workdir/err"
  _got=$?
  checks=$((checks + 1))
  if [ "$_got" -ne "$_want" ]; then
    fail "'$*' exited $_got, expected $_want; stderr: $(cat "$workdir/err")"
    return 1
  fi
  return 0
}

# refused WANT ARGS...: heatsim ARGS exits with status 2, one message on
# stderr that starts with 'heatsim: ' and matches WANT, a hint to --help,
# and nothing on stdout.
refused () {
  _msg=$1
  shift
  if expect_status 2 "$HEATSIM" -q "$@"; then
    grep -q -e "$_msg" "$workdir/err" \
      || fail "'$*': stderr lacks '$_msg': $(cat "$workdir/err")"
    [ "$(head -n 1 "$workdir/err" | cut -c1-9)" = "heatsim: " ] \
      || fail "'$*': message does not start with 'heatsim: '"
    grep -q -e "--help" "$workdir/err" || fail "'$*': no hint to --help"
    [ -s "$workdir/out" ] && fail "'$*': wrote to stdout"
  fi
}

# mpi_ready: whether heatsim is built with MPI and MPIEXEC names a
# launcher; if so, Open MPI is told to run as root (CI containers) and on
# more ranks than cores.  A caller that wants one thread a rank sets
# OMP_NUM_THREADS itself.
mpi_ready () {
  "$HEATSIM" --version | grep -q '^MPI: yes' && [ -n "${MPIEXEC:-}" ] \
    || return 1
  OMPI_ALLOW_RUN_AS_ROOT=1
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  OMPI_MCA_rmaps_base_oversubscribe=1
  export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
    OMPI_MCA_rmaps_base_oversubscribe
}

# json_field NAME FILE: the value of a top-level field of heatsim --json.
json_field () {
  sed -n "s/.*\"$1\": \"\{0,1\}\([^,\"}]*\)\"\{0,1\}[,}].*/\1/p" "$2"
}

# xdmf_steps FILE, xdmf_times FILE, xdmf_names FILE: the steps, times and
# checkpoint files an XDMF index (heatsim.xmf) lists, on one line.
xdmf_steps () {
  sed -n 's/.*<Grid Name="step \([0-9]*\)".*/\1/p' "$1" | tr '\n' ' ' \
    | sed 's/ $//'
}
xdmf_times () {
  sed -n 's/.*<Time Value="\([^"]*\)".*/\1/p' "$1" | tr '\n' ' ' \
    | sed 's/ $//'
}
xdmf_names () {
  sed -n 's/.*Format="HDF">\(.*\):\/field<.*/\1/p' "$1" | tr '\n' ' ' \
    | sed 's/ $//'
}

# close_to A B RELTOL: |A - B| <= RELTOL * |B|
close_to () {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
    d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= t * m) }'
}

# python_with MODULE...: PY, the first python3 that imports every MODULE;
# without one the test is skipped (exit 77).
python_with () {
  for py in /usr/bin/python3 python3; do
    if "$py" -c "import $(echo "$*" | tr ' ' ',')" 2>/dev/null; then
      PY=$py
      return 0
    fi
  done
  echo "SKIP: no python3 with $*"
  exit 77
}

# host_plugin: whether heatsim's device code is for LLVM's host plugin
# (configure --with-offload-arch=x86_64): target regions then run on a
# device with memory of its own, on this processor, so map and resident
# must both use it and agree bitwise with host.
host_plugin () {
  "$HEATSIM" --list-devices 2>/dev/null \
    | grep -q '^device code in this binary: x86_64$'
}

# wait_for PID CMD...: poll CMD until it succeeds, while the background
# process PID runs, for at most WAIT_LIMIT seconds (default 300).  A
# loaded machine can take many seconds to start a process (MPI builds
# have taken 15), so tests wait for what they need rather than for a
# fixed time.  False when CMD never succeeded.
wait_for () {
  _pid=$1
  shift
  _end=$(($(date +%s) + ${WAIT_LIMIT:-300}))
  until "$@"; do
    if ! kill -0 "$_pid" 2>/dev/null || [ "$(date +%s)" -ge "$_end" ]; then
      "$@"
      return
    fi
    sleep 0.1
  done
}

finish () {
  echo "$checks checks, $failures failed"
  [ "$failures" -eq 0 ]
}
