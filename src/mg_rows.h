/* The rows of the multigrid host loops: a level's columns as runs of
   even weights (struct row_runs, mg_internal.h) and a row of the
   residual f - A u over them.  Inline, for the host loops of every path
   (mg_host_vector.c) and the host restriction (mg_transfer.c), which
   computes the residual a row at a time.  */
#ifndef HEATSIM_MG_ROWS_H
#define HEATSIM_MG_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "mg_cell.h"
#include "mg_internal.h"

/* The common weights are those of a column a quarter of the way in,
   away from the ends and from a middle left unmerged; past RUNS_MAX - 1
   runs the rest of the row reads the arrays.  */
static inline void
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
static inline void
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

#endif
