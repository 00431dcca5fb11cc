/* Unit tests of the multigrid module: exact discrete solutions, a dense
   direct solve written here from the textbook 5-point formula, conservation
   in the singular cases, and bounds on the cycles any grid needs.  */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <string.h>

#include "field.h"
#include "mg_internal.h"
#include "multigrid.h"
#include "unit.h"

#define HOT 100.0

static const struct mg_boundary all_dirichlet = {
  { BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET,
    BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET } };
static const struct mg_boundary mixed = {
  { BOUNDARY_DIRICHLET, BOUNDARY_NEUMANN,
    BOUNDARY_NEUMANN, BOUNDARY_DIRICHLET } };
static const struct mg_boundary periodic = {
  { BOUNDARY_PERIODIC, BOUNDARY_PERIODIC,
    BOUNDARY_PERIODIC, BOUNDARY_PERIODIC } };
/* Insulated left and right, periodic top to bottom.  */
static const struct mg_boundary slab = {
  { BOUNDARY_NEUMANN, BOUNDARY_NEUMANN,
    BOUNDARY_PERIODIC, BOUNDARY_PERIODIC } };

/* The plate: Dirichlet halo from u = HOT (x/Lx)(1 - y/Ly), interior 0.  */
static double
plate (size_t nx, size_t ny, size_t i, size_t j)
{
  const double x = (double) i / (double) (nx + 1);
  const double y = (double) j / (double) (ny + 1);
  return HOT * x * (1.0 - y);
}

static void
fill_plate (struct field *u)
{
  for (size_t j = 0; j <= u->ny + 1; ++j)
    for (size_t i = 0; i <= u->nx + 1; ++i)
      {
        const bool halo = i == 0 || j == 0 || i == u->nx + 1 || j == u->ny + 1;
        u->data[field_index (u, i, j)] = halo ? plate (u->nx, u->ny, i, j)
                                         : 0.0;
      }
}

/* A smooth field with no symmetry, for initial states and right-hand
   sides.  */
static double
bumpy (size_t i, size_t j)
{
  return 10.0 + 3.0 * sin (0.7 * (double) i + 0.3) * cos (0.45 * (double) j)
         + 0.01 * (double) ((i * 7 + j * 13) % 11);
}

/* Solve the plate on nx x ny with Lx = Ly = 1, as a steady problem.  */
static enum mg_status
solve_plate (size_t nx, size_t ny, double rtol, struct field *u,
             struct mg_report *rep)
{
  const struct mg_operator op = {
    .c0 = 0.0, .c1 = 1.0, .dx = 1.0 / (double) (nx + 1),
    .dy = 1.0 / (double) (ny + 1) };
  struct mg_solver *mg;
  if (mg_create (&mg, nx, ny, &op, &all_dirichlet) != MG_OK
      || !field_alloc (u, nx, ny))
    return MG_NO_MEMORY;
  fill_plate (u);
  struct mg_options o = mg_default_options ();
  o.rtol = rtol;
  const enum mg_status s = mg_solve (mg, u, NULL, &o, rep);
  mg_destroy (mg);
  return s;
}

/* (a) The bilinear plate is the exact discrete solution.  */
static void
test_plate_exact (size_t nx, size_t ny)
{
  struct field u;
  struct mg_report rep;
  CHECK (solve_plate (nx, ny, 1e-15, &u, &rep) == MG_OK);
  double err = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      err = fmax (err, fabs (u.data[field_index (&u, i, j)]
                             - plate (nx, ny, i, j)));
  printf ("plate %zux%zu: %u cycles to the floor %.2e, max error %.2e\n",
          nx, ny, rep.cycles, rep.floor, err);
  CHECK (err <= 1e-8 * HOT);
  field_free (&u);
}

/* The reference: assemble the 5-point operator row by row from its
   definition (Dirichlet values from u's halo to the right-hand side, zero
   flux as the halo mirroring the line beyond the edge node, periodic as
   the far side) and solve it by dense Gaussian elimination with partial
   pivoting.  */
