#include <config.h>

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casefile.h"
#include "colormap.h"
#include "derive.h"
#include "material.h"
#include "multigrid.h"
#include "parse.h"
#include "pattern.h"
#include "problem.h"
#include "schedule.h"
#include "strategy.h"
#include "utf8.h"

/* Defaults: the manufactured-solution case of the OpenMP GPU tutorial.
   Multigrid's own (--rtol, and --max-steps in V-cycles) are
   mg_default_options'.  */
#define DEFAULT_CELLS 1000
#define DEFAULT_LENGTH 1000.0
#define DEFAULT_ALPHA 0.1
#define DEFAULT_STEPS 10
#define DEFAULT_END_TIME 0.5
#define DEFAULT_TOL 0.01
#define DEFAULT_MAX_STEPS 1000000
#define DEFAULT_RESIDUAL_EVERY 10
#define DEFAULT_NAN_CHECK_EVERY 100
#define DEFAULT_MONITOR_EVERY 100
#define DEFAULT_PROGRESS_EVERY 2.0
#define DEFAULT_DISK_INSIDE 100.0
#define DEFAULT_DISK_OUTSIDE 0.0
/* --png-scale: 64 x 64 pixels a cell makes a 16x16 grid a 1024-pixel
   image; more would only blur (and slow) the snapshots.  */
#define PNG_SCALE_MAX 64

static bool
parse_disk (struct parser *p, const char *text, struct config *c)
{
  double v[3];
  size_t n = parse_reals (p, "--disk", text, 1, 3, v);
  if (n == 0)
    return false;
  if (!(v[0] > 0.0))
    return parse_fail (p, "--disk: radius '%g' must be greater than zero", v[0]);
  /* Each --disk sets all three, so that the last one given is the
     setting (as a case file records it).  */
  c->disk_radius = v[0];
  c->disk_inside = n > 1 ? v[1] : DEFAULT_DISK_INSIDE;
  c->disk_outside = n > 2 ? v[2] : DEFAULT_DISK_OUTSIDE;
  return true;
}

/* Snapshots may be numbered by frame (%f), checkpoints by step only: a
   restart finds its place by step.  */
static bool
parse_pattern (struct parser *p, const char *opt, const char *text,
               bool frames)
{
  const enum pattern_kind kind = pattern_kind (text);
  if (kind == PATTERN_FRAME && !frames)
    return parse_fail (p, "%s: '%s': %%f (frame index) is only for "
                       "--png-name; use %%d", opt, text);
  return kind != PATTERN_INVALID
         || parse_fail (p, "%s: '%s' needs exactly one step field such as %%d or "
                        "%%06d%s, '%%%%' for a percent sign, and no '/'", opt,
                        text, frames ? " (or frame field %f, %06f)" : "");
}

/* The setters: each reads one option's value into c (and notes in
   c->given what later rules need to know it was given).  Flags get NULL.
   False with a message in p's buffer when the value is wrong.  */

static bool
set_problem (struct parser *p, struct config *c, const char *value)
{
  c->given.problem = true;
  c->problem = problem_find (value);
  return c->problem != NULL
         || parse_fail (p, "--problem: unknown problem '%s' (choose mms, "
                        "plate, disk, uniform or file)", value);
}

/* A value read from a case file (or a part of a value), kept as long as
   the configuration that points to it.  */
struct case_value {
  struct case_value *next;
  char text[];
};

static const char *
keep_text (struct config *c, const char *text, size_t len)
{
  struct case_value *v = malloc (sizeof *v + len + 1);
  if (v == NULL)
    return NULL;
  memcpy (v->text, text, len);
  v->text[len] = '\0';
  v->next = c->case_values;
  c->case_values = v;
  return v->text;
}

static const char *
keep_value (struct config *c, const char *value)
{
  return keep_text (c, value, strlen (value));
}

/* Which option set an edge's condition (config.bc_by): a later rank
   wins whatever the order of the options, so that a case file, which
   lists them in --help's order, gives the same edges as the command
   line; among --bc options the later wins.  */
enum condition_source { BY_PROBLEM, BY_BOUNDARY, BY_EDGES, BY_BC };

/* Set edge e to b unless an option of higher rank set it.  */
static void
set_condition (struct config *c, enum edge e, enum condition_source by,
               const struct edge_condition *b)
{
  if (c->bc_by[e] > by)
    return;
  schedule_free (&c->bc[e].value);
  schedule_free (&c->bc[e].h);
  schedule_free (&c->bc[e].ambient);
  c->bc[e] = *b;
  c->bc_by[e] = (unsigned char) by;
}

/* --boundary KIND is --bc all=KIND: dirichlet keeps the problem's own
   temperatures, neumann is insulated.  */
static bool
set_boundary (struct parser *p, struct config *c, const char *value)
{
  c->given.boundary = true;
  enum boundary_kind kind;
  if (!boundary_find (value, &kind))
    return parse_fail (p, "--boundary: unknown kind '%s' (choose dirichlet, "
                       "neumann or periodic)", value);
  const struct edge_condition b = {
    .kind = kind, .given = kind != BOUNDARY_DIRICHLET,
  };
  for (int e = 0; e < EDGE_COUNT; ++e)
    set_condition (c, (enum edge) e, BY_BOUNDARY, &b);
  return true;
}

/* --edges L,R,B,T is --bc left=temperature:L and so on.  */
static bool
set_edges (struct parser *p, struct config *c, const char *value)
{
  c->edges_given = true;
  if (parse_reals (p, "--edges", value, EDGE_COUNT, EDGE_COUNT, c->edges)
      != EDGE_COUNT)
    return false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition b = {
        .kind = BOUNDARY_DIRICHLET, .given = true,
        .value = { .value = c->edges[e] },
      };
      set_condition (c, (enum edge) e, BY_EDGES, &b);
    }
  return true;
}

/* The option as messages about edge e's values name it.  */
static const char *
bc_option (enum edge e)
{
  static const char *const names[EDGE_COUNT] = {
    [EDGE_LEFT] = "--bc left", [EDGE_RIGHT] = "--bc right",
    [EDGE_BOTTOM] = "--bc bottom", [EDGE_TOP] = "--bc top",
  };
  return names[e];
}

/* "H,TINF" of convection (--bc convection:H,TINF, --surface-convection)
   into h and ambient; H a number >= 0 or @FILE (whose values
   options_load_schedules checks).  */
static bool
parse_convection (struct parser *p, struct config *c, const char *option,
                  const char *text, struct schedule *h,
                  struct schedule *ambient)
{
  const char *comma = strchr (text, ',');
  if (comma == NULL)
    return parse_fail (p, "%s: '%s': convection needs H,TINF (heat transfer "
                       "coefficient and ambient temperature)", option, text);
  /* H's text ends at the comma: a copy the configuration keeps.  */
  const char *hs = keep_text (c, text, (size_t) (comma - text));
  if (hs == NULL)
    return parse_fail (p, "%s: out of memory", option);
  if (!schedule_parse (p, option, hs, h)
      || !schedule_parse (p, option, comma + 1, ambient))
    return false;
  return h->path != NULL || h->value >= 0.0
         || parse_fail (p, "%s: '%s': H %g is negative (a heat transfer "
                        "coefficient is >= 0)", option, text, h->value);
}

/* SPEC of --bc into b: temperature:T, flux:Q, insulated, convection:H,TINF
   or periodic.  */
static bool
parse_condition (struct parser *p, struct config *c, const char *option,
                 const char *spec, struct edge_condition *b)
{
  const struct edge_kind_word *w = edge_kind_word_find (spec);
  const size_t len = strcspn (spec, ":");
  const char *values = spec[len] == ':' ? spec + len + 1 : NULL;
  if (w == NULL)
    return parse_fail (p, "%s: unknown kind '%.*s' (choose temperature:T, "
                       "flux:Q, insulated, convection:H,TINF or periodic)",
                       option, (int) len, spec);
  *b = (struct edge_condition) { .given = true, .kind = w->kind };
  if (w->values == NULL)
    return values == NULL
           || parse_fail (p, "%s: '%s': %s takes no value", option, spec,
                          w->word);
  if (values == NULL)
    return parse_fail (p, "%s: '%s' needs %s (%s:%s)", option, spec,
                       w->kind == BOUNDARY_ROBIN ? "values" : "a value",
                       w->word, w->values);
  return w->kind == BOUNDARY_ROBIN
         ? parse_convection (p, c, option, values, &b->h, &b->ambient)
         : schedule_parse (p, option, values, &b->value);
}

/* --bc EDGE=SPEC, EDGE one of left, right, bottom, top or all.  */
static bool
set_bc (struct parser *p, struct config *c, const char *value)
{
  c->given.bc = true;
  const char *eq = strchr (value, '=');
  if (eq == NULL)
    return parse_fail (p, "--bc: '%s' is not EDGE=SPEC (EDGE left, right, "
                       "bottom, top or all)", value);
  char name[8] = "";
  enum edge edge = EDGE_LEFT;
  const size_t len = (size_t) (eq - value);
  if (len < sizeof name)
    {
      memcpy (name, value, len);
      name[len] = '\0';
    }
  const bool all = strcmp (name, "all") == 0;
  if (!all && !edge_find (name, &edge))
    return parse_fail (p, "--bc: unknown edge '%.*s' (choose left, right, "
                       "bottom, top or all)", (int) len, value);
  struct edge_condition b;
  if (!parse_condition (p, c, all ? "--bc all" : bc_option (edge), eq + 1,
                        &b))
    return false;
  /* Nothing is loaded yet: the edges may share b's schedules.  */
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (all || e == (int) edge)
      set_condition (c, (enum edge) e, BY_BC, &b);
  return true;
}

