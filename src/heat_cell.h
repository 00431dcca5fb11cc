/* The explicit update of one cell of the constant-coefficient heat
   equation, shared by every kernel that computes it (host loops, target
   kernels, the temporally blocked host kernel), so that all of them give
   bitwise the same value on the same processor.  */
#ifndef HEATSIM_HEAT_CELL_H
#define HEATSIM_HEAT_CELL_H

#include <stddef.h>

#pragma omp declare target
/* One cell, at p:
     u'(i,j) = rc u(i,j) + rx (u(i+1,j) + u(i-1,j)) + ry (u(i,j+1) + u(i,j-1))
               + rise.
   The order of the additions is fixed: changing it changes the last bit.
   The rows below and above p's may lie anywhere (the temporally
   blocked kernel keeps them in rings): below and above point at the
   same column.  */
static inline double
heat_cell_rows (const double *below, const double *p, const double *above,
                double rx, double ry, double rc, double rise)
{
  return rc * p[0] + rx * p[1] + rx * p[-1] + ry * above[0] + ry * below[0]
         + rise;
}

/* The same cell in a field of rows stride apart.  */
static inline double
heat_cell (const double *p, ptrdiff_t stride, double rx, double ry,
           double rc, double rise)
{
  return heat_cell_rows (p - stride, p, p + stride, rx, ry, rc, rise);
}

/* The halo value of an edge that takes heat in (flux or convection,
   form (a)): its mirror src plus a + b (tinf - node), a = coef Q and
   b = coef H, node the edge node's temperature.  */
static inline double
edge_halo_value (double src, double node, double a, double b, double tinf)
{
  return src + (a + b * (tinf - node));
}
#pragma omp end declare target

#endif
