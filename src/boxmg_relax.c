/* The passes of the black box multigrid over one level: Gauss-Seidel
   sweeps, residuals, the transfers, and the finest level's vector
   operations for conjugate gradients.  Each is a loop over rows, on
   several threads above BOXMG_PARALLEL_NODES; sums are taken row by row
   into row_sum and the rows then added in order, so they do not depend
   on the thread count.  */
#include <config.h>

#include "boxmg_internal.h"

#include <math.h>

#include "boxmg_cell.h"

static bool
threaded (const struct boxmg_level *l)
{
  return l->nx * l->ny > BOXMG_PARALLEL_NODES;
}

/* Gauss-Seidel on the nodes of row j from column i0 in steps of 2.  */
static void
relax_row (struct boxmg_level *l, size_t j, size_t i0)
{
  const ptrdiff_t st = (ptrdiff_t) l->stride;
  const size_t row = j * l->stride;
  double *restrict u = l->u;
  const double *restrict f = l->f, *restrict d = l->inverse,
    *restrict w = l->w, *restrict s = l->s;
  if (l->sw == NULL)
    for (size_t i = i0; i <= l->nx; i += 2)
      {
        const size_t k = row + i;
        u[k] = (f[k] - boxmg_off5 (u + k, w + k, s + k, st)) * d[k];
      }
  else
    {
      const double *restrict sw = l->sw, *restrict se = l->se;
      for (size_t i = i0; i <= l->nx; i += 2)
        {
          const size_t k = row + i;
          u[k] = (f[k] - boxmg_off9 (u + k, w + k, s + k, sw + k, se + k,
                                     st)) * d[k];
        }
    }
}

/* Colours (even, odd) of the rows of parity j0 % 2 (j0 = 1 or 2): the
   rows of one parity do not couple (9 points reach one row up and
   down), so each row does its two colours in turn, in cache, and the
   rows run in parallel.  */
static void
relax_rows (struct boxmg_level *l, size_t j0, size_t first, size_t second)
{
  const size_t rows = l->ny >= j0 ? (l->ny - j0) / 2 + 1 : 0;
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t t = 0; t < rows; ++t)
    {
      relax_row (l, j0 + 2 * t, first);
      relax_row (l, j0 + 2 * t, second);
    }
}

/* Forward: colours (i % 2, j % 2) = (0, 0), (1, 0), (0, 1), (1, 1);
   backward the reverse, the adjoint sweep.  */
void
boxmg_smooth (struct boxmg_level *l, bool forward)
{
  if (forward)
    {
      relax_rows (l, 2, 2, 1);
      relax_rows (l, 1, 2, 1);
    }
  else
    {
      relax_rows (l, 1, 1, 2);
      relax_rows (l, 2, 1, 2);
    }
}

/* out = f - A u over row j (f NULL for 0).  */
static void
residual_row (const struct boxmg_level *l, size_t j, const double *u,
              const double *f, double *out)
{
  const ptrdiff_t st = (ptrdiff_t) l->stride;
  const size_t row = j * l->stride;
  const double *restrict c = l->c, *restrict w = l->w, *restrict s = l->s;
  if (l->sw == NULL)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = row + i;
        const double a = c[k] * u[k] + boxmg_off5 (u + k, w + k, s + k, st);
        out[k] = (f != NULL ? f[k] : 0.0) - a;
      }
  else
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = row + i;
        const double a = c[k] * u[k]
                         + boxmg_off9 (u + k, w + k, s + k, l->sw + k,
                                       l->se + k, st);
        out[k] = (f != NULL ? f[k] : 0.0) - a;
      }
}

void
boxmg_residual (struct boxmg_level *l)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    residual_row (l, j, l->u, l->f, l->r);
}

void
boxmg_restrict (const struct boxmg_level *fine, struct boxmg_level *coarse)
{
  const size_t fs = fine->stride, cs = coarse->stride;
  const double *restrict r = fine->r;
  const double *restrict p0 = fine->p[0], *restrict p1 = fine->p[1],
    *restrict p2 = fine->p[2], *restrict p3 = fine->p[3];
  double *restrict f = coarse->f;
#pragma omp parallel for schedule(static) if (threaded (fine))
  for (size_t J = 1; J <= coarse->ny; ++J)
    for (size_t I = 1; I <= coarse->nx; ++I)
      {
        /* The fine nodes around (2I, 2J): those west of or below it see
           this coarse node as their east or north one.  */
        const size_t k = 2 * J * fs + 2 * I;
        const size_t b = k - fs, t = k + fs;
        f[J * cs + I] = p3[b - 1] * r[b - 1] + p2[b] * r[b] + p2[b + 1]
                        * r[b + 1]
                        + p1[k - 1] * r[k - 1] + p0[k] * r[k]
                        + p0[k + 1] * r[k + 1]
                        + p1[t - 1] * r[t - 1] + p0[t] * r[t]
                        + p0[t + 1] * r[t + 1];
      }
}

