/* Geometric multigrid on nested, per-axis coarsened grids (multigrid.h).

   One axis of one level is a row of points p_0 .. p_N joined by N
   intervals.  Without periodicity, p_1 .. p_{N-1} are the unknowns and
   p_0, p_N the ends: a Dirichlet node, or for a zero-flux end a virtual
   point on the face half a cell out, joined by an interval that carries no
   flux.  With periodicity p_0 .. p_{N-1} are the unknowns and p_N is p_0
   one period on.  Each interval k has a conductance g_k (1 / its length,
   0 for a zero-flux end) and each unknown a lumped volume d_i; the 1-D
   operator is  (L u)_i = [g_right (u_i+1 - u_i) - g_left (u_i - u_i-1)] / d_i.

   Coarsening an axis merges its intervals in pairs, but for the half-cell
   interval of a zero-flux end (the node next to the face stays a coarse
   node); an odd count leaves the widest interval at an even place
   unmerged, which keeps coarse spacings within a factor of about 2 of each
   other.  The coarse points are fine points, interpolation P is linear in
   position, the coarse volumes are P^T d and the coarse conductances
   1 / length: P^T K P in 1-D exactly.  Restriction is R = D_c^-1 P^T D_f,
   an average, so the coarse equation is A_c e = R r with
   A_c = c0 I - c1 (L_x + L_y) of the coarse axes.

   The kernels are plain functions over double arrays with a stride, their
   scalars in locals, so that each can be repeated as a target region.  */
#include <config.h>

#include "multigrid.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "domain.h"

/* The coarsest level: at most this many unknowns, solved by a dense
   inverse (a level that cannot be coarsened has 3 x 3 or fewer).  */
enum { DENSE_MAX = 64 };

/* A coarse level of a split hierarchy stays split while every rank keeps
   at least this many of its unknowns along each split axis; below, the
   levels are whole on every rank (a few cells per rank would cost a
   message per sweep for next to no work).  */
enum { SPLIT_MIN = 4 };

/* Loops over fewer cells run on one thread: on the coarse levels a fork
   and join of the team costs more than the work.  */
enum { PARALLEL_MIN = 1 << 14 };

struct level {
  size_t nx, ny, stride;
  /* In a hierarchy split over MPI ranks (mg_create_part): whether this
     level is this rank's part of the whole level, and that part's place
     in it, unknowns x0 + 1 .. x0 + nx (0 for a whole level).  */
  bool split;
  size_t x0, y0;
  /* The nodes restricted to from the next finer level, and prolonged
     from to it: wnx x wny from (wx0 + 1, wy0 + 1) of this level's arrays
     (all of them but below the last split level, whose rank computes
     the nodes of its own part only).  */
  size_t wx0, wy0, wnx, wny;
  double *u, *f, *r;            /* u is the caller's on the finest level */
  bool zero_f;                  /* f is 0 (the finest level of a solve
                                   without f): the host kernels skip it */
  double *axm, *axp;            /* c1 times the x weights, nx + 2 */
  double *aym, *ayp;            /* c1 times the y weights, ny + 2 */
  /* Transfers from the next finer level (not on the finest): restriction
     to coarse node I gathers fine nodes rxi[3I .. 3I+2] with weights rxw;
     prolongation to fine node i reads coarse pxi[i] (weight pxw[i]) and
     pxi[i] + 1 (1 - pxw[i]).  */
  size_t *rxi, *ryi, *pxi, *pyi;
  double *rxw, *ryw, *pxw, *pyw;
  double *inverse;              /* coarsest only: A^-1, (nx ny)^2 doubles */
  double *part;                 /* finest only: the partial sums of norms */
  void *block;                  /* everything above, one allocation */
  size_t bytes;                 /* of block */
};

struct mg_solver {
  size_t count;                 /* levels */
  const struct domain *domain;  /* the ranks of a split hierarchy, or NULL */
  double cells;                 /* unknowns of the whole finest level */
  double c0;
  bool singular;                /* c0 = 0 and no Dirichlet edge */
  bool closed;                  /* no Dirichlet edge: the sum of A u is
                                   c0 times u's */
  enum boundary_kind kind[EDGE_COUNT];
  bool resident;                /* the blocks are on device (MG_RESIDENT) */
  int device;
  /* Host scratch: three rows of the widest level for each of up to
     row_threads threads (restrict_host, prolong_host).  */
  double *rows;
  size_t row_threads, row_width;
  struct level level[MG_MAX_LEVELS];
};

/* ------------------------------------------------------------- kernels

   Every kernel exists as a host loop (parallel for, serial below
   PARALLEL_MIN cells) and as a target loop with no map clause, which
   finds its arrays in the device data environment: the hierarchy entered
   by level_enter (MG_RESIDENT) or the sections a MG_MAP dispatcher maps
   around it.  Both loops call the same cell functions, declared for the
   device, or (restriction, prolongation, norms) the host splits or
   reorders the loops the way a CPU prefers but computes each value by
   the same operations in the same order: every placement gives bitwise
   the same numbers on one processor.  No kernel reduces with an OpenMP
   reduction, whose order depends on the threads and teams (see the
   norms below).  Target loops count in 32 bits
   (valid_solve keeps a device solve's finest grid below INT_MAX cells);
   cell functions take a pointer to their cell and a stride, as heat_cell
   does in kernels.c.  */

/* Rows summed by one partial sum of a norm: a band of rows per column,
   so that neighbouring device threads read neighbouring addresses.  */
enum { NORM_BAND = 32 };

/* Where the kernels of one solve run, and what they cost: launches
   counts target regions (host loops for MG_HOST, one per kernel the same
   way, so the counts of all placements agree), bytes the explicit
   transfers of this solve (all placements count what MG_MAP and
   MG_RESIDENT would move; MG_HOST moves nothing).  */
struct exec {
  enum mg_placement where;
  int device;
  unsigned long launches;
  unsigned long long to_device, from_device;
  size_t at;                        /* the level the kernels work on */
  const struct mg_solver *mg;       /* MG_HOST: its rows, where they
                                       suffice for the threads, else NULL */
  unsigned level[MG_MAX_LEVELS];    /* launches on each level */
};

static void
count_launches (struct exec *x, unsigned n)
{
  x->launches += n;
  x->level[x->at] += n;
}

/* Source lines of the halo of each edge: the interior line copied into
   it, 0 for a Dirichlet edge, whose halo stays.  corners: fill the
   corners of a doubly periodic grid too (prolongation reads them).  */
struct halo_src {
  ptrdiff_t left, right, bottom, top;
  bool corners;
};

#pragma omp declare target
/* Halo cells of line k = 0 .. max (nx, ny): cell k of the bottom and top
   rows, cell k of the side columns, and with k = 0 the four corners.  A
   corner reads the interior cell its row and column copy from, the value
   the sequential order (rows, then full columns) gives it.  */
static inline void
halo_at (double *u, ptrdiff_t k, ptrdiff_t nx, ptrdiff_t ny, ptrdiff_t s,
         ptrdiff_t ls, ptrdiff_t rs, ptrdiff_t bs, ptrdiff_t ts,
         bool corners)
{
  if (k >= 1 && k <= nx)
    {
      if (bs != 0)
        u[k] = u[bs * s + k];
      if (ts != 0)
        u[(ny + 1) * s + k] = u[ts * s + k];
    }
  if (k >= 1 && k <= ny)
    {
      if (ls != 0)
        u[k * s] = u[k * s + ls];
      if (rs != 0)
        u[k * s + nx + 1] = u[k * s + rs];
    }
  if (k == 0 && corners)
    {
      u[0] = u[bs * s + ls];
      u[nx + 1] = u[bs * s + rs];
      u[(ny + 1) * s] = u[ts * s + ls];
      u[(ny + 1) * s + nx + 1] = u[ts * s + rs];
    }
}

/* f - A u at the cell u points at (f its right-hand side), and in *scale
   the sum of the magnitudes of its terms, the scale of its round-off,
   plus diag DBL_MIN: where u is subnormal its spacing, DBL_TRUE_MIN =
   eps DBL_MIN, not its magnitude, bounds how close an iterate can get
   (the term is lost to rounding wherever u is normal).  */
static inline double
residual_at (const double *u, double f, ptrdiff_t s, double xm, double xp,
             double ym, double yp, double c0, double *scale)
{
  const double diag = c0 + ym + yp + xm + xp;
  const double centre = diag * u[0];
  const double west = xm * u[-1], east = xp * u[1];
  const double south = ym * u[-s], north = yp * u[s];
  *scale = fabs (f) + fabs (centre) + fabs (west) + fabs (east)
           + fabs (south) + fabs (north) + diag * DBL_MIN;
  return f - (centre - west - east - south - north);
}

/* One red-black SOR update of the cell u points at: omega of the way to
   its Gauss-Seidel value, in place.  The sum is multiplied by the
   reciprocal of the diagonal, which a run of equal diagonals computes
   once (smooth_span_even): a division per cell would bound the host
   loop.  */
static inline void
smooth_at (double *u, double f, ptrdiff_t s, double xm, double xp,
           double ym, double yp, double c0, double omega)
{
  const double inverse = 1.0 / (c0 + ym + yp + xm + xp);
  const double gs = (f + xm * u[-1] + xp * u[1] + ym * u[-s] + yp * u[s])
                    * inverse;
  u[0] += omega * (gs - u[0]);
}

/* (R (f - A u)) at coarse node (I, J): the fine residual at the up to 3 x
   3 fine nodes it gathers, computed where it is used rather than stored
   (a fine node is read by up to four coarse nodes: 2.25 residuals per
   fine node instead of a write and a read of r).  */
static inline double
restrict_at (const double *u, const double *f, ptrdiff_t s,
             const double *axm, const double *axp, const double *aym,
             const double *ayp, double c0, const size_t *rxi,
             const double *rxw, const size_t *ryi, const double *ryw,
             size_t I, size_t J)
{
  double sum = 0.0, scale;
  for (size_t k = 3 * I; k < 3 * I + 3; ++k)
    {
      const size_t i = rxi[k];
      double col = 0.0;
      for (size_t m = 3 * J; m < 3 * J + 3; ++m)
        {
          const size_t j = ryi[m];
          const size_t c = j * (size_t) s + i;
          const double r = residual_at (u + c, f[c], s, axm[i], axp[i],
                                        aym[j], ayp[j], c0, &scale);
          col = m == 3 * J ? ryw[m] * r : col + ryw[m] * r;
        }
      sum += rxw[k] * col;
    }
  return sum;
}

/* (P uc) at fine node (i, j): linear in y between coarse rows, then in
   x between coarse columns.  */
static inline double
prolong_at (const double *uc, size_t sc, const size_t *pxi,
            const double *pxw, const size_t *pyi, const double *pyw,
            size_t i, size_t j)
{
  const double *lo = uc + pyi[j] * sc, *hi = lo + sc;
  const double wy = pyw[j], wx = pxw[i];
  const size_t I = pxi[i];
  const double t0 = wy * lo[I] + (1.0 - wy) * hi[I];
  const double t1 = wy * lo[I + 1] + (1.0 - wy) * hi[I + 1];
  return wx * t0 + (1.0 - wx) * t1;
}

/* Cell k of the n = nx ny unknowns of a level, row by row.  */
static inline size_t
unknown_cell (size_t k, size_t nx, size_t s)
{
  return (k / nx + 1) * s + k % nx + 1;
}

/* Row p of A^-1 times the residual vector r (n entries).  */
static inline double
dense_row (const double *inverse, const double *r, size_t n, size_t p)
{
  double sum = 0.0;
  for (size_t q = 0; q < n; ++q)
    sum += inverse[p * n + q] * r[q];
  return sum;
}

/* Sums of column i over the rows of band b of the residual norms
   (rr, mm), each term scaled by sr (of the residual) and sm (of its
   scale) first, or, without f, of u itself (sum, 0).  Rows in order.  */
static inline void
band_sums (const double *u, const double *f, size_t s, const double *axm,
           const double *axp, const double *aym, const double *ayp,
           double c0, size_t ny, size_t b, size_t i, double sr, double sm,
           double *rr, double *mm)
{
  const size_t j1 = (b + 1) * NORM_BAND < ny ? (b + 1) * NORM_BAND : ny;
  double a = 0.0, m = 0.0;
  for (size_t j = b * NORM_BAND + 1; j <= j1; ++j)
    {
      const size_t c = j * s + i;
      if (f == NULL)
        {
          a += u[c];
          continue;
        }
      double scale;
      const double r = sr * residual_at (u + c, f[c], (ptrdiff_t) s, axm[i],
                                         axp[i], aym[j], ayp[j], c0, &scale);
      scale *= sm;
      a += r * r;
      m += scale * scale;
    }
  *rr = a;
  *mm = m;
}
#pragma omp end declare target

/* Bands of a norm's partial sums, and the doubles of those sums: two
   quantities per column and band, then two per column.  */
static size_t
norm_bands (size_t ny)
{
  return (ny + NORM_BAND - 1) / NORM_BAND;
}

static size_t
norm_scratch (size_t nx, size_t ny)
{
  return 2 * nx * (norm_bands (ny) + 1);
}

/* Count the bytes of sections a MG_MAP kernel maps: to the device, and
   (tofrom) back.  */
static void
count_map (struct exec *x, size_t to, size_t tofrom)
{
  x->to_device += to + tofrom;
  x->from_device += tofrom;
}

/* ---- halo */

