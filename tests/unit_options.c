/* Unit tests of option parsing, time-step derivation and the stability
   rule: every class of bad input is refused with a message naming the
   option, and valid input gives exactly the configuration asked for.  */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "domain.h"
#include "field.h"
#include "footprint.h"
#include "multigrid.h"
#include "options.h"
#include "parse.h"
#include "problem.h"
#include "strategy.h"
#include "unit.h"

static char err[512];

/* Parse a NULL-terminated list of arguments.  */
static enum options_action
parse (struct config *cfg, ...)
{
  char *argv[32] = { (char *) "heatsim" };
  int argc = 1;
  va_list ap;
  va_start (ap, cfg);
  for (char *a; (a = va_arg (ap, char *)) != NULL && argc < 31;)
    argv[argc++] = a;
  va_end (ap);
  argv[argc] = NULL;
  return options_parse (argc, argv, cfg, err, sizeof err);
}

/* The argument list is refused, and the message names `want`.  */
#define REFUSED(want, ...)                                                 \
  do {                                                                     \
    struct config c_;                                                      \
    CHECK (parse (&c_, __VA_ARGS__, (char *) NULL) == OPTIONS_ERROR);      \
    CHECK (strstr (err, want) != NULL);                                    \
    options_free (&c_);                                                    \
  } while (0)

/* format_real: the fewest digits that read back as the value, so that
   a message quoting it shows why it was refused.  */
static void
test_format_real (void)
{
  static const struct {
    double v;
    const char *text;
  } cases[] = {
    { 1.0000001, "1.0000001" }, { 1.0, "1" }, { 0.1, "0.1" },
    { 1e6, "1e+06" }, { -1e-9, "-1e-09" }, { 0.1 + 0.2, "0.30000000000000004" },
    { 1e308, "1e+308" }, { 0.0, "0" },
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
      char buf[32];
      format_real (buf, sizeof buf, cases[k].v);
      if (strcmp (buf, cases[k].text) != 0)
        fprintf (stderr, "format_real: %s, expected %s\n", buf,
                 cases[k].text);
      CHECK (strcmp (buf, cases[k].text) == 0);
    }
}

static void
test_defaults (void)
{
  struct config c;
  CHECK (parse (&c, (char *) NULL) == OPTIONS_RUN);
  CHECK (c.nx == 1000 && c.ny == 1000);
  CHECK (c.lx == 1000.0 && c.ly == 1000.0);
  CHECK (c.alpha == 0.1);
  CHECK (c.steps == 10);
  CHECK (c.dt == 0.5 / 10);
  CHECK (c.end_time == 0.5);
  /* auto: resolved where the device is known, not by the parser.  */
  CHECK (c.strategy_auto && c.strategy == NULL);
  CHECK (c.device == -1);
  CHECK (!c.force && !c.quiet && !c.json && !c.require_device);
  CHECK (c.monitor == NULL && c.monitor_every == 100);
  CHECK (c.progress_every == 2.0);
}