void
boxmg_prolong (struct boxmg_level *fine, const struct boxmg_level *coarse)
{
  const size_t fs = fine->stride, cs = coarse->stride;
  const double *restrict uc = coarse->u;
  const double *restrict p0 = fine->p[0], *restrict p1 = fine->p[1],
    *restrict p2 = fine->p[2], *restrict p3 = fine->p[3];
  double *restrict u = fine->u;
#pragma omp parallel for schedule(static) if (threaded (fine))
  for (size_t j = 1; j <= fine->ny; ++j)
    for (size_t i = 1; i <= fine->nx; ++i)
      {
        const size_t k = j * fs + i;
        const size_t q = (j / 2) * cs + i / 2;
        u[k] += p0[k] * uc[q] + p1[k] * uc[q + 1] + p2[k] * uc[q + cs]
                + p3[k] * uc[q + cs + 1];
      }
}

void
boxmg_zero (struct boxmg_level *l, double *u)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      u[j * l->stride + i] = 0.0;
}

/* The rows' partial sums in order.  */
static double
sum_rows (const struct boxmg_level *l)
{
  double sum = 0.0;
  for (size_t j = 0; j < l->ny; ++j)
    sum += l->row_sum[j];
  return sum;
}

double
boxmg_true_residual (struct boxmg_level *l, const double *mass,
                     const double *u, const double *f, double *r)
{
  const ptrdiff_t st = (ptrdiff_t) l->stride;
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = j * l->stride + i;
        r[k] = (f != NULL ? f[k] : 0.0) - mass[k] * u[k]
               - boxmg_flows5 (u + k, l->w + k, l->s + k, st);
      }
  return boxmg_dot (l, r, r);
}

double
boxmg_floor (struct boxmg_level *l, const double *mass, const double *u,
             const double *f)
{
  const ptrdiff_t st = (ptrdiff_t) l->stride;
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    {
      double sum = 0.0;
      for (size_t i = 1; i <= l->nx; ++i)
        {
          const size_t k = j * l->stride + i;
          const double m = boxmg_terms5 (f != NULL ? f[k] : 0.0, u + k,
                                         mass[k], l->w + k, l->s + k, st);
          sum += m * m;
        }
      l->row_sum[j - 1] = sum;
    }
  return sqrt (sum_rows (l));
}

double
boxmg_apply (struct boxmg_level *l, const double *p, double *q)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    {
      residual_row (l, j, p, NULL, q);
      double sum = 0.0;
      for (size_t i = 1; i <= l->nx; ++i)
        {
          const size_t k = j * l->stride + i;
          q[k] = -q[k];
          sum += p[k] * q[k];
        }
      l->row_sum[j - 1] = sum;
    }
  return sum_rows (l);
}

double
boxmg_update (struct boxmg_level *l, double alpha, const double *p,
              const double *q, double *u, double *r)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    {
      double sum = 0.0;
      for (size_t i = 1; i <= l->nx; ++i)
        {
          const size_t k = j * l->stride + i;
          u[k] += alpha * p[k];
          r[k] -= alpha * q[k];
          sum += r[k] * r[k];
        }
      l->row_sum[j - 1] = sum;
    }
  return sum_rows (l);
}

void
boxmg_direction (struct boxmg_level *l, double beta, const double *z,
                 double *p)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = j * l->stride + i;
        p[k] = z[k] + beta * p[k];
      }
}

double
boxmg_dot (struct boxmg_level *l, const double *a, const double *b)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    {
      double sum = 0.0;
      for (size_t i = 1; i <= l->nx; ++i)
        sum += a[j * l->stride + i] * b[j * l->stride + i];
      l->row_sum[j - 1] = sum;
    }
  return sum_rows (l);
}

double
boxmg_weighted_sum (struct boxmg_level *l, const double *w, const double *a)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    {
      double sum = 0.0;
      for (size_t i = 1; i <= l->nx; ++i)
        {
          const size_t k = j * l->stride + i;
          sum += (w != NULL ? w[k] : 1.0) * a[k];
        }
      l->row_sum[j - 1] = sum;
    }
  return sum_rows (l);
}

void
boxmg_shift (struct boxmg_level *l, double shift, double *a)
{
#pragma omp parallel for schedule(static) if (threaded (l))
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      a[j * l->stride + i] += shift;
}
