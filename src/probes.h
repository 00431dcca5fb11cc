/* Temperatures at points of the domain: probes (--probe), profiles along
   a segment (--profile) and the peak of the field.  A point between nodes
   reads the bilinear interpolation of the four nodes around it.  Every
   point of [0, Lx] x [0, Ly] has four: on a fixed (Dirichlet) edge the
   halo ring's nodes, which hold its values, lie on the edge; on the other
   non-periodic edges the outer interior nodes do (run_config.h); the
   high edge of a periodic axis is its first node a period on, read from
   that node, so that an edge is never a step behind the field.  Each
   sample is the same on every MPI rank and for every rank count: the four node values travel exactly (each has one
   owner), and every rank then interpolates them in the same order.  */
#ifndef HEATSIM_PROBES_H
#define HEATSIM_PROBES_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"

struct config;
struct domain;

/* A point of the domain and the nodes that give its temperature: the
   node (i, j) of the whole padded grid at or below-left of it (0 and
   nx + 1 are the edges), and the weights of the next node in x and y.  */
struct probe_point {
  double x, y;
  size_t i, j;
  double wx, wy;
  enum boundary_kind boundary[EDGE_COUNT];   /* of the run's edges */
};

/* Place (x, y) on c's grid.  A coordinate within a billionth of a cell of
   a node is taken as that node, so that a position written in decimal
   reads the node itself.  False when the point is not finite or lies
   outside [0, Lx] x [0, Ly].  */
bool probe_place (const struct config *c, double x, double y,
                  struct probe_point *p);

/* The temperature at p from this rank's part u of the field (current on
   the host, halo ring filled).  Collective: every rank calls it and gets
   the same value.  */
double probe_sample (const struct domain *d, const struct field *u,
                     const struct probe_point *p);

/* probe_sample of n points p into t, in one reduction: nodes is room
   for 4 n doubles.  Collective.  */
void probe_sample_many (const struct domain *d, const struct field *u,
                        const struct probe_point *p, size_t n,
                        double *nodes, double *t);

/* The number of points of a profile from (x0, y0) to (x1, y1) when none
   is given: one per cell the segment crosses along its longer extent (in
   cells), plus one, so that a segment from node to node along a grid
   line reads each node once; at least 2, its ends.  */
size_t profile_default_points (const struct config *c, double x0, double y0,
                               double x1, double y1);

/* The largest interior value of the field, the position of its node (the
   first in row-major order of the whole grid where several hold it) and
   the mean over the domain (each node weighted by its share of the
   area: edge nodes half).  Collective.  */
struct peak {
  double value, x, y;
  double mean;
};
void field_peak (const struct domain *d, const struct config *c,
                 const struct field *u, struct peak *p);

#endif
