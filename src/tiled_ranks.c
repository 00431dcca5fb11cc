#include <config.h>

#include "tiled_ranks.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"
#include "material_cell.h"

size_t
tiled_ranks_limit (const struct domain *d)
{
  const size_t n[2] = { d->nx, d->ny };
  size_t limit = SIZE_MAX;
  for (int axis = 0; axis < 2; ++axis)
    if (d->dims[axis] > 1)
      {
        /* The smallest block of the split (domain_split).  */
        const size_t narrowest = n[axis] / (size_t) d->dims[axis];
        if (narrowest - 1 < limit)
          limit = narrowest - 1;
      }
  return limit;
}

/* The stencil of s's part widened by depth lines across each edge that
   trades, which becomes a fixed halo; the other edges copy their lines
   shifted by the widening.  (*x0, *y0): the part's cell (0, 0) in it.  */
static struct stencil
widened (const struct stencil *s, unsigned depth, size_t *x0, size_t *y0)
{
  struct stencil w = *s;
  const bool *trades = s->halo.exchange;
  *x0 = trades[EDGE_LEFT] ? depth : 0;
  *y0 = trades[EDGE_BOTTOM] ? depth : 0;
  w.nx += *x0 + (trades[EDGE_RIGHT] ? depth : 0);
  w.ny += *y0 + (trades[EDGE_TOP] ? depth : 0);
  w.stride = w.nx + 2;
  w.halo.refresh = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      if (trades[e])
        {
          w.halo.exchange[e] = w.halo.copy[e] = w.halo.heat[e] = false;
          continue;
        }
      if (w.halo.copy[e])
        w.halo.source[e] += e == EDGE_LEFT || e == EDGE_RIGHT ? *x0 : *y0;
      w.halo.refresh = w.halo.refresh || w.halo.copy[e];
    }
  return w;
}

const char *
tiled_ranks_refusal (const struct stencil *s, unsigned steps)
{
  if (steps < 2)
    return "an MPI rank's part is less than 3 cells across a split axis "
           "(a pass of T steps needs T + 1)";
  size_t x0, y0;
  const struct stencil w = widened (s, steps, &x0, &y0);
  return tiled_refusal (&w);
}

/* Zero rows rows of row doubles from a, row by row by the threads,
   which the compiler cannot turn into a calloc that leaves the pages to
   be found by the first pass (a tenth of a second at 4096 x 2048).  */
static void
zero_rows (double *a, size_t rows, size_t row)
{
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < rows; ++j)
    memset (&a[j * row], 0, row * sizeof *a);
}

/* The part's array a (rows stride apart, halo ring included) into the
   wide array wide, where the part lies at (t->x0, t->y0).  */
static void
place (const struct tiled_ranks *t, const struct stencil *s, const double *a,
       size_t stride, double *wide)
{
  const size_t ws = t->wide.stride;
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j <= s->ny + 1; ++j)
    memcpy (&wide[(j + t->y0) * ws + t->x0], &a[j * stride],
            (s->nx + 2) * sizeof *a);
}

/* The neighbours' strips into the wide array wide, x first so that y's
   whole rows carry the corners.  */
static void
trade (const struct tiled_ranks *t, const struct domain *d, double *wide)
{
  for (int axis = 0; axis < 2; ++axis)
    domain_trade_strips (d, wide, t->wide.nx, t->wide.ny, t->wide.stride,
                         t->depth + 1, axis);
}

/* share[k] of the wide part's axis of n + 2 lines: the part's shares
   part[0 .. part_n + 1] from line origin, 1 on the neighbours' lines
   (none of which is an edge node: they end inside the neighbours'
   parts, tiled_ranks_limit).  */
static void
wide_shares (double *share, size_t n, const double *part, size_t part_n,
             size_t origin)
{
  for (size_t k = 0; k < n + 2; ++k)
    share[k] = k >= origin && k - origin <= part_n + 1 ? part[k - origin]
               : 1.0;
}

/* The wide part's step of the material of ms (the part's, whose stencil
   is s): the arrays the kernels read, zeroed for trade_material, and
   the shares of a box; its scalars ms's.  False when memory is
   short.  */
static bool
material_alloc (struct tiled_ranks *t, const struct stencil *s,
                const struct material_step *ms)
{
  const struct stencil *w = &t->wide;
  const size_t rows = w->ny + 2, n = rows * w->stride;
  double *block = field_block ((4 * n + w->stride + rows) * sizeof *block);
  if (block == NULL)
    return false;
  struct material_step *m = &t->material;
  *m = *ms;
  m->op = (struct heat_operator) {
    .nx = w->nx, .ny = w->ny, .stride = w->stride,
    .wx = block, .wy = block + n,
  };
  m->gain = block + 2 * n;
  m->rise = block + 3 * n;
  m->fraction_x = block + 4 * n;
  m->fraction_y = m->fraction_x + w->stride;
  m->block = block;
  zero_rows (block, 4 * rows, w->stride);
  wide_shares (m->fraction_x, w->nx, ms->fraction_x, s->nx, t->x0);
  wide_shares (m->fraction_y, w->ny, ms->fraction_y, s->ny, t->y0);
  return true;
}

