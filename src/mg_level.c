/* Geometric multigrid on nested, per-axis coarsened grids (multigrid.h).

   One axis of one level is a row of points p_0 .. p_N joined by N
   intervals (struct axis: intervals is N, n the unknowns).  Without
   periodicity, p_1 .. p_{N-1} are the unknowns and p_0, p_N the ends: a
   Dirichlet node, or for a zero-flux end a virtual point half a cell out,
   joined by an interval that carries no flux to the end's node, which
   lies on the face and owns half a cell (run_config.h).  With
   periodicity p_0 .. p_{N-1} are the unknowns and p_N is p_0 one period
   on.  Each interval k has a conductance g_k (1 / its length, 0 for a
   zero-flux end) and each unknown a lumped volume d_i; the 1-D
   operator is  (L u)_i = [g_right (u_i+1 - u_i) - g_left (u_i - u_i-1)] / d_i.

   Coarsening an axis merges its intervals in pairs, but for the half-cell
   interval of a zero-flux end (the node next to the face stays a coarse
   node); an odd count leaves the widest interval at an even place
   unmerged, which keeps coarse spacings within a factor of about 2 of each
   other.  The coarse points are fine points, interpolation P is linear in
   position, the coarse volumes are P^T d and the coarse conductances
   1 / length: P^T K P in 1-D exactly.  Restriction is R = D_c^-1 P^T D_f,
   an average, so the coarse equation is A_c e = R r with
   A_c = c0 I - c1 (L_x + L_y) of the coarse axes.

   The kernels are plain functions over double arrays with a stride, their

   This file: the axes of the levels, their coarsening and the transfer
   tables between them, and the allocation and coarsest inverse of a level.  */
#include <config.h>

#include "mg_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void
axis_free (struct axis *a)
{
  free (a->x);
  free (a->g);
  free (a->d);
  a->x = a->g = a->d = NULL;
}

static bool
axis_alloc (struct axis *a)
{
  a->x = malloc ((a->intervals + 1) * sizeof *a->x);
  a->g = malloc (a->intervals * sizeof *a->g);
  a->d = calloc (a->n + 2, sizeof *a->d);
  if (a->x != NULL && a->g != NULL && a->d != NULL)
    return true;
  axis_free (a);
  return false;
}

/* The finest axis: n unknowns h apart.  */
struct axis
axis_fine_counts (size_t n, double h, enum boundary_kind lo,
                  enum boundary_kind hi)
{
  struct axis a = {
    .n = n, .h = h, .periodic = lo == BOUNDARY_PERIODIC,
    .neumann_lo = lo == BOUNDARY_NEUMANN, .neumann_hi = hi == BOUNDARY_NEUMANN,
  };
  a.intervals = a.periodic ? n : n + 1;
  /* The ends as axis_fine places them, in the same arithmetic.  */
  const double first = a.neumann_lo ? 0.5 : 0.0;
  const double last = a.neumann_hi ? (double) (a.intervals - 1) + 0.5
                      : (double) a.intervals;
  a.length = last - first;
  return a;
}

bool
axis_fine (struct axis *a, size_t n, double h, enum boundary_kind lo,
           enum boundary_kind hi)
{
  *a = axis_fine_counts (n, h, lo, hi);
  if (!axis_alloc (a))
    return false;
  for (size_t k = 0; k <= a->intervals; ++k)
    a->x[k] = (double) k;
  for (size_t k = 0; k < a->intervals; ++k)
    a->g[k] = 1.0 / h;
  for (size_t i = 1; i <= n; ++i)
    a->d[i] = h;
  /* A zero-flux end's node lies on the face and owns half a cell; the
     end point beyond it stands for the face (half a cell out, where
     nothing flows).  */
  if (a->neumann_lo)
    {
      a->x[0] = 0.5;
      a->g[0] = 0.0;
      a->d[1] = 0.5 * h;
    }
  if (a->neumann_hi)
    {
      a->x[a->intervals] = a->x[a->intervals - 1] + 0.5;
      a->g[a->intervals - 1] = 0.0;
      a->d[n] = 0.5 * h;
    }
  return true;
}

