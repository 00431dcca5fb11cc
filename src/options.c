#include <config.h>

#include "options.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "colormap.h"
#include "derive.h"
#include "parse.h"
#include "pattern.h"
#include "problem.h"
#include "strategy.h"

/* Defaults: the manufactured-solution case of the OpenMP GPU tutorial.  */
#define DEFAULT_CELLS 1000
#define DEFAULT_LENGTH 1000.0
#define DEFAULT_ALPHA 0.1
#define DEFAULT_STEPS 10
#define DEFAULT_END_TIME 0.5
#define DEFAULT_TOL 0.01
#define DEFAULT_MAX_STEPS 1000000
#define DEFAULT_RTOL 1e-10
#define DEFAULT_RESIDUAL_EVERY 10
#define DEFAULT_NAN_CHECK_EVERY 100
#define DEFAULT_MONITOR_EVERY 100
#define DEFAULT_PROGRESS_EVERY 2.0
#define DEFAULT_DISK_INSIDE 100.0
#define DEFAULT_DISK_OUTSIDE 0.0
/* --png-scale: 64 x 64 pixels a cell makes a 16x16 grid a 1024-pixel
   image; more would only blur (and slow) the snapshots.  */
#define PNG_SCALE_MAX 64

enum {
  OPT_DT = CHAR_MAX + 1,
  OPT_EDGES,
  OPT_DISK,
  OPT_TOL,
  OPT_MAX_STEPS,
  OPT_RESIDUAL_EVERY,
  OPT_NAN_CHECK_EVERY,
  OPT_OUTPUT_DIR,
  OPT_PNG_EVERY,
  OPT_PNG_NAME,
  OPT_COLORMAP,
  OPT_RANGE,
  OPT_PNG_DEPTH,
  OPT_PNG_SCALE,
  OPT_PNG_LEGEND,
  OPT_CHECKPOINT_EVERY,
  OPT_CHECKPOINT_NAME,
  OPT_COMPRESS,
  OPT_RESTART,
  OPT_INIT,
  OPT_INIT_DATASET,
  OPT_INIT_RANGE,
  OPT_REQUIRE_DEVICE,
  OPT_LIST_DEVICES,
  OPT_JSON,
  OPT_BENCH,
  OPT_KERNEL,
  OPT_MONITOR,
  OPT_MONITOR_EVERY,
  OPT_PROGRESS_EVERY,
  OPT_SOLVER,
  OPT_RTOL,
  OPT_SCHEME,
};

