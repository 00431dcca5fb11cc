/* Offload strategies: one solver loop, several ways of getting the stencil
   to the data.  Each strategy says where the fields live and how a step
   runs; the time loop in solver.c is the same for all of them.  */
#ifndef HEATSIM_STRATEGY_H
#define HEATSIM_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels.h"

struct solver;

struct strategy {
  const char *name;
  const char *summary;
  bool offload;                       /* kernels run in target regions */
  bool resident;                      /* fields (and halo strips) stay on
                                         the device between kernels */
  void (*enter) (struct solver *);    /* put both fields (and the halo
                                         strips) where kernels run */
  void (*refresh_halo) (struct solver *);   /* halo copies of s->u */
  double (*update) (struct solver *, struct rect, bool residual);
                                      /* cells of a rect, s->u -> s->unew;
                                         the largest change if residual */
  double (*update_frame) (struct solver *, bool residual);
                                      /* the cells next to the halo, in
                                         one kernel (after an exchange) */
  void (*pack) (struct solver *);     /* edge lines of s->u to s->send on
                                         the host, for the exchange */
  void (*unpack) (struct solver *);   /* s->recv from the host into the
                                         halo of s->u */
  void (*fetch) (struct solver *);    /* make the host copy of s->u current */
  size_t (*count_nonfinite) (struct solver *);  /* NaN or Inf cells of s->u,
                                                   counted where it lives */
  void (*leave) (struct solver *);    /* newest field to the host; release */
  void (*copy) (struct solver *);     /* s->u to s->unew, where the kernels
                                         run: the bandwidth reference */
  void (*runtime_copy) (struct solver *);  /* the same copy by
                                              omp_target_memcpy (memcpy for
                                              host) */
};

/* All strategies, NULL-terminated; the first is the default.  */
extern const struct strategy *const heatsim_strategies[];

/* The strategy called name, or NULL.  */
const struct strategy *strategy_find (const char *name);

#endif
