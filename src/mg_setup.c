/* Building a multigrid hierarchy (mg_create, mg_create_part): the
   levels coarsened one by one until the coarsest, whole or split over
   MPI ranks, and the public queries of a built one.  */
#include <config.h>

#include "mg_internal.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

#include "domain.h"

/* Coarsen the axes with the finest spacing (within sqrt 2 of the finest
   of those that can still be coarsened): the rest of the anisotropy that
   dx != dy brings stays below a factor of 2 in the weights.  */
static void
choose_merges (const struct axis *ax, const struct axis *ay, bool *mx,
               bool *my)
{
  const bool cx = axis_can_coarsen (ax), cy = axis_can_coarsen (ay);
  const double hx = axis_mean_spacing (ax), hy = axis_mean_spacing (ay);
  const double h = cx && cy ? fmin (hx, hy) : cx ? hx : hy;
  *mx = cx && hx <= sqrt (2.0) * h;
  *my = cy && hy <= sqrt (2.0) * h;
}

/* Whether the level of axes ax and ay is the coarsest: one that cannot be
   coarsened, or small enough for its dense inverse to cost less than the
   launches of the levels below (a few kernels per level on a device).  */
static bool
is_coarsest (const struct axis *ax, const struct axis *ay)
{
  bool mx, my;
  choose_merges (ax, ay, &mx, &my);
  return (!mx && !my) || ax->n * ay->n <= DENSE_MAX;
}

/* Whether axis a, its nodes run out, still couples them strongly: a
   ring, or insulated ends (whose nodes it keeps); a fixed end's
   conductance to the edge value dominates its last node instead.  */
static bool
stops_coupled (const struct axis *a)
{
  return a->n > 1 && (a->periodic || (a->neumann_lo && a->neumann_hi));
}

/* The aspect of the cells a level leaves to the point smoother without
   coarsening their short side's axis (it has run out of nodes): 1 if
   none.  */
static double
blocked_aspect (const struct axis *ax, const struct axis *ay, bool mx,
                bool my)
{
  const double hx = axis_mean_spacing (ax), hy = axis_mean_spacing (ay);
  if (hy < hx && !my && stops_coupled (ay))
    return hx / hy;
  if (hx < hy && !mx && stops_coupled (ax))
    return hy / hx;
  return 1.0;
}

/* The bytes of the host's scratch rows (rows_alloc): three rows of
   width nodes for each of threads; SIZE_MAX where that overflows.  */
static size_t
rows_bytes (size_t width, size_t threads)
{
  return threads > SIZE_MAX / sizeof (double) / 3 / width ? SIZE_MAX
         : 3 * width * threads * sizeof (double);
}

double
mg_blocked_aspect (size_t nx, size_t ny, double dx, double dy,
                   const struct mg_boundary *bc)
{
  /* The levels replayed by their counts alone: a run's checks call
     this before its memory check, and axes of 10^9 nodes took 24 GB.  */
  struct axis ax = axis_fine_counts (nx, dx, bc->kind[EDGE_LEFT],
                                     bc->kind[EDGE_RIGHT]);
  struct axis ay = axis_fine_counts (ny, dy, bc->kind[EDGE_BOTTOM],
                                     bc->kind[EDGE_TOP]);
  double worst = 1.0;
  /* Coarse axes keep the fine ones' ends and have fewer nodes: where
     neither fine axis stops coupled, no level is blocked, and the
     levels need not be replayed.  */
  const bool blocks = stops_coupled (&ax) || stops_coupled (&ay);
  while (blocks && !is_coarsest (&ax, &ay))
    {
      bool mx, my;
      choose_merges (&ax, &ay, &mx, &my);
      worst = fmax (worst, blocked_aspect (&ax, &ay, mx, my));
      ax = axis_coarse_counts (&ax, mx);
      ay = axis_coarse_counts (&ay, my);
    }
  return worst;
}