static bool
set_source_schedule (struct parser *p, struct config *c, const char *value)
{
  c->given.source_schedule = true;
  schedule_free (&c->source_schedule);
  c->source_schedule = (struct schedule) { .path = value };
  return value[0] != '\0'
         || parse_fail (p, "--source-schedule: empty file name");
}

static bool
set_thickness (struct parser *p, struct config *c, const char *value)
{
  c->given.thickness = true;
  return parse_positive (p, "--thickness", value, NULL, &c->thickness);
}

static bool
set_surface_convection (struct parser *p, struct config *c,
                        const char *value)
{
  c->given.surface_convection = true;
  return parse_convection (p, c, "--surface-convection", value,
                           &c->surface_h, &c->surface_ambient);
}

static bool
set_disk (struct parser *p, struct config *c, const char *value)
{
  c->given.disk = true;
  return parse_disk (p, value, c);
}

static bool
set_grid (struct parser *p, struct config *c, const char *value)
{
  c->given.grid = true;
  return parse_count_pair (p, "--grid", value, &c->nx, &c->ny);
}

static bool
set_length (struct parser *p, struct config *c, const char *value)
{
  c->given.length = true;
  return parse_length_pair (p, "--length", value, &c->lx, &c->ly);
}

static bool
set_alpha (struct parser *p, struct config *c, const char *value)
{
  c->given.alpha = true;
  return parse_positive (p, "--alpha", value, NULL, &c->alpha);
}

/* "auto": derive_settings picks the count from --end-time.  */
static bool
set_steps (struct parser *p, struct config *c, const char *value)
{
  c->given.steps = true;
  c->given.steps_auto = strcmp (value, "auto") == 0;
  return c->given.steps_auto
         || parse_count (p, "--steps", value, NULL, &c->steps);
}

static bool
set_dt (struct parser *p, struct config *c, const char *value)
{
  c->given.dt = true;
  return parse_positive (p, "--dt", value, NULL, &c->dt);
}

static bool
set_end_time (struct parser *p, struct config *c, const char *value)
{
  c->given.end_time = true;
  return parse_positive (p, "--end-time", value, NULL, &c->end_time);
}

static bool
set_scheme (struct parser *p, struct config *c, const char *value)
{
  c->given.scheme = true;
  return time_scheme_find (value, &c->scheme)
         || parse_fail (p, "--scheme: unknown scheme '%s' (choose explicit, "
                        "backward-euler or crank-nicolson)", value);
}

static bool
set_force (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->force = c->given.force = true;
  return true;
}

static bool
set_nan_check_every (struct parser *p, struct config *c, const char *value)
{
  return parse_count (p, "--nan-check-every", value, NULL,
                      &c->nan_check_every);
}

/* "auto": the solver picks where the run can fuse steps.  */
static bool
set_tile_steps (struct parser *p, struct config *c, const char *value)
{
  if (strcmp (value, "auto") == 0)
    {
      c->tile_steps = 0;
      return true;
    }
  unsigned long long steps;
  if (!parse_whole (p, "--tile-steps", value, NULL, 1, MAX_TILE_STEPS,
                    &steps))
    return false;
  c->tile_steps = (size_t) steps;
  return true;
}

static bool
set_steady (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->steady = true;
  return true;
}

static bool
set_solver (struct parser *p, struct config *c, const char *value)
{
  c->given.solver = true;
  return steady_solver_find (value, &c->solver)
         || parse_fail (p, "--solver: unknown solver '%s' (choose multigrid "
                        "or jacobi)", value);
}

static bool
set_rtol (struct parser *p, struct config *c, const char *value)
{
  c->given.rtol = true;
  if (!parse_positive (p, "--rtol", value, NULL, &c->rtol))
    return false;
  return c->rtol < 1.0
         || parse_fail (p, "--rtol: '%s' must be below 1 (the factor by "
                        "which the residual norm must fall)", value);
}

static bool
set_tol (struct parser *p, struct config *c, const char *value)
{
  c->given.tol = true;
  return parse_positive (p, "--tol", value, NULL, &c->tol);
}

static bool
set_max_steps (struct parser *p, struct config *c, const char *value)
{
  c->given.max_steps = true;
  return parse_count (p, "--max-steps", value, NULL, &c->max_steps);
}

static bool
set_residual_every (struct parser *p, struct config *c, const char *value)
{
  c->given.residual_every = true;
  return parse_count (p, "--residual-every", value, NULL, &c->residual_every);
}

static bool
set_offload (struct parser *p, struct config *c, const char *value)
{
  c->strategy_auto = strcmp (value, "auto") == 0;
  c->strategy = c->strategy_auto ? NULL : strategy_find (value);
  return c->strategy != NULL || c->strategy_auto
         || parse_fail (p, "--offload: unknown strategy '%s' (choose auto, "
                        "resident, map or host)", value);
}

static bool
set_device (struct parser *p, struct config *c, const char *value)
{
  unsigned long long v;
  if (!parse_whole (p, "--device", value, NULL, 0, INT_MAX, &v))
    return false;
  c->device = (int) v;
  return true;
}

static bool
set_kernel (struct parser *p, struct config *c, const char *value)
{
  c->given.kernel = true;
  return kernel_form_find (value, &c->kernel)
         || parse_fail (p, "--kernel: unknown form '%s' (choose collapse, "
                        "split or bare)", value);
}

static bool
set_require_device (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->require_device = true;
  return true;
}

static bool
set_output_dir (struct parser *p, struct config *c, const char *value)
{
  c->output_dir = value;
  return value[0] != '\0'
         || parse_fail (p, "--output-dir: empty directory name");
}

static bool
set_png_every (struct parser *p, struct config *c, const char *value)
{
  return parse_count (p, "--png-every", value, NULL, &c->png_every);
}

static bool
set_png_name (struct parser *p, struct config *c, const char *value)
{
  c->given.png_name = true;
  c->png_name = value;
  return parse_pattern (p, "--png-name", value, true);
}

static bool
set_colormap (struct parser *p, struct config *c, const char *value)
{
  c->colormap = colormap_find (value);
  return c->colormap != NULL
         || parse_fail (p, "--colormap: unknown colour map '%s' (choose "
                        "viridis, inferno, cividis or gray)", value);
}

static bool
set_range (struct parser *p, struct config *c, const char *value)
{
  c->range_given = c->given.range = true;
  return parse_range (p, "--range", value, c->range);
}

static bool
set_png_depth (struct parser *p, struct config *c, const char *value)
{
  if (strcmp (value, "8") != 0 && strcmp (value, "16") != 0)
    return parse_fail (p, "--png-depth: '%s' is not 8 or 16", value);
  c->png_depth = atoi (value);
  return true;
}

static bool
set_png_scale (struct parser *p, struct config *c, const char *value)
{
  unsigned long long k;
  if (!parse_whole (p, "--png-scale", value, NULL, 1, PNG_SCALE_MAX, &k))
    return false;
  c->png_scale = (unsigned) k;
  return true;
}

static bool
set_png_legend (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->png_legend = true;
  return true;
}

static bool
set_checkpoint_every (struct parser *p, struct config *c, const char *value)
{
  return parse_count (p, "--checkpoint-every", value, NULL,
                      &c->checkpoint_every);
}

static bool
set_checkpoint_name (struct parser *p, struct config *c, const char *value)
{
  c->given.checkpoint_name = true;
  c->checkpoint_name = value;
  /* The XDMF index names a dataset FILE:/field: its readers split at
     the first colon.  */
  if (strchr (value, ':') != NULL)
    return parse_fail (p, "--checkpoint-name: '%s': no ':' (the XDMF "
                       "index names each dataset FILE:/field, and its "
                       "readers take the first ':' for that one)", value);
  /* XML holds no control characters, and the index is UTF-8.  */
  for (const unsigned char *s = (const unsigned char *) value; *s; ++s)
    if (*s < 0x20 || *s == 0x7f)
      return parse_fail (p, "--checkpoint-name: a control character (byte "
                         "%u), which the XDMF index, XML, cannot hold",
                         (unsigned) *s);
  if (!utf8_valid (value))
    return parse_fail (p, "--checkpoint-name: not UTF-8, which the XDMF "
                       "index is");
  return parse_pattern (p, "--checkpoint-name", value, false);
}

static bool
set_compress (struct parser *p, struct config *c, const char *value)
{
  unsigned long long level;
  c->given.compress = true;
  if (!parse_whole (p, "--compress", value, NULL, 0, 9, &level))
    return false;
  c->compress = (int) level;
  return true;
}

static bool
set_restart (struct parser *p, struct config *c, const char *value)
{
  c->restart = value;
  return value[0] != '\0' || parse_fail (p, "--restart: empty file name");
}