static void
halo_host (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
           double *u)
{
  const ptrdiff_t ls = h->left, rs = h->right, bs = h->bottom, ts = h->top;
  const bool corners = h->corners;
  const ptrdiff_t n = (ptrdiff_t) (nx > ny ? nx : ny), s = (ptrdiff_t) stride;
#pragma omp parallel for schedule(static) if (n >= PARALLEL_MIN)
  for (ptrdiff_t k = 0; k <= n; ++k)
    halo_at (u, k, (ptrdiff_t) nx, (ptrdiff_t) ny, s, ls, rs, bs, ts,
             corners);
}

static void
halo_target (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
             double *u, int device)
{
  const ptrdiff_t ls = h->left, rs = h->right, bs = h->bottom, ts = h->top;
  const bool corners = h->corners;
  const int n = (int) (nx > ny ? nx : ny), s = (int) stride;
  const int inx = (int) nx, iny = (int) ny;
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 0; k <= n; ++k)
    halo_at (u, k, inx, iny, s, ls, rs, bs, ts, corners);
}

/* Fill the halo lines of u that copy an interior line; nothing (and no
   launch) when every edge is Dirichlet.  */
static void
k_halo (struct exec *x, const struct halo_src *h, size_t nx, size_t ny,
        size_t stride, double *u)
{
  if (h->left == 0 && h->right == 0 && h->bottom == 0 && h->top == 0)
    return;
  count_launches (x, 1);
  const size_t cells = stride * (ny + 2);
  switch (x->where)
    {
    case MG_HOST:
      halo_host (h, nx, ny, stride, u);
      break;
    case MG_MAP:
      count_map (x, 0, cells * sizeof *u);
#pragma omp target data map(tofrom: u[0:cells]) device(x->device)
      halo_target (h, nx, ny, stride, u, x->device);
      break;
    case MG_RESIDENT:
      halo_target (h, nx, ny, stride, u, x->device);
      break;
    }
}

/* ---- rows of the host kernels.  Most columns of a level have the same
   x weights (all of an evenly spaced finest level with Dirichlet ends;
   all but a few where an odd interval count left one unmerged, and by
   zero-flux ends, on the others).  A row runs over those in registers,
   the others from the arrays: the same operations in the same order, so
   the same bits, but with two loads fewer per cell and, in the smoother,
   a division per run instead of per cell.  On the host these loops wait
   on loads and divisions, not on memory.  */

enum { RUNS_MAX = 8 };
/* Shorter stretches are left to the table-driven loops: a vector loop
   over so few nodes costs more than it saves.  */
enum { RUN_MIN = 4 };

/* The columns 1 .. nx of a level as runs first[k] .. last[k], of the
   weights xm, xp (even[k]) or of the arrays.  */
struct row_runs {
  size_t count;
  size_t first[RUNS_MAX], last[RUNS_MAX];
  bool even[RUNS_MAX];
  double xm, xp;
};

/* The common weights are those of a column a quarter of the way in,
   away from the ends and from a middle left unmerged; past RUNS_MAX - 1
   runs the rest of the row reads the arrays.  */
static void
row_runs (size_t nx, const double *axm, const double *axp,
          struct row_runs *runs)
{
  const size_t c = (nx + 3) / 4;
  runs->xm = axm[c];
  runs->xp = axp[c];
  runs->count = 0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const bool even = axm[i] == runs->xm && axp[i] == runs->xp;
      const size_t k = runs->count;
      if (k > 0 && (runs->even[k - 1] == even || k == RUNS_MAX))
        {
          runs->even[k - 1] = runs->even[k - 1] && even;
          runs->last[k - 1] = i;
          continue;
        }
      runs->first[k] = runs->last[k] = i;
      runs->even[k] = even;
      runs->count = k + 1;
    }
}

/* Runs first[k] .. last[k] of the nodes of a level along x where a
   transfer's tables follow a pattern that a loop can spell out: loops
   that index through the tables do not vectorise profitably.  */
struct regular_runs {
  size_t count;
  size_t first[RUNS_MAX], last[RUNS_MAX];
};

/* The cells of one colour in columns first .. last of row j; f NULL
   for a zero right-hand side, read as 0.0: the same sums, so the same
   bits, without its loads.  */
static inline void
smooth_span (size_t first, size_t last, size_t s, double *restrict u,
             const double *restrict f, const double *restrict axm,
             const double *restrict axp, double ym, double yp, double c0,
             double omega, unsigned color, size_t j)
{
  for (size_t i = first + ((first + j + color) & 1); i <= last; i += 2)
    smooth_at (u + j * s + i, f != NULL ? f[j * s + i] : 0.0, (ptrdiff_t) s,
               axm[i], axp[i], ym, yp, c0, omega);
}

/* smooth_span with the x weights xm and xp in every column: the cells
   of one colour are independent, so the loop over them vectorises.  */
static inline void
smooth_span_even (size_t first, size_t last, size_t s, double *restrict u,
                  const double *restrict f, double xm, double xp, double ym,
                  double yp, double c0, double omega, unsigned color,
                  size_t j)
{
  const double inverse = 1.0 / (c0 + ym + yp + xm + xp);
  double *restrict row = u + j * s;
  const double *restrict south = row - s, *restrict north = row + s;
  const double *restrict fr = f != NULL ? f + j * s : NULL;
  const size_t i0 = first + ((first + j + color) & 1);
  if (i0 > last)
    return;
  const size_t n = (last - i0) / 2 + 1;
#pragma omp simd
  for (size_t h = 0; h < n; ++h)
    {
      const size_t i = i0 + 2 * h;
      const double gs = ((fr != NULL ? fr[i] : 0.0) + xm * row[i - 1]
                         + xp * row[i + 1] + ym * south[i] + yp * north[i])
                        * inverse;
      row[i] += omega * (gs - row[i]);
    }
}

/* The cells of one colour in row j (f NULL: zero).  The even runs
   call smooth_span_even with a NULL that the compiler sees, for a loop
   without the test or the loads.  */
static inline void
smooth_row (const struct row_runs *runs, size_t s, double *restrict u,
            const double *restrict f, const double *restrict axm,
            const double *restrict axp, const double *restrict aym,
            const double *restrict ayp, double c0, double omega,
            unsigned color, size_t j)
{
  for (size_t k = 0; k < runs->count; ++k)
    if (runs->even[k] && f == NULL)
      smooth_span_even (runs->first[k], runs->last[k], s, u, NULL, runs->xm,
                        runs->xp, aym[j], ayp[j], c0, omega, color, j);
    else if (runs->even[k])
      smooth_span_even (runs->first[k], runs->last[k], s, u, f, runs->xm,
                        runs->xp, aym[j], ayp[j], c0, omega, color, j);
    else
      smooth_span (runs->first[k], runs->last[k], s, u, f, axm, axp, aym[j],
                   ayp[j], c0, omega, color, j);
}

/* f - A u in columns first .. last of row j into out: with the weights
   xm, xp, or where axm is not NULL those of the arrays; f NULL: zero.  */
static inline void
residual_span (size_t first, size_t last, size_t s, const double *restrict u,
               const double *restrict f, double *restrict out,
               const double *restrict axm, const double *restrict axp,
               double xm, double xp, double ym, double yp, double c0,
               size_t j)
{
  const size_t c = j * s;
  double scale;
  for (size_t i = first; i <= last; ++i)
    out[i] = residual_at (u + c + i, f != NULL ? f[c + i] : 0.0,
                          (ptrdiff_t) s, axm != NULL ? axm[i] : xm,
                          axp != NULL ? axp[i] : xp, ym, yp, c0, &scale);
}

/* Row j of f - A u into out[1 .. nx] (f NULL: zero).  The NULLs of the
   even runs are spelled out, as in smooth_row.  */
static inline void
residual_row (const struct row_runs *runs, size_t s,
              const double *restrict u, const double *restrict f,
              double *restrict out, const double *restrict axm,
              const double *restrict axp, double ym, double yp, double c0,
              size_t j)
{
  for (size_t k = 0; k < runs->count; ++k)
    {
      const size_t first = runs->first[k], last = runs->last[k];
      const double xm = runs->xm, xp = runs->xp;
      if (!runs->even[k])
        residual_span (first, last, s, u, f, out, axm, axp, xm, xp, ym, yp,
                       c0, j);
      else if (f == NULL)
        residual_span (first, last, s, u, NULL, out, NULL, NULL, xm, xp, ym,
                       yp, c0, j);
      else
        residual_span (first, last, s, u, f, out, NULL, NULL, xm, xp, ym, yp,
                       c0, j);
    }
}

/* Columns first .. last of row j's terms of the residual norms added to
   the column sums rr (of the squares) and mm (of the squared scales),
   column i at i - 1, scaled as in band_sums; weights and f as in
   residual_span.  */
static inline void
norm_span (size_t first, size_t last, size_t s, const double *restrict u,
           const double *restrict f, const double *restrict axm,
           const double *restrict axp, double xm, double xp, double ym,
           double yp, double c0, double sr, double sm, double *restrict rr,
           double *restrict mm, size_t j)
{
  const size_t c = j * s;
  double scale;
  for (size_t i = first; i <= last; ++i)
    {
      const double r = sr * residual_at (u + c + i,
                                         f != NULL ? f[c + i] : 0.0,
                                         (ptrdiff_t) s,
                                         axm != NULL ? axm[i] : xm,
                                         axp != NULL ? axp[i] : xp, ym, yp,
                                         c0, &scale);
      scale *= sm;
      rr[i - 1] += r * r;
      mm[i - 1] += scale * scale;
    }
}

/* Row j's terms of the residual norms (f NULL: zero), as residual_row.  */
static inline void
norm_row (const struct row_runs *runs, size_t s, const double *restrict u,
          const double *restrict f, const double *restrict axm,
          const double *restrict axp, double ym, double yp, double c0,
          double sr, double sm, double *restrict rr, double *restrict mm,
          size_t j)
{
  for (size_t k = 0; k < runs->count; ++k)
    {
      const size_t first = runs->first[k], last = runs->last[k];
      const double xm = runs->xm, xp = runs->xp;
      if (!runs->even[k])
        norm_span (first, last, s, u, f, axm, axp, xm, xp, ym, yp, c0, sr,
                   sm, rr, mm, j);
      else if (f == NULL)
        norm_span (first, last, s, u, NULL, NULL, NULL, xm, xp, ym, yp, c0,
                   sr, sm, rr, mm, j);
      else
        norm_span (first, last, s, u, f, NULL, NULL, xm, xp, ym, yp, c0, sr,
                   sm, rr, mm, j);
    }
}

/* L's right-hand side for the host kernels: NULL where it is zero.
   solve () then still fills L->f with +0.0 (0.0 + -0.0 is +0.0), so
   the device kernels, which read it, and the host ones, which take
   NULL as 0.0, form the same sums bit for bit.  */
static const double *
host_f (const struct level *L)
{
  return L->zero_f ? NULL : L->f;
}

/* ---- red-black smoothing, one colour */

static void
smooth_host (size_t nx, size_t ny, size_t s, double *restrict u,
             const double *restrict f, const double *restrict axm,
             const double *restrict axp, const double *restrict aym,
             const double *restrict ayp, double c0, double omega,
             unsigned color)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    smooth_row (&runs, s, u, f, axm, axp, aym, ayp, c0, omega, color, j);
}

/* Both colours of a sweep (color, then the other) in one pass over the
   rows, for a level whose halo is not refreshed between them: each
   thread takes a band of rows, j0 .. j1, and updates the first colour
   in row j, then the second in row j - 1, whose neighbours of the first
   colour are then all new; the second colour's rows j0 and j1, whose
   neighbours lie in the bands beside, wait for every band.  Every cell
   sees the values the two passes of smooth_host give it, so the result
   is bitwise theirs, from one read of the level instead of two.  */
static void
sweep_host (size_t nx, size_t ny, size_t s, double *restrict u,
            const double *restrict f, const double *restrict axm,
            const double *restrict axp, const double *restrict aym,
            const double *restrict ayp, double c0, double omega,
            unsigned color)
{
  const unsigned other = color ^ 1;
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel if (nx * ny >= PARALLEL_MIN)
  {
    const size_t bands = (size_t) omp_get_num_threads ();
    const size_t b = (size_t) omp_get_thread_num ();
    const size_t j0 = 1 + ny * b / bands, j1 = ny * (b + 1) / bands;
    for (size_t j = j0; j <= j1; ++j)
      {
        smooth_row (&runs, s, u, f, axm, axp, aym, ayp, c0, omega, color, j);
        if (j > j0 + 1)
          smooth_row (&runs, s, u, f, axm, axp, aym, ayp, c0, omega, other,
                      j - 1);
      }
#pragma omp barrier
    if (j0 <= j1)
      smooth_row (&runs, s, u, f, axm, axp, aym, ayp, c0, omega, other, j0);
    if (j0 < j1)
      smooth_row (&runs, s, u, f, axm, axp, aym, ayp, c0, omega, other, j1);
  }
}

/* The cells of one colour are every other cell of a row: the loop runs
   over half a row, rounded up, and skips the one past the end.  */
static void
smooth_target (int nx, int ny, int s, double *restrict u,
               const double *restrict f, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0, double omega,
               int color, int device)
{
  const int half = (nx + 1) / 2;
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int h = 0; h < half; ++h)
      {
        const int i = 1 + ((1 + j + color) & 1) + 2 * h;
        if (i <= nx)
          smooth_at (u + j * s + i, f[j * s + i], s, axm[i], axp[i], aym[j],
                     ayp[j], c0, omega);
      }
}

static void k_smooth (struct exec *x, const struct level *L, double c0,
                      double omega, unsigned color);

