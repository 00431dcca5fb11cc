/* Problems.  Cell (i, j) sits at x = config_x (i), y = config_y (j); the
   interior is 1 <= i <= nx, 1 <= j <= ny.  A Dirichlet edge's nodes are
   the halo ring's, on the domain's edge x = 0, Lx or y = 0, Ly; any other
   edge's are the interior's outer line (run_config.h).  y grows with j:
   row 0 is the bottom.  */
#include <config.h>

#include "problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "domain.h"
#include "kernels.h"
#include "material.h"
#include "run_config.h"

static bool
is_halo (const struct config *c, size_t i, size_t j)
{
  return i == 0 || j == 0 || i == c->nx + 1 || j == c->ny + 1;
}

static bool
dirichlet_from_problem (const struct config *c)
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (c->bc[e].kind != BOUNDARY_DIRICHLET || c->bc[e].given)
      return false;
  return !c->edges_given;
}

/* mms: the manufactured solution of the OpenMP GPU tutorial,
     u0 = sin(pi x / Lx) sin(pi y / Ly), zero on the edge,
     u(t) = exp(-alpha pi^2 (1/Lx^2 + 1/Ly^2) t) u0.
   The evaluation order matches the tutorial's:
   exp(...) * sin(pi x / L) * sin(pi y / L), with x = i dx exactly
   (config_x with Dirichlet edges).  */

static double
mms_sine (const struct config *c, enum axis axis, size_t k)
{
  const size_t n = axis == AXIS_X ? c->nx : c->ny;
  const double x = axis == AXIS_X ? config_x (c, k) : config_y (c, k);
  const double length = axis == AXIS_X ? c->lx : c->ly;
  if (k == 0 || k == n + 1)
    return 0.0;          /* exactly: sin(pi) is not */
  return sin (M_PI * x / length);
}

static double
mms_decay (const struct config *c, double t)
{
  /* alpha pi^2 may overflow (--alpha 1e308 --force): inf times t = 0
     would make the initial field NaN.  exp (-0) is 1 all the same.  */
  if (t == 0.0)
    return 1.0;
  const double a = c->alpha * M_PI * M_PI * t;
  /* -(a/Lx^2 + a/Ly^2) is bitwise the tutorial's -2 a / L^2 when Lx = Ly. */
  return exp (-(a / (c->lx * c->lx) + a / (c->ly * c->ly)));
}

static const struct separable mms_solution = {
  .amplitude = mms_decay, .profile = mms_sine,
};

static bool
mms_has_exact (const struct config *c)
{
  return dirichlet_from_problem (c) && !c->steady;
}

/* plate: the heated plate of the OpenACC case study.  The interior starts
   at 0; the left and top edges are held at 0; the right and bottom edges
   rise linearly to PLATE_HOT at the bottom-right corner.  Its steady state
   is the bilinear u = PLATE_HOT (x / Lx) (1 - y / Ly), which the 5-point
   stencil reproduces exactly.  */

#define PLATE_HOT 100.0

static double
plate_exact (const struct config *c, size_t i, size_t j, double t)
{
  (void) t;
  const double x = config_x (c, i), y = config_y (c, j);
  return PLATE_HOT * (x / c->lx) * (1.0 - y / c->ly);
}

static double
plate_initial (const struct config *c, size_t i, size_t j)
{
  return is_halo (c, i, j) ? plate_exact (c, i, j, 0.0) : 0.0;
}

static bool
plate_has_exact (const struct config *c)
{
  return dirichlet_from_problem (c) && c->steady;
}

/* disk: a disk of radius R at the centre of the domain at temperature
   inside, everything else, the edge included, at temperature outside.  */

static double
disk_initial (const struct config *c, size_t i, size_t j)
{
  if (is_halo (c, i, j))
    return c->disk_outside;
  const double x = config_x (c, i) - 0.5 * c->lx;
  const double y = config_y (c, j) - 0.5 * c->ly;
  return x * x + y * y <= c->disk_radius * c->disk_radius
         ? c->disk_inside : c->disk_outside;
}

