#include <config.h>

#include "run_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

/* The largest value of a schedule (schedule_max's, which this type
   layer cannot include: schedule.h includes it).  */
static double
largest_value (const struct schedule *s)
{
  double m = s->points == 0 ? s->value : s->values[0];
  for (size_t k = 1; k < s->points; ++k)
    m = fmax (m, s->values[k]);
  return m;
}

/* The rates of config_boundary_rate: rate[0] the convection edges',
   rate[1] face cooling's.  */
static void
boundary_rates (const struct config *c, double rate[2])
{
  const double spacing[EDGE_COUNT] = { config_dx (c), config_dx (c),
                                       config_dy (c), config_dy (c) };
  double edge[2] = { 0.0, 0.0 };
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (c->bc[e].kind == BOUNDARY_ROBIN)
      edge[e / 2] = fmax (edge[e / 2],
                          2.0 * largest_value (&c->bc[e].h) / spacing[e]);
  rate[0] = edge[0] + edge[1];
  rate[1] = c->surface_given
            ? 2.0 * largest_value (&c->surface_h) / c->thickness : 0.0;
}

double
config_boundary_rate (const struct config *c)
{
  double rate[2];
  boundary_rates (c, rate);
  return rate[0] + rate[1];
}

const char *
config_stability_terms (const struct config *c)
{
  double rate[2];
  boundary_rates (c, rate);
  if (rate[0] > 0.0 && rate[1] > 0.0)
    return "convection and face cooling";
  if (rate[0] > 0.0)
    return "convection";
  return rate[1] > 0.0 ? "face cooling" : NULL;
}

double
config_stability (const struct config *c)
{
  const double dx = config_dx (c), dy = config_dy (c);
  const double capacity = c->material.given ? c->material.capacity_min : 1.0;
  /* Written so that without boundary terms it is bitwise what it was.  */
  return config_diffusivity_stable (c) * c->dt
         * (1.0 / (dx * dx) + 1.0 / (dy * dy))
         + 0.5 * c->dt * (config_boundary_rate (c) / capacity);
}