/* Both colours of a red-black sweep, color first, on a level whose halo
   needs no refresh between them: one pass on the host (the two kernels
   it stands for counted), the two kernels on a device.  */
static void
k_sweep (struct exec *x, const struct level *L, double c0, double omega,
         unsigned color)
{
  if (x->where != MG_HOST)
    {
      k_smooth (x, L, c0, omega, color);
      k_smooth (x, L, c0, omega, color ^ 1);
      return;
    }
  count_launches (x, 2);
  sweep_host (L->nx, L->ny, L->stride, L->u, host_f (L), L->axm, L->axp,
              L->aym, L->ayp, c0, omega, color);
}

static void
k_smooth (struct exec *x, const struct level *L, double c0, double omega,
          unsigned color)
{
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2);
  double *u = L->u;
  const double *f = L->f, *axm = L->axm, *axp = L->axp;
  const double *aym = L->aym, *ayp = L->ayp;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      smooth_host (nx, ny, s, u, host_f (L), axm, axp, aym, ayp, c0, omega,
                   color);
      break;
    case MG_MAP:
      count_map (x, (cells + 2 * (nx + 2) + 2 * (ny + 2)) * sizeof *f,
                 cells * sizeof *u);
#pragma omp target data map(tofrom: u[0:cells]) map(to: f[0:cells]) \
  map(to: axm[0:nx + 2], axp[0:nx + 2], aym[0:ny + 2], ayp[0:ny + 2]) \
  device(x->device)
      smooth_target ((int) nx, (int) ny, (int) s, u, f, axm, axp, aym, ayp,
                     c0, omega, (int) color, x->device);
      break;
    case MG_RESIDENT:
      smooth_target ((int) nx, (int) ny, (int) s, u, f, axm, axp, aym, ayp,
                     c0, omega, (int) color, x->device);
      break;
    }
}

/* ---- residual r = f - A u, and the weighted Jacobi update from it */

static void
residual_host (size_t nx, size_t ny, size_t s, const double *restrict u,
               const double *restrict f, double *restrict r,
               const double *restrict axm, const double *restrict axp,
               const double *restrict aym, const double *restrict ayp,
               double c0)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    residual_row (&runs, s, u, f, r + j * s, axm, axp, aym[j], ayp[j], c0, j);
}

static void
residual_target (int nx, int ny, int s, const double *restrict u,
                 const double *restrict f, double *restrict r,
                 const double *restrict axm, const double *restrict axp,
                 const double *restrict aym, const double *restrict ayp,
                 double c0, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      {
        double scale;
        r[j * s + i] = residual_at (u + j * s + i, f[j * s + i], s, axm[i],
                                    axp[i], aym[j], ayp[j], c0, &scale);
      }
}

static void
k_residual (struct exec *x, const struct level *L, double c0)
{
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2);
  const double *u = L->u, *f = L->f, *axm = L->axm, *axp = L->axp;
  const double *aym = L->aym, *ayp = L->ayp;
  double *r = L->r;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      residual_host (nx, ny, s, u, host_f (L), r, axm, axp, aym, ayp, c0);
      break;
    case MG_MAP:
      count_map (x, (2 * cells + 2 * (nx + 2) + 2 * (ny + 2)) * sizeof *f,
                 cells * sizeof *r);
#pragma omp target data map(to: u[0:cells], f[0:cells]) \
  map(tofrom: r[0:cells]) \
  map(to: axm[0:nx + 2], axp[0:nx + 2], aym[0:ny + 2], ayp[0:ny + 2]) \
  device(x->device)
      residual_target ((int) nx, (int) ny, (int) s, u, f, r, axm, axp, aym,
                       ayp, c0, x->device);
      break;
    case MG_RESIDENT:
      residual_target ((int) nx, (int) ny, (int) s, u, f, r, axm, axp, aym,
                       ayp, c0, x->device);
      break;
    }
}

static void
jacobi_host (size_t nx, size_t ny, size_t s, double *restrict u,
             const double *restrict r, const double *restrict axm,
             const double *restrict axp, const double *restrict aym,
             const double *restrict ayp, double c0, double omega)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      u[j * s + i] += omega * r[j * s + i]
                      / (c0 + aym[j] + ayp[j] + axm[i] + axp[i]);
}

static void
jacobi_target (int nx, int ny, int s, double *restrict u,
               const double *restrict r, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0, double omega,
               int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      u[j * s + i] += omega * r[j * s + i]
                      / (c0 + aym[j] + ayp[j] + axm[i] + axp[i]);
}

static void
k_jacobi (struct exec *x, const struct level *L, double c0, double omega)
{
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2);
  double *u = L->u;
  const double *r = L->r, *axm = L->axm, *axp = L->axp;
  const double *aym = L->aym, *ayp = L->ayp;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      jacobi_host (nx, ny, s, u, r, axm, axp, aym, ayp, c0, omega);
      break;
    case MG_MAP:
      count_map (x, (cells + 2 * (nx + 2) + 2 * (ny + 2)) * sizeof *r,
                 cells * sizeof *u);
#pragma omp target data map(tofrom: u[0:cells]) map(to: r[0:cells]) \
  map(to: axm[0:nx + 2], axp[0:nx + 2], aym[0:ny + 2], ayp[0:ny + 2]) \
  device(x->device)
      jacobi_target ((int) nx, (int) ny, (int) s, u, r, axm, axp, aym, ayp,
                     c0, omega, x->device);
      break;
    case MG_RESIDENT:
      jacobi_target ((int) nx, (int) ny, (int) s, u, r, axm, axp, aym, ayp,
                     c0, omega, x->device);
      break;
    }
}

/* ---- residual and restriction in one pass: fc = R (f - A u), uc = 0 */

/* Whether the three taps after these gather the fine nodes two further
   on with the same weights.  */
static bool
same_taps (const size_t *ri, const double *rw)
{
  bool same = true;
  for (size_t k = 0; k < 3; ++k)
    same = same && ri[k + 3] == ri[k] + 2 && rw[k + 3] == rw[k];
  return same;
}

/* Where a level halves evenly, coarse node I + 1 gathers the fine nodes
   two after those of I with I's weights: the runs of such nodes.  */
static void
restrict_runs (size_t nxc, const size_t *rxi, const double *rxw,
               struct regular_runs *runs)
{
  runs->count = 0;
  for (size_t I = 1; I <= nxc && runs->count < RUNS_MAX; ++I)
    {
      size_t e = I;
      while (e + 1 <= nxc && same_taps (rxi + 3 * e, rxw + 3 * e))
        ++e;
      if (e - I + 1 < RUN_MIN)
        continue;
      runs->first[runs->count] = I;
      runs->last[runs->count++] = e;
      I = e;
    }
}

/* Coarse nodes first .. last of row J of R r (weights w0 .. w2 of the
   fine rows r0 .. r2): restrict_at's values in its order.  */
static inline void
restrict_span (size_t first, size_t last, double *restrict fc,
               double *restrict uc, const double *restrict r0,
               const double *restrict r1, const double *restrict r2,
               double w0, double w1, double w2, const size_t *restrict rxi,
               const double *restrict rxw)
{
  for (size_t I = first; I <= last; ++I)
    {
      double sum = 0.0;
      for (size_t k = 3 * I; k < 3 * I + 3; ++k)
        {
          const size_t i = rxi[k];
          sum += rxw[k] * (w0 * r0[i] + w1 * r1[i] + w2 * r2[i]);
        }
      fc[I] = sum;
      uc[I] = 0.0;
    }
}

/* Coarse row J of fc = R r from the fine residual rows r[0 .. 2] that
   its node gathers (ryi[3J .. 3J+2], weights ryw), the runs with the
   same sums written out.  */
static void
restrict_row (const struct regular_runs *runs, size_t nxc,
              double *restrict fc, double *restrict uc,
              const double *const r[3], const size_t *restrict rxi,
              const double *restrict rxw, const double *restrict ryw,
              size_t J)
{
  const double w0 = ryw[3 * J], w1 = ryw[3 * J + 1], w2 = ryw[3 * J + 2];
  const double *restrict r0 = r[0], *restrict r1 = r[1], *restrict r2 = r[2];
  size_t I = 1;
  for (size_t k = 0; k < runs->count; ++k)
    {
      restrict_span (I, runs->first[k] - 1, fc, uc, r0, r1, r2, w0, w1, w2,
                     rxi, rxw);
      I = runs->first[k];
      const size_t n = runs->last[k] - I + 1;
      const size_t i0 = rxi[3 * I], i1 = rxi[3 * I + 1], i2 = rxi[3 * I + 2];
      const double a0 = rxw[3 * I], a1 = rxw[3 * I + 1], a2 = rxw[3 * I + 2];
#pragma omp simd
      for (size_t h = 0; h < n; ++h)
        {
          const size_t p = i0 + 2 * h, q = i1 + 2 * h, m = i2 + 2 * h;
          double sum = 0.0;
          sum += a0 * (w0 * r0[p] + w1 * r1[p] + w2 * r2[p]);
          sum += a1 * (w0 * r0[q] + w1 * r1[q] + w2 * r2[q]);
          sum += a2 * (w0 * r0[m] + w1 * r1[m] + w2 * r2[m]);
          fc[I + h] = sum;
          uc[I + h] = 0.0;
        }
      I += n;
    }
  restrict_span (I, nxc, fc, uc, r0, r1, r2, w0, w1, w2, rxi, rxw);
}

/* The host computes each fine residual once, a row at a time into three
   rows of scratch per thread (rows, of stride sf: the rows the current
   coarse row gathers), and restricts from them: bitwise the device's
   restrict_at, without a level-sized residual array, whose pages would
   push the level's u and f out of cache.  Row 0 is never gathered on a
   whole level, so it marks an empty slot.  */
static void
restrict_host (size_t nxc, size_t nyc, size_t sc, double *restrict fc,
               double *restrict uc, size_t nx, size_t sf,
               const double *restrict u, const double *restrict f,
               const double *restrict axm, const double *restrict axp,
               const double *restrict aym, const double *restrict ayp,
               double c0, const size_t *restrict rxi,
               const double *restrict rxw, const size_t *restrict ryi,
               const double *restrict ryw, double *rows)
{
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
  struct regular_runs coarse;
  restrict_runs (nxc, rxi, rxw, &coarse);
#pragma omp parallel if (nxc * nyc >= PARALLEL_MIN)
  {
    double *ring = rows + 3 * sf * (size_t) omp_get_thread_num ();
    size_t held[3] = { 0, 0, 0 };
    for (size_t k = 0; k < 3; ++k)
      ring[k * sf] = ring[k * sf + nx + 1] = 0.0;
#pragma omp for schedule(static)
    for (size_t J = 1; J <= nyc; ++J)
      {
        const size_t *want = ryi + 3 * J;
        const double *r[3];
        for (size_t k = 0; k < 3; ++k)
          {
            size_t slot = 0;
            while (slot < 3 && held[slot] != want[k])
              ++slot;
            if (slot == 3)
              {
                /* A slot holding none of the three rows wanted.  */
                slot = 0;
                while (held[slot] == want[0] || held[slot] == want[1]
                       || held[slot] == want[2])
                  ++slot;
                held[slot] = want[k];
                residual_row (&runs, sf, u, f, ring + slot * sf, axm, axp,
                              aym[want[k]], ayp[want[k]], c0, want[k]);
              }
            r[k] = ring + slot * sf;
          }
        restrict_row (&coarse, nxc, fc + J * sc, uc + J * sc, r, rxi, rxw, ryw,
                      J);
      }
  }
}

/* The same from a level-sized residual r: a split level's, which trades
   halo lines with the neighbours first, or where the rows are too few
   for the threads.  */
static void
restrict_stored_host (size_t nxc, size_t nyc, size_t sc, double *restrict fc,
                      double *restrict uc, size_t sf, const double *restrict r,
                      const size_t *restrict rxi, const double *restrict rxw,
                      const size_t *restrict ryi, const double *restrict ryw)
{
  struct regular_runs coarse;
  restrict_runs (nxc, rxi, rxw, &coarse);
#pragma omp parallel for schedule(static) if (nxc * nyc >= PARALLEL_MIN)
  for (size_t J = 1; J <= nyc; ++J)
    {
      const double *const rows[3] = { r + ryi[3 * J] * sf,
                                      r + ryi[3 * J + 1] * sf,
                                      r + ryi[3 * J + 2] * sf };
      restrict_row (&coarse, nxc, fc + J * sc, uc + J * sc, rows, rxi, rxw,
                    ryw, J);
    }
}

static void
restrict_target (int nxc, int nyc, int sc, double *restrict fc,
                 double *restrict uc, int sf, const double *restrict u,
                 const double *restrict f, const double *restrict axm,
                 const double *restrict axp, const double *restrict aym,
                 const double *restrict ayp, double c0,
                 const size_t *restrict rxi, const double *restrict rxw,
                 const size_t *restrict ryi, const double *restrict ryw,
                 int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int J = 1; J <= nyc; ++J)
    for (int I = 1; I <= nxc; ++I)
      {
        fc[J * sc + I] = restrict_at (u, f, sf, axm, axp, aym, ayp, c0, rxi,
                                      rxw, ryi, ryw, (size_t) I, (size_t) J);
        uc[J * sc + I] = 0.0;
      }
}

/* From fine level F to the window of coarse level C.  A split F's
   residual needs its neighbours' halo lines: the restriction of a node
   by the edge of its part gathers fine nodes beyond it.  */
