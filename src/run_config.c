#include <config.h>

#include "run_config.h"

#include "names.h"

double
config_stability (const struct config *c)
{
  const double dx = config_dx (c), dy = config_dy (c);
  return config_diffusivity_max (c) * c->dt
         * (1.0 / (dx * dx) + 1.0 / (dy * dy));
}

static const char *const boundary_names[] = {
  [BOUNDARY_DIRICHLET] = "dirichlet",
  [BOUNDARY_NEUMANN] = "neumann",
  [BOUNDARY_PERIODIC] = "periodic",
  [BOUNDARY_ROBIN] = "convection",
};

const char *
boundary_name (enum boundary_kind kind)
{
  return boundary_names[kind];
}

/* --boundary takes the kinds that need no value.  */
bool
boundary_find (const char *name, enum boundary_kind *kind)
{
  size_t k;
  if (!name_index (boundary_names, BOUNDARY_ROBIN, name, &k))
    return false;
  *kind = (enum boundary_kind) k;
  return true;
}

const char *
config_boundary_summary (const struct config *c)
{
  for (int e = 1; e < EDGE_COUNT; ++e)
    if (c->bc[e].kind != c->bc[0].kind)
      return "mixed";
  return boundary_name (c->bc[0].kind);
}

static const char *const kernel_form_names[] = {
  [KERNEL_COLLAPSE] = "collapse", [KERNEL_SPLIT] = "split",
  [KERNEL_BARE] = "bare",
};

const char *
kernel_form_name (enum kernel_form form)
{
  return kernel_form_names[form];
}

bool
kernel_form_find (const char *name, enum kernel_form *form)
{
  size_t k;
  if (!name_index (kernel_form_names, sizeof kernel_form_names
                   / sizeof *kernel_form_names, name, &k))
    return false;
  *form = (enum kernel_form) k;
  return true;
}

static const char *const steady_solver_names[] = {
  [SOLVER_MULTIGRID] = "multigrid", [SOLVER_JACOBI] = "jacobi",
};

const char *
steady_solver_name (enum steady_solver solver)
{
  return steady_solver_names[solver];
}

bool
steady_solver_find (const char *name, enum steady_solver *solver)
{
  size_t k;
  if (!name_index (steady_solver_names, sizeof steady_solver_names
                   / sizeof *steady_solver_names, name, &k))
    return false;
  *solver = (enum steady_solver) k;
  return true;
}

static const char *const time_scheme_names[] = {
  [SCHEME_EXPLICIT] = "explicit",
  [SCHEME_BACKWARD_EULER] = "backward-euler",
  [SCHEME_CRANK_NICOLSON] = "crank-nicolson",
};

const char *
time_scheme_name (enum time_scheme scheme)
{
  return time_scheme_names[scheme];
}

bool
time_scheme_find (const char *name, enum time_scheme *scheme)
{
  size_t k;
  if (!name_index (time_scheme_names, sizeof time_scheme_names
                   / sizeof *time_scheme_names, name, &k))
    return false;
  *scheme = (enum time_scheme) k;
  return true;
}

static const char *const temperature_unit_names[] = {
  [TEMPERATURE_NONE] = "1", [TEMPERATURE_KELVIN] = "K",
  [TEMPERATURE_CELSIUS] = "degC",
};

const char *
temperature_unit_name (enum temperature_unit unit)
{
  return temperature_unit_names[unit];
}

bool
temperature_unit_find (const char *name, enum temperature_unit *unit)
{
  size_t k;
  if (!name_index (temperature_unit_names, sizeof temperature_unit_names
                   / sizeof *temperature_unit_names, name, &k))
    return false;
  *unit = (enum temperature_unit) k;
  return true;
}