static void
test_valid (void)
{
  struct config c;
  CHECK (parse (&c, "--grid", "4096x2048", "-L", "2x1.5", "--alpha=2.5e-3",
                "-n", "7", "-o", "host", "-d", "0", "-q", "--json", "-f",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (c.nx == 4096 && c.ny == 2048);
  CHECK (c.lx == 2.0 && c.ly == 1.5);
  CHECK (c.alpha == 2.5e-3);
  CHECK (c.steps == 7);
  CHECK (strcmp (c.strategy->name, "host") == 0);
  CHECK (c.device == 0 && c.quiet && c.json);

  CHECK (parse (&c, "-g", "64", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.nx == 64 && c.ny == 64);
  CHECK (parse (&c, "--offload", "map", (char *) NULL) == OPTIONS_RUN);
  CHECK (strcmp (c.strategy->name, "map") == 0 && !c.strategy_auto);
  CHECK (parse (&c, "-o", "resident", "-o", "auto", (char *) NULL)
         == OPTIONS_RUN);
  CHECK (c.strategy_auto && c.strategy == NULL);
  CHECK (parse (&c, "--kernel", "split", (char *) NULL) == OPTIONS_RUN);
  for (const struct strategy *const *s = heatsim_strategies; *s; ++s)
    CHECK (strategy_find ((*s)->name) == *s);

  CHECK (parse (&c, "--monitor", "m.csv", "--monitor-every=7",
                "--progress-every", "0", (char *) NULL) == OPTIONS_RUN);
  CHECK (strcmp (c.monitor, "m.csv") == 0 && c.monitor_every == 7);
  CHECK (c.progress_every == 0.0);
  CHECK (parse (&c, "--progress-every", "0.25", (char *) NULL)
         == OPTIONS_RUN);
  CHECK (c.progress_every == 0.25);

  CHECK (parse (&c, "--help", (char *) NULL) == OPTIONS_HELP);
  CHECK (parse (&c, "-V", (char *) NULL) == OPTIONS_VERSION);
  CHECK (parse (&c, "--list-devices", (char *) NULL) == OPTIONS_LIST_DEVICES);
}

static void
test_time (void)
{
  struct config c;
  /* --dt alone: steps default, end time follows.  */
  CHECK (parse (&c, "--dt", "0.01", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.dt == 0.01 && c.steps == 10 && fabs (c.end_time - 0.1) < 1e-15);
  /* --end-time and --steps.  */
  CHECK (parse (&c, "-T", "2", "-n", "8", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.dt == 0.25 && c.steps == 8 && c.end_time == 2.0);
  /* --end-time and --dt: the steps cover the end time exactly.  */
  CHECK (parse (&c, "-T", "1", "--dt", "0.3", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.steps == 4 && c.dt == 0.25 && c.end_time == 1.0);
  CHECK (parse (&c, "-T", "1", "--dt", "0.25", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.steps == 4 && c.dt == 0.25);
  REFUSED ("at most two", "-T", "1", "--dt", "0.1", "-n", "10");
}

/* --steps auto: the fewest steps whose dt = T / steps is stable.  */
static void
test_steps_auto (void)
{
  struct config c;
  /* dx = dy = 1, alpha = 1: dt <= 1/4.  */
  CHECK (parse (&c, "-g", "9", "-L", "10", "-a", "1", "-T", "1", "-n", "auto",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (c.steps == 4 && c.dt == 0.25 && c.end_time == 1.0);
  CHECK (parse (&c, "-g", "9", "-L", "10", "-a", "1", "-T", "1.1",
                "--steps=auto", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.steps == 5 && fabs (c.dt - 0.22) < 1e-15 && c.end_time == 1.1);
  /* Whatever the rounding: stable, and one step fewer would not be.  */
  static const char *const alphas[] = { "0.1", "0.3", "1", "7.7", "1e-3" };
  static const char *const grids[] = { "31", "64x17", "100", "333x7" };
  static const char *const ends[] = { "0.5", "1", "3.3", "1e3", "1e-7" };
  for (size_t a = 0; a < 5; ++a)
    for (size_t g = 0; g < 4; ++g)
      for (size_t t = 0; t < 5; ++t)
        {
          CHECK (parse (&c, "-L", "1", "-a", alphas[a], "-g", grids[g], "-T",
                        ends[t], "-n", "auto", (char *) NULL) == OPTIONS_RUN);
          CHECK (config_stability (&c) <= STABILITY_LIMIT);
          CHECK (c.steps * c.dt >= c.end_time * (1.0 - 1e-15));
          struct config fewer = c;
          fewer.dt = c.end_time / (double) (c.steps - 1);
          CHECK (c.steps == 1 || config_stability (&fewer) > STABILITY_LIMIT);
        }
  REFUSED ("--steps auto: needs --end-time", "-n", "auto");
  REFUSED ("--steps auto", "-n", "auto", "--dt", "0.1");
  REFUSED ("--steps", "-n", "auto", "--dt", "0.1", "-T", "1");
  REFUSED ("--steps auto", "-g", "9", "-L", "10", "-a", "1", "-T", "1e300",
           "-n", "auto");
  REFUSED ("--steps: with --steady", "--steady", "-n", "auto");
  REFUSED ("--steps: 'automatic'", "-n", "automatic");
}

static void
test_stability (void)
{
  struct config c;
  /* dx = dy = 1 (L = cells + 1), alpha = 1: r = 2 dt, stable iff dt <= 1/4. */
  CHECK (parse (&c, "-g", "9", "-L", "10", "-a", "1", "--dt", "0.25",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (config_stability (&c) == 0.5);
  REFUSED ("unstable", "-g", "9", "-L", "10", "-a", "1", "--dt", "0.2500001");
  REFUSED ("--dt", "-g", "9", "-L", "10", "-a", "1", "--dt", "0.3");
  CHECK (parse (&c, "-g", "9", "-L", "10", "-a", "1", "--dt", "0.3", "--force",
                (char *) NULL) == OPTIONS_RUN);
  /* Non-square spacing: dx = 1, dy = 1/2, r = dt (1 + 4) <= 1/2.  */
  CHECK (parse (&c, "-g", "9x19", "-L", "10", "-a", "1", "--dt", "0.1",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (fabs (config_stability (&c) - 0.5) < 1e-15);
  REFUSED ("unstable", "-g", "9x19", "-L", "10", "-a", "1", "--dt", "0.11");
  /* The 1-D limit r < 1/2 per direction is not enough in 2-D.  */
  REFUSED ("unstable", "-g", "9", "-L", "10", "-a", "1", "--dt", "0.24",
           "-L", "10x10", "-g", "9x9", "--dt", "0.4");
  /* The tutorial's 8000 x 8000, 10 step case violates the 2-D rule.  */
  REFUSED ("unstable", "-g", "8000");
  /* The message names what made dt (issue 25, defect 3), and offers the
     implicit schemes.  */
  REFUSED ("--end-time 1 with --steps 2: time step 0.5 is unstable", "-g", "9",
           "-L", "10", "-a", "1", "-T", "1", "-n", "2");
  REFUSED ("--scheme backward-euler or crank-nicolson", "-g", "9", "-L", "10",
           "-a", "1", "-T", "1", "-n", "2");
  REFUSED ("the default --end-time 0.5 and 10 steps: time step 0.05", "-g",
           "8000");
}

static void
test_bad_input (void)
{
  REFUSED ("--steps: '10x'", "--steps", "10x");
  REFUSED ("--steps: 'ten'", "--steps", "ten");
  REFUSED ("--steps: '-5'", "--steps", "-5");
  REFUSED ("--steps: '0'", "--steps", "0");
  REFUSED ("--steps: ' 5'", "--steps", " 5");
  REFUSED ("--steps: ''", "--steps=");
  REFUSED ("too large", "--steps", "99999999999999999999999");
  REFUSED ("--grid: '0'", "--grid", "0");
  REFUSED ("--grid", "--grid", "64x");
  REFUSED ("--grid", "--grid", "x64");
  REFUSED ("--grid", "--grid", "64x0");
  REFUSED ("--grid", "--grid", "-64");
  REFUSED ("--grid", "--grid", "64x64x64");
  REFUSED ("--grid", "--grid", "4294967296x4294967296");
  REFUSED ("--grid", "--grid", "18446744073709551615");
  REFUSED ("--alpha: 'abc'", "--alpha", "abc");
  REFUSED ("--alpha: '0'", "--alpha", "0");
  REFUSED ("--alpha: '-1'", "--alpha", "-1");
  REFUSED ("--alpha: 'nan'", "--alpha", "nan");
  REFUSED ("--alpha: 'inf'", "--alpha", "inf");
  REFUSED ("--alpha: '1e999'", "--alpha", "1e999");
  REFUSED ("--alpha: '0.1s'", "--alpha", "0.1s");
  REFUSED ("--dt: '-0.1'", "--dt", "-0.1");
  REFUSED ("--end-time: '0'", "--end-time", "0");
  REFUSED ("--length", "--length", "1x");
  REFUSED ("--length: '-2'", "--length", "-2");
  REFUSED ("--offload: unknown strategy 'gpu'", "--offload", "gpu");
  REFUSED ("--device: 'one'", "--device", "one");
  REFUSED ("--device: '-1'", "--device", "-1");
  REFUSED ("--device: '3000000000'", "--device", "3000000000");
  REFUSED ("unrecognized option '--frobnicate'", "--frobnicate");
  REFUSED ("unrecognized option '-z'", "-z");
  REFUSED ("--steps: missing argument", "--steps");
  REFUSED ("unexpected argument 'extra'", "extra");
  REFUSED ("--problem: unknown problem 'lava'", "--problem", "lava");
  REFUSED ("--boundary: unknown kind 'open'", "--boundary", "open");
  REFUSED ("--edges: '1,2,3' has fewer than 4", "--edges", "1,2,3");
  REFUSED ("--edges: '1,2,3,4,5' has more than 4", "--edges", "1,2,3,4,5");
  REFUSED ("--edges: 'x'", "--edges", "1,x,3,4");
  REFUSED ("--edges: ''", "--edges", "1,,3,4");
  REFUSED ("--edges: 'nan'", "--edges", "1,nan,3,4");
  REFUSED ("--edges: fixed edge values need --boundary dirichlet",
           "--edges", "1,2,3,4", "--boundary", "periodic");
  REFUSED ("--disk: radius '0'", "-p", "disk", "--disk", "0");
  REFUSED ("--disk: '1,2,3,4' has more than 3", "-p", "disk", "--disk",
           "1,2,3,4");
  REFUSED ("--disk: only with --problem disk", "--disk", "1");
  REFUSED ("--tol: '0'", "--steady", "--tol", "0");
  REFUSED ("--tol: only with --steady", "--tol", "1e-3");
  REFUSED ("--max-steps: only with --steady", "--max-steps", "10");
  REFUSED ("--residual-every: only with --steady", "--residual-every", "10");
  REFUSED ("--residual-every: '0'", "-s", "--residual-every", "0");
  REFUSED ("--steps: with --steady", "--steady", "--steps", "10");
  REFUSED ("--dt: not used with --steady", "--steady", "--dt", "0.1");
  REFUSED ("--end-time: not used with --steady", "-s", "-T", "1");
  REFUSED ("--force: not used with --steady", "-s", "-f");
  REFUSED ("--monitor-every: only with --monitor", "--monitor-every", "5");
  REFUSED ("--monitor-every: '0'", "--monitor", "m.csv", "--monitor-every",
           "0");
  REFUSED ("--monitor: empty file name", "--monitor", "");
  REFUSED ("--progress-every: '-1' is negative", "--progress-every", "-1");
  REFUSED ("--progress-every: 'nan'", "--progress-every", "nan");
}

static void
test_problems (void)
{
  struct config c;
  CHECK (parse (&c, "-p", "plate", "-b", "neumann", (char *) NULL)
         == OPTIONS_RUN);
  CHECK (strcmp (c.problem->name, "plate") == 0);
  CHECK (c.bc[EDGE_TOP].kind == BOUNDARY_NEUMANN && !c.edges_given);
  CHECK (parse (&c, "--edges", "0,-1.5,2e3,7", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.edges_given && c.edges[EDGE_LEFT] == 0.0
         && c.edges[EDGE_RIGHT] == -1.5 && c.edges[EDGE_BOTTOM] == 2e3
         && c.edges[EDGE_TOP] == 7.0);
  CHECK (parse (&c, "-p", "disk", "-L", "4x2", "-f", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.disk_radius == 0.5 && c.disk_inside == 100.0
         && c.disk_outside == 0.0);
  CHECK (parse (&c, "-p", "disk", "--disk", "0.1,-3", (char *) NULL)
         == OPTIONS_RUN);
  CHECK (c.disk_radius == 0.1 && c.disk_inside == -3.0
         && c.disk_outside == 0.0);
  for (const struct problem *const *p = heatsim_problems; *p; ++p)
    CHECK (problem_find ((*p)->name) == *p);

  /* Steady: a Jacobi sweep, the explicit step at the stability limit.  */
  CHECK (parse (&c, "-s", "--solver", "jacobi", "-g", "9x19", "-L", "10",
                "--tol", "1e-4", "--max-steps", "77", "--residual-every", "3",
                (char *) NULL)
         == OPTIONS_RUN);
  CHECK (c.steady && c.tol == 1e-4 && c.max_steps == 77 && c.steps == 77
         && c.residual_every == 3 && c.solver == SOLVER_JACOBI);
  CHECK (fabs (config_stability (&c) - 0.5) < 1e-15);
  CHECK (parse (&c, "-s", "--solver", "jacobi", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.tol == 0.01 && c.max_steps == 1000000 && c.residual_every == 10);
  /* Steady by multigrid, the default: --max-steps counts V-cycles.  */
  CHECK (parse (&c, "-s", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.solver == SOLVER_MULTIGRID && c.rtol == 1e-10
         && c.max_steps == mg_default_options ().max_cycles && config_uses_multigrid (&c));
  CHECK (parse (&c, "-s", "--rtol", "1e-6", "--max-steps", "9", (char *) NULL)
         == OPTIONS_RUN);
  CHECK (c.rtol == 1e-6 && c.max_steps == 9);
  /* Implicit schemes: no stability rule.  */
  CHECK (parse (&c, "--scheme", "crank-nicolson", "-g", "63", "-L", "1",
                "--dt", "0.1", "-n", "3", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.scheme == SCHEME_CRANK_NICOLSON && config_stability (&c) > 50.0
         && config_uses_multigrid (&c));
  CHECK (parse (&c, "--scheme", "explicit", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.scheme == SCHEME_EXPLICIT && !config_uses_multigrid (&c));
}

/* options_apply: one option by its long name, as a case file will give
   it; the same setters and messages as the command line.  */
static void
test_apply (void)
{
  struct config c;
  CHECK (parse (&c, (char *) NULL) == OPTIONS_RUN);
  CHECK (options_apply (&c, "grid", "64x32", err, sizeof err));
  CHECK (c.nx == 64 && c.ny == 32 && c.given.grid);
  CHECK (options_apply (&c, "scheme", "crank-nicolson", err, sizeof err));
  CHECK (c.scheme == SCHEME_CRANK_NICOLSON && c.given.scheme);
  CHECK (options_apply (&c, "quiet", NULL, err, sizeof err) && c.quiet);
  CHECK (!options_apply (&c, "steps", "10x", err, sizeof err));
  CHECK (strcmp (err, "--steps: '10x' is not a whole number") == 0);
  CHECK (!options_apply (&c, "colour", "gray", err, sizeof err));
  CHECK (strstr (err, "unrecognized option '--colour'") != NULL);
  /* No abbreviations: a case file names options in full.  */
  CHECK (!options_apply (&c, "gri", "8", err, sizeof err));
  CHECK (!options_apply (&c, "quiet", "yes", err, sizeof err));
  CHECK (strstr (err, "--quiet: takes no argument") != NULL);
  CHECK (!options_apply (&c, "alpha", NULL, err, sizeof err));
  CHECK (strstr (err, "--alpha: missing argument") != NULL);
  CHECK (!options_apply (&c, "help", NULL, err, sizeof err));
  CHECK (strstr (err, "--help: not a setting") != NULL);
}

/* The settings as a case file (--print-case): each option once, by its
   long name, with its last value as given, in the table's order; and
   what a case file cannot hold refused.  */
static void
test_case_text (void)
{
  struct config c;
  char *text;
  CHECK (parse (&c, "-q", "-n", "auto", "-T", "1", "-a", "2", "-g", "8x4",
                "--alpha=0.5", "-p", "disk", "--disk", "3,1,2", "--disk", "2",
                (char *) NULL) == OPTIONS_RUN);
  /* The last --disk is the whole setting: its temperatures are the
     defaults again.  */
  CHECK (c.disk_radius == 2.0 && c.disk_inside == 100.0
         && c.disk_outside == 0.0);
  CHECK (options_case_text (&c, &text, err, sizeof err));
  CHECK (text != NULL
         && strcmp (text, "# heatsim case file (heatsim --case FILE runs "
                    "it; the files it reads are named by absolute paths, "
                    "those it writes from the run's directory)\n"
                    "problem = disk\ndisk = 2\ngrid = 8x4\nalpha = 0.5\n"
                    "steps = auto\nend-time = 1\nquiet\n") == 0);
  free (text);
  options_free (&c);
  /* Through options_apply too, as a case file's lines are.  */
  CHECK (options_apply (&c, "boundary", "periodic", err, sizeof err));
  CHECK (options_case_text (&c, &text, err, sizeof err));
  CHECK (text != NULL && strstr (text, "\nboundary = periodic\n") != NULL);
  free (text);
  /* No quoting: no line break, no blank at the ends.  */
  CHECK (parse (&c, "--output-dir", "a b", (char *) NULL) == OPTIONS_RUN);
  CHECK (options_case_text (&c, &text, err, sizeof err));
  free (text);
  static const char *const unwritable[] = { " a", "a ", "a\tb\t", "a\nb",
                                            "a\r" };
  for (size_t k = 0; k < sizeof unwritable / sizeof unwritable[0]; ++k)
    {
      CHECK (parse (&c, "--output-dir", unwritable[k], (char *) NULL)
             == OPTIONS_RUN);
      CHECK (!options_case_text (&c, &text, err, sizeof err) && text == NULL);
      CHECK (strstr (err, "--output-dir: ") == err);
    }
  options_free (&c);
}

/* Edge e of c is of kind, given or not, with the constant value v (for
   convection: H v and TINF w).  */
static bool
edge_is (const struct config *c, enum edge e, enum boundary_kind kind,
         bool given, double v, double w)
{
  const struct edge_condition *b = &c->bc[e];
  if (b->kind != kind || b->given != given)
    return false;
  if (kind == BOUNDARY_ROBIN)
    return b->h.path == NULL && b->h.value == v && b->ambient.path == NULL
           && b->ambient.value == w;
  return kind == BOUNDARY_PERIODIC
         || (b->value.path == NULL && b->value.value == v);
}

/* --bc and its shorthands: precedence --bc > --edges > --boundary
   whatever the order, later --bc over earlier, values and files.  */
static void
test_conditions (void)
{
  struct config c;
  CHECK (parse (&c, (char *) NULL) == OPTIONS_RUN);
  for (int e = 0; e < EDGE_COUNT; ++e)
    CHECK (edge_is (&c, (enum edge) e, BOUNDARY_DIRICHLET, false, 0, 0));
  CHECK (c.source_schedule.path == NULL && c.source_schedule.value == 1.0);
  CHECK (!c.surface_given);
  /* --force: the default steps are unstable with this convection.  */
  options_free (&c);
  CHECK (parse (&c, "--bc", "left=temperature:-3.5", "--bc",
                "right=flux:2e3", "--bc", "bottom=insulated", "--bc",
                "top=convection:10,20", "--force", (char *) NULL)
         == OPTIONS_RUN);
  CHECK (edge_is (&c, EDGE_LEFT, BOUNDARY_DIRICHLET, true, -3.5, 0));
  CHECK (edge_is (&c, EDGE_RIGHT, BOUNDARY_NEUMANN, true, 2e3, 0));
  CHECK (edge_is (&c, EDGE_BOTTOM, BOUNDARY_NEUMANN, true, 0, 0));
  CHECK (edge_is (&c, EDGE_TOP, BOUNDARY_ROBIN, true, 10, 20));
  CHECK (!c.edges_given);
  /* A later --bc wins; all sets the four.  */
  options_free (&c);
  CHECK (parse (&c, "--bc", "all=insulated", "--bc", "top=temperature:1",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (edge_is (&c, EDGE_LEFT, BOUNDARY_NEUMANN, true, 0, 0));
  CHECK (edge_is (&c, EDGE_TOP, BOUNDARY_DIRICHLET, true, 1, 0));
  options_free (&c);
  CHECK (parse (&c, "--bc", "top=temperature:1", "--bc", "all=insulated",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (edge_is (&c, EDGE_TOP, BOUNDARY_NEUMANN, true, 0, 0));
  /* --bc overrides --edges, --edges --boundary dirichlet, in any
     order.  */
  options_free (&c);
  CHECK (parse (&c, "--bc", "bottom=insulated", "--edges", "1,2,3,4", "-b",
                "dirichlet", (char *) NULL) == OPTIONS_RUN);
  CHECK (edge_is (&c, EDGE_LEFT, BOUNDARY_DIRICHLET, true, 1, 0));
  CHECK (edge_is (&c, EDGE_TOP, BOUNDARY_DIRICHLET, true, 4, 0));
  CHECK (edge_is (&c, EDGE_BOTTOM, BOUNDARY_NEUMANN, true, 0, 0));
  CHECK (c.edges_given && c.edges[EDGE_TOP] == 4.0);
  options_free (&c);
  CHECK (parse (&c, "--edges", "1,2,3,4", "--bc", "top=temperature:9",
                (char *) NULL) == OPTIONS_RUN);
  CHECK (c.edges[EDGE_TOP] == 9.0 && c.edges[EDGE_LEFT] == 1.0);
  options_free (&c);
  CHECK (parse (&c, "--bc", "left=insulated", "-b", "periodic",
                (char *) NULL) == OPTIONS_ERROR);
  CHECK (strstr (err, "--bc: the right edge is periodic but the left edge "
                 "is insulated") != NULL);
  options_free (&c);
  CHECK (parse (&c, "--bc", "left=insulated", "--bc", "right=insulated",
                "-b", "periodic", (char *) NULL) == OPTIONS_RUN);
  CHECK (edge_is (&c, EDGE_TOP, BOUNDARY_PERIODIC, true, 0, 0));
  CHECK (edge_is (&c, EDGE_LEFT, BOUNDARY_NEUMANN, true, 0, 0));
  /* The shorthands.  */
  options_free (&c);
  CHECK (parse (&c, "-b", "neumann", (char *) NULL) == OPTIONS_RUN);
  for (int e = 0; e < EDGE_COUNT; ++e)
    CHECK (edge_is (&c, (enum edge) e, BOUNDARY_NEUMANN, true, 0, 0));
  options_free (&c);
  CHECK (parse (&c, "-b", "dirichlet", (char *) NULL) == OPTIONS_RUN);
  CHECK (edge_is (&c, EDGE_RIGHT, BOUNDARY_DIRICHLET, false, 0, 0));
  /* Files are named, not read, until the options are complete.  */
  options_free (&c);
  CHECK (parse (&c, "--bc", "left=convection:@h.csv,@t.csv", "--print-case",
                (char *) NULL) == OPTIONS_ERROR);
  CHECK (strstr (err, "--bc left: h.csv: cannot open") != NULL);
  options_free (&c);
  CHECK (parse (&c, "--thickness", "2e-3", "--surface-convection", "5,25",
                "--force", (char *) NULL) == OPTIONS_RUN);
  CHECK (c.surface_given && c.thickness == 2e-3 && c.surface_h.value == 5.0
         && c.surface_ambient.value == 25.0);
  options_free (&c);
  REFUSED ("--bc: unknown edge 'middle'", "--bc", "middle=insulated");
  REFUSED ("--bc left: unknown kind 'hot'", "--bc", "left=hot:1");
  REFUSED ("--bc left: unknown kind ''", "--bc", "left=");
  REFUSED ("--bc: 'left' is not EDGE=SPEC", "--bc", "left");
  REFUSED ("--bc left: 'temperature' needs a value", "--bc",
           "left=temperature");
  REFUSED ("--bc left: a value is missing", "--bc", "left=flux:");
  REFUSED ("--bc all: 'insulated:0': insulated takes no value", "--bc",
           "all=insulated:0");
  REFUSED ("--bc top: '1': convection needs H,TINF", "--bc",
           "top=convection:1");
  REFUSED ("--bc top: '-1,2': H -1 is negative", "--bc",
           "top=convection:-1,2");
  REFUSED ("--bc top: 'x' is not a number", "--bc", "top=convection:1,x");
  REFUSED ("--bc left: 'inf' is out of range", "--bc", "left=flux:inf");
  REFUSED ("--bc: the left edge is periodic but the right edge is "
           "temperature", "--bc", "left=periodic");
  REFUSED ("--bc: the top edge is periodic but the bottom edge is flux",
           "--bc", "all=periodic", "--bc", "bottom=flux:1");
  REFUSED ("--edges: fixed edge values need --boundary dirichlet", "-b",
           "neumann", "--edges", "1,2,3,4");
  REFUSED ("--thickness: needs --surface-convection too", "--thickness",
           "1");
  REFUSED ("--surface-convection: needs --thickness too",
           "--surface-convection", "1,2");
  REFUSED ("--thickness: '0' must be greater than zero", "--thickness", "0");
  REFUSED ("--surface-convection: '-1,2': H -1 is negative", "--thickness",
           "1", "--surface-convection", "-1,2");
  REFUSED ("--source-schedule: only with a heat source", "--source-schedule",
           "f.csv");
  REFUSED ("--source-schedule: empty file name", "--source", "1",
           "--source-schedule", "");
  REFUSED ("--bc: not allowed with --restart", "--restart", "x.h5", "--bc",
           "all=insulated");
  REFUSED ("--thickness: not allowed with --restart", "--restart", "x.h5",
           "--thickness", "1", "--surface-convection", "1,2");
}

/* least_footprint, which derive_settings takes before the maps are read
   and before alpha and dt are derived, is a lower bound of what the run
   counts once they are (run_footprint), and does not depend on dt: a
   fin's implicit steps with --dt 3e-5 --end-time 3.03e-5 take two steps
   of 1.515e-5, on the geometric multigrid, where a step of 3e-5 would
   have stalled it (conduction across the fin dominating), and a check
   that read the given dt refused such a run of 100000x1400 for the
   black box multigrid's 37.7 GiB when it needed 6.3.  */
static void
test_least_footprint (void)
{
  static const char *const cases[][24] = {
    { "-g", "1000x14", "-L", "0.5x0.0014", "--bc", "left=temperature:0",
      "--bc", "right=temperature:1", "--bc", "bottom=insulated", "--bc",
      "top=insulated", "--scheme", "backward-euler", "--dt", "3e-5",
      "--end-time", "3.03e-5", NULL },
    { "-g", "1000x14", "-L", "0.5x0.0014", "-b", "neumann", "--scheme",
      "crank-nicolson", "--dt", "3e-5", "--end-time", "3.03e-5", NULL },
    { "-g", "1000x14", "-L", "0.5x0.0014", "--bc", "left=temperature:0",
      "--bc", "right=temperature:1", "--bc", "bottom=insulated", "--bc",
      "top=insulated", "--steady", NULL },
    { "-g", "256", "--steady", "--source", "1", "--edges", "0,0,0,0",
      NULL },
    { "-g", "256", "--steady", "--source", "1", "-b", "neumann",
      "--thickness", "1", "--surface-convection", "1,0", NULL },
    { "-g", "256", "--source", "1", "--dt", "1e-3", "-n", "1", NULL },
    { "-g", "256", "--scheme", "crank-nicolson", "--source-rect",
      "0,500,0,500,1", "-b", "neumann", "-n", "2", NULL },
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
      char *argv[32] = { (char *) "heatsim" };
      int argc = 1;
      for (size_t a = 0; cases[k][a] != NULL; ++a)
        argv[argc++] = (char *) cases[k][a];
      struct config c;
      const bool parsed = options_parse (argc, argv, &c, err, sizeof err)
                          == OPTIONS_RUN;
      CHECK (parsed);
      if (!parsed)
        {
          fprintf (stderr, "case %zu: %s\n", k, err);
          continue;
        }
      const struct domain d = { .ranks = 1, .nx = c.nx, .ny = c.ny,
                                .local_nx = c.nx, .local_ny = c.ny };
      const struct footprint least = least_footprint (&c);
      const struct footprint run = run_footprint (&c, &d);
      CHECK (least.bytes <= run.bytes);
      if (least.bytes > run.bytes)
        fprintf (stderr, "case %zu: least %zu (%s) > run %zu (%s)\n", k,
                 least.bytes, least.kind, run.bytes, run.kind);
      c.dt *= 2.0;
      CHECK (least_footprint (&c).bytes == least.bytes);
      options_free (&c);
    }
}

/* A steady run of the geometric multigrid on a grid 1 node across
   counts its whole hierarchy, before its maps and after: three grids
   for the levels were a third of them there (each level's transfer
   tables are as long as its grid), and a run of 1 x 10^8 got past the
   check to the kernel's OOM killer.  */
static void
test_thin_footprint (void)
{
  char *argv[] = { (char *) "heatsim", (char *) "-g", (char *) "1x200000",
                   (char *) "--steady", (char *) "--source", (char *) "1",
                   NULL };
  struct config c;
  CHECK (options_parse (6, argv, &c, err, sizeof err) == OPTIONS_RUN);
  const struct domain d = { .ranks = 1, .nx = c.nx, .ny = c.ny,
                            .local_nx = c.nx, .local_ny = c.ny };
  const struct mg_boundary bc = {
    { BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET,
      BOUNDARY_DIRICHLET } };
  size_t grid = 0;
  CHECK (field_bytes (c.nx, c.ny, &grid));
  const size_t levels = mg_footprint (c.nx, c.ny, config_dx (&c),
                                      config_dy (&c), &bc);
  CHECK (levels > 5 * grid);
  CHECK (run_footprint (&c, &d).bytes >= 2 * grid + levels);
  CHECK (least_footprint (&c).bytes >= 2 * grid + levels);
  options_free (&c);
}

int
main (void)
{
  test_thin_footprint ();
  test_defaults ();
  test_valid ();
  test_time ();
  test_steps_auto ();
  test_stability ();
  test_bad_input ();
  test_problems ();
  test_apply ();
  test_case_text ();
  test_conditions ();
  test_format_real ();
  test_least_footprint ();
  return unit_exit ();
}
