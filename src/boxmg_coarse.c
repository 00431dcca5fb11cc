/* The coarsest level of the black box multigrid, solved exactly by a
   band Cholesky factor: at most BOXMG_COARSEST_NODES unknowns, or a
   line of nodes a few wide, so the band is short.  */
#include <config.h>

#include "boxmg_internal.h"

#include <math.h>
#include <stdlib.h>

/* The place of node i (1 .. n) along an axis: in order, or folded (1, n,
   2, n - 1, ...) on a periodic one, where neighbours, node n and node 1
   too, are then at most 2 places apart.  */
static size_t
place (size_t i, size_t n, bool fold)
{
  if (!fold)
    return i - 1;
  return i <= (n + 1) / 2 ? 2 * (i - 1) : 2 * (n - i) + 1;
}

static size_t
number (const struct boxmg_coarse *cs, const struct boxmg_level *l, size_t i,
        size_t j)
{
  const size_t pi = place (i, l->nx, cs->fold_x);
  const size_t pj = place (j, l->ny, cs->fold_y);
  return cs->x_first ? pj * l->nx + pi : pi * l->ny + pj;
}

/* Neighbour index i + d (1 .. n) along an axis, on the ring where it is
   periodic; 0 where it lies beyond an edge that is not.  */
static size_t
neighbour (size_t i, int d, size_t n, bool periodic)
{
  const size_t m = i + (size_t) d;
  if (m >= 1 && m <= n)
    return m;
  return !periodic ? 0 : m == 0 ? n : 1;
}

/* The lower band of the matrix, row by row.  A short ring's couplings
   to one node (both ends of a ring of 2, or the node itself in a ring
   of 1) add up; without a ring each entry is set once (as it is, signed
   zeros too).  */
static void
band_matrix (struct boxmg_coarse *cs, const struct boxmg_level *l)
{
  const size_t b1 = cs->band + 1;
  const bool ring = l->periodic_x || l->periodic_y;
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = j * l->stride + i, n = number (cs, l, i, j);
        cs->factor[n * b1] = l->c[k];
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            {
              const size_t ni = neighbour (i, dx, l->nx, l->periodic_x);
              const size_t nj = neighbour (j, dy, l->ny, l->periodic_y);
              if ((dx == 0 && dy == 0) || ni == 0 || nj == 0)
                continue;
              const size_t m = number (cs, l, ni, nj);
              if (m > n)
                continue;
              double *slot = &cs->factor[n * b1 + (n - m)];
              const double e = boxmg_entry (l, k, dx, dy);
              *slot = ring ? *slot + e : e;
            }
      }
}

/* The lower bandwidth of numbering along the axis of fast nodes first,
   slow the other's, a folded axis's neighbours 2 places apart.  */
static size_t
bandwidth (size_t fast, bool fold_fast, bool fold_slow)
{
  return (fold_slow ? 2 : 1) * fast + (fold_fast ? 2 : 1);
}

/* sum over s < n of x[s] y[s], in eight partial sums (in this order
   whatever the thread count): independent chains that the processor
   overlaps and the compiler vectorises, where one running sum (the
   order of the terms fixed by C) allows neither.  */
static double
dot (const double *restrict x, const double *restrict y, size_t n)
{
  enum { LANES = 8 };
  double part[LANES] = { 0.0 };
  size_t s = 0;
  for (; s + LANES <= n; s += LANES)
    for (size_t k = 0; k < LANES; ++k)
      part[k] += x[s + k] * y[s + k];
  double sum = ((part[0] + part[4]) + (part[2] + part[6]))
               + ((part[1] + part[5]) + (part[3] + part[7]));
  for (; s < n; ++s)
    sum += x[s] * y[s];
  return sum;
}

/* In place: L L^T of the first m rows, row by row.  Entry (i, col) less
   the sum over t of L(i, t) L(col, t), t = max(i - b, 0) .. col - 1:
   row i holds L(i, t) at i (b + 1) + i - t and row col L(col, t) at
   col (b + 1) + col - t, so that both run forwards in memory as t goes
   down from col - 1: a dot product of two contiguous runs.  */
