/* The rows of the black box multigrid's passes (boxmg_relax.c): each
   pass is a loop over a level's rows, and these are its rows.  Inline,
   for the device's kernels and the host's loops (boxmg_relax.c) and for
   the host's wavefront of every path (boxmg_host.c), so that every
   placement and path does the same arithmetic in the same order.  No
   vector loop here loads under a condition (w != NULL ? w[i] : 1): a
   vector build turns that into a masked load, which some processors
   run several times slower; the branch is taken once, outside it.  */
#ifndef HEATSIM_BOXMG_ROWS_H
#define HEATSIM_BOXMG_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "boxmg_cell.h"

#pragma omp declare target
/* sum over i < n of w[i] a[i] b[i] (w or b NULL for 1), in four lanes
   (i % 4, the last n % 4 terms into lane 0: indices the compiler
   knows, so that a GPU keeps the lanes in registers), added at the
   end: one running sum is a chain of additions
   that each wait on the last (4 cycles a node, most of a dot product's
   time in cache), and the order is fixed, the same on every placement
   and thread count.  */
static inline double
lanes_sum (const double *w, const double *a, const double *b, size_t n)
{
  double part[4] = { 0.0, 0.0, 0.0, 0.0 };
  size_t i = 0;
  /* 1 w a b is the same number as w a b, a b or a: one loop for each,
     each as the general loop's expression would have it.  Where a
     device fuses a multiply with the add (a b + part there), w a must
     still be rounded first, as (w a) 1 + part was.  */
  if (w == NULL && b != NULL)
    for (; i + 4 <= n; i += 4)
      for (size_t h = 0; h < 4; ++h)
        part[h] += a[i + h] * b[i + h];
  else if (w == NULL)
    for (; i + 4 <= n; i += 4)
      for (size_t h = 0; h < 4; ++h)
        part[h] += a[i + h];
  else if (b == NULL)
    for (; i + 4 <= n; i += 4)
      for (size_t h = 0; h < 4; ++h)
        {
          const double term = w[i + h] * a[i + h];
          part[h] += term;
        }
  else
    for (; i + 4 <= n; i += 4)
      for (size_t h = 0; h < 4; ++h)
        part[h] += w[i + h] * a[i + h] * b[i + h];
  for (; i < n; ++i)
    part[0] += (w != NULL ? w[i] : 1.0) * a[i] * (b != NULL ? b[i] : 1.0);
  return (part[0] + part[1]) + (part[2] + part[3]);
}

/* Gauss-Seidel on the nodes of row j from column i0 in steps of 2 (sw
   NULL: a 5-point level).  */
static inline void
relax_row (double *u, const double *f, const double *d, const double *w,
           const double *s, const double *sw, const double *se,
           size_t stride, size_t nx, size_t j, size_t i0)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  const size_t row = j * stride;
  /* The nodes of a colour, two apart, do not couple (9 points reach
     one node): in vectors.  */
  if (sw == NULL)
    {
BOXMG_VECTOR_LOOP
      for (size_t i = i0; i <= nx; i += 2)
        {
          const size_t k = row + i;
          u[k] = (f[k] - boxmg_off5 (u + k, w + k, s + k, st)) * d[k];
        }
    }
  else
    {
BOXMG_VECTOR_LOOP
      for (size_t i = i0; i <= nx; i += 2)
        {
          const size_t k = row + i;
          u[k] = (f[k] - boxmg_off9 (u + k, w + k, s + k, sw + k, se + k,
                                     st))
                 * d[k];
        }
    }
}

/* (A u)_k of a 5-point and of a 9-point level.  */
static inline double
apply5_at (const double *c, const double *w, const double *s, ptrdiff_t st,
           const double *u, size_t k)
{
  return c[k] * u[k] + boxmg_off5 (u + k, w + k, s + k, st);
}

static inline double
apply9_at (const double *c, const double *w, const double *s,
           const double *sw, const double *se, ptrdiff_t st, const double *u,
           size_t k)
{
  return c[k] * u[k] + boxmg_off9 (u + k, w + k, s + k, sw + k, se + k, st);
}

/* out[1 .. nx] = f - A u over row j.  */
static inline void
residual_row (const double *c, const double *w, const double *s,
              const double *sw, const double *se, size_t stride, size_t nx,
              size_t j, const double *u, const double *f, double *out)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  const size_t row = j * stride;
  if (sw == NULL)
    {
BOXMG_VECTOR_LOOP
      for (size_t i = 1; i <= nx; ++i)
        out[i] = f[row + i] - apply5_at (c, w, s, st, u, row + i);
    }
  else
    {
BOXMG_VECTOR_LOOP
      for (size_t i = 1; i <= nx; ++i)
        out[i] = f[row + i] - apply9_at (c, w, s, sw, se, st, u, row + i);
    }
}

/* Coarse row J of P^T r, rb, rk and rt r's fine rows 2 J - 1, 2 J and
   2 J + 1 (each from its column 0).  The fine nodes around (2I, 2J):
   those west of or below it see this coarse node as their east or
   north one.  */
static inline void
restrict_row (const double *rb, const double *rk, const double *rt,
              const double *p0, const double *p1, const double *p2,
              const double *p3, size_t fs, double *f, size_t cs, size_t nx,
              size_t J)
{
BOXMG_VECTOR_LOOP
  for (size_t I = 1; I <= nx; ++I)
    {
      const size_t i = 2 * I, k = 2 * J * fs + i;
      const size_t b = k - fs, t = k + fs;
      f[J * cs + I] = p3[b - 1] * rb[i - 1] + p2[b] * rb[i] + p2[b + 1]
                      * rb[i + 1]
                      + p1[k - 1] * rk[i - 1] + p0[k] * rk[i]
                      + p0[k + 1] * rk[i + 1]
                      + p1[t - 1] * rt[i - 1] + p0[t] * rt[i]
                      + p0[t + 1] * rt[i + 1];
    }
}

