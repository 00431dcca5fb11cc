/* The host loops of the multigrid kernels (mg_kernels.c dispatches to
   them): parallel for, serial below PARALLEL_MIN cells, over rows that
   run in registers where a level's weights are even.  */
#include <config.h>

#include "mg_internal.h"

#include <omp.h>
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

/* The common weights are those of a column a quarter of the way in,
   away from the ends and from a middle left unmerged; past RUNS_MAX - 1
   runs the rest of the row reads the arrays.  */
void
row_runs (size_t nx, const double *axm, const double *axp,
          struct row_runs *runs)
{
  const size_t c = (nx + 3) / 4;
  runs->xm = axm[c];
  runs->xp = axp[c];
  runs->count = 0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const bool even = axm[i] == runs->xm && axp[i] == runs->xp;
      const size_t k = runs->count;
      if (k > 0 && (runs->even[k - 1] == even || k == RUNS_MAX))
        {
          runs->even[k - 1] = runs->even[k - 1] && even;
          runs->last[k - 1] = i;
          continue;
        }
      runs->first[k] = runs->last[k] = i;
      runs->even[k] = even;
      runs->count = k + 1;
    }
}

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

/* f - A u in columns first .. last of row j into out: with the weights
   xm, xp, or where axm is not NULL those of the arrays; f NULL: zero.  */
static inline void
residual_span (size_t first, size_t last, size_t stride,
               const double *restrict u, const double *restrict f,
               double *restrict out, const double *restrict axm,
               const double *restrict axp, double xm, double xp, double ym,
               double yp, double c0, size_t j)
{
  const size_t c = j * stride;
  double scale;
  for (size_t i = first; i <= last; ++i)
    out[i] = residual_at (u + c + i, f != NULL ? f[c + i] : 0.0,
                          (ptrdiff_t) stride, axm != NULL ? axm[i] : xm,
                          axp != NULL ? axp[i] : xp, ym, yp, c0, &scale);
}

/* Row j of f - A u into out[1 .. nx] (f NULL: zero).  The NULLs of the
   even runs are spelled out, as in smooth_row.  */
void
residual_row (const struct row_runs *runs, size_t stride,
              const double *restrict u, const double *restrict f,
              double *restrict out, const double *restrict axm,
              const double *restrict axp, double ym, double yp, double c0,
              size_t j)
{
  for (size_t k = 0; k < runs->count; ++k)
    {
      const size_t first = runs->first[k], last = runs->last[k];
      const double xm = runs->xm, xp = runs->xp;
      if (!runs->even[k])
        residual_span (first, last, stride, u, f, out, axm, axp, xm, xp, ym,
                       yp, c0, j);
      else if (f == NULL)
        residual_span (first, last, stride, u, NULL, out, NULL, NULL, xm, xp,
                       ym, yp, c0, j);
      else
        residual_span (first, last, stride, u, f, out, NULL, NULL, xm, xp, ym,
                       yp, c0, j);
    }
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
smooth_host (size_t nx, size_t ny, size_t stride, double *restrict u,
             const double *restrict f, const double *restrict axm,
             const double *restrict axp, const double *restrict aym,
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
sweep_host (size_t nx, size_t ny, size_t stride, double *restrict u,
            const double *restrict f, const double *restrict axm,
            const double *restrict axp, const double *restrict aym,
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
residual_host (size_t nx, size_t ny, size_t stride, const double *restrict u,
               const double *restrict f, double *restrict r,
               const double *restrict axm, const double *restrict axp,
               const double *restrict aym, const double *restrict ayp,
               double c0)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    residual_row (&runs, stride, u, f, r + j * stride, axm, axp, aym[j],
                  ayp[j], c0, j);
}

void
jacobi_host (size_t nx, size_t ny, size_t stride, double *restrict u,
             const double *restrict r, const double *restrict axm,
             const double *restrict axp, const double *restrict aym,
             const double *restrict ayp, double c0, double omega)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      u[j * stride + i] += omega * r[j * stride + i]
                      / (c0 + aym[j] + ayp[j] + axm[i] + axp[i]);
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

/* The host takes the same sums row by row: each column's running sum
   gets the band's rows in band_sums' order, so the partial sums are
   bitwise the device's, while the inner loop runs along a row (unit
   stride, vectorised) rather than down a column.  zero_f: f is zero
   and not read.  */
void
bands_host (size_t nx, size_t ny, size_t stride, const double *restrict u,
            const double *restrict f, bool zero_f, const double *restrict axm,
            const double *restrict axp, const double *restrict aym,
            const double *restrict ayp, double c0, double sr, double sm,
            struct shares shares, double *restrict part)
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
