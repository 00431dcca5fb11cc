/* The multigrid host loops whose speed depends on the vector width:
   the smoothers, the residual and its norms (mg_kernels.c reaches them
   through host_kernels).  Parallel for, serial below PARALLEL_MIN
   cells, over rows that run in registers where a level's weights are
   even.  A variant file (see host_isa.h): compiled once per host path,
   each copy's kernels named by HOST_ISA_NAME; no target region here.  */
#include <config.h>

#include "host_isa.h"

#include <omp.h>
#include <stddef.h>

#include "mg_cell.h"
#include "mg_internal.h"
#include "mg_rows.h"

/* The cells of one colour in columns first .. last of row j; f NULL
   for a zero right-hand side, read as 0.0: the same sums, so the same
   bits, without its loads.  */
static inline void
smooth_span (size_t first, size_t last, size_t stride, double *restrict u,
             const double *restrict f, const double *restrict axm,
             const double *restrict axp, double ym, double yp, double c0,
             double omega, unsigned color, size_t j)
{
  for (size_t i = first + ((first + j + color) & 1); i <= last; i += 2)
    smooth_at (u + j * stride + i, f != NULL ? f[j * stride + i] : 0.0,
               (ptrdiff_t) stride, axm[i], axp[i], ym, yp, c0, omega);
}

/* smooth_span with the x weights xm and xp in every column: the cells
   of one colour are independent, so the loop over them vectorises.  */
static inline void
smooth_span_even (size_t first, size_t last, size_t stride, double *restrict u,
                  const double *restrict f, double xm, double xp, double ym,
                  double yp, double c0, double omega, unsigned color,
                  size_t j)
{
  const double inverse = 1.0 / (c0 + ym + yp + xm + xp);
  double *restrict row = u + j * stride;
  const double *restrict south = row - stride, *restrict north = row + stride;
  const double *restrict fr = f != NULL ? f + j * stride : NULL;
  const size_t i0 = first + ((first + j + color) & 1);
  if (i0 > last)
    return;
  const size_t n = (last - i0) / 2 + 1;
#pragma omp simd
  for (size_t h = 0; h < n; ++h)
    {
      const size_t i = i0 + 2 * h;
      const double gs = ((fr != NULL ? fr[i] : 0.0) + xm * row[i - 1]
                         + xp * row[i + 1] + ym * south[i] + yp * north[i])
                        * inverse;
      row[i] += omega * (gs - row[i]);
    }
}

/* The cells of one colour in row j (f NULL: zero).  The even runs
   call smooth_span_even with a NULL that the compiler sees, for a loop
   without the test or the loads.  */
static inline void
smooth_row (const struct row_runs *runs, size_t stride, double *restrict u,
            const double *restrict f, const double *restrict axm,
            const double *restrict axp, const double *restrict aym,
            const double *restrict ayp, double c0, double omega,
            unsigned color, size_t j)
{
  for (size_t k = 0; k < runs->count; ++k)
    if (runs->even[k] && f == NULL)
      smooth_span_even (runs->first[k], runs->last[k], stride, u, NULL,
                        runs->xm, runs->xp, aym[j], ayp[j], c0, omega, color,
                        j);
    else if (runs->even[k])
      smooth_span_even (runs->first[k], runs->last[k], stride, u, f, runs->xm,
                        runs->xp, aym[j], ayp[j], c0, omega, color, j);
    else
      smooth_span (runs->first[k], runs->last[k], stride, u, f, axm, axp,
                   aym[j], ayp[j], c0, omega, color, j);
}

/* Columns first .. last of row j's terms of the residual norms added to
   the column sums rr (of the squares) and mm (of the squared scales),
   column i at i - 1, scaled as in band_sums; weights and f as in
   residual_span.  */
static inline void
norm_span (size_t first, size_t last, size_t stride, const double *restrict u,
           const double *restrict f, const double *restrict axm,
           const double *restrict axp, double xm, double xp, double ym,
           double yp, double c0, double sr, double sm, double *restrict rr,
           double *restrict mm, size_t j)
{
  const size_t c = j * stride;
  double scale;
  for (size_t i = first; i <= last; ++i)
    {
      const double r = sr * residual_at (u + c + i,
                                         f != NULL ? f[c + i] : 0.0,
                                         (ptrdiff_t) stride,
                                         axm != NULL ? axm[i] : xm,
                                         axp != NULL ? axp[i] : xp, ym, yp,
                                         c0, &scale);
      scale *= sm;
      rr[i - 1] += r * r;
      mm[i - 1] += scale * scale;
    }
}

/* Row j's terms of the residual norms (f NULL: zero), as residual_row.  */
static inline void
norm_row (const struct row_runs *runs, size_t stride, const double *restrict u,
          const double *restrict f, const double *restrict axm,
          const double *restrict axp, double ym, double yp, double c0,
          double sr, double sm, double *restrict rr, double *restrict mm,
          size_t j)
{
  for (size_t k = 0; k < runs->count; ++k)
    {
      const size_t first = runs->first[k], last = runs->last[k];
      const double xm = runs->xm, xp = runs->xp;
      if (!runs->even[k])
        norm_span (first, last, stride, u, f, axm, axp, xm, xp, ym, yp, c0, sr,
                   sm, rr, mm, j);
      else if (f == NULL)
        norm_span (first, last, stride, u, NULL, NULL, NULL, xm, xp, ym, yp,
                   c0, sr, sm, rr, mm, j);
      else
        norm_span (first, last, stride, u, f, NULL, NULL, xm, xp, ym, yp, c0,
                   sr, sm, rr, mm, j);
    }
}