double
axis_volume (const struct axis *a)
{
  const double first = a->neumann_lo ? 0.5 : 1.0;
  const double last = a->neumann_hi ? 0.5 : 1.0;
  /* As share_at weighs them: one node on two zero-flux ends owns a
     quarter.  */
  return a->n == 1 ? first * last : (double) a->n - 2.0 + first + last;
}

/* Unknown at point k, and point of unknown i.  */
static size_t
axis_unknown (const struct axis *a, size_t k)
{
  return a->periodic ? k % a->intervals + 1 : k;
}

static size_t
axis_point (const struct axis *a, size_t i)
{
  return a->periodic ? i - 1 : i;
}

static bool
axis_is_unknown (const struct axis *a, size_t k)
{
  return a->periodic || (k >= 1 && k < a->intervals);
}

/* Intervals on the left and right of unknown i.  */
static size_t
axis_left (const struct axis *a, size_t i)
{
  return a->periodic ? (i + a->intervals - 2) % a->intervals : i - 1;
}

static size_t
axis_right (const struct axis *a, size_t i)
{
  return a->periodic ? i - 1 : i;
}

/* The intervals that merge in pairs: all but the half-cell intervals of
   zero-flux ends, which stay as they are so that the node next to such a
   face stays a coarse node (constant extrapolation there would slow
   convergence three-fold).  */
static size_t
axis_merge_first (const struct axis *a)
{
  return a->neumann_lo ? 1 : 0;
}

static size_t
axis_merge_end (const struct axis *a)
{
  return a->neumann_hi ? a->intervals - 1 : a->intervals;
}

/* Intervals after merging pairs, and whether that leaves >= 2 unknowns,
   so that no coarse node loses all its conductances.  */
static size_t
axis_coarse_intervals (const struct axis *a)
{
  const size_t merged = axis_merge_end (a) - axis_merge_first (a);
  return a->intervals - merged + (merged + 1) / 2;
}

bool
axis_can_coarsen (const struct axis *a)
{
  const size_t coarse_intervals = axis_coarse_intervals (a);
  return coarse_intervals < a->intervals
         && (a->periodic ? coarse_intervals : coarse_intervals - 1) >= 2;
}

double
axis_mean_spacing (const struct axis *a)
{
  return a->h * a->length / (double) a->intervals;
}

/* With an odd number of intervals to merge, the one left unmerged: the
   widest at an even offset, the one nearest the middle among equals.  */
static size_t
axis_single (const struct axis *a)
{
  const size_t first = axis_merge_first (a), end = axis_merge_end (a);
  const double middle = 0.5 * (double) (first + end - 1);
  size_t best = first;
  double best_width = -1.0;
  for (size_t k = first; k < end; k += 2)
    {
      const double w = a->x[k + 1] - a->x[k];
      const bool wider = w > best_width * (1.0 + 1e-9);
      const bool equal = !wider && w >= best_width * (1.0 - 1e-9);
      if (wider || (equal && fabs ((double) k - middle)
                             < fabs ((double) best - middle)))
        {
          best = k;
          best_width = w;
        }
    }
  return best;
}

/* Whether coarse interval k of c carries no flux (a zero-flux end).  */
static bool
axis_open_interval (const struct axis *c, size_t k)
{
  return (k == 0 && c->neumann_lo) || (k + 1 == c->intervals && c->neumann_hi);
}

/* Halo index on coarse axis c of its point k.  */
static size_t
axis_halo (const struct axis *c, size_t k)
{
  return c->periodic ? k + 1 : k;
}

/* Coarse unknown at halo index h of coarse axis c, or 0 for a boundary.  */
static size_t
axis_halo_unknown (const struct axis *c, size_t h)
{
  if (c->periodic)
    return h == 0 ? c->n : h == c->n + 1 ? 1 : h;
  return h >= 1 && h <= c->n ? h : 0;
}

/* P(i, ic) from the prolongation table of fine unknown i.  */
static double
prolongation_weight (const struct axis *c, size_t pi, double pw, size_t ic)
{
  double w = 0.0;
  if (axis_halo_unknown (c, pi) == ic)
    w += pw;
  if (axis_halo_unknown (c, pi + 1) == ic)
    w += 1.0 - pw;
  return w;
}

