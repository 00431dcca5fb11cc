/* mg_bench [-a] [-p PLACEMENT] [N ...]: the multigrid core on the steady
   plate of N x N nodes (default 256 1024 4096), as a Markdown table:
   cycles to rtol 1e-10, mean residual reduction per cycle, kernel
   launches per cycle (and by level, finest first), solve time and time
   per cycle, the time of one explicit 5-point step of the same grid
   measured in the same run, their ratio by wall clock and by processor
   time, the time per unknown and the error against the exact bilinear
   solution.  -a adds the smoother variants (red-black Gauss-Seidel and
   weighted Jacobi, several sweep counts) that chose the default.
   -p host (the default), map or resident: where the kernels run
   (struct mg_options).  For resident the field enters the device once,
   as heatsim's --offload resident keeps it, so a solve moves only the
   norms; the explicit step is then the resident target kernel too.  */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "field.h"
#include "host_isa.h"
#include "kernels.h"
#include "multigrid.h"
#include "offload_images.h"

#define HOT 100.0

struct variant {
  const char *name;
  enum mg_smoother smoother;
  unsigned pre, post;
  double omega;
};

static const struct variant variants[] = {
  { "RB-SOR 1.15 V(1,2)", MG_RED_BLACK, 1, 2, 1.15 },  /* the default */
  { "RB-SOR 1.15 V(1,1)", MG_RED_BLACK, 1, 1, 1.15 },
  { "RB-SOR 1.15 V(2,1)", MG_RED_BLACK, 2, 1, 1.15 },
  { "RB-SOR 1.15 V(2,2)", MG_RED_BLACK, 2, 2, 1.15 },
  { "RB-SOR 1.15 V(1,3)", MG_RED_BLACK, 1, 3, 1.15 },
  { "RB-GS V(1,1)", MG_RED_BLACK, 1, 1, 1.0 },
  { "RB-GS V(2,1)", MG_RED_BLACK, 2, 1, 1.0 },
  { "RB-GS V(2,2)", MG_RED_BLACK, 2, 2, 1.0 },
  { "Jacobi 0.8 V(2,2)", MG_JACOBI, 2, 2, 0.8 },
  { "Jacobi 0.8 V(3,3)", MG_JACOBI, 3, 3, 0.8 },
};

static const char *const placement_names[] = { "host", "map", "resident" };

/* Where the kernels run: -p.  */
static enum mg_placement placement = MG_HOST;

static void
plate_start (struct field *u)
{
  const size_t nx = u->nx, ny = u->ny;
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      {
        const bool halo = i == 0 || j == 0 || i == nx + 1 || j == ny + 1;
        const double x = (double) i / (double) (nx + 1);
        const double y = (double) j / (double) (ny + 1);
        u->data[field_index (u, i, j)] = halo ? HOT * x * (1.0 - y) : 0.0;
      }
}

