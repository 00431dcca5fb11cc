/* The coarsest level of the black box multigrid, solved exactly by a
   band Cholesky factor: at most BOXMG_COARSEST_NODES unknowns, or a
   line of nodes a few wide, so the band is short.  Split in two halves
   and a separator line where it can be (boxmg_internal.h), so that two
   threads share the substitutions, which are sequential otherwise.  */
#include <config.h>

#include "boxmg_internal.h"

#include "host_isa.h"

#include <math.h>
#include <stdint.h>
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
  const size_t fast = cs->x_first ? pi : pj, slow = cs->x_first ? pj : pi;
  if (!cs->split)
    return slow * cs->line + fast;
  const size_t separator = cs->half[0] / cs->line;
  const size_t lines = cs->n / cs->line;
  if (slow < separator)
    return slow * cs->line + fast;
  if (slow > separator)
    return cs->half[0] + (lines - 1 - slow) * cs->line + fast;
  return cs->half[0] + cs->half[1] + fast;
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

/* Where the entry of row n, column m < n goes: the band; split, the
   separator's own block (a band as wide as the line, so that the band
   Cholesky factor and substitutions serve it too) or a half's coupling
   to it (m on that half's last line).  */
static double *
entry_slot (const struct boxmg_coarse *cs, size_t n, size_t m)
{
  const size_t halves = cs->half[0] + cs->half[1];
  if (!cs->split || n < halves)
    return &cs->factor[n * (cs->band + 1) + (n - m)];
  const size_t c = n - halves;
  if (m >= halves)
    return &cs->schur[c * cs->line + (n - m)];
  const size_t h = m < cs->half[0] ? 0 : 1;
  const size_t last = (h == 0 ? cs->half[0] : halves) - cs->line;
  return &cs->reach[h][(m - last) * cs->line + c];
}

/* The lower band of the matrix, row by row (split: and the separator's
   blocks).  A short ring's couplings to one node (both ends of a ring
   of 2, or the node itself in a ring of 1) add up; without a ring each
   entry is set once (as it is, signed zeros too).  */
