/* The run configuration: what the command line (and an input file) ask
   for, and the few quantities derived from it that every layer needs.  A
   type layer: it includes nothing of heatsim's but the field type, so that
   any module can take a struct config without pulling in the modules
   that fill it.  */
#ifndef HEATSIM_RUN_CONFIG_H
#define HEATSIM_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"
#include "provenance.h"

struct case_value;
struct colormap;
struct problem;
struct strategy;

/* --probe: at most this many points (one CSV column each).  */
#define PROBES_MAX 64

/* The settings given, at most this many (each option's last value, every
   value of a repeatable one).  */
#define SETTINGS_MAX 256

/* One setting given, on the command line or in a case file.  */
struct setting {
  unsigned option;        /* its row in options.c's table */
  const char *value;      /* NULL for a flag */
};

/* --case: at most this many reads of case files, each include
   counted (includes that fan out would otherwise read 10^10 files).  */
#define CASE_FILES_MAX 64

/* --material and --source-rect: at most this many each.  */
#define MATERIALS_MAX 64
#define SOURCE_RECTS_MAX 64

/* One --material KEY=SPEC: the material of the cells of a --material-map
   whose value is key.  */
struct material_def {
  bool colour;            /* key is a colour #rrggbb (of a colour PNG),
                             else a whole number (an HDF5 'material'
                             dataset's value, a gray PNG's level) */
  long long key;          /* the number, or the colour as 0xrrggbb */
  const char *text;       /* KEY=SPEC as given */
  double conductivity;    /* k, W/(m K) */
  double density;         /* rho, kg/m^3 */
  double heat_capacity;   /* c_p, J/(kg K) */
};

/* A value that may change in time: a constant, or a schedule read from
   a CSV file of time,value rows (--bc KIND:@FILE, --source-schedule),
   linearly interpolated and held at its first and last value outside its
   times (schedule.h evaluates it).  */
struct schedule {
  const char *path;       /* the file's name, or NULL for the constant */
  double value;           /* the constant */
  size_t points;          /* rows read from path (schedule_load) */
  double *time, *values;  /* points each; owned (options_free) */
};

/* The condition on one edge of the whole grid (--bc EDGE=SPEC; --boundary
   and --edges are shorthands for it).  */
struct edge_condition {
  enum boundary_kind kind;
  bool given;             /* by an option; otherwise the problem's own edge
                             (its temperatures, for a Dirichlet edge) */
  struct schedule value;  /* temperature T (Dirichlet) or heat flux Q into
                             the domain, W/m^2 (Neumann) */
  struct schedule h;      /* convection: H, W/(m^2 K) (Robin) */
  struct schedule ambient;   /* convection: TINF */
};

/* The material and the heat sources the options give (material.c reads
   the files they name).  */
struct material_options {
  bool conductivity_given, density_given, heat_capacity_given;
  double conductivity, density, heat_capacity;   /* uniform SI material */
  const char *map;        /* --material-map FILE, or NULL */
  size_t defs;            /* --material definitions */
  struct material_def def[MATERIALS_MAX];
  bool source_given;
  double source;          /* --source Q, W/m^3 */
  const char *source_map; /* --source-map FILE, or NULL */
  bool source_range_given;
  double source_range[2]; /* a PNG source map's gray 0 and 65535 */
  size_t rects;           /* --source-rect X0,X1,Y0,Y1,Q */
  double rect[SOURCE_RECTS_MAX][5];
  bool initial_temperature_given;
  double initial_temperature;
  /* The material is the --restart checkpoint's (material_restart): its
     maps are the file's datasets, and messages about them name
     --restart, not the options that the first run was given.  */
  bool from_checkpoint;
  /* Derived (material_derive): the material is not k = alpha, rho c_p
     = 1 without source; variable: k or rho c_p varies, or a source,
     face cooling or a source schedule is given (the variable step
     runs); the largest k / (rho c_p) of the grid.  */
  bool given;
  bool variable;
  /* Variable for its source alone: k and rho c_p uniform, no face
     cooling or source schedule (edge_terms_geometric_source); then the
     largest |q| / k and |q| / (rho c_p) of the grid, and whether q is
     the same at every node (config_uniform_source).  */
  bool source_only;
  bool source_uniform;
  double source_per_k, source_per_capacity;
  double diffusivity_max;
  /* The explicit limit's: diffusivity_max, or more where the faces'
     harmonic means conduct better than a node's own k
     (config_diffusivity_stable).  */
  double diffusivity_stable;
  double capacity_min;    /* the smallest rho c_p of the grid (1 without
                             SI material) */
  double capacity_max;    /* the largest */
};