/* ---- red-black smoothing, one colour */

void
HOST_ISA_NAME (mg_smooth) (size_t nx, size_t ny, size_t stride,
                           double *restrict u, const double *restrict f,
                           const double *restrict axm,
                           const double *restrict axp,
                           const double *restrict aym,
                           const double *restrict ayp, double c0, double omega,
                           unsigned color)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    smooth_row (&runs, stride, u, f, axm, axp, aym, ayp, c0, omega, color, j);
}

/* Both colours of a sweep (color, then the other) in one pass over the
   rows, for a level whose halo is not refreshed between them: each
   thread takes a band of rows, j0 .. j1, and updates the first colour
   in row j, then the second in row j - 1, whose neighbours of the first
   colour are then all new; the second colour's rows j0 and j1, whose
   neighbours lie in the bands beside, wait for every band.  Every cell
   sees the values the two passes of smooth_host give it, so the result
   is bitwise theirs, from one read of the level instead of two.  */
void
HOST_ISA_NAME (mg_sweep) (size_t nx, size_t ny, size_t stride,
                          double *restrict u, const double *restrict f,
                          const double *restrict axm,
                          const double *restrict axp,
                          const double *restrict aym,
                          const double *restrict ayp, double c0, double omega,
                          unsigned color)
{
  const unsigned other = color ^ 1;
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel if (nx * ny >= PARALLEL_MIN)
  {
    const size_t bands = (size_t) omp_get_num_threads ();
    const size_t b = (size_t) omp_get_thread_num ();
    const size_t j0 = 1 + ny * b / bands, j1 = ny * (b + 1) / bands;
    for (size_t j = j0; j <= j1; ++j)
      {
        smooth_row (&runs, stride, u, f, axm, axp, aym, ayp, c0, omega, color,
                    j);
        if (j > j0 + 1)
          smooth_row (&runs, stride, u, f, axm, axp, aym, ayp, c0, omega,
                      other, j - 1);
      }
#pragma omp barrier
    if (j0 <= j1)
      smooth_row (&runs, stride, u, f, axm, axp, aym, ayp, c0, omega, other,
                  j0);
    if (j0 < j1)
      smooth_row (&runs, stride, u, f, axm, axp, aym, ayp, c0, omega, other,
                  j1);
  }
}

/* ---- residual r = f - A u, and the weighted Jacobi update from it */

void
HOST_ISA_NAME (mg_residual) (size_t nx, size_t ny, size_t stride,
                             const double *restrict u,
                             const double *restrict f, double *restrict r,
                             const double *restrict axm,
                             const double *restrict axp,
                             const double *restrict aym,
                             const double *restrict ayp, double c0)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    residual_row (&runs, stride, u, f, r + j * stride, axm, axp, aym[j],
                  ayp[j], c0, j);
}

void
HOST_ISA_NAME (mg_jacobi) (size_t nx, size_t ny, size_t stride,
                           double *restrict u, const double *restrict r,
                           const double *restrict axm,
                           const double *restrict axp,
                           const double *restrict aym,
                           const double *restrict ayp, double c0, double omega)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      u[j * stride + i] += omega * r[j * stride + i]
                      / (c0 + aym[j] + ayp[j] + axm[i] + axp[i]);
}

/* ---- sums: the residual norms (mg_host.c says how they are summed).
   The host takes the same sums row by row: each column's running sum
   gets the band's rows in band_sums' order, so the partial sums are
   bitwise the device's, while the inner loop runs along a row (unit
   stride, vectorised) rather than down a column.  zero_f: f is zero
   and not read.  */
void
HOST_ISA_NAME (mg_bands) (size_t nx, size_t ny, size_t stride,
                          const double *restrict u, const double *restrict f,
                          bool zero_f, const double *restrict axm,
                          const double *restrict axp,
                          const double *restrict aym,
                          const double *restrict ayp, double c0, double sr,
                          double sm, struct shares shares,
                          double *restrict part)
{
  const size_t nb = norm_bands (ny);
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t b = 0; b < nb; ++b)
    {
      double *restrict rr = part + b * nx, *restrict mm = part + (nb + b) * nx;
      const size_t j1 = (b + 1) * NORM_BAND < ny ? (b + 1) * NORM_BAND : ny;
      for (size_t i = 0; i < nx; ++i)
        rr[i] = mm[i] = 0.0;
      for (size_t j = b * NORM_BAND + 1; j <= j1; ++j)
        if (f == NULL)
          {
            const double row = share_at (j, ny, shares.bottom, shares.top);
            for (size_t i = 1; i <= nx; ++i)
              rr[i - 1] += share_at (i, nx, shares.left, shares.right) * row
                           * u[j * stride + i];
          }
        else
          norm_row (&runs, stride, u, zero_f ? NULL : f, axm, axp, aym[j],
                    ayp[j], c0, sr, sm, rr, mm, j);
    }
}