static bool
set_init (struct parser *p, struct config *c, const char *value)
{
  c->init = value;
  c->problem = problem_find ("file");
  return value[0] != '\0' || parse_fail (p, "--init: empty file name");
}

static bool
set_init_dataset (struct parser *p, struct config *c, const char *value)
{
  (void) p;
  c->init_dataset = value;
  return true;
}

/* K or degC; "1", the checkpoints' name for nondimensional, is the
   default, not a value to give.  */
static bool
set_temperature_unit (struct parser *p, struct config *c, const char *value)
{
  c->given.temperature_unit = true;
  return (temperature_unit_find (value, &c->unit)
          && c->unit != TEMPERATURE_NONE)
         || parse_fail (p, "--temperature-unit: unknown unit '%s'; leave "
                        "it out for a nondimensional run (choose K or "
                        "degC)", value);
}

static bool
set_start_time (struct parser *p, struct config *c, const char *value)
{
  c->given.start_time = true;
  return parse_real (p, "--start-time", value, NULL, &c->start_time);
}

/* Gray levels map to LO + level (HI - LO): a width that overflows maps
   every one to NaN.  (--range needs no such rule: a value's place in it
   is computed without the width.)  */
static bool
set_init_range (struct parser *p, struct config *c, const char *value)
{
  c->given.init_range = true;
  if (!parse_range (p, "--init-range", value, c->init_range))
    return false;
  return isfinite (c->init_range[1] - c->init_range[0])
         || parse_fail (p, "--init-range: '%s': HI - LO overflows (the "
                        "values must be nearer)", value);
}

static bool
set_quiet (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->quiet = true;
  return true;
}

static bool
set_progress_every (struct parser *p, struct config *c, const char *value)
{
  if (!parse_real (p, "--progress-every", value, NULL, &c->progress_every))
    return false;
  return c->progress_every >= 0.0
         || parse_fail (p, "--progress-every: '%s' is negative", value);
}

static bool
set_monitor (struct parser *p, struct config *c, const char *value)
{
  c->monitor = value;
  return value[0] != '\0' || parse_fail (p, "--monitor: empty file name");
}

static bool
set_monitor_every (struct parser *p, struct config *c, const char *value)
{
  c->given.monitor_every = true;
  return parse_count (p, "--monitor-every", value, NULL, &c->monitor_every);
}

static bool
set_probe (struct parser *p, struct config *c, const char *value)
{
  if (c->probes == PROBES_MAX)
    return parse_fail (p, "--probe: at most %d probes", PROBES_MAX);
  return parse_reals (p, "--probe", value, 2, 2, c->probe_xy[c->probes++])
         == 2;
}

static bool
set_probe_every (struct parser *p, struct config *c, const char *value)
{
  c->given.probe_every = true;
  return parse_count (p, "--probe-every", value, NULL, &c->probe_every);
}

static bool
set_probe_file (struct parser *p, struct config *c, const char *value)
{
  c->given.probe_file = true;
  c->probe_file = value;
  return value[0] != '\0' || parse_fail (p, "--probe-file: empty file name");
}

/* "X0,Y0,X1,Y1[,N]": N, if given, a whole number of points, at least
   2 (the ends).  */
static bool
set_profile (struct parser *p, struct config *c, const char *value)
{
  double v[5];
  const size_t n = parse_reals (p, "--profile", value, 4, 5, v);
  if (n == 0)
    return false;
  c->profile = true;
  memcpy (c->profile_ends, v, sizeof c->profile_ends);
  if (v[0] == v[2] && v[1] == v[3])
    return parse_fail (p, "--profile: '%s': the segment has no length",
                       value);
  c->profile_points = 0;
  /* N as given (the text after the last comma): %g would show 1000001,
     which is refused, as 1e+06, which is not.  */
  if (n == 5 && !(v[4] >= 2.0 && v[4] <= 1e6 && v[4] == floor (v[4])))
    return parse_fail (p, "--profile: '%s': the number of points, %s, is "
                       "not a whole number from 2 to 1000000", value,
                       strrchr (value, ',') + 1);
  if (n == 5)
    c->profile_points = (size_t) v[4];
  return true;
}

static bool
set_json (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->json = true;
  return true;
}

static bool
set_bench (struct parser *p, struct config *c, const char *value)
{
  (void) p, (void) value;
  c->bench = true;
  return true;
}

static bool
set_conductivity (struct parser *p, struct config *c, const char *value)
{
  c->material.conductivity_given = true;
  return parse_positive (p, "--conductivity", value, NULL,
                         &c->material.conductivity);
}

static bool
set_density (struct parser *p, struct config *c, const char *value)
{
  c->material.density_given = true;
  return parse_positive (p, "--density", value, NULL, &c->material.density);
}

static bool
set_heat_capacity (struct parser *p, struct config *c, const char *value)
{
  c->material.heat_capacity_given = true;
  return parse_positive (p, "--heat-capacity", value, NULL,
                         &c->material.heat_capacity);
}

/* A key defined again takes the later definition (material_add_def),
   so that the command line after --case overrides a case file's key.  */
static bool
set_material (struct parser *p, struct config *c, const char *value)
{
  return material_add_def (p, &c->material, value);
}

static bool
set_material_map (struct parser *p, struct config *c, const char *value)
{
  c->material.map = value;
  return value[0] != '\0' || parse_fail (p, "--material-map: empty file name");
}

static bool
set_source (struct parser *p, struct config *c, const char *value)
{
  c->material.source_given = true;
  return parse_real (p, "--source", value, NULL, &c->material.source);
}

static bool
set_source_map (struct parser *p, struct config *c, const char *value)
{
  c->material.source_map = value;
  return value[0] != '\0' || parse_fail (p, "--source-map: empty file name");
}

static bool
set_source_range (struct parser *p, struct config *c, const char *value)
{
  c->material.source_range_given = true;
  if (!parse_range (p, "--source-range", value, c->material.source_range))
    return false;
  return isfinite (c->material.source_range[1] - c->material.source_range[0])
         || parse_fail (p, "--source-range: '%s': HI - LO overflows (the "
                        "values must be nearer)", value);
}

/* "X0,X1,Y0,Y1,Q": the nodes inside the rectangle get Q more.  */
static bool
set_source_rect (struct parser *p, struct config *c, const char *value)
{
  struct material_options *m = &c->material;
  if (m->rects == SOURCE_RECTS_MAX)
    return parse_fail (p, "--source-rect: at most %d rectangles",
                       SOURCE_RECTS_MAX);
  double *r = m->rect[m->rects];
  if (parse_reals (p, "--source-rect", value, 5, 5, r) != 5)
    return false;
  if (!(r[0] <= r[1] && r[2] <= r[3]))
    return parse_fail (p, "--source-rect: '%s': X0 > X1 or Y0 > Y1", value);
  ++m->rects;
  return true;
}

static bool
set_initial_temperature (struct parser *p, struct config *c,
                         const char *value)
{
  c->material.initial_temperature_given = true;
  return parse_real (p, "--initial-temperature", value, NULL,
                     &c->material.initial_temperature);
}

/* The sections of --help, in their order.  */
enum option_group {
  GROUP_PROBLEM,
  GROUP_MATERIAL,
  GROUP_STEADY,
  GROUP_EXECUTION,
  GROUP_FIELDS,
  GROUP_CASE,
  GROUP_OUTPUT,
  GROUP_COUNT
};

static const char *const group_titles[GROUP_COUNT] = {
  "Problem", "Material and heat sources", "Steady state", "Execution", "Fields in and out", "Case files",
  "Output"
};

/* One option: its names, its value's metavariable (NULL: a flag), its
   --help text (lines after the first are indented under it), its
   section of --help, and either the setter that applies it to the
   configuration or the action it asks for instead of a run.  */
struct option_spec {
  const char *name;
  char short_name;            /* 0: none */
  const char *metavar;
  const char *help;
  enum option_group group;
  bool (*set) (struct parser *p, struct config *c, const char *value);
  enum options_action action; /* OPTIONS_RUN for a setting */
  bool repeatable;            /* each value adds to the setting (--probe),
                                 rather than replacing the last one */
};

static bool set_case (struct parser *p, struct config *c, const char *value);

/* Every option.  getopt_long's table, --help, options_apply and
   (through --help) the bash completion derive from it.  --help prints
   them by group; this order is getopt_long's, which names the
   candidates of an ambiguous abbreviation in it.  */
