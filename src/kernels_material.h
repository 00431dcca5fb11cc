/* The explicit step of the general heat equation (operator.h),
     u'(P) = u(P) + dt / (rho c_p)(P) (heat_flow_at(P) + q(P)),
   on the host and in a target region, for a material whose coefficients
   vary (the constant-coefficient kernels of kernels.h run otherwise).
   The per-node factors gain = dt / (rho c_p) and rise = gain q are
   computed once per run, so that a step reads u, wx, wy, gain and rise
   and writes u': 48 bytes a cell, no division.  Boundaries and MPI halos
   live in u's halo as for the constant kernels (struct halo); the
   operator's faces at the edges carry the boundary kind.  */
#ifndef HEATSIM_KERNELS_MATERIAL_H
#define HEATSIM_KERNELS_MATERIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"
#include "kernels.h"
#include "operator.h"

struct material;

struct material_step {
  struct heat_operator op;   /* the faces (wx, wy), capacity and source */
  /* Padded like the fields, one allocation (block); interior nodes set,
     the rest 0.  */
  double *gain;              /* dt / (fraction rho c_p) */
  double *rise;              /* dt q / (rho c_p): the source's rise in a
                                step */
  /* The share of a full box that node (i, j) owns is fraction_x[i]
     fraction_y[j]: 1/2 on an edge node (a quarter at a corner of two
     such edges), else 1.  stride and ny + 2 doubles, in block.  */
  double *fraction_x, *fraction_y;
  void *block;
  double dx, dy;
  /* Edges of flux or convection this part holds: their nodes take
     fraction_y (Q + H (TINF - u)) / dx (left, right) or fraction_x (...)
     / dy (bottom, top) per unit volume, from the stencil's halo.in.  */
  bool heated[EDGE_COUNT];
  /* Face cooling: per unit volume s (TINF - u) times the volume
     fraction.  */
  bool cooled;
  /* At the step's start time, set by the time loop before each step:
     the factor of --source-schedule on rise (1 without); face cooling's
     s = 2 H / D and TINF.  */
  double factor, sink, ambient;
};

/* Bytes an update of one cell must move: u read, u' written, wx, wy,
   gain and rise read.  */
enum { MATERIAL_STEP_BYTES = 6 * sizeof (double) };

/* The step of material m with time step dt on a part of spacing dx, dy
   (edge_node as for heat_operator_build: the part's edges whose outer
   line is edge nodes, owning half a box).  False when memory is short.  */
bool material_step_build (struct material_step *ms, const struct material *m,
                          double dx, double dy, double dt,
                          const bool edge_node[EDGE_COUNT]);
void material_step_free (struct material_step *ms);

/* Doubles in each of the arrays of ms the kernels read (wx, wy, gain,
   rise), halo included: what a strategy maps or keeps on the device;
   and in fraction_x and fraction_y.  */
size_t material_step_cells (const struct material_step *ms);
size_t material_step_columns (const struct material_step *ms);
size_t material_step_rows (const struct material_step *ms);

/* Update the cells of r, u -> unew, with host threads, or in a target
   region of s's kernel form on device (u, unew and ms's arrays present
   there).  s gives the shape and the form only.  */
void material_update_host (const struct stencil *s,
                           const struct material_step *ms,
                           const double *restrict u, double *restrict unew,
                           struct rect r);
void material_update_target (const struct stencil *s,
                             const struct material_step *ms, const double *u,
                             double *unew, struct rect r, int device);

/* Update the frame (the cells next to the halo), u -> unew, after an MPI
   exchange, in one kernel.  */
void material_update_frame_host (const struct stencil *s,
                                 const struct material_step *ms,
                                 const double *restrict u,
                                 double *restrict unew);
void material_update_frame_target (const struct stencil *s,
                                   const struct material_step *ms,
                                   const double *u, double *unew,
                                   int device);

/* After the update of every cell: add face cooling (ms->cooled) and the
   heat of the flux and convection edges (ms->heated, values in
   s->halo.in), from u, to unew; the arrays as for the update.  Whether
   there is anything to add: material_step_terms.  */
bool material_step_terms (const struct material_step *ms);
void material_terms_host (const struct stencil *s,
                          const struct material_step *ms,
                          const double *restrict u, double *restrict unew);
void material_terms_target (const struct stencil *s,
                            const struct material_step *ms, const double *u,
                            double *unew, int device);

#endif
