/* hypre_bench [-L LX[xLY]] [-q Q] [-t TOL] [-m MAX_ITER] [-s SOLVERS]
               [-o OUT.h5] [-c FIELD.h5] MAP.h5
   hypre's structured-grid solvers on heatsim's steady state with a
   material map: the reference of issue 23's robustness figures.

   The problem is the one heatsim solves for --steady --material-map MAP.h5
   --source Q -b dirichlet --edges 0,0,0,0 -L LX[xLY] (DESIGN.md, "The
   general heat equation"): dataset `conductivity` of MAP.h5, (ny, nx),
   gives k at nx x ny interior nodes of the vertex grid, dx = LX / (nx + 1),
   dy = LY / (ny + 1); node P and its neighbour N exchange heat through
   the face conductance 2 k_P k_N / (k_P + k_N) over dx^2 (dy^2); the zero
   Dirichlet edges are the halo ring, whose nodes take the edge node's own
   k, so the face to the edge has conductance k_P.  With a uniform source q
   the steady state solves
     sum over the four faces of w (T_P - T_N) = q,
   a symmetric positive definite 5-point system, given to hypre's Struct
   interface with symmetric storage and solved from T = 0 to a relative
   residual (2-norm, against q) of TOL by each of SOLVERS, a comma list of
     smg-cg   CG preconditioned by one SMG V(1,1) cycle
     pfmg-cg  CG preconditioned by one PFMG V(1,1) cycle
     smg      SMG V(1,1) cycles alone
     pfmg     PFMG V(1,1) cycles alone
   PFMG takes the settings of hypre's own test driver (test/struct):
   Galerkin coarse operators, weighted Jacobi, no skipped relaxation.

   Prints one line per solver: iterations, hypre's final relative
   residual, the relative residual recomputed here from the solution (in
   double precision it cannot fall below about eps k_max / k_min (n / 2)^2
   / ||q||-ish, the floor a floating high-k island shows), setup and solve
   seconds (wall clock), and converged, stalled (MAX_ITER reached) or
   diverged (residual above 1 or not finite).  The first solver's
   solution, if it converged, is the one -o writes as dataset `field`,
   (ny, nx), like heatsim's checkpoints, and -c compares with dataset
   `field` of FIELD.h5 (a heatsim checkpoint): a last line
     # max relative difference D from FIELD.h5
   with D = max |T - T_FIELD| / max |T|.

   Defaults: -L 1000 (heatsim's), -q 1, -t 1e-10, -m 500,
   -s smg-cg,pfmg-cg.  One MPI rank (refused on more), hypre's own
   threads as built (Debian's: none).  Exit status: 0, 1 for a run-time
   failure (or a first solver that did not converge with -o or -c), 2 for
   a bad command line, map or -c file.  */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <HYPRE_struct_ls.h>

#include "h5map.h"

enum solver_kind { SMG_CG, PFMG_CG, SMG, PFMG, SOLVER_COUNT };

static const char *const solver_names[SOLVER_COUNT] = {
  [SMG_CG] = "smg-cg", [PFMG_CG] = "pfmg-cg", [SMG] = "smg", [PFMG] = "pfmg",
};

struct settings {
  double lx, ly, source, tol;
  int max_iter;
  enum solver_kind solvers[SOLVER_COUNT];
  size_t solver_count;
  const char *out, *compare, *map;
};

/* The symmetric 5-point stencil as hypre stores it: the west, south and
   centre coefficients of each node; east and north are the west and south
   of the neighbours.  */
enum { WEST, SOUTH, CENTRE, ENTRIES };
static const int offsets[ENTRIES][2] = {
  [WEST] = { -1, 0 }, [SOUTH] = { 0, -1 }, [CENTRE] = { 0, 0 },
};

struct stencil {
  size_t nx, ny;
  double *values;   /* ENTRIES per node, x fastest, then y */
};

struct outcome {
  int iterations;
  double rel_residual;   /* as hypre reports it */
  double setup_s, solve_s;
};

