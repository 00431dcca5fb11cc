/* Unit tests of the black box multigrid (boxmg.h): against a dense
   direct solve written here from the documented finite-volume
   discretisation (DESIGN.md, "The general heat equation"; operator.h)
   on random material maps with Dirichlet and insulated edges, steady,
   singular and implicit; and bounds on the iterations of maps with
   contrast 1e6 (layered, checkerboard, random disks), whose residuals
   are checked here too; and the placements (host, map, resident)
   bitwise alike, a solve that goes on from another's state included,
   with the moves of each (in an offload build: the hierarchy crosses
   at every MG_MAP solve, once for MG_RESIDENT).  */
#include <config.h>

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "boxmg.h"
#include "domain.h"
#include "field.h"
#include "footprint.h"
#include "operator.h"
#include "options.h"
#include "unit.h"

/* A deterministic generator (xorshift64*), uniform in [0, 1).  */
static double
uniform (unsigned long long *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return (double) ((*state * 2685821657736338717ULL) >> 11) * 0x1p-53;
}

/* A material: k and rho c_p per node, padded; the halo holds the edge
   node's own values (material.h).  */
struct map {
  size_t nx, ny, stride;
  double *k, *capacity;
};

static void
map_alloc (struct map *m, size_t nx, size_t ny)
{
  *m = (struct map) { .nx = nx, .ny = ny, .stride = nx + 2 };
  m->k = calloc ((nx + 2) * (ny + 2), sizeof (double));
  m->capacity = calloc ((nx + 2) * (ny + 2), sizeof (double));
  if (m->k == NULL || m->capacity == NULL)
    abort ();
}

static void
map_free (struct map *m)
{
  free (m->k);
  free (m->capacity);
}

/* Copy the edge nodes into the halo.  */
static void
map_pad (struct map *m)
{
  const size_t st = m->stride;
  for (size_t j = 0; j <= m->ny + 1; ++j)
    for (size_t i = 0; i <= m->nx + 1; ++i)
      {
        size_t ii = i == 0 ? 1 : i > m->nx ? m->nx : i;
        size_t jj = j == 0 ? 1 : j > m->ny ? m->ny : j;
        m->k[j * st + i] = m->k[jj * st + ii];
        m->capacity[j * st + i] = m->capacity[jj * st + ii];
      }
}

enum kind { RANDOM, LAYERED, CHECKERBOARD, DISKS, SPECKLE, CROWD };

/* k in [1, contrast]: log-uniform per node (RANDOM), or contrast on
   layers of width nx / 8, on 8 x 8 blocks of a checkerboard, in 24
   disks, or at each node with probability 0.4 (SPECKLE: islands of
   every size, below site percolation), or in 150 smaller disks (CROWD:
   radii 0.01 to 0.04 of the side, like bench/boxmg_bench's map, with
   gaps between neighbours thinner than a coarse cell), and 1
   elsewhere; rho c_p in [1, 3).  */
static void
map_fill (struct map *m, enum kind kind, double contrast,
          unsigned long long seed)
{
  unsigned long long state = seed;
  const int disks = kind == CROWD ? 150 : 24;
  const double smallest = kind == CROWD ? 0.01 : 0.03;
  const double spread = kind == CROWD ? 0.03 : 0.05;
  double disk[150][3];
  for (int d = 0; d < disks; ++d)
    {
      disk[d][0] = uniform (&state) * (double) m->nx;
      disk[d][1] = uniform (&state) * (double) m->ny;
      disk[d][2] = (smallest + spread * uniform (&state)) * (double) m->nx;
    }
  const size_t layer = m->nx / 8 > 0 ? m->nx / 8 : 1;
  for (size_t j = 1; j <= m->ny; ++j)
    for (size_t i = 1; i <= m->nx; ++i)
      {
        bool high = false;
        switch (kind)
          {
          case RANDOM:
            break;
          case LAYERED:
            high = (i - 1) / layer % 2 == 1;
            break;
          case CHECKERBOARD:
            high = ((i - 1) / 8 + (j - 1) / 8) % 2 == 1;
            break;
          case DISKS:
          case CROWD:
            for (int d = 0; d < disks; ++d)
              high |= hypot ((double) i - disk[d][0], (double) j - disk[d][1])
                      < disk[d][2];
            break;
          case SPECKLE:
            high = uniform (&state) < 0.4;
            break;
          }
        const size_t n = j * m->stride + i;
        m->k[n] = kind == RANDOM ? pow (contrast, uniform (&state))
                  : high ? contrast : 1.0;
        m->capacity[n] = 1.0 + 2.0 * uniform (&state);
      }
  map_pad (m);
}

static double
harmonic (double a, double b)
{
  return 2.0 * a * b / (a + b);
}

/* The operator of m (what heat_operator_build is documented to give):
   face conductances, harmonic means over dx^2 or dy^2, 0 on insulated
   edges.  */
