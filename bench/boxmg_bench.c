/* boxmg_bench [-m MAP] [-c CONTRAST] [-a DX/DY] [-n NODES] [-1] [-v] [-e]
   [N ...]: the
   black box multigrid (boxmg.h) on material maps of N x N nodes
   (default 256 1024), as a Markdown table: for layered (8 layers across
   x), checkerboard (32 x 32 blocks) and random-disk
   (150 disks) maps of k = 1 and k = contrast (1, 1e2, 1e4, 1e6), zero
   Dirichlet edges and a uniform source (the maps of issue 23's hypre
   figures), the levels, PCG iterations to rtol 1e-10 (or the round-off
   floor, which floating high-conductivity islands lift above it), the
   true relative residual reached, the set-up and solve times and the
   solve's time per unknown; and, in the same run, the constant-
   coefficient multigrid (multigrid.h, on the host paths heatsim takes,
   HEATSIM_HOST_ISA) on the plate of the same size to rtol 1e-10, its
   time per unknown and the ratio, by wall clock and by processor time
   (the machine may be shared).  Times are the best of
   three solves; the operator is heat_operator_build's.  -m (layered,
   checkerboard, disks or random) and -c run one map or one contrast only
   (a large grid takes minutes per row), -a stretches the cells to
   dx/dy = DX/DY (both solvers; default 1), -n coarsens to at most NODES
   nodes (boxmg_create's coarsest; default its own), -1 times one solve
   instead of three, -v prints each solve's residual history (relative
   to the initial residual) on stderr, -e after it the error of each
   iteration in the energy norm, sqrt(e^T A e) of e = u - the solve's
   result, relative to that of u = 0 (the solve again, one iteration at
   a time: boxmg_solve goes on where the last stopped).  The residual's
   l2 norm is dominated by the islands' interiors, whose couplings are
   the contrast times the others': the energy norm says whether the
   solution itself is still wrong.  */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boxmg.h"
#include "field.h"
#include "host_isa.h"
#include "material.h"
#include "multigrid.h"
#include "offload_images.h"
#include "operator.h"

enum kind { LAYERED, CHECKERBOARD, DISKS, RANDOM, KINDS };
static const char *const kind_names[] = { "layered", "checkerboard 32x32",
                                          "150 disks", "random nodes 40 %" };
static const char *const kind_flags[] = { "layered", "checkerboard",
                                          "disks", "random" };

/* A deterministic generator (xorshift64*), uniform in [0, 1).  */
static double
uniform (unsigned long long *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return (double) ((*state * 2685821657736338717ULL) >> 11) * 0x1p-53;
}

/* k of the map at node (i, j) of n x n: contrast inside, 1 outside.
   RANDOM: each node inside with probability 0.4 (below site
   percolation, 0.593: islands of every size, none spanning).  */
static void
fill_map (struct field *k, enum kind kind, double contrast)
{
  const size_t n = k->nx;
  unsigned long long state = 2026;
  enum { DISK_COUNT = 150 };
  double disk[DISK_COUNT][3];
  for (int d = 0; d < DISK_COUNT; ++d)
    {
      disk[d][0] = uniform (&state);
      disk[d][1] = uniform (&state);
      disk[d][2] = 0.01 + 0.03 * uniform (&state);
    }
  const size_t layer = n / 8 > 0 ? n / 8 : 1, block = n / 32 > 0 ? n / 32 : 1;
  if (kind == RANDOM)
    for (size_t j = 1; j <= n; ++j)
      for (size_t i = 1; i <= n; ++i)
        k->data[field_index (k, i, j)] = uniform (&state) < 0.4 ? contrast
                                         : 1.0;
  for (size_t j = 0; j <= n + 1; ++j)
    for (size_t i = 0; i <= n + 1; ++i)
      {
        /* The halo holds the edge node's value (material.h).  */
        const size_t ii = i == 0 ? 1 : i > n ? n : i;
        const size_t jj = j == 0 ? 1 : j > n ? n : j;
        bool inside = false;
        switch (kind)
          {
          case LAYERED:
            inside = (ii - 1) / layer % 2 == 1;
            break;
          case CHECKERBOARD:
            inside = ((ii - 1) / block + (jj - 1) / block) % 2 == 1;
            break;
          case RANDOM:
            inside = k->data[field_index (k, ii, jj)] > 1.0;
            break;
          default:
            for (int d = 0; d < DISK_COUNT && !inside; ++d)
              inside = hypot ((double) ii / (double) (n + 1) - disk[d][0],
                              (double) jj / (double) (n + 1) - disk[d][1])
                       < disk[d][2];
            break;
          }
        k->data[field_index (k, i, j)] = inside ? contrast : 1.0;
      }
}

