/* The time loop: both fields, the stencil weights, and the strategy that
   moves them.  */
#ifndef HEATSIM_SOLVER_H
#define HEATSIM_SOLVER_H

#include <stdbool.h>

#include "field.h"
#include "kernels.h"

struct config;
struct strategy;

struct solver {
  struct field u;          /* the newest step: after a step and a swap */
  struct field unew;       /* scratch: the step being computed */
  struct stencil stencil;
  int device;              /* offload device the target regions name */
  const struct strategy *strategy;
};

/* What a run did and how long each phase took (seconds).  */
struct run_result {
  size_t steps;            /* steps (sweeps) taken */
  double residual;         /* steady: largest change in the last checked sweep */
  bool converged;          /* steady: residual <= tol */
  double setup;            /* allocation and initial field */
  double transfer_in;      /* fields to the device */
  double solve;            /* the time loop */
  double transfer_out;     /* newest field back to the host */
  double total;
};

/* Allocate both fields for cfg and fill them with the initial condition.
   Returns 0 or a heatsim_status.  */
int solver_init (struct solver *s, const struct config *cfg, int device);

/* Run the steps of cfg (to the steady state with cfg->steady); afterwards
   s->u on the host holds the last step.  */
void solver_run (struct solver *s, const struct config *cfg,
                 struct run_result *result);

void solver_free (struct solver *s);

#endif