static void
operator_of (struct heat_operator *op, const struct map *m, double dx,
             double dy, const bool insulated[EDGE_COUNT])
{
  const size_t nx = m->nx, ny = m->ny, st = m->stride, cells = st * (ny + 2);
  *op = (struct heat_operator) { .nx = nx, .ny = ny, .stride = st };
  op->block = calloc (4 * cells, sizeof (double));
  if (op->block == NULL)
    abort ();
  op->wx = op->block;
  op->wy = op->wx + cells;
  op->capacity = op->wy + cells;
  op->source = op->capacity + cells;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 0; i <= nx; ++i)
      {
        const size_t n = j * st + i;
        const bool edge = (i == 0 && insulated[EDGE_LEFT])
                          || (i == nx && insulated[EDGE_RIGHT]);
        op->wx[n] = edge ? 0.0 : harmonic (m->k[n], m->k[n + 1]) / (dx * dx);
      }
  for (size_t j = 0; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t n = j * st + i;
        const bool edge = (j == 0 && insulated[EDGE_BOTTOM])
                          || (j == ny && insulated[EDGE_TOP]);
        op->wy[n] = edge ? 0.0 : harmonic (m->k[n], m->k[n + st]) / (dy * dy);
      }
  memcpy (op->capacity, m->capacity, cells * sizeof (double));
}

/* boxmg_footprint, the memory check's count, is what bm holds: its
   levels and solver arrays, and its coarsest factor, byte for byte,
   but for the deflation vectors, which it counts at their most (six on
   each level between the finest and the coarsest).  */
static void
check_bytes (const struct boxmg_solver *bm, size_t nx, size_t ny,
             const bool periodic[2], size_t coarsest)
{
  size_t factor, held_factor;
  const size_t levels = boxmg_footprint (nx, ny, periodic[0], periodic[1],
                                         coarsest, &factor);
  const size_t held = boxmg_bytes (bm, &held_factor);
  CHECK (held <= levels);
  size_t room = 0, cnx = nx, cny = ny;
  for (size_t l = 0; l < boxmg_levels (bm); ++l, cnx /= 2, cny /= 2)
    if (l > 0 && l + 1 < boxmg_levels (bm))
      room += 6 * (cnx + 2) * (cny + 2) * sizeof (double);
  CHECK (levels - held <= room);
  CHECK ((levels - held) % sizeof (double) == 0);
  CHECK (factor == held_factor);
}

/* Gaussian elimination of the n x n system a x = b of lower and upper
   bandwidth band, SPD (no pivoting): row r holds columns r - band ..
   r + band at a[r (2 band + 1) + band + column - r].  x in b.  */
static void
band_solve (double *a, double *b, size_t n, size_t band)
{
  const size_t width = 2 * band + 1;
  for (size_t c = 0; c < n; ++c)
    for (size_t r = c + 1; r < n && r <= c + band; ++r)
      {
        const double factor = a[r * width + band + c - r]
                              / a[c * width + band];
        for (size_t t = c; t < n && t <= c + band; ++t)
          a[r * width + band + t - r] -= factor * a[c * width + band + t - c];
        b[r] -= factor * b[c];
      }
  for (size_t c = n; c-- > 0;)
    {
      for (size_t t = c + 1; t < n && t <= c + band; ++t)
        b[c] -= a[c * width + band + t - c] * b[t];
      b[c] /= a[c * width + band];
    }
}

/* The direct solution of c0 C u - c1 L_k u = f with u's halo as the
   Dirichlet values, from k itself: row P has c0 C_P + c1 times the sum of
   its faces' conductances on the diagonal and -c1 times a face's for the
   neighbour behind it; a Dirichlet neighbour's term moves to the right.
   Without a Dirichlet edge and with c0 = 0 the mean of f is removed, the
   last node pinned at 0 (its equation follows from the others) and the
   solution shifted to the total heat sum C u = heat.  */
static void
direct (const struct map *m, double dx, double dy,
        const bool insulated[EDGE_COUNT], const bool periodic[2], double c0,
        double c1, const struct field *f, const struct field *u,
        double heat, struct field *out)
{
  const size_t nx = m->nx, ny = m->ny, st = m->stride, n = nx * ny;
  /* A periodic axis couples the ends of each line: the whole matrix.  */
  const size_t band = periodic[0] || periodic[1] ? n - 1 : nx;
  const size_t width = 2 * band + 1;
  double *a = calloc (n * width + n, sizeof (double));
  if (a == NULL)
    abort ();
  double *b = a + n * width;
  const bool singular = (insulated[0] || periodic[0])
                        && (insulated[1] || periodic[0])
                        && (insulated[2] || periodic[1])
                        && (insulated[3] || periodic[1]) && c0 == 0.0;
  double mean = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      mean += f->data[j * st + i] / (double) n;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t row = (j - 1) * nx + (i - 1), p = j * st + i;
        double *a_row = a + row * width + band - row;  /* a_row[column] */
        a_row[row] = c0 * m->capacity[p];
        b[row] = f->data[p] - (singular ? mean : 0.0);
        static const int step[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 },
                                        { 0, 1 } };
        for (int e = 0; e < 4; ++e)
          {
            size_t ni = i + (size_t) step[e][0];
            size_t nj = j + (size_t) step[e][1];
            /* Beyond a periodic edge: the opposite edge's node.  */
            if (periodic[0])
              ni = ni == 0 ? nx : ni > nx ? 1 : ni;
            if (periodic[1])
              nj = nj == 0 ? ny : nj > ny ? 1 : nj;
            const size_t q = nj * st + ni;
            const bool boundary = ni == 0 || ni > nx || nj == 0 || nj > ny;
            if (boundary && insulated[e])
              continue;
            const double g = c1 * harmonic (m->k[p], m->k[q])
                             / (e < 2 ? dx * dx : dy * dy);
            a_row[row] += g;
            if (boundary)
              b[row] += g * u->data[q];
            else
              a_row[(nj - 1) * nx + (ni - 1)] -= g;
          }
      }
  band_solve (a, b, singular ? n - 1 : n, band);
  if (singular)
    {
      b[n - 1] = 0.0;
      double now = 0.0, capacity = 0.0;
      for (size_t t = 0; t < n; ++t)
        {
          now += m->capacity[(t / nx + 1) * st + t % nx + 1] * b[t];
          capacity += m->capacity[(t / nx + 1) * st + t % nx + 1];
        }
      for (size_t t = 0; t < n; ++t)
        b[t] += (heat - now) / capacity;
    }
  for (size_t t = 0; t < n; ++t)
    out->data[(t / nx + 1) * st + t % nx + 1] = b[t];
  free (a);
}

