#!/bin/sh
# Checkpoints are self-describing netCDF-4 for xarray (issue 15, items 3
# and 7), checked with the real clients: xarray.open_dataset through the
# netCDF-4 library gives the field on dimensions (y, x) with the node
# coordinates heatsim uses, the time and step as scalar coordinates;
# open_mfdataset stacks a run's checkpoints along time; h5py reads every
# string attribute as str, not bytes; each checkpoint records the command
# line and the build that wrote it.  Skipped (77) only where the Python
# modules are missing (CI installs them).
. "${srcdir:-.}/tests/testlib.sh"

py=
for p in ${PYTHON3:-} python3 /usr/bin/python3; do
  if "$p" -c 'import xarray, netCDF4, h5py, dask' 2>/dev/null; then
    py=$p
    break
  fi
done
if [ -z "$py" ]; then
  echo "no python3 with xarray, netCDF4, h5py and dask: skipped"
  exit 77
fi

# A non-square grid on a non-square domain, so that x and y cannot be
# confused; a directory name with a space, so that the recorded command
# line must be quoted to split back into the arguments.
set -- "$HEATSIM" -q -p disk -b periodic -g 7x4 -L 2x1 -a 1 --dt 5e-5 -n 6 \
  --checkpoint-every 2 --output-dir "run dir"
expect_status 0 "$@"
ls "run dir"/heatsim-*.h5 >/dev/null 2>&1 || fail "no checkpoints"

if "$py" - "$@" >"$workdir/py.out" 2>&1 <<'EOF'
import glob, shlex, sys
import h5py, numpy as np, xarray as xr

argv = sys.argv[1:]
nx, ny, lx, ly, dt = 7, 4, 2.0, 1.0, 5e-5
files = sorted(glob.glob("run dir/heatsim-*.h5"))
steps = [int(f[-9:-3]) for f in files]
assert steps[-3:] == [2, 4, 6], steps
last = files[-1]

# One checkpoint: a (y, x) field with the coordinates of the interior
# nodes as problem.c computes them: periodic axes hold nx nodes per
# period, x = i dx with dx = Lx / nx.
ds = xr.open_dataset(last, engine="netcdf4")
assert ds["field"].dims == ("y", "x"), ds["field"].dims
x = np.arange(0, nx, dtype=float) * (lx / nx)
y = np.arange(0, ny, dtype=float) * (ly / ny)
assert np.array_equal(ds["x"].values, x), ds["x"].values
assert np.array_equal(ds["y"].values, y), ds["y"].values
with h5py.File(last, "r") as h:
    assert np.array_equal(ds["field"].values, h["field"][...])
    assert ds["time"].ndim == 0 and ds["step"].ndim == 0
    assert float(ds["time"]) == h.attrs["time"] == 6 * dt, float(ds["time"])
    assert int(ds["step"]) == h.attrs["step"] == 6, int(ds["step"])
assert "time" in ds.coords and "step" in ds.coords, list(ds.coords)
for v in ("field", "x", "y", "time"):
    assert isinstance(ds[v].attrs.get("units"), str), (v, ds[v].attrs)
    assert isinstance(ds[v].attrs.get("long_name"), str), (v, ds[v].attrs)
assert ds.attrs["Conventions"].startswith("CF-"), ds.attrs
# Nondimensional (no --temperature-unit): CF's unit "1" throughout.
for v in ("field", "x", "y", "time", "step"):
    assert ds[v].attrs["units"] == "1", (v, ds[v].attrs)
assert ds.attrs["temperature_unit"] == "1", ds.attrs

# A run: stacked along time, in step order, at the right times.
run = xr.open_mfdataset("run dir/heatsim-*.h5", engine="netcdf4",
                        combine="nested", concat_dim="time")
assert run["field"].dims == ("time", "y", "x"), run["field"].dims
assert run["field"].shape == (len(files), ny, nx), run["field"].shape
assert list(run["step"].values) == steps, run["step"].values
assert np.array_equal(run["time"].values, np.array(steps, dtype=float) * dt)
assert np.array_equal(run["field"][-1].values, ds["field"].values)