static void
k_restrict (struct exec *x, const struct mg_solver *mg, const struct level *F,
            const struct level *C)
{
  const size_t nxc = C->wnx, nyc = C->wny, sc = C->stride;
  const size_t window = C->wy0 * sc + C->wx0;
  const size_t nx = F->nx, ny = F->ny, sf = F->stride;
  const size_t ccells = sc * (C->ny + 2) - window, fcells = sf * (ny + 2);
  const double c0 = mg->c0;
  double *fc = C->f + window, *uc = C->u + window;
  const double *u = F->u, *f = F->f, *axm = F->axm, *axp = F->axp;
  const double *aym = F->aym, *ayp = F->ayp;
  const size_t *rxi = C->rxi, *ryi = C->ryi;
  const double *rxw = C->rxw, *ryw = C->ryw;
  const size_t tx = 3 * (nxc + 2), ty = 3 * (nyc + 2);
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      if (!F->split && x->mg != NULL)
        {
          restrict_host (nxc, nyc, sc, fc, uc, nx, sf, u, host_f (F), axm, axp,
                         aym, ayp, c0, rxi, rxw, ryi, ryw, x->mg->rows);
          break;
        }
      residual_host (nx, ny, sf, u, host_f (F), F->r, axm, axp, aym, ayp, c0);
      if (F->split)
        for (int axis = 0; axis < 2; ++axis)
          domain_trade_halo (mg->domain, F->r, nx, ny, sf, axis);
      restrict_stored_host (nxc, nyc, sc, fc, uc, sf, F->r, rxi, rxw, ryi,
                            ryw);
      break;
    case MG_MAP:
      count_map (x, (2 * fcells + 2 * (nx + 2) + 2 * (ny + 2)) * sizeof *f
                    + (tx + ty) * (sizeof *rxi + sizeof *rxw),
                 2 * ccells * sizeof *fc);
#pragma omp target data map(tofrom: fc[0:ccells], uc[0:ccells]) \
  map(to: u[0:fcells], f[0:fcells]) \
  map(to: axm[0:nx + 2], axp[0:nx + 2], aym[0:ny + 2], ayp[0:ny + 2]) \
  map(to: rxi[0:tx], rxw[0:tx], ryi[0:ty], ryw[0:ty]) device(x->device)
      restrict_target ((int) nxc, (int) nyc, (int) sc, fc, uc, (int) sf, u,
                       f, axm, axp, aym, ayp, c0, rxi, rxw, ryi, ryw,
                       x->device);
      break;
    case MG_RESIDENT:
      restrict_target ((int) nxc, (int) nyc, (int) sc, fc, uc, (int) sf, u,
                       f, axm, axp, aym, ayp, c0, rxi, rxw, ryi, ryw,
                       x->device);
      break;
    }
}

/* ---- prolongation and correction in one pass: uf += P uc */

/* Where a level halves its coarser one evenly, fine node i + 2 reads
   the coarse nodes after those of i with i's weight: the runs of such
   nodes, which prolong_row takes a pair at a time.  */
static void
prolong_runs (size_t nxf, const size_t *pxi, const double *pxw,
              struct regular_runs *runs)
{
  runs->count = 0;
  for (size_t i = 1; i < nxf && runs->count < RUNS_MAX; ++i)
    {
      size_t e = i + 1;
      while (e + 1 <= nxf && pxi[e + 1] == pxi[e - 1] + 1
             && pxw[e + 1] == pxw[e - 1])
        ++e;
      if (e - i + 1 < RUN_MIN)
        continue;
      runs->first[runs->count] = i;
      runs->last[runs->count++] = e;
      i = e;
    }
}

/* The fine nodes first .. last of a row: out[i] += (P t)[i].  */
static inline void
prolong_span (size_t first, size_t last, double *restrict out,
              const double *restrict t, const size_t *restrict pxi,
              const double *restrict pxw)
{
  for (size_t i = first; i <= last; ++i)
    {
      const size_t I = pxi[i];
      const double wx = pxw[i];
      out[i] += wx * t[I] + (1.0 - wx) * t[I + 1];
    }
}

/* A row of prolong_span, the runs of pairs with the same sums written
   out.  */
static void
prolong_row (const struct regular_runs *runs, size_t nxf, double *restrict out,
             const double *restrict t, const size_t *restrict pxi,
             const double *restrict pxw)
{
  size_t i = 1;
  for (size_t k = 0; k < runs->count; ++k)
    {
      prolong_span (i, runs->first[k] - 1, out, t, pxi, pxw);
      i = runs->first[k];
      const size_t pairs = (runs->last[k] - i + 1) / 2;
      const size_t ia = pxi[i], ib = pxi[i + 1];
      const double wa = pxw[i], wb = pxw[i + 1];
      double *restrict o = out + i;
#pragma omp simd
      for (size_t h = 0; h < pairs; ++h)
        {
          o[2 * h] += wa * t[ia + h] + (1.0 - wa) * t[ia + h + 1];
          o[2 * h + 1] += wb * t[ib + h] + (1.0 - wb) * t[ib + h + 1];
        }
      i += 2 * pairs;
    }
  prolong_span (i, nxf, out, t, pxi, pxw);
}

/* The host interpolates each fine row along y into t (nxc + 2, the
   coarse window's width with its halo), then along x from t: the values
   of prolong_at, each t computed once.  t is a row of scratch per
   thread, rows (of stride tn) where x->mg gives them, else row j of a
   level-sized array.  */
static void
prolong_host (size_t nxf, size_t nyf, size_t sf, double *restrict uf,
              size_t nxc, size_t sc, const double *restrict uc,
              double *restrict rows, bool per_thread,
              const size_t *restrict pxi, const double *restrict pxw,
              const size_t *restrict pyi, const double *restrict pyw)
{
  const size_t tn = nxc + 2;
  struct regular_runs runs;
  prolong_runs (nxf, pxi, pxw, &runs);
#pragma omp parallel if (nxf * nyf >= PARALLEL_MIN)
  {
    double *thread_row = rows + tn * (size_t) omp_get_thread_num ();
#pragma omp for schedule(static)
    for (size_t j = 1; j <= nyf; ++j)
      {
        double *restrict t = per_thread ? thread_row : rows + j * tn;
        const double *lo = uc + pyi[j] * sc, *hi = lo + sc;
        const double wy = pyw[j];
        for (size_t I = 0; I <= nxc + 1; ++I)
          t[I] = wy * lo[I] + (1.0 - wy) * hi[I];
        prolong_row (&runs, nxf, uf + j * sf, t, pxi, pxw);
      }
  }
}

static void
prolong_target (int nxf, int nyf, int sf, double *restrict uf, int sc,
                const double *restrict uc, const size_t *restrict pxi,
                const double *restrict pxw, const size_t *restrict pyi,
                const double *restrict pyw, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= nyf; ++j)
    for (int i = 1; i <= nxf; ++i)
      uf[j * sf + i] += prolong_at (uc, (size_t) sc, pxi, pxw, pyi, pyw,
                                    (size_t) i, (size_t) j);
}

/* From the window of coarse level C to fine level F.  */
static void
k_prolong (struct exec *x, const struct level *F, const struct level *C)
{
  const size_t nxf = F->nx, nyf = F->ny, sf = F->stride, sc = C->stride;
  const size_t window = C->wy0 * sc + C->wx0;
  const size_t fcells = sf * (nyf + 2), ccells = sc * (C->ny + 2) - window;
  double *uf = F->u;
  const double *uc = C->u + window, *pxw = C->pxw, *pyw = C->pyw;
  const size_t *pxi = C->pxi, *pyi = C->pyi;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      /* Without scratch rows, F's spent residual holds them.  */
      prolong_host (nxf, nyf, sf, uf, C->wnx, sc, uc,
                    x->mg != NULL ? x->mg->rows : F->r, x->mg != NULL, pxi,
                    pxw, pyi, pyw);
      break;
    case MG_MAP:
      count_map (x, ccells * sizeof *uc
                    + (nxf + nyf + 4) * (sizeof *pxi + sizeof *pxw),
                 fcells * sizeof *uf);
#pragma omp target data map(tofrom: uf[0:fcells]) map(to: uc[0:ccells]) \
  map(to: pxi[0:nxf + 2], pxw[0:nxf + 2], pyi[0:nyf + 2], pyw[0:nyf + 2]) \
  device(x->device)
      prolong_target ((int) nxf, (int) nyf, (int) sf, uf, (int) sc, uc, pxi,
                      pxw, pyi, pyw, x->device);
      break;
    case MG_RESIDENT:
      prolong_target ((int) nxf, (int) nyf, (int) sf, uf, (int) sc, uc, pxi,
                      pxw, pyi, pyw, x->device);
      break;
    }
}

/* ---- the coarsest level: halo, residual and u += A^-1 r, one kernel.
   Its r holds the residual vector of its n <= DENSE_MAX unknowns.  */

static void
coarsest_host (const struct halo_src *h, size_t nx, size_t ny, size_t s,
               double *restrict u, const double *restrict f,
               double *restrict r, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0,
               const double *restrict inverse)
{
  const size_t n = nx * ny, lines = nx > ny ? nx : ny;
  for (size_t k = 0; k <= lines; ++k)
    halo_at (u, (ptrdiff_t) k, (ptrdiff_t) nx, (ptrdiff_t) ny, (ptrdiff_t) s,
             h->left, h->right, h->bottom, h->top, h->corners);
  for (size_t q = 0; q < n; ++q)
    {
      const size_t c = unknown_cell (q, nx, s), i = q % nx + 1;
      const size_t j = q / nx + 1;
      double scale;
      r[q] = residual_at (u + c, f[c], (ptrdiff_t) s, axm[i], axp[i], aym[j],
                          ayp[j], c0, &scale);
    }
  for (size_t p = 0; p < n; ++p)
    u[unknown_cell (p, nx, s)] += dense_row (inverse, r, n, p);
}

/* One team: its threads share the phases, with the barriers of the
   worksharing loops between them.  */
static void
coarsest_target (const struct halo_src *h, int nx, int ny, int s,
                 double *restrict u, const double *restrict f,
                 double *restrict r, const double *restrict axm,
                 const double *restrict axp, const double *restrict aym,
                 const double *restrict ayp, double c0,
                 const double *restrict inverse, int device)
{
  const ptrdiff_t ls = h->left, rs = h->right, bs = h->bottom, ts = h->top;
  const bool corners = h->corners;
  const int n = nx * ny, lines = nx > ny ? nx : ny;
#pragma omp target device(device)
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int k = 0; k <= lines; ++k)
      halo_at (u, k, nx, ny, s, ls, rs, bs, ts, corners);
#pragma omp for schedule(static)
    for (int q = 0; q < n; ++q)
      {
        const int c = (q / nx + 1) * s + q % nx + 1, i = q % nx + 1;
        const int j = q / nx + 1;
        double scale;
        r[q] = residual_at (u + c, f[c], s, axm[i], axp[i], aym[j], ayp[j],
                            c0, &scale);
      }
#pragma omp for schedule(static)
    for (int p = 0; p < n; ++p)
      u[(p / nx + 1) * s + p % nx + 1] += dense_row (inverse, r, (size_t) n,
                                                     (size_t) p);
  }
}

static void
k_coarsest (struct exec *x, const struct halo_src *h, const struct level *L,
            double c0)
{
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2), n = nx * ny;
  double *u = L->u, *r = L->r;
  const double *f = L->f, *axm = L->axm, *axp = L->axp;
  const double *aym = L->aym, *ayp = L->ayp, *inverse = L->inverse;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      coarsest_host (h, nx, ny, s, u, f, r, axm, axp, aym, ayp, c0, inverse);
      break;
    case MG_MAP:
      count_map (x, (cells + 2 * (nx + 2) + 2 * (ny + 2) + n * n) * sizeof *f,
                 (cells + n) * sizeof *u);
#pragma omp target data map(tofrom: u[0:cells], r[0:n]) map(to: f[0:cells]) \
  map(to: axm[0:nx + 2], axp[0:nx + 2], aym[0:ny + 2], ayp[0:ny + 2]) \
  map(to: inverse[0:n * n]) device(x->device)
      coarsest_target (h, (int) nx, (int) ny, (int) s, u, f, r, axm, axp, aym,
                       ayp, c0, inverse, x->device);
      break;
    case MG_RESIDENT:
      coarsest_target (h, (int) nx, (int) ny, (int) s, u, f, r, axm, axp, aym,
                       ayp, c0, inverse, x->device);
      break;
    }
}

/* ---- sums: the residual norms, or the interior sum of a field.
   Deterministic in two kernels whatever the threads, teams or placement:
   the first writes, per column and band of NORM_BAND rows, the sum over
   the band's rows in order (part[q][b][i], q = 0, 1 the two quantities);
   the second sums each column's bands in order, then the columns in
   order on one thread, and only its two doubles leave the device.  That
   last loop is nx dependent additions on one GPU thread (tens of
   microseconds at 4096 columns), the price of an order that does not
   depend on the device; a fixed-shape tree would be the next step.  */

/* The host takes the same sums row by row: each column's running sum
   gets the band's rows in band_sums' order, so the partial sums are
   bitwise the device's, while the inner loop runs along a row (unit
   stride, vectorised) rather than down a column.  zero_f: f is zero
   and not read.  */