static double
relative_difference (const struct field *a, const struct field *b)
{
  double diff = 0.0, norm = 0.0;
  for (size_t j = 1; j <= a->ny; ++j)
    for (size_t i = 1; i <= a->nx; ++i)
      {
        const size_t n = field_index (a, i, j);
        diff += (a->data[n] - b->data[n]) * (a->data[n] - b->data[n]);
        norm += b->data[n] * b->data[n];
      }
  return sqrt (diff / norm);
}

static double
total_heat (const struct map *m, const struct field *u)
{
  double sum = 0.0;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      {
        const size_t n = field_index (u, i, j);
        sum += m->capacity[n] * u->data[n];
      }
  return sum;
}

/* One case against the direct solve: a random map of the given contrast,
   random Dirichlet values and right-hand side, coarsening down to
   coarsest nodes.  */
static void
check_direct (size_t nx, size_t ny, size_t coarsest, double contrast,
              const bool ins[4], double c0, double c1,
              unsigned long long seed)
{
  const double dx = 1.0 / (double) (nx + 1), dy = 0.7 / (double) (ny + 1);
  struct map m;
  map_alloc (&m, nx, ny);
  map_fill (&m, RANDOM, contrast, seed);
  struct heat_operator op;
  operator_of (&op, &m, dx, dy, ins);
  struct field u, f, ref;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&f, nx, ny)
         && field_alloc (&ref, nx, ny));
  unsigned long long state = seed + 99;
  for (size_t n = 0; n < field_cells (&u); ++n)
    {
      u.data[n] = 10.0 * uniform (&state) - 3.0;
      f.data[n] = 1e3 * (uniform (&state) - 0.3);
    }
  const double heat = total_heat (&m, &u);
  static const bool open[2] = { false, false };
  direct (&m, dx, dy, ins, open, c0, c1, &f, &u, heat, &ref);

  struct boxmg_solver *bm;
  CHECK (boxmg_create (&bm, &op, NULL, c0, c1, coarsest) == MG_OK);
  check_bytes (bm, nx, ny, open, coarsest);
  struct mg_options opt = mg_default_options ();
  opt.rtol = 1e-14;
  struct mg_report report;
  const enum mg_status status = boxmg_solve (bm, &u, &f, &opt, &report);
  CHECK (status == MG_OK);
  const double error = relative_difference (&u, &ref);
  printf ("%zux%zu contrast %g insulated %d%d%d%d c0 %g: %zu levels, "
          "%u iterations, error %.3g\n", nx, ny, contrast, ins[0], ins[1],
          ins[2], ins[3], c0, boxmg_levels (bm), report.cycles, error);
  CHECK (error <= 1e-10);
  if (ins[0] && ins[1] && ins[2] && ins[3] && c0 == 0.0)
    CHECK (fabs (total_heat (&m, &u) - heat) <= 1e-12 * fabs (heat) + 1e-9);
  boxmg_destroy (bm);
  field_free (&u);
  field_free (&f);
  field_free (&ref);
  free (op.block);
  map_free (&m);
}

/* The halo lines of periodic axes from the opposite edges' nodes (the
   ring: material.c's whole_index).  */
static void
map_wrap (struct map *m, const bool periodic[2])
{
  const size_t st = m->stride;
  for (size_t j = 0; j <= m->ny + 1; ++j)
    for (size_t i = 0; i <= m->nx + 1; ++i)
      {
        size_t ii = i, jj = j;
        if (periodic[0])
          ii = i == 0 ? m->nx : i > m->nx ? 1 : i;
        if (periodic[1])
          jj = j == 0 ? m->ny : j > m->ny ? 1 : j;
        m->k[j * st + i] = m->k[jj * st + ii];
        m->capacity[j * st + i] = m->capacity[jj * st + ii];
      }
}

/* Periodic axes (x, y or both) against the direct solve: the
   ring's coupling across the ends on every level (even rings coarsen,
   down to rings of 2; odd ones stop), the coarsest factor's folded
   numbering, singular (both periodic, c0 = 0: the total heat kept) and
   implicit cases; the other axis's edges as ins says.  */