struct axis
axis_coarse_counts (const struct axis *f, bool merge)
{
  /* Coarse points 0 and intervals are f's ends: the length stays.  */
  struct axis c = {
    .h = f->h, .periodic = f->periodic, .neumann_lo = f->neumann_lo,
    .neumann_hi = f->neumann_hi, .length = f->length,
    .intervals = merge ? axis_coarse_intervals (f) : f->intervals,
  };
  c.n = c.periodic ? c.intervals : c.intervals - 1;
  return c;
}

/* Build c from f, merging pairs of intervals or (merge false) none, and
   the tables between them.  point is scratch for f->intervals + 1 indices.  */
bool
axis_coarsen (const struct axis *f, bool merge, struct axis *c,
              struct transfer t, size_t *point)
{
  *c = axis_coarse_counts (f, merge);
  if (!axis_alloc (c))
    return false;

  /* point[k]: the fine point that coarse point k is.  */
  const size_t first = axis_merge_first (f), end = axis_merge_end (f);
  const size_t single = merge && (end - first) % 2 == 1 ? axis_single (f)
                        : SIZE_MAX;
  point[0] = 0;
  for (size_t k = 0; k < c->intervals; ++k)
    {
      const bool alone = !merge || point[k] < first || point[k] >= end
                         || point[k] == single;
      point[k + 1] = point[k] + (alone ? 1 : 2);
    }
  for (size_t k = 0; k <= c->intervals; ++k)
    c->x[k] = f->x[point[k]];
  for (size_t k = 0; k < c->intervals; ++k)
    c->g[k] = axis_open_interval (c, k) ? 0.0
              : 1.0 / (c->h * (c->x[k + 1] - c->x[k]));

  /* Prolongation: fine point q lies in coarse interval k.  */
  size_t k = 0;
  for (size_t i = 1; i <= f->n; ++i)
    {
      const size_t q = axis_point (f, i);
      while (point[k + 1] <= q)
        ++k;
      t.pi[i] = axis_halo (c, k);
      t.pw[i] = q == point[k] ? 1.0
                : (c->x[k + 1] - f->x[q]) / (c->x[k + 1] - c->x[k]);
    }
  t.pi[0] = t.pi[f->n + 1] = 0;
  t.pw[0] = t.pw[f->n + 1] = 0.0;

  /* Coarse volumes P^T d.  */
  for (size_t i = 1; i <= f->n; ++i)
    for (size_t tap = 0; tap < 2; ++tap)
      {
        const size_t ic = axis_halo_unknown (c, t.pi[i] + tap);
        if (ic != 0)
          c->d[ic] += (tap == 0 ? t.pw[i] : 1.0 - t.pw[i]) * f->d[i];
      }

  /* Restriction D_c^-1 P^T D_f: only the fine points next to coarse point
     k interpolate from it.  Unused taps read the centre with weight 0.  */
  for (size_t m = 0; m < 3 * (c->n + 2); ++m)
    t.ri[m] = 1, t.rw[m] = 0.0;
  for (size_t ic = 1; ic <= c->n; ++ic)
    {
      const size_t centre = point[axis_point (c, ic)];
      for (size_t m = 0; m < 3; ++m)
        t.ri[3 * ic + m] = axis_unknown (f, centre);
      for (size_t m = 0; m < 3; ++m)
        {
          const size_t q = f->periodic
                               ? (centre + f->intervals + m - 1) % f->intervals
                               : centre + m - 1;
          if (!axis_is_unknown (f, q))
            continue;
          const size_t i = axis_unknown (f, q);
          const double w = prolongation_weight (c, t.pi[i], t.pw[i], ic);
          bool seen = false;     /* a periodic axis of 1 or 2 unknowns */
          for (size_t e = 0; e < m; ++e)
            seen = seen || (t.rw[3 * ic + e] != 0.0 && t.ri[3 * ic + e] == i);
          if (w == 0.0 || seen)
            continue;
          t.ri[3 * ic + m] = i;
          t.rw[3 * ic + m] = w * f->d[i] / c->d[ic];
        }
    }
  return true;
}