/* Whether the options give a uniform SI material: --conductivity,
   --density and --heat-capacity (all three or none without a map,
   material_check_options) and no map.  */
static inline bool
material_options_uniform (const struct material_options *m)
{
  return m->conductivity_given && m->density_given && m->heat_capacity_given
         && m->map == NULL;
}

/* Whether the options give a heat source (--source, --source-map or
   --source-rect).  */
static inline bool
material_options_source (const struct material_options *m)
{
  return m->source_given || m->source_map != NULL || m->rects > 0;
}

/* The explicit scheme is stable for alpha dt (1/dx^2 + 1/dy^2) <= this.  */
#define STABILITY_LIMIT 0.5

/* How a target kernel spreads the cells over the device: all compute the
   same values; they differ in speed only (--kernel).  */
enum kernel_form {
  KERNEL_COLLAPSE,           /* teams distribute parallel for collapse(2),
                                one contiguous block of cells per team */
  KERNEL_SPLIT,              /* rows to teams, parallel for within a row */
  KERNEL_BARE                /* LLVM's ompx_bare: a launch shape set by hand,
                                one team per row (GPUs only) */
};

/* How --steady finds the steady state (--solver).  */
enum steady_solver {
  SOLVER_MULTIGRID,          /* V-cycles to --rtol (the default) */
  SOLVER_JACOBI              /* sweeps until the change per sweep <= --tol */
};

/* How a time step advances the field (--scheme): theta = 0, 1, 1/2 of
   (I - theta alpha dt L) u' = (I + (1 - theta) alpha dt L) u.  */
enum time_scheme {
  SCHEME_EXPLICIT,           /* forward Euler, the stencil kernels */
  SCHEME_BACKWARD_EULER,     /* theta = 1: first order, any dt */
  SCHEME_CRANK_NICOLSON      /* theta = 1/2: second order, any dt */
};

/* The unit of the field (--temperature-unit): with one, heatsim is SI
   (lengths in m, times in s, alpha in m^2/s); without, nondimensional.  */
enum temperature_unit {
  TEMPERATURE_NONE,          /* nondimensional: CF's unit "1" */
  TEMPERATURE_KELVIN,        /* "K" */
  TEMPERATURE_CELSIUS        /* "degC" (UDUNITS, CF) */
};

/* --tile-steps: each fused step keeps three rows per thread in cache;
   more than this would only spill them.  */
enum { MAX_TILE_STEPS = 64 };

/* Which options the user gave, where that changes what others mean.  */
struct given_options {
  bool grid, length, alpha, steps, dt, end_time, force, disk, problem;
  bool boundary, tol, max_steps, residual_every, range, kernel;
  bool png_name, checkpoint_name, compress, init_range;
  bool steps_auto;        /* --steps auto (steps is then also set) */
  bool monitor_every;
  bool probe_every, probe_file;
  bool solver, scheme, rtol;
  bool temperature_unit, start_time;
  bool bc, source_schedule, thickness, surface_convection;
};

