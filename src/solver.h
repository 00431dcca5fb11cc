/* The time loop: both fields, the stencil weights, and the strategy that
   moves them.  */
#ifndef HEATSIM_SOLVER_H
#define HEATSIM_SOLVER_H

#include <stdbool.h>

#include "implicit.h"
#include "material.h"
#include "strategy.h"

struct config;
struct domain;
struct monitor;
struct output;
struct sampling;

struct fusing;

struct solver {
  struct workspace work;   /* fields, stencil, device, halo strips */
  const struct strategy *strategy;
  struct domain *domain;   /* this rank's part of the grid (all of it
                              without MPI) */
  struct material material;  /* k, rho c_p and q on that part */
  double output_seconds;   /* fetching and writing output so far */
  struct monitor *monitor; /* --monitor rows, or NULL */
  struct sampling *sampling; /* --probe rows and --profile, or NULL */
  struct implicit multigrid; /* the levels of a steady multigrid run or
                                an implicit scheme (mg NULL otherwise) */
  double residual;         /* steady multigrid: the residual norm of the
                              field in u as multigrid measured it, or NaN
                              where not yet measured */
  struct fusing *fusing;   /* explicit runs: the steps fused per pass and
                              their memory (solver.c), else NULL */
};

/* What a run did and how long each phase took (seconds).  */
struct run_result {
  size_t steps;            /* steps (sweeps, V-cycles) taken */
  double residual;         /* Jacobi: largest change in the last checked
                              sweep */
  bool converged;          /* steady: Jacobi's change <= tol, multigrid's
                              residual norm at --rtol or round-off */
  /* Steady runs: the l2 norm over the interior of the residual of the
     discrete equations, L_h u, for the run's first field (of the run
     a restart continues) and its last; NaN where unknown.  */
  double residual_initial, residual_final;
  double residual_floor;   /* multigrid: the round-off floor of the last */
  unsigned levels;         /* multigrid levels, the finest included; 0 for
                              none */
  size_t cycles;           /* V-cycles of this run (implicit: of the steps
                              it completed) */
  size_t cycles_max;       /* implicit: most V-cycles of one step */
  double heat_before_last; /* time-dependent runs of 2 or more steps
                              that took them all: the total heat before
                              the last */
  double setup;            /* allocation (multigrid levels too) and
                              initial field */
  double transfer_in;      /* fields to the device */
  double solve;            /* the time loop, output excluded */
  double output;           /* fetching and writing fields */
  size_t files;            /* files written */
  double transfer_out;     /* newest field back to the host */
  double exchange;         /* MPI: packing, starting and finishing the
                              halo exchange (rank 0's share of solve) */
  size_t tile_steps;       /* explicit host steps fused per pass over
                              the field (1: none) */
  const char *tile_refusal; /* why the run fuses none (tile_steps 1),
                               else NULL */
  size_t bytes_per_update; /* an explicit update of a cell must move:
                              16, and 48 for a variable material */
  double best_pass;        /* explicit steps: seconds a step of the
                              fastest pass (rank 0's; the kernels and
                              halo exchange only), 0 where none ran */
  double copy_gb_s;        /* --bench: copy bandwidth where kernels ran */
  double memcpy_gb_s;      /* --bench: the same by omp_target_memcpy */
  double total;
};

/* Set up both fields of this rank's part of the grid for cfg: from
   initial (the whole field, taken over or freed) when it holds data, else
   from cfg's problem.  Returns 0 or a heatsim_status.  */
int solver_init (struct solver *s, const struct config *cfg, int device,
                 struct domain *domain, struct field *initial);

/* Build what cfg's solver needs beside the fields: the multigrid levels
   of a steady multigrid run or an implicit scheme, their memory touched
   (nothing for the others), so that building them is set-up, as
   allocating the fields is, and not solve time.  Every rank calls it
   once solver_init has succeeded on all.  Returns 0 or a
   heatsim_status.  */
int solver_prepare (struct solver *s, const struct config *cfg);

/* Run the steps of cfg (to the steady state with cfg->steady), writing
   output as it falls due; afterwards s->u on the host holds the last step.
   Returns 0 or a heatsim_status (an output failure ends the run).  */
int solver_run (struct solver *s, const struct config *cfg,
                struct output *out, struct run_result *result);

void solver_free (struct solver *s);

#endif
