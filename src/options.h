/* Command-line options: parsed and validated into a struct config by a pure
   function, so that tests can drive it without running a simulation.  */
#ifndef HEATSIM_OPTIONS_H
#define HEATSIM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "problem.h"

struct strategy;

struct config {
  const struct problem *problem;
  enum boundary_kind boundary;
  bool edges_given;       /* Dirichlet values from --edges, not the problem */
  double edges[EDGE_COUNT];
  double disk_radius, disk_inside, disk_outside;   /* --problem disk */
  size_t nx, ny;          /* interior cells in x and y */
  double lx, ly;          /* domain lengths; spacing is length / (cells + 1) */
  double alpha;           /* thermal diffusivity */
  size_t steps;           /* time steps */
  double dt;              /* time step */
  double end_time;        /* steps * dt */
  const struct strategy *strategy;
  int device;             /* offload device, or -1 for the OpenMP default */
  bool require_device;    /* fail rather than fall back to the host */
  bool force;             /* run even if the time step is unstable */
  bool steady;            /* iterate to the steady state instead */
  double tol;             /* steady: stop when no cell changes by more */
  size_t max_steps;       /* steady: give up after this many sweeps */
  size_t residual_every;  /* steady: read the largest change this often */
  bool quiet;             /* no progress on stderr */
  bool json;              /* machine-readable report on stdout */
};

enum options_action {
  OPTIONS_RUN,            /* cfg is valid: simulate */
  OPTIONS_HELP,
  OPTIONS_VERSION,
  OPTIONS_LIST_DEVICES,
  OPTIONS_ERROR           /* err holds a one-line message */
};

/* Parse argv into cfg.  On OPTIONS_ERROR, err (of errlen bytes) says which
   option and value were wrong.  */
enum options_action options_parse (int argc, char **argv, struct config *cfg,
                                   char *err, size_t errlen);

/* The --help text.  */
void options_usage (FILE *out);

static inline double config_dx (const struct config *c) { return c->lx / (double) (c->nx + 1); }
static inline double config_dy (const struct config *c) { return c->ly / (double) (c->ny + 1); }

/* alpha * dt * (1/dx^2 + 1/dy^2): the explicit scheme is stable for <= 1/2.  */
double config_stability (const struct config *c);

#endif
