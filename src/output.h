/* Field output during a run: PNG snapshots every K steps, HDF5 checkpoints
   every K steps, both at the final step, and an XDMF index of the
   checkpoints for ParaView and VisIt.  Only the field being written
   crosses from the device, and only on output steps.  */
#ifndef HEATSIM_OUTPUT_H
#define HEATSIM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "png_io.h"

struct config;
struct domain;
struct field;
struct solver;

struct output {
  const struct config *cfg;
  struct png_style png;
  double seconds;           /* time spent fetching and writing */
  size_t files;             /* files written */
  size_t *checkpoints;      /* steps of the checkpoints written, for XDMF */
  size_t ncheckpoints, capacity;
};

/* Check a file-name pattern: one printf-style step conversion (%d or
   %0Nd, N <= 20), '%%' for a percent sign, no '/'.  */
bool output_pattern_ok (const char *pattern);

/* Expand pattern for step into buf; false if it does not fit.  */
bool output_name (char *buf, size_t len, const char *dir, const char *pattern,
                  size_t step);

/* Prepare the output directory and the PNG value range (from initial, this
   rank's part of the field, when the user gave none).  Returns 0 or a heatsim_status.  */
int output_open (struct output *o, const struct config *cfg,
                 const struct domain *d, const struct field *initial);

/* Whether anything is written after step.  */
bool output_due (const struct output *o, size_t step, bool last);

/* After step (the step number of the newest field, s->u): write what is
   due.  last: the final step of the run.  Returns 0 or a heatsim_status. */
int output_step (struct output *o, struct solver *s, size_t step, bool last);

void output_close (struct output *o);

#endif
