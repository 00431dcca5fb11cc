/* The finite-volume operator of rho c_p dT/dt = div (k grad T) + q on the
   vertex grid (DESIGN.md, "The general heat equation").  Node P owns the
   box halfway to its neighbours; it exchanges heat with each neighbour N
   through their common face, whose conductance is the harmonic mean
   2 k_P k_N / (k_P + k_N) (exact for layered materials whose interfaces
   lie on faces).  Divided by a full box's volume dx dy, the net flow
   into P is
     wx[P] (u_E - u_P) - wx[W] (u_P - u_W) + wy[P] (u_N - u_P)
       - wy[S] (u_P - u_S),
   wx the face conductance over dx^2 between a node and its east
   neighbour, wy over dy^2 to its north neighbour.  A boundary is one face
   term: a Dirichlet edge's face leads to the halo node, which holds the
   edge's temperature; on any other edge that is not periodic the outer
   line of nodes lies on the edge (edge nodes, run_config.h), and the
   face beyond them has conductance 0: their boxes end at the edge, so
   they own half a box (a quarter at a corner of two such edges), their
   faces along the edge are half as long, and capacity and source scale
   by that share (A stays symmetric, and the heat stored changes by
   exactly the boundary and source terms).  Every kernel (explicit steps,
   residuals, smoothers, implicit right-hand sides) computes the flow with
   heat_flow_at, so the operator is written once.  */
#ifndef HEATSIM_OPERATOR_H
#define HEATSIM_OPERATOR_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"
#include "material.h"

struct heat_operator {
  size_t nx, ny, stride;   /* as the fields it acts on */
  /* Padded arrays of (ny + 2) stride doubles, one allocation (block).  */
  double *wx;              /* face to the east neighbour (times its share
                              of a full face) / dx^2: columns
                              0 .. nx of rows 1 .. ny */
  double *wy;              /* face to the north neighbour / dy^2: rows
                              0 .. ny of columns 1 .. nx */
  double *capacity;        /* rho c_p of each interior node times the
                              share of a full box it owns */
  double *source;          /* q of each interior node (0 where none), times
                              that share */
  /* Periodic axes: the faces of column 0 and nx (row 0 and ny) are the
     same face, between the last node and the first (the material's
     ring holds the opposite edge's nodes); set by the caller, false
     from heat_operator_build.  */
  bool periodic_x, periodic_y;
  void *block;
};

/* The operator of material m on a part of nx x ny nodes with spacing dx,
   dy; edge_node[e]: edge e of the part is an edge of the whole grid whose
   outer line is edge nodes (config_edge_node): its faces are shut and its
   nodes own half a box.  False when memory is short.  */
bool heat_operator_build (struct heat_operator *op, const struct material *m,
                          double dx, double dy,
                          const bool edge_node[EDGE_COUNT]);
void heat_operator_free (struct heat_operator *op);

#pragma omp declare target
/* div (k grad u) at the node u points at, whose neighbours below and
   above are at below and above (the same column; the temporally blocked
   steps keep rows in rings), wx and wy at the node, wy_below at the
   node below: the net heat flow into its box per unit volume.  */
static inline double
heat_flow_rows (const double *below, const double *u, const double *above,
                const double *wx, const double *wy, const double *wy_below)
{
  return wx[0] * (u[1] - u[0]) - wx[-1] * (u[0] - u[-1])
         + wy[0] * (above[0] - u[0]) - wy_below[0] * (u[0] - below[0]);
}

/* The same at a node of a field of rows stride apart.  */
static inline double
heat_flow_at (const double *u, const double *wx, const double *wy,
              ptrdiff_t stride)
{
  return heat_flow_rows (u - stride, u, u + stride, wx, wy, wy - stride);
}
#pragma omp end declare target

#endif
