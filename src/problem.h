/* The problem being solved: its initial field, boundary values and, where
   one is known, its exact solution.  */
#ifndef HEATSIM_PROBLEM_H
#define HEATSIM_PROBLEM_H

#include "field.h"

struct config;

/* Distance between the computed field and the exact solution.  */
struct error_norms {
  double l2;         /* sqrt(sum over interior cells of (u - exact)^2) */
  double relative;   /* l2 / sqrt(sum of exact^2) */
  double max;        /* largest |u - exact| */
};

/* Fill u (interior and halo) with the initial condition of cfg.
   Returns false when memory for scratch arrays is short.  */
bool problem_init (const struct config *cfg, struct field *u);

/* Compare u with the exact solution at time t.  Returns false when memory
   for scratch arrays is short.  */
bool problem_error (const struct config *cfg, const struct field *u,
                    double t, struct error_norms *e);

#endif