static bool
no_exact (const struct config *c)
{
  (void) c;
  return false;
}

/* uniform: the whole field, fixed edges included, at
   --initial-temperature (0 without it): a material run's start, whose
   sources and edge conditions then drive it.  */

static double
uniform_initial (const struct config *c, size_t i, size_t j)
{
  (void) i;
  (void) j;
  return c->material.initial_temperature;
}

static const struct problem mms_problem = {
  .name = "mms",
  .summary = "sin(pi x/Lx) sin(pi y/Ly), zero edges; exact solution known",
  .separable = &mms_solution, .has_exact = mms_has_exact,
};

static const struct problem plate_problem = {
  .name = "plate",
  .summary = "cold plate; right and bottom edges rise to 100 at their corner",
  .initial = plate_initial, .exact = plate_exact, .has_exact = plate_has_exact,
};

static const struct problem disk_problem = {
  .name = "disk",
  .summary = "hot disk (--disk R,INSIDE,OUTSIDE) in a cold domain",
  .initial = disk_initial, .exact = NULL, .has_exact = no_exact,
};

static const struct problem uniform_problem = {
  .name = "uniform",
  .summary = "field and fixed edges at --initial-temperature (default 0)",
  .initial = uniform_initial, .exact = NULL, .has_exact = no_exact,
};

/* file: the initial field, halo included, is read from --init FILE.  */
static const struct problem file_problem = {
  .name = "file",
  .summary = "initial field from --init FILE, edges from its outer ring",
  .from_file = true, .has_exact = no_exact,
};

const struct problem *const heatsim_problems[] = {
  &mms_problem, &plate_problem, &disk_problem, &uniform_problem,
  &file_problem, NULL
};

const struct problem *
problem_default (const struct config *c)
{
  const bool material = c->material.given
                        || c->material.initial_temperature_given;
  return material ? &uniform_problem : heatsim_problems[0];
}

const struct problem *
problem_find (const char *name)
{
  for (const struct problem *const *p = heatsim_problems; *p; ++p)
    if (strcmp ((*p)->name, name) == 0)
      return *p;
  return NULL;
}

static double
edge_value (const struct config *c, size_t i, size_t j, double interior)
{
  if (i == 0)
    return c->edges[EDGE_LEFT];
  if (i == c->nx + 1)
    return c->edges[EDGE_RIGHT];
  if (j == 0)
    return c->edges[EDGE_BOTTOM];
  if (j == c->ny + 1)
    return c->edges[EDGE_TOP];
  return interior;
}

/* A separable problem at time t: its amplitude and profiles, computed once
   for all cells.  */
struct sampled {
  double amplitude;
  double *across, *up;     /* profiles over i and j, halo included */
};

static double *
sample_profile (const struct config *c, enum axis axis, size_t n)
{
  double *v = malloc ((n + 2) * sizeof *v);
  if (v != NULL)
    for (size_t k = 0; k <= n + 1; ++k)
      v[k] = c->problem->separable->profile (c, axis, k);
  return v;
}

static bool
sample (struct sampled *s, const struct config *c, double t)
{
  *s = (struct sampled) { .amplitude = 0.0 };
  const struct separable *sep = c->problem->separable;
  if (sep == NULL)
    return true;
  s->amplitude = sep->amplitude (c, t);
  s->across = sample_profile (c, AXIS_X, c->nx);
  s->up = sample_profile (c, AXIS_Y, c->ny);
  return s->across != NULL && s->up != NULL;
}

static void
sample_free (struct sampled *s)
{
  free (s->across);
  free (s->up);
}

/* Cell (i, j) of a separable problem, in the tutorial's order:
   exp(...) * sin(pi x / L) * sin(pi y / L).  */
