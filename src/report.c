#include <config.h>

#include "report.h"

#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>

#include "options.h"
#include "strategy.h"

enum { PROGRESS_INTERVAL_S = 2 };

void
heatsim_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs (PACKAGE ": ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

void
progress_start (struct progress *p, bool enabled, size_t steps)
{
  p->enabled = enabled;
  p->steps = steps;
  p->start = p->last = omp_get_wtime ();
}

void
progress_update (struct progress *p, size_t step)
{
  if (!p->enabled)
    return;
  double now = omp_get_wtime ();
  if (now - p->last < PROGRESS_INTERVAL_S)
    return;
  p->last = now;
  double elapsed = now - p->start;
  double left = elapsed / (double) step * (double) (p->steps - step);
  fprintf (stderr, PACKAGE ": step %zu of %zu (%.0f%%), %.1f s elapsed, "
           "about %.1f s left\n", step, p->steps,
           100.0 * (double) step / (double) p->steps, elapsed, left);
}

void
progress_finish (const struct progress *p)
{
  /* Close a progress display with the final count, if one was shown.  */
  if (p->enabled && p->last > p->start)
    fprintf (stderr, PACKAGE ": step %zu of %zu done in %.1f s\n",
             p->steps, p->steps, omp_get_wtime () - p->start);
}

double
report_updates_per_second (const struct config *cfg, const struct run_times *t)
{
  double updates = (double) cfg->nx * (double) cfg->ny * (double) cfg->steps;
  return t->solve > 0.0 ? updates / t->solve : 0.0;
}

double
report_bandwidth (const struct config *cfg, const struct run_times *t)
{
  return 2.0 * sizeof (double) * report_updates_per_second (cfg, t);
}

static void
describe_placement (char *buf, size_t len, const struct config *cfg,
                    const struct placement *w)
{
  if (w->on_device)
    snprintf (buf, len, "offload device %d of %d (device code: %s)",
              w->device, w->num_devices, HEATSIM_OFFLOAD_ARCH);
  else if (cfg->strategy->offload)
    snprintf (buf, len, "host, %d threads (FALLBACK: target regions ran on "
              "the host; no offload device %d)", w->threads, w->device);
  else
    snprintf (buf, len, "host, %d threads", w->threads);
}

void
report_print (FILE *out, const struct config *cfg, const struct run_report *r)
{
  char where[160];
  describe_placement (where, sizeof where, cfg, &r->where);
  const struct run_times *t = &r->times;
  fprintf (out,
           "heatsim %s: 2-D heat equation, explicit 5-point stencil\n"
           "  grid          %zu x %zu cells, domain %g x %g, dx %E, dy %E\n"
           "  physics       alpha %g, dt %E, %zu steps to t = %g\n"
           "  stability     alpha*dt*(1/dx^2+1/dy^2) = %g (limit 0.5)\n"
           "  strategy      %s\n"
           "  ran on        %s\n"
           "Results\n"
           "  L2 error      %E (sqrt of the sum over cells of (u - exact)^2)\n"
           "  rel. error    %E\n"
           "  max error     %E\n"
           "  total heat    %.15E\n"
           "  checksum      %016" PRIx64 "\n"
           "Timing (s)\n"
           "  setup %.6f  transfer in %.6f  solve %.6f  transfer out %.6f  "
           "total %.6f\n"
           "  %.4g cell updates/s, %.2f GB/s effective (16 bytes per update)\n",
           PACKAGE_VERSION, cfg->nx, cfg->ny, cfg->lx, cfg->ly,
           config_dx (cfg), config_dy (cfg), cfg->alpha, cfg->dt, cfg->steps,
           cfg->end_time, config_stability (cfg), cfg->strategy->name, where,
           r->error.l2, r->error.relative, r->error.max, r->heat, r->checksum,
           t->setup, t->transfer_in, t->solve, t->transfer_out, t->total,
           report_updates_per_second (cfg, t),
           1e-9 * report_bandwidth (cfg, t));
}

void
report_json (FILE *out, const struct config *cfg, const struct run_report *r)
{
  const struct run_times *t = &r->times;
  const struct placement *w = &r->where;
  fprintf (out,
           "{\"version\": \"%s\", \"problem\": \"mms\", "
           "\"nx\": %zu, \"ny\": %zu, \"lx\": %.17g, \"ly\": %.17g, "
           "\"dx\": %.17g, \"dy\": %.17g, \"alpha\": %.17g, \"dt\": %.17g, "
           "\"steps\": %zu, \"end_time\": %.17g, \"stability\": %.17g, "
           "\"strategy\": \"%s\", \"on_device\": %s, \"device\": %d, "
           "\"num_devices\": %d, \"host_threads\": %d, "
           "\"offload_arch\": \"%s\", "
           "\"l2_error\": %.17g, \"relative_error\": %.17g, "
           "\"max_error\": %.17g, \"heat\": %.17g, \"checksum\": \"%016" PRIx64 "\", "
           "\"time_setup\": %.9f, \"time_transfer_in\": %.9f, "
           "\"time_solve\": %.9f, \"time_transfer_out\": %.9f, "
           "\"time_total\": %.9f, \"cell_updates_per_s\": %.6g, "
           "\"bandwidth_gb_s\": %.6g}\n",
           PACKAGE_VERSION, cfg->nx, cfg->ny, cfg->lx, cfg->ly,
           config_dx (cfg), config_dy (cfg), cfg->alpha, cfg->dt, cfg->steps,
           cfg->end_time, config_stability (cfg), cfg->strategy->name,
           w->on_device ? "true" : "false", w->device, w->num_devices,
           w->threads, HEATSIM_OFFLOAD_ARCH, r->error.l2, r->error.relative,
           r->error.max, r->heat, r->checksum, t->setup, t->transfer_in, t->solve,
           t->transfer_out, t->total, report_updates_per_second (cfg, t),
           1e-9 * report_bandwidth (cfg, t));
}
