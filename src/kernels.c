#include <config.h>

#include "kernels.h"

#include <math.h>
#include <omp.h>
#include <string.h>

static const char *const kernel_form_names[] = {
  [KERNEL_COLLAPSE] = "collapse", [KERNEL_LOOP] = "loop",
  [KERNEL_SPLIT] = "split",
};

const char *
kernel_form_name (enum kernel_form form)
{
  return kernel_form_names[form];
}

bool
kernel_form_find (const char *name, enum kernel_form *form)
{
  for (size_t f = 0;
       f < sizeof kernel_form_names / sizeof *kernel_form_names; ++f)
    if (strcmp (name, kernel_form_names[f]) == 0)
      {
        *form = (enum kernel_form) f;
        return true;
      }
  return false;
}

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

/* Directives built from macro arguments: _Pragma takes one string literal,
   so the clauses are stringized with the rest of the directive.  */
#define PRAGMA(...) _Pragma (#__VA_ARGS__)

/* The interior loop nest of a target kernel in the chosen form, with
   CLAUSES (a reduction, or nothing) on the worksharing directives and BODY
   run for each interior cell c.  No map clauses: the fields are found in
   the device data environment set up by the strategy.  The innermost index
   is the contiguous one, so neighbouring GPU threads touch neighbouring
   addresses.  */
#define FOR_INTERIOR_TARGET(form, device, CLAUSES, BODY)                      \
  switch (form)                                                             \
    {                                                                       \
    case KERNEL_COLLAPSE:                                                   \
      PRAGMA (omp target teams distribute parallel for collapse(2)          \
              device(device) CLAUSES)                                       \
      for (size_t j = 1; j <= ny; ++j)                                      \
        for (size_t i = 1; i <= nx; ++i)                                    \
          {                                                                 \
            const size_t c = j * stride + i;                                \
            BODY;                                                           \
          }                                                                 \
      break;                                                                \
    case KERNEL_LOOP:                                                       \
      PRAGMA (omp target teams loop collapse(2) device(device) CLAUSES)     \
      for (size_t j = 1; j <= ny; ++j)                                      \
        for (size_t i = 1; i <= nx; ++i)                                    \
          {                                                                 \
            const size_t c = j * stride + i;                                \
            BODY;                                                           \
          }                                                                 \
      break;                                                                \
    case KERNEL_SPLIT:                                                      \
      /* Rows to teams, the columns of a row to the threads of a team.  */  \
      PRAGMA (omp target teams distribute device(device) CLAUSES)           \
      for (size_t j = 1; j <= ny; ++j)                                      \
        {                                                                   \
          PRAGMA (omp parallel for CLAUSES)                                 \
          for (size_t i = 1; i <= nx; ++i)                                  \
            {                                                               \
              const size_t c = j * stride + i;                              \
              BODY;                                                         \
            }                                                               \
        }                                                                   \
      break;                                                                \
    }

void
heat_step_target (const struct stencil *s, double *u, double *unew,
                  int device)
{
  if (s->halo.refresh)
    halo_refresh_target (s, u, device);
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double rx = s->rx, ry = s->ry, rc = s->rc;
  FOR_INTERIOR_TARGET (s->form, device, ,
                       unew[c] = heat_cell (u, c, stride, rx, ry, rc));
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
  FOR_INTERIOR_TARGET (s->form, device, reduction(max: change),
                       change = fmax (change, update_cell (u, unew, c, stride,
                                                           rx, ry, rc)));
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