static const struct option_spec option_table[] = {
  { "problem", 'p', "NAME", "mms (default), plate, disk, file (with --init\n"
    "FILE) or uniform (the default with a material\n"
    "or source); see Problems below",
    GROUP_PROBLEM, set_problem, OPTIONS_RUN, false },
  { "boundary", 'b', "KIND", "every edge: dirichlet (default: the\n"
    "problem's temperatures), neumann (--bc\n"
    "all=insulated) or periodic (--bc all=periodic)",
    GROUP_PROBLEM, set_boundary, OPTIONS_RUN, false },
  { "edges", 0, "L,R,B,T", "fixed temperatures of the left, right, bottom\n"
    "and top edges (--bc left=temperature:L ...)", GROUP_PROBLEM,
    set_edges, OPTIONS_RUN, false },
  { "bc", 0, "EDGE=SPEC", "EDGE left, right, bottom, top or all; SPEC\n"
    "temperature:T, flux:Q (W/m^2 in), insulated,\n"
    "convection:H,TINF or periodic; a value may be\n"
    "@FILE, a schedule; repeatable; it\n"
    "overrides --edges and --boundary", GROUP_PROBLEM, set_bc, OPTIONS_RUN, true },
  { "disk", 0, "R[,IN[,OUT]]", "disk radius and temperatures (default\n"
    "min(LX,LY)/4, 100, 0)", GROUP_PROBLEM, set_disk, OPTIONS_RUN, false },
  { "grid", 'g', "NX[xNY]", "interior cells (default 1000x1000)",
    GROUP_PROBLEM, set_grid, OPTIONS_RUN, false },
  { "length", 'L', "LX[xLY]", "domain size (default 1000x1000)",
    GROUP_PROBLEM, set_length, OPTIONS_RUN, false },
  { "alpha", 'a', "ALPHA", "thermal diffusivity (default 0.1)",
    GROUP_PROBLEM, set_alpha, OPTIONS_RUN, false },
  { "temperature-unit", 0, "UNIT", "K or degC: SI units, lengths in m, times\n"
    "in s, the field in UNIT (default: none,\nnondimensional)",
    GROUP_PROBLEM, set_temperature_unit, OPTIONS_RUN, false },
  { "conductivity", 0, "K", "uniform conductivity k, W/(m K); alpha is\n"
    "then k / (rho c_p)",
    GROUP_MATERIAL, set_conductivity, OPTIONS_RUN, false },
  { "density", 0, "RHO", "uniform density rho, kg/m^3", GROUP_MATERIAL,
    set_density, OPTIONS_RUN, false },
  { "heat-capacity", 0, "CP", "uniform specific heat capacity c_p,\n"
    "J/(kg K)", GROUP_MATERIAL, set_heat_capacity, OPTIONS_RUN, false },
  { "material-map", 0, "FILE", "material per node: HDF5 datasets\n"
    "conductivity, volumetric_heat_capacity or\n"
    "material (keys), or a PNG (colours or gray\n"
    "levels are keys); sets the grid's size", GROUP_MATERIAL,
    set_material_map, OPTIONS_RUN, false },
  { "material", 0, "KEY=SPEC", "the material of a map's KEY (#rrggbb or a\n"
    "number): k=K,rho=RHO,cp=CP or a built-in\n"
    "(copper, fr4, ...; see heatsim(1)); repeatable\n"
    "(at most 64 keys)", GROUP_MATERIAL, set_material, OPTIONS_RUN, true },
  { "source", 0, "Q", "uniform heat source, W/m^3", GROUP_MATERIAL,
    set_source, OPTIONS_RUN, false },
  { "source-map", 0, "FILE", "heat source per node: HDF5 dataset source,\n"
    "or a gray PNG with --source-range", GROUP_MATERIAL, set_source_map,
    OPTIONS_RUN, false },
  { "source-range", 0, "LO,HI", "a PNG --source-map's gray 0 and white",
    GROUP_MATERIAL, set_source_range, OPTIONS_RUN, false },
  { "source-rect", 0, "X0,X1,Y0,Y1,Q", "heat source Q on the nodes in a\n"
    "rectangle; repeatable (at most 64); sources add", GROUP_MATERIAL,
    set_source_rect, OPTIONS_RUN, true },
  { "source-schedule", 0, "FILE", "CSV of time,value: a factor on every\n"
    "heat source over time", GROUP_MATERIAL, set_source_schedule,
    OPTIONS_RUN, false },
  { "thickness", 0, "D", "plate thickness, m, for --surface-convection",
    GROUP_MATERIAL, set_thickness, OPTIONS_RUN, false },
  { "surface-convection", 0, "H,TINF", "heat lost through the plate's two\n"
    "faces, 2 H (T - TINF) / D per volume; H, TINF\n"
    "may be @FILE", GROUP_MATERIAL, set_surface_convection, OPTIONS_RUN,
    false },
  { "initial-temperature", 0, "T", "uniform initial field (the edges keep\n"
    "the problem's values)", GROUP_MATERIAL, set_initial_temperature,
    OPTIONS_RUN, false },
  { "steps", 'n', "N", "time steps (default 10); 'auto': the fewest\n"
    "that are stable up to --end-time", GROUP_PROBLEM, set_steps,
    OPTIONS_RUN, false },
  { "dt", 0, "DT", "time step (default END_TIME / N)", GROUP_PROBLEM,
    set_dt, OPTIONS_RUN, false },
  { "end-time", 'T', "T", "simulated time (default 0.5); with --dt,\n"
    "the steps are ceil(T / DT) and dt = T / steps", GROUP_PROBLEM,
    set_end_time, OPTIONS_RUN, false },
  { "scheme", 0, "SCHEME", "explicit (default), backward-euler or\n"
    "crank-nicolson (implicit: any dt, each step\n"
    "solved by multigrid to --rtol)", GROUP_PROBLEM, set_scheme,
    OPTIONS_RUN, false },
  { "offload", 'o', "STRATEGY", "auto (default), resident, map or host",
    GROUP_EXECUTION, set_offload, OPTIONS_RUN, false },
  { "device", 'd', "N", "offload device (default: OpenMP default device)",
    GROUP_EXECUTION, set_device, OPTIONS_RUN, false },
  { "kernel", 0, "FORM", "target kernel form: collapse (default), split\n"
    "or bare (GPUs only; map and resident)", GROUP_EXECUTION, set_kernel,
    OPTIONS_RUN, false },
  { "require-device", 0, NULL, "fail (status 3) instead of running target\n"
    "regions on the host when no device is there", GROUP_EXECUTION,
    set_require_device, OPTIONS_RUN, false },
  { "force", 'f', NULL, "run even if alpha*dt*(1/dx^2 + 1/dy^2) > 1/2",
    GROUP_PROBLEM, set_force, OPTIONS_RUN, false },
  { "nan-check-every", 0, "K", "stop (status 5) if the field holds NaN or "
    "Inf,\nchecked every K steps (default 100)", GROUP_PROBLEM,
    set_nan_check_every, OPTIONS_RUN, false },
  { "tile-steps", 0, "N", "explicit host steps fused per pass over the\n"
    "field (temporal blocking; 1: none); auto\n"
    "(default) fuses where the run allows it", GROUP_EXECUTION,
    set_tile_steps, OPTIONS_RUN, false },
  { "steady", 's', NULL, "solve for the steady state: div (k grad u) + q = 0",
    GROUP_STEADY, set_steady, OPTIONS_RUN, false },
  { "solver", 0, "SOLVER", "multigrid (default) or jacobi", GROUP_STEADY,
    set_solver, OPTIONS_RUN, false },
  { "rtol", 0, "R", "multigrid, steady or implicit: stop when the\n"
    "residual norm has fallen by R, 0<R<1\n"
    "(default 1e-10), or reached round-off", GROUP_STEADY, set_rtol,
    OPTIONS_RUN, false },
  { "tol", 0, "TOL", "jacobi: stop when no cell changes by more than\n"
    "TOL in one sweep (default 0.01)", GROUP_STEADY, set_tol, OPTIONS_RUN,
    false },
  { "max-steps", 0, "N", "give up after N sweeps or V-cycles, status 4\n"
    "(default 1000000 sweeps, 100 cycles)", GROUP_STEADY, set_max_steps,
    OPTIONS_RUN, false },
  { "residual-every", 0, "K", "jacobi: check the change every K sweeps\n"
    "(default 10)", GROUP_STEADY, set_residual_every, OPTIONS_RUN, false },
  { "list-devices", 0, NULL, "list offload devices and exit",
    GROUP_EXECUTION, NULL, OPTIONS_LIST_DEVICES, false },
  { "output-dir", 0, "DIR", "where images and checkpoints go (default .)",
    GROUP_FIELDS, set_output_dir, OPTIONS_RUN, false },
  { "png-every", 0, "K", "PNG snapshot at the start, every K steps, at the "
    "end", GROUP_FIELDS, set_png_every, OPTIONS_RUN, false },
  { "png-name", 0, "PATTERN", "snapshot names (default heatsim-%06d.png);\n"
    "%f numbers them 0, 1, 2, ... instead of by step", GROUP_FIELDS,
    set_png_name, OPTIONS_RUN, false },
  { "colormap", 0, "NAME", "viridis (default), inferno, cividis or gray",
    GROUP_FIELDS, set_colormap, OPTIONS_RUN, false },
  { "range", 0, "LO,HI", "values at the ends of the colour map\n"
    "(default: range of the initial field)", GROUP_FIELDS, set_range,
    OPTIONS_RUN, false },
  { "png-depth", 0, "BITS", "8: colour (default); 16: linear grayscale",
    GROUP_FIELDS, set_png_depth, OPTIONS_RUN, false },
  { "png-scale", 0, "K", "K x K pixels per cell, 1-64 (default 1)",
    GROUP_FIELDS, set_png_scale, OPTIONS_RUN, false },
  { "png-legend", 0, NULL, "colour bar with its values, step and time\n"
    "under the field; with it or --png-scale the\n"
    "image's sides are even (for video encoders)", GROUP_FIELDS,
    set_png_legend, OPTIONS_RUN, false },
  { "checkpoint-every", 0, "K", "HDF5 checkpoint at the start, every K, at "
    "the end", GROUP_FIELDS, set_checkpoint_every, OPTIONS_RUN, false },
  { "checkpoint-name", 0, "PATTERN", "names (default heatsim-%06d.h5)",
    GROUP_FIELDS, set_checkpoint_name, OPTIONS_RUN, false },
  { "compress", 0, "LEVEL", "deflate checkpoints, 0-9 (default 0: off)",
    GROUP_FIELDS, set_compress, OPTIONS_RUN, false },
  { "restart", 0, "FILE", "continue from a checkpoint for --steps more",
    GROUP_FIELDS, set_restart, OPTIONS_RUN, false },
  { "init", 0, "FILE", "initial field from an HDF5 or PNG file; its\n"
    "outer ring is the boundary (problem 'file');\n"
    "a checkpoint also gives the domain, alpha,\n"
    "unit, step and time", GROUP_FIELDS, set_init,
    OPTIONS_RUN, false },
  { "init-dataset", 0, "NAME", "HDF5 dataset for --init (default field)",
    GROUP_FIELDS, set_init_dataset, OPTIONS_RUN, false },
  { "init-range", 0, "LO,HI", "PNG gray 0 and white map to LO, HI (default "
    "0,1)", GROUP_FIELDS, set_init_range, OPTIONS_RUN, false },
  { "start-time", 0, "T", "simulated time of the --init field (default:\n"
    "a checkpoint's, else 0)", GROUP_FIELDS, set_start_time, OPTIONS_RUN, false },
  { "quiet", 'q', NULL, "no progress messages on stderr", GROUP_OUTPUT,
    set_quiet, OPTIONS_RUN, false },
  { "progress-every", 0, "SECONDS", "progress line with the step and\n"
    "simulated time every SECONDS (default 2;\n0: none)", GROUP_OUTPUT,
    set_progress_every, OPTIONS_RUN, false },
  { "monitor", 0, "FILE", "CSV of step, time, total heat, min, max, L2\n"
    "error and largest change over the run; never\n"
    "overwritten (continued with --restart)", GROUP_OUTPUT, set_monitor,
    OPTIONS_RUN, false },
  { "monitor-every", 0, "K", "a --monitor row every K steps (default 100),\n"
    "at the first and at the last", GROUP_OUTPUT, set_monitor_every,
    OPTIONS_RUN, false },
  { "probe", 0, "X,Y", "temperature at (X, Y), bilinear between nodes,\n"
    "into --probe-file; repeatable (at most 64)", GROUP_OUTPUT, set_probe,
    OPTIONS_RUN, true },
  { "probe-every", 0, "K", "a --probe-file row every K steps, at the first\n"
    "and the last (default: as --monitor-every)", GROUP_OUTPUT,
    set_probe_every, OPTIONS_RUN, false },
  { "probe-file", 0, "FILE", "CSV of the probes (default: probes.csv in the\n"
    "output directory); never overwritten\n"
    "(continued with --restart)", GROUP_OUTPUT, set_probe_file, OPTIONS_RUN, false },
  { "profile", 0, "X0,Y0,X1,Y1[,N]", "the field at N points along a segment\n"
    "(default: one per cell crossed) into\n"
    "profile.csv at the end and profile-STEP.csv\n"
    "with each checkpoint (in --output-dir)", GROUP_OUTPUT, set_profile,
    OPTIONS_RUN, false },
  { "json", 0, NULL, "print the report as one JSON object (also\n"
    "when the run fails: status, error)", GROUP_OUTPUT, set_json,
    OPTIONS_RUN, false },
  { "bench", 0, NULL, "also measure the copy bandwidth where the\n"
    "kernels ran, and the stencil's share of it", GROUP_OUTPUT, set_bench,
    OPTIONS_RUN, false },
  { "case", 0, "FILE", "options from FILE, one a line: 'name = value'\n"
    "or a bare 'name' (a flag); '#' comments;\n"
    "later options override it (see heatsim(1))", GROUP_CASE,
    set_case, OPTIONS_RUN, false },
  { "print-case", 0, NULL, "print the options as a case file and exit",
    GROUP_CASE, NULL, OPTIONS_PRINT_CASE, false },
  { "help", 'h', NULL, "display this help and exit", GROUP_OUTPUT, NULL,
    OPTIONS_HELP, false },
  { "version", 'V', NULL, "output version information and exit",
    GROUP_OUTPUT, NULL, OPTIONS_VERSION, false },
};

