/* The multigrid transfers' host loops: the residual and its
   restriction in one pass (from a level-sized residual where a level is
   split), and the prolongation with the correction (mg_transfer.c
   reaches them through host_kernels).  Rows run in registers where a
   level halves evenly.  A variant file (see host_isa.h): compiled once
   per host path, each copy's kernels named by HOST_ISA_NAME; no target
   region here.  */
#include <config.h>

#include "host_isa.h"

#include <omp.h>
#include <stdbool.h>
#include <stddef.h>

#include "mg_internal.h"
#include "mg_rows.h"

/* Whether the three taps after these gather the fine nodes two further
   on with the same weights.  */
static bool
same_taps (const size_t *ri, const double *rw)
{
  bool same = true;
  for (size_t k = 0; k < 3; ++k)
    same = same && ri[k + 3] == ri[k] + 2 && rw[k + 3] == rw[k];
  return same;
}

/* Where a level halves evenly, coarse node ic + 1 gathers the fine nodes
   two after those of ic with ic's weights: the runs of such nodes.  */
static void
restrict_runs (size_t nxc, const size_t *rxi, const double *rxw,
               struct regular_runs *runs)
{
  runs->count = 0;
  for (size_t ic = 1; ic <= nxc && runs->count < RUNS_MAX; ++ic)
    {
      size_t e = ic;
      while (e + 1 <= nxc && same_taps (rxi + 3 * e, rxw + 3 * e))
        ++e;
      if (e - ic + 1 < RUN_MIN)
        continue;
      runs->first[runs->count] = ic;
      runs->last[runs->count++] = e;
      ic = e;
    }
}

/* Coarse nodes first .. last of row jc of R r (weights w0 .. w2 of the
   fine rows r0 .. r2): restrict_at's values in its order.  */
static inline void
restrict_span (size_t first, size_t last, double *restrict fc,
               double *restrict uc, const double *restrict r0,
               const double *restrict r1, const double *restrict r2,
               double w0, double w1, double w2, const size_t *restrict rxi,
               const double *restrict rxw)
{
  for (size_t ic = first; ic <= last; ++ic)
    {
      double sum = 0.0;
      for (size_t k = 3 * ic; k < 3 * ic + 3; ++k)
        {
          const size_t i = rxi[k];
          sum += rxw[k] * (w0 * r0[i] + w1 * r1[i] + w2 * r2[i]);
        }
      fc[ic] = sum;
      uc[ic] = 0.0;
    }
}

/* Coarse row jc of fc = R r from the fine residual rows r[0 .. 2] that
   its node gathers (ryi[3J .. 3J+2], weights ryw), the runs with the
   same sums written out.  */
static void
restrict_row (const struct regular_runs *runs, size_t nxc,
              double *restrict fc, double *restrict uc,
              const double *const r[3], const size_t *restrict rxi,
              const double *restrict rxw, const double *restrict ryw,
              size_t jc)
{
  const double w0 = ryw[3 * jc], w1 = ryw[3 * jc + 1], w2 = ryw[3 * jc + 2];
  const double *restrict r0 = r[0], *restrict r1 = r[1], *restrict r2 = r[2];
  size_t ic = 1;
  for (size_t k = 0; k < runs->count; ++k)
    {
      restrict_span (ic, runs->first[k] - 1, fc, uc, r0, r1, r2, w0, w1, w2,
                     rxi, rxw);
      ic = runs->first[k];
      const size_t n = runs->last[k] - ic + 1;
      const size_t i0 = rxi[3 * ic], i1 = rxi[3 * ic + 1],
                   i2 = rxi[3 * ic + 2];
      const double a0 = rxw[3 * ic], a1 = rxw[3 * ic + 1],
                   a2 = rxw[3 * ic + 2];
#pragma omp simd
      for (size_t h = 0; h < n; ++h)
        {
          const size_t p = i0 + 2 * h, q = i1 + 2 * h, m = i2 + 2 * h;
          double sum = 0.0;
          sum += a0 * (w0 * r0[p] + w1 * r1[p] + w2 * r2[p]);
          sum += a1 * (w0 * r0[q] + w1 * r1[q] + w2 * r2[q]);
          sum += a2 * (w0 * r0[m] + w1 * r1[m] + w2 * r2[m]);
          fc[ic + h] = sum;
          uc[ic + h] = 0.0;
        }
      ic += n;
    }
  restrict_span (ic, nxc, fc, uc, r0, r1, r2, w0, w1, w2, rxi, rxw);
}

