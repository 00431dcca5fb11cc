#include <config.h>

#include "derive.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "domain.h"
#include "footprint.h"
#include "material.h"
#include "parse.h"
#include "run_config.h"
#include "schedule.h"

/* What made dt, as the user gave it: the options, or the defaults the
   time step came from.  */
static void
describe_dt (const struct config *c, char *text, size_t size)
{
  const struct given_options g = c->given;
  if (c->restart != NULL)
    snprintf (text, size, "--restart");
  else if (g.dt)
    snprintf (text, size, "--dt");
  else if (g.end_time && g.steps)
    snprintf (text, size, "--end-time %g with --steps %zu", c->end_time,
              c->steps);
  else if (g.steps)
    snprintf (text, size, "--steps %zu (with the default --end-time %g)",
              c->steps, c->end_time);
  else if (g.end_time)
    snprintf (text, size, "--end-time %g (with the default %zu steps)",
              c->end_time, c->steps);
  else
    snprintf (text, size, "the default --end-time %g and %zu steps",
              c->end_time, c->steps);
}

/* The option of the largest heat transfer coefficient H among those
   given: a convection edge's (--bc EDGE) or the face cooling's, into
   text.  False where no H is given.  */
static bool
largest_h_option (const struct config *c, char *text, size_t size)
{
  double h = -1.0;
  if (c->surface_given)
    {
      h = schedule_max (&c->surface_h);
      snprintf (text, size, "--surface-convection");
    }
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (c->bc[e].kind == BOUNDARY_ROBIN && schedule_max (&c->bc[e].h) > h)
      {
        h = schedule_max (&c->bc[e].h);
        snprintf (text, size, "--bc %s", edge_name ((enum edge) e));
      }
  return h >= 0.0;
}

/* What gave the cells' size, into text: the checkpoint, --length or
   the file of --init.  */
static void
describe_length (const struct config *c, char *text, size_t size)
{
  if (c->restart != NULL)
    snprintf (text, size, "--restart %s: its cells", c->restart);
  else if (!c->given.length && c->init != NULL)
    snprintf (text, size, "--init %s: its cells", c->init);
  else if (c->lx == c->ly)
    snprintf (text, size, "--length %g: cells", c->lx);
  else
    snprintf (text, size, "--length %gx%g: cells", c->lx, c->ly);
}

/* Why the stability number overflows, where each of its factors is a
   finite number but their product is not, into text.  Taken factor by
   factor in config_stability's order, so that the first one that leaves
   the range of double is named: the cells' size, the diffusivity, an H
   (or the plate's thickness that divides the faces' H), the smallest
   rho c_p, and last dt.  A default must never be blamed for what the
   user gave (it was: --surface-convection, never given).  */
static void
describe_overflow (const struct config *c, char *text, size_t size)
{
  char what[320];
  const double dx = config_dx (c), dy = config_dy (c);
  const double inverse = 1.0 / (dx * dx) + 1.0 / (dy * dy);
  if (!isfinite (inverse))
    {
      describe_length (c, what, sizeof what);
      snprintf (text, size, "%s of %g x %g are so small that the explicit "
                "stability number overflows (1/dx^2 + 1/dy^2 = %g)", what,
                dx, dy, inverse);
      return;
    }
  if (!isfinite (config_diffusivity_stable (c) * inverse))
    {
      config_describe_material (c, true, what, sizeof what);
      snprintf (text, size, "%s is so large that the explicit stability "
                "number overflows on cells of %g x %g", what, dx, dy);
      return;
    }
  const double rate = config_boundary_rate (c);
  const double face_h = c->surface_given ? schedule_max (&c->surface_h) : 0;
  const bool thin = c->surface_given && isfinite (2.0 * face_h)
                    && !isfinite (2.0 * face_h / c->thickness);
  const double capacity = c->material.given ? c->material.capacity_min : 1.0;
  if (c->restart != NULL && !isfinite (rate / capacity))
    snprintf (text, size, "--restart %s: its heat transfer coefficients H "
              "(or its rho c_p) are such that the explicit stability number "
              "overflows", c->restart);
  else if (thin)
    snprintf (text, size, "--thickness %g: a plate so thin that the "
              "explicit stability number overflows (face cooling's 2 H / D, "
              "H %g)", c->thickness, face_h);
  else if (!isfinite (rate) && largest_h_option (c, what, sizeof what))
    snprintf (text, size, "%s: a heat transfer coefficient H so large that "
              "the explicit stability number overflows", what);
  else if (!isfinite (rate / capacity))
    snprintf (text, size, "%s%s: the smallest rho c_p, %g, is so small "
              "that the explicit stability number overflows",
              c->material.map != NULL ? "--material-map "
              : "--density, --heat-capacity", c->material.map != NULL
              ? c->material.map : "", capacity);
  else
    {
      describe_dt (c, what, sizeof what);
      snprintf (text, size, "%s: time step %g so large that the explicit "
                "stability number overflows", what, c->dt);
    }
}