static const struct option long_options[] = {
  {"problem", required_argument, NULL, 'p'},
  {"boundary", required_argument, NULL, 'b'},
  {"edges", required_argument, NULL, OPT_EDGES},
  {"disk", required_argument, NULL, OPT_DISK},
  {"grid", required_argument, NULL, 'g'},
  {"length", required_argument, NULL, 'L'},
  {"alpha", required_argument, NULL, 'a'},
  {"steps", required_argument, NULL, 'n'},
  {"dt", required_argument, NULL, OPT_DT},
  {"scheme", required_argument, NULL, OPT_SCHEME},
  {"end-time", required_argument, NULL, 'T'},
  {"offload", required_argument, NULL, 'o'},
  {"device", required_argument, NULL, 'd'},
  {"kernel", required_argument, NULL, OPT_KERNEL},
  {"require-device", no_argument, NULL, OPT_REQUIRE_DEVICE},
  {"force", no_argument, NULL, 'f'},
  {"nan-check-every", required_argument, NULL, OPT_NAN_CHECK_EVERY},
  {"steady", no_argument, NULL, 's'},
  {"solver", required_argument, NULL, OPT_SOLVER},
  {"rtol", required_argument, NULL, OPT_RTOL},
  {"tol", required_argument, NULL, OPT_TOL},
  {"max-steps", required_argument, NULL, OPT_MAX_STEPS},
  {"residual-every", required_argument, NULL, OPT_RESIDUAL_EVERY},
  {"list-devices", no_argument, NULL, OPT_LIST_DEVICES},
  {"output-dir", required_argument, NULL, OPT_OUTPUT_DIR},
  {"png-every", required_argument, NULL, OPT_PNG_EVERY},
  {"png-name", required_argument, NULL, OPT_PNG_NAME},
  {"colormap", required_argument, NULL, OPT_COLORMAP},
  {"range", required_argument, NULL, OPT_RANGE},
  {"png-depth", required_argument, NULL, OPT_PNG_DEPTH},
  {"png-scale", required_argument, NULL, OPT_PNG_SCALE},
  {"png-legend", no_argument, NULL, OPT_PNG_LEGEND},
  {"checkpoint-every", required_argument, NULL, OPT_CHECKPOINT_EVERY},
  {"checkpoint-name", required_argument, NULL, OPT_CHECKPOINT_NAME},
  {"compress", required_argument, NULL, OPT_COMPRESS},
  {"restart", required_argument, NULL, OPT_RESTART},
  {"init", required_argument, NULL, OPT_INIT},
  {"init-dataset", required_argument, NULL, OPT_INIT_DATASET},
  {"init-range", required_argument, NULL, OPT_INIT_RANGE},
  {"quiet", no_argument, NULL, 'q'},
  {"progress-every", required_argument, NULL, OPT_PROGRESS_EVERY},
  {"monitor", required_argument, NULL, OPT_MONITOR},
  {"monitor-every", required_argument, NULL, OPT_MONITOR_EVERY},
  {"json", no_argument, NULL, OPT_JSON},
  {"bench", no_argument, NULL, OPT_BENCH},
  {"help", no_argument, NULL, 'h'},
  {"version", no_argument, NULL, 'V'},
  {NULL, 0, NULL, 0}
};

static const char short_options[] = ":p:b:g:L:a:n:T:fso:d:qhV";

