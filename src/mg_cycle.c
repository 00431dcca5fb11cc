/* The V-cycle and the solve loop (mg_solve): smoothing, the residual
   norms and the convergence test, the mean of a problem without a
   Dirichlet edge; every array operation is a kernel of mg_kernels.c or
   mg_transfer.c.  */
#include <config.h>

#include "mg_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <string.h>

#include "domain.h"

/* --------------------------------------------------------------- cycles */

/* The halo sources of a level (struct halo_src).  */
static struct halo_src
level_halo (const struct mg_solver *mg, const struct level *level)
{
  /* The edges of a part that trade with other ranks' parts, which fill
     their halo lines (level_refresh); the others are copied here.  */
  enum boundary_kind k[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    k[e] = level->split && domain_trades (mg->domain, (enum edge) e)
           ? BOUNDARY_DIRICHLET : mg->kind[e];
  const ptrdiff_t nx = (ptrdiff_t) level->nx, ny = (ptrdiff_t) level->ny;
  return (struct halo_src) {
    .left = k[EDGE_LEFT] == BOUNDARY_PERIODIC ? nx
            : k[EDGE_LEFT] == BOUNDARY_NEUMANN ? 1 : 0,
    .right = k[EDGE_RIGHT] == BOUNDARY_PERIODIC ? 1
             : k[EDGE_RIGHT] == BOUNDARY_NEUMANN ? nx : 0,
    .bottom = k[EDGE_BOTTOM] == BOUNDARY_PERIODIC ? ny
              : k[EDGE_BOTTOM] == BOUNDARY_NEUMANN ? 1 : 0,
    .top = k[EDGE_TOP] == BOUNDARY_PERIODIC ? 1
           : k[EDGE_TOP] == BOUNDARY_NEUMANN ? ny : 0,
    .corners = level != mg->level && mg->kind[EDGE_LEFT] == BOUNDARY_PERIODIC
               && mg->kind[EDGE_BOTTOM] == BOUNDARY_PERIODIC,
  };
}

/* Fill the halo of a level's u.  On a split level the columns trade
   first and the rows, whole, last, so that corners come from diagonal
   neighbours; a periodic axis that is not split copies its lines in
   between (its corners read the traded columns).  */
static void
level_refresh (struct exec *x, const struct mg_solver *mg,
               const struct level *level)
{
  if (level->split)
    domain_trade_halo (mg->domain, level->u, level->nx, level->ny,
                       level->stride, 0);
  const struct halo_src h = level_halo (mg, level);
  k_halo (x, &h, level->nx, level->ny, level->stride, level->u);
  if (level->split)
    domain_trade_halo (mg->domain, level->u, level->nx, level->ny,
                       level->stride, 1);
}

/* k_sums over the whole of a level, summed over the ranks of a split
   level.  */
static void
level_sums (struct exec *x, const struct mg_solver *mg,
            const struct level *level, const double *u, const double *f,
            const double sq[2], double sums[2])
{
  k_sums (x, level, u, f, mg->c0, sq, level->part, sums);
  if (level->split)
    domain_sum_ordered (mg->domain, sums, 2);
}

/* The unscaled sums: the interior sum of a field, and the norms whose
   sums of squares lie in the range of double.  */
static const double unscaled[2] = { 1.0, 1.0 };

double
mg_square_scale (double sum)
{
  /* Past an overflow, of at most 2^64 terms, the largest is above 2^480:
     2^-600 leaves every finite term below 2^424 (its squares sum below
     2^912) and drops to zero only squares below 2^-1074 of the largest's.
     Below DBL_MIN every term is below 2^-511: 2^600 lifts them below 2^89
     and the smallest (2^-1074) still squares to 2^-948.  */
  if (isinf (sum))
    return 0x1p-600;
  return sum < DBL_MIN ? 0x1p600 : 1.0;
}

/* The residual norms of the finest level: norms[0] of the residual,
   norms[1] of the scales of residual_at (the round-off floor's).  A sum
   of squares out of the range of double is taken again from scaled
   terms; one in range is left as it is, so an ordinary solve's norms
   keep their bits.  The scales are powers of two: exact.  */
static void
level_norms (struct exec *x, const struct mg_solver *mg, double norms[2])
{
  const struct level *level = mg->level;
  double sums[2];
  level_refresh (x, mg, level);
  level_sums (x, mg, level, level->u, level->f, unscaled, sums);
  const double sq[2] = { mg_square_scale (sums[0]),
                         mg_square_scale (sums[1]) };
  if (sq[0] != 1.0 || sq[1] != 1.0)
    level_sums (x, mg, level, level->u, level->f, sq, sums);
  norms[0] = sqrt (sums[0]) / sq[0];
  norms[1] = sqrt (sums[1]) / sq[1];
}

static void
level_smooth (struct exec *x, const struct mg_solver *mg,
              const struct level *level, unsigned sweeps,
              const struct mg_options *o)
{
  /* The colours are those of the whole grid: a part's cell (i, j) is
     (x0 + i, y0 + j) of its level.  */
  const unsigned parity = (unsigned) ((level->x0 + level->y0) & 1);
  /* With every edge Dirichlet, on one rank, the halo stays as it is.  */
  const struct halo_src h = level_halo (mg, level);
  const bool fixed_halo = !level->split && h.left == 0 && h.right == 0
                          && h.bottom == 0 && h.top == 0;
  for (unsigned s = 0; s < sweeps; ++s)
    if (o->smoother == MG_RED_BLACK && fixed_halo)
      k_sweep (x, level, mg->c0, o->omega, parity);
    else if (o->smoother == MG_RED_BLACK)
      for (unsigned color = 0; color < 2; ++color)
        {
          level_refresh (x, mg, level);
          k_smooth (x, level, mg->c0, o->omega, color ^ parity);
        }
    else
      {
        level_refresh (x, mg, level);
        k_residual (x, level, mg->c0);
        k_jacobi (x, level, mg->c0, o->omega);
      }
}

/* One V-cycle from level l down, on A_l u_l = f_l.  */
static void
vcycle (struct exec *x, const struct mg_solver *mg, size_t l,
        const struct mg_options *o)
{
  const struct level *level = &mg->level[l];
  x->at = l;
  if (l + 1 == mg->count)
    {
      const struct halo_src h = level_halo (mg, level);
      k_coarsest (x, &h, level, mg->c0);
      return;
    }
  const struct level *coarse = level + 1;
  level_smooth (x, mg, level, o->pre, o);
  level_refresh (x, mg, level);
  /* Below the last split level every rank holds the whole level: each
     restricts to the nodes of its part, 0 elsewhere, and the sum over
     the ranks (exact: one term of each is not 0) assembles it.  */
  const bool gather = level->split && !coarse->split;
  const size_t ccells = coarse->stride * (coarse->ny + 2);
  if (gather)
    {
      memset (coarse->f, 0, ccells * sizeof *coarse->f);
      memset (coarse->u, 0, ccells * sizeof *coarse->u);
    }
  k_restrict (x, mg, level, coarse);
  if (gather)
    domain_sum_exact (mg->domain, coarse->f, ccells);
  vcycle (x, mg, l + 1, o);
  x->at = l;
  level_refresh (x, mg, coarse);
  k_prolong (x, level, coarse);
  level_smooth (x, mg, level, o->post, o);
}

static bool
valid_solve (const struct mg_solver *mg, const struct field *u,
             const struct field *f, const struct mg_options *o)
{
  const struct level *level = &mg->level[0];
  const bool device = o->placement == MG_MAP || o->placement == MG_RESIDENT;
  return o->rtol >= 0.0 && o->rtol < 1.0 && isfinite (o->atol)
         && o->atol >= 0.0 && (o->rtol > 0.0 || o->atol > 0.0)
         && o->max_cycles >= 1
         && (mg->domain == NULL || o->placement == MG_HOST)
         && o->max_cycles <= MG_MAX_CYCLES && o->pre + o->post >= 1
         && (o->smoother == MG_RED_BLACK || o->smoother == MG_JACOBI)
         && o->omega > 0.0 && o->omega < 2.0
         && (o->placement == MG_HOST || device) && o->device >= -1
         && (!device || field_cells (u) <= (size_t) INT_MAX)
         && u->nx == level->nx && u->ny == level->ny
         && u->stride == level->stride
         && (f == NULL || (f->nx == level->nx && f->ny == level->ny
                           && f->stride == level->stride));
}

/* Shift the interior of a level's u by a constant, which the Laplacian
   does not see, so that its sum (weighted by the shares) is heat.  */
static void
level_set_heat (struct exec *x, const struct mg_solver *mg,
                const struct level *level, double heat)
{
  double sums[2];
  level_sums (x, mg, level, level->u, NULL, unscaled, sums);
  k_shift (x, level, level->u, (heat - sums[0]) / mg->volume);
}

/* The cycles of mg_solve, with u and f where x's kernels find them.  */
static enum mg_status
solve (struct mg_solver *mg, struct exec *x, const struct field *u,
       const struct field *f, const struct mg_options *o,
       struct mg_report *report)
{
  struct level *level = &mg->level[0];
  double sums[2], norms[2];
  level->u = u->data;
  /* A singular problem is solvable only for f of zero mean (weighted by
     the shares: the sum of L u is zero with these weights).  */
  double mean = 0.0, heat = 0.0;
  if (mg->singular && f != NULL)
    {
      level_sums (x, mg, level, f->data, NULL, unscaled, sums);
      mean = sums[0] / mg->volume;
    }
  k_set (x, level, level->f, f != NULL ? f->data : NULL, -mean);
  level->zero_f = f == NULL;
  if (mg->singular)
    {
      level_sums (x, mg, level, level->u, NULL, unscaled, sums);
      heat = sums[0];
    }
  else if (mg->closed)
    {
      /* The solution's sum is f's over c0; the coarsest solve leaves the
         mean alone (level_invert): u gets it now and after each cycle.  */
      if (f != NULL)
        {
          level_sums (x, mg, level, f->data, NULL, unscaled, sums);
          heat = sums[0] / mg->c0;
        }
      level_set_heat (x, mg, level, heat);
    }

  level_norms (x, mg, norms);
  double norm = norms[0];
  report->initial = norm;
  report->history[0] = norm;
  enum mg_status status = MG_NOT_CONVERGED;
  unsigned cycles = 0;
  for (;;)
    {
      report->floor = 8.0 * DBL_EPSILON * norms[1];
      /* An infinite norm is at or below an infinite floor: never done.  */
      if (!isfinite (norm) || !isfinite (report->floor))
        {
          status = MG_NOT_FINITE;
          break;
        }
      if (norm <= o->rtol * report->initial || norm <= o->atol
          || norm <= report->floor)
        {
          status = MG_OK;
          break;
        }
      if (cycles == o->max_cycles)
        break;
      /* Every cycle launches the same kernels: keep the last one's.  */
      const struct exec before = *x;
      memset (x->level, 0, sizeof x->level);
      vcycle (x, mg, 0, o);
      x->at = 0;
      if (mg->closed && !mg->singular)
        level_set_heat (x, mg, level, heat);
      level_norms (x, mg, norms);
      memcpy (report->level_launches, x->level, sizeof x->level);
      report->cycle_launches = (unsigned) (x->launches - before.launches);
      report->cycle_to_device = x->to_device - before.to_device;
      report->cycle_from_device = x->from_device - before.from_device;
      for (size_t l = 0; l < MG_MAX_LEVELS; ++l)
        x->level[l] += before.level[l];
      norm = norms[0];
      report->history[++cycles] = norm;
    }
  if (mg->singular)
    {
      level_set_heat (x, mg, level, heat);
      level_refresh (x, mg, level);
    }
  report->cycles = cycles;
  report->final = norm;
  level->u = NULL;
  return status;
}

enum mg_status
mg_solve (struct mg_solver *mg, struct field *u, const struct field *f,
          const struct mg_options *o, struct mg_report *report)
{
  if (!valid_solve (mg, u, f, o))
    return MG_INVALID;
  struct exec x = { .where = o->placement, .device = o->device };
  if (x.device < 0)
    x.device = omp_get_default_device ();
  if (x.where == MG_HOST
      && (size_t) omp_get_max_threads () <= mg->row_threads)
    x.mg = mg;
  *report = (struct mg_report) { .levels = (unsigned) mg->count };
  if (x.where != MG_RESIDENT)
    {
      const enum mg_status status = solve (mg, &x, u, f, o, report);
      report->launches = x.launches;
      report->to_device = x.to_device;
      report->from_device = x.from_device;
      return status;
    }
  hierarchy_enter (mg, &x);
  /* The caller's fields: used in place when present (target data then
     moves nothing), else copied in, and u back, around the solve.  */
  double *ud = u->data;
  const double *fd = f != NULL ? f->data : NULL;
  const size_t n = field_cells (u), fn = f != NULL ? n : 0;
  if (!present (ud, x.device))
    {
      x.to_device += n * sizeof *ud;
      x.from_device += n * sizeof *ud;
    }
  if (!present (fd, x.device))
    x.to_device += fn * sizeof *fd;
  enum mg_status status;
#pragma omp target data map(tofrom: ud[0:n]) map(to: fd[0:fn]) \
  device(x.device)
  status = solve (mg, &x, u, f, o, report);
  report->launches = x.launches;
  report->to_device = x.to_device;
  report->from_device = x.from_device;
  return status;
}