static int
usage_error (const char *what, const char *value)
{
  fprintf (stderr, "hypre_bench: %s '%s'\n"
           "usage: hypre_bench [-L LX[xLY]] [-q Q] [-t TOL] [-m MAX_ITER] "
           "[-s smg-cg,pfmg-cg,smg,pfmg] [-o OUT.h5] [-c FIELD.h5] MAP.h5\n",
           what, value);
  return 2;
}

static bool
parse_positive (const char *text, double *value, char **end)
{
  errno = 0;
  *value = strtod (text, end);
  return *end != text && errno == 0 && isfinite (*value) && *value > 0.0;
}

static bool
parse_solvers (char *list, struct settings *s)
{
  s->solver_count = 0;
  for (char *name = strtok (list, ","); name != NULL;
       name = strtok (NULL, ","))
    {
      enum solver_kind kind = 0;
      while (kind < SOLVER_COUNT && strcmp (name, solver_names[kind]) != 0)
        ++kind;
      if (kind == SOLVER_COUNT || s->solver_count == SOLVER_COUNT)
        return false;
      s->solvers[s->solver_count++] = kind;
    }
  return s->solver_count > 0;
}

/* 0, or the exit status after a message.  */
static int
parse_args (int argc, char **argv, struct settings *s)
{
  *s = (struct settings) { .lx = 1000.0, .ly = 1000.0, .source = 1.0,
                           .tol = 1e-10, .max_iter = 500,
                           .solvers = { SMG_CG, PFMG_CG }, .solver_count = 2 };
  int opt;
  char *end;
  while ((opt = getopt (argc, argv, "L:q:t:m:s:o:c:")) != -1)
    switch (opt)
      {
      case 'L':
        if (!parse_positive (optarg, &s->lx, &end))
          return usage_error ("-L: not a positive length:", optarg);
        s->ly = s->lx;
        if (*end == 'x' && !parse_positive (end + 1, &s->ly, &end))
          return usage_error ("-L: not a positive length:", optarg);
        if (*end != '\0')
          return usage_error ("-L: not LX or LXxLY:", optarg);
        break;
      case 'q':
        errno = 0;
        s->source = strtod (optarg, &end);
        if (end == optarg || *end != '\0' || errno != 0
            || !isfinite (s->source) || s->source == 0.0)
          return usage_error ("-q: not a nonzero finite source:", optarg);
        break;
      case 't':
        if (!parse_positive (optarg, &s->tol, &end) || *end != '\0'
            || s->tol >= 1.0)
          return usage_error ("-t: not a tolerance in (0, 1):", optarg);
        break;
      case 'm':
        {
          errno = 0;
          const long m = strtol (optarg, &end, 10);
          if (end == optarg || *end != '\0' || errno != 0 || m < 1
              || m > INT_MAX)
            return usage_error ("-m: not a positive iteration count:",
                                optarg);
          s->max_iter = (int) m;
        }
        break;
      case 's':
        if (!parse_solvers (optarg, s))
          return usage_error ("-s: not a list of smg-cg, pfmg-cg, smg, "
                              "pfmg:", optarg);
        break;
      case 'o':
        s->out = optarg;
        break;
      case 'c':
        s->compare = optarg;
        break;
      default:
        return usage_error ("bad option", argv[optind - 1]);
      }
  if (optind != argc - 1)
    return usage_error ("needs one MAP.h5, got",
                        optind < argc ? argv[argc - 1] : "none");
  s->map = argv[optind];
  return 0;
}

/* The conductivity of the map, checked: 0 or the exit status.  */
static int
read_conductivity (const char *path, double **k, size_t *nx, size_t *ny)
{
  char msg[4200];
  *k = h5map_read (path, "conductivity", nx, ny, msg, sizeof msg);
  if (*k == NULL)
    {
      fprintf (stderr, "hypre_bench: %s\n", msg);
      return 2;
    }
  /* hypre's indices are int.  */
  if (*nx > INT_MAX / 4 || *ny > INT_MAX / 4
      || *nx * *ny > (size_t) INT_MAX / ENTRIES)
    {
      fprintf (stderr, "hypre_bench: %s: %zu x %zu nodes are too many for "
               "hypre's int indices\n", path, *nx, *ny);
      return 2;
    }
  for (size_t j = 0; j < *ny; ++j)
    for (size_t i = 0; i < *nx; ++i)
      {
        const double kij = (*k)[j * *nx + i];
        if (!(isfinite (kij) && kij > 0.0))
          {
            fprintf (stderr, "hypre_bench: %s: conductivity %g at x index "
                     "%zu, y index %zu is not positive and finite\n", path,
                     kij, i, j);
            return 2;
          }
      }
  return 0;
}

