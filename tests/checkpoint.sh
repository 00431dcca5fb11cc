#!/bin/sh
# HDF5 checkpoints: readable without heatsim (h5dump), an XDMF index,
# bitwise-exact restart for every strategy, steady-state restart,
# compression, and atomic writes that survive a kill.
. "${srcdir:-.}/tests/testlib.sh"
out=$workdir/ck
run='--problem disk --boundary periodic --grid 40x30 --length 1 --alpha 1'

expect_status 0 "$HEATSIM" -q $run --dt 5e-5 --steps 30 --checkpoint-every 10 \
  --output-dir "$out"
[ "$(cd "$out" && echo *)" = \
  "heatsim-000000.h5 heatsim-000010.h5 heatsim-000020.h5 heatsim-000030.h5 heatsim.xmf" ] \
  || fail "checkpoints: $(cd "$out" && echo *)"
for k in 00 10 20 30; do
  grep -q "heatsim-0000$k.h5:/field" "$out/heatsim.xmf" || fail "xmf lacks $k"
done
grep -q '<Time Value="0.0015' "$out/heatsim.xmf" || fail "xmf time"
# Checkpoint names are escaped in the XDMF index, which stays valid XML.
expect_status 0 "$HEATSIM" -q $run --dt 5e-5 --steps 2 --checkpoint-every 1 \
  --checkpoint-name "a&b<c>\"d'e-%d.h5" --output-dir "$workdir/xml"
grep -q "a&amp;b&lt;c&gt;&quot;d&apos;e-1.h5:/field" "$workdir/xml/heatsim.xmf" \
  || fail "xmf: checkpoint name not escaped: $(grep HDF "$workdir/xml/heatsim.xmf")"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \
    "$workdir/xml/heatsim.xmf" 2>"$workdir/err" \
    || fail "xmf: not well-formed XML: $(tail -n 1 "$workdir/err")"
fi
if [ -n "${H5DUMP:-}" ]; then
  "$H5DUMP" -H "$out/heatsim-000030.h5" >"$workdir/dump" || fail "h5dump"
  grep -q 'DATASET "field"' "$workdir/dump" || fail "h5dump: no /field"
  grep -q 'DATASPACE  SIMPLE { ( 30, 40 ) / ( 30, 40 ) }' "$workdir/dump" \
    || fail "h5dump: /field is not 30 x 40"
  for a in step time dt alpha nx ny dx dy lx ly boundary problem \
      heatsim_version format checksum; do
    grep -q "ATTRIBUTE \"$a\"" "$workdir/dump" || fail "h5dump: no $a"
  done
  "$H5DUMP" -a /step "$out/heatsim-000030.h5" | grep -q "(0): 30" \
    || fail "h5dump: step attribute is not 30"
else
  echo "h5dump not found: skipping the external-reader check"
fi

# N steps in one run == K steps, checkpoint, restart, N - K steps.
for s in host map resident; do
  expect_status 0 "$HEATSIM" -q --json $run --dt 5e-5 --steps 30 -o $s
  whole=$(json_field checksum "$workdir/out")
  expect_status 0 "$HEATSIM" -q $run --dt 5e-5 --steps 12 -o $s \
    --checkpoint-every 100 --output-dir "$out/$s"
  expect_status 0 "$HEATSIM" -q --json --restart "$out/$s/heatsim-000012.h5" \
    --steps 18 -o $s
  [ "$(json_field checksum "$workdir/out")" = "$whole" ] \
    || fail "$s: restart at 12 of 30 is not bitwise the uninterrupted run"
  [ "$(json_field start_step "$workdir/out")" = 12 ] || fail "start_step"
done

# The layout of heatsim-checkpoint-1 (fixed-length strings, no dimension
# scales, before issue 15), a file written by heatsim then (steps 1-3 of
# -p disk -b periodic -g 5x4 -L 1 -a 1 --dt 5e-5): it still restarts,
# bitwise as a run that goes on from it unbroken (its own steps ran on
# the spacing of their time, L / (nx + 1); periodic axes now have nx
# nodes per period, issue 24), and still loads with --init.
old=$srcdir/tests/data/checkpoint-v1.h5
expect_status 0 "$HEATSIM" -q --json --restart "$old" -n 2 -o host
whole=$(json_field checksum "$workdir/out")
expect_status 0 "$HEATSIM" -q --restart "$old" -n 1 -o host \
  --checkpoint-every 1 --checkpoint-name "from-v1-%d.h5" --output-dir "$out"
expect_status 0 "$HEATSIM" -q --json --restart "$out/from-v1-4.h5" -n 1 \
  -o host
[ "$(json_field checksum "$workdir/out")" = "$whole" ] \
  || fail "restart from the old layout is not bitwise the uninterrupted run"
