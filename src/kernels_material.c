#include <config.h>

#include "kernels_material.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef HEATSIM_OFFLOAD_GPU
# include <ompx.h>
#endif

#include "host_isa.h"
#include "material.h"
#include "material_cell.h"

/* fraction[0 .. n + 1] of an axis of n nodes: 1/2 at an edge node.  */
static void
axis_fractions (double *fraction, size_t n, bool low_edge_node,
                bool high_edge_node)
{
  for (size_t k = 0; k <= n + 1; ++k)
    fraction[k] = 1.0;
  if (low_edge_node)
    fraction[1] *= 0.5;
  if (high_edge_node)
    fraction[n] *= 0.5;
}

bool
material_step_build (struct material_step *ms, const struct material *m,
                     double dx, double dy, double dt,
                     const bool edge_node[EDGE_COUNT])
{
  *ms = (struct material_step) { .block = NULL };
  if (!heat_operator_build (&ms->op, m, dx, dy, edge_node))
    return false;
  const size_t n = material_step_cells (ms);
  const size_t lines = material_step_columns (ms) + material_step_rows (ms);
  if (n > SIZE_MAX / (2 * sizeof (double)) - lines
      || (ms->block = field_block ((2 * n + lines) * sizeof (double)))
         == NULL)
    {
      heat_operator_free (&ms->op);
      return false;
    }
  memset (ms->block, 0, (2 * n + lines) * sizeof (double));
  ms->gain = ms->block;
  ms->rise = ms->gain + n;
  ms->fraction_x = ms->rise + n;
  ms->fraction_y = ms->fraction_x + material_step_columns (ms);
  ms->dx = dx;
  ms->dy = dy;
  ms->factor = 1.0;
  axis_fractions (ms->fraction_x, ms->op.nx, edge_node[EDGE_LEFT],
                  edge_node[EDGE_RIGHT]);
  axis_fractions (ms->fraction_y, ms->op.ny, edge_node[EDGE_BOTTOM],
                  edge_node[EDGE_TOP]);
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

size_t
material_step_columns (const struct material_step *ms)
{
  return ms->op.stride;
}

size_t
material_step_rows (const struct material_step *ms)
{
  return ms->op.ny + 2;
}

bool
material_step_terms (const struct material_step *ms)
{
  bool heated = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    heated = heated || ms->heated[e];
  return heated || ms->cooled;
}

/* ---------------------------------------------------------------- host
   kernels_host.c, on the path host_isa chose.  */

void
material_update_host (const struct stencil *s,
                      const struct material_step *ms,
                      const double *restrict u, double *restrict unew,
                      struct rect r)
{
  material_update_fn *update
    = host_kernels (HOST_KERNEL_MATERIAL)->material_update;
  update (r.i0, r.i1, r.j0, r.j1, s->stride, ms->op.wx, ms->op.wy, ms->gain,
          ms->rise, ms->factor, u, unew);
}

void
material_update_frame_host (const struct stencil *s,
                            const struct material_step *ms,
                            const double *restrict u, double *restrict unew)
{
  material_frame_fn *update
    = host_kernels (HOST_KERNEL_MATERIAL)->material_frame;
  update (s->nx, s->ny, s->stride, ms->op.wx, ms->op.wy, ms->gain, ms->rise,
          ms->factor, u, unew);
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
                   double factor, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i)
      {
        const int c = j * stride + i;
        unew[c] = material_cell (u + c, wx + c, wy + c, stride, gain[c],
                                 rise[c], factor);
      }
}

/* Rows to teams, the cells of a row to the threads of a team.  */
static void
material_split (int i0, int i1, int j0, int j1, int stride,
                const double *restrict u, double *restrict unew,
                const double *restrict wx, const double *restrict wy,
                const double *restrict gain, const double *restrict rise,
                double factor, int device)
{
#pragma omp target teams distribute dist_schedule(static) device(device)
  for (int j = j0; j <= j1; ++j)
    {
#pragma omp parallel for
      for (int i = i0; i <= i1; ++i)
        {
          const int c = j * stride + i;
          unew[c] = material_cell (u + c, wx + c, wy + c, stride, gain[c],
                                   rise[c], factor);
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
               double factor, int device)
{
  const int teams = j1 - j0 + 1;
#pragma omp target teams ompx_bare num_teams(teams) \
  thread_limit(BARE_THREADS) device(device)
  {
    const int j = j0 + ompx_block_id_x ();
    for (int i = i0 + ompx_thread_id_x (); i <= i1; i += BARE_THREADS)
      {
        const int c = j * stride + i;
        unew[c] = material_cell (u + c, wx + c, wy + c, stride, gain[c],
                                 rise[c], factor);
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
  const double factor = ms->factor;
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
                         bgain, brise, factor, device);
          continue;
        }
#endif
      /* Without GPU device code a bare run is refused before it starts
         (kernel_form_runs); collapse stands in for it here.  */
      if (s->form == KERNEL_SPLIT)
        material_split (i0, i1, 1, n, (int) stride, bu, bunew, bwx, bwy,
                        bgain, brise, factor, device);
      else
        material_collapse (i0, i1, 1, n, (int) stride, bu, bunew, bwx, bwy,
                           bgain, brise, factor, device);
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
  const double factor = ms->factor;
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 0; k < n; ++k)
    {
      const size_t c = frame_cell ((size_t) k, nx, ny, stride);
      unew[c] = material_cell (u + c, wx + c, wy + c, (ptrdiff_t) stride,
                               gain[c], rise[c], factor);
    }
}

/* ---------------------------------------------------------------- edges
   The boundary heat of flux and convection edges, added to the edge
   nodes after the update: one kernel over the frame (each node once, so
   that a corner adds both of its edges' heat in one fixed order: left,
   right, bottom, top).  Per edge e the scalars q[e] = Q, h[e] = H,
   tinf[e] = TINF; bit e of heated.  */

#pragma omp declare target
static inline void
edge_cell (const double *u, double *unew, const double *gain,
           const double *fx, const double *fy, size_t c, size_t nx,
           size_t ny, size_t stride, unsigned heated, const double q[4],
           const double h[4], const double tinf[4], double dx, double dy)
{
  const size_t j = c / stride, i = c - j * stride;
  if (material_heated_node (i, j, nx, ny, heated))
    unew[c] += material_edge_heat (i, j, nx, ny, heated, fx, fy, q, h, tinf,
                                   gain[c], u[c], dx, dy);
}
#pragma omp end declare target

/* The scalars of the edge kernels.  */
struct edge_scalars {
  unsigned heated;
  double q[EDGE_COUNT], h[EDGE_COUNT], tinf[EDGE_COUNT];
};

static struct edge_scalars
edge_scalars (const struct stencil *s, const struct material_step *ms)
{
  struct edge_scalars e = { .heated = 0 };
  for (int k = 0; k < EDGE_COUNT; ++k)
    {
      e.heated |= ms->heated[k] ? 1u << k : 0u;
      e.q[k] = s->halo.in.flux[k];
      e.h[k] = s->halo.in.h[k];
      e.tinf[k] = s->halo.in.ambient[k];
    }
  return e;
}

static void
edges_host (const struct stencil *s, const struct material_step *ms,
            const double *restrict u, double *restrict unew)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const size_t n = frame_length (nx, ny);
  const struct edge_scalars e = edge_scalars (s, ms);
  const double *gain = ms->gain, *fx = ms->fraction_x, *fy = ms->fraction_y;
  const double dx = ms->dx, dy = ms->dy;
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    edge_cell (u, unew, gain, fx, fy, frame_cell (k, nx, ny, stride), nx, ny,
               stride, e.heated, e.q, e.h, e.tinf, dx, dy);
}

