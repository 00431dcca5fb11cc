/* The explicit step of one node of the variable-coefficient heat
   equation, shared by its host loops (kernels_host.c, on every host
   path), its target kernels (kernels_material.c) and its temporally
   blocked steps (kernels_tiled.c), as heat_cell.h is for the
   constant-coefficient one: the update of a node and the terms added
   to it after the update of every node (face cooling, the heat of flux
   and convection edges).  */
#ifndef HEATSIM_MATERIAL_CELL_H
#define HEATSIM_MATERIAL_CELL_H

#include <stdbool.h>
#include <stddef.h>

#include "operator.h"

#pragma omp declare target
/* The step of the node u points at, its neighbours below and above at
   below and above (rows that may lie anywhere), wx and wy at the node,
   wy_below at the node below: u + gain flow + factor rise.  The order
   of the operations is fixed, so that every strategy computes bitwise
   the same value on the same processor; without a source schedule
   (factor exactly 1) it is bitwise u + gain flow + rise.  */
static inline double
material_cell_rows (const double *below, const double *u,
                    const double *above, const double *wx, const double *wy,
                    const double *wy_below, double gain, double rise,
                    double factor)
{
  return u[0] + gain * heat_flow_rows (below, u, above, wx, wy, wy_below)
         + factor * rise;
}

/* The same at a node of a field of rows stride apart.  */
static inline double
material_cell (const double *u, const double *wx, const double *wy,
               ptrdiff_t stride, double gain, double rise, double factor)
{
  return material_cell_rows (u - stride, u, u + stride, wx, wy, wy - stride,
                             gain, rise, factor);
}

/* Face cooling's term of a node of temperature u, gain and share
   fx fy of a full box: gain fx fy s (TINF - u).  */
static inline double
material_cooling (double gain, double fx, double fy, double sink,
                  double ambient, double u)
{
  return gain * (fx * fy * sink * (ambient - u));
}

/* Edge heat of edge bit per unit volume at a node of temperature u:
   fraction (Q + H (TINF - u)) / spacing, or 0 where the node is not on
   the edge (on) or the edge takes no heat.  */
static inline double
material_edge_term (bool on, unsigned bit, unsigned heated, double fraction,
                    double q, double h, double tinf, double u,
                    double spacing)
{
  return on && (heated & bit) ? fraction * (q + h * (tinf - u)) / spacing
         : 0.0;
}

/* Whether node (i, j) lies on an edge of the set heated.  */
static inline bool
material_heated_node (size_t i, size_t j, size_t nx, size_t ny,
                      unsigned heated)
{
  return ((heated & (1u << EDGE_LEFT)) && i == 1)
         || ((heated & (1u << EDGE_RIGHT)) && i == nx)
         || ((heated & (1u << EDGE_BOTTOM)) && j == 1)
         || ((heated & (1u << EDGE_TOP)) && j == ny);
}

/* The term of the heated edges of node (i, j) of temperature u and
   gain: gain times their heat per unit volume, in one fixed order
   (left, right, bottom, top), so that a corner adds both edges' alike
   everywhere.  Per edge e q[e] = Q, h[e] = H, tinf[e] = TINF; bit e of
   heated; fx, fy the shares of a full box along each axis.  */
static inline double
material_edge_heat (size_t i, size_t j, size_t nx, size_t ny,
                    unsigned heated, const double *fx, const double *fy,
                    const double q[4], const double h[4],
                    const double tinf[4], double gain, double u, double dx,
                    double dy)
{
  const double l = material_edge_term (i == 1, 1u << EDGE_LEFT, heated,
                                       fy[j], q[EDGE_LEFT], h[EDGE_LEFT],
                                       tinf[EDGE_LEFT], u, dx);
  const double r = material_edge_term (i == nx, 1u << EDGE_RIGHT, heated,
                                       fy[j], q[EDGE_RIGHT], h[EDGE_RIGHT],
                                       tinf[EDGE_RIGHT], u, dx);
  const double b = material_edge_term (j == 1, 1u << EDGE_BOTTOM, heated,
                                       fx[i], q[EDGE_BOTTOM], h[EDGE_BOTTOM],
                                       tinf[EDGE_BOTTOM], u, dy);
  const double t = material_edge_term (j == ny, 1u << EDGE_TOP, heated,
                                       fx[i], q[EDGE_TOP], h[EDGE_TOP],
                                       tinf[EDGE_TOP], u, dy);
  return gain * (((l + r) + b) + t);
}
#pragma omp end declare target

#endif
