#include <config.h>

#include "monitor.h"

#include <math.h>
#include <stdio.h>

#include "diagnostics.h"
#include "domain.h"
#include "heat_rates.h"
#include "problem.h"
#include "run_config.h"
#include "status.h"

int
monitor_check (struct monitor *m, const struct config *cfg,
               const struct domain *d)
{
  *m = MONITOR_NONE;
  if (cfg->monitor == NULL)
    return HEATSIM_OK;
  m->on = true;
  return d->rank == 0
         ? series_check (&m->file, "--monitor", "monitor", cfg->monitor,
                         MONITOR_HEADER, cfg, cfg->monitor_every,
                         "--monitor-every")
         : HEATSIM_OK;
}

int
monitor_begin (struct monitor *m, const struct domain *d)
{
  return m->on && d->rank == 0 ? series_begin (&m->file) : HEATSIM_OK;
}

bool
monitor_due (const struct monitor *m, const struct config *cfg, size_t step,
             bool last)
{
  return m->on && (last || step == cfg->start_step
                   || step % cfg->monitor_every == 0);
}

/* "%.17g," of v, or "," where it is unknown, infinite or NaN: an empty
   CSV field, as the JSON report writes null for these.  A zero is "0":
   the rate through an insulated edge, a sum of -0.0 terms, would read
   "-0", a sign that means nothing.  */
static int
put_number (char *buf, size_t len, bool known, double v, char sep)
{
  return known && isfinite (v)
         ? snprintf (buf, len, "%.17g%c", v == 0.0 ? 0.0 : v, sep)
         : snprintf (buf, len, "%c", sep);
}

int
monitor_write (struct monitor *m, const struct config *cfg,
               const struct domain *d, const struct material *material,
               const struct field *u, size_t step, bool last,
               double change, double residual)
{
  /* The quantities and reductions of the final report (main.c,
     measure), so that the last row equals the report.  */
  struct error_norms e = { 0 };
  const bool exact = problem_has_exact (cfg);
  if (exact && !problem_error (cfg, d, u, cfg->steady ? 0.0
                               : config_time (cfg, step), &e))
    {
      heatsim_error ("--monitor: out of memory for the exact solution");
      return HEATSIM_NO_MEMORY;
    }
  const double heat = total_heat (d, cfg, material, u);
  double lo, hi;
  field_range (u, &lo, &hi);
  lo = domain_min (d, lo);
  hi = domain_max (d, hi);
  const double time = cfg->steady ? 0.0 : config_time (cfg, step);
  struct heat_budget b;
  heat_budget (d, cfg, material, u, time, &b);
  b.stored = cfg->steady ? 0.0
             : m->heat_known && m->heat_step + 1 == step
             ? (heat - m->heat) / cfg->dt : NAN;
  monitor_note_heat (m, step, heat);
  if (!series_takes (&m->file, cfg, step, last))
    return HEATSIM_OK;

  char row[1024];
  size_t n = (size_t) snprintf (row, sizeof row, "%zu,", step);
  n += put_number (row + n, sizeof row - n, !cfg->steady, time, ',');
  n += put_number (row + n, sizeof row - n, true, heat, ',');
  n += put_number (row + n, sizeof row - n, true, lo, ',');
  n += put_number (row + n, sizeof row - n, true, hi, ',');
  n += put_number (row + n, sizeof row - n, exact, e.l2, ',');
  n += put_number (row + n, sizeof row - n, change >= 0.0, change, ',');
  n += put_number (row + n, sizeof row - n, residual >= 0.0, residual, ',');
  for (int k = 0; k < EDGE_COUNT; ++k)
    n += put_number (row + n, sizeof row - n, true, b.rate[k], ',');
  n += put_number (row + n, sizeof row - n, true, b.source, ',');
  n += put_number (row + n, sizeof row - n, true, b.face_cooling, ',');
  n += put_number (row + n, sizeof row - n, true, b.stored, ',');
  n += put_number (row + n, sizeof row - n, true,
                   heat_budget_imbalance (&b), '\n');
  return series_append (&m->file, step, row, n);
}

bool
monitor_wants_heat (const struct monitor *m, const struct config *cfg,
                    size_t step, bool next_last)
{
  return !cfg->steady && monitor_due (m, cfg, step + 1, next_last)
         && !(m->heat_known && m->heat_step == step);
}

void
monitor_note_heat (struct monitor *m, size_t step, double heat)
{
  m->heat_known = true;
  m->heat_step = step;
  m->heat = heat;
}

int
monitor_sync (struct monitor *m)
{
  return series_sync (&m->file);
}

int
monitor_close (struct monitor *m)
{
  return series_close (&m->file);
}