static void
check_periodic (size_t nx, size_t ny, size_t coarsest, const bool ins[4],
                const bool periodic[2], double c0, double c1,
                unsigned long long seed)
{
  const double dx = 1.0 / (double) nx, dy = 0.7 / (double) ny;
  bool edges[4];
  for (int e = 0; e < 4; ++e)
    edges[e] = ins[e] && !periodic[e / 2];
  struct map m;
  map_alloc (&m, nx, ny);
  map_fill (&m, RANDOM, 1e3, seed);
  map_wrap (&m, periodic);
  struct heat_operator op;
  operator_of (&op, &m, dx, dy, edges);
  op.periodic_x = periodic[0];
  op.periodic_y = periodic[1];
  struct field u, f, ref;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&f, nx, ny)
         && field_alloc (&ref, nx, ny));
  unsigned long long state = seed + 5;
  for (size_t n = 0; n < field_cells (&u); ++n)
    {
      u.data[n] = 10.0 * uniform (&state) - 3.0;
      f.data[n] = 1e3 * (uniform (&state) - 0.3);
    }
  const double heat = total_heat (&m, &u);
  direct (&m, dx, dy, edges, periodic, c0, c1, &f, &u, heat, &ref);
  struct boxmg_solver *bm;
  CHECK (boxmg_create (&bm, &op, NULL, c0, c1, coarsest) == MG_OK);
  check_bytes (bm, nx, ny, periodic, coarsest);
  struct mg_options opt = mg_default_options ();
  opt.rtol = 1e-14;
  struct mg_report report;
  CHECK (boxmg_solve (bm, &u, &f, &opt, &report) == MG_OK);
  const double error = relative_difference (&u, &ref);
  printf ("%zux%zu periodic %d%d insulated %d%d%d%d c0 %g: %zu levels, "
          "%u iterations, error %.3g\n", nx, ny, periodic[0], periodic[1],
          edges[0], edges[1], edges[2], edges[3], c0, boxmg_levels (bm),
          report.cycles, error);
  CHECK (error <= 1e-10);
  /* As many as the unit's other small maps of contrast 1e3 take.  */
  CHECK (report.cycles <= 30);
  /* u leaves with its ring in the halo.  */
  for (size_t j = 1; j <= ny && periodic[0]; ++j)
    CHECK (u.data[field_index (&u, 0, j)] == u.data[field_index (&u, nx, j)]
           && u.data[field_index (&u, nx + 1, j)]
              == u.data[field_index (&u, 1, j)]);
  boxmg_destroy (bm);
  field_free (&u);
  field_free (&f);
  field_free (&ref);
  free (op.block);
  map_free (&m);
}

/* ||f - A u|| from the map itself, as direct() assembles A.  */
static double
residual_norm (const struct map *m, const struct heat_operator *op,
               double c0, double c1, const struct field *u,
               const struct field *f)
{
  const size_t st = m->stride;
  double sum = 0.0;
  for (size_t j = 1; j <= m->ny; ++j)
    for (size_t i = 1; i <= m->nx; ++i)
      {
        const size_t p = j * st + i;
        const double r = f->data[p] - c0 * m->capacity[p] * u->data[p]
                         + c1 * heat_flow_at (u->data + p, op->wx + p,
                                              op->wy + p, (ptrdiff_t) st);
        sum += r * r;
      }
  return sqrt (sum);
}

/* A map with a source to rtol 1e-10 (or the round-off floor, which
   floating high-conductivity islands lift above it) in at most bound
   iterations, the residual checked here.  */
static void
iterations (size_t nx, size_t ny, size_t coarsest, enum kind kind,
            double contrast, const bool ins[4], double c0, unsigned bound,
            bool periodic_x, double aspect)
{
  static const char *const names[] = { "random", "layered", "checkerboard",
                                        "disks", "speckle", "crowd" };
  const double dx = 1.0 / (double) (nx + 1), dy = dx / aspect;
  const bool periodic[2] = { periodic_x, false };
  bool edges[4] = { ins[0] && !periodic_x, ins[1] && !periodic_x, ins[2],
                    ins[3] };
  struct map m;
  map_alloc (&m, nx, ny);
  map_fill (&m, kind, contrast, 7);
  map_wrap (&m, periodic);
  struct heat_operator op;
  operator_of (&op, &m, dx, dy, edges);
  op.periodic_x = periodic_x;
  struct field u, f;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&f, nx, ny));
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      /* Zero mean where the problem is singular.  */
      f.data[field_index (&f, i, j)] = ins[0] && c0 == 0.0
                                       ? (i <= nx / 2 ? 1.0 : -1.0)
                                         * (nx % 2 == 1 && i == nx / 2 + 1
                                            ? 0.0 : 1.0)
                                       : 1.0;
  struct boxmg_solver *bm;
  CHECK (boxmg_create (&bm, &op, NULL, c0, 1.0, coarsest) == MG_OK);
  struct mg_options opt = mg_default_options ();
  opt.rtol = 1e-10;
  opt.max_cycles = 50;
  struct mg_report report;
  const double r0 = residual_norm (&m, &op, c0, 1.0, &u, &f);
  CHECK (boxmg_solve (bm, &u, &f, &opt, &report) == MG_OK);
  const double r = residual_norm (&m, &op, c0, 1.0, &u, &f);
  printf ("%zux%zu %s contrast %g insulated %d periodic x %d c0 %g "
          "dx/dy %g: %zu levels, %u iterations, residual %.3g of the "
          "initial\n", nx, ny, names[kind], contrast, ins[0], periodic_x, c0,
          aspect, boxmg_levels (bm), report.cycles, r / r0);
  CHECK (report.cycles <= bound);
  CHECK (r <= 1.01e-10 * r0 || r <= 1.01 * report.floor);
  boxmg_destroy (bm);
  field_free (&u);
  field_free (&f);
  free (op.block);
  map_free (&m);
}

