/* The explicit update of one cell of the constant-coefficient heat
   equation, shared by every kernel that computes it (host loops, target
   kernels, the temporally blocked host kernel), so that all of them give
   bitwise the same value on the same processor.  */
#ifndef HEATSIM_HEAT_CELL_H
#define HEATSIM_HEAT_CELL_H

#include <stddef.h>

#pragma omp declare target
/* One cell, at p:
     u'(i,j) = rc u(i,j) + rx (u(i+1,j) + u(i-1,j)) + ry (u(i,j+1) + u(i,j-1)).
   The order of the additions is fixed: changing it changes the last bit.  */
static inline double
heat_cell (const double *p, ptrdiff_t stride, double rx, double ry,
           double rc)
{
  return rc * p[0] + rx * p[1] + rx * p[-1] + ry * p[stride]
         + ry * p[-stride];
}
#pragma omp end declare target

#endif