void
options_usage (FILE *out)
{
  fputs ("Usage: " PACKAGE " [OPTION]...\n"
         "Solve the 2-D heat equation du/dt = alpha (d2u/dx2 + d2u/dy2) with a\n"
         "5-point stencil, explicit on a GPU through OpenMP offload or on CPU\n"
         "threads, or implicit by multigrid, and report the error against the\n"
         "exact solution.\n"
         "\n"
         "Problem:\n"
         "  -p, --problem=NAME       mms (default), plate, disk or file (see below)\n"
         "  -b, --boundary=KIND      dirichlet (default), neumann (zero flux) or\n"
         "                           periodic\n"
         "      --edges=L,R,B,T      fixed (Dirichlet) values of the left, right,\n"
         "                           bottom and top edges, instead of the problem's\n"
         "      --disk=R[,IN[,OUT]]  disk radius and temperatures (default\n"
         "                           min(LX,LY)/4, 100, 0)\n"
         "  -g, --grid=NX[xNY]       interior cells (default 1000x1000)\n"
         "  -L, --length=LX[xLY]     domain size (default 1000x1000)\n"
         "  -a, --alpha=ALPHA        thermal diffusivity (default 0.1)\n"
         "  -n, --steps=N            time steps (default 10); 'auto': the fewest\n"
         "                           that are stable up to --end-time\n"
         "      --dt=DT              time step (default END_TIME / N)\n"
         "  -T, --end-time=T         simulated time (default 0.5); with --dt,\n"
         "                           the steps are ceil(T / DT) and dt = T / steps\n"
         "      --scheme=SCHEME      explicit (default), backward-euler or\n"
         "                           crank-nicolson (implicit: any dt, each step\n"
         "                           solved by multigrid to --rtol)\n"
         "  -f, --force              run even if alpha*dt*(1/dx^2 + 1/dy^2) > 1/2\n"
         "      --nan-check-every=K  stop (status 5) if the field holds NaN or Inf,\n"
         "                           checked every K steps (default 100)\n"
         "\n"
         "Steady state:\n"
         "  -s, --steady             solve for the steady state (Laplace's equation)\n"
         "      --solver=SOLVER      multigrid (default) or jacobi\n"
         "      --rtol=R             multigrid, steady or implicit: stop when the\n"
         "                           residual norm has fallen by R, 0<R<1\n"
         "                           (default 1e-10), or reached round-off\n"
         "      --tol=TOL            jacobi: stop when no cell changes by more than\n"
         "                           TOL in one sweep (default 0.01)\n"
         "      --max-steps=N        give up after N sweeps or V-cycles, status 4\n"
         "                           (default 1000000 sweeps, 100 cycles)\n"
         "      --residual-every=K   jacobi: check the change every K sweeps\n"
         "                           (default 10)\n"
         "\n"
         "Execution:\n"
         "  -o, --offload=STRATEGY   auto (default), resident, map or host\n"
         "  -d, --device=N           offload device (default: OpenMP default device)\n"
         "      --kernel=FORM        target kernel form: collapse (default), split\n"
         "                           or bare (GPUs only; map and resident)\n"
         "      --require-device     fail (status 3) instead of running target\n"
         "                           regions on the host when no device is there\n"
         "      --list-devices       list offload devices and exit\n"
         "\n"
         "Fields in and out:\n"
         "      --output-dir=DIR     where images and checkpoints go (default .)\n"
         "      --png-every=K        PNG snapshot at the start, every K steps, at the end\n"
         "      --png-name=PATTERN   snapshot names (default heatsim-%06d.png);\n"
         "                           %f numbers them 0, 1, 2, ... instead of by step\n"
         "      --colormap=NAME      viridis (default), inferno, cividis or gray\n"
         "      --range=LO,HI        values at the ends of the colour map\n"
         "                           (default: range of the initial field)\n"
         "      --png-depth=BITS     8: colour (default); 16: linear grayscale\n"
         "      --png-scale=K        K x K pixels per cell, 1-64 (default 1)\n"
         "      --png-legend         colour bar with its values, step and time\n"
         "                           under the field; with it or --png-scale the\n"
         "                           image's sides are even (for video encoders)\n"
         "      --checkpoint-every=K HDF5 checkpoint at the start, every K, at the end\n"
         "      --checkpoint-name=PATTERN  names (default heatsim-%06d.h5)\n"
         "      --compress=LEVEL     deflate checkpoints, 0-9 (default 0: off)\n"
         "      --restart=FILE       continue from a checkpoint for --steps more\n"
         "      --init=FILE          initial field from an HDF5 or PNG file; its\n"
         "                           outer ring is the boundary (problem 'file')\n"
         "      --init-dataset=NAME  HDF5 dataset for --init (default /field)\n"
         "      --init-range=LO,HI   PNG gray 0 and white map to LO, HI (default 0,1)\n"
         "\n"
         "Output:\n"
         "  -q, --quiet              no progress messages on stderr\n"
         "      --progress-every=SECONDS  progress line with the step and\n"
         "                           simulated time every SECONDS (default 2;\n"
         "                           0: none)\n"
         "      --monitor=FILE       CSV of step, time, total heat, min, max, L2\n"
         "                           error and largest change over the run; never\n"
         "                           overwritten (continued with --restart)\n"
         "      --monitor-every=K    a --monitor row every K steps (default 100),\n"
         "                           at the first and at the last\n"
         "      --json               print the report as one JSON object (also\n"
         "                           when the run fails: status, error)\n"
         "      --bench              also measure the copy bandwidth where the\n"
         "                           kernels ran, and the stencil's share of it\n"
         "  -h, --help               display this help and exit\n"
         "  -V, --version            output version information and exit\n"
         "\n"
         "Problems:\n", out);
  for (const struct problem *const *p = heatsim_problems; *p; ++p)
    fprintf (out, "  %-10s %s\n", (*p)->name, (*p)->summary);
  fputs ("\nOffload strategies:\n"
         "  auto       resident where an offload device is available, else "
         "host\n", out);
  for (const struct strategy *const *s = heatsim_strategies; *s; ++s)
    fprintf (out, "  %-10s %s\n", (*s)->name, (*s)->summary);
  fputs ("\n"
         "Exit status: 0 success, 1 run-time failure, 2 invalid command line,\n"
         "3 no offload device with --require-device, 4 steady state not\n"
         "reached within --max-steps (or an implicit step's solve did not\n"
         "converge), 5 the field became NaN or infinite,\n"
         "128+N stopped by signal N (SIGINT, SIGTERM).\n"
         "Colour maps:", out);
  for (const struct colormap *const *m = heatsim_colormaps; *m; ++m)
    fprintf (out, " %s", (*m)->name);
  fputs ("\n"
         "Environment: OMP_NUM_THREADS, OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE.\n"
         "Full documentation: man heatsim\n", out);
}