static bool
dense_solve (const struct field *u, const struct field *f,
             const struct mg_operator *op, const struct mg_boundary *bc,
             struct field *out)
{
  const size_t nx = u->nx, ny = u->ny, n = nx * ny;
  double *a = calloc (n * (n + 1), sizeof *a);
  if (a == NULL || !field_alloc (out, nx, ny))
    return false;
  const double wx = op->c1 / (op->dx * op->dx), wy = op->c1 / (op->dy * op->dy);
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        double *row = a + ((j - 1) * nx + i - 1) * (n + 1);
        const size_t p = (j - 1) * nx + i - 1;
        row[n] = f != NULL ? f->data[field_index (f, i, j)] : 0.0;
        row[p] += op->c0;
        /* left, right, bottom, top: the neighbour's (i, j), its edge.  */
        const long ni[4] = { (long) i - 1, (long) i + 1, (long) i, (long) i };
        const long nj[4] = { (long) j, (long) j, (long) j - 1, (long) j + 1 };
        for (int e = 0; e < 4; ++e)
          {
            const double w = e < 2 ? wx : wy;
            long ii = ni[e], jj = nj[e];
            const bool out_x = ii < 1 || ii > (long) nx;
            const bool out_y = jj < 1 || jj > (long) ny;
            enum boundary_kind k = out_x || out_y ? bc->kind[e]
                                   : BOUNDARY_DIRICHLET;
            if (out_x || out_y)
              {
                if (k == BOUNDARY_NEUMANN)
                  {
                    ii = 2 * (long) i - ii;     /* the mirror image */
                    jj = 2 * (long) j - jj;
                    row[p] += w;
                    row[(jj - 1) * (long) nx + ii - 1] -= w;
                    continue;
                  }
                if (k == BOUNDARY_DIRICHLET)
                  {
                    row[p] += w;
                    row[n] += w * u->data[field_index (u, ii, jj)];
                    continue;
                  }
                ii = ii < 1 ? (long) nx : ii > (long) nx ? 1 : ii;
                jj = jj < 1 ? (long) ny : jj > (long) ny ? 1 : jj;
              }
            row[p] += w;
            row[(jj - 1) * (long) nx + ii - 1] -= w;
          }
      }
  bool ok = true;
  for (size_t k = 0; k < n && ok; ++k)
    {
      size_t piv = k;
      for (size_t p = k + 1; p < n; ++p)
        if (fabs (a[p * (n + 1) + k]) > fabs (a[piv * (n + 1) + k]))
          piv = p;
      ok = a[piv * (n + 1) + k] != 0.0;
      for (size_t q = 0; q <= n && ok; ++q)
        {
          const double t = a[k * (n + 1) + q];
          a[k * (n + 1) + q] = a[piv * (n + 1) + q];
          a[piv * (n + 1) + q] = t;
        }
      for (size_t p = k + 1; p < n && ok; ++p)
        {
          const double m = a[p * (n + 1) + k] / a[k * (n + 1) + k];
          for (size_t q = k; q <= n; ++q)
            a[p * (n + 1) + q] -= m * a[k * (n + 1) + q];
        }
    }
  for (size_t k = n; k-- > 0 && ok;)
    {
      double s = a[k * (n + 1) + n];
      for (size_t q = k + 1; q < n; ++q)
        s -= a[k * (n + 1) + q] * a[q * (n + 1) + n];
      a[k * (n + 1) + n] = s / a[k * (n + 1) + k];
      out->data[field_index (out, k % nx + 1, k / nx + 1)]
        = a[k * (n + 1) + n];
    }
  free (a);
  return ok;
}

/* Multigrid against the dense solve on u's initial state (Dirichlet values
   in its halo) and f: largest difference relative to the largest value.  */
static double
against_dense (struct field *u, const struct field *f,
               const struct mg_operator *op, const struct mg_boundary *bc,
               unsigned *cycles)
{
  struct field ref;
  CHECK (dense_solve (u, f, op, bc, &ref));
  struct mg_solver *mg;
  CHECK (mg_create (&mg, u->nx, u->ny, op, bc) == MG_OK);
  struct mg_options o = mg_default_options ();
  o.rtol = 1e-13;
  struct mg_report rep;
  CHECK (mg_solve (mg, u, f, &o, &rep) == MG_OK);
  *cycles = rep.cycles;
  mg_destroy (mg);
  double diff = 0.0, scale = 0.0;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      {
        const double r = ref.data[field_index (&ref, i, j)];
        diff = fmax (diff, fabs (u->data[field_index (u, i, j)] - r));
        scale = fmax (scale, fabs (r));
      }
  field_free (&ref);
  return diff / scale;
}

/* (b) Four different constant edges, steady, odd and non-square grids
   with dx != dy; also small and degenerate grids.  */
static void
test_edges_dense (size_t nx, size_t ny, double lx, double ly)
{
  const double edge[4] = { 10.0, 100.0, -30.0, 55.0 };
  struct field u;
  CHECK (field_alloc (&u, nx, ny));
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      u.data[field_index (&u, i, j)]
        = i == 0 ? edge[0] : i == nx + 1 ? edge[1]
          : j == 0 ? edge[2] : j == ny + 1 ? edge[3] : 0.0;
  const struct mg_operator op = {
    .c0 = 0.0, .c1 = 1.0, .dx = lx / (double) (nx + 1),
    .dy = ly / (double) (ny + 1) };
  unsigned cycles;
  const double d = against_dense (&u, NULL, &op, &all_dirichlet, &cycles);
  printf ("edges %zux%zu: %u cycles, %.2e from the dense solve\n", nx, ny,
          cycles, d);
  CHECK (d <= 1e-11);
  field_free (&u);
}

/* (c) The implicit operator c0 = 1 (and mixed edges) against the dense
   solve: u holds the Dirichlet values and a start, f the old field.  */
static void
test_implicit_dense (size_t nx, size_t ny, double c1,
                     const struct mg_boundary *bc, const char *what)
{
  struct field u, f;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&f, nx, ny));
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      {
        f.data[field_index (&f, i, j)] = bumpy (i, j);
        u.data[field_index (&u, i, j)] = 0.5 * bumpy (j, i);
      }
  const struct mg_operator op = {
    .c0 = 1.0, .c1 = c1, .dx = 1.0 / (double) (nx + 1),
    .dy = 1.3 / (double) (ny + 1) };
  unsigned cycles;
  const double d = against_dense (&u, &f, &op, bc, &cycles);
  printf ("implicit %s %zux%zu, c1 %g: %u cycles, %.2e from the dense "
          "solve\n", what, nx, ny, c1, cycles, d);
  CHECK (d <= 1e-11);
  field_free (&u);
  field_free (&f);
}

/* The sum of u's interior weighted by the nodes' shares of a full
   control volume (1/2 on a zero-flux edge, whose nodes lie on it), and
   in *volume the sum of the shares.  */
