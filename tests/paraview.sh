#!/bin/sh
# ParaView opens heatsim's XDMF time series as a user would and sees the
# field: the default view after opening the index is not blank, the field
# lies in the XY plane with x to the right and y up (as in the PNGs), a
# point holds the checkpoint's value of its cell, and every checkpoint is
# a time step.  Skips only where ParaView's pvbatch is absent.
. "${srcdir:-.}/tests/testlib.sh"
if ! command -v pvbatch >/dev/null 2>&1; then
  echo "pvbatch not found (Debian: paraview, python3-paraview): skipping"
  exit 77
fi

# Rendering needs an OpenGL context: Debian's ParaView has no off-screen
# one (it aborts without a display), so run it under a virtual X server
# when the off-screen try fails.  xvfb-run -a alone starts looking for a
# free display at :99, and two at once can both take it (the loser's
# client then gets "bad X server connection"): start elsewhere.
echo 'from paraview.simple import *; Render()' >"$workdir/render.py"
pv="pvbatch --force-offscreen-rendering"
xvfb=false
if ! $pv "$workdir/render.py" >"$workdir/pv.log" 2>&1; then
  if command -v xvfb-run >/dev/null 2>&1; then
    xvfb=true
    pv="xvfb-run -a -n $(($$ % 500 + 100)) pvbatch"
  else
    fail "pvbatch cannot render off screen and xvfb-run is absent: $(tail -n 3 "$workdir/pv.log")"
    finish
    exit
  fi
fi

# The plate on a domain and grid twice as wide as tall, so that swapped
# axes show: its hot corner (100) is the bottom right one, at x = Lx, y = 0.
nx=48
ny=24
mkdir "$workdir/run"
cd "$workdir/run" || exit 99
expect_status 0 "$HEATSIM" -q -p plate -g ${nx}x$ny -L 2x1 -a 1 --dt 1e-4 \
  -n 40 --checkpoint-every 20 --output-dir out
# A cell near the hot corner, where the field has moved by step 40.
i=44
j=2

cat >view.py <<'EOF'
# pvbatch view.py INDEX SCREENSHOT NX NY I J: what ParaView shows.
import sys
from paraview.simple import *
from paraview import servermanager
from vtkmodules.vtkIOImage import vtkPNGReader
from vtkmodules.util.numpy_support import vtk_to_numpy

index, shot = sys.argv[1], sys.argv[2]
nx, ny, i, j = (int(a) for a in sys.argv[3:7])

# Every XDMF reader of ParaView (it asks which one when the GUI opens a
# .xmf) puts the grid in the XY plane, nx points along x, and cell (i, j)
# of the last step at point j nx + i.
k = j * nx + i
for reader in (XDMFReader(FileNames=[index]), Xdmf3ReaderS(FileName=[index]),
               Xdmf3ReaderT(FileName=[index])):
    reader.UpdatePipeline(reader.TimestepValues[-1])
    e = reader.GetDataInformation().GetExtent()
    name = reader.GetXMLName()
    print("extent %s %d %d %d" % (name, e[1] - e[0] + 1, e[3] - e[2] + 1,
                                  e[5] - e[4] + 1))
    data = servermanager.Fetch(reader)
    if data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    print("value %s %r" % (name, data.GetPointData().GetArray("u").GetValue(k)))
    Delete(reader)

# As the GUI opens the file: the default reader, the animation on the
# data's time steps, the default representation, camera and colours.
src = OpenDataFile(index)
print("reader %s" % src.GetXMLName())
print("times %s" % " ".join(repr(t) for t in src.TimestepValues))
scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
view = GetActiveViewOrCreate("RenderView")
shown = Show(src, view)
view.ResetCamera()
# Hidden so as not to count as the field in the image: the camera stays.
view.OrientationAxesVisibility = 0
# The last step, where the heat has spread, with colours for its range.
scene.AnimationTime = src.TimestepValues[-1]
shown.RescaleTransferFunctionToDataRange(False, True)
Render(view)
SaveScreenshot(shot, view, ImageResolution=[400, 300])

png = vtkPNGReader()
png.SetFileName(shot)
png.Update()
w, h, _ = png.GetOutput().GetDimensions()
rgb = vtk_to_numpy(png.GetOutput().GetPointData().GetScalars())
rgb = rgb.reshape(h, w, -1)[::-1, :, :3].astype(int)   # row 0 at the top
background = rgb[0, 0]
field = (abs(rgb - background).sum(axis=2) > 30)
print("coloured %.3f" % field.mean())
rows = field.any(axis=1).nonzero()[0]
cols = field.any(axis=0).nonzero()[0]
if len(rows) > 0:
    top, bottom, left, right = rows[0], rows[-1], cols[0], cols[-1]
    print("shape %d %d" % (right - left + 1, bottom - top + 1))
    # Red minus blue in the corners of the image of the field: the hot
    # corner is red in the default map (Cool to Warm), the cold one blue.
    def warmth(r, c):
        p = rgb[r, c]
        return int(p[0]) - int(p[2])
    inset = 3
    print("bottom-right %d" % warmth(bottom - inset, right - inset))
    print("top-left %d" % warmth(top + inset, left + inset))