/* The same on square cells.  */
static void
check_iterations (size_t nx, size_t ny, size_t coarsest, enum kind kind,
                  double contrast, const bool ins[4], double c0,
                  unsigned bound, bool periodic_x)
{
  iterations (nx, ny, coarsest, kind, contrast, ins, c0, bound, periodic_x,
              1.0);
}

/* One solve of u0 and f with opt's placement into u: max_cycles
   iterations, then on to rtol 1e-12 from that state.  */
static void
solve_twice (struct boxmg_solver *bm, enum mg_placement where,
             const struct field *u0, const struct field *f, struct field *u,
             struct mg_report report[2])
{
  struct mg_options opt = mg_default_options ();
  opt.placement = where;
  opt.rtol = 1e-12;
  opt.max_cycles = 3;
  field_copy (u, u0);
  CHECK (boxmg_solve (bm, u, f, &opt, &report[0]) == MG_NOT_CONVERGED);
  opt.max_cycles = 50;
  CHECK (boxmg_solve (bm, u, f, &opt, &report[1]) == MG_OK);
}

/* Host, map and resident solves of one problem (five levels; large: two,
   a finest level the host's half cycles split into bands of rows, one
   per thread, that meet), twice
   each with the same solver: the same bits and launches; in a build
   with a device (LLVM's x86_64 host plugin has its own memory) MG_MAP
   moves the hierarchy every solve and MG_RESIDENT only at its first.  */
static void
placements (const bool ins[4], const bool periodic[2], double c0,
            bool large, unsigned long long seed, double aspect)
{
  /* Even periodic axes (rings to 6 and 4 nodes).  */
  const size_t nx = periodic[0] ? 96 : large ? 193 : 97;
  const size_t ny = periodic[1] ? 64 : large ? 125 : 61;
  const double dx = 1.0 / (double) (nx + 1), dy = dx / aspect;
  bool edges[4];
  for (int e = 0; e < 4; ++e)
    edges[e] = ins[e] && !periodic[e / 2];
  struct map m;
  map_alloc (&m, nx, ny);
  map_fill (&m, RANDOM, 1e4, seed);
  map_wrap (&m, periodic);
  struct heat_operator op;
  operator_of (&op, &m, dx, dy, edges);
  op.periodic_x = periodic[0];
  op.periodic_y = periodic[1];
  struct field u0, f, u[3];
  CHECK (field_alloc (&u0, nx, ny) && field_alloc (&f, nx, ny));
  for (int p = 0; p < 3; ++p)
    CHECK (field_alloc (&u[p], nx, ny));
  unsigned long long state = seed;
  double mean = 0.0;
  for (size_t n = 0; n < field_cells (&u0); ++n)
    {
      u0.data[n] = 10.0 * uniform (&state) - 3.0;
      f.data[n] = 1e3 * (uniform (&state) - 0.3);
      mean += f.data[n];
    }
  for (size_t n = 0; n < field_cells (&f); ++n)
    f.data[n] -= mean / (double) field_cells (&f);
  struct boxmg_solver *bm;
  /* The large one's random map wants a fine coarsest level.  */
  CHECK (boxmg_create (&bm, &op, NULL, c0, 1.0, large ? 0 : 4) == MG_OK);
  static const enum mg_placement where[3] = { MG_HOST, MG_MAP, MG_RESIDENT };
  struct mg_report report[3][2][2];
  for (int p = 0; p < 3; ++p)
    for (int t = 0; t < 2; ++t)
      solve_twice (bm, where[p], &u0, &f, &u[p], report[p][t]);
  printf ("placements %zux%zu insulated %d periodic %d%d c0 %g dx/dy %g: "
          "%zu levels, %u + %u iterations, %lu + %lu launches; bytes to the "
          "device host %llu, map %llu %llu, resident %llu %llu\n", nx, ny,
          ins[0], periodic[0], periodic[1], c0, aspect, boxmg_levels (bm),
          report[0][0][0].cycles, report[0][0][1].cycles,
          report[0][0][0].launches, report[0][0][1].launches,
          report[0][0][0].to_device, report[1][0][0].to_device,
          report[1][1][0].to_device, report[2][0][0].to_device,
          report[2][1][0].to_device);
  for (int p = 1; p < 3; ++p)
    {
      CHECK (memcmp (u[p].data, u[0].data,
                     field_cells (&u0) * sizeof (double)) == 0);
      for (int t = 0; t < 2; ++t)
        for (int s = 0; s < 2; ++s)
          CHECK (report[p][t][s].launches == report[0][t][s].launches
                 && report[p][t][s].final == report[0][t][s].final);
    }
  CHECK (report[0][0][0].to_device == 0 && report[0][0][0].from_device == 0);
#ifdef HEATSIM_OFFLOAD
  if (omp_get_num_devices () > 0)
    {
      const unsigned long long field = field_cells (&u0) * sizeof (double);
      /* u and f cross each solve; the hierarchy too for MG_MAP (its
         finest level alone is several fields); the first resident solve
         brings it, the second only the coarse level's vectors.  */
      CHECK (report[1][1][0].to_device > 6 * field);
      CHECK (report[1][1][1].to_device > 6 * field);
      CHECK (report[2][0][0].to_device > 6 * field);
      CHECK (report[2][1][0].to_device < 3 * field);
      CHECK (report[1][1][0].from_device > field);
    }
#endif
  boxmg_destroy (bm);
  field_free (&u0);
  field_free (&f);
  for (int p = 0; p < 3; ++p)
    field_free (&u[p]);
  free (op.block);
  map_free (&m);
}