/* Fine node k += P coarse u, q the coarse cell's lower-left node.  */
static inline void
prolong_at (double *u, const double *p0, const double *p1, const double *p2,
            const double *p3, const double *uc, size_t cs, size_t k,
            size_t q)
{
  u[k] += p0[k] * uc[q] + p1[k] * uc[q + 1] + p2[k] * uc[q + cs]
          + p3[k] * uc[q + cs + 1];
}

/* Fine row j += P coarse u: node 1, then the pairs of nodes 2 I and
   2 I + 1 of coarse cell I (in vectors: the coarse index is I itself,
   not i / 2), then node nx if even.  */
static inline void
prolong_row (double *u, const double *p0, const double *p1, const double *p2,
             const double *p3, size_t fs, const double *uc, size_t cs,
             size_t nx, size_t j)
{
  const size_t row = j * fs, cell = (j / 2) * cs;
  prolong_at (u, p0, p1, p2, p3, uc, cs, row + 1, cell);
  const size_t pairs = (nx - 1) / 2;
BOXMG_VECTOR_LOOP
  for (size_t I = 1; I <= pairs; ++I)
    {
      prolong_at (u, p0, p1, p2, p3, uc, cs, row + 2 * I, cell + I);
      prolong_at (u, p0, p1, p2, p3, uc, cs, row + 2 * I + 1, cell + I);
    }
  if (nx % 2 == 0)
    prolong_at (u, p0, p1, p2, p3, uc, cs, row + nx, cell + nx / 2);
}

/* The vector passes of PCG over row j, those that sum returning their
   row's sum.  */
static inline void
zero_row (double *u, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    u[j * stride + i] = 0.0;
}

/* q = A p over row j (sw NULL: a 5-point level); returns its p . q.  */
static inline double
apply_row (const double *c, const double *w, const double *s,
           const double *sw, const double *se, size_t stride, size_t nx,
           size_t j, const double *p, double *q)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  const size_t row = j * stride;
  if (sw == NULL)
    {
BOXMG_VECTOR_LOOP
      for (size_t i = 1; i <= nx; ++i)
        q[row + i] = apply5_at (c, w, s, st, p, row + i);
    }
  else
    {
BOXMG_VECTOR_LOOP
      for (size_t i = 1; i <= nx; ++i)
        q[row + i] = apply9_at (c, w, s, sw, se, st, p, row + i);
    }
  return lanes_sum (NULL, p + row + 1, q + row + 1, nx);
}

static inline double
update_row (double alpha, const double *p, const double *q, double *u,
            double *r, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      u[k] += alpha * p[k];
      r[k] -= alpha * q[k];
    }
  const double *row = r + j * stride + 1;
  return lanes_sum (NULL, row, row, nx);
}

static inline void
direction_row (double beta, const double *z, double *p, size_t stride,
               size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      p[k] = z[k] + beta * p[k];
    }
}

/* sum of w a b over the row, w or b NULL for 1.  */
static inline double
dot_row (const double *w, const double *a, const double *b, size_t stride,
         size_t nx, size_t j)
{
  const size_t k = j * stride + 1;
  return lanes_sum (w != NULL ? w + k : NULL, a + k, b != NULL ? b + k : NULL,
                    nx);
}

/* Row j's halo nodes from the row's ends (a periodic x axis).  */
static inline void
wrap_row (double *a, size_t stride, size_t nx, size_t j)
{
  a[j * stride] = a[j * stride + nx];
  a[j * stride + nx + 1] = a[j * stride + 1];
}

/* Row j solved whole, the rows beside it held (an x line): forward
   elimination into u, back substitution; d holds the inverse pivots of
   the row's factor (boxmg_setup.c).  The halo node before the row
   enters as the point smoother reads it.  */
static inline void
line_row (double *u, const double *f, const double *d, const double *w,
          const double *s, const double *sw, const double *se,
          size_t stride, size_t nx, size_t j)
{
  const size_t row = j * stride;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = row + i;
      u[k] = (f[k] - boxmg_off_rows (u, s, sw, se, k, stride)
              - w[k] * u[k - 1])
             * d[k];
    }
  for (size_t i = nx - 1; i >= 1; --i)
    {
      const size_t k = row + i;
      u[k] -= w[k + 1] * d[k] * u[k + 1];
    }
}

/* Row j's two colours (first, second) in turn; on a periodic x axis
   the row's halo nodes follow each colour, so that the next one reads
   the ring's new values (an even ring: nodes 1 and nx differ in
   colour).  Or (line) the row solved whole.  */
static inline void
relax_colours (double *u, const double *f, const double *d, const double *w,
               const double *s, const double *sw, const double *se,
               size_t stride, size_t nx, size_t j, size_t first,
               size_t second, bool periodic_x, bool line)
{
  if (line)
    {
      line_row (u, f, d, w, s, sw, se, stride, nx, j);
      return;
    }
  relax_row (u, f, d, w, s, sw, se, stride, nx, j, first);
  if (periodic_x)
    wrap_row (u, stride, nx, j);
  relax_row (u, f, d, w, s, sw, se, stride, nx, j, second);
  if (periodic_x)
    wrap_row (u, stride, nx, j);
}
#pragma omp end declare target

#endif