#define OPTION_COUNT (sizeof option_table / sizeof option_table[0])

/* --help's column for the descriptions.  */
#define HELP_COLUMN 27

static void
print_option (FILE *out, const struct option_spec *o)
{
  char head[64];
  int len = o->short_name
            ? snprintf (head, sizeof head, "  -%c, --%s", o->short_name,
                        o->name)
            : snprintf (head, sizeof head, "      --%s", o->name);
  if (o->metavar != NULL)
    len += snprintf (head + len, sizeof head - (size_t) len, "=%s",
                     o->metavar);
  /* A head too long for the column keeps two spaces before the text.  */
  fprintf (out, "%-*s", len < HELP_COLUMN ? HELP_COLUMN : len + 2, head);
  for (const char *line = o->help;;)
    {
      const size_t n = strcspn (line, "\n");
      fprintf (out, "%.*s\n", (int) n, line);
      if (line[n] == '\0')
        break;
      line += n + 1;
      fprintf (out, "%*s", HELP_COLUMN, "");
    }
}

void
options_usage (FILE *out)
{
  fputs ("Usage: " PACKAGE " [OPTION]...\n"
         "Solve the 2-D heat equation rho c_p du/dt = div (k grad u) + q\n"
         "(du/dt = alpha (d2u/dx2 + d2u/dy2) without a material or source) by\n"
         "finite volumes on a 5-point stencil: explicit steps on a GPU through\n"
         "OpenMP offload or on CPU threads, implicit steps and steady states by\n"
         "multigrid; report the heat balance, and the error where an exact\n"
         "solution is known.\n", out);
  for (size_t g = 0; g < GROUP_COUNT; ++g)
    {
      fprintf (out, "\n%s:\n", group_titles[g]);
      for (size_t k = 0; k < OPTION_COUNT; ++k)
        if (option_table[k].group == g)
          print_option (out, &option_table[k]);
    }
  fputs ("\nProblems:\n", out);
  for (const struct problem *const *p = heatsim_problems; *p; ++p)
    fprintf (out, "  %-10s %s\n", (*p)->name, (*p)->summary);
  fputs ("\nOffload strategies:\n"
         "  auto       resident where an offload device is available, else "
         "host\n", out);
  for (const struct strategy *const *strategy = heatsim_strategies;
       *strategy; ++strategy)
    fprintf (out, "  %-10s %s\n", (*strategy)->name, (*strategy)->summary);
  fputs ("\n"
         "Exit status: 0 success, 1 run-time failure, 2 invalid command line,\n"
         "3 no offload device with --require-device, 4 steady state not\n"
         "reached within --max-steps (or an implicit step's solve did not\n"
         "converge), 5 the field became NaN or infinite,\n"
         "128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP).\n"
         "Colour maps:", out);
  for (const struct colormap *const *m = heatsim_colormaps; *m; ++m)
    fprintf (out, " %s", (*m)->name);
  fputs ("\n"
         "Environment: OMP_NUM_THREADS, OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE,\n"
         "  HEATSIM_HOST_ISA, HEATSIM_TILE_COLUMNS.\n"
         "Full documentation: man heatsim\n", out);
}

bool
options_check_method (struct config *c, const char *checkpoint, char *err,
                      size_t errlen)
{
  struct parser p = { err, errlen, false };
  const struct given_options g = c->given;
  const bool multigrid = config_uses_multigrid (c);
  if (g.rtol && !multigrid)
    return checkpoint != NULL
           ? parse_fail (&p, "--rtol: only for multigrid; %s is from a %s run",
                         checkpoint, c->steady ? "--solver jacobi"
                         : "--scheme explicit")
           : parse_fail (&p, "--rtol: only for multigrid (--steady, or "
                         "--scheme backward-euler or crank-nicolson)");
  if (c->steady && multigrid && (g.tol || g.residual_every))
    return checkpoint != NULL
           ? parse_fail (&p, "--%s: only with --solver jacobi; %s is from a "
                         "multigrid run", g.tol ? "tol" : "residual-every",
                         checkpoint)
           : parse_fail (&p, "--%s: only with --solver jacobi (multigrid "
                         "stops at --rtol)", g.tol ? "tol" : "residual-every");
  if (!c->steady && multigrid && g.force)
    return checkpoint != NULL
           ? parse_fail (&p, "--force: %s is from a --scheme %s run "
                         "(implicit steps are stable for any dt)", checkpoint,
                         time_scheme_name (c->scheme))
           : parse_fail (&p, "--force: not used with --scheme %s (implicit "
                         "steps are stable for any dt)",
                         time_scheme_name (c->scheme));
  /* Multigrid counts V-cycles, not sweeps.  */
  if (c->steady && multigrid && !g.max_steps)
    c->max_steps = mg_default_options ().max_cycles;
  return true;
}