struct config {
  const struct problem *problem;
  struct edge_condition bc[EDGE_COUNT];   /* of the whole grid's edges */
  unsigned char bc_by[EDGE_COUNT];   /* which option set bc[e]: --bc over
                                        --edges over --boundary, whatever
                                        their order (options.c) */
  bool edges_given;       /* Dirichlet values from --edges, not the problem */
  double edges[EDGE_COUNT];
  struct schedule source_schedule;   /* --source-schedule: a factor on every
                                        heat source (constant 1 if none) */
  bool surface_given;     /* --thickness D and --surface-convection H,TINF:
                             heat lost through a thin plate's two faces,
                             2 H (T - TINF) / D per unit volume */
  double thickness;
  struct schedule surface_h, surface_ambient;
  double disk_radius, disk_inside, disk_outside;   /* --problem disk */
  size_t nx, ny;          /* interior cells in x and y */
  double lx, ly;          /* domain lengths; spacing: config_dx, config_dy */
  double alpha;           /* thermal diffusivity */
  enum temperature_unit unit;   /* of the field; SI or nondimensional */
  size_t steps;           /* time steps */
  double dt;              /* time step */
  double end_time;        /* steps * dt */
  const struct strategy *strategy;   /* NULL until --offload auto is
                                        resolved (strategy_auto) */
  bool strategy_auto;     /* resident where an offload device runs the
                             target regions, host threads otherwise */
  int device;             /* offload device, or -1 for the OpenMP default */
  enum kernel_form kernel;   /* how target kernels spread the grid */
  bool require_device;    /* fail rather than fall back to the host */
  bool force;             /* run even if the time step is unstable */
  bool steady;            /* iterate to the steady state instead */
  double tol;             /* steady: stop when no cell changes by more */
  size_t max_steps;       /* steady: give up after this many sweeps (V-cycles
                             for multigrid) */
  enum steady_solver solver;   /* steady: multigrid or Jacobi */
  enum time_scheme scheme;     /* time-dependent: explicit or implicit */
  double rtol;            /* multigrid: stop when the residual norm has
                             fallen by this factor */
  size_t residual_every;  /* steady: read the largest change this often */
  size_t nan_check_every; /* look for NaN or Inf in the field this often */
  size_t tile_steps;      /* explicit host steps fused per pass over the
                             field, 1 .. MAX_TILE_STEPS; 0: auto (the
                             solver picks) */
  bool quiet;             /* no progress on stderr */
  double progress_every;  /* seconds between progress lines, 0: none */
  const char *monitor;    /* CSV of diagnostics over time, or NULL */
  size_t monitor_every;   /* a row every this many steps */
  size_t probes;          /* --probe points given */
  double probe_xy[PROBES_MAX][2];   /* their positions (x, y) */
  size_t probe_every;     /* a --probe-file row every this many steps */
  const char *probe_file; /* NULL: probes.csv in output_dir */
  bool profile;           /* --profile given */
  double profile_ends[4]; /* x0, y0, x1, y1 */
  size_t profile_points;  /* points along it; 0: profile_default_points */
  bool json;              /* machine-readable report on stdout */
  bool bench;             /* measure the copy bandwidth for comparison */

  /* Output: PNG snapshots and HDF5 checkpoints, every K steps and at the
     end (0: none).  */
  const char *output_dir;
  size_t png_every;
  const char *png_name;   /* file-name pattern: %d step or %f frame index */
  const struct colormap *colormap;
  int png_depth;          /* 8 (colour) or 16 (grayscale) */
  unsigned png_scale;     /* --png-scale K; 0 if not given (1, and the
                             grid's size even if odd) */
  bool png_legend;        /* colour bar, value labels, step and time */
  bool range_given;
  double range[2];        /* values at the ends of the colour map */
  size_t checkpoint_every;
  const char *checkpoint_name;
  int compress;           /* HDF5 deflate level, 0 for none */

  /* Input: a checkpoint to continue, or an initial field from a file.  */
  const char *restart;
  const char *init;       /* HDF5 or PNG file */
  const char *init_dataset;   /* HDF5 dataset, or NULL: /field */
  double init_range[2];   /* PNG gray levels 0 and max map to these */
  size_t start_step;      /* step number of the initial field */
  double start_time;      /* simulated time of the initial field */
  bool continues;         /* the run goes on from the step and time of a
                             checkpoint (--restart, or --init of a
                             time-dependent checkpoint in a time-dependent
                             run): its outputs join those of that run */
  double restart_residual;   /* a steady multigrid checkpoint: the initial
                                residual norm of the run it continues
                                (--rtol is relative to it); 0 otherwise */
  double restart_largest;    /* a steady checkpoint: the largest |u| of
                                the field the run it continues started
                                from, where restart_largest_known */
  bool restart_largest_known;

  struct material_options material;