static void
bands_host (size_t nx, size_t ny, size_t s, const double *restrict u,
            const double *restrict f, bool zero_f, const double *restrict axm,
            const double *restrict axp, const double *restrict aym,
            const double *restrict ayp, double c0, double sr, double sm,
            double *restrict part)
{
  const size_t nb = norm_bands (ny);
  struct row_runs runs;
  row_runs (nx, axm, axp, &runs);
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t b = 0; b < nb; ++b)
    {
      double *restrict rr = part + b * nx, *restrict mm = part + (nb + b) * nx;
      const size_t j1 = (b + 1) * NORM_BAND < ny ? (b + 1) * NORM_BAND : ny;
      for (size_t i = 0; i < nx; ++i)
        rr[i] = mm[i] = 0.0;
      for (size_t j = b * NORM_BAND + 1; j <= j1; ++j)
        if (f == NULL)
          for (size_t i = 1; i <= nx; ++i)
            rr[i - 1] += u[j * s + i];
        else
          norm_row (&runs, s, u, zero_f ? NULL : f, axm, axp, aym[j], ayp[j],
                    c0, sr, sm, rr, mm, j);
    }
}

static void
bands_target (int nx, int ny, int s, const double *restrict u,
              const double *restrict f, const double *restrict axm,
              const double *restrict axp, const double *restrict aym,
              const double *restrict ayp, double c0, double sr, double sm,
              double *restrict part, int device)
{
  const int nb = (int) norm_bands ((size_t) ny);
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int b = 0; b < nb; ++b)
    for (int i = 1; i <= nx; ++i)
      band_sums (u, f, (size_t) s, axm, axp, aym, ayp, c0, (size_t) ny,
                 (size_t) b, (size_t) i, sr, sm, &part[b * nx + i - 1],
                 &part[(nb + b) * nx + i - 1]);
}

static void
totals_host (size_t nx, size_t nb, double *restrict part, double out[2])
{
  double *col = part + 2 * nb * nx;
#pragma omp parallel for schedule(static) if (nx * nb >= PARALLEL_MIN)
  for (size_t k = 0; k < 2 * nx; ++k)
    {
      const size_t q = k / nx, i = k % nx;
      double sum = 0.0;
      for (size_t b = 0; b < nb; ++b)
        sum += part[(q * nb + b) * nx + i];
      col[k] = sum;
    }
  for (size_t q = 0; q < 2; ++q)
    {
      double sum = 0.0;
      for (size_t i = 0; i < nx; ++i)
        sum += col[q * nx + i];
      out[q] = sum;
    }
}

/* One team: the columns in parallel, then one thread.  */
static void
totals_target (int nx, int nb, double *restrict part, double out[2],
               int device)
{
  double rr, mm;
  /* map(from:) gives rr and mm storage on the device but not their
     values: they start in the region.  */
#pragma omp target device(device) map(from: rr, mm)
  {
    double *col = part + 2 * nb * nx;
    rr = 0.0;
    mm = 0.0;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < 2 * nx; ++k)
      {
        const int q = k / nx, i = k % nx;
        double sum = 0.0;
        for (int b = 0; b < nb; ++b)
          sum += part[(q * nb + b) * nx + i];
        col[k] = sum;
      }
    for (int i = 0; i < nx; ++i)
      rr += col[i];
    for (int i = 0; i < nx; ++i)
      mm += col[nx + i];
  }
  out[0] = rr;
  out[1] = mm;
}

/* out[0] = sum of (sq[0] (f - A u))^2 and out[1] of the squared scales
   times sq[1] over the interior of level L (A without f: the interior
   sum of u, and 0); part holds norm_scratch (nx, ny) doubles.  */
static void
k_sums (struct exec *x, const struct level *L, const double *u,
        const double *f, double c0, const double sq[2], double *part,
        double out[2])
{
  const double sr = sq[0], sm = sq[1];
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2), nb = norm_bands (ny);
  const size_t np = norm_scratch (nx, ny), fn = f != NULL ? cells : 0;
  const double *axm = L->axm, *axp = L->axp, *aym = L->aym, *ayp = L->ayp;
  count_launches (x, 2);
  switch (x->where)
    {
    case MG_HOST:
      bands_host (nx, ny, s, u, f, L->zero_f && f == L->f, axm, axp, aym,
                  ayp, c0, sr, sm, part);
      totals_host (nx, nb, part, out);
      break;
    case MG_MAP:
      count_map (x, (cells + fn + 2 * (nx + 2) + 2 * (ny + 2)) * sizeof *u,
                 0);
      x->from_device += 2 * sizeof *out;
#pragma omp target data map(to: u[0:cells], f[0:fn]) \
  map(to: axm[0:nx + 2], axp[0:nx + 2], aym[0:ny + 2], ayp[0:ny + 2]) \
  map(alloc: part[0:np]) device(x->device)
      {
        bands_target ((int) nx, (int) ny, (int) s, u, f, axm, axp, aym, ayp,
                      c0, sr, sm, part, x->device);
        totals_target ((int) nx, (int) nb, part, out, x->device);
      }
      break;
    case MG_RESIDENT:
      x->from_device += 2 * sizeof *out;
      bands_target ((int) nx, (int) ny, (int) s, u, f, axm, axp, aym, ayp,
                    c0, sr, sm, part, x->device);
      totals_target ((int) nx, (int) nb, part, out, x->device);
      break;
    }
}

/* ---- interior updates: dst = src + shift (src NULL: shift), and
   u += shift */

static void
set_host (size_t nx, size_t ny, size_t s, double *restrict dst,
          const double *restrict src, double shift)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      dst[j * s + i] = (src != NULL ? src[j * s + i] : 0.0) + shift;
}

static void
set_target (int nx, int ny, int s, double *restrict dst,
            const double *restrict src, double shift, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      dst[j * s + i] = (src != NULL ? src[j * s + i] : 0.0) + shift;
}

static void
k_set (struct exec *x, const struct level *L, double *dst, const double *src,
       double shift)
{
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2), sn = src != NULL ? cells : 0;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      set_host (nx, ny, s, dst, src, shift);
      break;
    case MG_MAP:
      count_map (x, sn * sizeof *src, cells * sizeof *dst);
#pragma omp target data map(tofrom: dst[0:cells]) map(to: src[0:sn]) \
  device(x->device)
      set_target ((int) nx, (int) ny, (int) s, dst, src, shift, x->device);
      break;
    case MG_RESIDENT:
      set_target ((int) nx, (int) ny, (int) s, dst, src, shift, x->device);
      break;
    }
}

static void
shift_host (size_t nx, size_t ny, size_t s, double *u, double shift)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      u[j * s + i] += shift;
}

static void
shift_target (int nx, int ny, int s, double *u, double shift, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      u[j * s + i] += shift;
}

static void
k_shift (struct exec *x, const struct level *L, double *u, double shift)
{
  const size_t nx = L->nx, ny = L->ny, s = L->stride;
  const size_t cells = s * (ny + 2);
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      shift_host (nx, ny, s, u, shift);
      break;
    case MG_MAP:
      count_map (x, 0, cells * sizeof *u);
#pragma omp target data map(tofrom: u[0:cells]) device(x->device)
      shift_target ((int) nx, (int) ny, (int) s, u, shift, x->device);
      break;
    case MG_RESIDENT:
      shift_target ((int) nx, (int) ny, (int) s, u, shift, x->device);
      break;
    }
}

/* ------------------------------------------------------------ one axis */

/* One axis of one level while the hierarchy is built.  */
struct axis {
  size_t n, N;           /* unknowns, intervals */
  bool periodic, neumann_lo, neumann_hi;
  double h;              /* the finest level's spacing */
  double *x;             /* N + 1 point positions in units of h: whole
                            and half numbers, exact, so that evenly
                            spaced points give exactly even weights */
  double *g;             /* N conductances */
  double *d;             /* n + 2 lumped volumes, 1 .. n */
};

static void
axis_free (struct axis *a)
{
  free (a->x);
  free (a->g);
  free (a->d);
  a->x = a->g = a->d = NULL;
}

static bool
axis_alloc (struct axis *a)
{
  a->x = malloc ((a->N + 1) * sizeof *a->x);
  a->g = malloc (a->N * sizeof *a->g);
  a->d = calloc (a->n + 2, sizeof *a->d);
  if (a->x != NULL && a->g != NULL && a->d != NULL)
    return true;
  axis_free (a);
  return false;
}

/* The finest axis: n unknowns h apart.  */
static bool
axis_fine (struct axis *a, size_t n, double h, enum boundary_kind lo,
           enum boundary_kind hi)
{
  *a = (struct axis) {
    .n = n, .h = h, .periodic = lo == BOUNDARY_PERIODIC,
    .neumann_lo = lo == BOUNDARY_NEUMANN, .neumann_hi = hi == BOUNDARY_NEUMANN,
  };
  a->N = a->periodic ? n : n + 1;
  if (!axis_alloc (a))
    return false;
  for (size_t k = 0; k <= a->N; ++k)
    a->x[k] = (double) k;
  for (size_t k = 0; k < a->N; ++k)
    a->g[k] = 1.0 / h;
  for (size_t i = 1; i <= n; ++i)
    a->d[i] = h;
  /* A zero-flux face lies half a cell beyond the last node.  */
  if (a->neumann_lo)
    {
      a->x[0] = 0.5;
      a->g[0] = 0.0;
    }
  if (a->neumann_hi)
    {
      a->x[a->N] = a->x[a->N - 1] + 0.5;
      a->g[a->N - 1] = 0.0;
    }
  return true;
}

/* Unknown at point k, and point of unknown i.  */
static size_t
axis_unknown (const struct axis *a, size_t k)
{
  return a->periodic ? k % a->N + 1 : k;
}

static size_t
axis_point (const struct axis *a, size_t i)
{
  return a->periodic ? i - 1 : i;
}

static bool
axis_is_unknown (const struct axis *a, size_t k)
{
  return a->periodic || (k >= 1 && k < a->N);
}

/* Intervals on the left and right of unknown i.  */
static size_t
axis_left (const struct axis *a, size_t i)
{
  return a->periodic ? (i + a->N - 2) % a->N : i - 1;
}

static size_t
axis_right (const struct axis *a, size_t i)
{
  return a->periodic ? i - 1 : i;
}

/* The intervals that merge in pairs: all but the half-cell intervals of
   zero-flux ends, which stay as they are so that the node next to such a
   face stays a coarse node (constant extrapolation there would slow
   convergence three-fold).  */
static size_t
axis_merge_first (const struct axis *a)
{
  return a->neumann_lo ? 1 : 0;
}

static size_t
axis_merge_end (const struct axis *a)
{
  return a->neumann_hi ? a->N - 1 : a->N;
}

/* Intervals after merging pairs, and whether that leaves >= 2 unknowns,
   so that no coarse node loses all its conductances.  */
static size_t
axis_coarse_intervals (const struct axis *a)
{
  const size_t merged = axis_merge_end (a) - axis_merge_first (a);
  return a->N - merged + (merged + 1) / 2;
}

static bool
axis_can_coarsen (const struct axis *a)
{
  const size_t Nc = axis_coarse_intervals (a);
  return Nc < a->N && (a->periodic ? Nc : Nc - 1) >= 2;
}

static double
axis_mean_spacing (const struct axis *a)
{
  return a->h * (a->x[a->N] - a->x[0]) / (double) a->N;
}

/* With an odd number of intervals to merge, the one left unmerged: the
   widest at an even offset, the one nearest the middle among equals.  */
static size_t
axis_single (const struct axis *a)
{
  const size_t first = axis_merge_first (a), end = axis_merge_end (a);
  const double middle = 0.5 * (double) (first + end - 1);
  size_t best = first;
  double best_width = -1.0;
  for (size_t k = first; k < end; k += 2)
    {
      const double w = a->x[k + 1] - a->x[k];
      const bool wider = w > best_width * (1.0 + 1e-9);
      const bool equal = !wider && w >= best_width * (1.0 - 1e-9);
      if (wider || (equal && fabs ((double) k - middle)
                             < fabs ((double) best - middle)))
        {
          best = k;
          best_width = w;
        }
    }
  return best;
}

/* Whether coarse interval k of c carries no flux (a zero-flux end).  */
static bool
axis_open_interval (const struct axis *c, size_t k)
{
  return (k == 0 && c->neumann_lo) || (k + 1 == c->N && c->neumann_hi);
}

/* Halo index on coarse axis c of its point k.  */
static size_t
axis_halo (const struct axis *c, size_t k)
{
  return c->periodic ? k + 1 : k;
}

/* Coarse unknown at halo index h of coarse axis c, or 0 for a boundary.  */
static size_t
axis_halo_unknown (const struct axis *c, size_t h)
{
  if (c->periodic)
    return h == 0 ? c->n : h == c->n + 1 ? 1 : h;
  return h >= 1 && h <= c->n ? h : 0;
}

/* P(i, I) from the prolongation table of fine unknown i.  */
static double
prolongation_weight (const struct axis *c, size_t pi, double pw, size_t I)
{
  double w = 0.0;
  if (axis_halo_unknown (c, pi) == I)
    w += pw;
  if (axis_halo_unknown (c, pi + 1) == I)
    w += 1.0 - pw;
  return w;
}

/* The transfer tables between fine axis f and coarse axis c.  */
struct transfer {
  size_t *pi, *ri;       /* f->n + 2 and 3 (c->n + 2) entries */
  double *pw, *rw;
};

/* Build c from f, merging pairs of intervals or (merge false) none, and
   the tables between them.  s is scratch for f->N + 1 indices.  */
static bool
axis_coarsen (const struct axis *f, bool merge, struct axis *c,
              struct transfer t, size_t *s)
{
  *c = (struct axis) {
    .h = f->h, .periodic = f->periodic, .neumann_lo = f->neumann_lo,
    .neumann_hi = f->neumann_hi,
    .N = merge ? axis_coarse_intervals (f) : f->N,
  };
  c->n = c->periodic ? c->N : c->N - 1;
  if (!axis_alloc (c))
    return false;

