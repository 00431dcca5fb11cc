/* Progress of a long run on stderr, at most every few seconds, so that a
   user at a terminal or reading a batch log sees that it moves.  */
#ifndef HEATSIM_PROGRESS_H
#define HEATSIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress {
  bool enabled;
  size_t steps;            /* steps of the run (sweeps: the most allowed) */
  double start, last;      /* omp_get_wtime of the start and last line */
};

void progress_start (struct progress *p, bool enabled, size_t steps);
/* residual < 0: none known (time-dependent runs).  */
void progress_update (struct progress *p, size_t step, double residual);
void progress_finish (const struct progress *p);

#endif
