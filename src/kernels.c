#include <config.h>

#include "kernels.h"

#include <math.h>
#include <omp.h>

#pragma omp declare target
/* One cell.  The order of the additions is fixed so that every strategy
   computes bitwise the same value on the same processor.  */
static inline double
heat_cell (const double *u, size_t c, size_t stride,
           double rx, double ry, double rc)
{
  return rc * u[c] + rx * u[c + 1] + rx * u[c - 1]
         + ry * u[c + stride] + ry * u[c - stride];
}

/* Update one cell and return how much it changed.  */
static inline double
update_cell (const double *u, double *unew, size_t c, size_t stride,
             double rx, double ry, double rc)
{
  unew[c] = heat_cell (u, c, stride, rx, ry, rc);
  return fabs (unew[c] - u[c]);
}

/* Halo cells number k of the side columns (k <= ny) and of the bottom and
   top rows (k <= nx).  Corners are never read by the 5-point stencil.  */
static inline void
halo_cells (double *u, size_t k, size_t nx, size_t ny, size_t stride,
            struct halo h)
{
  if (k <= ny)
    {
      u[k * stride] = u[k * stride + h.west];
      u[k * stride + nx + 1] = u[k * stride + h.east];
    }
  if (k <= nx)
    {
      u[k] = u[h.south * stride + k];
      u[(ny + 1) * stride + k] = u[h.north * stride + k];
    }
}
#pragma omp end declare target

static size_t
halo_length (const struct stencil *s)
{
  return s->nx > s->ny ? s->nx : s->ny;
}

/* The loops below come in pairs, host and target, the same but for the
   directive: the host strategy must contain no target construct at all,
   since its point is to show what the CPU path alone does.  */

static void
halo_refresh_host (const struct stencil *s, double *u)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride, n = halo_length (s);
  const struct halo h = s->halo;
#pragma omp parallel for schedule(static)
  for (size_t k = 1; k <= n; ++k)
    halo_cells (u, k, nx, ny, stride, h);
}

static void
halo_refresh_target (const struct stencil *s, double *u, int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride, n = halo_length (s);
  const struct halo h = s->halo;
#pragma omp target teams distribute parallel for device(device)
  for (size_t k = 1; k <= n; ++k)
    halo_cells (u, k, nx, ny, stride, h);
}

void
heat_step_host (const struct stencil *s, double *restrict u,
                double *restrict unew)
{
  if (s->halo.refresh)
    halo_refresh_host (s, u);
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double rx = s->rx, ry = s->ry, rc = s->rc;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      unew[j * stride + i] = heat_cell (u, j * stride + i, stride, rx, ry, rc);
}

double
heat_step_residual_host (const struct stencil *s, double *restrict u,
                         double *restrict unew)
{
  if (s->halo.refresh)
    halo_refresh_host (s, u);
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double rx = s->rx, ry = s->ry, rc = s->rc;
  double change = 0.0;
#pragma omp parallel for schedule(static) reduction(max: change)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      change = fmax (change, update_cell (u, unew, j * stride + i, stride,
                                          rx, ry, rc));
  return change;
}

void
heat_step_target (const struct stencil *s, double *u, double *unew,
                  int device)
{
  if (s->halo.refresh)
    halo_refresh_target (s, u, device);
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

double
heat_step_residual_target (const struct stencil *s, double *u, double *unew,
                           int device)
{
  if (s->halo.refresh)
    halo_refresh_target (s, u, device);
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double rx = s->rx, ry = s->ry, rc = s->rc;
  double change = 0.0;
  /* Update and max-reduction in one kernel: one pass over memory, and only
     the scalar result crosses back to the host.  */
#pragma omp target teams distribute parallel for collapse(2) \
  device(device) reduction(max: change)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      change = fmax (change, update_cell (u, unew, j * stride + i, stride,
                                          rx, ry, rc));
  return change;
}

void
copy_host (const double *restrict a, double *restrict b, size_t n)
{
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    b[k] = a[k];
}

void
copy_target (const double *a, double *b, size_t n, int device)
{
#pragma omp target teams distribute parallel for device(device)
  for (size_t k = 0; k < n; ++k)
    b[k] = a[k];
}

size_t
count_nonfinite_host (const struct stencil *s, const double *u)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+: bad)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      bad += !isfinite (u[j * stride + i]);
  return bad;
}

size_t
count_nonfinite_target (const struct stencil *s, const double *u, int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  size_t bad = 0;
#pragma omp target teams distribute parallel for collapse(2) \
  device(device) reduction(+: bad)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      bad += !isfinite (u[j * stride + i]);
  return bad;
}

bool
device_can_allocate (size_t bytes, int device)
{
#ifdef HEATSIM_OFFLOAD
  void *probe = omp_target_alloc (bytes, device);
  if (probe == NULL)
    return false;
  omp_target_free (probe, device);
#else
  /* No device code: libomptarget is not linked, and target regions always
     run on the host, whose memory check_memory has already counted.  */
  (void) bytes;
  (void) device;
#endif
  return true;
}

bool
target_runs_on_host (int device)
{
  int on_host = 1;
#pragma omp target device(device) map(from: on_host)
  on_host = omp_is_initial_device ();
  return on_host != 0;
}