/* The same on square cells.  */
static void
check_placements (const bool ins[4], const bool periodic[2], double c0,
                  bool large, unsigned long long seed)
{
  placements (ins, periodic, c0, large, seed, 1.0);
}

/* Insulated edges and a sink on the left edge's nodes (a convection
   edge) tie the temperature to an ambient one: A u = c0 rho c_p T
   + c1 sink T has the solution u = T, which neither the singular
   problem's mean nor the floating one's heat shift may move.  */
static void
check_sink (double c0, double c1, unsigned long long seed)
{
  const size_t nx = 40, ny = 27;
  const double dx = 1.0 / (double) nx, dy = 1.0 / (double) ny;
  const double ambient = 7.0;
  static const bool insulated[4] = { true, true, true, true };
  struct map m;
  map_alloc (&m, nx, ny);
  map_fill (&m, RANDOM, 1e3, seed);
  struct heat_operator op;
  operator_of (&op, &m, dx, dy, insulated);
  struct field u, f, sink;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&f, nx, ny)
         && field_alloc (&sink, nx, ny));
  unsigned long long state = seed;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = field_index (&u, i, j);
        sink.data[k] = i == 1 ? 50.0 / dx : 0.0;
        u.data[k] = 100.0 * uniform (&state);
        f.data[k] = c0 * op.capacity[k] * ambient
                    + c1 * sink.data[k] * ambient;
      }
  struct boxmg_solver *bm;
  CHECK (boxmg_create (&bm, &op, sink.data, c0, c1, 64) == MG_OK);
  struct mg_options opt = mg_default_options ();
  opt.rtol = 1e-13;
  struct mg_report report;
  CHECK (boxmg_solve (bm, &u, &f, &opt, &report) == MG_OK);
  double error = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      error = fmax (error, fabs (u.data[field_index (&u, i, j)] - ambient));
  printf ("sink c0 %g c1 %g: %u iterations, error %.3g\n", c0, c1,
          report.cycles, error);
  CHECK (error <= 1e-9 * ambient);
  /* A negative sink is refused.  */
  sink.data[field_index (&sink, 3, 3)] = -1.0;
  struct boxmg_solver *bad;
  CHECK (boxmg_create (&bad, &op, sink.data, c0, c1, 0) == MG_INVALID);
  boxmg_destroy (bm);
  field_free (&u);
  field_free (&f);
  field_free (&sink);
  free (op.block);
  map_free (&m);
}

/* The bytes of the default hierarchy of a random map of nx x ny nodes,
   built, with those periodic axes: its levels, solver arrays and
   coarsest factor.  */
static size_t
built_bytes (size_t nx, size_t ny, const bool periodic[2])
{
  static const bool fixed[4] = { false, false, false, false };
  struct map m;
  map_alloc (&m, nx, ny);
  map_fill (&m, RANDOM, 1e3, 7);
  map_wrap (&m, periodic);
  struct heat_operator op;
  operator_of (&op, &m, 1.0 / (double) nx, 1.0 / (double) ny, fixed);
  op.periodic_x = periodic[0];
  op.periodic_y = periodic[1];
  struct boxmg_solver *bm;
  CHECK (boxmg_create (&bm, &op, NULL, 0.0, 1.0, 0) == MG_OK);
  size_t factor = 0, bytes = 0;
  if (bm != NULL)
    {
      check_bytes (bm, nx, ny, periodic, 0);
      bytes = boxmg_bytes (bm, &factor) + factor;
    }
  boxmg_destroy (bm);
  free (op.block);
  map_free (&m);
  return bytes;
}

/* The memory check's estimate (footprint.c) of a steady material run
   of nx x ny nodes on one rank, with those periodic axes.  */
static size_t
estimate (size_t nx, size_t ny, const bool periodic[2])
{
  char grid[64], err[512];
  snprintf (grid, sizeof grid, "%zux%zu", nx, ny);
  /* Face cooling: a uniform material's source alone is the geometric
     multigrid's where an edge is fixed.  */
  char *argv[20] = { (char *) "heatsim", (char *) "-g", grid,
                     (char *) "--steady", (char *) "--source", (char *) "1",
                     (char *) "--thickness", (char *) "1",
                     (char *) "--surface-convection", (char *) "1,0" };
  int argc = 10;
  if (periodic[0])
    {
      argv[argc++] = (char *) "--bc";
      argv[argc++] = (char *) "left=periodic";
      argv[argc++] = (char *) "--bc";
      argv[argc++] = (char *) "right=periodic";
    }
  if (periodic[1])
    {
      argv[argc++] = (char *) "--bc";
      argv[argc++] = (char *) "bottom=periodic";
      argv[argc++] = (char *) "--bc";
      argv[argc++] = (char *) "top=periodic";
    }
  argv[argc] = NULL;
  struct config cfg;
  const enum options_action action = options_parse (argc, argv, &cfg, err,
                                                    sizeof err);
  CHECK (action == OPTIONS_RUN);
  if (action != OPTIONS_RUN)
    fprintf (stderr, "%s\n", err);
  const struct domain d = { .ranks = 1, .dims = { 1, 1 }, .nx = nx,
                            .ny = ny, .local_nx = nx, .local_ny = ny };
  const size_t bytes = run_footprint (&cfg, &d).bytes;
  options_free (&cfg);
  return bytes;
}