size_t
mg_footprint (size_t nx, size_t ny, double dx, double dy,
              const struct mg_boundary *bc)
{
  struct axis ax = axis_fine_counts (nx, dx, bc->kind[EDGE_LEFT],
                                     bc->kind[EDGE_RIGHT]);
  struct axis ay = axis_fine_counts (ny, dy, bc->kind[EDGE_BOTTOM],
                                     bc->kind[EDGE_TOP]);
  bool last = is_coarsest (&ax, &ay);
  size_t total, bytes;
  if (!level_bytes (nx, ny, 0, 0, true, last, &total))
    return SIZE_MAX;
  /* As create and add_level choose the levels.  */
  while (!last)
    {
      bool mx, my;
      choose_merges (&ax, &ay, &mx, &my);
      const struct axis cx = axis_coarse_counts (&ax, mx);
      const struct axis cy = axis_coarse_counts (&ay, my);
      last = is_coarsest (&cx, &cy);
      if (!level_bytes (cx.n, cy.n, ax.n, ay.n, false, last, &bytes)
          || bytes > SIZE_MAX - total)
        return SIZE_MAX;
      total += bytes;
      ax = cx;
      ay = cy;
    }
  /* rows_alloc's scratch rows: the finest level is the widest.  */
  bytes = rows_bytes (nx + 2, (size_t) omp_get_max_threads ());
  return bytes > SIZE_MAX - total ? SIZE_MAX : total + bytes;
}

/* In a split hierarchy, whether every rank had ok, and the least of
   the ranks' values of owned (every rank calls it at the same point).  */
static bool
ranks_agree (const struct mg_solver *mg, bool ok, double *owned)
{
  const double least = domain_min (mg->domain, ok ? *owned : -1.0);
  *owned = least;
  return least >= 0.0;
}

/* Unknowns of the smaller split axis of parts qx and qy (their split
   axes are divided among ranks, the others whole on each).  */
static double
owned_along_splits (struct span qx, struct span qy)
{
  double least = HUGE_VAL;
  if (qx.split)
    least = fmin (least, (double) qx.n);
  if (qy.split)
    least = fmin (least, (double) qy.n);
  return least;
}

/* Allocate the coarse level, split into parts qx x qy or whole (the
   window qx x qy then), and fill its tables and weights.  */
static bool
fill_level (struct level *coarse, const struct level *fine, bool split,
            bool last, const struct axis *ax, const struct axis *cx,
            const size_t *sx, const struct transfer *tx, struct span px,
            struct span qx, const struct axis *ay, const struct axis *cy,
            const size_t *sy, const struct transfer *ty, struct span py,
            struct span qy, double c1)
{
  const size_t nx = split ? qx.n : cx->n, ny = split ? qy.n : cy->n;
  if (!level_alloc (coarse, nx, ny, fine->nx, fine->ny, false, last))
    return false;
  coarse->split = split;
  coarse->x0 = split ? qx.first : 0;
  coarse->y0 = split ? qy.first : 0;
  coarse->wx0 = qx.first - coarse->x0;
  coarse->wy0 = qy.first - coarse->y0;
  coarse->wnx = qx.n;
  coarse->wny = qy.n;
  local_tables (ax, cx, sx, tx, px, qx, coarse->pxi, coarse->pxw, coarse->rxi,
                coarse->rxw);
  local_tables (ay, cy, sy, ty, py, qy, coarse->pyi, coarse->pyw, coarse->ryi,
                coarse->ryw);
  const struct span wx = { coarse->x0, nx, split };
  const struct span wy = { coarse->y0, ny, split };
  axis_weights (cx, c1, wx, coarse->axm, coarse->axp);
  axis_weights (cy, c1, wy, coarse->aym, coarse->ayp);
  return true;
}

/* Level l + 1 below level l, whose axes are ax and ay and whose parts on
   this rank are px and py: these become the coarse level's.  A split
   level is never the coarsest: below the last one that cannot be
   coarsened comes a whole copy, the same grid, solved on every rank.  */
