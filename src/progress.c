#include <config.h>

#include "progress.h"

#include <omp.h>
#include <stdio.h>

void
progress_start (struct progress *p, bool enabled, double interval,
                size_t steps)
{
  p->enabled = enabled && interval > 0.0;
  p->interval = interval;
  p->steps = steps;
  p->start = p->last = omp_get_wtime ();
}

void
progress_update (struct progress *p, size_t step, double t, double residual)
{
  if (!p->enabled)
    return;
  double now = omp_get_wtime ();
  if (now - p->last < p->interval)
    return;
  p->last = now;
  double elapsed = now - p->start;
  if (t < 0.0 && residual >= 0.0)
    fprintf (stderr, PACKAGE ": sweep %zu, largest change %.3e, %.1f s "
             "elapsed\n", step, residual, elapsed);
  else if (t < 0.0)
    fprintf (stderr, PACKAGE ": sweep %zu, %.1f s elapsed\n", step, elapsed);
  else
    fprintf (stderr, PACKAGE ": step %zu of %zu (%.0f%%), t = %g, %.1f s "
             "elapsed, about %.1f s left\n", step, p->steps,
             100.0 * (double) step / (double) p->steps, t, elapsed,
             elapsed / (double) step * (double) (p->steps - step));
}

void
progress_finish (const struct progress *p)
{
  /* Close a progress display with the final time, if one was shown.  */
  if (p->enabled && p->last > p->start)
    fprintf (stderr, PACKAGE ": done in %.1f s\n", omp_get_wtime () - p->start);
}