static double
plate_error (const struct field *u)
{
  double err = 0.0;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      {
        const double x = (double) i / (double) (u->nx + 1);
        const double y = (double) j / (double) (u->ny + 1);
        err = fmax (err, fabs (u->data[field_index (u, i, j)]
                               - HOT * x * (1.0 - y)));
      }
  return err;
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

struct timing {
  double wall, cpu;
};

static int
compare (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Time of one explicit step on n x n (u and unew of that size): the
   fastest of 21 by wall clock and by processor time, as the machine may
   be shared.  */
static struct timing
explicit_step_time (struct field *u, struct field *unew)
{
  const double r = 0.2;       /* alpha dt / h^2: any stable value */
  struct stencil s = {
    .nx = u->nx, .ny = u->ny, .stride = u->stride, .rx = r, .ry = r,
    .rc = 1.0 - 4.0 * r,
  };
  enum { STEPS = 21 };
  double wall[STEPS], cpu[STEPS];
  const bool device = placement == MG_RESIDENT;
  const int dev = omp_get_default_device ();
  double *a = u->data, *b = unew->data;
  const size_t n = field_cells (u);
#pragma omp target enter data map(to: a[0:n], b[0:n]) device(dev) if(device)
  for (int k = -1; k < STEPS; ++k)
    {
      const double t0 = omp_get_wtime (), c0 = cpu_seconds ();
      if (device)
        heat_update_target (&s, u->data, unew->data, stencil_interior (&s),
                            false, dev);
      else
        heat_update_host (&s, u->data, unew->data, stencil_interior (&s),
                          false);
      if (k >= 0)
        {
          wall[k] = omp_get_wtime () - t0;
          cpu[k] = cpu_seconds () - c0;
        }
      field_swap (u, unew);
    }
#pragma omp target exit data map(release: a[0:n], b[0:n]) device(dev) \
  if(device)
  qsort (wall, STEPS, sizeof *wall, compare);
  qsort (cpu, STEPS, sizeof *cpu, compare);
  return (struct timing) { wall[0], cpu[0] };
}

/* One row of the table; false if something failed.  */
static bool
bench (size_t n, const struct variant *v, struct field *u, struct timing step)
{
  const double h = 1.0 / (double) (n + 1);
  const struct mg_operator op = { .c0 = 0.0, .c1 = 1.0, .dx = h, .dy = h };
  const struct mg_boundary bc = {
    { BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET,
      BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET } };
  struct mg_solver *mg;
  double t0 = omp_get_wtime ();
  if (mg_create (&mg, n, n, &op, &bc) != MG_OK)
    return false;
  const double setup = omp_get_wtime () - t0;
  struct mg_options o = mg_default_options ();
  o.placement = placement;
  o.smoother = v->smoother;
  o.pre = v->pre;
  o.post = v->post;
  o.omega = v->omega;
  struct mg_report rep;
  /* Best of three, of two on the largest grids.  */
  const int repeats = n <= 1024 ? 3 : 2;
  struct timing best = { INFINITY, INFINITY };
  enum mg_status status = MG_OK;
  const bool device = placement == MG_RESIDENT;
  const int dev = omp_get_default_device ();
  double *ud = u->data;
  const size_t cells = field_cells (u);
#pragma omp target enter data map(alloc: ud[0:cells]) device(dev) if(device)
  /* The first resident solve brings the hierarchy to the device: one
     more, untimed, so that every timed one finds it there.  */
  for (int k = device ? -1 : 0; k < repeats && status == MG_OK; ++k)
    {
      plate_start (u);
#pragma omp target update to(ud[0:cells]) device(dev) if(device)
      t0 = omp_get_wtime ();
      const double c0 = cpu_seconds ();
      status = mg_solve (mg, u, NULL, &o, &rep);
      if (k >= 0)
        {
          best.wall = fmin (best.wall, omp_get_wtime () - t0);
          best.cpu = fmin (best.cpu, cpu_seconds () - c0);
        }
    }
#pragma omp target exit data map(from: ud[0:cells]) device(dev) if(device)
  mg_destroy (mg);
  if (status != MG_OK)
    return false;
  const double unknowns = (double) n * (double) n;
  char levels[8 * MG_MAX_LEVELS] = "";
  for (unsigned l = 0, at = 0; l < rep.levels && at + 12 < sizeof levels;
       ++l)
    at += (unsigned) snprintf (levels + at, sizeof levels - at, "%s%u",
                               l > 0 ? "+" : "", rep.level_launches[l]);
  printf ("| %zu^2 | %s | %s | %u | %u | %.3f | %u (%s) | %.4f | %.4f "
          "| %.2f | %.2f | %.3e | %.1f | %.1f | %.1f | %.1e |\n", n,
          v->name, placement_names[placement], rep.levels, rep.cycles,
          pow (rep.final / rep.initial, 1.0 / rep.cycles),
          rep.cycle_launches, levels, setup, best.wall,
          best.wall / rep.cycles * 1e3, best.cpu / rep.cycles * 1e3,
          step.wall, best.wall / step.wall,
          best.cpu / step.cpu, best.wall / unknowns * 1e9, plate_error (u));
  fflush (stdout);
  return true;
}

int
main (int argc, char **argv)
{
  /* The host plugin's device images, left in /tmp otherwise.  */
  atexit (offload_images_remove);
  /* The host paths as heatsim takes them (HEATSIM_HOST_ISA).  */
  char err[256];
  if (!host_isa_init (getenv (HOST_ISA_ENV), err, sizeof err))
    {
      fprintf (stderr, "mg_bench: %s\n", err);
      return EXIT_FAILURE;
    }
  bool all = false;
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; ++first)
    if (strcmp (argv[first], "-a") == 0)
      all = true;
    else if (strcmp (argv[first], "-p") == 0 && first + 1 < argc)
      {
        const char *name = argv[++first];
        size_t p = 0;
        while (p < 3 && strcmp (name, placement_names[p]) != 0)
          ++p;
        if (p == 3)
          {
            fprintf (stderr, "mg_bench: -p takes host, map or resident\n");
            return EXIT_FAILURE;
          }
        placement = (enum mg_placement) p;
      }
    else
      {
        fprintf (stderr, "usage: mg_bench [-a] [-p host|map|resident] "
                 "[N ...]\n");
        return EXIT_FAILURE;
      }
  static const size_t default_sizes[] = { 256, 1024, 4096 };
  const size_t count = argc > first ? (size_t) (argc - first) : 3;
  printf ("| grid | smoother | placement | levels | cycles "
          "| reduction/cycle | launches/cycle (by level) | setup (s) "
          "| solve (s) | ms/cycle | cpu ms/cycle | explicit step (s) "
          "| solve/step | solve/step (cpu) | ns/unknown | max error |\n");
  printf ("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
          "| --- | --- | --- | --- | --- | --- |\n");
  for (size_t k = 0; k < count; ++k)
    {
      const size_t n = argc > first ? strtoul (argv[first + (int) k], NULL, 10)
                       : default_sizes[k];
      struct field u, unew;
      if (n == 0 || !field_alloc (&u, n, n) || !field_alloc (&unew, n, n))
        {
          fprintf (stderr, "mg_bench: cannot allocate %zu^2\n", n);
          return EXIT_FAILURE;
        }
      plate_start (&u);
      field_copy (&unew, &u);
      const struct timing step = explicit_step_time (&u, &unew);
      field_free (&unew);
      const size_t nv = all ? sizeof variants / sizeof *variants : 1;
      for (size_t v = 0; v < nv; ++v)
        if (!bench (n, &variants[v], &u, step))
          {
            fprintf (stderr, "mg_bench: %s on %zu^2 failed\n",
                     variants[v].name, n);
            return EXIT_FAILURE;
          }
      field_free (&u);
    }
  return EXIT_SUCCESS;
}
