/* The black box multigrid's coarsest-level substitutions, L y = x and
   L^T x = y with the band Cholesky factor L (boxmg_coarse.c reaches
   them through host_kernels): sequential, on the host for every
   placement, and bound by arithmetic (the factor's rows are read
   upwards from memory), so the vector width counts.  A variant file
   (see host_isa.h): compiled once per host path, each copy's kernels
   named by HOST_ISA_NAME; no target region here.  */
#include <config.h>

#include "host_isa.h"

#include <stddef.h>

/* Row i of factor holds L(i, i - d) at i (band + 1) + d, d = 0 .. band;
   x[0 .. m - 1] is overwritten by L^-1 x.  Each row's dot product in
   four partial sums (the last reach % 4 terms into the first), added
   in a fixed order: the additions do not wait on one another, and
   every path adds the same terms in the same order.  */
void
HOST_ISA_NAME (band_forward) (size_t m, size_t band,
                              const double *restrict factor,
                              double *restrict x)
{
  const size_t b1 = band + 1;
  for (size_t i = 0; i < m; ++i)
    {
      const double *row = factor + i * b1;
      const size_t reach = i < band ? i : band;
      double part[4] = { 0.0, 0.0, 0.0, 0.0 };
      size_t d = 1;
      for (; d + 3 <= reach; d += 4)
        for (size_t h = 0; h < 4; ++h)
          part[h] += row[d + h] * x[i - d - h];
      for (; d <= reach; ++d)
        part[0] += row[d] * x[i - d];
      x[i] = (x[i] - ((part[0] + part[1]) + (part[2] + part[3]))) / row[0];
    }
}

/* x[0 .. m - 1] overwritten by L^-T x, by the rows of L (its columns
   of L^T), the factor again read upwards from each row's start.  */
void
HOST_ISA_NAME (band_backward) (size_t m, size_t band,
                               const double *restrict factor,
                               double *restrict x)
{
  const size_t b1 = band + 1;
  for (size_t i = m; i-- > 0;)
    {
      const double *row = factor + i * b1;
      const size_t reach = i < band ? i : band;
      x[i] /= row[0];
      const double xi = x[i];
      for (size_t d = 1; d <= reach; ++d)
        x[i - d] -= row[d] * xi;
    }
}