static double
heat_of (const struct field *u, const struct mg_boundary *bc, double *volume)
{
  bool edge_node[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    edge_node[e] = bc->kind[e] == BOUNDARY_NEUMANN;
  struct field one;
  CHECK (field_alloc (&one, u->nx, u->ny));
  for (size_t k = 0; k < field_cells (&one); ++k)
    one.data[k] = 1.0;
  *volume = field_volume_sum (&one, edge_node);
  field_free (&one);
  return field_volume_sum (u, edge_node);
}

/* (d) With only zero-flux and periodic edges the steady state is the
   constant that keeps the initial total heat.  */
static void
test_singular (size_t nx, size_t ny, const struct mg_boundary *bc,
               const char *what)
{
  struct field u;
  CHECK (field_alloc (&u, nx, ny));
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      u.data[field_index (&u, i, j)] = bumpy (i, j);
  double volume;
  const double before = heat_of (&u, bc, &volume) / volume;
  const double corner = u.data[0], far = u.data[field_cells (&u) - 1];
  const struct mg_operator op = {
    .c0 = 0.0, .c1 = 1.0, .dx = 2.0 / (double) (nx + 1),
    .dy = 1.0 / (double) (ny + 1) };
  struct mg_solver *mg;
  CHECK (mg_create (&mg, nx, ny, &op, bc) == MG_OK);
  struct mg_options o = mg_default_options ();
  struct mg_report rep;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_OK);
  mg_destroy (mg);
  const double after = heat_of (&u, bc, &volume) / volume;
  double lo, hi;
  field_range (&u, &lo, &hi);
  printf ("%s %zux%zu: %u cycles, mean %.15g -> %.15g, spread %.2e\n", what,
          nx, ny, rep.cycles, before, after, hi - lo);
  CHECK (fabs (after - before) <= 1e-12 * fabs (before));
  CHECK (hi - lo <= 1e-8 * fabs (before));
  CHECK (u.data[0] == corner && u.data[field_cells (&u) - 1] == far);
  field_free (&u);
}

/* A source of nonzero mean on a closed domain has no steady state: the
   solve takes its mean out (the heat it would add), converges, and keeps
   the initial heat.  */
static void
test_singular_source (void)
{
  const size_t nx = 40, ny = 30;
  const struct mg_boundary bc = {
    { BOUNDARY_PERIODIC, BOUNDARY_PERIODIC,
      BOUNDARY_NEUMANN, BOUNDARY_NEUMANN } };
  struct field u, f;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&f, nx, ny));
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      {
        u.data[field_index (&u, i, j)] = bumpy (j, i);
        f.data[field_index (&f, i, j)] = 1e3 * bumpy (i, j);
      }
  double volume;
  const double before = heat_of (&u, &bc, &volume);
  const struct mg_operator op = {
    .c0 = 0.0, .c1 = 1.0, .dx = 1.0 / (double) (nx + 1),
    .dy = 1.0 / (double) (ny + 1) };
  struct mg_solver *mg;
  CHECK (mg_create (&mg, nx, ny, &op, &bc) == MG_OK);
  struct mg_options o = mg_default_options ();
  struct mg_report rep;
  CHECK (mg_solve (mg, &u, &f, &o, &rep) == MG_OK);
  const double after = heat_of (&u, &bc, &volume);
  printf ("closed source %zux%zu: %u cycles, heat %.15g -> %.15g\n", nx, ny,
          rep.cycles, before, after);
  CHECK (rep.cycles <= 15);
  CHECK (fabs (after - before) <= 1e-12 * fabs (before));
  mg_destroy (mg);
  field_free (&u);
  field_free (&f);
}

/* (e) Cycles to rtol 1e-10 stay bounded whatever the size, and every
   cycle cuts the residual at least five-fold.  */
static void
test_cycles (size_t nx, size_t ny)
{
  struct field u;
  struct mg_report rep;
  CHECK (solve_plate (nx, ny, 1e-10, &u, &rep) == MG_OK);
  double worst = 0.0;
  for (unsigned c = 1; c <= rep.cycles; ++c)
    worst = fmax (worst, rep.history[c] / rep.history[c - 1]);
  const double mean = pow (rep.final / rep.initial, 1.0 / rep.cycles);
  printf ("plate %zux%zu: %u levels, %u cycles, reduction mean %.3f "
          "worst %.3f\n", nx, ny, rep.levels, rep.cycles, mean, worst);
  CHECK (rep.cycles <= 15);
  CHECK (worst <= 0.2);
  field_free (&u);
}

/* The coarsening rule: each level merges pairs of intervals of the axes
   with the finest spacing, down to 64 unknowns or fewer.  */
static void
test_hierarchy (void)
{
  const struct mg_operator op = { .c0 = 0.0, .c1 = 1.0, .dx = 1.0 / 1001.0,
                                  .dy = 1.0 / 101.0 };
  struct mg_solver *mg;
  CHECK (mg_create (&mg, 1000, 100, &op, &all_dirichlet) == MG_OK);
  /* x: 1001 intervals -> 501 -> 251 -> 126 -> 63 ...; y waits until the
     x spacing is within sqrt 2 of its own.  */
  const size_t expect[][2] = {
    { 1000, 100 }, { 500, 100 }, { 250, 100 }, { 125, 100 }, { 62, 50 },
    { 31, 25 }, { 15, 12 }, { 7, 6 },
  };
  const size_t levels = sizeof expect / sizeof *expect;
  CHECK (mg_levels (mg) == levels);
  for (size_t l = 0; l < levels && l < mg_levels (mg); ++l)
    {
      size_t nx, ny;
      mg_level_size (mg, l, &nx, &ny);
      CHECK (nx == expect[l][0] && ny == expect[l][1]);
    }
  mg_destroy (mg);
}