static const struct option_spec *option_named (const char *name);

/* The value last given to the option called name, or NULL.  */
static const char *
setting_value (const struct config *c, const char *name)
{
  const char *value = NULL;
  const unsigned k = (unsigned) (option_named (name) - option_table);
  for (size_t i = 0; i < c->setting_count; ++i)
    if (c->settings[i].option == k)
      value = c->settings[i].value;
  return value;
}

/* The edges' conditions, the source schedule and face cooling as a
   whole.  */
static bool
check_conditions (struct parser *p, struct config *c)
{
  const struct given_options g = c->given;
  /* --edges fixes every edge, whatever its order: a --boundary kind
     would be lost.  */
  const char *kind = setting_value (c, "boundary");
  if (c->edges_given && kind != NULL && strcmp (kind, "dirichlet") != 0)
    return parse_fail (p, "--edges: fixed edge values need --boundary "
                       "dirichlet (--edges sets all four edges' "
                       "temperatures; for some of them give --bc "
                       "EDGE=temperature:T)");
  for (int e = 0; e < EDGE_COUNT; e += 2)
    if ((c->bc[e].kind == BOUNDARY_PERIODIC)
        != (c->bc[e + 1].kind == BOUNDARY_PERIODIC))
      {
        const int periodic = c->bc[e].kind == BOUNDARY_PERIODIC ? e : e + 1;
        return parse_fail (p, "--bc: the %s edge is periodic but the %s edge "
                           "is %s (a periodic axis has both edges periodic)",
                           edge_name ((enum edge) periodic),
                           edge_name ((enum edge) (periodic ^ 1)),
                           edge_kind_name (&c->bc[periodic ^ 1]));
      }
  if (c->edges_given)
    for (int e = 0; e < EDGE_COUNT; ++e)
      if (c->bc[e].kind == BOUNDARY_DIRICHLET && c->bc[e].given
          && c->bc[e].value.path == NULL)
        c->edges[e] = c->bc[e].value.value;
  if (g.thickness != g.surface_convection)
    return parse_fail (p, "--%s: needs --%s too (face cooling is --thickness "
                       "D with --surface-convection H,TINF)",
                       g.thickness ? "thickness" : "surface-convection",
                       g.thickness ? "surface-convection" : "thickness");
  c->surface_given = g.thickness;
  const struct material_options *m = &c->material;
  if (g.source_schedule && !m->source_given && m->source_map == NULL
      && m->rects == 0)
    return parse_fail (p, "--source-schedule: only with a heat source "
                       "(--source, --source-map, --source-rect)");
  return true;
}

/* Options that belong to one mode or problem, given without it.  */
static bool
check_combinations (struct parser *p, struct config *c)
{
  const struct given_options g = c->given;
  if (g.solver && !c->steady)
    return parse_fail (p, "--solver: only with --steady (time steps take "
                       "--scheme)");
  if (c->steady && g.scheme)
    return parse_fail (p, "--scheme: not used with --steady (it solves for "
                       "the steady state; choose --solver)");
  /* A checkpoint names its scheme and solver: its method is checked
     once it is read (initial.c).  */
  if (c->restart == NULL
      && !options_check_method (c, NULL, p->err, p->errlen))
    return false;
  if (c->steady)
    {
      if (g.steps)
        return parse_fail (p, "--steps: with --steady, give --max-steps instead");
      if (g.dt || g.end_time)
        return parse_fail (p, "--%s: not used with --steady (it iterates to the "
                           "steady state)", g.dt ? "dt" : "end-time");
      if (g.force)
        return parse_fail (p, "--force: not used with --steady (its sweeps are "
                           "always stable)");
    }
  else if (g.tol || g.max_steps || g.residual_every)
    return parse_fail (p, "--%s: only with --steady%s", g.tol ? "tol"
                       : g.max_steps ? "max-steps" : "residual-every",
                       c->restart != NULL ? " (and a restart takes "
                       "--steady where its checkpoint is a steady run's)"
                       : "");
  if (g.kernel && c->strategy != NULL && !c->strategy->offload)
    return parse_fail (p, "--kernel: only with the map and resident strategies "
                       "(--offload %s has no target kernels)", c->strategy->name);
  if (g.disk && strcmp (c->problem->name, "disk") != 0)
    return parse_fail (p, "--disk: only with --problem disk");
  if (c->restart != NULL)
    {
      static const char *const fixed[] = {
        "grid", "length", "alpha", "dt", "end-time", "problem", "boundary",
        "disk", "bc", "source-schedule", "thickness", "surface-convection"
      };
      const bool set[] = { g.grid, g.length, g.alpha, g.dt, g.end_time,
                           g.problem, g.boundary, g.disk, g.bc,
                           g.source_schedule, g.thickness,
                           g.surface_convection };
      for (size_t k = 0; k < sizeof set / sizeof set[0]; ++k)
        if (set[k])
          return parse_fail (p, "--%s: not allowed with --restart (the checkpoint "
                             "fixes it)", fixed[k]);
      if (g.steps_auto)
        return parse_fail (p, "--steps auto: not with --restart (the "
                           "checkpoint fixes dt; give the steps to add)");
      if (c->init != NULL || c->edges_given)
        return parse_fail (p, "--%s: not allowed with --restart",
                           c->init ? "init" : "edges");
    }
  if (c->init != NULL && g.grid)
    return parse_fail (p, "--grid: not allowed with --init (the file gives the "
                       "initial field and its size)");
  /* --problem file is --init's problem: naming it is allowed.  */
  if (c->init != NULL && !c->problem->from_file)
    return parse_fail (p, "--problem %s: not with --init (the file gives the "
                       "initial field: --problem file)", c->problem->name);
  if (c->init == NULL && c->problem->from_file)
    return parse_fail (p, "--problem %s: needs --init FILE", c->problem->name);
  if (c->init == NULL && (c->init_dataset != NULL))
    return parse_fail (p, "--init-dataset: only with --init");
  if (c->png_every == 0 && (g.range || c->png_depth != 8
                            || c->colormap != heatsim_colormaps[0]))
    return parse_fail (p, "--%s: only with --png-every", g.range ? "range"
                       : c->png_depth != 8 ? "png-depth" : "colormap");
  if (c->png_every == 0 && (g.png_name || c->png_scale || c->png_legend))
    return parse_fail (p, "--%s: only with --png-every", g.png_name
                       ? "png-name" : c->png_scale ? "png-scale"
                       : "png-legend");
  if (c->checkpoint_every == 0 && (g.checkpoint_name || g.compress))
    return parse_fail (p, "--%s: only with --checkpoint-every",
                       g.checkpoint_name ? "checkpoint-name" : "compress");
  if (c->init == NULL && g.init_range)
    return parse_fail (p, "--init-range: only with --init");
  if (g.start_time && c->restart != NULL)
    return parse_fail (p, "--start-time: not with --restart (the checkpoint "
                       "fixes the time)");
  if (g.start_time && c->init == NULL)
    return parse_fail (p, "--start-time: only with --init");
  if (g.start_time && c->steady)
    return parse_fail (p, "--start-time: not used with --steady (a steady "
                       "state has no time)");
  if (c->monitor == NULL && g.monitor_every)
    return parse_fail (p, "--monitor-every: only with --monitor");
  if (c->probes == 0 && (g.probe_every || g.probe_file))
    return parse_fail (p, "--%s: only with --probe", g.probe_every
                       ? "probe-every" : "probe-file");
  if (!g.probe_every)
    c->probe_every = c->monitor_every;
  /* Snapshots and checkpoints share the output directory.  */
  if (c->png_every != 0 && c->checkpoint_every != 0
      && pattern_overlap (c->png_name, c->checkpoint_name))
    return parse_fail (p, "--checkpoint-name: '%s' can give the same file "
                       "names as --png-name '%s'", c->checkpoint_name,
                       c->png_name);
  if (!check_conditions (p, c) || !material_check_options (p, c))
    return false;
  if (!g.problem && c->init == NULL && c->restart == NULL)
    c->problem = problem_default (c);
  return true;
}

static void
config_defaults (struct config *c)
{
  *c = (struct config) {
    .nx = DEFAULT_CELLS, .ny = DEFAULT_CELLS,
    .lx = DEFAULT_LENGTH, .ly = DEFAULT_LENGTH,
    .alpha = DEFAULT_ALPHA,
    .steps = DEFAULT_STEPS,
    .end_time = DEFAULT_END_TIME,
    .strategy = NULL, .strategy_auto = true,
    .device = -1,
    .problem = heatsim_problems[0],
    .source_schedule = { .value = 1.0 },
    .disk_inside = DEFAULT_DISK_INSIDE,
    .disk_outside = DEFAULT_DISK_OUTSIDE,
    .tol = DEFAULT_TOL,
    .solver = SOLVER_MULTIGRID,
    .scheme = SCHEME_EXPLICIT,
    .rtol = mg_default_options ().rtol,
    .max_steps = DEFAULT_MAX_STEPS,
    .residual_every = DEFAULT_RESIDUAL_EVERY,
    .nan_check_every = DEFAULT_NAN_CHECK_EVERY,
    .progress_every = DEFAULT_PROGRESS_EVERY,
    .monitor_every = DEFAULT_MONITOR_EVERY,
    .output_dir = ".",
    .png_name = "heatsim-%06d.png",
    .colormap = heatsim_colormaps[0],
    .png_depth = 8,
    .checkpoint_name = "heatsim-%06d.h5",
    .init_range = { 0.0, 1.0 },
  };
}