static double
face (double k_p, double k_n)
{
  return 2.0 * k_p * k_n / (k_p + k_n);
}

/* The coefficients of heatsim's operator for conductivity k.  A face at
   an edge leads to the halo, whose node has the edge node's own k: its
   conductance enters the centre, and a west or south entry, which would
   reach outside hypre's grid, is 0 (the boundary value is 0).  */
static bool
stencil_build (struct stencil *st, const double *k, size_t nx, size_t ny,
               double dx, double dy)
{
  st->nx = nx;
  st->ny = ny;
  st->values = malloc (nx * ny * ENTRIES * sizeof *st->values);
  if (st->values == NULL)
    return false;
  const double gx = 1.0 / (dx * dx), gy = 1.0 / (dy * dy);
  for (size_t j = 0; j < ny; ++j)
    for (size_t i = 0; i < nx; ++i)
      {
        const size_t p = j * nx + i;
        const double kp = k[p];
        const double west = gx * face (kp, i > 0 ? k[p - 1] : kp);
        const double east = gx * face (kp, i + 1 < nx ? k[p + 1] : kp);
        const double south = gy * face (kp, j > 0 ? k[p - nx] : kp);
        const double north = gy * face (kp, j + 1 < ny ? k[p + nx] : kp);
        double *v = st->values + p * ENTRIES;
        v[WEST] = i > 0 ? -west : 0.0;
        v[SOUTH] = j > 0 ? -south : 0.0;
        v[CENTRE] = west + east + south + north;
      }
  return true;
}

/* ||q - A u||_2 / ||q||_2 for a uniform q, from the stencil alone.  */
static double
relative_residual (const struct stencil *st, const double *u, double q)
{
  const size_t nx = st->nx, ny = st->ny;
  double sum = 0.0;
  for (size_t j = 0; j < ny; ++j)
    for (size_t i = 0; i < nx; ++i)
      {
        const size_t p = j * nx + i;
        const double *v = st->values + p * ENTRIES;
        double au = v[CENTRE] * u[p];
        if (i > 0)
          au += v[WEST] * u[p - 1];
        if (j > 0)
          au += v[SOUTH] * u[p - nx];
        if (i + 1 < nx)
          au += v[ENTRIES + WEST] * u[p + 1];
        if (j + 1 < ny)
          au += v[nx * ENTRIES + SOUTH] * u[p + nx];
        sum += (q - au) * (q - au);
      }
  return sqrt (sum) / (fabs (q) * sqrt ((double) (nx * ny)));
}

struct hypre_system {
  HYPRE_StructGrid grid;
  HYPRE_StructStencil stencil;
  HYPRE_StructMatrix a;
  HYPRE_StructVector b, x;
  int lower[2], upper[2];
};

static void
system_build (struct hypre_system *h, const struct stencil *st, double q,
              double *scratch)
{
  h->lower[0] = h->lower[1] = 0;
  h->upper[0] = (int) st->nx - 1;
  h->upper[1] = (int) st->ny - 1;
  HYPRE_StructGridCreate (MPI_COMM_WORLD, 2, &h->grid);
  HYPRE_StructGridSetExtents (h->grid, h->lower, h->upper);
  HYPRE_StructGridAssemble (h->grid);

  HYPRE_StructStencilCreate (2, ENTRIES, &h->stencil);
  int entries[ENTRIES];
  for (int e = 0; e < ENTRIES; ++e)
    {
      int offset[2] = { offsets[e][0], offsets[e][1] };
      HYPRE_StructStencilSetElement (h->stencil, e, offset);
      entries[e] = e;
    }
  HYPRE_StructMatrixCreate (MPI_COMM_WORLD, h->grid, h->stencil, &h->a);
  HYPRE_StructMatrixSetSymmetric (h->a, 1);
  HYPRE_StructMatrixInitialize (h->a);
  HYPRE_StructMatrixSetBoxValues (h->a, h->lower, h->upper, ENTRIES,
                                  entries, st->values);
  HYPRE_StructMatrixAssemble (h->a);

  const size_t n = st->nx * st->ny;
  HYPRE_StructVectorCreate (MPI_COMM_WORLD, h->grid, &h->b);
  HYPRE_StructVectorInitialize (h->b);
  for (size_t p = 0; p < n; ++p)
    scratch[p] = q;
  HYPRE_StructVectorSetBoxValues (h->b, h->lower, h->upper, scratch);
  HYPRE_StructVectorAssemble (h->b);
  HYPRE_StructVectorCreate (MPI_COMM_WORLD, h->grid, &h->x);
  HYPRE_StructVectorInitialize (h->x);
  HYPRE_StructVectorAssemble (h->x);
}