/* A row's first two cells: the grid and the map, stretched cells
   noted.  */
static void
print_map (size_t n, const char *map, double aspect)
{
  printf ("| %zu^2 | %s", n, map);
  if (aspect != 1.0)
    printf (" (dx/dy %g)", aspect);
}

/* Processor time of this process: on a shared machine, what the work
   cost without the time other processes held the cores.  */
static double
cpu_seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* Seconds per unknown of a solve, by wall clock and processor time.  */
struct cost {
  double wall, cpu;
};

static double
best_of (const double *t, int n)
{
  double best = INFINITY;
  for (int i = 0; i < n; ++i)
    best = fmin (best, t[i]);
  return best;
}

/* The constant-coefficient solver on the plate of n x n: seconds per
   unknown of its best solve, or NaN.  */
static struct cost
constant_solver (size_t n, double aspect)
{
  const double h = 1.0 / (double) (n + 1);
  const struct mg_operator op = { .c0 = 0.0, .c1 = 1.0, .dx = h,
                                  .dy = h / aspect };
  const struct mg_boundary bc = {
    { BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET,
      BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET } };
  struct mg_solver *mg;
  struct field u;
  const struct cost failed = { NAN, NAN };
  if (!field_alloc (&u, n, n))
    return failed;
  if (mg_create (&mg, n, n, &op, &bc) != MG_OK)
    {
      field_free (&u);
      return failed;
    }
  struct mg_options o = mg_default_options ();
  o.rtol = 1e-10;
  double t[3], c[3];
  struct mg_report rep;
  enum mg_status status = MG_OK;
  for (int r = 0; r < 3; ++r)
    {
      for (size_t j = 0; j <= n + 1; ++j)
        for (size_t i = 0; i <= n + 1; ++i)
          {
            const bool halo = i == 0 || j == 0 || i == n + 1 || j == n + 1;
            u.data[field_index (&u, i, j)]
              = halo ? 100.0 * (double) i * h * (1.0 - (double) j * h) : 0.0;
          }
      const double t0 = omp_get_wtime (), c0 = cpu_seconds ();
      status |= mg_solve (mg, &u, NULL, &o, &rep);
      t[r] = omp_get_wtime () - t0;
      c[r] = cpu_seconds () - c0;
    }
  mg_destroy (mg);
  field_free (&u);
  const double unknowns = (double) n * (double) n;
  const struct cost cost = { best_of (t, 3) / unknowns,
                             best_of (c, 3) / unknowns };
  print_map (n, "plate (constant k)", aspect);
  printf (" | 1 | %u | %u (V-cycles) | %.1e | - | %.4f | %.1f | 1.0 | %.1f "
          "| 1.0 |\n", rep.levels, rep.cycles, rep.final / rep.initial,
          best_of (t, 3), cost.wall * 1e9, cost.cpu * 1e9);
  return status == MG_OK ? cost : failed;
}

/* One row: false if something failed.  */
struct choice {
  int repeats;        /* solves timed, 1 to 3 */
  double aspect;      /* dx/dy */
  size_t coarsest;    /* boxmg_create's, 0 for its default */
  bool history;
  bool energy;        /* -e */
};

/* sqrt(e^T A e) of e = u - ref (the interior; e's halo 0) under op's
   steady operator (c0 = 0, no sink): A e = -div (k grad e).  e is
   scratch of u's shape.  */
static double
energy_error (const struct heat_operator *op, const struct field *u,
              const struct field *ref, struct field *e)
{
  const size_t n = u->nx;
  for (size_t c = 0; c < field_cells (e); ++c)
    e->data[c] = 0.0;
  for (size_t j = 1; j <= n; ++j)
    for (size_t i = 1; i <= n; ++i)
      e->data[field_index (e, i, j)] = u->data[field_index (u, i, j)]
                                       - ref->data[field_index (ref, i, j)];
  double sum = 0.0;
  const ptrdiff_t st = (ptrdiff_t) e->stride;
  for (size_t j = 1; j <= n; ++j)
    for (size_t i = 1; i <= n; ++i)
      {
        const size_t k = field_index (e, i, j);
        sum -= e->data[k] * heat_flow_at (&e->data[k], &op->wx[k],
                                          &op->wy[k], st);
      }
  return sqrt (sum);
}