static const struct option_spec *
option_named (const char *name)
{
  for (size_t k = 0; k < OPTION_COUNT; ++k)
    if (strcmp (option_table[k].name, name) == 0)
      return &option_table[k];
  return NULL;
}

/* The message for an option getopt_long refused: text is the argument
   that held it.  A long option can be unknown, ambiguous, or given a
   value it does not take; getopt_long's optopt tells only the last
   (as the option's code, which is no character for options without a
   short name).  */
static bool
bad_option (struct parser *p, const char *text, int opt)
{
  if (strncmp (text, "--", 2) != 0)
    return parse_fail (p, "unrecognized option '-%c'", opt);
  const char *name = text + 2;
  const size_t len = strcspn (name, "=");
  if (opt != 0 && name[len] == '=')
    return parse_fail (p, "--%.*s: takes no argument ('%s')", (int) len,
                       name, text);
  char candidates[256] = "";
  size_t matches = 0;
  for (size_t k = 0; k < OPTION_COUNT; ++k)
    if (strncmp (option_table[k].name, name, len) == 0)
      {
        const size_t used = strlen (candidates);
        snprintf (candidates + used, sizeof candidates - used, "%s--%s",
                  matches++ ? ", " : "", option_table[k].name);
      }
  if (matches > 1)
    return parse_fail (p, "option '--%.*s' is ambiguous (%s)", (int) len,
                       name, candidates);
  return parse_fail (p, "unrecognized option '%s'", text);
}

/* Note that option k was given with value (replacing its last value
   unless it is repeatable), for --print-case and the provenance.  */
static bool
record_setting (struct parser *p, struct config *c, size_t k,
                const char *value)
{
  if (!option_table[k].repeatable)
    for (size_t i = 0; i < c->setting_count; ++i)
      if (c->settings[i].option == k)
        {
          c->settings[i].value = value;
          return true;
        }
  if (c->setting_count == SETTINGS_MAX)
    return parse_fail (p, "--%s: more than %d settings", option_table[k].name,
                       SETTINGS_MAX);
  c->settings[c->setting_count++] = (struct setting) { (unsigned) k, value };
  return true;
}

unsigned
options_count (void)
{
  return (unsigned) OPTION_COUNT;
}

const char *
options_long_name (unsigned k)
{
  return option_table[k].name;
}

bool
options_apply (struct config *c, const char *name, const char *value,
               char *err, size_t errlen)
{
  struct parser p = { err, errlen, false };
  const struct option_spec *o = option_named (name);
  if (o == NULL)
    return parse_fail (&p, "unrecognized option '--%s'", name);
  if (o->set == NULL)
    return parse_fail (&p, "--%s: not a setting of the run", name);
  if ((o->metavar == NULL) != (value == NULL))
    return parse_fail (&p, value ? "--%s: takes no argument"
                       : "--%s: missing argument", name);
  if (!o->set (&p, c, value))
    return false;
  /* A case file's settings are recorded one by one, not the file.  */
  return o->set == set_case
         || record_setting (&p, c, (size_t) (o - option_table), value);
}

/* One setting of a case file, by its exact long name: the messages speak
   of lines of the file (casefile.c adds its name and the line).  */
/* Whether setting name of a case file names a file to read (whole),
   or holds @FILE schedules: those names are relative to the case
   file's directory, as its includes are; the files a run writes
   (--output-dir, --monitor, --probe-file) are the current
   directory's, as on the command line.  */
static bool
names_input (const char *name, bool *schedules)
{
  static const char *const whole[] = {
    "init", "restart", "material-map", "source-map", "source-schedule"
  };
  *schedules = strcmp (name, "bc") == 0
               || strcmp (name, "surface-convection") == 0;
  for (size_t k = 0; k < sizeof whole / sizeof *whole; ++k)
    if (strcmp (name, whole[k]) == 0)
      return true;
  return *schedules;
}

/* Count a read of the case file path, and note it among the run's
   inputs (config_inputs), once.  Every read counts, a file's second
   too: ten includes of a file that includes another ten times, ten
   levels down, are 10^10 reads of eleven files.  */
static bool
note_case_file (struct parser *p, struct config *c, const char *path)
{
  /* casefile.c names the include or --case that read path.  */
  if (c->case_reads == CASE_FILES_MAX)
    return parse_fail (p, "more than %d case files read (each include "
                       "counts)", CASE_FILES_MAX);
  ++c->case_reads;
  for (size_t k = 0; k < c->case_file_count; ++k)
    if (strcmp (c->case_files[k], path) == 0)
      return true;
  const char *kept = keep_value (c, path);
  if (kept == NULL)
    return parse_fail (p, "out of memory");
  c->case_files[c->case_file_count++] = kept;
  return true;
}

static bool
apply_case_setting (void *context, const char *name, const char *value,
                    const char *path, char *err, size_t errlen)
{
  struct config *c = context;
  struct parser p = { err, errlen, false };
  if (name == NULL)
    return note_case_file (&p, c, path);
  const struct option_spec *o = option_named (name);
  if (o == NULL)
    return parse_fail (&p, "unknown option '%s'", name);
  if (o->set == NULL)
    return parse_fail (&p, "%s: not a setting (for the command line only)",
                       name);
  if (o->metavar != NULL && value == NULL)
    return parse_fail (&p, "%s: needs a value (%s = %s)", name, name,
                       o->metavar);
  if (o->metavar == NULL && value != NULL)
    return parse_fail (&p, "%s: a flag takes no value (write '%s' alone)",
                       name, name);
  const char *kept = value;
  bool schedules;
  const bool input = value != NULL && names_input (name, &schedules);
  if (input && case_file_splits_name (path, value, schedules))
    return parse_fail (&p, "%s: the ',' in the case file's directory "
                       "would end the @FILE name of '%s' early (a name "
                       "another value follows cannot hold one)", name,
                       value);
  if (input)
    {
      char *resolved = case_file_resolve (path, value, schedules);
      kept = resolved != NULL ? keep_value (c, resolved) : NULL;
      free (resolved);
    }
  else if (value != NULL)
    kept = keep_value (c, value);
  if (value != NULL && kept == NULL)
    return parse_fail (&p, "%s: out of memory", name);
  return options_apply (c, name, kept, err, errlen);
}

static bool
set_case (struct parser *p, struct config *c, const char *value)
{
  bool unusable;
  if (case_file_read (value, apply_case_setting, c, p->err, p->errlen,
                      &unusable))
    return true;
  c->file_unusable = unusable;
  return false;
}

/* One schedule of c: the option that gave it, the least value it may
   take.  */
struct schedule_use {
  struct schedule *s;
  const char *option;
  double least;
};

/* Every schedule of c into use (at most 3 EDGE_COUNT + 3); how many.  */
static size_t
schedules_of (struct config *c, struct schedule_use *use)
{
  size_t n = 0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      struct edge_condition *b = &c->bc[e];
      const char *option = bc_option ((enum edge) e);
      if (b->kind == BOUNDARY_DIRICHLET || b->kind == BOUNDARY_NEUMANN)
        use[n++] = (struct schedule_use) { &b->value, option, -INFINITY };
      if (b->kind == BOUNDARY_ROBIN)
        {
          use[n++] = (struct schedule_use) { &b->h, option, 0.0 };
          use[n++] = (struct schedule_use) { &b->ambient, option, -INFINITY };
        }
    }
  if (c->given.source_schedule)
    use[n++] = (struct schedule_use) { &c->source_schedule,
                                       "--source-schedule", -INFINITY };
  if (c->surface_given)
    {
      use[n++] = (struct schedule_use) { &c->surface_h,
                                         "--surface-convection", 0.0 };
      use[n++] = (struct schedule_use) { &c->surface_ambient,
                                         "--surface-convection", -INFINITY };
    }
  return n;
}

bool
options_load_schedules (struct config *c, char *err, size_t errlen)
{
  struct parser p = { err, errlen, false };
  struct schedule_use use[3 * EDGE_COUNT + 3];
  const size_t n = schedules_of (c, use);
  for (size_t k = 0; k < n; ++k)
    {
      if (!schedule_load (&p, use[k].option, use[k].least, use[k].s))
        {
          c->file_unusable = p.file;
          return false;
        }
      if (c->steady && schedule_varies (use[k].s))
        return parse_fail (&p, "%s: %s: the values change in time: not with "
                           "--steady (a steady state has no time)",
                           use[k].option, use[k].s->path);
    }
  return true;
}

bool
options_restore (struct config *c, const char *name, const char *value,
                 char *err, size_t errlen)
{
  struct parser p = { err, errlen, false };
  const char *kept = keep_value (c, value);
  return kept != NULL ? options_apply (c, name, kept, err, errlen)
         : parse_fail (&p, "--%s: out of memory", name);
}

