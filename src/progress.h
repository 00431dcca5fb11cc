/* Progress of a long run on stderr, at most every --progress-every
   seconds, so that a user at a terminal or reading a batch log sees that
   it moves, and how far in simulated time it has come.  */
#ifndef HEATSIM_PROGRESS_H
#define HEATSIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress {
  bool enabled;
  double interval;         /* seconds between two lines */
  size_t steps;            /* steps of the run (sweeps: the most allowed) */
  double start, last;      /* omp_get_wtime of the start and last line */
};

/* interval 0: no progress lines.  */
void progress_start (struct progress *p, bool enabled, double interval,
                     size_t steps);
/* After step (of this run) at simulated time t; t < 0: a steady run,
   which has no time, with the largest change of the last checked sweep
   (residual < 0: none checked yet).  */
void progress_update (struct progress *p, size_t step, double t,
                      double residual);
void progress_finish (const struct progress *p);

#endif