/* The host computes each fine residual once, a row at a time into three
   rows of scratch per thread (rows, of stride fine_stride: the rows the
   current coarse row gathers), and restricts from them: bitwise the device's
   restrict_at, without a level-sized residual array, whose pages would
   push the level's u and f out of cache.  Row 0 is never gathered on a
   whole level, so it marks an empty slot.  */
void
HOST_ISA_NAME (mg_restrict) (size_t nxc, size_t nyc, size_t coarse_stride,
                             double *restrict fc, double *restrict uc,
                             size_t nx, size_t fine_stride,
                             const double *restrict u,
                             const double *restrict f,
                             const double *restrict axm,
                             const double *restrict axp,
                             const double *restrict aym,
                             const double *restrict ayp, double c0,
                             const size_t *restrict rxi,
                             const double *restrict rxw,
                             const size_t *restrict ryi,
                             const double *restrict ryw, double *rows)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
  struct regular_runs coarse;
  restrict_runs (nxc, rxi, rxw, &coarse);
#pragma omp parallel if (nxc * nyc >= PARALLEL_MIN)
  {
    double *ring = rows + 3 * fine_stride * (size_t) omp_get_thread_num ();
    size_t held[3] = { 0, 0, 0 };
    for (size_t k = 0; k < 3; ++k)
      ring[k * fine_stride] = ring[k * fine_stride + nx + 1] = 0.0;
#pragma omp for schedule(static)
    for (size_t jc = 1; jc <= nyc; ++jc)
      {
        const size_t *want = ryi + 3 * jc;
        const double *r[3];
        for (size_t k = 0; k < 3; ++k)
          {
            size_t slot = 0;
            while (slot < 3 && held[slot] != want[k])
              ++slot;
            if (slot == 3)
              {
                /* A slot holding none of the three rows wanted.  */
                slot = 0;
                while (held[slot] == want[0] || held[slot] == want[1]
                       || held[slot] == want[2])
                  ++slot;
                held[slot] = want[k];
                residual_row (&runs, fine_stride, u, f,
                              ring + slot * fine_stride, axm, axp,
                              aym[want[k]], ayp[want[k]], c0, want[k]);
              }
            r[k] = ring + slot * fine_stride;
          }
        restrict_row (&coarse, nxc, fc + jc * coarse_stride,
                      uc + jc * coarse_stride, r, rxi, rxw, ryw, jc);
      }
  }
}

/* The same from a level-sized residual r: a split level's, which trades
   halo lines with the neighbours first, or where the rows are too few
   for the threads.  */
void
HOST_ISA_NAME (mg_restrict_stored) (size_t nxc, size_t nyc,
                                    size_t coarse_stride, double *restrict fc,
                                    double *restrict uc, size_t fine_stride,
                                    const double *restrict r,
                                    const size_t *restrict rxi,
                                    const double *restrict rxw,
                                    const size_t *restrict ryi,
                                    const double *restrict ryw)
{
  struct regular_runs coarse;
  restrict_runs (nxc, rxi, rxw, &coarse);
#pragma omp parallel for schedule(static) if (nxc * nyc >= PARALLEL_MIN)
  for (size_t jc = 1; jc <= nyc; ++jc)
    {
      const double *const rows[3] = { r + ryi[3 * jc] * fine_stride,
                                      r + ryi[3 * jc + 1] * fine_stride,
                                      r + ryi[3 * jc + 2] * fine_stride };
      restrict_row (&coarse, nxc, fc + jc * coarse_stride,
                    uc + jc * coarse_stride, rows, rxi, rxw, ryw, jc);
    }
}