  /* s[k]: the fine point that coarse point k is.  */
  const size_t first = axis_merge_first (f), end = axis_merge_end (f);
  const size_t single = merge && (end - first) % 2 == 1 ? axis_single (f)
                        : SIZE_MAX;
  s[0] = 0;
  for (size_t k = 0; k < c->N; ++k)
    {
      const bool alone = !merge || s[k] < first || s[k] >= end
                         || s[k] == single;
      s[k + 1] = s[k] + (alone ? 1 : 2);
    }
  for (size_t k = 0; k <= c->N; ++k)
    c->x[k] = f->x[s[k]];
  for (size_t k = 0; k < c->N; ++k)
    c->g[k] = axis_open_interval (c, k) ? 0.0
              : 1.0 / (c->h * (c->x[k + 1] - c->x[k]));

  /* Prolongation: fine point q lies in coarse interval k.  */
  size_t k = 0;
  for (size_t i = 1; i <= f->n; ++i)
    {
      const size_t q = axis_point (f, i);
      while (s[k + 1] <= q)
        ++k;
      t.pi[i] = axis_halo (c, k);
      t.pw[i] = q == s[k] ? 1.0
                : (c->x[k + 1] - f->x[q]) / (c->x[k + 1] - c->x[k]);
    }
  t.pi[0] = t.pi[f->n + 1] = 0;
  t.pw[0] = t.pw[f->n + 1] = 0.0;

  /* Coarse volumes P^T d.  */
  for (size_t i = 1; i <= f->n; ++i)
    for (size_t tap = 0; tap < 2; ++tap)
      {
        const size_t I = axis_halo_unknown (c, t.pi[i] + tap);
        if (I != 0)
          c->d[I] += (tap == 0 ? t.pw[i] : 1.0 - t.pw[i]) * f->d[i];
      }

  /* Restriction D_c^-1 P^T D_f: only the fine points next to coarse point
     k interpolate from it.  Unused taps read the centre with weight 0.  */
  for (size_t m = 0; m < 3 * (c->n + 2); ++m)
    t.ri[m] = 1, t.rw[m] = 0.0;
  for (size_t I = 1; I <= c->n; ++I)
    {
      const size_t centre = s[axis_point (c, I)];
      for (size_t m = 0; m < 3; ++m)
        t.ri[3 * I + m] = axis_unknown (f, centre);
      for (size_t m = 0; m < 3; ++m)
        {
          const size_t q = f->periodic ? (centre + f->N + m - 1) % f->N
                           : centre + m - 1;
          if (!axis_is_unknown (f, q))
            continue;
          const size_t i = axis_unknown (f, q);
          const double w = prolongation_weight (c, t.pi[i], t.pw[i], I);
          bool seen = false;     /* a periodic axis of 1 or 2 unknowns */
          for (size_t e = 0; e < m; ++e)
            seen = seen || (t.rw[3 * I + e] != 0.0 && t.ri[3 * I + e] == i);
          if (w == 0.0 || seen)
            continue;
          t.ri[3 * I + m] = i;
          t.rw[3 * I + m] = w * f->d[i] / c->d[I];
        }
    }
  return true;
}

/* This rank's part of one axis of a level: unknowns first + 1 .. first
   + n of the whole axis, which is split among ranks or (whole) not.  */
struct span {
  size_t first, n;
  bool split;
};

/* c1 times the weights of the unknowns of part p of axis a, at 1 .. p.n;
   at 0 and p.n + 1 those of the nodes beyond (never read), 0 beyond the
   ends of the axis.  */
static void
axis_weights (const struct axis *a, double c1, struct span p, double *am,
              double *ap)
{
  for (size_t k = 0; k <= p.n + 1; ++k)
    {
      const size_t i = p.first + k;
      const bool unknown = i >= 1 && i <= a->n;
      am[k] = unknown ? c1 * a->g[axis_left (a, i)] / a->d[i] : 0.0;
      ap[k] = unknown ? c1 * a->g[axis_right (a, i)] / a->d[i] : 0.0;
    }
}

/* The part of coarse axis c (coarse point k is fine point s[k] of f)
   whose nodes lie in part p of f.  */
static struct span
coarse_span (const struct axis *f, const struct axis *c, const size_t *s,
             struct span p)
{
  struct span q = { .split = p.split };
  for (size_t I = 1; I <= c->n; ++I)
    {
      const size_t i = axis_unknown (f, s[axis_point (c, I)]);
      if (i <= p.first)
        q.first++;
      else if (i <= p.first + p.n)
        q.n++;
    }
  return q;
}

/* -------------------------------------------------------------- levels */

/* *total += count * size; false on overflow.  */
static bool
add_bytes (size_t *total, size_t count, size_t size)
{
  if (count > (SIZE_MAX - *total) / size)
    return false;
  *total += count * size;
  return true;
}

/* Zero a new block by the threads that will use it, a chunk each: its
   pages are faulted in while the hierarchy is built, not in the first
   solve (calloc, and malloc with memset, which compilers turn into
   calloc, map zero pages lazily).  */
static void
zero_pages (void *block, size_t bytes)
{
  enum { CHUNK = 1 << 16 };
  unsigned char *p = block;
  const size_t chunks = (bytes + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (bytes >= 8 * PARALLEL_MIN)
  for (size_t k = 0; k < chunks; ++k)
    memset (p + k * CHUNK, 0, k + 1 < chunks ? CHUNK : bytes - k * CHUNK);
}

/* One allocation for a level of nx x ny below a level of fnx x fny (0 x 0
   for the finest), with its own u unless finest, and room for the dense
   inverse when coarsest.  */
static bool
level_alloc (struct level *L, size_t nx, size_t ny, size_t fnx, size_t fny,
             bool finest, bool coarsest)
{
  size_t bytes;
  *L = (struct level) { .nx = nx, .ny = ny, .stride = nx + 2 };
  if (!field_bytes (nx, ny, &bytes))
    return false;
  /* field_bytes bounds nx + 2 and ny + 2 by SIZE_MAX / 24, so the table
     sizes cannot overflow, only their sum with the grids.  */
  const size_t cells = bytes / sizeof (double);
  const size_t tables = 5 * (nx + 2) + 5 * (ny + 2) + fnx + fny + 4;
  const size_t unknowns = coarsest ? nx * ny : 0;
  const size_t part = finest ? norm_scratch (nx, ny) : 0;
  const size_t indices = 3 * (nx + 2) + 3 * (ny + 2) + fnx + fny + 4;
  size_t total = 0;
  if (!add_bytes (&total, finest ? 2 : 3, bytes)
      || !add_bytes (&total, tables + part, sizeof (double))
      || !add_bytes (&total, unknowns * unknowns, sizeof (double))
      || !add_bytes (&total, indices, sizeof (size_t)))
    return false;
  L->bytes = total;
  L->block = field_block (total);
  if (L->block == NULL)
    return false;
  zero_pages (L->block, total);
  double *p = L->block;
  if (!finest)
    L->u = p, p += cells;
  L->f = p, p += cells;
  L->r = p, p += cells;
  L->axm = p, p += nx + 2;
  L->axp = p, p += nx + 2;
  L->aym = p, p += ny + 2;
  L->ayp = p, p += ny + 2;
  L->rxw = p, p += 3 * (nx + 2);
  L->ryw = p, p += 3 * (ny + 2);
  L->pxw = p, p += fnx + 2;
  L->pyw = p, p += fny + 2;
  if (coarsest)
    L->inverse = p, p += unknowns * unknowns;
  if (finest)
    L->part = p, p += part;
  size_t *q = (size_t *) p;
  L->rxi = q, q += 3 * (nx + 2);
  L->ryi = q, q += 3 * (ny + 2);
  L->pxi = q, q += fnx + 2;
  L->pyi = q;
  return true;
}

/* The transfer tables of one axis while they are built.  */
static bool
transfer_alloc (struct transfer *t, size_t fine_n, size_t coarse_n)
{
  t->pi = malloc ((fine_n + 2) * sizeof *t->pi);
  t->pw = malloc ((fine_n + 2) * sizeof *t->pw);
  t->ri = malloc (3 * (coarse_n + 2) * sizeof *t->ri);
  t->rw = malloc (3 * (coarse_n + 2) * sizeof *t->rw);
  return t->pi != NULL && t->pw != NULL && t->ri != NULL && t->rw != NULL;
}

/* The tables t between fine axis f and coarse axis c (coarse point k is
   fine point s[k]) as this rank's arrays index them: fine part fp in its
   level's arrays, coarse part cp in the coarse window, 0 and n + 1 the
   halo.  On a split periodic axis a restriction tap of a node at the
   edge of the whole axis wraps around it: it is the halo cell on the
   side of its centre.  */
static void
local_tables (const struct axis *f, const struct axis *c, const size_t *s,
              const struct transfer *t, struct span fp, struct span cp,
              size_t *pi, double *pw, size_t *ri, double *rw)
{
  pi[0] = pi[fp.n + 1] = 0;
  pw[0] = pw[fp.n + 1] = 0.0;
  for (size_t i = 1; i <= fp.n; ++i)
    {
      pi[i] = t->pi[fp.first + i] - cp.first;
      pw[i] = t->pw[fp.first + i];
    }
  for (size_t m = 0; m < 3 * (cp.n + 2); ++m)
    ri[m] = 1, rw[m] = 0.0;
  const ptrdiff_t n = (ptrdiff_t) f->n, first = (ptrdiff_t) fp.first;
  for (size_t I = 1; I <= cp.n; ++I)
    {
      const size_t G = cp.first + I;
      const ptrdiff_t centre = (ptrdiff_t) axis_unknown (f, s[axis_point (c, G)])
                               - first;
      for (size_t m = 0; m < 3; ++m)
        {
          ptrdiff_t i = (ptrdiff_t) t->ri[3 * G + m] - first;
          if (f->periodic && fp.split)
            i += i - centre > n / 2 ? -n : centre - i > n / 2 ? n : 0;
          ri[3 * I + m] = (size_t) i;
          rw[3 * I + m] = t->rw[3 * G + m];
        }
    }
}

static void
transfer_free (struct transfer *t)
{
  free (t->pi);
  free (t->pw);
  free (t->ri);
  free (t->rw);
}

/* Unknowns of axis a after coarsening (merge) or not.  */
static size_t
axis_coarse_unknowns (const struct axis *a, bool merge)
{
  const size_t N = merge ? axis_coarse_intervals (a) : a->N;
  return a->periodic ? N : N - 1;
}

/* Invert the dense operator of the coarsest level L into L->inverse by
   Gauss-Jordan elimination with partial pivoting.  An operator without a
   Dirichlet edge (closed) gets the rank-one term s 1 v^T, v the nodes'
   volumes: for a compatible right-hand side (v^T r = 0, which restriction
   keeps) the solution is the same but for its mean, which becomes 0.
   Constants are in the kernel of the singular one (c0 = 0); they are the
   eigenvector of eigenvalue c0 of the others, whose other eigenvalues
   grow with c1 (implicit steps of huge dt): eliminating it from the
   matrix would lose the mean to cancellation, so the solve (which knows
   the mean) sets it.  */
static bool
level_invert (struct level *L, double c0, bool closed,
              const struct axis *ax, const struct axis *ay)
{
  const size_t nx = L->nx, ny = L->ny, n = nx * ny;
  double *a = calloc (n * n, sizeof *a);
  if (a == NULL)
    return false;
  double *inv = L->inverse;
  double diag_sum = 0.0, volume_sum = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t p = (j - 1) * nx + i - 1;
        const double w[4] = { L->axm[i], L->axp[i], L->aym[j], L->ayp[j] };
        /* A neighbour beyond a periodic edge is on the far side; beyond
           another edge it is a boundary node, 0 in a correction.  */
        const bool inside[4] = { i > 1 || ax->periodic, i < nx || ax->periodic,
                                 j > 1 || ay->periodic, j < ny || ay->periodic };
        const size_t nb[4] = {
          (j - 1) * nx + (i > 1 ? i - 2 : nx - 1),
          (j - 1) * nx + (i < nx ? i : 0),
          (j > 1 ? j - 2 : ny - 1) * nx + i - 1,
          (j < ny ? j : 0) * nx + i - 1,
        };
        a[p * n + p] += c0;
        for (int e = 0; e < 4; ++e)
          {
            a[p * n + p] += w[e];
            if (inside[e])
              a[p * n + nb[e]] -= w[e];
          }
        diag_sum += a[p * n + p];
        volume_sum += ax->d[i] * ay->d[j];
      }
  if (closed)
    {
      const double s = (diag_sum > 0.0 ? diag_sum : 1.0) / volume_sum;
      for (size_t p = 0; p < n; ++p)
        for (size_t q = 0; q < n; ++q)
          a[p * n + q] += s * ax->d[q % nx + 1] * ay->d[q / nx + 1];
    }
  for (size_t p = 0; p < n; ++p)
    for (size_t q = 0; q < n; ++q)
      inv[p * n + q] = p == q ? 1.0 : 0.0;
  bool ok = true;
  for (size_t k = 0; k < n && ok; ++k)
    {
      size_t pivot = k;
      for (size_t p = k + 1; p < n; ++p)
        if (fabs (a[p * n + k]) > fabs (a[pivot * n + k]))
          pivot = p;
      ok = a[pivot * n + k] != 0.0;
      for (size_t q = 0; q < n && ok; ++q)
        {
          double t = a[k * n + q];
          a[k * n + q] = a[pivot * n + q], a[pivot * n + q] = t;
          t = inv[k * n + q];
          inv[k * n + q] = inv[pivot * n + q], inv[pivot * n + q] = t;
        }
      for (size_t p = 0; p < n && ok; ++p)
        {
          const double factor = p == k ? 0.0 : a[p * n + k] / a[k * n + k];
          for (size_t q = 0; q < n; ++q)
            {
              a[p * n + q] -= factor * a[k * n + q];
              inv[p * n + q] -= factor * inv[k * n + q];
            }
        }
    }
  for (size_t p = 0; p < n && ok; ++p)
    for (size_t q = 0; q < n; ++q)
      inv[p * n + q] /= a[p * n + p];
  free (a);
  return ok;
}