  struct given_options given;
  /* What --print-case writes and the provenance records (options.c).  */
  struct setting settings[SETTINGS_MAX];
  size_t setting_count;
  const char *case_files[CASE_FILES_MAX];   /* the case files read
                                               (--case and their
                                               includes), for
                                               config_inputs */
  size_t case_file_count;
  size_t case_reads;    /* the reads of case files, each include of a
                           file read before counted again: at most
                           CASE_FILES_MAX */
  struct case_value *case_values;   /* the values read from case files,
                                       which settings and the strings
                                       above point into; owned
                                       (options_free) */
  const struct provenance *provenance;   /* set by main after parsing */
  bool file_unusable;   /* the options were refused because an input file
                           they name (a map, a schedule, a case file)
                           cannot be opened or read: status bad_file, as
                           for --init, not usage_error */
  bool too_large;       /* the options were refused because the run
                           cannot fit in memory (least_footprint): status
                           too_large, as main's memory check */
};

/* A file the run reads: the option that named it and its name.  */
struct config_input {
  const char *option;
  const char *path;
};

/* The most input files of a run: --init or --restart, the two maps,
   --source-schedule, three schedules on each edge, two of
   --surface-convection, and the case files.  */
#define CONFIG_INPUTS_MAX (4 + 3 * EDGE_COUNT + 2 + CASE_FILES_MAX)

/* The files c reads, each once per option that names it, into in; their
   number.  Every output of the run must leave them as they are.  */
size_t config_inputs (const struct config *c,
                      struct config_input in[CONFIG_INPUTS_MAX]);

/* Whether the edges of an axis (left and right, or bottom and top) are
   periodic: both are, or neither.  */
static inline bool
config_periodic (const struct config *c, enum edge e)
{
  return c->bc[e & ~1].kind == BOUNDARY_PERIODIC;
}

/* Whether the outer line of edge e is made of unknowns of the grid, its
   edge nodes: every kind but a Dirichlet edge (whose nodes are the halo)
   and a periodic one (whose axis has no end).  An edge node owns half a
   control volume along its axis.  */
static inline bool
boundary_has_edge_node (enum boundary_kind kind)
{
  return kind != BOUNDARY_DIRICHLET && kind != BOUNDARY_PERIODIC;
}

static inline bool
config_edge_node (const struct config *c, enum edge e)
{
  return boundary_has_edge_node (c->bc[e].kind);
}

/* The geometry of an axis of n whole-grid interior nodes (index 1 .. n,
   halo 0 and n + 1) whose low and high edges have kinds lo and hi: a
   Dirichlet edge's nodes are the halo, at the ends of the length; an
   edge node lies on its edge; a periodic axis has n nodes per period.
   The length then divides into this many intervals (0 when the grid has
   too few nodes for its edges: derive_settings refuses it).  */
static inline size_t
axis_intervals (size_t n, enum boundary_kind lo, enum boundary_kind hi)
{
  if (lo == BOUNDARY_PERIODIC)
    return n;
  const size_t ends = (size_t) boundary_has_edge_node (lo)
                      + (size_t) boundary_has_edge_node (hi);
  return n + 1 >= ends ? n + 1 - ends : 0;
}

static inline double
axis_spacing (double length, size_t n, enum boundary_kind lo,
              enum boundary_kind hi)
{
  return length / (double) axis_intervals (n, lo, hi);
}

/* The position of node i (0 .. n + 1) from the low edge: i spacing where
   the low edge is Dirichlet (its halo node lies on it), (i - 1) spacing
   otherwise (node 1 lies on it).  The halo of an edge node's axis lies
   one spacing outside the domain, where its mirror image is.  */
static inline double
axis_position (size_t i, double spacing, enum boundary_kind lo)
{
  return ((double) i - (lo != BOUNDARY_DIRICHLET)) * spacing;
}

/* The share of a full control volume along the axis that node i
   (1 .. n) owns: 1/2 for an edge node, else 1.  */
static inline double
axis_fraction (size_t i, size_t n, enum boundary_kind lo,
               enum boundary_kind hi)
{
  return (i == 1 && boundary_has_edge_node (lo))
         || (i == n && boundary_has_edge_node (hi)) ? 0.5 : 1.0;
}

/* Grid spacing (axis_intervals).  */
static inline double
config_dx (const struct config *c)
{
  return axis_spacing (c->lx, c->nx, c->bc[EDGE_LEFT].kind,
                       c->bc[EDGE_RIGHT].kind);
}