/* The explicit scheme's stability rule.  Implicit schemes are stable for
   every dt: the message offers them, but a checkpoint fixes its scheme.  */
static bool
check_stability (struct parser *p, const struct config *c)
{
  if (c->scheme != SCHEME_EXPLICIT)
    return true;
  const double r = config_stability (c);
  char source[128];
  /* No dt is stable where it overflows, and --force would run into
     NaN.  */
  if (!isfinite (r))
    {
      char why[768];
      describe_overflow (c, why, sizeof why);
      return parse_fail (p, "%s", why);
    }
  /* The gain dt / (rho c_p) by which the variable step (or a uniform
     source's rise) brings the flow and the source to a node must be a
     normal double: a subnormal one keeps a few digits of them (a
     hostile pass found a uniform source 1.2 % short).  The constant
     stencil takes alpha alone.  */
  if (!c->steady && c->material.variable
      && c->dt / c->material.capacity_max < DBL_MIN)
    {
      describe_dt (c, source, sizeof source);
      return parse_fail (p, "%s: dt / (rho c_p) = %g / %g is below double's "
                         "smallest normal magnitude, so the explicit step "
                         "would lose the digits of the heat it adds; %s",
                         source, c->dt, c->material.capacity_max,
                         c->restart != NULL ? "the checkpoint fixes dt and "
                         "its scheme" : "use a larger dt or an implicit "
                         "--scheme");
    }
  if (r <= STABILITY_LIMIT || c->force)
    return true;
  describe_dt (c, source, sizeof source);
  const double dt_max = c->dt * STABILITY_LIMIT / r;
  /* Convection edges and face cooling add to the rate of decay; a
     varying k's faces can conduct more than a node's own k.  */
  const char *terms = config_stability_terms (c);
  char number[256];
  if (config_stability_by_faces (c))
    snprintf (number, sizeof number, "the stability number (dt/2 times a "
              "node's largest rate of decay: its faces' conductances over "
              "its rho c_p%s%s)", terms != NULL ? ", with " : "",
              terms != NULL ? terms : "");
  else
    snprintf (number, sizeof number, "alpha*dt*(1/dx^2 + 1/dy^2)%s%s",
              terms != NULL ? " + dt/2 times the rate of " : "",
              terms != NULL ? terms : "");
  if (c->restart != NULL)
    return parse_fail (p, "%s: time step %g is unstable on this grid: "
                       "%s = %g > %g; the checkpoint fixes dt: use --force",
                       source, c->dt, number, r, STABILITY_LIMIT);
  return parse_fail (p, "%s: time step %g is unstable on this grid: "
                     "%s = %g > %g; use dt <= %g "
                     "(more --steps, or --steps auto with --end-time), an "
                     "implicit --scheme backward-euler or crank-nicolson "
                     "(stable for any dt), or --force", source, c->dt,
                     number, r, STABILITY_LIMIT, dt_max);
}

/* The bounds of 1/dx^2 and 1/dy^2 in a steady run, and of alpha dt/dx^2
   and alpha dt/dy^2 in an implicit one: the stencil's weights.  Within
   them the steady sweep's dt is finite, and multigrid's weights (divided
   by 4 on each coarser level) stay far from the doubles' underflow and
   overflow; its residual norms scale their squares (mg_square_scale), so
   fields anywhere in this range solve (tests/numeric-faults.sh).  */
#define WEIGHT_MIN 1e-280
#define WEIGHT_MAX 1e280

static bool
weight_in_range (double w)
{
  return w >= WEIGHT_MIN && w <= WEIGHT_MAX;
}

