#include <config.h>

#include "kernels.h"

#include <omp.h>

/* One cell.  The order of the additions is fixed so that every strategy
   computes bitwise the same value on the same processor.  */
#pragma omp declare target
static inline double
heat_cell (const double *u, size_t c, size_t stride,
           double rx, double ry, double rc)
{
  return rc * u[c] + rx * u[c + 1] + rx * u[c - 1]
         + ry * u[c + stride] + ry * u[c - stride];
}
#pragma omp end declare target

void
heat_step_host (const struct stencil *s, const double *restrict u,
                double *restrict unew)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double rx = s->rx, ry = s->ry, rc = s->rc;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      unew[j * stride + i] = heat_cell (u, j * stride + i, stride, rx, ry, rc);
}

void
heat_step_target (const struct stencil *s, const double *u, double *unew,
                  int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double rx = s->rx, ry = s->ry, rc = s->rc;
  /* No map clauses: u and unew are found in the device data environment
     set up by the strategy.  The innermost index is the contiguous one, so
     neighbouring GPU threads touch neighbouring addresses.  */
#pragma omp target teams distribute parallel for collapse(2) device(device)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      unew[j * stride + i] = heat_cell (u, j * stride + i, stride, rx, ry, rc);
}

bool
target_runs_on_host (int device)
{
  int on_host = 1;
#pragma omp target device(device) map(from: on_host)
  on_host = omp_is_initial_device ();
  return on_host != 0;
}
