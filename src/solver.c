#include <config.h>

#include "solver.h"

#include <omp.h>

#include "options.h"
#include "output.h"
#include "problem.h"
#include "report.h"
#include "status.h"
#include "strategy.h"

int
solver_init (struct solver *s, const struct config *cfg, int device,
             struct field *initial)
{
  s->strategy = cfg->strategy;
  s->device = device;
  const double dx = config_dx (cfg), dy = config_dy (cfg);
  const double rx = cfg->alpha * cfg->dt / (dx * dx);
  const double ry = cfg->alpha * cfg->dt / (dy * dy);
  s->stencil = (struct stencil) {
    .nx = cfg->nx, .ny = cfg->ny, .stride = cfg->nx + 2,
    .rx = rx, .ry = ry,
    /* Steady sweeps are Jacobi: the centre weight is exactly zero.  */
    .rc = cfg->steady ? 0.0 : 1.0 - 2.0 * (rx + ry),
  };
  problem_halo (cfg, &s->stencil.halo);
  s->u = *initial;
  initial->data = NULL;
  bool from_file = s->u.data != NULL;
  if ((!from_file && !field_alloc (&s->u, cfg->nx, cfg->ny))
      || !field_alloc (&s->unew, cfg->nx, cfg->ny))
    {
      heatsim_error ("cannot allocate two %zu x %zu grids", cfg->nx, cfg->ny);
      solver_free (s);
      return HEATSIM_FAILURE;
    }
  if (from_file)
    problem_set_edges (cfg, &s->u);
  else
    problem_init (cfg, &s->u);
  /* The kernel writes only the interior; both fields carry the boundary.  */
  field_copy (&s->unew, &s->u);
  return HEATSIM_OK;
}

/* A time-dependent run: cfg->steps steps.  */
static int
run_steps (struct solver *s, const struct config *cfg, struct output *out,
           struct run_result *r)
{
  struct progress progress;
  int status = HEATSIM_OK;
  progress_start (&progress, !cfg->quiet, cfg->steps);
  size_t n = 0;
  while (n < cfg->steps && status == HEATSIM_OK)
    {
      s->strategy->step (s);
      field_swap (&s->u, &s->unew);
      ++n;
      status = output_step (out, s, cfg->start_step + n, n == cfg->steps);
      progress_update (&progress, n, -1.0);
    }
  progress_finish (&progress);
  r->steps = n;
  return status;
}

/* A steady-state run: sweeps until the largest change of a cell is at most
   tol.  The change is computed (fused into the sweep) and read by the host
   only every residual_every sweeps, so most sweeps cost no round trip.  */
static int
run_to_steady_state (struct solver *s, const struct config *cfg,
                     struct output *out, struct run_result *r)
{
  struct progress progress;
  int status = HEATSIM_OK;
  progress_start (&progress, !cfg->quiet, cfg->max_steps);
  r->converged = false;
  r->residual = -1.0;
  size_t n = 0;
  while (n < cfg->max_steps && !r->converged && status == HEATSIM_OK)
    {
      ++n;
      if (n % cfg->residual_every == 0 || n == cfg->max_steps)
        {
          r->residual = s->strategy->step_residual (s);
          r->converged = r->residual <= cfg->tol;
        }
      else
        s->strategy->step (s);
      field_swap (&s->u, &s->unew);
      status = output_step (out, s, cfg->start_step + n,
                            r->converged || n == cfg->max_steps);
      progress_update (&progress, n, r->residual);
    }
  progress_finish (&progress);
  r->steps = n;
  return status;
}

int
solver_run (struct solver *s, const struct config *cfg, struct output *out,
            struct run_result *r)
{
  double t0 = omp_get_wtime ();
  s->strategy->enter (s);
  double t1 = omp_get_wtime ();
  int status = cfg->steady ? run_to_steady_state (s, cfg, out, r)
               : run_steps (s, cfg, out, r);
  double t2 = omp_get_wtime ();
  s->strategy->leave (s);
  double t3 = omp_get_wtime ();

  r->transfer_in = t1 - t0;
  r->output = out->seconds;
  r->files = out->files;
  r->solve = t2 - t1 - r->output;
  r->transfer_out = t3 - t2;
  return status;
}

void
solver_free (struct solver *s)
{
  field_free (&s->u);
  field_free (&s->unew);
}
