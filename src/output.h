/* Field output during a run: PNG snapshots every K steps, HDF5 checkpoints
   every K steps, both at the final step, and an XDMF index of the
   checkpoints for ParaView and VisIt.  Output receives a field on the
   host; bringing it there from the device is the solver's business.  */
#ifndef HEATSIM_OUTPUT_H
#define HEATSIM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "png_io.h"

struct config;
struct domain;
struct field;

struct output {
  const struct config *cfg;
  struct png_style png;
  size_t files;             /* files written */
  size_t frames;            /* snapshots named so far: the next frame index */
  size_t *checkpoints;      /* steps of the checkpoints written, for XDMF */
  size_t ncheckpoints, capacity;
  double initial_residual;  /* steady multigrid: the run's initial residual
                               norm, for checkpoints (0: none) */
};

/* Prepare the output directory and the PNG value range (from initial, this
   rank's part of the field, when the user gave none).  Returns 0 or a
   heatsim_status.  */
int output_open (struct output *o, const struct config *cfg,
                 const struct domain *d, const struct field *initial);

/* Whether this run's snapshots, checkpoints or XDMF index can be
   written to path (for other outputs, which must not be).  */
bool output_writes (const struct config *cfg, const char *path);

/* Whether anything is written after step.  */
bool output_due (const struct output *o, size_t step, bool last);

/* Write what is due after step: u is this rank's part of the field of
   that step, current on the host.  last: the final step of the run.  All
   ranks call it together.  Returns 0 or a heatsim_status.  */
int output_write (struct output *o, const struct domain *d,
                  const struct field *u, size_t step, bool last);

void output_close (struct output *o);

#endif
