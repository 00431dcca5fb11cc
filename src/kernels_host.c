/* The host loops of the explicit steps, constant-coefficient
   (kernels.c) and variable-coefficient (kernels_material.c): rows to
   threads, the cells of a row to the vector lanes.  A variant file (see
   host_isa.h): compiled once per host path, each copy's kernels named
   by HOST_ISA_NAME; no target region here.  */
#include <config.h>

#include "host_isa.h"

#include <math.h>
#include <stddef.h>

#include "heat_cell.h"
#include "kernels.h"
#include "material_cell.h"

void
HOST_ISA_NAME (heat_update) (size_t i0, size_t i1, size_t j0, size_t j1,
                             size_t stride, double rx, double ry, double rc,
                             double rise, const double *restrict u,
                             double *restrict unew)
{
#pragma omp parallel for schedule(static)
  for (size_t j = j0; j <= j1; ++j)
    for (size_t i = i0; i <= i1; ++i)
      unew[j * stride + i] = heat_cell (u + j * stride + i,
                                        (ptrdiff_t) stride, rx, ry, rc, rise);
}

/* n cells of a row, out[0..n-1], from the rows below, mid and above,
   which may lie anywhere (the temporally blocked steps keep a column
   tile of them in rings, kernels_tiled.c); the caller's thread computes
   it.  */
void
HOST_ISA_NAME (heat_row) (size_t n, double rx, double ry, double rc,
                          double rise, const double *restrict below,
                          const double *restrict mid,
                          const double *restrict above, double *restrict out)
{
  for (size_t i = 0; i < n; ++i)
    out[i] = heat_cell_rows (below + i, mid + i, above + i, rx, ry, rc, rise);
}

/* The update and, fused into the same pass over memory, the largest
   change of a cell: a maximum, so the same whatever the order in which
   the lanes and threads meet the cells.  */
double
HOST_ISA_NAME (heat_update_residual) (size_t i0, size_t i1, size_t j0,
                                      size_t j1, size_t stride, double rx,
                                      double ry, double rc, double rise,
                                      const double *restrict u,
                                      double *restrict unew)
{
  double change = 0.0;
#pragma omp parallel for schedule(static) reduction(max: change)
  for (size_t j = j0; j <= j1; ++j)
    for (size_t i = i0; i <= i1; ++i)
      {
        const size_t c = j * stride + i;
        unew[c] = heat_cell (u + c, (ptrdiff_t) stride, rx, ry, rc, rise);
        change = fmax (change, fabs (unew[c] - u[c]));
      }
  return change;
}

void
HOST_ISA_NAME (heat_frame) (size_t nx, size_t ny, size_t stride, double rx,
                            double ry, double rc, double rise,
                            const double *restrict u, double *restrict unew)
{
  const size_t n = frame_length (nx, ny);
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    {
      const size_t c = frame_cell (k, nx, ny, stride);
      unew[c] = heat_cell (u + c, (ptrdiff_t) stride, rx, ry, rc, rise);
    }
}

double
HOST_ISA_NAME (heat_frame_residual) (size_t nx, size_t ny, size_t stride,
                                     double rx, double ry, double rc,
                                     double rise, const double *restrict u,
                                     double *restrict unew)
{
  const size_t n = frame_length (nx, ny);
  double change = 0.0;
#pragma omp parallel for schedule(static) reduction(max: change)
  for (size_t k = 0; k < n; ++k)
    {
      const size_t c = frame_cell (k, nx, ny, stride);
      unew[c] = heat_cell (u + c, (ptrdiff_t) stride, rx, ry, rc, rise);
      change = fmax (change, fabs (unew[c] - u[c]));
    }
  return change;
}

void
HOST_ISA_NAME (material_update) (size_t i0, size_t i1, size_t j0, size_t j1,
                                 size_t stride, const double *restrict wx,
                                 const double *restrict wy,
                                 const double *restrict gain,
                                 const double *restrict rise, double factor,
                                 const double *restrict u,
                                 double *restrict unew)
{
#pragma omp parallel for schedule(static)
  for (size_t j = j0; j <= j1; ++j)
    for (size_t i = i0; i <= i1; ++i)
      {
        const size_t c = j * stride + i;
        unew[c] = material_cell (u + c, wx + c, wy + c, (ptrdiff_t) stride,
                                 gain[c], rise[c], factor);
      }
}

void
HOST_ISA_NAME (material_frame) (size_t nx, size_t ny, size_t stride,
                                const double *restrict wx,
                                const double *restrict wy,
                                const double *restrict gain,
                                const double *restrict rise, double factor,
                                const double *restrict u,
                                double *restrict unew)
{
  const size_t n = frame_length (nx, ny);
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    {
      const size_t c = frame_cell (k, nx, ny, stride);
      unew[c] = material_cell (u + c, wx + c, wy + c, (ptrdiff_t) stride,
                               gain[c], rise[c], factor);
    }
}

/* n nodes of a row, out[0..n-1], from the rows below, mid and above,
   which may lie anywhere (as for heat_row); wx, wy, gain and rise point
   at the first node's place in the whole-field arrays, wy_below at the
   node below's.  The caller's thread computes it.  */
void
HOST_ISA_NAME (material_row) (size_t n, const double *restrict wx,
                              const double *restrict wy,
                              const double *restrict wy_below,
                              const double *restrict gain,
                              const double *restrict rise, double factor,
                              const double *restrict below,
                              const double *restrict mid,
                              const double *restrict above,
                              double *restrict out)
{
  for (size_t i = 0; i < n; ++i)
    out[i] = material_cell_rows (below + i, mid + i, above + i, wx + i,
                                 wy + i, wy_below + i, gain[i], rise[i],
                                 factor);
}