static void
system_free (struct hypre_system *h)
{
  HYPRE_StructVectorDestroy (h->x);
  HYPRE_StructVectorDestroy (h->b);
  HYPRE_StructMatrixDestroy (h->a);
  HYPRE_StructStencilDestroy (h->stencil);
  HYPRE_StructGridDestroy (h->grid);
}

/* SMG or PFMG, as a preconditioner (one cycle from zero) or as the
   solver.  */
static void
multigrid_create (HYPRE_StructSolver *mg, bool pfmg, bool precond,
                  const struct settings *s)
{
  if (pfmg)
    {
      HYPRE_StructPFMGCreate (MPI_COMM_WORLD, mg);
      HYPRE_StructPFMGSetRAPType (*mg, 0);
      HYPRE_StructPFMGSetRelaxType (*mg, 1);
      HYPRE_StructPFMGSetNumPreRelax (*mg, 1);
      HYPRE_StructPFMGSetNumPostRelax (*mg, 1);
      HYPRE_StructPFMGSetSkipRelax (*mg, 0);
      HYPRE_StructPFMGSetMaxIter (*mg, precond ? 1 : s->max_iter);
      HYPRE_StructPFMGSetTol (*mg, precond ? 0.0 : s->tol);
      HYPRE_StructPFMGSetZeroGuess (*mg);
      HYPRE_StructPFMGSetLogging (*mg, precond ? 0 : 1);
    }
  else
    {
      HYPRE_StructSMGCreate (MPI_COMM_WORLD, mg);
      HYPRE_StructSMGSetMemoryUse (*mg, 0);
      HYPRE_StructSMGSetNumPreRelax (*mg, 1);
      HYPRE_StructSMGSetNumPostRelax (*mg, 1);
      HYPRE_StructSMGSetMaxIter (*mg, precond ? 1 : s->max_iter);
      HYPRE_StructSMGSetTol (*mg, precond ? 0.0 : s->tol);
      HYPRE_StructSMGSetZeroGuess (*mg);
      HYPRE_StructSMGSetLogging (*mg, precond ? 0 : 1);
    }
}

static void
multigrid_destroy (HYPRE_StructSolver mg, bool pfmg)
{
  if (pfmg)
    HYPRE_StructPFMGDestroy (mg);
  else
    HYPRE_StructSMGDestroy (mg);
}

static struct outcome
solve_cg (const struct hypre_system *h, bool pfmg, const struct settings *s)
{
  struct outcome o = { 0 };
  HYPRE_StructSolver cg, precond;
  HYPRE_StructPCGCreate (MPI_COMM_WORLD, &cg);
  HYPRE_StructPCGSetTol (cg, s->tol);
  HYPRE_StructPCGSetMaxIter (cg, s->max_iter);
  HYPRE_StructPCGSetTwoNorm (cg, 1);
  HYPRE_StructPCGSetRelChange (cg, 0);
  HYPRE_StructPCGSetLogging (cg, 1);
  multigrid_create (&precond, pfmg, true, s);
  if (pfmg)
    HYPRE_StructPCGSetPrecond (cg, HYPRE_StructPFMGSolve,
                               HYPRE_StructPFMGSetup, precond);
  else
    HYPRE_StructPCGSetPrecond (cg, HYPRE_StructSMGSolve,
                               HYPRE_StructSMGSetup, precond);
  const double t0 = MPI_Wtime ();
  HYPRE_StructPCGSetup (cg, h->a, h->b, h->x);
  const double t1 = MPI_Wtime ();
  HYPRE_StructPCGSolve (cg, h->a, h->b, h->x);
  const double t2 = MPI_Wtime ();
  HYPRE_StructPCGGetNumIterations (cg, &o.iterations);
  HYPRE_StructPCGGetFinalRelativeResidualNorm (cg, &o.rel_residual);
  HYPRE_StructPCGDestroy (cg);
  multigrid_destroy (precond, pfmg);
  o.setup_s = t1 - t0;
  o.solve_s = t2 - t1;
  return o;
}