expect_status 0 "$HEATSIM" -q --json --restart "$old" -n 2 -o host
[ "$(json_field start_step "$workdir/out")" = 3 ] || fail "old start_step"
expect_status 0 "$HEATSIM" -q --init "$old" -n 1 -L 1 -a 1 --dt 5e-5

# A format this heatsim does not know (a newer heatsim's) is refused with
# a message naming the file and the format.  h5py edits a copy whose seal
# is blanked (a sealed file would be refused as damaged before that).
for py in python3 /usr/bin/python3; do
  "$py" -c 'import h5py' 2>/dev/null || continue
  cp "$out/host/heatsim-000012.h5" "$workdir/future.h5"
  dd if=/dev/zero of="$workdir/future.h5" bs=512 count=1 conv=notrunc \
    2>/dev/null
  "$py" -c 'import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f.attrs["format"] = "heatsim-checkpoint-99"' "$workdir/future.h5" \
    || fail "h5py cannot edit the format"
  expect_status 2 "$HEATSIM" -q --restart "$workdir/future.h5" -n 1
  grep -q "future.h5: format 'heatsim-checkpoint-99' is not one" \
    "$workdir/err" || fail "future format: $(cat "$workdir/err")"
  break
done

# MMS restart reports its error at the right time: equal to the whole run.
expect_status 0 "$HEATSIM" -q --json --grid 30 -L 1 -a 1 -T 0.001 -n 20
whole=$(json_field l2_error "$workdir/out")
expect_status 0 "$HEATSIM" -q --grid 30 -L 1 -a 1 -T 0.0005 -n 10 \
  --checkpoint-every 10 --output-dir "$out/mms"
expect_status 0 "$HEATSIM" -q --json --restart "$out/mms/heatsim-000010.h5" -n 10
[ "$(json_field l2_error "$workdir/out")" = "$whole" ] \
  || fail "restarted MMS error $(json_field l2_error "$workdir/out") != $whole"

# Steady state: stop, checkpoint, continue to convergence.
expect_status 4 "$HEATSIM" -q -p plate -s --solver jacobi -g 30 --tol 1e-6 --max-steps 500 \
  --checkpoint-every 1000 --output-dir "$out/steady"
expect_status 0 "$HEATSIM" -q --json -s --tol 1e-6 \
  --restart "$out/steady/heatsim-000500.h5"
[ "$(json_field converged "$workdir/out")" = true ] || fail "steady restart"
expect_status 2 "$HEATSIM" -q --restart "$out/steady/heatsim-000500.h5"
grep -q "add --steady" "$workdir/err" || fail "steady mismatch message"
# ... and with a steady option but not --steady (a hostile pass found
# "--max-steps: only with --steady" alone).
refused "^heatsim: --max-steps: only with --steady (and a restart takes --steady where its checkpoint is a steady run's)$" \
  --restart "$out/steady/heatsim-000500.h5" --max-steps 5
# A steady run has no time: its checkpoints and their index record the
# step (the sweep) as theirs, not step times a dt the run does not use,
# and a restart's index goes on from them.
expect_status 4 "$HEATSIM" -q -p plate -s --solver jacobi -g 30 --tol 1e-6 \
  --max-steps 500 --checkpoint-every 200 --output-dir "$out/steady-index"
expect_status 4 "$HEATSIM" -q -s --tol 1e-6 --max-steps 200 \
  --restart "$out/steady-index/heatsim-000400.h5" --checkpoint-every 200 \
  --output-dir "$out/steady-index"
[ "$(xdmf_steps "$out/steady-index/heatsim.xmf")" = "0 200 400 600" ] \
  || fail "steady restart index: steps $(xdmf_steps "$out/steady-index/heatsim.xmf")"
[ "$(xdmf_times "$out/steady-index/heatsim.xmf")" = "0 200 400 600" ] \
  || fail "steady index: times $(xdmf_times "$out/steady-index/heatsim.xmf"), expected the steps"
if [ -n "${H5DUMP:-}" ]; then
  "$H5DUMP" -a /time "$out/steady-index/heatsim-000600.h5" | grep -q "(0): 600$" \
    || fail "steady checkpoint: time attribute is not its step 600"
fi
expect_status 2 "$HEATSIM" -q --restart "$out/host/heatsim-000012.h5" -g 10
grep -q -e "--grid: not allowed with --restart" "$workdir/err" \
  || fail "--grid with --restart not refused"

# Compression shrinks a smooth field and restarts identically.
expect_status 0 "$HEATSIM" -q -p plate -g 200x100 -n 10 -T 100 \
  --checkpoint-every 10 --compress 6 --output-dir "$out/z"
expect_status 0 "$HEATSIM" -q -p plate -g 200x100 -n 10 -T 100 \
  --checkpoint-every 10 --output-dir "$out/raw"
