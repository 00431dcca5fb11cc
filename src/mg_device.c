/* The target loops of the multigrid kernels (mg_kernels.c dispatches to
   them and maps their arrays): no map clause, they find their arrays in
   the device data environment.  */
#include <config.h>

#include "mg_internal.h"

#include <stddef.h>

#include "mg_cell.h"

void
halo_target (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
             double *u, int device)
{
  const ptrdiff_t ls = h->left, rs = h->right, bs = h->bottom, ts = h->top;
  const bool corners = h->corners;
  const int n = (int) (nx > ny ? nx : ny), istride = (int) stride;
  const int inx = (int) nx, iny = (int) ny;
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 0; k <= n; ++k)
    halo_at (u, k, inx, iny, istride, ls, rs, bs, ts, corners);
}

/* The cells of one colour are every other cell of a row: the loop runs
   over half a row, rounded up, and skips the one past the end.  */
void
smooth_target (int nx, int ny, int stride, double *restrict u,
               const double *restrict f, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0, double omega,
               int color, int device)
{
  const int half = (nx + 1) / 2;
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int h = 0; h < half; ++h)
      {
        const int i = 1 + ((1 + j + color) & 1) + 2 * h;
        if (i <= nx)
          smooth_at (u + j * stride + i, f[j * stride + i], stride, axm[i],
                     axp[i], aym[j], ayp[j], c0, omega);
      }
}

void
residual_target (int nx, int ny, int stride, const double *restrict u,
                 const double *restrict f, double *restrict r,
                 const double *restrict axm, const double *restrict axp,
                 const double *restrict aym, const double *restrict ayp,
                 double c0, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      {
        double scale;
        r[j * stride + i] = residual_at (u + j * stride + i, f[j * stride + i],
                                         stride, axm[i], axp[i], aym[j],
                                         ayp[j], c0, &scale);
      }
}

void
jacobi_target (int nx, int ny, int stride, double *restrict u,
               const double *restrict r, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0, double omega,
               int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      u[j * stride + i] += omega * r[j * stride + i]
                      / (c0 + aym[j] + ayp[j] + axm[i] + axp[i]);
}

/* One team: its threads share the phases, with the barriers of the
   worksharing loops between them.  */
void
coarsest_target (const struct halo_src *h, int nx, int ny, int stride,
                 double *restrict u, const double *restrict f,
                 double *restrict r, const double *restrict axm,
                 const double *restrict axp, const double *restrict aym,
                 const double *restrict ayp, double c0,
                 const double *restrict inverse, int device)
{
  const ptrdiff_t ls = h->left, rs = h->right, bs = h->bottom, ts = h->top;
  const bool corners = h->corners;
  const int n = nx * ny, lines = nx > ny ? nx : ny;
#pragma omp target device(device)
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int k = 0; k <= lines; ++k)
      halo_at (u, k, nx, ny, stride, ls, rs, bs, ts, corners);
#pragma omp for schedule(static)
    for (int q = 0; q < n; ++q)
      {
        const int c = (q / nx + 1) * stride + q % nx + 1, i = q % nx + 1;
        const int j = q / nx + 1;
        double scale;
        r[q] = residual_at (u + c, f[c], stride, axm[i], axp[i], aym[j],
                            ayp[j], c0, &scale);
      }
#pragma omp for schedule(static)
    for (int p = 0; p < n; ++p)
      u[(p / nx + 1) * stride + p % nx + 1] += dense_row (inverse, r,
                                                          (size_t) n,
                                                          (size_t) p);
  }
}

void
bands_target (int nx, int ny, int stride, const double *restrict u,
              const double *restrict f, const double *restrict axm,
              const double *restrict axp, const double *restrict aym,
              const double *restrict ayp, double c0, double sr, double sm,
              struct shares shares, double *restrict part, int device)
{
  const int nb = (int) norm_bands ((size_t) ny);
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int b = 0; b < nb; ++b)
    for (int i = 1; i <= nx; ++i)
      band_sums (u, f, (size_t) stride, axm, axp, aym, ayp, c0, (size_t) nx,
                 (size_t) ny, (size_t) b, (size_t) i, sr, sm, shares,
                 &part[b * nx + i - 1], &part[(nb + b) * nx + i - 1]);
}

/* One team: the columns in parallel, then one thread.  */
void
totals_target (int nx, int nb, double *restrict part, double out[2],
               int device)
{
  double rr, mm;
  /* map(from:) gives rr and mm storage on the device but not their
     values: they start in the region.  */
#pragma omp target device(device) map(from: rr, mm)
  {
    double *col = part + 2 * nb * nx;
    rr = 0.0;
    mm = 0.0;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < 2 * nx; ++k)
      {
        const int q = k / nx, i = k % nx;
        double sum = 0.0;
        for (int b = 0; b < nb; ++b)
          sum += part[(q * nb + b) * nx + i];
        col[k] = sum;
      }
    for (int i = 0; i < nx; ++i)
      rr += col[i];
    for (int i = 0; i < nx; ++i)
      mm += col[nx + i];
  }
  out[0] = rr;
  out[1] = mm;
}

void
set_target (int nx, int ny, int stride, double *restrict dst,
            const double *restrict src, double shift, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      dst[j * stride + i] = (src != NULL ? src[j * stride + i] : 0.0) + shift;
}

void
shift_target (int nx, int ny, int stride, double *u, double shift, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      u[j * stride + i] += shift;
}