static struct outcome
solve_multigrid (const struct hypre_system *h, bool pfmg,
                 const struct settings *s)
{
  struct outcome o = { 0 };
  HYPRE_StructSolver mg;
  multigrid_create (&mg, pfmg, false, s);
  double t0, t1, t2;
  if (pfmg)
    {
      t0 = MPI_Wtime ();
      HYPRE_StructPFMGSetup (mg, h->a, h->b, h->x);
      t1 = MPI_Wtime ();
      HYPRE_StructPFMGSolve (mg, h->a, h->b, h->x);
      t2 = MPI_Wtime ();
      HYPRE_StructPFMGGetNumIterations (mg, &o.iterations);
      HYPRE_StructPFMGGetFinalRelativeResidualNorm (mg, &o.rel_residual);
    }
  else
    {
      t0 = MPI_Wtime ();
      HYPRE_StructSMGSetup (mg, h->a, h->b, h->x);
      t1 = MPI_Wtime ();
      HYPRE_StructSMGSolve (mg, h->a, h->b, h->x);
      t2 = MPI_Wtime ();
      HYPRE_StructSMGGetNumIterations (mg, &o.iterations);
      HYPRE_StructSMGGetFinalRelativeResidualNorm (mg, &o.rel_residual);
    }
  multigrid_destroy (mg, pfmg);
  o.setup_s = t1 - t0;
  o.solve_s = t2 - t1;
  return o;
}

static const char *
verdict (double rel_residual, double tol)
{
  if (!isfinite (rel_residual) || rel_residual > 1.0)
    return "diverged";
  return rel_residual <= tol ? "converged" : "stalled";
}

/* max |u - v| / max |u| over n nodes.  */
static double
max_relative_difference (const double *u, const double *v, size_t n)
{
  double diff = 0.0, size = 0.0;
  for (size_t p = 0; p < n; ++p)
    {
      diff = fmax (diff, fabs (u[p] - v[p]));
      size = fmax (size, fabs (u[p]));
    }
  return diff / size;
}

/* The solution u of solver kind, whose verdict is result: into s->out,
   and compared with the field of s->compare, reference.  0 or 1.  */
static int
first_solution (const struct settings *s, const struct stencil *st,
                const double *u, enum solver_kind kind, const char *result,
                const double *reference)
{
  if (strcmp (result, "converged") != 0)
    {
      fprintf (stderr, "hypre_bench: %s %s; its solution is neither "
               "written nor compared\n", solver_names[kind], result);
      return 1;
    }
  if (reference != NULL)
    printf ("# max relative difference %.4e from %s\n",
            max_relative_difference (u, reference, st->nx * st->ny),
            s->compare);
  if (s->out == NULL)
    return 0;
  char description[4200], msg[4200];
  snprintf (description, sizeof description,
            "bench/hypre_bench -s %s -L %.17gx%.17g -q %.17g -t %.17g %s",
            solver_names[kind], s->lx, s->ly, s->source, s->tol, s->map);
  if (!h5map_write (s->out, "field", u, st->nx, st->ny, description, msg,
                    sizeof msg))
    {
      fprintf (stderr, "hypre_bench: %s\n", msg);
      return 1;
    }
  return 0;
}

/* Each solver from T = 0; the first one's solution to first_solution.
   0 or 1.  */