/* Bad setups and options are refused.  */
static void
test_invalid (void)
{
  struct mg_solver *mg;
  const struct mg_operator op = { .c0 = 0.0, .c1 = 1.0, .dx = 0.1, .dy = 0.1 };
  const struct mg_boundary half = {
    { BOUNDARY_PERIODIC, BOUNDARY_DIRICHLET,
      BOUNDARY_DIRICHLET, BOUNDARY_DIRICHLET } };
  CHECK (mg_create (&mg, 0, 5, &op, &all_dirichlet) == MG_INVALID);
  CHECK (mg_create (&mg, 5, 5, &op, &half) == MG_INVALID);
  struct mg_operator bad = op;
  bad.c1 = 0.0;
  CHECK (mg_create (&mg, 5, 5, &bad, &all_dirichlet) == MG_INVALID);
  bad = op;
  bad.c0 = -1.0;
  CHECK (mg_create (&mg, 5, 5, &bad, &all_dirichlet) == MG_INVALID);
  /* Above the size solved directly, so that one cycle is not enough.  */
  CHECK (mg_create (&mg, 15, 15, &op, &all_dirichlet) == MG_OK);
  struct field u, wrong;
  CHECK (field_alloc (&u, 15, 15) && field_alloc (&wrong, 16, 15));
  struct mg_options o = mg_default_options ();
  struct mg_report rep;
  o.rtol = 1.0;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o.rtol = 0.0;            /* neither tolerance set */
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o.atol = -1.0;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o.atol = INFINITY;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o = mg_default_options ();
  o.omega = 2.0;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o = mg_default_options ();
  o.max_cycles = 0;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o = mg_default_options ();
  CHECK (mg_solve (mg, &wrong, NULL, &o, &rep) == MG_INVALID);
  CHECK (mg_solve (mg, &u, &wrong, &o, &rep) == MG_INVALID);
  /* One cycle is not enough for 1e-10: the last iterate comes back.  */
  fill_plate (&u);
  o.max_cycles = 1;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_NOT_CONVERGED);
  CHECK (rep.cycles == 1 && rep.final < rep.initial);
  /* An absolute tolerance alone stops at the first cycle below it, as
     the residual history says.  */
  fill_plate (&u);
  o = mg_default_options ();
  o.rtol = 0.0;
  o.atol = 1e-3 * rep.initial;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_OK);
  CHECK (rep.cycles >= 2 && rep.final <= o.atol
         && rep.history[rep.cycles - 1] > o.atol);
  mg_destroy (mg);
  field_free (&u);
  field_free (&wrong);
}

/* ------------------------------------------------------------ placements
   host, map and resident solve the same problems: on the same processor
   (this build's target regions run on the host, or on LLVM's x86_64
   plugin with device memory of their own) they must agree bitwise, field,
   residual history and cycles, and launch the same kernels; on a GPU to
   1e-9 of the largest value, within a cycle.  */

/* Whether target regions run somewhere with memory of its own.  */
static bool
separate_device (void)
{
  int initial = 1;
  if (omp_get_num_devices () == 0)
    return false;
#pragma omp target map(from: initial)
  initial = omp_is_initial_device ();
  return !initial;
}

/* Kernels of one cycle on level l of n, by the formula of multigrid.h.  */
static unsigned
expected_launches (const struct mg_operator *op, const struct mg_boundary *bc,
                   const struct mg_options *o, size_t l, size_t n)
{
  bool e = false, closed = true;
  for (int k = 0; k < EDGE_COUNT; ++k)
    {
      e = e || bc->kind[k] != BOUNDARY_DIRICHLET;
      closed = closed && bc->kind[k] != BOUNDARY_DIRICHLET;
    }
  const unsigned E = e ? 1 : 0, sweeps = o->pre + o->post;
  const unsigned C = closed && op->c0 > 0.0 ? 3 : 0;
  unsigned count;
  if (l + 1 == n)
    count = 1;
  else if (o->smoother == MG_RED_BLACK)
    count = (1 + E) * (2 * sweeps + 2);
  else
    count = sweeps * (2 + E) + 2 * (1 + E);
  return count + (l == 0 ? 2 + E + C : 0);
}

struct problem {
  const char *name;
  size_t nx, ny;
  struct mg_operator op;
  struct mg_boundary bc;
  bool source;                /* a right-hand side f */
  enum mg_smoother smoother;
  unsigned pre, post;
};

/* Whether p has c0 > 0 and no Dirichlet edge: its solves shift u to the
   known mean each cycle, after the sum of u.  */
static bool
closed_implicit (const struct problem *p)
{
  bool closed = p->op.c0 > 0.0;
  for (int k = 0; k < EDGE_COUNT; ++k)
    closed = closed && p->bc.kind[k] != BOUNDARY_DIRICHLET;
  return closed;
}

/* u and f of problem p: the plate's halo and a bumpy start.  */
static void
problem_fields (const struct problem *p, struct field *u, struct field *f)
{
  CHECK (field_alloc (u, p->nx, p->ny) && field_alloc (f, p->nx, p->ny));
  for (size_t j = 0; j <= p->ny + 1; ++j)
    for (size_t i = 0; i <= p->nx + 1; ++i)
      {
        const bool halo = i == 0 || j == 0 || i == p->nx + 1
                          || j == p->ny + 1;
        u->data[field_index (u, i, j)] = halo ? plate (p->nx, p->ny, i, j)
                                         : 0.1 * bumpy (j, i);
        f->data[field_index (f, i, j)] = 50.0 * bumpy (i, j);
      }
}

/* The options the tests solve p with.  */
static struct mg_options
problem_options (const struct problem *p)
{
  struct mg_options o = mg_default_options ();
  o.rtol = 1e-12;
  o.smoother = p->smoother;
  o.pre = p->pre;
  o.post = p->post;
  if (p->smoother == MG_JACOBI)
    o.omega = 0.8;
  return o;
}

