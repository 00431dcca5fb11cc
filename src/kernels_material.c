#include <config.h>

#include "kernels_material.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef HEATSIM_OFFLOAD_GPU
# include <ompx.h>
#endif

#include "material.h"

bool
material_step_build (struct material_step *ms, const struct material *m,
                     double dx, double dy, double dt,
                     const bool insulated[EDGE_COUNT])
{
  *ms = (struct material_step) { .block = NULL };
  if (!heat_operator_build (&ms->op, m, dx, dy, insulated))
    return false;
  const size_t n = material_step_cells (ms);
  if (n > SIZE_MAX / (2 * sizeof (double))
      || (ms->block = field_block (2 * n * sizeof (double))) == NULL)
    {
      heat_operator_free (&ms->op);
      return false;
    }
  memset (ms->block, 0, 2 * n * sizeof (double));
  ms->gain = ms->block;
  ms->rise = ms->gain + n;
  const size_t stride = ms->op.stride;
  for (size_t j = 1; j <= ms->op.ny; ++j)
    for (size_t i = 1; i <= ms->op.nx; ++i)
      {
        const size_t c = j * stride + i;
        ms->gain[c] = dt / ms->op.capacity[c];
        ms->rise[c] = ms->gain[c] * ms->op.source[c];
      }
  return true;
}

void
material_step_free (struct material_step *ms)
{
  heat_operator_free (&ms->op);
  free (ms->block);
  *ms = (struct material_step) { .block = NULL };
}

size_t
material_step_cells (const struct material_step *ms)
{
  return ms->op.stride * (ms->op.ny + 2);
}

/* ---------------------------------------------------------------- host
   Rows to threads.  The order of the additions is fixed, u + gain flow +
   rise, so that every strategy computes bitwise the same value on the
   same processor.  */

void
material_update_host (const struct stencil *s,
                      const struct material_step *ms,
                      const double *restrict u, double *restrict unew,
                      struct rect r)
{
  const size_t stride = s->stride;
  const size_t i0 = r.i0, i1 = r.i1, j0 = r.j0, j1 = r.j1;
  const double *restrict wx = ms->op.wx, *restrict wy = ms->op.wy;
  const double *restrict gain = ms->gain, *restrict rise = ms->rise;
#pragma omp parallel for schedule(static)
  for (size_t j = j0; j <= j1; ++j)
    for (size_t i = i0; i <= i1; ++i)
      {
        const size_t c = j * stride + i;
        unew[c] = u[c] + gain[c] * heat_flow_at (u + c, wx + c, wy + c,
                                                 (ptrdiff_t) stride)
                  + rise[c];
      }
}

void
material_update_frame_host (const struct stencil *s,
                            const struct material_step *ms,
                            const double *restrict u, double *restrict unew)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const size_t n = frame_length (nx, ny);
  const double *restrict wx = ms->op.wx, *restrict wy = ms->op.wy;
  const double *restrict gain = ms->gain, *restrict rise = ms->rise;
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    {
      const size_t c = frame_cell (k, nx, ny, stride);
      unew[c] = u[c] + gain[c] * heat_flow_at (u + c, wx + c, wy + c,
                                               (ptrdiff_t) stride)
                + rise[c];
    }
}

/* ---------------------------------------------------------------- target
   As the constant kernels (kernels.c): no map clauses, scalar and pointer
   arguments only, 32-bit indices within a band of rows, one contiguous
   block of cells per team (dist_schedule(static)), the contiguous index
   innermost.  */

static void
material_collapse (int i0, int i1, int j0, int j1, int stride,
                 const double *restrict u, double *restrict unew,
                 const double *restrict wx, const double *restrict wy,
                 const double *restrict gain, const double *restrict rise,
                 int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i)
      {
        const int c = j * stride + i;
        unew[c] = u[c] + gain[c] * heat_flow_at (u + c, wx + c, wy + c,
                                                 stride)
                  + rise[c];
      }
}

/* Rows to teams, the cells of a row to the threads of a team.  */
static void
material_split (int i0, int i1, int j0, int j1, int stride,
              const double *restrict u, double *restrict unew,
              const double *restrict wx, const double *restrict wy,
              const double *restrict gain, const double *restrict rise,
              int device)
{
#pragma omp target teams distribute dist_schedule(static) device(device)
  for (int j = j0; j <= j1; ++j)
    {
#pragma omp parallel for
      for (int i = i0; i <= i1; ++i)
        {
          const int c = j * stride + i;
          unew[c] = u[c] + gain[c] * heat_flow_at (u + c, wx + c, wy + c,
                                                   stride)
                    + rise[c];
        }
    }
}

#ifdef HEATSIM_OFFLOAD_GPU
/* Threads of a team of the bare form, as kernels.c's.  */
enum { BARE_THREADS = 256 };

/* One team per row, its threads striding along the row.  */
static void
material_bare (int i0, int i1, int j0, int j1, int stride,
             const double *restrict u, double *restrict unew,
             const double *restrict wx, const double *restrict wy,
             const double *restrict gain, const double *restrict rise,
             int device)
{
  const int teams = j1 - j0 + 1;
#pragma omp target teams ompx_bare num_teams(teams) \
  thread_limit(BARE_THREADS) device(device)
  {
    const int j = j0 + ompx_block_id_x ();
    for (int i = i0 + ompx_thread_id_x (); i <= i1; i += BARE_THREADS)
      {
        const int c = j * stride + i;
        unew[c] = u[c] + gain[c] * heat_flow_at (u + c, wx + c, wy + c,
                                                 stride)
                  + rise[c];
      }
  }
}
#endif

void
material_update_target (const struct stencil *s,
                        const struct material_step *ms, const double *u,
                        double *unew, struct rect r, int device)
{
  const size_t stride = s->stride, rows = band_rows (stride);
  for (size_t j = r.j0; j <= r.j1; j += rows)
    {
      const size_t last = r.j1 - j < rows ? r.j1 : j + rows - 1;
      /* The band's row 0, the row before its first.  */
      const size_t base = (j - 1) * stride;
      const int i0 = (int) r.i0, i1 = (int) r.i1, n = (int) (last - j + 1);
      const double *bu = u + base, *bwx = ms->op.wx + base;
      const double *bwy = ms->op.wy + base, *bgain = ms->gain + base;
      const double *brise = ms->rise + base;
      double *bunew = unew + base;
#ifdef HEATSIM_OFFLOAD_GPU
      if (s->form == KERNEL_BARE)
        {
          material_bare (i0, i1, 1, n, (int) stride, bu, bunew, bwx, bwy,
                         bgain, brise, device);
          continue;
        }
#endif
      /* Without GPU device code a bare run is refused before it starts
         (kernel_form_runs); collapse stands in for it here.  */
      if (s->form == KERNEL_SPLIT)
        material_split (i0, i1, 1, n, (int) stride, bu, bunew, bwx, bwy,
                        bgain, brise, device);
      else
        material_collapse (i0, i1, 1, n, (int) stride, bu, bunew, bwx, bwy,
                           bgain, brise, device);
    }
}

void
material_update_frame_target (const struct stencil *s,
                              const struct material_step *ms,
                              const double *u, double *unew, int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const int n = (int) frame_length (nx, ny);
  const double *wx = ms->op.wx, *wy = ms->op.wy;
  const double *gain = ms->gain, *rise = ms->rise;
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 0; k < n; ++k)
    {
      const size_t c = frame_cell ((size_t) k, nx, ny, stride);
      unew[c] = u[c] + gain[c] * heat_flow_at (u + c, wx + c, wy + c,
                                               (ptrdiff_t) stride)
                + rise[c];
    }
}