static void
band_matrix (struct boxmg_coarse *cs, const struct boxmg_level *l)
{
  const bool ring = l->periodic_x || l->periodic_y;
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = j * l->stride + i, n = number (cs, l, i, j);
        *entry_slot (cs, n, n) = l->c[k];
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
              double *slot = entry_slot (cs, n, m);
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

/* In place: L L^T of the first m rows of band factor a, row by row.
   Entry (i, col) less the sum over t of L(i, t) L(col, t), t = max(i -
   b, 0) .. col - 1: row i holds L(i, t) at i (b + 1) + i - t and row
   col L(col, t) at col (b + 1) + col - t, so that both run forwards in
   memory as t goes down from col - 1: a dot product of two contiguous
   runs.  */
static bool
cholesky (double *a, size_t b, size_t m)
{
  const size_t b1 = b + 1;
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

/* Half h's band factor, in place, and its coupling E to the separator
   (in reach[h]) turned into L^-1 E: E lies in the half's last line, so
   L^-1 E does too, from the factor's rows there alone.  */
static bool
factor_half (struct boxmg_coarse *cs, size_t h)
{
  const size_t b1 = cs->band + 1, w = cs->line, m = cs->half[h];
  double *a = cs->factor + (h == 0 ? 0 : cs->half[0]) * b1;
  if (!cholesky (a, cs->band, m))
    return false;
  double *e = cs->reach[h];
  for (size_t r = 0; r < w; ++r)
    {
      const double *row = a + (m - w + r) * b1;
      for (size_t d = 1; d <= r; ++d)
        for (size_t c = 0; c < w; ++c)
          e[r * w + c] -= row[d] * e[(r - d) * w + c];
      for (size_t c = 0; c < w; ++c)
        e[r * w + c] /= row[0];
    }
  return true;
}

/* The separator's Schur complement, factored in place as a band of
   width line - 1: the whole lower triangle (singular: without the last
   unknown, the matrix's last, which the solve pins).  */
static bool
factor_separator (struct boxmg_coarse *cs)
{
  const size_t w = cs->line;
  for (size_t h = 0; h < 2; ++h)
    for (size_t r = 0; r < w; ++r)
      {
        const double *e = cs->reach[h] + r * w;
        for (size_t a = 0; a < w; ++a)
          for (size_t c = 0; c <= a; ++c)
            cs->schur[a * w + (a - c)] -= e[a] * e[c];
      }
  return cholesky (cs->schur, w - 1, cs->singular ? w - 1 : w);
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

/* Whether an nx x ny level's factor is split, and its numbering's
   line and band.  */
static bool
splits (size_t nx, size_t ny, bool periodic_x, bool periodic_y,
        size_t *line, size_t *band, bool *x_first)
{
  *band = boxmg_coarse_band (nx, ny, periodic_x, periodic_y, x_first);
  *line = *x_first ? nx : ny;
  const size_t lines = *x_first ? ny : nx;
  const bool fold_slow = *x_first ? periodic_y : periodic_x;
  return !fold_slow && lines >= BOXMG_SPLIT_LINES;
}

size_t
boxmg_coarse_doubles (size_t nx, size_t ny, bool periodic_x, bool periodic_y)
{
  size_t line, band;
  bool x_first;
  const bool split = splits (nx, ny, periodic_x, periodic_y, &line, &band,
                             &x_first);
  const size_t n = nx * ny;
  if (band + 2 > SIZE_MAX / n)
    return SIZE_MAX;
  const size_t blocks = split ? 3 * line * line : 0;
  return n * (band + 2) > SIZE_MAX - blocks ? SIZE_MAX
                                             : n * (band + 2) + blocks;
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
  cs->split = splits (l->nx, l->ny, l->periodic_x, l->periodic_y, &cs->line,
                      &cs->band, &cs->x_first);
  const size_t doubles = boxmg_coarse_doubles (l->nx, l->ny, l->periodic_x,
                                               l->periodic_y);
  cs->factor = doubles < SIZE_MAX ? calloc (doubles, sizeof (double)) : NULL;
  if (cs->factor == NULL)
    return MG_NO_MEMORY;
  cs->rhs = cs->factor + cs->n * (cs->band + 1);
  if (cs->split)
    {
      const size_t w = cs->line, lines = cs->n / w;
      cs->half[0] = lines / 2 * w;
      cs->half[1] = cs->n - cs->half[0] - w;
      cs->reach[0] = cs->rhs + cs->n;
      cs->reach[1] = cs->reach[0] + w * w;
      cs->schur = cs->reach[1] + w * w;
    }
  band_matrix (cs, l);
  /* The coefficients were checked (finest_matrix): a pivot that is not
     positive means that the operator is singular in double precision.  */
  if (!cs->split)
    return cholesky (cs->factor, cs->band, singular ? cs->n - 1 : cs->n)
           ? MG_OK : MG_SINGULAR;
  bool ok[2];
#pragma omp parallel for schedule(static) num_threads(2)
  for (size_t h = 0; h < 2; ++h)
    ok[h] = factor_half (cs, h);
  return ok[0] && ok[1] && factor_separator (cs) ? MG_OK : MG_SINGULAR;
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

/* x = A^-1 x of a split factor: each half's L y = x (at once), the
   separator's x less the halves' part, its Schur complement solved, the
   halves' y less their coupling to the separator, each half's L^T
   x = y.  Every sum in an order of its own, whatever the threads.  */
static void
split_solve (const struct boxmg_coarse *cs, double *x)
{
  const struct host_kernels *k = host_kernels (HOST_KERNEL_BAND);
  const size_t b1 = cs->band + 1, w = cs->line;
  const size_t start[2] = { 0, cs->half[0] };
  double *sep = x + cs->half[0] + cs->half[1];
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(static)
    for (size_t h = 0; h < 2; ++h)
      k->band_forward (cs->half[h], cs->band, cs->factor + start[h] * b1,
                       x + start[h]);
#pragma omp single
    {
      for (size_t h = 0; h < 2; ++h)
        {
          const double *y = x + start[h] + cs->half[h] - w;
          for (size_t r = 0; r < w; ++r)
            for (size_t c = 0; c < w; ++c)
              sep[c] -= cs->reach[h][r * w + c] * y[r];
        }
      const size_t ws = cs->singular ? w - 1 : w;
      k->band_forward (ws, w - 1, cs->schur, sep);
      k->band_backward (ws, w - 1, cs->schur, sep);
      if (cs->singular)
        sep[w - 1] = 0.0;
      for (size_t h = 0; h < 2; ++h)
        {
          double *y = x + start[h] + cs->half[h] - w;
          for (size_t r = 0; r < w; ++r)
            y[r] -= dot (&cs->reach[h][r * w], sep, w);
        }
    }
#pragma omp for schedule(static)
    for (size_t h = 0; h < 2; ++h)
      k->band_backward (cs->half[h], cs->band, cs->factor + start[h] * b1,
                        x + start[h]);
  }
}

void
boxmg_coarse_solve (const struct boxmg_coarse *cs, struct boxmg_level *l)
{
  const size_t m = cs->singular ? cs->n - 1 : cs->n;
  double *x = cs->rhs;
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      x[number (cs, l, i, j)] = l->f[j * l->stride + i];
  /* Singular: the consistent part of f, and the solution with its last
     unknown 0 and then its mean removed (a symmetric map of f).  */
  if (cs->singular)
    remove_mean (x, cs->n);
  /* Both substitutions read the factor (17 MB on a 128^2 level) upwards
     in memory, which comes from memory after the finer levels' passes:
     read downwards it took twice as long in the V-cycle.  */
  if (cs->split)
    split_solve (cs, x);
  else
    {
      const struct host_kernels *k = host_kernels (HOST_KERNEL_BAND);
      k->band_forward (m, cs->band, cs->factor, x);
      k->band_backward (m, cs->band, cs->factor, x);
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