zs=$(wc -c <"$out/z/heatsim-000010.h5")
rs=$(wc -c <"$out/raw/heatsim-000010.h5")
[ "$zs" -lt "$rs" ] || fail "--compress 6: $zs bytes, uncompressed $rs"
expect_status 0 "$HEATSIM" -q --json --restart "$out/z/heatsim-000010.h5" -n 5
a=$(json_field checksum "$workdir/out")
expect_status 0 "$HEATSIM" -q --json --restart "$out/raw/heatsim-000010.h5" -n 5
[ "$(json_field checksum "$workdir/out")" = "$a" ] || fail "compressed restart"

# /boundary holds the halo for the checkpoint's own field, as a step
# from it would fill it: the mirror beyond an insulated edge, the mirror
# plus 2 h / k (Q + H (TINF - u)) beyond a flux or convection edge, the
# opposite line across a periodic one (it held the halo of the field
# two steps before, or zeros: a hostile pass), on plain and fused steps.
if /usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null; then
  for tiles in 1 auto; do
    for edges in "--bc left=temperature:10 --bc right=convection:3,20 --bc bottom=flux:4 --bc top=insulated" \
        "--bc left=insulated --bc right=temperature:5 --bc bottom=periodic --bc top=periodic"; do
      rm -rf "$out/halo"
      # shellcheck disable=SC2086
      expect_status 0 "$HEATSIM" -q -g 8x6 -L 1x1 -a 1 -p disk \
        --disk 0.3,100,0 $edges -n 3 --dt 1e-3 --tile-steps $tiles \
        --checkpoint-every 1 --output-dir "$out/halo" || continue
      /usr/bin/python3 - "$out"/halo/heatsim-*.h5 <<'EOF' \
        || fail "checkpoint halo ($edges, --tile-steps $tiles)"
import sys, h5py, numpy as np
bad = 0
for name in sys.argv[1:]:
    with h5py.File(name) as f:
        u = f["field"][()]
        dx, dy = f.attrs["dx"], f.attrs["dy"]
        b = {e: f["boundary/" + e][()] for e in ("left", "right", "bottom", "top")}
        bc = {}
        for e in ("left", "right", "bottom", "top"):
            v = f.attrs.get("bc_" + e, b"")
            bc[e] = v.decode() if isinstance(v, bytes) else str(v)
        want = {}
        if bc["right"].startswith("convection"):
            want["right"] = u[:, -2] + 2 * dx * 3.0 * (20.0 - u[:, -1])
        if bc["bottom"].startswith("flux"):
            want["bottom"] = u[1, :] + 2 * dy * 4.0
        if bc["top"].startswith("insulated"):
            want["top"] = u[-2, :]
        if bc["left"].startswith("insulated"):
            want["left"] = u[:, 1]
        if bc["bottom"].startswith("periodic"):
            want["bottom"], want["top"] = u[-1, :], u[0, :]
        for e, w in want.items():
            if not np.allclose(b[e], w, rtol=1e-13, atol=1e-12):
                print(name, e, "halo", b[e], "want", w)
                bad += 1
        if len(want) < 2:
            print(name, "edges not recognised:", bc)
            bad += 1
sys.exit(bad != 0)
EOF
    done
  done
else
  echo "no python3 with h5py and numpy: checkpoint halo values not checked"
fi

# A uniform field of 1e16, where T + 1 rounds to T: its default colour
# range is wider, so its checkpoint holds colour_lo below colour_hi and
# restarts (its reader refused it, "colour_lo is not below colour_hi").
expect_status 0 "$HEATSIM" -q -p uniform --initial-temperature 1e16 -g 8 -n 2 \
  --checkpoint-every 2 --output-dir "$out/big"
expect_status 0 "$HEATSIM" -q --restart "$out/big/heatsim-000002.h5" -n 2

# Kill a run that checkpoints often: every checkpoint left under its
# final name is whole and restarts; a write in flight leaves at most a
# hidden temporary file.
"$HEATSIM" -q -p disk -g 500 -L 1 -a 1 --dt 1e-7 -n 1000000 \
  --checkpoint-every 100 --output-dir "$out/kill" >/dev/null 2>&1 &
pid=$!
# checkpoints: how many the run has left under their final names.
checkpoints () {
  ls "$out/kill" 2>/dev/null | grep -c '\.h5$'
}
three_checkpoints () {
  [ "$(checkpoints)" -ge 3 ]
}
if wait_for $pid three_checkpoints
then
  kill -9 $pid
  wait $pid 2>/dev/null
  last=$(ls "$out/kill" | grep '\.h5$' | sort | tail -n 1)
  expect_status 0 "$HEATSIM" -q --restart "$out/kill/$last" -n 1
  first=$(ls "$out/kill" | grep '\.h5$' | sort | head -n 1)
  expect_status 0 "$HEATSIM" -q --restart "$out/kill/$first" -n 1
else
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  fail "the run to kill wrote $(checkpoints) checkpoints, not 3, in ${WAIT_LIMIT:-300} s (or ended first)"
fi
finish
