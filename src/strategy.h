/* Offload strategies: one solver loop, several ways of getting the stencil
   to the data.  Each strategy says where the fields live and how a step
   runs; the time loop in solver.c is the same for all of them.  */
#ifndef HEATSIM_STRATEGY_H
#define HEATSIM_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

struct solver;

struct strategy {
  const char *name;
  const char *summary;
  bool offload;                       /* kernels run in target regions */
  void (*enter) (struct solver *);    /* put both fields where kernels run */
  void (*step) (struct solver *);     /* one time step: s->u -> s->unew */
  double (*step_residual) (struct solver *);  /* the same, returning the
                                                 largest change of a cell */
  void (*fetch) (struct solver *);    /* make the host copy of s->u current */
  size_t (*count_nonfinite) (struct solver *);  /* NaN or Inf cells of s->u,
                                                   counted where it lives */
  void (*leave) (struct solver *);    /* newest field to the host; release */
  void (*copy) (struct solver *);     /* s->u to s->unew, where the kernels
                                         run: the bandwidth reference */
};

/* All strategies, NULL-terminated; the first is the default.  */
extern const struct strategy *const heatsim_strategies[];

/* The strategy called name, or NULL.  */
const struct strategy *strategy_find (const char *name);

#endif
