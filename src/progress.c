#include <config.h>

#include "progress.h"

#include <omp.h>
#include <stdio.h>

/* Seconds between two progress lines.  */
static const double progress_interval = 2.0;

void
progress_start (struct progress *p, bool enabled, size_t steps)
{
  p->enabled = enabled;
  p->steps = steps;
  p->start = p->last = omp_get_wtime ();
}

void
progress_update (struct progress *p, size_t step, double residual)
{
  if (!p->enabled)
    return;
  double now = omp_get_wtime ();
  if (now - p->last < progress_interval)
    return;
  p->last = now;
  double elapsed = now - p->start;
  if (residual >= 0.0)
    fprintf (stderr, PACKAGE ": sweep %zu, largest change %.3e, %.1f s "
             "elapsed\n", step, residual, elapsed);
  else
    fprintf (stderr, PACKAGE ": step %zu of %zu (%.0f%%), %.1f s elapsed, "
             "about %.1f s left\n", step, p->steps,
             100.0 * (double) step / (double) p->steps, elapsed,
             elapsed / (double) step * (double) (p->steps - step));
}

void
progress_finish (const struct progress *p)
{
  /* Close a progress display with the final time, if one was shown.  */
  if (p->enabled && p->last > p->start)
    fprintf (stderr, PACKAGE ": done in %.1f s\n", omp_get_wtime () - p->start);
}