static inline double
config_dy (const struct config *c)
{
  return axis_spacing (c->ly, c->ny, c->bc[EDGE_BOTTOM].kind,
                       c->bc[EDGE_TOP].kind);
}

/* The position x of column i, y of row j of the whole grid (halo
   included: 0 .. nx + 1, 0 .. ny + 1).  */
static inline double
config_x (const struct config *c, size_t i)
{
  return axis_position (i, config_dx (c), c->bc[EDGE_LEFT].kind);
}

static inline double
config_y (const struct config *c, size_t j)
{
  return axis_position (j, config_dy (c), c->bc[EDGE_BOTTOM].kind);
}

/* The share of a full control volume dx dy that interior node (i, j) of
   the whole grid owns: 1/2 on an edge of edge nodes, 1/4 at a corner of
   two.  The capacity and the sources of the node scale by it.  */
static inline double
config_volume_fraction (const struct config *c, size_t i, size_t j)
{
  return axis_fraction (i, c->nx, c->bc[EDGE_LEFT].kind,
                        c->bc[EDGE_RIGHT].kind)
         * axis_fraction (j, c->ny, c->bc[EDGE_BOTTOM].kind,
                          c->bc[EDGE_TOP].kind);
}

/* The simulated time at step: the start time, and dt a step after it.
   Written as step dt plus a constant, so that a run from step 0 at time
   0, and a restart, give step dt exactly, as they always have.  */
static inline double
config_time (const struct config *c, size_t step)
{
  return (double) step * c->dt
         + (c->start_time - (double) c->start_step * c->dt);
}

/* The time a checkpoint, its XDMF entry and a snapshot record for step:
   its simulated time, or, in a steady run, which has none, the step
   itself (the sweep or V-cycle count), so that a steady run's
   checkpoints still form a series in the order of its iterations, and a
   restart keeps the earlier ones (xdmf_load).  */
static inline double
config_record_time (const struct config *c, size_t step)
{
  return c->steady ? (double) step : config_time (c, step);
}

/* The largest diffusivity k / (rho c_p) of the grid: alpha, unless a
   material says otherwise.  It sets the explicit stability limit.  */
static inline double
config_diffusivity_max (const struct config *c)
{
  return c->material.given ? c->material.diffusivity_max : c->alpha;
}

/* The diffusivity of the explicit stability limit: alpha dt (1/dx^2 +
   1/dy^2) <= 1/2 keeps every node's own weight in a step non-negative
   (the maximum principle).  A node's rate of decay is its faces'
   conductances over its rho c_p, and a face's harmonic mean reaches
   twice the k of its weaker node: with a varying k this can exceed the
   largest k / (rho c_p) (material.c).  */
static inline double
config_diffusivity_stable (const struct config *c)
{
  return c->material.given ? c->material.diffusivity_stable : c->alpha;
}

/* Whether a varying k's faces, not the largest k / (rho c_p), set the
   limit (the messages then say so).  */
static inline bool
config_stability_by_faces (const struct config *c)
{
  return config_diffusivity_stable (c) > config_diffusivity_max (c);
}

/* The explicit step's stability number, stable up to STABILITY_LIMIT:
   dt / 2 times the largest rate of decay of a node,
     D (2/dx^2 + 2/dy^2) + 2 H / (rho c_p spacing) + s / rho c_p,
   D config_diffusivity_stable, the last two for the convection edges
   (the largest H of their schedules; a corner has two) and face
   cooling, s = 2 H / D, taken with the smallest rho c_p: D dt (1/dx^2 +
   1/dy^2) where neither is given.  */
double config_stability (const struct config *c);
/* The rates of decay that convection edges and face cooling add to it,
   per unit rho c_p: 2 H / spacing at an edge node (both edges' at a
   corner), and s.  */
double config_boundary_rate (const struct config *c);
/* Those of them that add to it: "convection", "face cooling", both
   ("convection and face cooling"), or NULL.  */
const char *config_stability_terms (const struct config *c);

/* What gave the run's conductivity k, into text, for a message that
   quotes or blames it: the checkpoint of --restart ("its material"),
   --material-map, --conductivity, the alpha of an --init file, or
   --alpha (k = alpha without an SI material; the default said to be
   one).  With diffusivity, what gave the diffusivity of the explicit
   stability limit (config_diffusivity_stable), which a map's or an SI
   material's text then quotes.  */