/* A periodic axis widens the coarsest level's band factor (and one of
   odd length stops the coarsening): the memory check's estimate grows
   by what the hierarchy built grows by, against the same grid without
   rings.  192 x 96 coarsens to 96 x 48 either way, its band 49 without
   rings and up to 98 with; 193 x 96 with x periodic does not coarsen,
   and its band is 193.  */
static void
check_footprint (void)
{
  static const bool open[2] = { false, false };
  static const bool rings[4][2] = { { true, false }, { false, true },
                                    { true, true }, { true, false } };
  static const size_t sizes[4][2] = { { 192, 96 }, { 192, 96 },
                                      { 192, 96 }, { 193, 96 } };
  for (int r = 0; r < 4; ++r)
    {
      const size_t nx = sizes[r][0], ny = sizes[r][1];
      const size_t plain = built_bytes (nx, ny, open);
      const size_t ring = built_bytes (nx, ny, rings[r]);
      const size_t plain_estimate = estimate (nx, ny, open);
      const size_t ring_estimate = estimate (nx, ny, rings[r]);
      printf ("%zux%zu periodic %d%d: hierarchy %zu bytes, %zu with rings; "
              "estimate %zu, %zu\n", nx, ny, rings[r][0], rings[r][1],
              plain, ring, plain_estimate, ring_estimate);
      CHECK (ring != plain);
      CHECK (ring_estimate - plain_estimate == ring - plain);
    }
}