# h5py: every string attribute of heatsim's, anywhere in the file, is
# str (CLASS, NAME, DIMENSION_LIST and REFERENCE_LIST are the dimension
# scale standard's, written by libhdf5_hl in the types it fixes); the
# provenance is there and the command line splits back into the argv.
H5DS = {"CLASS", "NAME", "DIMENSION_LIST", "REFERENCE_LIST"}
def strings_are_str(name, obj):
    for k, v in obj.attrs.items():
        if k in H5DS:
            continue
        if isinstance(v, (bytes, np.bytes_)):
            raise AssertionError("%s:%s is bytes: %r" % (name, k, v))
with h5py.File(last, "r") as h:
    strings_are_str("/", h)
    h.visititems(strings_are_str)
    a = h.attrs
    assert shlex.split(a["command_line"]) == argv, a["command_line"]
    for k in ("device_code", "mpi"):
        assert isinstance(a[k], str) and a[k], (k, a.get(k))
    print("ok:", a["command_line"])
EOF
then pass; else fail "xarray: $(cat "$workdir/py.out")"; fi
cat "$workdir/py.out"
# The build strings are the ones --version prints.
"$HEATSIM" --version >"$workdir/version"
if "$py" - "run dir/heatsim-000006.h5" "$workdir/version" \
  >"$workdir/py.out" 2>&1 <<'EOF'
import sys, h5py
v = open(sys.argv[2]).read().splitlines()
with h5py.File(sys.argv[1], "r") as h:
    a = h.attrs
    assert v[0] == "heatsim " + a["heatsim_version"], (v[0], a["heatsim_version"])
    assert "Device code: " + a["device_code"] in v, (v, a["device_code"])
    assert "MPI: " + a["mpi"] in v, (v, a["mpi"])
EOF
then pass; else fail "provenance: $(cat "$workdir/py.out")"; fi

# A command line that is not UTF-8 (a Latin-1 file name) is stored as it
# is, marked ASCII: h5py gives its bytes back (as str, surrogate-escaped)
# and xarray still opens the file.
latin=$(printf 'caf\351')
expect_status 0 "$HEATSIM" -q -g 5x4 -n 2 --checkpoint-every 2 \
  --output-dir "$latin"
cp "$latin/heatsim-000002.h5" latin.h5 || fail "no checkpoint in $latin"
if "$py" - latin.h5 >"$workdir/py.out" 2>&1 <<'EOF'
import sys, h5py, xarray as xr
with h5py.File(sys.argv[1], "r") as h:
    line = h.attrs["command_line"]
    assert line.endswith(" --output-dir 'caf\udce9'"), repr(line)
    assert h.attrs.get_id("command_line").get_type().get_cset() == 0  # ASCII
xr.open_dataset(sys.argv[1], engine="netcdf4").load()
EOF
then pass; else fail "non-UTF-8 command line: $(cat "$workdir/py.out")"; fi

# An SI run (issue 25): xarray sees the units; the time stays a float
# in seconds (CF's "s" is not a unit xarray turns into timedeltas).
expect_status 0 "$HEATSIM" -q -p disk -g 6x5 -L 0.06x0.05 -a 1e-4 --dt 0.02 \
  -n 2 --temperature-unit degC --checkpoint-every 2 --output-dir si
if "$py" - si/heatsim-000002.h5 >"$workdir/py.out" 2>&1 <<'EOF'
import sys, xarray as xr
ds = xr.open_dataset(sys.argv[1], engine="netcdf4")
want = {"field": "degC", "x": "m", "y": "m", "time": "s", "step": "1"}
for v, u in want.items():
    assert ds[v].attrs["units"] == u, (v, ds[v].attrs)
assert ds.attrs["temperature_unit"] == "degC", ds.attrs
assert ds["time"].dtype.kind == "f" and float(ds["time"]) == 0.04, ds["time"]
EOF
then pass; else fail "SI units: $(cat "$workdir/py.out")"; fi

# ncdump (netcdf-bin), where installed, sees the same dimensions.
if command -v ncdump >/dev/null 2>&1; then
  ncdump -h "run dir/heatsim-000006.h5" >"$workdir/cdl" || fail "ncdump"
  grep -q 'double field(y, x)' "$workdir/cdl" \
    || fail "ncdump: no field(y, x): $(cat "$workdir/cdl")"
  grep -q 'double x(x)' "$workdir/cdl" || fail "ncdump: no x(x)"
  grep -q ':Conventions = "CF-' "$workdir/cdl" || fail "ncdump: Conventions"
fi
finish
