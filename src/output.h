/* Field output during a run: PNG snapshots and HDF5 checkpoints of the
   state the run starts from, every K steps and at the final step, and an
   XDMF index of the checkpoints for ParaView and VisIt.  Output receives a
   field on the host; bringing it there from the device is the solver's
   business.  */
#ifndef HEATSIM_OUTPUT_H
#define HEATSIM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "png_io.h"
#include "xdmf.h"

struct config;
struct domain;
struct field;

struct output {
  const struct config *cfg;
  struct png_style png;
  size_t files;             /* files written */
  size_t frames;            /* snapshots named so far: the next frame index */
  struct xdmf_index index;  /* on rank 0: checkpoints of earlier runs
                               kept on restart, then this run's */
  double initial_residual;  /* steady multigrid: the run's initial residual
                               norm, for checkpoints (0: none) */
  double initial_largest;   /* steady: the largest |u| of the field the
                               whole run started from, for checkpoints */
  const struct material *material;   /* the run's, for checkpoints (NULL:
                                        none) */
};

/* Prepare the output directory and the PNG value range (from initial, this
   rank's part of the field, when the user gave none).  When the run
   continues a checkpoint (--restart, --init of one) with checkpoints on,
   take over from the output directory's XDMF index the entries of steps
   and times before those of the run's start whose files are still
   there.
   Returns 0 or a heatsim_status.  */
int output_open (struct output *o, const struct config *cfg,
                 const struct domain *d, const struct field *initial);

/* Whether this run's snapshots, checkpoints or XDMF index can be
   written to path, or to the file it leads to through links (for other
   outputs, which must not be).  */
bool output_writes (const struct config *cfg, const char *path);

/* Whether files can be created in the output directory dir: make one
   and remove it.  Returns 0 or a heatsim_status, with a message.  */
int output_dir_writable (const char *dir);

/* Write the state the run starts from (step 0, or the step of the
   checkpoint it continues): u is this rank's part of it, current on the
   host.  A PNG snapshot and a checkpoint are written when those outputs
   are on, except a checkpoint that is the file continued itself, which
   is only indexed.  All ranks
   call it together.  Returns 0 or a heatsim_status.  */
int output_write_first (struct output *o, const struct domain *d,
                        const struct field *u);

/* Whether anything is written after step.  */
bool output_due (const struct output *o, size_t step, bool last);

/* Whether a checkpoint is among it.  */
bool output_checkpoint_due (const struct output *o, size_t step, bool last);

/* Write what is due after step: u is this rank's part of the field of
   that step, current on the host.  last: the final step of the run.  All
   ranks call it together.  Returns 0 or a heatsim_status.  */
int output_write (struct output *o, const struct domain *d,
                  const struct field *u, size_t step, bool last);

void output_close (struct output *o);

#endif