# The point of cell (i, j) at the last step, by index and by a probe at
# its coordinates.
data = servermanager.Fetch(src)
print("point %r %r %r" % data.GetPoint(k))
probe = ProbeLocation(Input=src, ProbeType="Fixed Radius Point Source")
probe.ProbeType.Center = data.GetPoint(k)
probed = servermanager.Fetch(probe)
print("probe %r" % probed.GetPointData().GetArray("u").GetValue(0))
EOF

# Bare "heatsim.xmf" crashes ParaView 5.11's Xdmf3 reader; "./" works.
# Another virtual X server started at the same moment can still take the
# display (xvfb-run's choice and Xvfb's start are not one step): its
# client then aborts with "bad X server connection".  That is the
# machine's, not heatsim's: try again, four times at most, each time
# from another display (a CI run once lost the same display three
# times over while its other tests loaded the machine).
for try in 1 2 3 4 5; do
  $pv view.py ./out/heatsim.xmf "$workdir/view.png" $nx $ny $i $j \
    >pv.out 2>pv.err && break
  grep -q "bad X server connection" pv.err || break
  echo "pvbatch lost its X server (try $try)"
  sleep 1
  $xvfb && pv="xvfb-run -a -n $((($$ + 97 * try) % 500 + 100)) pvbatch"
done
[ -s pv.out ] && grep -q '^probe ' pv.out \
  || fail "pvbatch failed: $(grep 'ERR\|Error\|error' pv.err | head -n 5)"
cat pv.out
got () {
  sed -n "s/^$1 //p" pv.out
}

for r in XdmfReader Xdmf3ReaderS Xdmf3ReaderT; do
  [ "$(got "extent $r")" = "$nx $ny 1" ] \
    || fail "$r: points along x, y, z are '$(got "extent $r")', not $nx $ny 1"
done
# Steps 0, 20 and 40.
[ "$(got times)" = "0.0 0.002 0.004" ] \
  || fail "time steps '$(got times)', expected 0.0 0.002 0.004"

# The default view shows the field: a good part of the image is not the
# background, the field's image is twice as wide as tall, and its hot
# corner is at the bottom right.
awk -v f="$(got coloured)" 'BEGIN { exit !(f > 0.2) }' \
  || fail "the default view is blank: $(got coloured) of it is coloured"
set -- $(got shape) 0 0
awk -v w="$1" -v h="$2" 'BEGIN { exit !(h > 0 && w / h > 1.8 && w / h < 2.2) }' \
  || fail "the field is $1 x $2 pixels in the default view, not 2:1"
[ "$(got bottom-right)" -gt 100 ] 2>/dev/null \
  && [ "$(got top-left)" -lt -100 ] 2>/dev/null \
  || fail "the hot corner is not at the bottom right: warmth there" \
          "$(got bottom-right), at the top left $(got top-left)"

# The point of cell (i, j) is at x = (i+1) dx, y = (j+1) dy, z = 0 and holds
# the checkpoint's /field[j][i].
set -- $(got point)
awk -v x="$1" -v y="$2" -v z="$3" -v i=$i -v j=$j -v nx=$nx -v ny=$ny 'BEGIN {
  dx = 2 / (nx + 1); dy = 1 / (ny + 1)
  d = (x - (i + 1) * dx) ^ 2 + (y - (j + 1) * dy) ^ 2 + z ^ 2
  exit !(d < 1e-24) }' \
  || fail "point of cell ($i, $j) at ($*), not ((i+1) dx, (j+1) dy, 0)"
want=
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import h5py' 2>/dev/null; then
    want=$("$py" -c 'import sys, h5py
f = h5py.File(sys.argv[1], "r")
print(repr(float(f["field"][int(sys.argv[3]), int(sys.argv[2])])))' \
      out/heatsim-000040.h5 $i $j) || fail "h5py cannot read the checkpoint"
    break
  fi
done
if [ -z "$want" ] && [ -n "${H5DUMP:-}" ]; then
  "$H5DUMP" -m %.17g -d /field -s "$j,$i" -c 1,1 -y -o value.txt \
    out/heatsim-000040.h5 >/dev/null || fail "h5dump cannot read the checkpoint"
  want=$(tr -d ' \n' <value.txt)
fi
if [ -n "$want" ]; then
  awk -v w="$want" 'BEGIN { exit !(w > 1) }' \
    || fail "cell ($i, $j) holds $want: too cold to tell anything"
  for r in XdmfReader Xdmf3ReaderS Xdmf3ReaderT; do
    # The same double, however each prints it.
    awk -v a="$(got "value $r")" -v b="$want" 'BEGIN { exit !(a + 0 == b + 0) }' \
      || fail "$r: the point of cell ($i, $j) holds '$(got "value $r")'," \
              "the checkpoint $want"
  done
  # The probe interpolates in single precision: near, not equal.
  close_to "$(got probe)" "$want" 1e-5 \
    || fail "ParaView's probe at cell ($i, $j) gives $(got probe), the checkpoint $want"
else
  echo "neither h5py nor h5dump: value checks skipped"
fi
finish