/* The stencil's weights of a steady or implicit run, in range.  */
static bool
check_scale (struct parser *p, const struct config *c)
{
  if (!c->steady && c->scheme == SCHEME_EXPLICIT)
    return true;
  const double dx = config_dx (c), dy = config_dy (c);
  const double w = c->steady ? 1.0 : c->alpha * c->dt;
  const double wx = w / dx / dx, wy = w / dy / dy;
  if (weight_in_range (wx) && weight_in_range (wy))
    return true;
  if (c->steady)
    return parse_fail (p, "--steady: cells of %g x %g are too %s "
                       "(1/dx^2 = %g, 1/dy^2 = %g; the steady solvers need "
                       "%g to %g)", dx, dy, fmin (wx, wy) < WEIGHT_MIN
                       ? "large" : "small", wx, wy, WEIGHT_MIN, WEIGHT_MAX);
  /* Named as the user gave them (it said --alpha and --dt, neither
     given, of a material map's k).  */
  char alpha[320], dt[128], length[320];
  config_describe_material (c, true, alpha, sizeof alpha);
  describe_dt (c, dt, sizeof dt);
  describe_length (c, length, sizeof length);
  return parse_fail (p, "--scheme %s: alpha*dt/dx^2 = %g, alpha*dt/dy^2 = %g: "
                     "out of multigrid's range, %g to %g (alpha %g from %s; "
                     "dt %g from %s; %s of %g x %g)",
                     time_scheme_name (c->scheme), wx, wy, WEIGHT_MIN,
                     WEIGHT_MAX, c->alpha, alpha, c->dt, dt, length, dx, dy);
}

/* The largest step count derived from a time: beyond it the count, and
   step * dt, are no longer exact in a double.  */
#define MAX_DERIVED_STEPS 1e15

/* Whether the run would be stable with its end time in this many steps.  */
static bool
stable_with (const struct config *c, size_t steps)
{
  struct config trial = *c;
  trial.dt = c->end_time / (double) steps;
  return config_stability (&trial) <= STABILITY_LIMIT;
}

/* --steps auto: the fewest steps that keep the explicit scheme stable up
   to the end time, steps = ceil (T / dt_max), dt = T / steps, with dt_max
   from config_stability <= 1/2.  It is --dt dt_max --end-time T
   without the user working dt_max out.  Implicit schemes are stable for
   any dt: there is no step count to derive.  */
static bool
auto_steps (struct parser *p, struct config *c, struct given_options given)
{
  if (c->scheme != SCHEME_EXPLICIT)
    return parse_fail (p, "--steps auto sizes explicit steps; give -n or "
                       "--dt with an implicit scheme");
  if (given.dt)
    return parse_fail (p, "--steps auto: not with --dt (it chooses the time "
                       "step; give --end-time)");
  if (!given.end_time)
    return parse_fail (p, "--steps auto: needs --end-time (the simulated "
                       "time to reach)");
  /* The stability number is dt times a rate.  */
  struct config unit = *c;
  unit.dt = 1.0;
  /* A rate beyond double has no stable step: say which factor, as -n
     does (it read "needs inf steps of at most 0").  */
  if (!isfinite (config_stability (&unit)))
    {
      char why[768];
      describe_overflow (&unit, why, sizeof why);
      return parse_fail (p, "--steps auto: %s", why);
    }
  const double dt_max = STABILITY_LIMIT / config_stability (&unit);
  const double n = fmax (1.0, ceil (c->end_time / dt_max));
  if (!(n <= MAX_DERIVED_STEPS))
    return parse_fail (p, "--steps auto: --end-time %g needs %g steps of at "
                       "most %g: too many steps", c->end_time, n, dt_max);
  /* T / dt_max and T / steps round, so ceil may be one off either way:
     judge each count by the stability number that check_stability will
     compute, taking one step fewer while that is stable and one more
     while this is not.  A step changes dt by far more than rounding, so
     each loop ends after one or two turns.  */
  c->steps = (size_t) n;
  c->dt = c->end_time / (double) c->steps;
  while (c->steps > 1 && stable_with (c, c->steps - 1))
    c->dt = c->end_time / (double) --c->steps;
  while (config_stability (c) > STABILITY_LIMIT)
    c->dt = c->end_time / (double) ++c->steps;
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
    c->steps = c->max_steps;
  return check_scale (p, c)
         && (c->steady || check_stability (p, c));
}

/* Whether a map sets the grid: read without --grid or a file that
   fixes it (material.c's read_whole), the grid is the map's.  */
static bool
grid_from_map (const struct config *c)
{
  return !c->given.grid && c->init == NULL && c->restart == NULL
         && (c->material.map != NULL || c->material.source_map != NULL);
}

/* What set the grid, for a message: --grid (or its default), the file
   of --init or --restart, or the first map that read_whole reads.  */
static void
describe_grid (const struct config *c, char *text, size_t size)
{
  if (c->restart != NULL)
    snprintf (text, size, "--restart %s", c->restart);
  else if (c->init != NULL)
    snprintf (text, size, "--init %s", c->init);
  else if (!grid_from_map (c))
    snprintf (text, size, "--grid");
  else if (c->material.map != NULL)
    snprintf (text, size, "--material-map %s", c->material.map);
  else
    snprintf (text, size, "--source-map %s", c->material.source_map);
}

