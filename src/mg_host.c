/* The host loops of the multigrid kernels (mg_kernels.c dispatches to
   them) whose speed does not hang on the vector width: halo lines, the
   coarsest level, the sums' totals, shifts.  Parallel for, serial below
   PARALLEL_MIN cells.  The others, built for each host path, are in
   mg_host_vector.c.  */
#include <config.h>

#include "mg_internal.h"

#include <stddef.h>

#include "mg_cell.h"

/* ---- halo */

void
halo_host (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
           double *u)
{
  const ptrdiff_t ls = h->left, rs = h->right, bs = h->bottom, ts = h->top;
  const bool corners = h->corners;
  const ptrdiff_t n = (ptrdiff_t) (nx > ny ? nx : ny);
#pragma omp parallel for schedule(static) if (n >= PARALLEL_MIN)
  for (ptrdiff_t k = 0; k <= n; ++k)
    halo_at (u, k, (ptrdiff_t) nx, (ptrdiff_t) ny, (ptrdiff_t) stride, ls,
             rs, bs, ts, corners);
}

/* ---- the coarsest level: halo, residual and u += A^-1 r, one kernel.
   Its r holds the residual vector of its n <= DENSE_MAX unknowns.  */

void
coarsest_host (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
               double *restrict u, const double *restrict f,
               double *restrict r, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0,
               const double *restrict inverse)
{
  const size_t n = nx * ny, lines = nx > ny ? nx : ny;
  for (size_t k = 0; k <= lines; ++k)
    halo_at (u, (ptrdiff_t) k, (ptrdiff_t) nx, (ptrdiff_t) ny,
             (ptrdiff_t) stride, h->left, h->right, h->bottom, h->top,
             h->corners);
  for (size_t q = 0; q < n; ++q)
    {
      const size_t c = unknown_cell (q, nx, stride), i = q % nx + 1;
      const size_t j = q / nx + 1;
      double scale;
      r[q] = residual_at (u + c, f[c], (ptrdiff_t) stride, axm[i], axp[i],
                          aym[j], ayp[j], c0, &scale);
    }
  for (size_t p = 0; p < n; ++p)
    u[unknown_cell (p, nx, stride)] += dense_row (inverse, r, n, p);
}

/* ---- sums: the residual norms, or the interior sum of a field.
   Deterministic in two kernels whatever the threads, teams or placement:
   the first writes, per column and band of NORM_BAND rows, the sum over
   the band's rows in order (part[q][b][i], q = 0, 1 the two quantities);
   the second sums each column's bands in order, then the columns in
   order on one thread, and only its two doubles leave the device.  That
   last loop is nx dependent additions on one GPU thread (tens of
   microseconds at 4096 columns), the price of an order that does not
   depend on the device; a fixed-shape tree would be the next step.  */

void
totals_host (size_t nx, size_t nb, double *restrict part, double out[2])
{
  double *col = part + 2 * nb * nx;
#pragma omp parallel for schedule(static) if (nx * nb >= PARALLEL_MIN)
  for (size_t k = 0; k < 2 * nx; ++k)
    {
      const size_t q = k / nx, i = k % nx;
      double sum = 0.0;
      for (size_t b = 0; b < nb; ++b)
        sum += part[(q * nb + b) * nx + i];
      col[k] = sum;
    }
  for (size_t q = 0; q < 2; ++q)
    {
      double sum = 0.0;
      for (size_t i = 0; i < nx; ++i)
        sum += col[q * nx + i];
      out[q] = sum;
    }
}

/* ---- interior updates: dst = src + shift (src NULL: shift), and
   u += shift */

void
set_host (size_t nx, size_t ny, size_t stride, double *restrict dst,
          const double *restrict src, double shift)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      dst[j * stride + i] = (src != NULL ? src[j * stride + i] : 0.0) + shift;
}

void
shift_host (size_t nx, size_t ny, size_t stride, double *u, double shift)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      u[j * stride + i] += shift;
}