static double
sampled_value (const struct sampled *s, size_t i, size_t j)
{
  return s->amplitude * s->across[i] * s->up[j];
}

bool
problem_init (const struct config *c, struct field *u)
{
  struct sampled s;
  const bool ok = sample (&s, c, 0.0);
  if (ok)
    {
      const bool separable = c->problem->separable != NULL;
      const size_t nx = u->nx, ny = u->ny, stride = u->stride;
      const size_t x0 = u->x0, y0 = u->y0;
      double *data = u->data;
#pragma omp parallel for schedule(static)
      for (size_t j = 0; j <= ny + 1; ++j)
        for (size_t i = 0; i <= nx + 1; ++i)
          data[j * stride + i]
            = separable ? sampled_value (&s, x0 + i, y0 + j)
              : c->problem->initial (c, x0 + i, y0 + j);
      material_initial_field (c, u);
      problem_set_edges (c, u);
    }
  sample_free (&s);
  return ok;
}

void
problem_set_edges (const struct config *c, struct field *u)
{
  if (!c->edges_given)
    return;
  for (size_t j = 0; j <= u->ny + 1; ++j)
    for (size_t i = 0; i <= u->nx + 1; ++i)
      u->data[field_index (u, i, j)]
        = edge_value (c, u->x0 + i, u->y0 + j,
                      u->data[field_index (u, i, j)]);
}

bool
problem_has_exact (const struct config *c)
{
  /* The exact solutions are those of a uniform material without
     sources, from the problem's initial field.  */
  return (c->problem->exact != NULL || c->problem->separable != NULL)
         && !c->material.variable
         && !c->material.initial_temperature_given
         && c->problem->has_exact (c);
}

bool
problem_error (const struct config *c, const struct domain *d,
               const struct field *u, double t, struct error_norms *e)
{
  struct sampled s;
  const bool ok = sample (&s, c, t);
  double sq_diff = 0.0, sq_exact = 0.0, max = 0.0;
  if (ok)
    {
      const bool separable = c->problem->separable != NULL;
      const size_t nx = u->nx, ny = u->ny, stride = u->stride;
      const size_t x0 = u->x0, y0 = u->y0;
      const double *data = u->data;
#pragma omp parallel for schedule(static) \
  reduction(+: sq_diff, sq_exact) reduction(max: max)
      for (size_t j = 1; j <= ny; ++j)
        for (size_t i = 1; i <= nx; ++i)
          {
            const double exact
              = separable ? sampled_value (&s, x0 + i, y0 + j)
                : c->problem->exact (c, x0 + i, y0 + j, t);
            const double diff = data[j * stride + i] - exact;
            sq_diff += diff * diff;
            sq_exact += exact * exact;
            max = fmax (max, fabs (diff));
          }
    }
  sample_free (&s);
  /* Every rank reduces, even one that failed, or the others would wait.  */
  sq_diff = domain_sum (d, sq_diff);
  sq_exact = domain_sum (d, sq_exact);
  e->l2 = sqrt (sq_diff);
  e->relative = sq_exact > 0.0 ? e->l2 / sqrt (sq_exact) : 0.0;
  e->max = domain_max (d, max);
  return domain_count (d, !ok) == 0;
}

void
problem_halo (const struct config *c, size_t nx, size_t ny, struct halo *h)
{
  *h = (struct halo) { .refresh = false };
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      h->copy[e] = c->bc[e].kind != BOUNDARY_DIRICHLET;
      h->refresh |= h->copy[e];
    }
  const size_t n[EDGE_COUNT] = { nx, nx, ny, ny };
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      /* An edge node's halo is its mirror image, the line beyond it
         (the second or the last but one); a periodic edge's halo is the
         opposite edge's line (the first or the last).  */
      const bool high = e & 1;
      if (c->bc[e].kind == BOUNDARY_PERIODIC)
        h->source[e] = high ? 1 : n[e];
      else
        h->source[e] = high ? n[e] - 1 : 2;
    }
}
