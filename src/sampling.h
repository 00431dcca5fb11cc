/* The temperatures a run writes at points: --probe's CSV time series
   (a series_file: append-safe, never overwritten, continued by
   --restart) and --profile's field along a segment, written whole
   (atomic.h) as profile.csv at the run's last step and as
   profile-STEP.csv (PROFILE_PATTERN) with each checkpoint, both in
   --output-dir.  */
#ifndef HEATSIM_SAMPLING_H
#define HEATSIM_SAMPLING_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "probes.h"
#include "run_config.h"
#include "series_file.h"

struct config;
struct domain;
struct field;

#define PROFILE_FINAL "profile.csv"
#define PROFILE_PATTERN "profile-%06d.csv"

struct sampling {
  struct series_file file;          /* --probe-file, on rank 0 */
  char path[PATH_MAX];              /* its path */
  char *header;                     /* its header line */
  struct probe_point probes[PROBES_MAX];
  struct probe_point *profile;      /* --profile's points, or NULL */
  size_t profile_points;
  double *nodes;                    /* room for probe_sample_many */
  double *values;
};

/* Nothing to sample: what sampling_close accepts before sampling_check.  */
#define SAMPLING_NONE \
  ((struct sampling) { .file = SERIES_NONE, .header = NULL, \
                       .profile = NULL, .nodes = NULL, .values = NULL })

/* Place cfg's probes and profile on the grid and check their files
   before the first step; nothing is written yet (but --output-dir is
   made).  A point outside the domain is refused (HEATSIM_USAGE) naming
   it; the probe file as series_check says, and also when it is the
   --monitor file; a file of the profile's names that is the run's
   input, --monitor or --probe-file, or that snapshots or checkpoints
   would write.  Returns 0 or a heatsim_status.  */
int sampling_check (struct sampling *s, const struct config *cfg,
                    const struct domain *d);

/* Create, or with --restart continue, the probe file on rank 0.
   Returns 0 or a heatsim_status.  */
int sampling_begin (struct sampling *s, const struct domain *d);

/* Whether anything is written after step (last: the run's last).  */
bool sampling_due (const struct config *cfg, size_t step, bool last);

/* Write what is due after step: u is this rank's part of the field,
   current on the host, halo ring filled.  Collective.  Returns 0 or a
   heatsim_status.  */
int sampling_write (struct sampling *s, const struct config *cfg,
                    const struct domain *d, const struct field *u,
                    size_t step, bool last);

/* Flush the probe file to disk, close it and free s.  Returns 0 or a
   heatsim_status.  */
int sampling_close (struct sampling *s);

#endif
