/* Command-line options: parsed and validated into a struct config by a pure
   function, so that tests can drive it without running a simulation.  */
#ifndef HEATSIM_OPTIONS_H
#define HEATSIM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "problem.h"

struct colormap;
struct strategy;

/* Which options the user gave, where that changes what others mean.  */
struct given_options {
  bool grid, length, alpha, steps, dt, end_time, force, disk, problem;
  bool boundary, tol, max_steps, residual_every, range, kernel;
};

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
  enum kernel_form kernel;   /* how target kernels spread the grid */
  bool require_device;    /* fail rather than fall back to the host */
  bool force;             /* run even if the time step is unstable */
  bool steady;            /* iterate to the steady state instead */
  double tol;             /* steady: stop when no cell changes by more */
  size_t max_steps;       /* steady: give up after this many sweeps */
  size_t residual_every;  /* steady: read the largest change this often */
  size_t nan_check_every; /* look for NaN or Inf in the field this often */
  bool quiet;             /* no progress on stderr */
  bool json;              /* machine-readable report on stdout */
  bool bench;             /* measure the copy bandwidth for comparison */

  /* Output: PNG snapshots and HDF5 checkpoints, every K steps and at the
     end (0: none).  */
  const char *output_dir;
  size_t png_every;
  const char *png_name;   /* file-name pattern with one %d for the step */
  const struct colormap *colormap;
  int png_depth;          /* 8 (colour) or 16 (grayscale) */
  bool range_given;
  double range[2];        /* values at the ends of the colour map */
  size_t checkpoint_every;
  const char *checkpoint_name;
  int compress;           /* HDF5 deflate level, 0 for none */

  /* Input: a checkpoint to continue, or an initial field from a file.  */
  const char *restart;
  const char *init;       /* HDF5 or PNG file */
  const char *init_dataset;   /* HDF5 dataset, or NULL: /field */
  double init_range[2];   /* PNG gray levels 0 and max map to these */
  size_t start_step;      /* step number of the initial field */

  struct given_options given;
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

/* For --init and --restart: the grid (and, from a checkpoint, the time
   step) is known only once the file is read.  Set it, then derive and check
   what depends on it, as options_parse does otherwise.  Returns false with
   a message in err.  */
bool options_finish_with_grid (struct config *cfg, size_t nx, size_t ny,
                               char *err, size_t errlen);

/* The --help text.  */
void options_usage (FILE *out);

static inline double config_dx (const struct config *c) { return c->lx / (double) (c->nx + 1); }
static inline double config_dy (const struct config *c) { return c->ly / (double) (c->ny + 1); }

/* alpha * dt * (1/dx^2 + 1/dy^2): the explicit scheme is stable for <= 1/2.  */
double config_stability (const struct config *c);

#endif