/* -e: the solve of u = 0 again, one iteration at a time, each
   iteration's energy-norm error against ref (the solve's result)
   relative to that of u = 0, on stderr.  False if memory is short.  */
static bool
energy_history (struct boxmg_solver *bm, const struct heat_operator *op,
                const struct field *ref, const struct field *f,
                const char *label)
{
  struct field u, e;
  if (!field_alloc (&u, ref->nx, ref->ny))
    return false;
  if (!field_alloc (&e, ref->nx, ref->ny))
    {
      field_free (&u);
      return false;
    }
  const double initial = energy_error (op, &u, ref, &e);
  struct mg_options one = mg_default_options ();
  one.rtol = 1e-10;
  one.max_cycles = 1;
  struct mg_report rep;
  unsigned it = 0;
  double first = NAN;
  enum mg_status status;
  do
    {
      status = boxmg_solve (bm, &u, f, &one, &rep);
      if (rep.cycles == 0)
        break;
      /* Each call's initial is where the last one stopped.  */
      if (it == 0)
        first = rep.initial;
      fprintf (stderr, "%s: iteration %u residual %.3e energy error "
               "%.3e\n", label, ++it, rep.final / first,
               energy_error (op, &u, ref, &e) / initial);
    }
  while (status == MG_NOT_CONVERGED && it < MG_MAX_CYCLES);
  field_free (&u);
  field_free (&e);
  return true;
}

static bool
bench (size_t n, enum kind kind, double contrast, struct cost constant,
       const struct choice *choice)
{
  const int repeats = choice->repeats;
  const size_t coarsest = choice->coarsest;
  const bool history = choice->history;
  const double h = 1.0 / (double) (n + 1);
  struct material m = {
    .variable = true, .capacity_uniform = 1.0, .conductivity_uniform = 1.0,
  };
  struct field u, f;
  if (!field_alloc (&m.conductivity, n, n) || !field_alloc (&u, n, n)
      || !field_alloc (&f, n, n))
    return false;
  fill_map (&m.conductivity, kind, contrast);
  static const bool dirichlet[EDGE_COUNT] = { false, false, false, false };
  struct heat_operator op;
  if (!heat_operator_build (&op, &m, h, h / choice->aspect, dirichlet))
    return false;
  for (size_t j = 1; j <= n; ++j)
    for (size_t i = 1; i <= n; ++i)
      f.data[field_index (&f, i, j)] = 1.0;
  struct boxmg_solver *bm;
  double t0 = omp_get_wtime ();
  if (boxmg_create (&bm, &op, NULL, 0.0, 1.0, coarsest) != MG_OK)
    return false;
  const double setup = omp_get_wtime () - t0;
  struct mg_options o = mg_default_options ();
  o.rtol = 1e-10;
  double t[3], cpu[3];
  struct mg_report rep;
  enum mg_status status = MG_OK;
  for (int r = 0; r < repeats; ++r)
    {
      for (size_t c = 0; c < field_cells (&u); ++c)
        u.data[c] = 0.0;
      t0 = omp_get_wtime ();
      const double c0 = cpu_seconds ();
      status |= boxmg_solve (bm, &u, &f, &o, &rep);
      t[r] = omp_get_wtime () - t0;
      cpu[r] = cpu_seconds () - c0;
    }
  for (unsigned c = 0; history && c <= rep.cycles; ++c)
    fprintf (stderr, "%s %g %zu^2: %u %.3e\n", kind_flags[kind], contrast,
             n, c, rep.history[c] / rep.initial);
  char label[64];
  snprintf (label, sizeof label, "%s %g %zu^2", kind_flags[kind], contrast,
            n);
  if (choice->energy && !energy_history (bm, &op, &u, &f, label))
    return false;
  const double unknowns = (double) n * (double) n;
  const struct cost cost = { best_of (t, repeats) / unknowns,
                             best_of (cpu, repeats) / unknowns };
  print_map (n, kind_names[kind], choice->aspect);
  printf (" | %.0e | %u | %u | %.1e | %.3f | %.4f | %.1f | %.1f | %.1f "
          "| %.1f |\n", contrast, rep.levels, rep.cycles,
          rep.final / rep.initial, setup,
          best_of (t, repeats), cost.wall * 1e9, cost.wall / constant.wall,
          cost.cpu * 1e9, cost.cpu / constant.cpu);
  fflush (stdout);
  boxmg_destroy (bm);
  heat_operator_free (&op);
  field_free (&m.conductivity);
  field_free (&u);
  field_free (&f);
  return status == MG_OK;
}