void
config_describe_material (const struct config *c, bool diffusivity,
                          char *text, size_t size)
{
  const struct material_options *m = &c->material;
  const bool given = c->given.alpha;
  if (c->restart != NULL)
    snprintf (text, size, "--restart %s: its material", c->restart);
  else if (m->map != NULL && diffusivity)
    snprintf (text, size, "--material-map %s: its largest k / (rho c_p) "
              "= %g", m->map, config_diffusivity_stable (c));
  else if (m->map != NULL)
    snprintf (text, size, "--material-map %s", m->map);
  else if (material_options_uniform (m) && diffusivity)
    snprintf (text, size, "--conductivity %g: k / (rho c_p) = %g",
              m->conductivity, config_diffusivity_stable (c));
  else if (material_options_uniform (m))
    snprintf (text, size, "--conductivity %g", m->conductivity);
  else if (!given && c->init != NULL)
    snprintf (text, size, "--init %s: its alpha %g%s", c->init, c->alpha,
              diffusivity ? "" : " (k = alpha)");
  else
    snprintf (text, size, "--alpha %g%s", c->alpha,
              given ? diffusivity ? "" : " (k = alpha)"
              : diffusivity ? " (the default)" : " (the default; k = alpha)");
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

static const char *const edge_names[EDGE_COUNT] = {
  [EDGE_LEFT] = "left", [EDGE_RIGHT] = "right",
  [EDGE_BOTTOM] = "bottom", [EDGE_TOP] = "top",
};

const char *
edge_name (enum edge e)
{
  return edge_names[e];
}

bool
edge_find (const char *name, enum edge *e)
{
  size_t k;
  if (!name_index (edge_names, EDGE_COUNT, name, &k))
    return false;
  *e = (enum edge) k;
  return true;
}

/* Whether b is a zero constant heat flux.  */
static bool
insulated (const struct edge_condition *b)
{
  return b->kind == BOUNDARY_NEUMANN && b->value.path == NULL
         && b->value.value == 0.0;
}

static const struct edge_kind_word edge_kind_words[] = {
  { "temperature", BOUNDARY_DIRICHLET, "T" },
  { "flux", BOUNDARY_NEUMANN, "Q" },
  { "insulated", BOUNDARY_NEUMANN, NULL },
  { "convection", BOUNDARY_ROBIN, "H,TINF" },
  { "periodic", BOUNDARY_PERIODIC, NULL },
};

#define EDGE_KIND_WORDS (sizeof edge_kind_words / sizeof *edge_kind_words)

const struct edge_kind_word *
edge_kind_word_find (const char *spec)
{
  const size_t length = strcspn (spec, ":");
  for (size_t k = 0; k < EDGE_KIND_WORDS; ++k)
    if (strlen (edge_kind_words[k].word) == length
        && strncmp (spec, edge_kind_words[k].word, length) == 0)
      return &edge_kind_words[k];
  return NULL;
}

const char *
edge_kind_name (const struct edge_condition *b)
{
  if (insulated (b))
    return "insulated";
  /* The first word of each kind is its general one (flux, not
     insulated).  */
  size_t k = 0;
  while (edge_kind_words[k].kind != b->kind)
    ++k;
  return edge_kind_words[k].word;
}

bool
edge_spec_kind (const char *spec, enum boundary_kind *kind)
{
  const struct edge_kind_word *w = edge_kind_word_find (spec);
  if (w != NULL)
    *kind = w->kind;
  return w != NULL;
}

/* A value as --bc takes it: @FILE, or the shortest number that reads
   back as the same double.  */
static int
value_spec (const struct schedule *s, char *text, size_t size)
{
  if (s->path != NULL)
    return snprintf (text, size, "@%s", s->path);
  int n = snprintf (text, size, "%.15g", s->value);
  if (n >= 0 && (size_t) n < size && strtod (text, NULL) != s->value)
    n = snprintf (text, size, "%.17g", s->value);
  return n;
}

bool
edge_condition_spec (const struct edge_condition *b, char *text, size_t size)
{
  if (size == 0)
    return false;
  text[0] = '\0';
  if (b->kind == BOUNDARY_DIRICHLET && !b->given)
    return true;
  int n = snprintf (text, size, "%s", edge_kind_name (b));
  if (b->kind == BOUNDARY_PERIODIC || insulated (b))
    return n >= 0 && (size_t) n < size;
  const struct schedule *first = b->kind == BOUNDARY_ROBIN ? &b->h : &b->value;
  if (n >= 0 && (size_t) n + 1 < size)
    {
      text[n++] = ':';
      const int m = value_spec (first, text + n, size - (size_t) n);
      n = m < 0 ? m : n + m;
    }
  if (b->kind == BOUNDARY_ROBIN && n >= 0 && (size_t) n + 1 < size)
    {
      text[n++] = ',';
      const int m = value_spec (&b->ambient, text + n, size - (size_t) n);
      n = m < 0 ? m : n + m;
    }
  return n >= 0 && (size_t) n < size;
}

bool
surface_convection_spec (const struct config *c, char *text, size_t size)
{
  int n = value_spec (&c->surface_h, text, size);
  if (n >= 0 && (size_t) n + 1 < size)
    {
      text[n++] = ',';
      const int m = value_spec (&c->surface_ambient, text + n,
                                size - (size_t) n);
      n = m < 0 ? m : n + m;
    }
  return n >= 0 && (size_t) n < size;
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

/* in[n] = (option, path) where path is a file; n after it.  */
static size_t
add_input (struct config_input *in, size_t n, const char *option,
           const char *path)
{
  if (path != NULL)
    in[n++] = (struct config_input) { option, path };
  return n;
}

size_t
config_inputs (const struct config *c,
               struct config_input in[CONFIG_INPUTS_MAX])
{
  size_t n = add_input (in, 0, "--init", c->init);
  n = add_input (in, n, "--restart", c->restart);
  n = add_input (in, n, "--material-map", c->material.map);
  n = add_input (in, n, "--source-map", c->material.source_map);
  n = add_input (in, n, "--source-schedule", c->source_schedule.path);
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      n = add_input (in, n, "--bc", c->bc[e].value.path);
      n = add_input (in, n, "--bc", c->bc[e].h.path);
      n = add_input (in, n, "--bc", c->bc[e].ambient.path);
    }
  n = add_input (in, n, "--surface-convection", c->surface_h.path);
  n = add_input (in, n, "--surface-convection", c->surface_ambient.path);
  for (size_t k = 0; k < c->case_file_count; ++k)
    n = add_input (in, n, "--case", c->case_files[k]);
  return n;
}
