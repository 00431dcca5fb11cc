#include <config.h>

#include "derive.h"

#include <math.h>
#include <stdint.h>

#include "parse.h"
#include "run_config.h"

/* The explicit scheme's stability rule, for a dt that came from opt.
   Implicit schemes are stable for every dt.  */
static bool
check_stability (struct parser *p, const struct config *c, const char *opt)
{
  if (c->scheme != SCHEME_EXPLICIT)
    return true;
  const double r = config_stability (c);
  if (!(r <= STABILITY_LIMIT) && !c->force)
    return parse_fail (p, "%s: time step %g is unstable on this grid: "
                       "alpha*dt*(1/dx^2 + 1/dy^2) = %g > %g; use dt <= %g "
                       "(more --steps) or --force", opt, c->dt, r,
                       STABILITY_LIMIT, c->dt * STABILITY_LIMIT / r);
  return true;
}

/* --restart: dt comes from the checkpoint, --steps (--max-steps) counts
   the steps to add after its step; the same rules as for a new run.  */
static bool
continue_checkpoint (struct parser *p, struct config *c)
{
  const size_t more = c->steady ? c->max_steps : c->steps;
  if (more > SIZE_MAX - c->start_step)
    return parse_fail (p, "--%s: %zu more steps after step %zu of the "
                       "checkpoint: too many steps (the step counter would "
                       "overflow)", c->steady ? "max-steps" : "steps", more,
                       c->start_step);
  c->end_time = c->dt * (double) (c->start_step + more);
  if (!isfinite (c->end_time))
    return parse_fail (p, "--steps: %zu more steps of dt %g: the simulated "
                       "time is out of range", more, c->dt);
  if (c->steady)
    {
      c->steps = c->max_steps;
      return true;
    }
  return check_stability (p, c, "--restart");
}

bool
derive_settings (struct config *c, char *err, size_t errlen)
{
  struct parser p = { err, errlen };
  const struct given_options given = c->given;
  size_t bytes;
  if (!field_bytes (c->nx, c->ny, &bytes) || bytes > SIZE_MAX / 2)
    return parse_fail (&p, "--grid: %zux%zu cells need more memory than "
                       "this machine can address", c->nx, c->ny);
  if (c->restart != NULL)
    return continue_checkpoint (&p, c);
  if (!given.disk)
    c->disk_radius = 0.25 * fmin (c->lx, c->ly);
  if (c->steady)
    {
      /* A Jacobi sweep is the explicit step with the largest stable dt:
         rc = 0.  dt, steps and end time then count sweeps, not time.  */
      const double dx = config_dx (c), dy = config_dy (c);
      c->dt = STABILITY_LIMIT / (c->alpha * (1.0 / (dx * dx) + 1.0 / (dy * dy)));
      c->steps = c->max_steps;
      c->end_time = c->dt * (double) c->steps;
      return true;
    }

  if (given.steps && given.dt && given.end_time)
    return parse_fail (&p, "--steps, --dt, --end-time: give at most two of "
                       "them");
  if (given.dt && given.end_time)
    {
      double n = ceil (c->end_time / c->dt * (1.0 - 1e-12));
      if (!(n >= 1.0) || n > 1e15)
        return parse_fail (&p, "--end-time %g / --dt %g: %g steps is not a "
                           "usable step count", c->end_time, c->dt, n);
      c->steps = (size_t) n;
      c->dt = c->end_time / (double) c->steps;
    }
  else if (given.dt)
    c->end_time = c->dt * (double) c->steps;
  else
    c->dt = c->end_time / (double) c->steps;
  if (!(c->dt > 0.0) || !isfinite (c->end_time))
    return parse_fail (&p, "--dt %g with %zu steps: time step or end time "
                       "out of range", c->dt, c->steps);

  return check_stability (&p, c, "--dt");
}