/* c1 times the weights of the unknowns of part p of axis a, at 1 .. p.n;
   at 0 and p.n + 1 those of the nodes beyond (never read), 0 beyond the
   ends of the axis.  */
void
axis_weights (const struct axis *a, double c1, struct span p, double *am,
              double *ap)
{
  for (size_t k = 0; k <= p.n + 1; ++k)
    {
      const size_t i = p.first + k;
      const bool unknown = i >= 1 && i <= a->n;
      am[k] = unknown ? c1 * a->g[axis_left (a, i)] / a->d[i] : 0.0;
      ap[k] = unknown ? c1 * a->g[axis_right (a, i)] / a->d[i] : 0.0;
    }
}

/* The part of coarse axis c (coarse point k is point[k] of f)
   whose nodes lie in part p of f.  */
struct span
coarse_span (const struct axis *f, const struct axis *c, const size_t *point,
             struct span p)
{
  struct span q = { .split = p.split };
  for (size_t ic = 1; ic <= c->n; ++ic)
    {
      const size_t i = axis_unknown (f, point[axis_point (c, ic)]);
      if (i <= p.first)
        q.first++;
      else if (i <= p.first + p.n)
        q.n++;
    }
  return q;
}

/* -------------------------------------------------------------- levels */

/* *total += count * size; false on overflow.  */
static bool
add_bytes (size_t *total, size_t count, size_t size)
{
  if (count > (SIZE_MAX - *total) / size)
    return false;
  *total += count * size;
  return true;
}

/* Zero a new block by the threads that will use it, a chunk each: its
   pages are faulted in while the hierarchy is built, not in the first
   solve (calloc, and malloc with memset, which compilers turn into
   calloc, map zero pages lazily).  */