static int
run_solvers (const struct settings *s, const struct stencil *st,
             const double *reference)
{
  const size_t n = st->nx * st->ny;
  double *u = malloc (n * sizeof *u);
  if (u == NULL)
    {
      fprintf (stderr, "hypre_bench: no memory for %zu nodes\n", n);
      return 1;
    }
  struct hypre_system h;
  system_build (&h, st, s->source, u);
  printf ("%-8s %10s %12s %12s %9s %9s %s\n", "solver", "iterations",
          "rel_residual", "recomputed", "setup_s", "solve_s", "status");
  int status = 0;
  for (size_t v = 0; v < s->solver_count; ++v)
    {
      const enum solver_kind kind = s->solvers[v];
      const bool pfmg = kind == PFMG_CG || kind == PFMG;
      HYPRE_StructVectorSetConstantValues (h.x, 0.0);
      const struct outcome o = kind == SMG_CG || kind == PFMG_CG
                               ? solve_cg (&h, pfmg, s)
                               : solve_multigrid (&h, pfmg, s);
      /* A solve that stops short of TOL sets hypre's error flag; the
         verdict below reports it.  */
      HYPRE_ClearAllErrors ();
      HYPRE_StructVectorGetBoxValues (h.x, h.lower, h.upper, u);
      const char *const result = verdict (o.rel_residual, s->tol);
      printf ("%-8s %10d %12.4e %12.4e %9.4f %9.4f %s\n",
              solver_names[kind], o.iterations, o.rel_residual,
              relative_residual (st, u, s->source), o.setup_s, o.solve_s,
              result);
      if (v == 0 && (s->out != NULL || reference != NULL))
        status = first_solution (s, st, u, kind, result, reference);
      fflush (stdout);
    }
  system_free (&h);
  free (u);
  return status;
}

/* Dataset `field` of s->compare, of nx x ny nodes: 0 or the exit
   status.  */
static int
read_reference (const struct settings *s, size_t nx, size_t ny,
                double **field)
{
  char msg[4200];
  size_t fx, fy;
  *field = h5map_read (s->compare, "field", &fx, &fy, msg, sizeof msg);
  if (*field == NULL)
    {
      fprintf (stderr, "hypre_bench: -c: %s\n", msg);
      return 2;
    }
  if (fx != nx || fy != ny)
    {
      fprintf (stderr, "hypre_bench: -c: %s: field of %zu x %zu nodes, "
               "the map %s has %zu x %zu\n", s->compare, fx, fy, s->map, nx,
               ny);
      return 2;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  struct settings s;
  int status = parse_args (argc, argv, &s);
  if (status != 0)
    return status;
  double *k, *reference = NULL;
  size_t nx, ny;
  status = read_conductivity (s.map, &k, &nx, &ny);
  if (status == 0 && s.compare != NULL)
    status = read_reference (&s, nx, ny, &reference);
  struct stencil st = { 0 };
  if (status == 0
      && !stencil_build (&st, k, nx, ny, s.lx / (double) (nx + 1),
                         s.ly / (double) (ny + 1)))
    {
      fprintf (stderr, "hypre_bench: no memory for %zu x %zu nodes\n", nx,
               ny);
      status = 1;
    }
  double k_min = INFINITY, k_max = 0.0;
  for (size_t p = 0; status == 0 && p < nx * ny; ++p)
    {
      k_min = fmin (k_min, k[p]);
      k_max = fmax (k_max, k[p]);
    }
  free (k);
  if (status == 0)
    {
      MPI_Init (&argc, &argv);
      int ranks;
      MPI_Comm_size (MPI_COMM_WORLD, &ranks);
      if (ranks != 1)
        {
          /* Every rank would give hypre the whole grid.  */
          fprintf (stderr, "hypre_bench: runs on one MPI rank, not %d\n",
                   ranks);
          status = 2;
        }
      else
        {
          HYPRE_Init ();
          printf ("# hypre %s: %s, %zu x %zu nodes, k %g to %g, L %gx%g, "
                  "q %g, tol %g\n", HYPRE_RELEASE_VERSION, s.map, nx, ny,
                  k_min, k_max, s.lx, s.ly, s.source, s.tol);
          status = run_solvers (&s, &st, reference);
          HYPRE_Finalize ();
        }
      MPI_Finalize ();
    }
  free (reference);
  free (st.values);
  return status;
}