int
main (void)
{
  static const bool dirichlet[4] = { false, false, false, false };
  static const bool walls[4] = { false, false, true, true };
  static const bool corner[4] = { true, false, false, true };
  static const bool insulated[4] = { true, true, true, true };
  /* One level; two; four (odd and even ends, a level of 3 x 2); five
     down to 2 x 3 (the default: two levels).  One level of a strip 3
     nodes across (its band factor split into halves of 19 lines and
     a separator of 3 nodes), and one of 7 lines, too few to split.  */
  const size_t sizes[][3] = { { 17, 13, 0 }, { 20, 20, 100 },
                              { 33, 18, 6 }, { 40, 54, 4 },
                              { 97, 61, 0 }, { 3, 40, 0 }, { 7, 7, 0 } };
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s)
    {
      const size_t nx = sizes[s][0], ny = sizes[s][1], coarsest = sizes[s][2];
      check_direct (nx, ny, coarsest, 1e3, dirichlet, 0.0, 1.0, 11 + s);
      check_direct (nx, ny, coarsest, 1e3, walls, 0.0, 1.0, 21 + s);
      check_direct (nx, ny, coarsest, 1e2, corner, 0.0, 1.0, 31 + s);
      check_direct (nx, ny, coarsest, 1e2, insulated, 0.0, 1.0, 41 + s);
      check_direct (nx, ny, coarsest, 1e3, insulated, 1.0, 1e-2, 51 + s);
      check_direct (nx, ny, coarsest, 1e3, dirichlet, 1.0, 0.3, 61 + s);
    }
  check_sink (0.0, 1.0, 81);
  check_sink (1.0, 0.5, 82);
  check_footprint ();
  static const bool open[2] = { false, false };
  check_placements (insulated, open, 0.0, false, 71);
  check_placements (corner, open, 1.0, false, 72);
  /* Three bands of about 40 rows, whatever the machine.  */
  const int threads = omp_get_max_threads ();
  omp_set_num_threads (3);
  check_placements (insulated, open, 0.0, true, 81);
  check_placements (corner, open, 1.0, true, 82);
  /* Line smoothers: rows (dx/dy 1/20), columns (20), whose threads
     each take a share of the columns on the host.  */
  placements (insulated, open, 0.0, false, 83, 1.0 / 20);
  placements (corner, open, 1.0, false, 84, 20.0);
  placements (insulated, open, 0.0, true, 85, 20.0);
  placements (corner, open, 1.0, true, 86, 1.0 / 20);
  /* Lines across a periodic axis: columns on an x ring, rows on a y
     ring.  */
  static const bool ring_x[2] = { true, false }, ring_y[2] = { false, true };
  placements (insulated, ring_x, 0.0, false, 87, 20.0);
  placements (corner, ring_y, 1.0, false, 88, 1.0 / 20);
  omp_set_num_threads (threads);
  /* Periodic axes: x, y, both.  */
  static const bool rings[3][2] = { { true, false }, { false, true },
                                    { true, true } };
  /* 4 x 30 on one level: a ring of 4 nodes across a split strip (x),
     or a ring of 30 lines along it (y), which no separator line cuts
     in two: not split.  */
  const size_t periodic_sizes[][3] = { { 17, 13, 0 }, { 24, 20, 6 },
                                       { 32, 16, 4 }, { 40, 54, 4 },
                                       { 4, 30, 0 } };
  for (int r = 0; r < 3; ++r)
    {
      for (size_t s = 0; s < sizeof periodic_sizes / sizeof *periodic_sizes;
           ++s)
        {
          const size_t nx = periodic_sizes[s][0], ny = periodic_sizes[s][1];
          const size_t coarsest = periodic_sizes[s][2];
          check_periodic (nx, ny, coarsest, dirichlet, rings[r], 0.0, 1.0,
                          91 + s);
          check_periodic (nx, ny, coarsest, insulated, rings[r], 0.0, 1.0,
                          95 + s);
          check_periodic (nx, ny, coarsest, walls, rings[r], 1.0, 0.1,
                          99 + s);
        }
      check_placements (insulated, rings[r], 0.0, false, 73 + (unsigned) r);
      check_placements (corner, rings[r], 1.0, false, 76 + (unsigned) r);
    }
  /* The target of issue 23: zero Dirichlet edges, a uniform source,
     contrast 1e6, at most 12 iterations; singular and implicit
     (c0 = 1, c1 = 1: a long step) with insulated edges, where the
     islands float, at most 24.  */
  for (enum kind kind = LAYERED; kind <= DISKS; ++kind)
    {
      /* Three and four levels by default.  */
      check_iterations (257, 257, 0, kind, 1e6, dirichlet, 0.0, 12, false);
      check_iterations (513, 513, 0, kind, 1e6, dirichlet, 0.0, 12, false);
      /* Deeper hierarchies of smaller grids.  */
      check_iterations (128, 128, 1024, kind, 1e6, dirichlet, 0.0, 12,
                        false);
      check_iterations (129, 129, 1024, kind, 1e6, dirichlet, 0.0, 12,
                        false);
      check_iterations (65, 65, 256, kind, 1e6, insulated, 0.0, 24, false);
      check_iterations (65, 65, 256, kind, 1e6, insulated, 1.0, 24, false);
      /* A periodic x axis keeps the bound.  */
      check_iterations (128, 128, 1024, kind, 1e6, dirichlet, 0.0, 12, true);
      check_iterations (256, 256, 0, kind, 1e6, dirichlet, 0.0, 12, true);
    }
  /* 150 disks, many nearly touching, on deep hierarchies: the gaps
     thinner than a coarse cell left a few modes the V-cycle hardly
     reduced, and without deflation (boxmg_deflate.c) these took 13 to
     33 iterations (contrast 1e6: 21 on 257^2 and five levels, 26 on
     320^2 and six, 33 on 200^2 and six, 15 on 511^2 and five; 1e4: 23
     and 13 on the last two); with it 7 to 10.  */
  check_iterations (257, 257, 256, CROWD, 1e6, dirichlet, 0.0, 12, false);
  check_iterations (320, 320, 256, CROWD, 1e6, dirichlet, 0.0, 12, false);
  check_iterations (200, 200, 64, CROWD, 1e6, dirichlet, 0.0, 12, false);
  check_iterations (511, 511, 1024, CROWD, 1e6, dirichlet, 0.0, 12, false);
  check_iterations (200, 200, 64, CROWD, 1e4, dirichlet, 0.0, 12, false);
  check_iterations (511, 511, 1024, CROWD, 1e4, dirichlet, 0.0, 12, false);
  /* Singular (insulated, c0 = 0): 42 and 16 before, 11 and 10 now.  */
  check_iterations (320, 320, 256, CROWD, 1e6, insulated, 0.0, 14, false);
  check_iterations (256, 256, 256, CROWD, 1e6, insulated, 0.0, 14, true);
  /* Nodes of k = 100 or 1 at random: positive couplings in the Galerkin
     operators, which interpolation lumps onto the centre; without that
     98 iterations on three levels, over 100 on four (hypre's SMG-CG:
     30).  */
  check_iterations (513, 513, 0, SPECKLE, 1e2, dirichlet, 0.0, 30, false);
  check_iterations (257, 257, 1024, SPECKLE, 1e2, dirichlet, 0.0, 30, false);
  /* Cells far from square: the point smoother alone took 21 iterations
     at dx/dy = 5, 81 at 25 and did not converge at 50 (a 256 x 128
     strip); none of these converged in 50 iterations at dx/dy = 1/50
     or 50, and they took 34 to 48 at 1/8 and 8.  Lines along the short
     side (boxmg_internal.h) give a uniform material and a layered wall
     their square-cell figures, other maps at most 45 (30 to 42 at
     dx/dy = 50).  */
  static const double aspects[] = { 1.0 / 50, 1.0 / 8, 8.0, 50.0 };
  for (size_t a = 0; a < sizeof aspects / sizeof *aspects; ++a)
    {
      iterations (257, 129, 0, LAYERED, 1.0, dirichlet, 0.0, 8, false,
                  aspects[a]);
      iterations (257, 129, 0, LAYERED, 1e4, dirichlet, 0.0, 12, false,
                  aspects[a]);
      iterations (128, 96, 64, LAYERED, 1.0, walls, 0.0, 8, false,
                  aspects[a]);
      iterations (128, 96, 64, LAYERED, 1e4, dirichlet, 0.0, 12, false,
                  aspects[a]);
      for (enum kind kind = RANDOM; kind <= DISKS; ++kind)
        iterations (128, 96, 64, kind, 1e2, walls, 0.0, 45, false,
                    aspects[a]);
    }
  /* Columns across a periodic x axis (lines never run along one).  */
  iterations (128, 96, 64, LAYERED, 1e4, dirichlet, 0.0, 12, true, 50.0);
  iterations (256, 128, 0, LAYERED, 1.0, dirichlet, 0.0, 8, true, 50.0);
  return unit_exit ();
}