/* Where a level halves its coarser one evenly, fine node i + 2 reads
   the coarse nodes after those of i with i's weight: the runs of such
   nodes, which prolong_row takes a pair at a time.  */
static void
prolong_runs (size_t nxf, const size_t *pxi, const double *pxw,
              struct regular_runs *runs)
{
  runs->count = 0;
  for (size_t i = 1; i < nxf && runs->count < RUNS_MAX; ++i)
    {
      size_t e = i + 1;
      while (e + 1 <= nxf && pxi[e + 1] == pxi[e - 1] + 1
             && pxw[e + 1] == pxw[e - 1])
        ++e;
      if (e - i + 1 < RUN_MIN)
        continue;
      runs->first[runs->count] = i;
      runs->last[runs->count++] = e;
      i = e;
    }
}

/* The fine nodes first .. last of a row: out[i] += (P t)[i].  */
static inline void
prolong_span (size_t first, size_t last, double *restrict out,
              const double *restrict t, const size_t *restrict pxi,
              const double *restrict pxw)
{
  for (size_t i = first; i <= last; ++i)
    {
      const size_t ic = pxi[i];
      const double wx = pxw[i];
      out[i] += wx * t[ic] + (1.0 - wx) * t[ic + 1];
    }
}

/* A row of prolong_span, the runs of pairs with the same sums written
   out.  */
static void
prolong_row (const struct regular_runs *runs, size_t nxf, double *restrict out,
             const double *restrict t, const size_t *restrict pxi,
             const double *restrict pxw)
{
  size_t i = 1;
  for (size_t k = 0; k < runs->count; ++k)
    {
      prolong_span (i, runs->first[k] - 1, out, t, pxi, pxw);
      i = runs->first[k];
      const size_t pairs = (runs->last[k] - i + 1) / 2;
      const size_t ia = pxi[i], ib = pxi[i + 1];
      const double wa = pxw[i], wb = pxw[i + 1];
      double *restrict o = out + i;
#pragma omp simd
      for (size_t h = 0; h < pairs; ++h)
        {
          o[2 * h] += wa * t[ia + h] + (1.0 - wa) * t[ia + h + 1];
          o[2 * h + 1] += wb * t[ib + h] + (1.0 - wb) * t[ib + h + 1];
        }
      i += 2 * pairs;
    }
  prolong_span (i, nxf, out, t, pxi, pxw);
}

/* The host interpolates each fine row along y into t (nxc + 2, the
   coarse window's width with its halo), then along x from t: the values
   of prolong_at, each t computed once.  t is a row of scratch per
   thread, rows (of stride tn) where x->mg gives them, else row j of a
   level-sized array.  */
void
HOST_ISA_NAME (mg_prolong) (size_t nxf, size_t nyf, size_t fine_stride,
                            double *restrict uf, size_t nxc,
                            size_t coarse_stride, const double *restrict uc,
                            double *restrict rows, bool per_thread,
                            const size_t *restrict pxi,
                            const double *restrict pxw,
                            const size_t *restrict pyi,
                            const double *restrict pyw)
{
  const size_t tn = nxc + 2;
  struct regular_runs runs;
  prolong_runs (nxf, pxi, pxw, &runs);
#pragma omp parallel if (nxf * nyf >= PARALLEL_MIN)
  {
    double *thread_row = rows + tn * (size_t) omp_get_thread_num ();
#pragma omp for schedule(static)
    for (size_t j = 1; j <= nyf; ++j)
      {
        double *restrict t = per_thread ? thread_row : rows + j * tn;
        const double *lo = uc + pyi[j] * coarse_stride,
                     *hi = lo + coarse_stride;
        const double wy = pyw[j];
        for (size_t ic = 0; ic <= nxc + 1; ++ic)
          t[ic] = wy * lo[ic] + (1.0 - wy) * hi[ic];
        prolong_row (&runs, nxf, uf + j * fine_stride, t, pxi, pxw);
      }
  }
}
