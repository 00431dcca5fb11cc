/* The explicit step of one node of the variable-coefficient heat
   equation, shared by its host loops (kernels_host.c, on every host
   path) and target kernels (kernels_material.c), as heat_cell.h is for
   the constant-coefficient one.  */
#ifndef HEATSIM_MATERIAL_CELL_H
#define HEATSIM_MATERIAL_CELL_H

#include <stddef.h>

#include "operator.h"

#pragma omp declare target
/* The step of the node u points at: u + gain flow + factor rise.  The
   order of the operations is fixed, so that every strategy computes
   bitwise the same value on the same processor; without a source
   schedule (factor exactly 1) it is bitwise u + gain flow + rise.  */
static inline double
material_cell (const double *u, const double *wx, const double *wy,
               ptrdiff_t stride, double gain, double rise, double factor)
{
  return u[0] + gain * heat_flow_at (u, wx, wy, stride) + factor * rise;
}
#pragma omp end declare target

#endif
