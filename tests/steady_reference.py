"""An independent reference for heatsim's steady state: Laplace's equation
on the vertex-centred grid (nx x ny interior nodes, dx = Lx/(nx+1),
dy = Ly/(ny+1)) with constant Dirichlet edges, by the 5-point matrix and a
direct sparse solve (scipy), written from the equations, not from heatsim.
Usage: steady_reference.py CHECKPOINT LX LY LEFT RIGHT BOTTOM TOP
Prints the largest difference relative to the largest |value|."""
import sys

import h5py
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

path = sys.argv[1]
lx, ly, left, right, bottom, top = map(float, sys.argv[2:8])
with h5py.File(path, "r") as f:
    u = np.array(f["field"])          # [ny][nx], row j is y = (j+1) dy
ny, nx = u.shape
dx, dy = lx / (nx + 1), ly / (ny + 1)
cx, cy = 1.0 / dx**2, 1.0 / dy**2

# -L_h u = 0: 2(cx+cy) u_ij - cx (u_i-1,j + u_i+1,j) - cy (u_i,j-1 + u_i,j+1),
# known boundary values moved to the right-hand side.
ix = sp.identity(nx)
iy = sp.identity(ny)
tx = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(nx, nx))
ty = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(ny, ny))
a = (cx * sp.kron(iy, tx) + cy * sp.kron(ty, ix)).tocsc()
b = np.zeros((ny, nx))
b[:, 0] += cx * left
b[:, -1] += cx * right
b[0, :] += cy * bottom
b[-1, :] += cy * top
ref = spla.spsolve(a, b.ravel()).reshape(ny, nx)
print(np.max(np.abs(u - ref)) / np.max(np.abs(ref)))
