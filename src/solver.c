#include <config.h>

#include "solver.h"

#include <omp.h>

#include "options.h"
#include "problem.h"
#include "report.h"
#include "status.h"
#include "strategy.h"

int
solver_init (struct solver *s, const struct config *cfg, int device)
{
  s->strategy = cfg->strategy;
  s->device = device;
  const double rx = cfg->alpha * cfg->dt / (config_dx (cfg) * config_dx (cfg));
  const double ry = cfg->alpha * cfg->dt / (config_dy (cfg) * config_dy (cfg));
  s->stencil = (struct stencil) {
    .nx = cfg->nx, .ny = cfg->ny, .stride = cfg->nx + 2,
    .rx = rx, .ry = ry, .rc = 1.0 - 2.0 * (rx + ry),
  };
  if (!field_alloc (&s->u, cfg->nx, cfg->ny)
      || !field_alloc (&s->unew, cfg->nx, cfg->ny))
    {
      heatsim_error ("cannot allocate two %zu x %zu grids", cfg->nx, cfg->ny);
      solver_free (s);
      return HEATSIM_FAILURE;
    }
  if (!problem_init (cfg, &s->u))
    {
      heatsim_error ("out of memory while setting up the initial field");
      solver_free (s);
      return HEATSIM_FAILURE;
    }
  /* The kernel writes only the interior; both fields carry the boundary.  */
  field_copy (&s->unew, &s->u);
  return HEATSIM_OK;
}

void
solver_run (struct solver *s, const struct config *cfg,
            struct run_times *times)
{
  const struct strategy *strategy = s->strategy;
  struct progress progress;

  double t0 = omp_get_wtime ();
  strategy->enter (s);
  double t1 = omp_get_wtime ();

  progress_start (&progress, !cfg->quiet, cfg->steps);
  for (size_t n = 0; n < cfg->steps; ++n)
    {
      strategy->step (s);
      field_swap (&s->u, &s->unew);
      progress_update (&progress, n + 1);
    }
  progress_finish (&progress);
  double t2 = omp_get_wtime ();

  strategy->leave (s);
  double t3 = omp_get_wtime ();

  times->transfer_in = t1 - t0;
  times->solve = t2 - t1;
  times->transfer_out = t3 - t2;
}

void
solver_free (struct solver *s)
{
  field_free (&s->u);
  field_free (&s->unew);
}