static bool
parse_device (struct parser *p, const char *text, int *device)
{
  unsigned long long v;
  if (!parse_whole (p, "--device", text, NULL, 0, INT_MAX, &v))
    return false;
  *device = (int) v;
  return true;
}

static bool
parse_disk (struct parser *p, const char *text, struct config *c)
{
  double v[3];
  size_t n = parse_reals (p, "--disk", text, 1, 3, v);
  if (n == 0)
    return false;
  if (!(v[0] > 0.0))
    return parse_fail (p, "--disk: radius '%g' must be greater than zero", v[0]);
  c->disk_radius = v[0];
  if (n > 1)
    c->disk_inside = v[1];
  if (n > 2)
    c->disk_outside = v[2];
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

/* Options that belong to one mode or problem, given without it.  */
static bool
check_combinations (struct parser *p, const struct config *c,
                    struct given_options g)
{
  if (g.solver && !c->steady)
    return parse_fail (p, "--solver: only with --steady (time steps take "
                       "--scheme)");
  if (c->steady && g.scheme)
    return parse_fail (p, "--scheme: not used with --steady (it solves for "
                       "the steady state; choose --solver)");
  /* A checkpoint names its scheme and solver: apply_checkpoint checks
     these against it.  */
  const bool multigrid = config_uses_multigrid (c);
  if (g.rtol && !multigrid && c->restart == NULL)
    return parse_fail (p, "--rtol: only for multigrid (--steady, or --scheme "
                       "backward-euler or crank-nicolson)");
  if (c->steady && multigrid && c->restart == NULL
      && (g.tol || g.residual_every))
    return parse_fail (p, "--%s: only with --solver jacobi (multigrid stops "
                       "at --rtol)", g.tol ? "tol" : "residual-every");
  if (!c->steady && multigrid && g.force && c->restart == NULL)
    return parse_fail (p, "--force: not used with --scheme %s (implicit steps "
                       "are stable for any dt)", time_scheme_name (c->scheme));
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
    return parse_fail (p, "--%s: only with --steady", g.tol ? "tol"
                       : g.max_steps ? "max-steps" : "residual-every");
  if (g.kernel && c->strategy != NULL && !c->strategy->offload)
    return parse_fail (p, "--kernel: only with the map and resident strategies "
                       "(--offload %s has no target kernels)", c->strategy->name);
  if (g.disk && strcmp (c->problem->name, "disk") != 0)
    return parse_fail (p, "--disk: only with --problem disk");
  if (c->restart != NULL)
    {
      static const char *const fixed[] = { "grid", "length", "alpha", "dt",
                                           "end-time", "problem", "boundary",
                                           "disk" };
      const bool set[] = { g.grid, g.length, g.alpha, g.dt, g.end_time,
                           g.problem, g.boundary, g.disk };
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
  if (c->init != NULL && (g.grid || g.problem))
    return parse_fail (p, "--%s: not allowed with --init (the file gives the "
                       "initial field and its size)", g.grid ? "grid" : "problem");
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
  if (c->monitor == NULL && g.monitor_every)
    return parse_fail (p, "--monitor-every: only with --monitor");
  /* Snapshots and checkpoints share the output directory.  */
  if (c->png_every != 0 && c->checkpoint_every != 0
      && pattern_overlap (c->png_name, c->checkpoint_name))
    return parse_fail (p, "--checkpoint-name: '%s' can give the same file "
                       "names as --png-name '%s'", c->checkpoint_name,
                       c->png_name);
  if (c->edges_given && c->boundary != BOUNDARY_DIRICHLET)
    return parse_fail (p, "--edges: fixed edge values need --boundary dirichlet");
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
    .boundary = BOUNDARY_DIRICHLET,
    .disk_inside = DEFAULT_DISK_INSIDE,
    .disk_outside = DEFAULT_DISK_OUTSIDE,
    .tol = DEFAULT_TOL,
    .solver = SOLVER_MULTIGRID,
    .scheme = SCHEME_EXPLICIT,
    .rtol = DEFAULT_RTOL,
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
  for (const struct option *o = long_options; o->name != NULL; ++o)
    if (strncmp (o->name, name, len) == 0)
      {
        const size_t used = strlen (candidates);
        snprintf (candidates + used, sizeof candidates - used, "%s--%s",
                  matches++ ? ", " : "", o->name);
      }
  if (matches > 1)
    return parse_fail (p, "option '--%.*s' is ambiguous (%s)", (int) len,
                       name, candidates);
  return parse_fail (p, "unrecognized option '%s'", text);
}

enum options_action
options_parse (int argc, char **argv, struct config *cfg, char *err,
               size_t errlen)
{
  struct parser p = { err, errlen };
  struct given_options given = { 0 };
  bool ok = true;
  enum options_action action = OPTIONS_RUN;

  config_defaults (cfg);
  err[0] = '\0';
  optind = 0;          /* glibc: full reset, so tests may parse repeatedly */
  opterr = 0;          /* our messages, not getopt's */

  int c;
  int last_optind = 1;
  while (ok && (c = getopt_long (argc, argv, short_options, long_options,
                                 NULL)) != -1)
    {
      switch (c)
        {
        case 'p':
          cfg->problem = problem_find (optarg);
          if (cfg->problem == NULL)
            ok = parse_fail (&p, "--problem: unknown problem '%s' (choose mms, "
                             "plate, disk or file)", optarg);
          given.problem = true;
          break;
        case 'b':
          if (!boundary_find (optarg, &cfg->boundary))
            ok = parse_fail (&p, "--boundary: unknown kind '%s' (choose dirichlet, "
                             "neumann or periodic)", optarg);
          given.boundary = true;
          break;
        case OPT_EDGES:
          ok = parse_reals (&p, "--edges", optarg, EDGE_COUNT, EDGE_COUNT,
                            cfg->edges) == EDGE_COUNT;
          cfg->edges_given = true;
          break;
        case OPT_DISK:
          ok = parse_disk (&p, optarg, cfg);
          given.disk = true;
          break;
        case 's':
          cfg->steady = true;
          break;
        case OPT_SOLVER:
          if (!steady_solver_find (optarg, &cfg->solver))
            ok = parse_fail (&p, "--solver: unknown solver '%s' (choose "
                             "multigrid or jacobi)", optarg);
          given.solver = true;
          break;
        case OPT_SCHEME:
          if (!time_scheme_find (optarg, &cfg->scheme))
            ok = parse_fail (&p, "--scheme: unknown scheme '%s' (choose "
                             "explicit, backward-euler or crank-nicolson)",
                             optarg);
          given.scheme = true;
          break;
        case OPT_RTOL:
          ok = parse_positive (&p, "--rtol", optarg, NULL, &cfg->rtol);
          if (ok && !(cfg->rtol < 1.0))
            ok = parse_fail (&p, "--rtol: '%s' must be below 1 (the factor "
                             "by which the residual norm must fall)", optarg);
          given.rtol = true;
          break;
        case OPT_TOL:
          ok = parse_positive (&p, "--tol", optarg, NULL, &cfg->tol);
          given.tol = true;
          break;
        case OPT_MAX_STEPS:
          ok = parse_count (&p, "--max-steps", optarg, NULL, &cfg->max_steps);
          given.max_steps = true;
          break;
        case OPT_RESIDUAL_EVERY:
          ok = parse_count (&p, "--residual-every", optarg, NULL,
                            &cfg->residual_every);
          given.residual_every = true;
          break;
        case 'g':
          ok = parse_count_pair (&p, "--grid", optarg, &cfg->nx, &cfg->ny);
          given.grid = true;
          break;
        case 'L':
          ok = parse_length_pair (&p, "--length", optarg, &cfg->lx, &cfg->ly);
          given.length = true;
          break;
        case 'a':
          ok = parse_positive (&p, "--alpha", optarg, NULL, &cfg->alpha);
          given.alpha = true;
          break;
        case 'n':
          /* "auto": derive_settings picks the count from --end-time.  */
          given.steps_auto = strcmp (optarg, "auto") == 0;
          ok = given.steps_auto
               || parse_count (&p, "--steps", optarg, NULL, &cfg->steps);
          given.steps = true;
          break;
        case OPT_DT:
          ok = parse_positive (&p, "--dt", optarg, NULL, &cfg->dt);
          given.dt = true;
          break;
        case 'T':
          ok = parse_positive (&p, "--end-time", optarg, NULL, &cfg->end_time);
          given.end_time = true;
          break;
        case 'o':
          cfg->strategy_auto = strcmp (optarg, "auto") == 0;
          cfg->strategy = cfg->strategy_auto ? NULL : strategy_find (optarg);
          if (cfg->strategy == NULL && !cfg->strategy_auto)
            ok = parse_fail (&p, "--offload: unknown strategy '%s' (choose "
                             "auto, resident, map or host)", optarg);
          break;
        case 'd':
          ok = parse_device (&p, optarg, &cfg->device);
          break;
        case OPT_KERNEL:
          if (!kernel_form_find (optarg, &cfg->kernel))
            ok = parse_fail (&p, "--kernel: unknown form '%s' (choose "
                             "collapse, split or bare)", optarg);
          given.kernel = true;
          break;
        case OPT_REQUIRE_DEVICE:
          cfg->require_device = true;
          break;
        case 'f':
          cfg->force = true;
          given.force = true;
          break;
        case OPT_LIST_DEVICES:
          action = OPTIONS_LIST_DEVICES;
          break;
        case OPT_NAN_CHECK_EVERY:
          ok = parse_count (&p, "--nan-check-every", optarg, NULL,
                            &cfg->nan_check_every);
          break;
        case OPT_OUTPUT_DIR:
          cfg->output_dir = optarg;
          if (optarg[0] == '\0')
            ok = parse_fail (&p, "--output-dir: empty directory name");
          break;
        case OPT_PNG_EVERY:
          ok = parse_count (&p, "--png-every", optarg, NULL, &cfg->png_every);
          break;
        case OPT_PNG_NAME:
          cfg->png_name = optarg;
          ok = parse_pattern (&p, "--png-name", optarg, true);
          given.png_name = true;
          break;
        case OPT_COLORMAP:
          cfg->colormap = colormap_find (optarg);
          if (cfg->colormap == NULL)
            ok = parse_fail (&p, "--colormap: unknown colour map '%s' (choose "
                             "viridis, inferno, cividis or gray)", optarg);
          break;
        case OPT_RANGE:
          ok = parse_range (&p, "--range", optarg, cfg->range);
          cfg->range_given = given.range = true;
          break;
        case OPT_PNG_DEPTH:
          if (strcmp (optarg, "8") == 0 || strcmp (optarg, "16") == 0)
            cfg->png_depth = atoi (optarg);
          else
            ok = parse_fail (&p, "--png-depth: '%s' is not 8 or 16", optarg);
          break;
        case OPT_PNG_SCALE:
          {
            unsigned long long k;
            ok = parse_whole (&p, "--png-scale", optarg, NULL, 1,
                              PNG_SCALE_MAX, &k);
            cfg->png_scale = (unsigned) k;
          }
          break;
        case OPT_PNG_LEGEND:
          cfg->png_legend = true;
          break;
        case OPT_CHECKPOINT_EVERY:
          ok = parse_count (&p, "--checkpoint-every", optarg, NULL,
                            &cfg->checkpoint_every);
          break;
        case OPT_CHECKPOINT_NAME:
          cfg->checkpoint_name = optarg;
          ok = parse_pattern (&p, "--checkpoint-name", optarg, false);
          given.checkpoint_name = true;
          break;
        case OPT_COMPRESS:
          {
            unsigned long long level;
            ok = parse_whole (&p, "--compress", optarg, NULL, 0, 9, &level);
            cfg->compress = (int) level;
            given.compress = true;
          }
          break;
        case OPT_RESTART:
          cfg->restart = optarg;
          break;
        case OPT_INIT:
          cfg->init = optarg;
          cfg->problem = problem_find ("file");
          break;
        case OPT_INIT_DATASET:
          cfg->init_dataset = optarg;
          break;
        case OPT_INIT_RANGE:
          ok = parse_range (&p, "--init-range", optarg, cfg->init_range);
          given.init_range = true;
          break;
        case 'q':
          cfg->quiet = true;
          break;
        case OPT_PROGRESS_EVERY:
          ok = parse_real (&p, "--progress-every", optarg, NULL,
                           &cfg->progress_every)
               && (cfg->progress_every >= 0.0
                   || parse_fail (&p, "--progress-every: '%s' is negative",
                                  optarg));
          break;
        case OPT_MONITOR:
          cfg->monitor = optarg;
          if (optarg[0] == '\0')
            ok = parse_fail (&p, "--monitor: empty file name");
          break;
        case OPT_MONITOR_EVERY:
          ok = parse_count (&p, "--monitor-every", optarg, NULL,
                            &cfg->monitor_every);
          given.monitor_every = true;
          break;
        case OPT_JSON:
          cfg->json = true;
          break;
        case OPT_BENCH:
          cfg->bench = true;
          break;
        case 'h':
          return OPTIONS_HELP;
        case 'V':
          return OPTIONS_VERSION;
        case ':':
          ok = parse_fail (&p, "%s: missing argument", argv[last_optind]);
          break;
        default:
          ok = bad_option (&p, argv[last_optind], optopt);
          break;
        }
      last_optind = optind;
    }
  if (ok && optind < argc)
    ok = parse_fail (&p, "unexpected argument '%s'", argv[optind]);
  cfg->given = given;
  if (ok && action == OPTIONS_RUN)
    ok = check_combinations (&p, cfg, given);
  if (ok && cfg->steady && cfg->solver == SOLVER_MULTIGRID && !given.max_steps
      && cfg->restart == NULL)
    cfg->max_steps = DEFAULT_MAX_CYCLES;
  /* With a file, the grid is known only once it is read.  */
  if (ok && action == OPTIONS_RUN && cfg->init == NULL && cfg->restart == NULL)
    ok = derive_settings (cfg, err, errlen);
  return ok ? action : OPTIONS_ERROR;
}

bool
options_json_requested (int argc, char **argv)
{
  bool json = false;
  optind = 0;
  opterr = 0;
  for (int c; (c = getopt_long (argc, argv, short_options, long_options,
                                NULL)) != -1;)
    json = json || c == OPT_JSON;
  return json;
}