/* Solve p with placement where; with present, u and f enter the device
   first (as --offload resident keeps its fields) and u is fetched back
   after.  */
static enum mg_status
solve_placed (const struct problem *p, struct mg_solver *mg,
              enum mg_placement where, bool present, struct field *u,
              struct mg_report *rep)
{
  struct field f;
  problem_fields (p, u, &f);
  struct mg_options o = problem_options (p);
  o.placement = where;
  const struct field *fp = p->source ? &f : NULL;
  double *ud = u->data, *fd = f.data;
  const size_t n = field_cells (u);
  const int device = omp_get_default_device ();
  enum mg_status s;
  if (present)
    {
      const double before = ud[field_index (u, 1, 1)];
#pragma omp target enter data map(to: ud[0:n], fd[0:n]) device(device)
      s = mg_solve (mg, u, fp, &o, rep);
      /* With memory of its own the device, not the host, has the
         solution until it is fetched.  */
      if (separate_device ())
        CHECK (ud[field_index (u, 1, 1)] == before);
#pragma omp target update from(ud[0:n]) device(device)
#pragma omp target exit data map(release: ud[0:n], fd[0:n]) device(device)
    }
  else
    s = mg_solve (mg, u, fp, &o, rep);
  field_free (&f);
  return s;
}

/* Whether placements must agree bitwise: on one processor (the host
   fallback, LLVM's x86_64 plugin).  A GPU contracts into FMAs: there
   they agree to rounding, and a cycle more or less.  */
static bool
bitwise_expected (void)
{
#ifdef HEATSIM_OFFLOAD_GPU
  return !separate_device ();
#else
  return true;
#endif
}

/* Largest difference of the interiors relative to the largest value.  */
static double
field_distance (const struct field *a, const struct field *b)
{
  double diff = 0.0, scale = 0.0;
  for (size_t j = 1; j <= a->ny; ++j)
    for (size_t i = 1; i <= a->nx; ++i)
      {
        const double x = a->data[field_index (a, i, j)];
        diff = fmax (diff, fabs (x - b->data[field_index (b, i, j)]));
        scale = fmax (scale, fabs (x));
      }
  return diff / scale;
}

static bool
same_report (const struct mg_report *a, const struct mg_report *b)
{
  return a->cycles == b->cycles && a->levels == b->levels
         && memcmp (a->history, b->history,
                    (a->cycles + 1) * sizeof *a->history) == 0
         && a->floor == b->floor && a->launches == b->launches
         && a->cycle_launches == b->cycle_launches
         && memcmp (a->level_launches, b->level_launches,
                    sizeof a->level_launches) == 0;
}

static void
test_placements (const struct problem *p)
{
  struct mg_solver *mg;
  CHECK (mg_create (&mg, p->nx, p->ny, &p->op, &p->bc) == MG_OK);
  const size_t levels = mg_levels (mg);
  struct field ref, u;
  struct mg_report host, rep;
  CHECK (solve_placed (p, mg, MG_HOST, false, &ref, &host) == MG_OK);
  CHECK (host.to_device == 0 && host.from_device == 0);

  /* The launches: as documented, and all of them accounted for.  */
  struct mg_options o = mg_default_options ();
  o.smoother = p->smoother;
  o.pre = p->pre;
  o.post = p->post;
  unsigned total = 0;
  for (size_t l = 0; l < levels; ++l)
    {
      CHECK (host.level_launches[l]
             == expected_launches (&p->op, &p->bc, &o, l, levels));
      total += host.level_launches[l];
    }
  CHECK (host.cycles == 0 || host.cycle_launches == total);
  printf ("%s %zux%zu: %zu levels, %u cycles, %u launches per cycle "
          "(finest %u, coarsest %u), %lu in all\n", p->name, p->nx, p->ny,
          levels, host.cycles, host.cycle_launches, host.level_launches[0],
          host.level_launches[levels - 1], host.launches);

  const struct {
    enum mg_placement where;
    bool present;
    const char *name;
  } runs[] = {
    { MG_MAP, false, "map" },
    { MG_RESIDENT, false, "resident" },
    { MG_RESIDENT, true, "resident, fields present" },
    { MG_RESIDENT, false, "resident again" },
  };
  for (size_t k = 0; k < sizeof runs / sizeof *runs; ++k)
    {
      CHECK (solve_placed (p, mg, runs[k].where, runs[k].present, &u, &rep)
             == MG_OK);
      bool fields, reports;
      if (bitwise_expected ())
        {
          fields = memcmp (u.data, ref.data,
                           field_cells (&u) * sizeof *u.data) == 0;
          reports = same_report (&rep, &host);
        }
      else
        {
          fields = field_distance (&u, &ref) <= 1e-9;
          reports = rep.cycles + 1 >= host.cycles
                    && rep.cycles <= host.cycles + 1
                    && rep.cycle_launches == host.cycle_launches
                    && memcmp (rep.level_launches, host.level_launches,
                               sizeof rep.level_launches) == 0;
        }
      if (!fields || !reports)
        printf ("  %s: field %s, report %s (%u cycles, %.17g)\n",
                runs[k].name, fields ? "same" : "DIFFERS",
                reports ? "same" : "DIFFERS", rep.cycles, rep.final);
      CHECK (fields);
      CHECK (reports);
      const double cell = (double) sizeof (double);
      printf ("  %s: %.4g MB to, %.4g MB from the device; per cycle "
              "%llu and %llu bytes\n", runs[k].name,
              (double) rep.to_device / 1e6, (double) rep.from_device / 1e6,
              rep.cycle_to_device, rep.cycle_from_device);
      if (runs[k].where == MG_RESIDENT && rep.cycles > 0)
        {
          /* Only the norm's two doubles cross per cycle (and the two of
             the sum of u where it is shifted to its mean).  */
          CHECK (rep.cycle_to_device == 0);
          CHECK (rep.cycle_from_device
                 == (closed_implicit (p) ? 4 : 2) * sizeof (double));
        }
      if (runs[k].where == MG_MAP && rep.cycles > 0)
        CHECK (rep.cycle_to_device > rep.cycle_launches * cell);
      /* The hierarchy entered once, at the first resident solve; the
         fields crossed unless they were present.  */
      const unsigned long long fields_bytes
        = field_cells (&u) * sizeof (double);
      if (runs[k].present)
        CHECK (rep.to_device == 0);
      if (k == 3)
        CHECK (rep.to_device == (separate_device ()
                                 ? fields_bytes * (p->source ? 2 : 1) : 0));
      field_free (&u);
    }
  mg_destroy (mg);
  field_free (&ref);
}