/* The arrays the kernels read of the part's step ms into the wide
   part's, with the neighbours' strips: on every cell of the wide part
   the coefficients of the plain step of the rank that owns it, faces
   across its edges and on the whole grid's edges included.  */
static void
trade_material (struct tiled_ranks *t, const struct domain *d,
                const struct stencil *s, const struct material_step *ms)
{
  const double *part[] = { ms->op.wx, ms->op.wy, ms->gain, ms->rise };
  double *wide[] = { t->material.op.wx, t->material.op.wy,
                     t->material.gain, t->material.rise };
  for (size_t a = 0; a < sizeof part / sizeof *part; ++a)
    {
      place (t, s, part[a], ms->op.stride, wide[a]);
      trade (t, d, wide[a]);
    }
}

enum heatsim_status
tiled_ranks_alloc (struct tiled_ranks *t, const struct domain *d,
                   const struct stencil *s, const struct material_step *ms,
                   unsigned steps)
{
  *t = (struct tiled_ranks) { .depth = steps };
  t->wide = widened (s, steps, &t->x0, &t->y0);
  const size_t rows = t->wide.ny + 2, row = t->wide.stride;
  t->before = malloc (rows * row * sizeof *t->before);
  t->after = malloc (rows * row * sizeof *t->after);
  enum heatsim_status status = HEATSIM_OK;
  if (t->before == NULL || t->after == NULL
      || (ms != NULL && !material_alloc (t, s, ms)))
    {
      heatsim_error ("--tile-steps: cannot allocate a %zu x %zu part "
                     "widened for %u fused steps", t->wide.nx, t->wide.ny,
                     steps);
      status = HEATSIM_NO_MEMORY;
    }
  else
    {
      /* Zeroed: lines sent before a neighbour's strip arrives in them
         are defined.  */
      zero_rows (t->before, rows, row);
      zero_rows (t->after, rows, row);
      status = tiled_alloc (&t->tiles, &t->wide, steps);
    }
  /* The material's trade is collective: all ranks, or none.  */
  status = (enum heatsim_status) domain_agree ((int) status);
  if (status != HEATSIM_OK)
    {
      tiled_ranks_free (t);
      return status;
    }
  if (ms != NULL)
    trade_material (t, d, s, ms);
  return HEATSIM_OK;
}

void
tiled_ranks_free (struct tiled_ranks *t)
{
  tiled_free (&t->tiles);
  material_step_free (&t->material);
  free (t->before);
  free (t->after);
  t->before = t->after = NULL;
}

/* The wide part before the pass: the part's cells and halo, then the
   neighbours' strips, x first so that y's whole rows carry the corners;
   the copying edges' halos filled as before a plain step.  after gets
   the same ring, whose fixed lines the lines of edge_lines read.  */
static void
widen (struct tiled_ranks *t, const struct domain *d,
       const struct stencil *s, const double *u, double *exchange_seconds)
{
  const struct stencil *w = &t->wide;
  const size_t wide = w->stride;
  double *before = t->before, *after = t->after;
  place (t, s, u, s->stride, before);
  const double t0 = omp_get_wtime ();
  trade (t, d, before);
  *exchange_seconds += omp_get_wtime () - t0;
  if (w->halo.refresh)
    halo_refresh_host (w, before);
  const size_t top = (w->ny + 1) * wide;
  memcpy (after, before, wide * sizeof *after);
  memcpy (after + top, before + top, wide * sizeof *after);
  for (size_t j = 1; j <= w->ny; ++j)
    {
      after[j * wide] = before[j * wide];
      after[j * wide + w->nx + 1] = before[j * wide + w->nx + 1];
    }
}

/* The halo line of edge e of the part, from the same cells of the wide
   part wide, which holds the part at (t->x0, t->y0).  */
static void
halo_line (const struct tiled_ranks *t, const struct stencil *s,
           enum edge e, const double *wide, double *part)
{
  const size_t stride = s->stride, ws = t->wide.stride;
  const size_t x0 = t->x0, y0 = t->y0;
  if (e == EDGE_LEFT || e == EDGE_RIGHT)
    {
      const size_t i = e == EDGE_LEFT ? 0 : s->nx + 1;
      for (size_t j = 1; j <= s->ny; ++j)
        part[j * stride + i] = wide[(j + y0) * ws + i + x0];
    }
  else
    {
      const size_t j = e == EDGE_BOTTOM ? 0 : s->ny + 1;
      memcpy (&part[j * stride + 1], &wide[(j + y0) * ws + x0 + 1],
              s->nx * sizeof *part);
    }
}

/* The cells that line the part's halo of the trading edge e after
   level 1 .. steps - 1 need: those within steps - 2 lines of it, all
   along it.  Cells further off hold other values (a level of the pass,
   or none): their error reaches one line closer per level.  The part is
   at least steps + 1 lines across (tiled_ranks_limit), so these lie in
   the wide part.  */
