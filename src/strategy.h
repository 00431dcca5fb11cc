/* Offload strategies: one solver loop, several ways of getting the stencil
   to the data.  Each strategy says where the fields live and how a step
   runs; the time loop in solver.c is the same for all of them.  */
#ifndef HEATSIM_STRATEGY_H
#define HEATSIM_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"
#include "kernels.h"
#include "kernels_material.h"
#include "multigrid.h"

/* What the strategies work on: both fields, the stencil, the device the
   target regions name, and the halo strips of an MPI exchange.  */
struct workspace {
  struct field u;          /* the newest step: after a step and a swap */
  struct field unew;       /* scratch: the step being computed */
  struct stencil stencil;
  int device;              /* offload device the target regions name */
  double *send, *recv;     /* halo strips of the exchange, or NULL */
  size_t strips;           /* doubles in each */
  bool strips_on_device;   /* MPI is GPU-aware and the strategy keeps the
                              strips on the device: MPI reads and writes
                              the device copies, nothing crosses to the
                              host */
  /* Explicit steps of a variable material: the operator's arrays, which
     the strategy places beside the fields.  false: the constant-
     coefficient stencil runs and material holds nothing.  */
  bool variable;
  struct material_step material;
};

/* Each hook acts on the workspace w; "u" and "unew" are w->u and
   w->unew.  */
struct strategy {
  const char *name;
  const char *summary;
  bool offload;            /* kernels run in target regions */
  bool resident;           /* fields (and halo strips) stay on the device
                              between kernels */
  enum mg_placement multigrid;   /* where multigrid's kernels run */
  /* Put both fields (and the halo strips, and the variable step's
     arrays) where the kernels run.  */
  void (*enter) (struct workspace *w);
  /* Fill the halo cells of u that copy interior lines.  */
  void (*refresh_halo) (struct workspace *w);
  /* Set the halo lines of u's scheduled Dirichlet edges to their
     temperatures (stencil.halo.scheduled, temperature).  */
  void (*set_halo) (struct workspace *w);
  /* Cells of r, u -> unew; the largest change of a cell if residual.  */
  double (*update) (struct workspace *w, struct rect r, bool residual);
  /* The cells next to the halo, in one kernel (after an exchange).  */
  double (*update_frame) (struct workspace *w, bool residual);
  /* The same two by the variable-coefficient step (w->material).  */
  void (*update_material) (struct workspace *w, struct rect r);
  void (*update_frame_material) (struct workspace *w);
  /* After those: face cooling and the heat of flux and convection
     edges into unew.  */
  void (*terms_material) (struct workspace *w);
  /* Edge lines of u to w->send on the host, for the exchange.  */
  void (*pack) (struct workspace *w);
  /* w->recv from the host into the halo of u.  */
  void (*unpack) (struct workspace *w);
  /* Make the host copy of u current.  */
  void (*fetch) (struct workspace *w);
  /* NaN or Inf cells of u, counted where u lives.  */
  size_t (*count_nonfinite) (struct workspace *w);
  /* Newest field to the host; release the device copies.  */
  void (*leave) (struct workspace *w);
  /* u to unew where the kernels run: the bandwidth reference.  */
  void (*copy) (struct workspace *w);
  /* The same copy by omp_target_memcpy (memcpy for host).  */
  void (*runtime_copy) (struct workspace *w);
};

/* All strategies, NULL-terminated; --offload auto picks the first where
   a device is.  */
extern const struct strategy *const heatsim_strategies[];

/* The strategy called name, or NULL.  */
const struct strategy *strategy_find (const char *name);

#endif