void
options_free (struct config *cfg)
{
  struct schedule_use use[3 * EDGE_COUNT + 3];
  const size_t n = schedules_of (cfg, use);
  for (size_t k = 0; k < n; ++k)
    schedule_free (use[k].s);
  while (cfg->case_values != NULL)
    {
      struct case_value *next = cfg->case_values->next;
      free (cfg->case_values);
      cfg->case_values = next;
    }
}

/* Whether a case file can hold value as it is: it has no quoting, so no
   line break, and no blank at either end (they are trimmed).  */
static bool
case_writable (const char *value)
{
  const size_t n = strlen (value);
  return strpbrk (value, "\n\r") == NULL
         && (n == 0 || (strchr (" \t", value[0]) == NULL
                        && strchr (" \t", value[n - 1]) == NULL));
}

/* Append s at out + at (out NULL: only count); the new length.  */
static size_t
put (char *out, size_t at, const char *s)
{
  const size_t n = strlen (s);
  if (out != NULL)
    memcpy (out + at, s, n);
  return at + n;
}

/* The case file of c's settings, setting i with value[i], into out
   (NULL: only count); its length.  The settings come in --help's
   order.  */
static size_t
write_case (const struct config *c, const char *const *value, char *out)
{
  size_t n = put (out, 0, "# heatsim case file (heatsim --case FILE runs "
                  "it; the files it reads are named by absolute paths, "
                  "those it writes from the run's directory)\n");
  for (size_t g = 0; g < GROUP_COUNT; ++g)
    for (size_t k = 0; k < OPTION_COUNT; ++k)
      for (size_t i = 0; i < c->setting_count; ++i)
        if (option_table[k].group == g && c->settings[i].option == k)
          {
            n = put (out, n, option_table[k].name);
            if (value[i] != NULL)
              n = put (out, put (out, n, " = "), value[i]);
            n = put (out, n, "\n");
          }
  return n;
}

/* The working directory followed by '/' (not doubled at the root),
   which case_file_resolve takes as a file's path: malloc'ed; NULL with
   errno set when it cannot be read.  */
static char *
working_directory (void)
{
  for (size_t size = 256; size <= (size_t) 1 << 20; size *= 2)
    {
      char *dir = malloc (size + 1);
      if (dir == NULL)
        return NULL;
      if (getcwd (dir, size) != NULL)
        {
          const size_t n = strlen (dir);
          if (n == 0 || dir[n - 1] != '/')
            strcpy (dir + n, "/");
          return dir;
        }
      const int error = errno;
      free (dir);
      errno = error;
      if (error != ERANGE)
        return NULL;
    }
  errno = ENAMETOOLONG;
  return NULL;
}

/* The value setting i of c is written with: the files a run reads by
   absolute names, so that a printed case runs wherever it is saved
   (its reader takes relative names from its own directory); *owned
   the allocation to free, or NULL.  False with a message when the
   working directory cannot be read or memory is short.  */
static bool
case_value (struct parser *p, const struct config *c, size_t i,
            char **cwd, const char **value, char **owned)
{
  const struct setting *s = &c->settings[i];
  bool schedules;
  *value = s->value;
  *owned = NULL;
  if (s->value == NULL
      || !names_input (option_table[s->option].name, &schedules)
      || !case_file_names_relative (s->value, schedules))
    return true;
  const char *name = option_table[s->option].name;
  if (*cwd == NULL && (*cwd = working_directory ()) == NULL)
    return parse_fail (p, "--%s: cannot read the working directory to "
                       "name '%s' from it: %s", name, s->value,
                       strerror (errno));
  if (case_file_splits_name (*cwd, s->value, schedules))
    return parse_fail (p, "--%s: '%s' cannot be written in a case file: "
                       "the ',' in the working directory's name would end "
                       "its @FILE name early", name, s->value);
  *owned = case_file_resolve (*cwd, s->value, schedules);
  *value = *owned;
  return *owned != NULL || parse_fail (p, "out of memory");
}

bool
options_case_text (const struct config *cfg, char **text, char *err,
                   size_t errlen)
{
  struct parser p = { err, errlen, false };
  const char *value[SETTINGS_MAX];
  char *owned[SETTINGS_MAX] = { NULL };
  char *cwd = NULL;
  bool ok = true;
  *text = NULL;
  for (size_t i = 0; ok && i < cfg->setting_count; ++i)
    {
      ok = case_value (&p, cfg, i, &cwd, &value[i], &owned[i]);
      const char *name = option_table[cfg->settings[i].option].name;
      if (ok && value[i] != NULL && !case_writable (value[i]))
        ok = parse_fail (&p, "--%s: '%s' cannot be written in a case file "
                         "(it has no quoting: no line breaks, no blanks "
                         "at the ends)", name, value[i]);
      else if (ok && value[i] != NULL
               && strlen (name) + 3 + strlen (value[i]) > CASE_LINE_MAX)
        ok = parse_fail (&p, "--%s: its line of a case file would be %zu "
                         "bytes, more than the %d a case file's reader "
                         "takes", name, strlen (name) + 3 + strlen (value[i]),
                         CASE_LINE_MAX);
    }
  if (ok)
    {
      const size_t n = write_case (cfg, value, NULL);
      *text = malloc (n + 1);
      ok = *text != NULL || parse_fail (&p, "out of memory");
      if (ok)
        {
          write_case (cfg, value, *text);
          (*text)[n] = '\0';
        }
    }
  for (size_t i = 0; i < cfg->setting_count; ++i)
    free (owned[i]);
  free (cwd);
  return ok;
}

/* getopt_long's code for an option: its short name, or a number past
   every character.  */
static int
option_code (size_t k)
{
  return option_table[k].short_name ? option_table[k].short_name
         : CHAR_MAX + 1 + (int) k;
}

static const struct option_spec *
option_coded (int code)
{
  for (size_t k = 0; k < OPTION_COUNT; ++k)
    if (option_code (k) == code)
      return &option_table[k];
  return NULL;
}

/* getopt_long's tables from option_table: longs holds OPTION_COUNT + 1
   entries, shorts 3 * OPTION_COUNT + 2 bytes.  The leading ':' makes a
   missing argument ':' rather than '?'.  */
static void
getopt_tables (struct option *longs, char *shorts)
{
  *shorts++ = ':';
  for (size_t k = 0; k < OPTION_COUNT; ++k)
    {
      const struct option_spec *o = &option_table[k];
      const int has_arg = o->metavar ? required_argument : no_argument;
      longs[k] = (struct option) { o->name, has_arg, NULL, option_code (k) };
      if (o->short_name)
        {
          *shorts++ = o->short_name;
          if (o->metavar)
            *shorts++ = ':';
        }
    }
  longs[OPTION_COUNT] = (struct option) { NULL, 0, NULL, 0 };
  *shorts = '\0';
}

enum options_action
options_parse (int argc, char **argv, struct config *cfg, char *err,
               size_t errlen)
{
  struct option longs[OPTION_COUNT + 1];
  char shorts[3 * OPTION_COUNT + 2];
  struct parser p = { err, errlen, false };
  bool ok = true;
  enum options_action action = OPTIONS_RUN;

  getopt_tables (longs, shorts);
  config_defaults (cfg);
  err[0] = '\0';
  optind = 0;          /* glibc: full reset, so tests may parse repeatedly */
  opterr = 0;          /* our messages, not getopt's */

  int code;
  int last_optind = 1;
  while (ok && (code = getopt_long (argc, argv, shorts, longs, NULL)) != -1)
    {
      const struct option_spec *o = option_coded (code);
      if (code == ':')
        ok = parse_fail (&p, "%s: missing argument", argv[last_optind]);
      else if (o == NULL)
        ok = bad_option (&p, argv[last_optind], optopt);
      else if (o->action == OPTIONS_HELP || o->action == OPTIONS_VERSION)
        return o->action;
      else if (o->action != OPTIONS_RUN)
        action = o->action;
      else
        ok = options_apply (cfg, o->name, o->metavar ? optarg : NULL, err,
                            errlen);
      last_optind = optind;
    }
  if (ok && optind < argc)
    ok = parse_fail (&p, "unexpected argument '%s'", argv[optind]);
  /* --print-case prints only what a run would accept.  */
  const bool checked = action == OPTIONS_RUN || action == OPTIONS_PRINT_CASE;
  if (ok && checked)
    ok = check_combinations (&p, cfg);
  /* Before anything is written, and before the stability check, which
     takes the schedules' largest values.  */
  if (ok && checked)
    ok = options_load_schedules (cfg, err, errlen);
  /* With a file, the grid is known only once it is read.  */
  if (ok && checked && cfg->init == NULL && cfg->restart == NULL)
    ok = derive_settings (cfg, action == OPTIONS_RUN, err, errlen);
  return ok ? action : OPTIONS_ERROR;
}

bool
options_json_requested (int argc, char **argv)
{
  struct option longs[OPTION_COUNT + 1];
  char shorts[3 * OPTION_COUNT + 2];
  const int json = option_code ((size_t) (option_named ("json")
                                          - option_table));
  bool requested = false;
  getopt_tables (longs, shorts);
  optind = 0;
  opterr = 0;
  for (int code; (code = getopt_long (argc, argv, shorts, longs, NULL)) != -1;)
    requested = requested || code == json;
  return requested;
}