static bool
cholesky (struct boxmg_coarse *cs, size_t m)
{
  const size_t b = cs->band, b1 = b + 1;
  double *a = cs->factor;
  for (size_t i = 0; i < m; ++i)
    {
      const size_t first = i < b ? 0 : i - b;
      for (size_t col = first; col < i; ++col)
        a[i * b1 + (i - col)]
          = (a[i * b1 + (i - col)]
             - dot (&a[i * b1 + (i - col) + 1], &a[col * b1 + 1],
                    col - first)) / a[col * b1];
      const double pivot = a[i * b1] - dot (&a[i * b1 + 1], &a[i * b1 + 1],
                                            i - first);
      if (!(pivot > 0.0) || !isfinite (pivot))
        return false;
      a[i * b1] = sqrt (pivot);
    }
  return true;
}

size_t
boxmg_coarse_band (size_t nx, size_t ny, bool periodic_x, bool periodic_y,
                   bool *x_first)
{
  const size_t band_x = bandwidth (nx, periodic_x, periodic_y);
  const size_t band_y = bandwidth (ny, periodic_y, periodic_x);
  *x_first = band_x <= band_y;
  const size_t band = *x_first ? band_x : band_y;
  return band < nx * ny ? band : nx * ny - 1;
}

enum mg_status
boxmg_coarse_factor (struct boxmg_coarse *cs, const struct boxmg_level *l,
                     bool singular)
{
  *cs = (struct boxmg_coarse) {
    .n = l->nx * l->ny,
    .fold_x = l->periodic_x, .fold_y = l->periodic_y,
    .singular = singular,
  };
  cs->band = boxmg_coarse_band (l->nx, l->ny, l->periodic_x, l->periodic_y,
                                &cs->x_first);
  cs->factor = calloc (cs->n * (cs->band + 2), sizeof (double));
  if (cs->factor == NULL)
    return MG_NO_MEMORY;
  cs->rhs = cs->factor + cs->n * (cs->band + 1);
  band_matrix (cs, l);
  /* The coefficients were checked (finest_matrix): a pivot that is not
     positive means that the operator is singular in double precision.  */
  return cholesky (cs, singular ? cs->n - 1 : cs->n) ? MG_OK : MG_SINGULAR;
}

void
boxmg_coarse_free (struct boxmg_coarse *cs)
{
  free (cs->factor);
  cs->factor = NULL;
}

/* The mean of x[0 .. n - 1] removed.  */
static void
remove_mean (double *x, size_t n)
{
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i)
    sum += x[i];
  for (size_t i = 0; i < n; ++i)
    x[i] -= sum / (double) n;
}

void
boxmg_coarse_solve (const struct boxmg_coarse *cs, struct boxmg_level *l)
{
  const size_t b = cs->band, b1 = b + 1;
  const size_t m = cs->singular ? cs->n - 1 : cs->n;
  const double *a = cs->factor;
  double *x = cs->rhs;
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      x[number (cs, l, i, j)] = l->f[j * l->stride + i];
  /* Singular: the consistent part of f, and the solution with its last
     unknown 0 and then its mean removed (a symmetric map of f).  */
  if (cs->singular)
    remove_mean (x, cs->n);
  /* Row i of the factor holds L(i, i - d) at d = 0 .. band, and both
     substitutions read it from d = 1 up, upwards in memory: the factor
     (17 MB on a 128^2 level) comes from memory after the finer levels'
     passes, and read downwards it took twice as long in the V-cycle.
     Forward, the row's dot product in four partial sums, so that the
     additions do not wait on one another; backward, L^T x = y by the
     rows of L (its columns).  */
  for (size_t i = 0; i < m; ++i)
    {
      const double *row = a + i * b1;
      const size_t reach = i < b ? i : b;
      double part[4] = { 0.0, 0.0, 0.0, 0.0 };
      size_t d = 1;
      for (; d + 3 <= reach; d += 4)
        for (size_t h = 0; h < 4; ++h)
          part[h] += row[d + h] * x[i - d - h];
      for (; d <= reach; ++d)
        part[0] += row[d] * x[i - d];
      x[i] = (x[i] - ((part[0] + part[1]) + (part[2] + part[3]))) / row[0];
    }
  for (size_t i = m; i-- > 0;)
    {
      const double *row = a + i * b1;
      const size_t reach = i < b ? i : b;
      x[i] /= row[0];
      for (size_t d = 1; d <= reach; ++d)
        x[i - d] -= row[d] * x[i];
    }
  if (cs->singular)
    {
      x[cs->n - 1] = 0.0;
      remove_mean (x, cs->n);
    }
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      l->u[j * l->stride + i] = x[number (cs, l, i, j)];
  boxmg_wrap_host (l, l->u);
}