static void
zero_pages (void *block, size_t bytes)
{
  enum { CHUNK = 1 << 16 };
  unsigned char *p = block;
  const size_t chunks = (bytes + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (bytes >= 8 * PARALLEL_MIN)
  for (size_t k = 0; k < chunks; ++k)
    memset (p + k * CHUNK, 0, k + 1 < chunks ? CHUNK : bytes - k * CHUNK);
}

/* The sizes of the parts of a level's block (see level_alloc): grid
   cells, the dense inverse's unknowns, the norms' scratch, and the
   whole block's bytes.  False where they would overflow.  */
struct level_layout {
  size_t cells, unknowns, part, bytes;
};

static bool
level_layout (size_t nx, size_t ny, size_t fnx, size_t fny, bool finest,
              bool coarsest, struct level_layout *l)
{
  size_t grid;
  if (!field_bytes (nx, ny, &grid))
    return false;
  /* field_bytes bounds nx + 2 and ny + 2 by SIZE_MAX / 24, so the table
     sizes cannot overflow, only their sum with the grids.  */
  const size_t tables = 5 * (nx + 2) + 5 * (ny + 2) + fnx + fny + 4;
  const size_t indices = 3 * (nx + 2) + 3 * (ny + 2) + fnx + fny + 4;
  l->cells = grid / sizeof (double);
  l->unknowns = coarsest ? nx * ny : 0;
  l->part = finest ? norm_scratch (nx, ny) : 0;
  l->bytes = 0;
  return add_bytes (&l->bytes, finest ? 2 : 3, grid)
         && add_bytes (&l->bytes, tables + l->part, sizeof (double))
         && (l->unknowns == 0 || l->unknowns <= SIZE_MAX / l->unknowns)
         && add_bytes (&l->bytes, l->unknowns * l->unknowns, sizeof (double))
         && add_bytes (&l->bytes, indices, sizeof (size_t));
}

bool
level_bytes (size_t nx, size_t ny, size_t fnx, size_t fny, bool finest,
             bool coarsest, size_t *bytes)
{
  struct level_layout l;
  if (!level_layout (nx, ny, fnx, fny, finest, coarsest, &l))
    return false;
  *bytes = l.bytes;
  return true;
}

/* One allocation for a level of nx x ny below a level of fnx x fny (0 x 0
   for the finest), with its own u unless finest, and room for the dense
   inverse when coarsest.  */
bool
level_alloc (struct level *level, size_t nx, size_t ny, size_t fnx, size_t fny,
             bool finest, bool coarsest)
{
  struct level_layout l;
  *level = (struct level) { .nx = nx, .ny = ny, .stride = nx + 2,
                            .shares = { 1.0, 1.0, 1.0, 1.0 } };
  if (!level_layout (nx, ny, fnx, fny, finest, coarsest, &l))
    return false;
  const size_t cells = l.cells, unknowns = l.unknowns, part = l.part,
               total = l.bytes;
  level->bytes = total;
  level->block = field_block (total);
  if (level->block == NULL)
    return false;
  zero_pages (level->block, total);
  double *p = level->block;
  if (!finest)
    level->u = p, p += cells;
  level->f = p, p += cells;
  level->r = p, p += cells;
  level->axm = p, p += nx + 2;
  level->axp = p, p += nx + 2;
  level->aym = p, p += ny + 2;
  level->ayp = p, p += ny + 2;
  level->rxw = p, p += 3 * (nx + 2);
  level->ryw = p, p += 3 * (ny + 2);
  level->pxw = p, p += fnx + 2;
  level->pyw = p, p += fny + 2;
  if (coarsest)
    level->inverse = p, p += unknowns * unknowns;
  if (finest)
    level->part = p, p += part;
  size_t *q = (size_t *) p;
  level->rxi = q, q += 3 * (nx + 2);
  level->ryi = q, q += 3 * (ny + 2);
  level->pxi = q, q += fnx + 2;
  level->pyi = q;
  return true;
}

/* The transfer tables of one axis while they are built.  */
bool
transfer_alloc (struct transfer *t, size_t fine_n, size_t coarse_n)
{
  t->pi = malloc ((fine_n + 2) * sizeof *t->pi);
  t->pw = malloc ((fine_n + 2) * sizeof *t->pw);
  t->ri = malloc (3 * (coarse_n + 2) * sizeof *t->ri);
  t->rw = malloc (3 * (coarse_n + 2) * sizeof *t->rw);
  return t->pi != NULL && t->pw != NULL && t->ri != NULL && t->rw != NULL;
}

/* The tables t between fine axis f and coarse axis c (coarse point k is
   point[k] of f) as this rank's arrays index them: fine part fp in its
   level's arrays, coarse part cp in the coarse window, 0 and n + 1 the
   halo.  On a split periodic axis a restriction tap of a node at the
   edge of the whole axis wraps around it: it is the halo cell on the
   side of its centre.  */
void
local_tables (const struct axis *f, const struct axis *c, const size_t *point,
              const struct transfer *t, struct span fp, struct span cp,
              size_t *pi, double *pw, size_t *ri, double *rw)
{
  pi[0] = pi[fp.n + 1] = 0;
  pw[0] = pw[fp.n + 1] = 0.0;
  for (size_t i = 1; i <= fp.n; ++i)
    {
      pi[i] = t->pi[fp.first + i] - cp.first;
      pw[i] = t->pw[fp.first + i];
    }
  for (size_t m = 0; m < 3 * (cp.n + 2); ++m)
    ri[m] = 1, rw[m] = 0.0;
  const ptrdiff_t n = (ptrdiff_t) f->n, first = (ptrdiff_t) fp.first;
  for (size_t ic = 1; ic <= cp.n; ++ic)
    {
      const size_t whole_ic = cp.first + ic;
      const size_t fine_centre = point[axis_point (c, whole_ic)];
      const ptrdiff_t centre = (ptrdiff_t) axis_unknown (f, fine_centre)
                               - first;
      for (size_t m = 0; m < 3; ++m)
        {
          ptrdiff_t i = (ptrdiff_t) t->ri[3 * whole_ic + m] - first;
          if (f->periodic && fp.split)
            i += i - centre > n / 2 ? -n : centre - i > n / 2 ? n : 0;
          ri[3 * ic + m] = (size_t) i;
          rw[3 * ic + m] = t->rw[3 * whole_ic + m];
        }
    }
}

void
transfer_free (struct transfer *t)
{
  free (t->pi);
  free (t->pw);
  free (t->ri);
  free (t->rw);
}

/* Unknowns of axis a after coarsening (merge) or not.  */
size_t
axis_coarse_unknowns (const struct axis *a, bool merge)
{
  const size_t intervals = merge ? axis_coarse_intervals (a) : a->intervals;
  return a->periodic ? intervals : intervals - 1;
}

/* Invert the dense operator of the coarsest level into level->inverse by
   Gauss-Jordan elimination with partial pivoting.  An operator without a
   Dirichlet edge (closed) gets the rank-one term rank_one_scale 1 v^T,
   v the nodes' volumes: for a compatible right-hand side (v^T r = 0,
   which restriction keeps) the solution is the same but for its mean,
   which becomes 0.  Constants are in the kernel of the singular one
   (c0 = 0); they are the eigenvector of eigenvalue c0 of the others,
   whose other eigenvalues grow with c1 (implicit steps of huge dt):
   eliminating it from the matrix would lose the mean to cancellation, so
   the solve (which knows the mean) sets it.  */
bool
level_invert (struct level *level, double c0, bool closed,
              const struct axis *ax, const struct axis *ay)
{
  const size_t nx = level->nx, ny = level->ny, n = nx * ny;
  double *a = calloc (n * n, sizeof *a);
  if (a == NULL)
    return false;
  double *inv = level->inverse;
  double diag_sum = 0.0, volume_sum = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t p = (j - 1) * nx + i - 1;
        const double w[4] = { level->axm[i], level->axp[i], level->aym[j],
                              level->ayp[j] };
        /* A neighbour beyond a periodic edge is on the far side; beyond
           another edge it is a boundary node, 0 in a correction.  */
        const bool inside[4] = { i > 1 || ax->periodic, i < nx || ax->periodic,
                                 j > 1 || ay->periodic, j < ny || ay->periodic };
        const size_t nb[4] = {
          (j - 1) * nx + (i > 1 ? i - 2 : nx - 1),
          (j - 1) * nx + (i < nx ? i : 0),
          (j > 1 ? j - 2 : ny - 1) * nx + i - 1,
          (j < ny ? j : 0) * nx + i - 1,
        };
        a[p * n + p] += c0;
        for (int e = 0; e < 4; ++e)
          {
            a[p * n + p] += w[e];
            if (inside[e])
              a[p * n + nb[e]] -= w[e];
          }
        diag_sum += a[p * n + p];
        volume_sum += ax->d[i] * ay->d[j];
      }
  if (closed)
    {
      const double rank_one_scale
          = (diag_sum > 0.0 ? diag_sum : 1.0) / volume_sum;
      for (size_t p = 0; p < n; ++p)
        for (size_t q = 0; q < n; ++q)
          a[p * n + q]
              += rank_one_scale * ax->d[q % nx + 1] * ay->d[q / nx + 1];
    }
  for (size_t p = 0; p < n; ++p)
    for (size_t q = 0; q < n; ++q)
      inv[p * n + q] = p == q ? 1.0 : 0.0;
  bool ok = true;
  for (size_t k = 0; k < n && ok; ++k)
    {
      size_t pivot = k;
      for (size_t p = k + 1; p < n; ++p)
        if (fabs (a[p * n + k]) > fabs (a[pivot * n + k]))
          pivot = p;
      ok = a[pivot * n + k] != 0.0;
      for (size_t q = 0; q < n && ok; ++q)
        {
          double t = a[k * n + q];
          a[k * n + q] = a[pivot * n + q], a[pivot * n + q] = t;
          t = inv[k * n + q];
          inv[k * n + q] = inv[pivot * n + q], inv[pivot * n + q] = t;
        }
      for (size_t p = 0; p < n && ok; ++p)
        {
          const double factor = p == k ? 0.0 : a[p * n + k] / a[k * n + k];
          for (size_t q = 0; q < n; ++q)
            {
              a[p * n + q] -= factor * a[k * n + q];
              inv[p * n + q] -= factor * inv[k * n + q];
            }
        }
    }
  for (size_t p = 0; p < n && ok; ++p)
    for (size_t q = 0; q < n; ++q)
      inv[p * n + q] /= a[p * n + p];
  free (a);
  return ok;
}