static enum mg_status
add_level (struct mg_solver *mg, struct axis *ax, struct axis *ay,
           struct span *px, struct span *py, double c1)
{
  struct level *fine = &mg->level[mg->count - 1], *coarse = fine + 1;
  bool mx = false, my = false;
  if (!fine->split || !is_coarsest (ax, ay))
    choose_merges (ax, ay, &mx, &my);
  struct transfer tx = { 0 }, ty = { 0 };
  struct axis cx = { 0 }, cy = { 0 };
  const size_t ncx = axis_coarse_unknowns (ax, mx);
  const size_t ncy = axis_coarse_unknowns (ay, my);
  size_t *sx = malloc ((ax->intervals + 1) * sizeof *sx);
  size_t *sy = malloc ((ay->intervals + 1) * sizeof *sy);
  bool ok = transfer_alloc (&tx, ax->n, ncx)
            && transfer_alloc (&ty, ay->n, ncy)
            && sx != NULL && sy != NULL && axis_coarsen (ax, mx, &cx, tx, sx)
            && axis_coarsen (ay, my, &cy, ty, sy);
  struct span qx = { 0 }, qy = { 0 };
  bool last = false, split = false;
  double owned = 0.0;
  if (ok)
    {
      qx = coarse_span (ax, &cx, sx, *px);
      qy = coarse_span (ay, &cy, sy, *py);
      last = is_coarsest (&cx, &cy);
      owned = owned_along_splits (qx, qy);
    }
  if (fine->split)
    {
      ok = ranks_agree (mg, ok, &owned);
      split = ok && !last && owned >= SPLIT_MIN;
    }
  if (ok)
    {
      ok = fill_level (coarse, fine, split, last, ax, &cx, sx, &tx, *px, qx,
                       ay, &cy, sy, &ty, *py, qy, c1);
      mg->count += coarse->block != NULL;
    }
  free (sx);
  free (sy);
  transfer_free (&tx);
  transfer_free (&ty);
  axis_free (ax);
  axis_free (ay);
  *ax = cx;
  *ay = cy;
  *px = split ? qx : (struct span) { 0, cx.n, false };
  *py = split ? qy : (struct span) { 0, cy.n, false };
  enum mg_status status = ok ? MG_OK : MG_NO_MEMORY;
  if (ok && last && !level_invert (coarse, mg->c0, mg->closed, ax, ay))
    status = MG_INVALID;
  if (fine->split)
    {
      double none = 0.0;
      if (!ranks_agree (mg, status == MG_OK, &none) && status == MG_OK)
        status = MG_NO_MEMORY;
    }
  return status;
}

static bool
valid_setup (size_t nx, size_t ny, const struct mg_operator *op,
             const struct mg_boundary *bc)
{
  bool ok = nx > 0 && ny > 0 && isfinite (op->dx) && op->dx > 0.0
            && isfinite (op->dy) && op->dy > 0.0 && isfinite (op->c1)
            && op->c1 > 0.0 && isfinite (op->c0) && op->c0 >= 0.0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    ok = ok && bc->kind[e] >= BOUNDARY_DIRICHLET
         && bc->kind[e] <= BOUNDARY_PERIODIC;
  return ok && (bc->kind[EDGE_LEFT] == BOUNDARY_PERIODIC)
                 == (bc->kind[EDGE_RIGHT] == BOUNDARY_PERIODIC)
         && (bc->kind[EDGE_BOTTOM] == BOUNDARY_PERIODIC)
            == (bc->kind[EDGE_TOP] == BOUNDARY_PERIODIC);
}

/* The host kernels' scratch rows for as many threads as a parallel
   region may have now.  Without them (no memory, or more threads at a
   solve) the host uses the levels' residual arrays instead, so a
   failure here costs speed, not the solve, and needs no agreement
   between ranks.  */
static void
rows_alloc (struct mg_solver *mg)
{
  size_t width = 0;
  for (size_t l = 0; l < mg->count; ++l)
    width = mg->level[l].stride > width ? mg->level[l].stride : width;
  const size_t threads = (size_t) omp_get_max_threads ();
  const size_t bytes = rows_bytes (width, threads);
  mg->rows = bytes < SIZE_MAX ? malloc (bytes) : NULL;
  mg->row_threads = mg->rows != NULL ? threads : 0;
  mg->row_width = width;
}

/* The hierarchy of the whole nx x ny grid, or with d of d's part of it
   (every rank of d calls it together).  */