static struct rect
reach (const struct tiled_ranks *t, const struct stencil *s, enum edge e,
       unsigned steps)
{
  const struct stencil *w = &t->wide;
  const size_t r = steps - 2;
  switch (e)
    {
    case EDGE_LEFT:
      return (struct rect) { t->x0 - r, t->x0 + r, 1, w->ny };
    case EDGE_RIGHT:
      return (struct rect) { t->x0 + s->nx + 1 - r, t->x0 + s->nx + 1 + r,
                             1, w->ny };
    case EDGE_BOTTOM:
      return (struct rect) { 1, w->nx, t->y0 - r, t->y0 + r };
    default:
      return (struct rect) { 1, w->nx, t->y0 + s->ny + 1 - r,
                             t->y0 + s->ny + 1 + r };
    }
}

/* What material_terms_host adds to the cells of r of the wide part
   after their update, u -> unew, in its order: face cooling, then the
   heat of the flux and convection edges.  */
static void
material_terms_rect (const struct stencil *w, const struct material_step *ms,
                     const double *restrict u, double *restrict unew,
                     struct rect r)
{
  const size_t nx = w->nx, ny = w->ny, stride = w->stride;
  const struct edge_heat *in = &w->halo.in;
  const double *fx = ms->fraction_x, *fy = ms->fraction_y;
  unsigned heated = 0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    heated |= ms->heated[e] ? 1u << e : 0u;
  for (size_t j = r.j0; j <= r.j1; ++j)
    for (size_t i = r.i0; i <= r.i1; ++i)
      {
        const size_t c = j * stride + i;
        if (ms->cooled)
          unew[c] += material_cooling (ms->gain[c], fx[i], fy[j], ms->sink,
                                       ms->ambient, u[c]);
        if (material_heated_node (i, j, nx, ny, heated))
          unew[c] += material_edge_heat (i, j, nx, ny, heated, fx, fy,
                                         in->flux, in->h, in->ambient,
                                         ms->gain[c], u[c], ms->dx, ms->dy);
      }
}

/* A plain step of the cells of r of the wide part, u -> unew: of the
   material's step ms, or of the constant stencil (ms NULL).  */
static void
update_cells (const struct tiled_ranks *t, const struct material_step *ms,
              double *u, double *unew, struct rect r)
{
  if (ms == NULL)
    {
      heat_update_host (&t->wide, u, unew, r, false);
      return;
    }
  material_update_host (&t->wide, ms, u, unew, r);
  material_terms_rect (&t->wide, ms, u, unew, r);
}

/* The trading edges' halo lines that steps plain steps (of ms, or of the
   constant stencil) leave: unew's of level steps - 2, u's of level
   steps - 1, from the wide part's cells at level 0 (the pass leaves
   them in before; its copying halos are those of a later level, filled
   again).  after's cells are scratch.  */
static void
edge_lines (struct tiled_ranks *t, const struct stencil *s,
            const struct material_step *ms, double *u, double *unew,
            unsigned steps)
{
  const struct stencil *w = &t->wide;
  const bool *trades = s->halo.exchange;
  double *from = t->before, *to = t->after;
  for (unsigned level = 0; level < steps; ++level)
    {
      if (level > 0)
        {
          if (w->halo.refresh)
            halo_refresh_host (w, from);
          for (int e = 0; e < EDGE_COUNT; ++e)
            if (trades[e])
              update_cells (t, ms, from, to,
                            reach (t, s, (enum edge) e, steps));
          double *swap = from;
          from = to;
          to = swap;
        }
      if (level + 2 == steps || level + 1 == steps)
        for (int e = 0; e < EDGE_COUNT; ++e)
          if (trades[e])
            halo_line (t, s, (enum edge) e, from,
                       level + 2 == steps ? unew : u);
    }
}

void
tiled_ranks_steps (struct tiled_ranks *t, const struct domain *d,
                   const struct stencil *s, const struct material_step *ms,
                   double *u, double *unew, unsigned steps,
                   double *exchange_seconds)
{
  struct stencil *w = &t->wide;
  w->halo.in = s->halo.in;
  const struct material_step *wide_ms = NULL;
  if (ms != NULL)
    {
      /* The values at the pass's start time (solver.c, boundary_at).  */
      t->material.factor = ms->factor;
      t->material.sink = ms->sink;
      t->material.ambient = ms->ambient;
      wide_ms = &t->material;
    }
  widen (t, d, s, u, exchange_seconds);
  heat_steps_tiled (w, wide_ms, t->before, t->after, steps, &t->tiles);
  const size_t stride = s->stride, wide = w->stride;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= s->ny; ++j)
    memcpy (&unew[j * stride + 1],
            &t->after[(j + t->y0) * wide + t->x0 + 1], s->nx * sizeof *u);
  /* The whole grid's copying edges: the pass left unew's halo lines of
     level steps - 2 in after, u's of level steps - 1 in before.  */
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (w->halo.copy[e])
      {
        halo_line (t, s, (enum edge) e, t->after, unew);
        halo_line (t, s, (enum edge) e, t->before, u);
      }
  edge_lines (t, s, wide_ms, u, unew, steps);
}