static void
edges_target (const struct stencil *s, const struct material_step *ms,
              const double *u, double *unew, int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const int n = (int) frame_length (nx, ny);
  const struct edge_scalars e = edge_scalars (s, ms);
  const unsigned heated = e.heated;
  const double *gain = ms->gain, *fx = ms->fraction_x, *fy = ms->fraction_y;
  const double dx = ms->dx, dy = ms->dy;
  /* Scalars, not arrays: an array named in a target region would be
     mapped at every launch.  */
  const double q0 = e.q[0], q1 = e.q[1], q2 = e.q[2], q3 = e.q[3];
  const double h0 = e.h[0], h1 = e.h[1], h2 = e.h[2], h3 = e.h[3];
  const double t0 = e.tinf[0], t1 = e.tinf[1], t2 = e.tinf[2];
  const double t3 = e.tinf[3];
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 0; k < n; ++k)
    {
      const double q[4] = { q0, q1, q2, q3 }, h[4] = { h0, h1, h2, h3 };
      const double tinf[4] = { t0, t1, t2, t3 };
      edge_cell (u, unew, gain, fx, fy, frame_cell ((size_t) k, nx, ny,
                                                    stride),
                 nx, ny, stride, heated, q, h, tinf, dx, dy);
    }
}

/* ---------------------------------------------------------------- face
   Face cooling, unew += gain fraction s (TINF - u) over the interior: a
   pass of its own, so that the update of runs without it stays what it
   was, in speed and bitwise.  */

static void
cooling_host (const struct stencil *s, const struct material_step *ms,
              const double *restrict u, double *restrict unew)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const double *restrict gain = ms->gain;
  const double *restrict fx = ms->fraction_x, *restrict fy = ms->fraction_y;
  const double sink = ms->sink, ambient = ms->ambient;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t c = j * stride + i;
        unew[c] += material_cooling (gain[c], fx[i], fy[j], sink, ambient,
                                     u[c]);
      }
}

/* Rows 1..rows of the band whose row 0 is at u (unew, gain, fy).  */
static void
cooling_band (int nx, int rows, int stride, const double *restrict u,
              double *restrict unew, const double *restrict gain,
              const double *restrict fx, const double *restrict fy,
              double sink, double ambient, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= rows; ++j)
    for (int i = 1; i <= nx; ++i)
      {
        const int c = j * stride + i;
        unew[c] += material_cooling (gain[c], fx[i], fy[j], sink, ambient,
                                     u[c]);
      }
}

static void
cooling_target (const struct stencil *s, const struct material_step *ms,
                const double *u, double *unew, int device)
{
  const size_t stride = s->stride, rows = band_rows (stride);
  for (size_t j = 1; j <= s->ny; j += rows)
    {
      const size_t n = s->ny - j + 1 < rows ? s->ny - j + 1 : rows;
      const size_t base = (j - 1) * stride;
      cooling_band ((int) s->nx, (int) n, (int) stride, u + base,
                    unew + base, ms->gain + base, ms->fraction_x,
                    ms->fraction_y + j - 1, ms->sink, ms->ambient, device);
    }
}

void
material_terms_host (const struct stencil *s, const struct material_step *ms,
                     const double *restrict u, double *restrict unew)
{
  if (ms->cooled)
    cooling_host (s, ms, u, unew);
  edges_host (s, ms, u, unew);
}

void
material_terms_target (const struct stencil *s,
                       const struct material_step *ms, const double *u,
                       double *unew, int device)
{
  if (ms->cooled)
    cooling_target (s, ms, u, unew, device);
  edges_target (s, ms, u, unew, device);
}