void config_describe_material (const struct config *c, bool diffusivity,
                               char *text, size_t size);

/* Whether the run has terms of the variable step whatever its maps
   hold: face cooling or a source schedule.  */
static inline bool
config_step_terms (const struct config *c)
{
  return c->surface_given || c->source_schedule.path != NULL;
}

/* Whether the operator varies from node to node, known before the maps
   are read: a source, or the step's terms.  A map may add to it.  */
static inline bool
config_varies_before_maps (const struct config *c)
{
  return material_options_source (&c->material) || config_step_terms (c);
}

/* Whether the material is uniform and its source the same at every
   node, with no face cooling or source schedule (known once the maps
   are read, a restart's from its checkpoint): explicit steps then run
   the constant stencil plus the source's rise, without the variable
   step's arrays.  */
static inline bool
config_uniform_source (const struct config *c)
{
  return c->material.source_only && c->material.source_uniform;
}

/* Whether explicit steps of c's material are the variable step, with its
   arrays beside the fields (not the constant stencil, with or without a
   uniform source's rise).  */
static inline bool
config_variable_step (const struct config *c)
{
  return c->material.variable && !config_uniform_source (c);
}

/* Whether an edge is held at a fixed temperature: it ties the level.  */
static inline bool
config_fixed_edge (const struct config *c)
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (c->bc[e].kind == BOUNDARY_DIRICHLET)
      return true;
  return false;
}

/* Whether the run solves with multigrid: an implicit scheme, or a
   steady state by multigrid.  */
static inline bool
config_uses_multigrid (const struct config *c)
{
  return c->steady ? c->solver == SOLVER_MULTIGRID
         : c->scheme != SCHEME_EXPLICIT;
}

/* The command-line names of the enumerations, and the value called name
   (false if there is none).  */
const char *boundary_name (enum boundary_kind kind);
/* The kind all four edges share, or "mixed".  */
const char *config_boundary_summary (const struct config *c);
bool boundary_find (const char *name, enum boundary_kind *kind);
const char *edge_name (enum edge e);
bool edge_find (const char *name, enum edge *e);
/* The words that start a --bc SPEC: temperature, flux, insulated (a
   zero flux), convection and periodic.  */
struct edge_kind_word {
  const char *word;
  enum boundary_kind kind;
  const char *values;     /* what follows "WORD:" ("T", "Q", "H,TINF"),
                             or NULL: the word takes no value */
};
/* The word that spec starts with (up to a ':' or its end), or NULL if
   it names no kind.  */
const struct edge_kind_word *edge_kind_word_find (const char *spec);
/* What --bc calls b's kind: temperature, flux, insulated (a constant
   zero flux), convection or periodic.  */
const char *edge_kind_name (const struct edge_condition *b);
/* The kind of a --bc SPEC as a checkpoint records it (its first word);
   false if it names none.  */
bool edge_spec_kind (const char *spec, enum boundary_kind *kind);
/* b as --bc's SPEC (temperature:T, flux:Q, insulated, convection:H,TINF,
   periodic; values @FILE or numbers that read back exactly) into text
   (size bytes); "" for an edge that keeps the problem's own
   temperatures.  False if text is too short.  */
bool edge_condition_spec (const struct edge_condition *b, char *text,
                          size_t size);
/* The face cooling's H,TINF as --surface-convection takes it, into text
   as edge_condition_spec.  */
bool surface_convection_spec (const struct config *c, char *text,
                              size_t size);
const char *kernel_form_name (enum kernel_form form);
bool kernel_form_find (const char *name, enum kernel_form *form);
const char *steady_solver_name (enum steady_solver solver);
bool steady_solver_find (const char *name, enum steady_solver *solver);
const char *time_scheme_name (enum time_scheme scheme);
bool time_scheme_find (const char *name, enum time_scheme *scheme);
/* "1" (none), "K", "degC": as checkpoints record them.  */
const char *temperature_unit_name (enum temperature_unit unit);
bool temperature_unit_find (const char *name, enum temperature_unit *unit);

#endif