/* A placement the module does not know, or a device below -1, is
   refused.  */
static void
test_placement_invalid (void)
{
  struct mg_solver *mg;
  const struct mg_operator op = { .c0 = 0.0, .c1 = 1.0, .dx = 0.1, .dy = 0.1 };
  CHECK (mg_create (&mg, 9, 9, &op, &all_dirichlet) == MG_OK);
  struct field u;
  CHECK (field_alloc (&u, 9, 9));
  struct mg_report rep;
  struct mg_options o = mg_default_options ();
  CHECK (o.placement == MG_HOST && o.device == -1);
  o.placement = (enum mg_placement) 7;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  o = mg_default_options ();
  o.device = -2;
  o.placement = MG_RESIDENT;
  CHECK (mg_solve (mg, &u, NULL, &o, &rep) == MG_INVALID);
  mg_destroy (mg);
  field_free (&u);
}

/* A solve without f reads none on the host (a zero right-hand side is
   known to be zero); a field of zeros is read.  The two must give the
   same bits.  A solve with f on the same solver afterwards must read f
   again: the same bits as on a fresh solver.  */
static void
test_zero_rhs (const struct problem *p)
{
  struct problem zero = *p, source = *p;
  zero.source = false;
  source.source = true;
  struct mg_solver *mg, *fresh;
  struct field without, with, f, again, ref;
  struct mg_report a, b, c, d;
  CHECK (mg_create (&mg, p->nx, p->ny, &p->op, &p->bc) == MG_OK);
  CHECK (solve_placed (&zero, mg, MG_HOST, false, &without, &a) == MG_OK);
  problem_fields (p, &with, &f);
  memset (f.data, 0, field_cells (&f) * sizeof *f.data);
  const struct mg_options o = problem_options (p);
  CHECK (mg_solve (mg, &with, &f, &o, &b) == MG_OK);
  const bool same = memcmp (with.data, without.data,
                            field_cells (&with) * sizeof *with.data) == 0;
  CHECK (solve_placed (&source, mg, MG_HOST, false, &again, &c) == MG_OK);
  CHECK (mg_create (&fresh, p->nx, p->ny, &p->op, &p->bc) == MG_OK);
  CHECK (solve_placed (&source, fresh, MG_HOST, false, &ref, &d) == MG_OK);
  const bool reread = memcmp (again.data, ref.data,
                              field_cells (&ref) * sizeof *ref.data) == 0;
  printf ("%s: no f and f = 0: %u and %u cycles, %s; f after no f: %s\n",
          p->name, a.cycles, b.cycles, same ? "same bits" : "DIFFERENT",
          reread ? "same bits as a fresh solver" : "DIFFERENT");
  /* Given f, a problem without a Dirichlet edge takes its sum first: two
     launches.  */
  bool closed = true;
  for (int k = 0; k < EDGE_COUNT; ++k)
    closed = closed && p->bc.kind[k] != BOUNDARY_DIRICHLET;
  a.launches += closed ? 2 : 0;
  CHECK (same && same_report (&a, &b));
  CHECK (reread && same_report (&c, &d));
  mg_destroy (mg);
  mg_destroy (fresh);
  field_free (&without);
  field_free (&with);
  field_free (&f);
  field_free (&again);
  field_free (&ref);
}

static void
placement_tests (void)
{
  printf ("target regions run %s; placements must agree %s\n",
          separate_device () ? "on a device with memory of its own"
          : "on the host, in the host's memory",
          bitwise_expected () ? "bitwise" : "to rounding (a GPU)");
  const struct problem problems[] = {
    { "plate", 257, 257, { 0.0, 1.0, 1.0 / 258, 1.0 / 258 }, all_dirichlet,
      false, MG_RED_BLACK, 1, 2 },
    { "plate V(1,1)", 300, 171, { 0.0, 1.0, 1.0 / 301, 1.0 / 172 },
      all_dirichlet, false, MG_RED_BLACK, 1, 1 },
    { "implicit mixed", 301, 203, { 1.0, 0.02, 1.0 / 302, 1.3 / 204 }, mixed,
      true, MG_RED_BLACK, 2, 1 },
    { "periodic source", 64, 33, { 0.0, 1.0, 2.0 / 64, 1.0 / 33 }, periodic,
      true, MG_RED_BLACK, 1, 1 },
    { "slab Jacobi", 37, 50, { 0.0, 1.0, 2.0 / 38, 1.0 / 51 }, slab, false,
      MG_JACOBI, 2, 2 },
    { "dirichlet Jacobi", 100, 45, { 1.0, 0.5, 1.0 / 101, 1.0 / 46 },
      all_dirichlet, true, MG_JACOBI, 1, 2 },
    { "coarsest only", 5, 3, { 0.0, 1.0, 1.0 / 6, 1.0 / 4 }, all_dirichlet,
      false, MG_RED_BLACK, 1, 1 },
    /* An implicit step of huge dt with no Dirichlet edge: the mean set
       by a shift each cycle.  */
    { "implicit closed", 61, 45, { 1.0, 1e8, 1.0 / 62, 1.0 / 46 }, slab,
      true, MG_RED_BLACK, 1, 2 },
  };
  for (size_t k = 0; k < sizeof problems / sizeof *problems; ++k)
    {
      test_placements (&problems[k]);
      test_zero_rhs (&problems[k]);
    }
  test_placement_invalid ();
}

