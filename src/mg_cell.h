/* The cell functions of the multigrid kernels, declared for the device:
   the host and target loops call the same ones, so every placement
   computes each value by the same operations in the same order.  */
#ifndef HEATSIM_MG_CELL_H
#define HEATSIM_MG_CELL_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "mg_internal.h"

#pragma omp declare target

/* Halo cells of line k = 0 .. max (nx, ny): cell k of the bottom and top
   rows, cell k of the side columns, and with k = 0 the four corners.  A
   corner reads the interior cell its row and column copy from, the value
   the sequential order (rows, then full columns) gives it.  */
static inline void
halo_at (double *u, ptrdiff_t k, ptrdiff_t nx, ptrdiff_t ny, ptrdiff_t stride,
         ptrdiff_t ls, ptrdiff_t rs, ptrdiff_t bs, ptrdiff_t ts,
         bool corners)
{
  if (k >= 1 && k <= nx)
    {
      if (bs != 0)
        u[k] = u[bs * stride + k];
      if (ts != 0)
        u[(ny + 1) * stride + k] = u[ts * stride + k];
    }
  if (k >= 1 && k <= ny)
    {
      if (ls != 0)
        u[k * stride] = u[k * stride + ls];
      if (rs != 0)
        u[k * stride + nx + 1] = u[k * stride + rs];
    }
  if (k == 0 && corners)
    {
      u[0] = u[bs * stride + ls];
      u[nx + 1] = u[bs * stride + rs];
      u[(ny + 1) * stride] = u[ts * stride + ls];
      u[(ny + 1) * stride + nx + 1] = u[ts * stride + rs];
    }
}

/* f - A u at the cell u points at (f its right-hand side), and in *scale
   the sum of the magnitudes of its terms, the scale of its round-off,
   plus diag DBL_MIN: where u is subnormal its spacing, DBL_TRUE_MIN =
   eps DBL_MIN, not its magnitude, bounds how close an iterate can get
   (the term is lost to rounding wherever u is normal).  */
static inline double
residual_at (const double *u, double f, ptrdiff_t stride, double xm, double xp,
             double ym, double yp, double c0, double *scale)
{
  const double diag = c0 + ym + yp + xm + xp;
  const double centre = diag * u[0];
  const double west = xm * u[-1], east = xp * u[1];
  const double south = ym * u[-stride], north = yp * u[stride];
  *scale = fabs (f) + fabs (centre) + fabs (west) + fabs (east)
           + fabs (south) + fabs (north) + diag * DBL_MIN;
  return f - (centre - west - east - south - north);
}

/* One red-black SOR update of the cell u points at: omega of the way to
   its Gauss-Seidel value, in place.  The sum is multiplied by the
   reciprocal of the diagonal, which a run of equal diagonals computes
   once (smooth_span_even): a division per cell would bound the host
   loop.  */
static inline void
smooth_at (double *u, double f, ptrdiff_t stride, double xm, double xp,
           double ym, double yp, double c0, double omega)
{
  const double inverse = 1.0 / (c0 + ym + yp + xm + xp);
  const double gs = (f + xm * u[-1] + xp * u[1] + ym * u[-stride]
                     + yp * u[stride])
                    * inverse;
  u[0] += omega * (gs - u[0]);
}

/* (R (f - A u)) at coarse node (ic, jc): the fine residual at the up to 3 x
   3 fine nodes it gathers, computed where it is used rather than stored
   (a fine node is read by up to four coarse nodes: 2.25 residuals per
   fine node instead of a write and a read of r).  */
static inline double
restrict_at (const double *u, const double *f, ptrdiff_t stride,
             const double *axm, const double *axp, const double *aym,
             const double *ayp, double c0, const size_t *rxi,
             const double *rxw, const size_t *ryi, const double *ryw,
             size_t ic, size_t jc)
{
  double sum = 0.0, scale;
  for (size_t k = 3 * ic; k < 3 * ic + 3; ++k)
    {
      const size_t i = rxi[k];
      double col = 0.0;
      for (size_t m = 3 * jc; m < 3 * jc + 3; ++m)
        {
          const size_t j = ryi[m];
          const size_t c = j * (size_t) stride + i;
          const double r = residual_at (u + c, f[c], stride, axm[i], axp[i],
                                        aym[j], ayp[j], c0, &scale);
          col = m == 3 * jc ? ryw[m] * r : col + ryw[m] * r;
        }
      sum += rxw[k] * col;
    }
  return sum;
}

/* (P uc) at fine node (i, j): linear in y between coarse rows, then in
   x between coarse columns.  */
static inline double
prolong_at (const double *uc, size_t coarse_stride, const size_t *pxi,
            const double *pxw, const size_t *pyi, const double *pyw,
            size_t i, size_t j)
{
  const double *lo = uc + pyi[j] * coarse_stride, *hi = lo + coarse_stride;
  const double wy = pyw[j], wx = pxw[i];
  const size_t ic = pxi[i];
  const double t0 = wy * lo[ic] + (1.0 - wy) * hi[ic];
  const double t1 = wy * lo[ic + 1] + (1.0 - wy) * hi[ic + 1];
  return wx * t0 + (1.0 - wx) * t1;
}

/* Cell k of the n = nx ny unknowns of a level, row by row.  */
static inline size_t
unknown_cell (size_t k, size_t nx, size_t stride)
{
  return (k / nx + 1) * stride + k % nx + 1;
}

/* Row p of A^-1 times the residual vector r (n entries).  */
static inline double
dense_row (const double *inverse, const double *r, size_t n, size_t p)
{
  double sum = 0.0;
  for (size_t q = 0; q < n; ++q)
    sum += inverse[p * n + q] * r[q];
  return sum;
}

/* The share of a full control volume of node k of n along an axis whose
   first and last nodes own first and last.  */
static inline double
share_at (size_t k, size_t n, double first, double last)
{
  return (k == 1 ? first : 1.0) * (k == n ? last : 1.0);
}

/* Sums of column i over the rows of band b of the residual norms
   (rr, mm), each term scaled by sr (of the residual) and sm (of its
   scale) first, or, without f, of u itself, each node weighted by its
   share (sum, 0).  Rows in order.  */
static inline void
band_sums (const double *u, const double *f, size_t stride, const double *axm,
           const double *axp, const double *aym, const double *ayp,
           double c0, size_t nx, size_t ny, size_t b, size_t i, double sr,
           double sm, struct shares s, double *rr, double *mm)
{
  const size_t j1 = (b + 1) * NORM_BAND < ny ? (b + 1) * NORM_BAND : ny;
  const double column = share_at (i, nx, s.left, s.right);
  double a = 0.0, m = 0.0;
  for (size_t j = b * NORM_BAND + 1; j <= j1; ++j)
    {
      const size_t c = j * stride + i;
      if (f == NULL)
        {
          a += column * share_at (j, ny, s.bottom, s.top) * u[c];
          continue;
        }
      double scale;
      const double r = sr * residual_at (u + c, f[c], (ptrdiff_t) stride,
                                         axm[i], axp[i], aym[j], ayp[j], c0,
                                         &scale);
      scale *= sm;
      a += r * r;
      m += scale * scale;
    }
  *rr = a;
  *mm = m;
}

#pragma omp end declare target

#endif