/* Coarsen the axes with the finest spacing (within sqrt 2 of the finest
   of those that can still be coarsened): the rest of the anisotropy that
   dx != dy brings stays below a factor of 2 in the weights.  */
static void
choose_merges (const struct axis *ax, const struct axis *ay, bool *mx,
               bool *my)
{
  const bool cx = axis_can_coarsen (ax), cy = axis_can_coarsen (ay);
  const double hx = axis_mean_spacing (ax), hy = axis_mean_spacing (ay);
  const double h = cx && cy ? fmin (hx, hy) : cx ? hx : hy;
  *mx = cx && hx <= sqrt (2.0) * h;
  *my = cy && hy <= sqrt (2.0) * h;
}

/* Whether the level of axes ax and ay is the coarsest: one that cannot be
   coarsened, or small enough for its dense inverse to cost less than the
   launches of the levels below (a few kernels per level on a device).  */
static bool
is_coarsest (const struct axis *ax, const struct axis *ay)
{
  bool mx, my;
  choose_merges (ax, ay, &mx, &my);
  return (!mx && !my) || ax->n * ay->n <= DENSE_MAX;
}

/* In a split hierarchy, whether every rank had ok, and the least of
   the ranks' values of owned (every rank calls it at the same point).  */
static bool
ranks_agree (const struct mg_solver *mg, bool ok, double *owned)
{
  const double least = domain_min (mg->domain, ok ? *owned : -1.0);
  *owned = least;
  return least >= 0.0;
}

/* Unknowns of the smaller split axis of parts qx and qy (their split
   axes are divided among ranks, the others whole on each).  */
static double
owned_along_splits (struct span qx, struct span qy)
{
  double least = HUGE_VAL;
  if (qx.split)
    least = fmin (least, (double) qx.n);
  if (qy.split)
    least = fmin (least, (double) qy.n);
  return least;
}

/* Allocate coarse level C, split into parts qx x qy or whole (the
   window qx x qy then), and fill its tables and weights.  */
static bool
fill_level (struct level *C, const struct level *F, bool split, bool last,
            const struct axis *ax, const struct axis *cx, const size_t *sx,
            const struct transfer *tx, struct span px, struct span qx,
            const struct axis *ay, const struct axis *cy, const size_t *sy,
            const struct transfer *ty, struct span py, struct span qy,
            double c1)
{
  const size_t nx = split ? qx.n : cx->n, ny = split ? qy.n : cy->n;
  if (!level_alloc (C, nx, ny, F->nx, F->ny, false, last))
    return false;
  C->split = split;
  C->x0 = split ? qx.first : 0;
  C->y0 = split ? qy.first : 0;
  C->wx0 = qx.first - C->x0;
  C->wy0 = qy.first - C->y0;
  C->wnx = qx.n;
  C->wny = qy.n;
  local_tables (ax, cx, sx, tx, px, qx, C->pxi, C->pxw, C->rxi, C->rxw);
  local_tables (ay, cy, sy, ty, py, qy, C->pyi, C->pyw, C->ryi, C->ryw);
  const struct span wx = { C->x0, nx, split }, wy = { C->y0, ny, split };
  axis_weights (cx, c1, wx, C->axm, C->axp);
  axis_weights (cy, c1, wy, C->aym, C->ayp);
  return true;
}

/* Level l + 1 below level l, whose axes are ax and ay and whose parts on
   this rank are px and py: these become the coarse level's.  A split
   level is never the coarsest: below the last one that cannot be
   coarsened comes a whole copy, the same grid, solved on every rank.  */
static enum mg_status
add_level (struct mg_solver *mg, struct axis *ax, struct axis *ay,
           struct span *px, struct span *py, double c1)
{
  struct level *F = &mg->level[mg->count - 1], *C = F + 1;
  bool mx = false, my = false;
  if (!F->split || !is_coarsest (ax, ay))
    choose_merges (ax, ay, &mx, &my);
  struct transfer tx = { 0 }, ty = { 0 };
  struct axis cx = { 0 }, cy = { 0 };
  const size_t ncx = axis_coarse_unknowns (ax, mx);
  const size_t ncy = axis_coarse_unknowns (ay, my);
  size_t *sx = malloc ((ax->N + 1) * sizeof *sx);
  size_t *sy = malloc ((ay->N + 1) * sizeof *sy);
  bool ok = transfer_alloc (&tx, ax->n, ncx) && transfer_alloc (&ty, ay->n, ncy)
            && sx != NULL && sy != NULL && axis_coarsen (ax, mx, &cx, tx, sx)
            && axis_coarsen (ay, my, &cy, ty, sy);
  struct span qx = { 0 }, qy = { 0 };
  bool last = false, split = false;
  double owned = 0.0;
  if (ok)
    {
      qx = coarse_span (ax, &cx, sx, *px);
      qy = coarse_span (ay, &cy, sy, *py);
      last = is_coarsest (&cx, &cy);
      owned = owned_along_splits (qx, qy);
    }
  if (F->split)
    {
      ok = ranks_agree (mg, ok, &owned);
      split = ok && !last && owned >= SPLIT_MIN;
    }
  if (ok)
    {
      ok = fill_level (C, F, split, last, ax, &cx, sx, &tx, *px, qx, ay, &cy,
                       sy, &ty, *py, qy, c1);
      mg->count += C->block != NULL;
    }
  free (sx);
  free (sy);
  transfer_free (&tx);
  transfer_free (&ty);
  axis_free (ax);
  axis_free (ay);
  *ax = cx;
  *ay = cy;
  *px = split ? qx : (struct span) { 0, cx.n, false };
  *py = split ? qy : (struct span) { 0, cy.n, false };
  enum mg_status status = ok ? MG_OK : MG_NO_MEMORY;
  if (ok && last && !level_invert (C, mg->c0, mg->closed, ax, ay))
    status = MG_INVALID;
  if (F->split)
    {
      double none = 0.0;
      if (!ranks_agree (mg, status == MG_OK, &none) && status == MG_OK)
        status = MG_NO_MEMORY;
    }
  return status;
}

static bool
valid_setup (size_t nx, size_t ny, const struct mg_operator *op,
             const struct mg_boundary *bc)
{
  bool ok = nx > 0 && ny > 0 && isfinite (op->dx) && op->dx > 0.0
            && isfinite (op->dy) && op->dy > 0.0 && isfinite (op->c1)
            && op->c1 > 0.0 && isfinite (op->c0) && op->c0 >= 0.0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    ok = ok && bc->kind[e] >= BOUNDARY_DIRICHLET
         && bc->kind[e] <= BOUNDARY_PERIODIC;
  return ok && (bc->kind[EDGE_LEFT] == BOUNDARY_PERIODIC)
                 == (bc->kind[EDGE_RIGHT] == BOUNDARY_PERIODIC)
         && (bc->kind[EDGE_BOTTOM] == BOUNDARY_PERIODIC)
            == (bc->kind[EDGE_TOP] == BOUNDARY_PERIODIC);
}

/* The host kernels' scratch rows for as many threads as a parallel
   region may have now.  Without them (no memory, or more threads at a
   solve) the host uses the levels' residual arrays instead, so a
   failure here costs speed, not the solve, and needs no agreement
   between ranks.  */
static void
rows_alloc (struct mg_solver *mg)
{
  size_t width = 0;
  for (size_t l = 0; l < mg->count; ++l)
    width = mg->level[l].stride > width ? mg->level[l].stride : width;
  const size_t threads = (size_t) omp_get_max_threads ();
  mg->rows = NULL;
  if (threads <= SIZE_MAX / sizeof (double) / 3 / width)
    mg->rows = malloc (3 * width * threads * sizeof (double));
  mg->row_threads = mg->rows != NULL ? threads : 0;
  mg->row_width = width;
}

/* The hierarchy of the whole nx x ny grid, or with d of d's part of it
   (every rank of d calls it together).  */
static enum mg_status
create (struct mg_solver **out, size_t nx, size_t ny,
        const struct domain *d, const struct mg_operator *op,
        const struct mg_boundary *bc)
{
  *out = NULL;
  if (!valid_setup (nx, ny, op, bc))
    return MG_INVALID;
  struct mg_solver *mg = calloc (1, sizeof *mg);
  if (mg == NULL)
    return MG_NO_MEMORY;
  mg->domain = d;
  mg->cells = (double) nx * (double) ny;
  mg->c0 = op->c0;
  bool dirichlet = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      mg->kind[e] = bc->kind[e];
      dirichlet = dirichlet || bc->kind[e] == BOUNDARY_DIRICHLET;
    }
  mg->singular = op->c0 == 0.0 && !dirichlet;
  mg->closed = !dirichlet;

  const bool split = d != NULL;
  struct span px = { 0, nx, false }, py = { 0, ny, false };
  if (split)
    {
      px = (struct span) { d->x0, d->local_nx, d->dims[0] > 1 };
      py = (struct span) { d->y0, d->local_ny, d->dims[1] > 1 };
    }
  struct axis ax = { 0 }, ay = { 0 };
  struct level *L = &mg->level[0];
  bool ok = axis_fine (&ax, nx, op->dx, bc->kind[EDGE_LEFT],
                       bc->kind[EDGE_RIGHT])
            && axis_fine (&ay, ny, op->dy, bc->kind[EDGE_BOTTOM],
                          bc->kind[EDGE_TOP]);
  const bool last = ok && !split && is_coarsest (&ax, &ay);
  ok = ok && level_alloc (L, px.n, py.n, 0, 0, true, last);
  enum mg_status status = ok ? MG_OK : MG_NO_MEMORY;
  if (ok)
    {
      mg->count = 1;
      L->split = split;
      L->x0 = px.first;
      L->y0 = py.first;
      axis_weights (&ax, op->c1, px, L->axm, L->axp);
      axis_weights (&ay, op->c1, py, L->aym, L->ayp);
      if (last && !level_invert (L, mg->c0, mg->closed, &ax, &ay))
        status = MG_INVALID;
    }
  if (split)
    {
      double none = 0.0;
      if (!ranks_agree (mg, status == MG_OK, &none) && status == MG_OK)
        status = MG_NO_MEMORY;
    }
  while (status == MG_OK && mg->level[mg->count - 1].inverse == NULL)
    status = add_level (mg, &ax, &ay, &px, &py, op->c1);
  axis_free (&ax);
  axis_free (&ay);
  /* Ranks that failed on a whole level stopped early; all agree here.  */
  if (split)
    {
      double none = 0.0;
      if (!ranks_agree (mg, status == MG_OK, &none) && status == MG_OK)
        status = MG_NO_MEMORY;
    }
  if (status == MG_OK)
    rows_alloc (mg);
  if (status != MG_OK)
    {
      mg_destroy (mg);
      return status;
    }
  *out = mg;
  return MG_OK;
}

enum mg_status
mg_create (struct mg_solver **out, size_t nx, size_t ny,
           const struct mg_operator *op, const struct mg_boundary *bc)
{
  return create (out, nx, ny, NULL, op, bc);
}

enum mg_status
mg_create_part (struct mg_solver **out, const struct domain *d,
                const struct mg_operator *op, const struct mg_boundary *bc)
{
  return create (out, d->nx, d->ny, d->ranks > 1 ? d : NULL, op, bc);
}

static void hierarchy_leave (struct mg_solver *mg);

void
mg_destroy (struct mg_solver *mg)
{
  if (mg == NULL)
    return;
  hierarchy_leave (mg);
  for (size_t l = 0; l < mg->count; ++l)
    free (mg->level[l].block);
  free (mg->rows);
  free (mg);
}

size_t
mg_levels (const struct mg_solver *mg)
{
  return mg->count;
}

void
mg_level_size (const struct mg_solver *mg, size_t l, size_t *nx, size_t *ny)
{
  *nx = mg->level[l].nx;
  *ny = mg->level[l].ny;
}

struct mg_options
mg_default_options (void)
{
  return (struct mg_options) { .rtol = 1e-10, .max_cycles = 100, .pre = 1,
                               .post = 2, .smoother = MG_RED_BLACK,
                               .omega = 1.15, .placement = MG_HOST,
                               .device = -1 };
}

/* --------------------------------------------------------------- cycles */