/* u and f of p times scale, halo included.  */
static void
scaled_fields (const struct problem *p, double scale, struct field *u,
               struct field *f)
{
  problem_fields (p, u, f);
  for (size_t k = 0; k < field_cells (u); ++k)
    {
      u->data[k] *= scale;
      f->data[k] *= scale;
    }
}

/* A problem times 2^510 (its residuals' sums of squares overflow) or
   2^-560 (they underflow) is solved as the problem itself, times the
   power of two, bit for bit, on every placement: the norms are taken
   from terms scaled by powers of two, exact.  */
static void
test_scaled_norms (void)
{
  const struct problem p = {
    "scaled", 61, 45, { 1.0, 0.02, 1.0 / 62, 1.0 / 46 }, mixed, true,
    MG_RED_BLACK, 1, 2 };
  const double scales[] = { 0x1p510, 0x1p-560 };
  const enum mg_placement places[] = { MG_HOST, MG_MAP, MG_RESIDENT };
  struct mg_solver *mg;
  CHECK (mg_create (&mg, p.nx, p.ny, &p.op, &p.bc) == MG_OK);
  for (size_t w = 0; w < sizeof places / sizeof *places; ++w)
    for (size_t k = 0; k < sizeof scales / sizeof *scales; ++k)
      {
        struct field ref, u, f;
        struct mg_report a, b;
        struct mg_options o = problem_options (&p);
        o.placement = places[w];
        const double c = scales[k];
        CHECK (solve_placed (&p, mg, places[w], false, &ref, &a) == MG_OK);
        scaled_fields (&p, c, &u, &f);
        CHECK (mg_solve (mg, &u, &f, &o, &b) == MG_OK);
        bool same = true;
        for (size_t q = 0; q < field_cells (&u); ++q)
          same = same && u.data[q] == c * ref.data[q];
        printf ("scaled by %g, placement %zu: %u and %u cycles, norms %.17g "
                "and %.17g, fields %s\n", c, w, a.cycles, b.cycles,
                a.final, b.final / c, same ? "scaled bit for bit"
                : "DIFFERENT");
        CHECK (same && b.cycles == a.cycles && a.cycles > 0);
        CHECK (b.initial == c * a.initial && b.final == c * a.final
               && b.floor == c * a.floor);
        for (unsigned q = 0; q <= a.cycles; ++q)
          CHECK (b.history[q] == c * a.history[q]);
        field_free (&ref);
        field_free (&u);
        field_free (&f);
      }
  mg_destroy (mg);
}

/* A norm that is not finite ends the solve, never as converged.  */
static void
test_not_finite (void)
{
  const struct problem p = {
    "huge", 21, 13, { 1.0, 0.02, 1.0 / 22, 1.0 / 14 }, mixed, true,
    MG_RED_BLACK, 1, 2 };
  struct mg_solver *mg;
  CHECK (mg_create (&mg, p.nx, p.ny, &p.op, &p.bc) == MG_OK);
  struct field u, f;
  struct mg_report rep;
  scaled_fields (&p, 1.0, &u, &f);
  f.data[field_index (&f, 3, 4)] = INFINITY;
  const struct mg_options o = problem_options (&p);
  CHECK (mg_solve (mg, &u, &f, &o, &rep) == MG_NOT_FINITE);
  CHECK (rep.cycles == 0 && !isfinite (rep.final));
  field_free (&u);
  field_free (&f);
  mg_destroy (mg);
}

/* The host restricts from rows of scratch allocated for the threads a
   hierarchy was built with; a solve with more threads restricts from the
   level's residual array instead.  Both must give the same bits.  */
static void
test_scratch_rows (void)
{
  const struct problem p = {
    "scratch", 301, 257, { 1.0, 0.02, 1.0 / 302, 1.3 / 258 },
    all_dirichlet, true, MG_RED_BLACK, 1, 2 };
  const int threads = omp_get_max_threads ();
  struct field with, without;
  struct mg_report a, b;
  struct mg_solver *mg;
  omp_set_num_threads (2);
  CHECK (mg_create (&mg, p.nx, p.ny, &p.op, &p.bc) == MG_OK);
  CHECK (solve_placed (&p, mg, MG_HOST, false, &with, &a) == MG_OK);
  mg_destroy (mg);
  omp_set_num_threads (1);
  CHECK (mg_create (&mg, p.nx, p.ny, &p.op, &p.bc) == MG_OK);
  omp_set_num_threads (2);
  CHECK (solve_placed (&p, mg, MG_HOST, false, &without, &b) == MG_OK);
  mg_destroy (mg);
  omp_set_num_threads (threads);
  printf ("scratch rows and residual array: %u and %u cycles, %s\n",
          a.cycles, b.cycles,
          memcmp (with.data, without.data,
                  field_cells (&with) * sizeof *with.data) == 0
          ? "same bits" : "DIFFERENT");
  CHECK (memcmp (with.data, without.data,
                 field_cells (&with) * sizeof *with.data) == 0);
  CHECK (same_report (&a, &b));
  field_free (&with);
  field_free (&without);
}