static enum mg_status
create (struct mg_solver **out, size_t nx, size_t ny,
        const struct domain *d, const struct mg_operator *op,
        const struct mg_boundary *bc)
{
  *out = NULL;
  if (!valid_setup (nx, ny, op, bc))
    return MG_INVALID;
  struct mg_solver *mg = calloc (1, sizeof *mg);
  if (mg == NULL)
    return MG_NO_MEMORY;
  mg->domain = d;
  mg->c0 = op->c0;
  bool dirichlet = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      mg->kind[e] = bc->kind[e];
      dirichlet = dirichlet || bc->kind[e] == BOUNDARY_DIRICHLET;
    }
  mg->singular = op->c0 == 0.0 && !dirichlet;
  mg->closed = !dirichlet;

  const bool split = d != NULL;
  struct span px = { 0, nx, false }, py = { 0, ny, false };
  if (split)
    {
      px = (struct span) { d->x0, d->local_nx, d->dims[0] > 1 };
      py = (struct span) { d->y0, d->local_ny, d->dims[1] > 1 };
    }
  struct axis ax = { 0 }, ay = { 0 };
  struct level *level = &mg->level[0];
  bool ok = axis_fine (&ax, nx, op->dx, bc->kind[EDGE_LEFT],
                       bc->kind[EDGE_RIGHT])
            && axis_fine (&ay, ny, op->dy, bc->kind[EDGE_BOTTOM],
                          bc->kind[EDGE_TOP]);
  const bool last = ok && !split && is_coarsest (&ax, &ay);
  ok = ok && level_alloc (level, px.n, py.n, 0, 0, true, last);
  enum mg_status status = ok ? MG_OK : MG_NO_MEMORY;
  if (ok)
    {
      mg->count = 1;
      level->split = split;
      level->x0 = px.first;
      level->y0 = py.first;
      level->shares = (struct shares) {
        .left = px.first == 0 && ax.neumann_lo ? 0.5 : 1.0,
        .right = px.first + px.n == nx && ax.neumann_hi ? 0.5 : 1.0,
        .bottom = py.first == 0 && ay.neumann_lo ? 0.5 : 1.0,
        .top = py.first + py.n == ny && ay.neumann_hi ? 0.5 : 1.0,
      };
      mg->volume = axis_volume (&ax) * axis_volume (&ay);
      axis_weights (&ax, op->c1, px, level->axm, level->axp);
      axis_weights (&ay, op->c1, py, level->aym, level->ayp);
      if (last && !level_invert (level, mg->c0, mg->closed, &ax, &ay))
        status = MG_INVALID;
    }
  if (split)
    {
      double none = 0.0;
      if (!ranks_agree (mg, status == MG_OK, &none) && status == MG_OK)
        status = MG_NO_MEMORY;
    }
  while (status == MG_OK && mg->level[mg->count - 1].inverse == NULL)
    status = add_level (mg, &ax, &ay, &px, &py, op->c1);
  axis_free (&ax);
  axis_free (&ay);
  /* Ranks that failed on a whole level stopped early; all agree here.  */
  if (split)
    {
      double none = 0.0;
      if (!ranks_agree (mg, status == MG_OK, &none) && status == MG_OK)
        status = MG_NO_MEMORY;
    }
  if (status == MG_OK)
    rows_alloc (mg);
  if (status != MG_OK)
    {
      mg_destroy (mg);
      return status;
    }
  *out = mg;
  return MG_OK;
}

enum mg_status
mg_create (struct mg_solver **out, size_t nx, size_t ny,
           const struct mg_operator *op, const struct mg_boundary *bc)
{
  return create (out, nx, ny, NULL, op, bc);
}

enum mg_status
mg_create_part (struct mg_solver **out, const struct domain *d,
                const struct mg_operator *op, const struct mg_boundary *bc)
{
  return create (out, d->nx, d->ny, d->ranks > 1 ? d : NULL, op, bc);
}

void
mg_destroy (struct mg_solver *mg)
{
  if (mg == NULL)
    return;
  hierarchy_leave (mg);
  for (size_t l = 0; l < mg->count; ++l)
    free (mg->level[l].block);
  free (mg->rows);
  free (mg);
}

size_t
mg_levels (const struct mg_solver *mg)
{
  return mg->count;
}

void
mg_level_size (const struct mg_solver *mg, size_t l, size_t *nx, size_t *ny)
{
  *nx = mg->level[l].nx;
  *ny = mg->level[l].ny;
}

struct mg_options
mg_default_options (void)
{
  return (struct mg_options) { .rtol = 1e-10, .max_cycles = 100, .pre = 1,
                               .post = 2, .smoother = MG_RED_BLACK,
                               .omega = 1.15, .placement = MG_HOST,
                               .device = -1 };
}