/* The halo sources of level L (struct halo_src).  */
static struct halo_src
level_halo (const struct mg_solver *mg, const struct level *L)
{
  /* The edges of a part that trade with other ranks' parts, which fill
     their halo lines (level_refresh); the others are copied here.  */
  enum boundary_kind k[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    k[e] = L->split && domain_trades (mg->domain, (enum edge) e)
           ? BOUNDARY_DIRICHLET : mg->kind[e];
  const ptrdiff_t nx = (ptrdiff_t) L->nx, ny = (ptrdiff_t) L->ny;
  return (struct halo_src) {
    .left = k[EDGE_LEFT] == BOUNDARY_PERIODIC ? nx
            : k[EDGE_LEFT] == BOUNDARY_NEUMANN ? 1 : 0,
    .right = k[EDGE_RIGHT] == BOUNDARY_PERIODIC ? 1
             : k[EDGE_RIGHT] == BOUNDARY_NEUMANN ? nx : 0,
    .bottom = k[EDGE_BOTTOM] == BOUNDARY_PERIODIC ? ny
              : k[EDGE_BOTTOM] == BOUNDARY_NEUMANN ? 1 : 0,
    .top = k[EDGE_TOP] == BOUNDARY_PERIODIC ? 1
           : k[EDGE_TOP] == BOUNDARY_NEUMANN ? ny : 0,
    .corners = L != mg->level && mg->kind[EDGE_LEFT] == BOUNDARY_PERIODIC
               && mg->kind[EDGE_BOTTOM] == BOUNDARY_PERIODIC,
  };
}

/* Fill the halo of level L's u.  On a split level the columns trade
   first and the rows, whole, last, so that corners come from diagonal
   neighbours; a periodic axis that is not split copies its lines in
   between (its corners read the traded columns).  */
static void
level_refresh (struct exec *x, const struct mg_solver *mg,
               const struct level *L)
{
  if (L->split)
    domain_trade_halo (mg->domain, L->u, L->nx, L->ny, L->stride, 0);
  const struct halo_src h = level_halo (mg, L);
  k_halo (x, &h, L->nx, L->ny, L->stride, L->u);
  if (L->split)
    domain_trade_halo (mg->domain, L->u, L->nx, L->ny, L->stride, 1);
}

/* k_sums over the whole of level L, summed over the ranks of a split
   level.  */
static void
level_sums (struct exec *x, const struct mg_solver *mg, const struct level *L,
            const double *u, const double *f, const double sq[2],
            double sums[2])
{
  k_sums (x, L, u, f, mg->c0, sq, L->part, sums);
  if (L->split)
    domain_sum_ordered (mg->domain, sums, 2);
}

/* The unscaled sums: the interior sum of a field, and the norms whose
   sums of squares lie in the range of double.  */
static const double unscaled[2] = { 1.0, 1.0 };

double
mg_square_scale (double sum)
{
  /* Past an overflow, of at most 2^64 terms, the largest is above 2^480:
     2^-600 leaves every finite term below 2^424 (its squares sum below
     2^912) and drops to zero only squares below 2^-1074 of the largest's.
     Below DBL_MIN every term is below 2^-511: 2^600 lifts them below 2^89
     and the smallest (2^-1074) still squares to 2^-948.  */
  if (isinf (sum))
    return 0x1p-600;
  return sum < DBL_MIN ? 0x1p600 : 1.0;
}

/* The residual norms of the finest level: norms[0] of the residual,
   norms[1] of the scales of residual_at (the round-off floor's).  A sum
   of squares out of the range of double is taken again from scaled
   terms; one in range is left as it is, so an ordinary solve's norms
   keep their bits.  The scales are powers of two: exact.  */
static void
level_norms (struct exec *x, const struct mg_solver *mg, double norms[2])
{
  const struct level *L = mg->level;
  double sums[2];
  level_refresh (x, mg, L);
  level_sums (x, mg, L, L->u, L->f, unscaled, sums);
  const double sq[2] = { mg_square_scale (sums[0]),
                         mg_square_scale (sums[1]) };
  if (sq[0] != 1.0 || sq[1] != 1.0)
    level_sums (x, mg, L, L->u, L->f, sq, sums);
  norms[0] = sqrt (sums[0]) / sq[0];
  norms[1] = sqrt (sums[1]) / sq[1];
}

static void
level_smooth (struct exec *x, const struct mg_solver *mg,
              const struct level *L, unsigned sweeps,
              const struct mg_options *o)
{
  /* The colours are those of the whole grid: a part's cell (i, j) is
     (x0 + i, y0 + j) of its level.  */
  const unsigned parity = (unsigned) ((L->x0 + L->y0) & 1);
  /* With every edge Dirichlet, on one rank, the halo stays as it is.  */
  const struct halo_src h = level_halo (mg, L);
  const bool fixed_halo = !L->split && h.left == 0 && h.right == 0
                          && h.bottom == 0 && h.top == 0;
  for (unsigned s = 0; s < sweeps; ++s)
    if (o->smoother == MG_RED_BLACK && fixed_halo)
      k_sweep (x, L, mg->c0, o->omega, parity);
    else if (o->smoother == MG_RED_BLACK)
      for (unsigned color = 0; color < 2; ++color)
        {
          level_refresh (x, mg, L);
          k_smooth (x, L, mg->c0, o->omega, color ^ parity);
        }
    else
      {
        level_refresh (x, mg, L);
        k_residual (x, L, mg->c0);
        k_jacobi (x, L, mg->c0, o->omega);
      }
}

/* One V-cycle from level l down, on A_l u_l = f_l.  */
static void
vcycle (struct exec *x, const struct mg_solver *mg, size_t l,
        const struct mg_options *o)
{
  const struct level *L = &mg->level[l];
  x->at = l;
  if (l + 1 == mg->count)
    {
      const struct halo_src h = level_halo (mg, L);
      k_coarsest (x, &h, L, mg->c0);
      return;
    }
  const struct level *C = L + 1;
  level_smooth (x, mg, L, o->pre, o);
  level_refresh (x, mg, L);
  /* Below the last split level every rank holds the whole level: each
     restricts to the nodes of its part, 0 elsewhere, and the sum over
     the ranks (exact: one term of each is not 0) assembles it.  */
  const bool gather = L->split && !C->split;
  const size_t ccells = C->stride * (C->ny + 2);
  if (gather)
    {
      memset (C->f, 0, ccells * sizeof *C->f);
      memset (C->u, 0, ccells * sizeof *C->u);
    }
  k_restrict (x, mg, L, C);
  if (gather)
    domain_sum_exact (mg->domain, C->f, ccells);
  vcycle (x, mg, l + 1, o);
  x->at = l;
  level_refresh (x, mg, C);
  k_prolong (x, L, C);
  level_smooth (x, mg, L, o->post, o);
}

/* Whether p is on the device already: then mapping it moves nothing.  A
   build without device code moves nothing either, nor does the host
   fallback, where the runtime finds everything present.  */
static bool
present (const void *p, int device)
{
#ifdef HEATSIM_OFFLOAD
  return p == NULL || omp_target_is_present (p, device);
#else
  (void) p;
  (void) device;
  return true;
#endif
}

/* The hierarchy enters device's memory, each level's block (fields,
   right-hand sides, weights, tables, inverse) in one piece: kernels find
   its arrays by their host addresses, which lie inside the block.  */
static void
hierarchy_leave (struct mg_solver *mg)
{
  if (!mg->resident)
    return;
  for (size_t l = 0; l < mg->count; ++l)
    {
      char *block = mg->level[l].block;
      const size_t bytes = mg->level[l].bytes;
#pragma omp target exit data map(delete: block[0:bytes]) device(mg->device)
    }
  mg->resident = false;
}

static void
hierarchy_enter (struct mg_solver *mg, struct exec *x)
{
  if (mg->resident && mg->device == x->device)
    return;
  hierarchy_leave (mg);
  for (size_t l = 0; l < mg->count; ++l)
    {
      char *block = mg->level[l].block;
      const size_t bytes = mg->level[l].bytes;
      if (!present (block, x->device))
        x->to_device += bytes;
#pragma omp target enter data map(to: block[0:bytes]) device(x->device)
    }
  mg->resident = true;
  mg->device = x->device;
}

static bool
valid_solve (const struct mg_solver *mg, const struct field *u,
             const struct field *f, const struct mg_options *o)
{
  const struct level *L = &mg->level[0];
  const bool device = o->placement == MG_MAP || o->placement == MG_RESIDENT;
  return o->rtol >= 0.0 && o->rtol < 1.0 && isfinite (o->atol)
         && o->atol >= 0.0 && (o->rtol > 0.0 || o->atol > 0.0)
         && o->max_cycles >= 1
         && (mg->domain == NULL || o->placement == MG_HOST)
         && o->max_cycles <= MG_MAX_CYCLES && o->pre + o->post >= 1
         && (o->smoother == MG_RED_BLACK || o->smoother == MG_JACOBI)
         && o->omega > 0.0 && o->omega < 2.0
         && (o->placement == MG_HOST || device) && o->device >= -1
         && (!device || field_cells (u) <= (size_t) INT_MAX)
         && u->nx == L->nx && u->ny == L->ny && u->stride == L->stride
         && (f == NULL || (f->nx == L->nx && f->ny == L->ny
                           && f->stride == L->stride));
}

/* Shift the interior of level L's u by a constant, which the Laplacian
   does not see, so that its sum is heat.  */
static void
level_set_heat (struct exec *x, const struct mg_solver *mg,
                const struct level *L, double heat)
{
  double sums[2];
  level_sums (x, mg, L, L->u, NULL, unscaled, sums);
  k_shift (x, L, L->u, (heat - sums[0]) / mg->cells);
}

/* The cycles of mg_solve, with u and f where x's kernels find them.  */
static enum mg_status
solve (struct mg_solver *mg, struct exec *x, const struct field *u,
       const struct field *f, const struct mg_options *o,
       struct mg_report *report)
{
  struct level *L = &mg->level[0];
  const double cells = mg->cells;
  double sums[2], norms[2];
  L->u = u->data;
  /* A singular problem is solvable only for f of zero mean.  */
  double mean = 0.0, heat = 0.0;
  if (mg->singular && f != NULL)
    {
      level_sums (x, mg, L, f->data, NULL, unscaled, sums);
      mean = sums[0] / cells;
    }
  k_set (x, L, L->f, f != NULL ? f->data : NULL, -mean);
  L->zero_f = f == NULL;
  if (mg->singular)
    {
      level_sums (x, mg, L, L->u, NULL, unscaled, sums);
      heat = sums[0];
    }
  else if (mg->closed)
    {
      /* The solution's sum is f's over c0; the coarsest solve leaves the
         mean alone (level_invert): u gets it now and after each cycle.  */
      if (f != NULL)
        {
          level_sums (x, mg, L, f->data, NULL, unscaled, sums);
          heat = sums[0] / mg->c0;
        }
      level_set_heat (x, mg, L, heat);
    }

  level_norms (x, mg, norms);
  double norm = norms[0];
  report->initial = norm;
  report->history[0] = norm;
  enum mg_status status = MG_NOT_CONVERGED;
  unsigned cycles = 0;
  for (;;)
    {
      report->floor = 8.0 * DBL_EPSILON * norms[1];
      /* An infinite norm is at or below an infinite floor: never done.  */
      if (!isfinite (norm) || !isfinite (report->floor))
        {
          status = MG_NOT_FINITE;
          break;
        }
      if (norm <= o->rtol * report->initial || norm <= o->atol
          || norm <= report->floor)
        {
          status = MG_OK;
          break;
        }
      if (cycles == o->max_cycles)
        break;
      /* Every cycle launches the same kernels: keep the last one's.  */
      const struct exec before = *x;
      memset (x->level, 0, sizeof x->level);
      vcycle (x, mg, 0, o);
      x->at = 0;
      if (mg->closed && !mg->singular)
        level_set_heat (x, mg, L, heat);
      level_norms (x, mg, norms);
      memcpy (report->level_launches, x->level, sizeof x->level);
      report->cycle_launches = (unsigned) (x->launches - before.launches);
      report->cycle_to_device = x->to_device - before.to_device;
      report->cycle_from_device = x->from_device - before.from_device;
      for (size_t l = 0; l < MG_MAX_LEVELS; ++l)
        x->level[l] += before.level[l];
      norm = norms[0];
      report->history[++cycles] = norm;
    }
  if (mg->singular)
    {
      level_set_heat (x, mg, L, heat);
      level_refresh (x, mg, L);
    }
  report->cycles = cycles;
  report->final = norm;
  L->u = NULL;
  return status;
}

enum mg_status
mg_solve (struct mg_solver *mg, struct field *u, const struct field *f,
          const struct mg_options *o, struct mg_report *report)
{
  if (!valid_solve (mg, u, f, o))
    return MG_INVALID;
  struct exec x = { .where = o->placement, .device = o->device };
  if (x.device < 0)
    x.device = omp_get_default_device ();
  if (x.where == MG_HOST
      && (size_t) omp_get_max_threads () <= mg->row_threads)
    x.mg = mg;
  *report = (struct mg_report) { .levels = (unsigned) mg->count };
  if (x.where != MG_RESIDENT)
    {
      const enum mg_status status = solve (mg, &x, u, f, o, report);
      report->launches = x.launches;
      report->to_device = x.to_device;
      report->from_device = x.from_device;
      return status;
    }
  hierarchy_enter (mg, &x);
  /* The caller's fields: used in place when present (target data then
     moves nothing), else copied in, and u back, around the solve.  */
  double *ud = u->data;
  const double *fd = f != NULL ? f->data : NULL;
  const size_t n = field_cells (u), fn = f != NULL ? n : 0;
  if (!present (ud, x.device))
    {
      x.to_device += n * sizeof *ud;
      x.from_device += n * sizeof *ud;
    }
  if (!present (fd, x.device))
    x.to_device += fn * sizeof *fd;
  enum mg_status status;
#pragma omp target data map(tofrom: ud[0:n]) map(to: fd[0:fn]) \
  device(x.device)
  status = solve (mg, &x, u, f, o, report);
  report->launches = x.launches;
  report->to_device = x.to_device;
  report->from_device = x.from_device;
  return status;
}