/* mg_footprint counts what mg_create allocates, without allocating it:
   the levels' blocks and the scratch rows, on grids square, 1 or 2
   nodes across (where the transfer tables outweigh the grids: the
   memory check counted three grids for the levels and let a steady run
   of 1 x 10^8 nodes through to the kernel's OOM killer), of cells far
   from square, periodic and insulated.  */
static void
test_footprint (void)
{
  const struct mg_boundary neumann = {
    { BOUNDARY_NEUMANN, BOUNDARY_NEUMANN,
      BOUNDARY_NEUMANN, BOUNDARY_NEUMANN } };
  const struct {
    size_t nx, ny;
    double dx, dy;
    const struct mg_boundary *bc;
  } cases[] = {
    { 64, 64, 1.0, 1.0, &all_dirichlet }, { 1000, 999, 1e-3, 1e-3, &mixed },
    { 1, 50000, 500.0, 1e-3, &all_dirichlet },
    { 50000, 1, 1e-3, 500.0, &all_dirichlet },
    { 50000, 2, 1.0, 1.0, &mixed }, { 300, 7, 0.01, 1.0, &slab },
    { 96, 64, 1.0, 1.0, &periodic }, { 1000, 14, 5e-4, 1e-4, &mixed },
    { 2000, 3, 1.0, 1.0, &neumann }, { 1, 1, 1.0, 1.0, &all_dirichlet },
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k)
    {
      const struct mg_operator op = { 1.0, 1.0, cases[k].dx, cases[k].dy };
      struct mg_solver *mg;
      CHECK (mg_create (&mg, cases[k].nx, cases[k].ny, &op, cases[k].bc)
             == MG_OK);
      if (mg == NULL)
        continue;
      size_t held = mg->row_threads * 3 * mg->row_width * sizeof (double);
      for (size_t l = 0; l < mg->count; ++l)
        held += mg->level[l].bytes;
      const size_t counted = mg_footprint (cases[k].nx, cases[k].ny,
                                           cases[k].dx, cases[k].dy,
                                           cases[k].bc);
      if (counted != held)
        printf ("footprint of %zu x %zu: counted %zu, allocated %zu\n",
                cases[k].nx, cases[k].ny, counted, held);
      CHECK (counted == held);
      mg_destroy (mg);
    }
  /* Counting a grid of 10^12 nodes allocates nothing (mg_blocked_aspect
     of 1 x 10^9 took 24 GB) and saturates nowhere short of it.  */
  const size_t huge = mg_footprint (1, (size_t) 1000000000000, 1.0, 1.0,
                                    &all_dirichlet);
  CHECK (huge != SIZE_MAX && huge > (size_t) 1000000000000 * 3 * 8);
  CHECK (mg_blocked_aspect (2, (size_t) 1000000000000, 1.0, 1e-6, &neumann)
         >= 1.0);
}

int
main (void)
{
  test_footprint ();
  placement_tests ();
  test_scratch_rows ();
  test_scaled_norms ();
  test_not_finite ();

  test_plate_exact (257, 257);
  test_plate_exact (300, 171);

  test_edges_dense (31, 17, 1.0, 1.0);
  test_edges_dense (33, 20, 2.0, 0.7);
  test_edges_dense (2, 2, 1.0, 1.0);
  test_edges_dense (1, 7, 1.0, 1.0);
  test_edges_dense (1, 1, 1.0, 1.0);
  test_edges_dense (45, 3, 1.0, 1.0);
  test_edges_dense (1, 300, 1.0, 1.0);
  test_edges_dense (101, 2, 1.0, 3.0);

  const struct mg_boundary tube = {
    { BOUNDARY_PERIODIC, BOUNDARY_PERIODIC,
      BOUNDARY_DIRICHLET, BOUNDARY_NEUMANN } };
  const struct mg_boundary neumann = {
    { BOUNDARY_NEUMANN, BOUNDARY_NEUMANN,
      BOUNDARY_NEUMANN, BOUNDARY_NEUMANN } };
  test_implicit_dense (29, 23, 0.05, &all_dirichlet, "dirichlet");
  test_implicit_dense (29, 23, 0.05, &mixed, "mixed");
  test_implicit_dense (30, 21, 0.05, &tube, "tube");
  test_implicit_dense (27, 22, 0.05, &neumann, "zero-flux");
  test_implicit_dense (25, 24, 0.05, &periodic, "periodic");
  test_implicit_dense (25, 24, 1e-4, &periodic, "periodic");
  test_implicit_dense (5, 3, 10.0, &slab, "slab");

  test_singular (65, 40, &neumann, "zero-flux");
  test_singular (64, 33, &periodic, "periodic");
  test_singular (37, 50, &slab, "slab");
  test_singular (1, 1, &neumann, "zero-flux");
  test_singular (2, 3, &periodic, "periodic");
  test_singular_source ();

  const size_t sizes[][2] = {
    { 63, 63 }, { 64, 64 }, { 255, 255 }, { 256, 256 }, { 1000, 1000 },
    { 301, 203 }, { 255, 127 },
  };
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k)
    test_cycles (sizes[k][0], sizes[k][1]);

  test_hierarchy ();
  test_invalid ();
  return unit_exit ();
}