int
main (int argc, char **argv)
{
  /* The host plugin's device images, left in /tmp otherwise.  */
  atexit (offload_images_remove);
  /* The host paths as heatsim takes them (HEATSIM_HOST_ISA): the
     constant-coefficient solver's smoothers in AVX2 where the
     processor has it.  */
  char err[256];
  if (!host_isa_init (getenv (HOST_ISA_ENV), err, sizeof err))
    {
      fprintf (stderr, "boxmg_bench: %s\n", err);
      return EXIT_FAILURE;
    }
  static const size_t default_sizes[] = { 256, 1024 };
  static const double contrasts[] = { 1.0, 1e2, 1e4, 1e6 };
  int only_kind = -1;
  double only_contrast = 0.0;
  struct choice choice = { .repeats = 3, .aspect = 1.0 };
  int a = 1;
  for (; a < argc && argv[a][0] == '-'; ++a)
    if (strcmp (argv[a], "-v") == 0)
      choice.history = true;
    else if (strcmp (argv[a], "-e") == 0)
      choice.energy = true;
    else if (strcmp (argv[a], "-1") == 0)
      choice.repeats = 1;
    else if (strcmp (argv[a], "-n") == 0 && a + 1 < argc)
      choice.coarsest = strtoul (argv[++a], NULL, 10);
    else if (strcmp (argv[a], "-c") == 0 && a + 1 < argc)
      only_contrast = strtod (argv[++a], NULL);
    else if (strcmp (argv[a], "-a") == 0 && a + 1 < argc)
      {
        choice.aspect = strtod (argv[++a], NULL);
        if (!(choice.aspect > 0.0) || !isfinite (choice.aspect))
          {
            fprintf (stderr, "boxmg_bench: -a: '%s' is no positive "
                     "number\n", argv[a]);
            return 2;
          }
      }
    else if (strcmp (argv[a], "-m") == 0 && a + 1 < argc)
      {
        ++a;
        for (int k = 0; k < KINDS; ++k)
          if (strcmp (argv[a], kind_flags[k]) == 0)
            only_kind = k;
        if (only_kind < 0)
          {
            fprintf (stderr, "boxmg_bench: -m: no map '%s' (layered, "
                     "checkerboard, disks, random)\n", argv[a]);
            return 2;
          }
      }
    else
      {
        fprintf (stderr, "boxmg_bench: unknown option '%s'\n", argv[a]);
        return 2;
      }
  argc -= a - 1;
  argv += a - 1;
  const size_t count = argc > 1 ? (size_t) (argc - 1) : 2;
  printf ("| grid | map | contrast | levels | iterations | residual "
          "| setup (s) | solve (s) | ns/unknown | / constant k "
          "| cpu ns/unknown | / constant k (cpu) |\n");
  printf ("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
          "| --- | --- |\n");
  for (size_t s = 0; s < count; ++s)
    {
      const size_t n = argc > 1 ? strtoul (argv[s + 1], NULL, 10)
                       : default_sizes[s];
      const struct cost constant = n > 0 ? constant_solver (n, choice.aspect)
                                   : (struct cost) { NAN, NAN };
      if (isnan (constant.wall))
        {
          fprintf (stderr, "boxmg_bench: the plate of %zu^2 failed\n", n);
          return EXIT_FAILURE;
        }
      for (int kind = 0; kind < KINDS; ++kind)
        for (size_t c = 0; c < sizeof contrasts / sizeof *contrasts; ++c)
          if ((only_kind < 0 || kind == only_kind)
              && (only_contrast == 0.0 || contrasts[c] == only_contrast)
              && !bench (n, (enum kind) kind, contrasts[c], constant,
                         &choice))
            {
              fprintf (stderr, "boxmg_bench: %s, contrast %g, on %zu^2 "
                       "failed\n", kind_names[kind], contrasts[c], n);
              return EXIT_FAILURE;
            }
    }
  return EXIT_SUCCESS;
}
