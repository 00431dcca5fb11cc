#include <config.h>

#include "tiled_ranks.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"

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

enum heatsim_status
tiled_ranks_alloc (struct tiled_ranks *t, const struct stencil *s,
                   unsigned steps)
{
  *t = (struct tiled_ranks) { .depth = steps };
  t->wide = widened (s, steps, &t->x0, &t->y0);
  const size_t cells = (t->wide.nx + 2) * (t->wide.ny + 2);
  t->before = malloc (cells * sizeof *t->before);
  t->after = malloc (cells * sizeof *t->after);
  if (t->before == NULL || t->after == NULL)
    {
      tiled_ranks_free (t);
      heatsim_error ("--tile-steps: cannot allocate a %zu x %zu part "
                     "widened for %u fused steps", t->wide.nx, t->wide.ny,
                     steps);
      return HEATSIM_NO_MEMORY;
    }
  /* Zeroed: lines sent before a neighbour's strip arrives in them are
     defined.  Row by row by the threads, which the compiler cannot
     turn into a calloc that leaves the pages to be found by the first
     pass (a tenth of a second at 4096 x 2048).  */
  const size_t row = t->wide.stride;
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < t->wide.ny + 2; ++j)
    {
      memset (&t->before[j * row], 0, row * sizeof *t->before);
      memset (&t->after[j * row], 0, row * sizeof *t->after);
    }
  const enum heatsim_status status = tiled_alloc (&t->tiles, &t->wide,
                                                  steps);
  if (status != HEATSIM_OK)
    tiled_ranks_free (t);
  return status;
}

void
tiled_ranks_free (struct tiled_ranks *t)
{
  tiled_free (&t->tiles);
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
  const size_t stride = s->stride, wide = w->stride;
  double *before = t->before, *after = t->after;
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j <= s->ny + 1; ++j)
    memcpy (&before[(j + t->y0) * wide + t->x0], &u[j * stride],
            (s->nx + 2) * sizeof *u);
  const double t0 = omp_get_wtime ();
  for (int axis = 0; axis < 2; ++axis)
    domain_trade_strips (d, before, w->nx, w->ny, wide, t->depth + 1, axis);
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

/* The trading edges' halo lines that steps plain steps leave: unew's of
   level steps - 2, u's of level steps - 1, from the wide part's cells at
   level 0 (the pass leaves them in before; its copying halos are those
   of a later level, filled again).  after's cells are scratch.  */
static void
edge_lines (struct tiled_ranks *t, const struct stencil *s, double *u,
            double *unew, unsigned steps)
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
              heat_update_host (w, from, to, reach (t, s, (enum edge) e,
                                                    steps), false);
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
                   const struct stencil *s, double *u, double *unew,
                   unsigned steps, double *exchange_seconds)
{
  struct stencil *w = &t->wide;
  w->halo.in = s->halo.in;
  widen (t, d, s, u, exchange_seconds);
  heat_steps_tiled (w, NULL, t->before, t->after, steps, &t->tiles);
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
  edge_lines (t, s, u, unew, steps);
}