/* Each axis must span at least one interval: two edge nodes need two
   nodes between the edges, one edge node one.  */
static bool
check_axes (struct parser *p, const struct config *c)
{
  static const char *const names[] = { "x", "y" };
  const size_t n[] = { c->nx, c->ny };
  for (int a = 0; a < 2; ++a)
    {
      const struct edge_condition *lo = &c->bc[2 * a], *hi = &c->bc[2 * a + 1];
      if (axis_intervals (n[a], lo->kind, hi->kind) < 1)
        {
          char source[320];
          describe_grid (c, source, sizeof source);
          return parse_fail (p, "%s: %zu node%s along %s cannot have "
                             "nodes on both edges (%s %s, %s %s): give at "
                             "least 2", source, n[a], n[a] == 1 ? "" : "s",
                             names[a], edge_name ((enum edge) (2 * a)),
                             edge_kind_name (lo),
                             edge_name ((enum edge) (2 * a + 1)),
                             edge_kind_name (hi));
        }
    }
  return true;
}

/* Whether the grid's fields can be addressed at all: a grid too large
   for memory (status too_large), checked before the axes, whose count
   nx + 1 wraps at the largest size_t.  */
static bool
check_addressable (struct parser *p, struct config *c)
{
  size_t bytes;
  if (field_bytes (c->nx, c->ny, &bytes) && bytes <= SIZE_MAX / 2)
    return true;
  c->too_large = true;
  return parse_fail (p, "--grid: %zux%zu cells need more memory than "
                     "this machine can address", c->nx, c->ny);
}

/* The grid's checks, in this order for every source of the grid: an
   unaddressable grid first, whose axes' count nx + 1 may wrap.  */
static bool
check_grid (struct parser *p, struct config *c)
{
  return check_addressable (p, c) && check_axes (p, c);
}

/* A run of one rank whose least footprint cannot fit: refused before
   its maps are read and its source grid made, which took 3 GB and 6 s
   for a refusal of a 20000^2 steady run, 19.5 GB and 41 s at 50000^2.
   Several ranks each read the whole maps too, but split the run: main
   checks each rank's part.  */
static bool
check_least_memory (struct parser *p, struct config *c)
{
  if (domain_world_size () > 1)
    return true;
  const struct footprint least = least_footprint (c);
  if (footprint_fits (&least, c->nx, c->ny, p->err, p->errlen))
    return true;
  c->too_large = true;
  return false;
}

bool
derive_settings (struct config *c, bool to_run, char *err, size_t errlen)
{
  struct parser p = { err, errlen, false };
  const struct given_options given = c->given;
  const struct material_options *m = &c->material;
  /* A grid that a map sets is known once the map is read; one that the
     options or a file set is checked first, so that it, not a map of
     another size, is blamed.  Before check_scale: dx or dy would be
     infinite (and a run without it gave inf and NaN).  */
  const bool from_map = grid_from_map (c);
  if (!from_map && !check_grid (&p, c))
    return false;
  /* Before the memory check, which would hide it.  */
  if (!c->steady && c->restart == NULL && given.steps && given.dt
      && given.end_time)
    return parse_fail (&p, "--steps, --dt, --end-time: give at most two of "
                       "them");
  /* Only where material_derive would read a map or make a source grid:
     otherwise main's check comes after every other refusal here.  */
  if (!from_map && to_run && (m->map != NULL || material_options_source (m))
      && !check_least_memory (&p, c))
    return false;
  if (!material_derive (c, err, errlen))
    return false;
  if (from_map && !check_grid (&p, c))
    return false;
  if (c->restart != NULL)
    return continue_checkpoint (&p, c);
  if (!given.disk)
    c->disk_radius = 0.25 * fmin (c->lx, c->ly);
  if (c->steady)
    {
      if (!check_scale (&p, c))
        return false;
      /* A Jacobi sweep is the explicit step with the largest stable dt:
         rc = 0.  dt, steps and end time then count sweeps, not time.  */
      const double dx = config_dx (c), dy = config_dy (c);
      c->dt = STABILITY_LIMIT / (config_diffusivity_stable (c)
                                 * (1.0 / (dx * dx) + 1.0 / (dy * dy)));
      c->steps = c->max_steps;
      c->end_time = c->dt * (double) c->steps;
      return true;
    }

  if (given.steps_auto)
    {
      if (!auto_steps (&p, c, given))
        return false;
    }
  else if (given.dt && given.end_time)
    {
      double n = ceil (c->end_time / c->dt * (1.0 - 1e-12));
      if (!(n >= 1.0) || n > MAX_DERIVED_STEPS)
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

  return check_scale (&p, c) && check_stability (&p, c);
}
