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
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LEVELS = 130 };   /* each level halves an axis of <= 2^64 */

/* The coarsest level: at most this many unknowns, solved by a dense
   inverse (a level that cannot be coarsened has 3 x 3 or fewer).  */
enum { DENSE_MAX = 64 };

/* Loops over fewer cells run on one thread: on the coarse levels a fork
   and join of the team costs more than the work.  */
enum { PARALLEL_MIN = 1 << 14 };

struct level {
  size_t nx, ny, stride;
  double *u, *f, *r;            /* u is the caller's on the finest level */
  double *axm, *axp;            /* c1 times the x weights, nx + 2 */
  double *aym, *ayp;            /* c1 times the y weights, ny + 2 */
  /* Transfers from the next finer level (not on the finest): restriction
     to coarse node I gathers fine nodes rxi[3I .. 3I+2] with weights rxw;
     prolongation to fine node i reads coarse pxi[i] (weight pxw[i]) and
     pxi[i] + 1 (1 - pxw[i]).  */
  size_t *rxi, *ryi, *pxi, *pyi;
  double *rxw, *ryw, *pxw, *pyw;
  double *inverse;              /* coarsest only: A^-1, (nx ny)^2 doubles */
  void *block;                  /* everything above, one allocation */
};

struct mg_solver {
  size_t count;                 /* levels */
  double c0;
  bool singular;                /* c0 = 0 and no Dirichlet edge */
  enum mg_edge_kind kind[MG_EDGES];
  struct level level[MAX_LEVELS];
};

/* ------------------------------------------------------------- kernels */

/* Fill the halo of the zero-flux edges with the adjacent interior line and
   of the periodic edges with the opposite one; Dirichlet halos stay.  The
   5-point stencil reads no corner; with corners, those of a doubly
   periodic grid are filled too (rows first, then full columns), for the
   prolongation from a coarse level.  */
static void
refresh_halo (size_t nx, size_t ny, size_t stride, double *u,
              int left, int right, int bottom, int top, bool corners)
{
  const size_t bottom_src = bottom == MG_PERIODIC ? ny : 1;
  const size_t top_src = top == MG_PERIODIC ? 1 : ny;
  if (bottom != MG_DIRICHLET || top != MG_DIRICHLET)
    {
#pragma omp parallel for schedule(static) if (nx >= PARALLEL_MIN)
      for (size_t i = 1; i <= nx; ++i)
        {
          if (bottom != MG_DIRICHLET)
            u[i] = u[bottom_src * stride + i];
          if (top != MG_DIRICHLET)
            u[(ny + 1) * stride + i] = u[top_src * stride + i];
        }
    }
  const size_t left_src = left == MG_PERIODIC ? nx : 1;
  const size_t right_src = right == MG_PERIODIC ? 1 : nx;
  const bool full = corners && left == MG_PERIODIC && bottom == MG_PERIODIC;
  const size_t j0 = full ? 0 : 1, j1 = full ? ny + 1 : ny;
  if (left != MG_DIRICHLET || right != MG_DIRICHLET)
    {
#pragma omp parallel for schedule(static) if (ny >= PARALLEL_MIN)
      for (size_t j = j0; j <= j1; ++j)
        {
          if (left != MG_DIRICHLET)
            u[j * stride] = u[j * stride + left_src];
          if (right != MG_DIRICHLET)
            u[j * stride + nx + 1] = u[j * stride + right_src];
        }
    }
}

/* One colour of a red-black SOR sweep: the nodes with (i + j) % 2 ==
   color move omega of the way to their Gauss-Seidel value, in place.  */
static void
smooth_color (size_t nx, size_t ny, size_t stride, double *restrict u,
              const double *restrict f, const double *restrict axm,
              const double *restrict axp, const double *restrict aym,
              const double *restrict ayp, double c0, double omega,
              unsigned color)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    {
      const double ym = aym[j], yp = ayp[j], cy = c0 + ym + yp;
      const size_t row = j * stride;
      for (size_t i = 1 + ((1 + j + color) & 1); i <= nx; i += 2)
        {
          const size_t c = row + i;
          const double gs = (f[c] + axm[i] * u[c - 1] + axp[i] * u[c + 1]
                             + ym * u[c - stride] + yp * u[c + stride])
                            / (cy + axm[i] + axp[i]);
          u[c] += omega * (gs - u[c]);
        }
    }
}

/* f - A u at cell c (diag the centre weight), and in *scale the sum of
   the magnitudes of its terms, the scale of its round-off.  */
static inline double
residual_cell (const double *u, const double *f, size_t c, size_t stride,
               double xm, double xp, double ym, double yp, double diag,
               double *scale)
{
  const double centre = diag * u[c];
  const double west = xm * u[c - 1], east = xp * u[c + 1];
  const double south = ym * u[c - stride], north = yp * u[c + stride];
  *scale = fabs (f[c]) + fabs (centre) + fabs (west) + fabs (east)
           + fabs (south) + fabs (north);
  return f[c] - (centre - west - east - south - north);
}

/* r = f - A u on the interior.  */
static void
residual (size_t nx, size_t ny, size_t stride, const double *restrict u,
          const double *restrict f, double *restrict r,
          const double *restrict axm, const double *restrict axp,
          const double *restrict aym, const double *restrict ayp, double c0)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    {
      const double ym = aym[j], yp = ayp[j], cy = c0 + ym + yp;
      const size_t row = j * stride;
      for (size_t i = 1; i <= nx; ++i)
        {
          double scale;
          r[row + i] = residual_cell (u, f, row + i, stride, axm[i], axp[i],
                                      ym, yp, cy + axm[i] + axp[i], &scale);
        }
    }
}

/* The norm of f - A u without storing it: sums[0] gets the sum of the
   squares of the residual, sums[1] of the scales of residual_cell.  The
   rows are summed in SIMD order, so the last bits of the norms depend on
   the vector width; the field does not.  */
static void
residual_norms (size_t nx, size_t ny, size_t stride, const double *restrict u,
                const double *restrict f, const double *restrict axm,
                const double *restrict axp, const double *restrict aym,
                const double *restrict ayp, double c0, double sums[2])
{
  double rr = 0.0, mm = 0.0;
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN) \
  reduction(+: rr, mm)
  for (size_t j = 1; j <= ny; ++j)
    {
      const double ym = aym[j], yp = ayp[j], cy = c0 + ym + yp;
      const size_t row = j * stride;
      double row_rr = 0.0, row_mm = 0.0;
#pragma omp simd reduction(+: row_rr, row_mm)
      for (size_t i = 1; i <= nx; ++i)
        {
          double scale;
          const double res = residual_cell (u, f, row + i, stride, axm[i],
                                            axp[i], ym, yp,
                                            cy + axm[i] + axp[i], &scale);
          row_rr += res * res;
          row_mm += scale * scale;
        }
      rr += row_rr;
      mm += row_mm;
    }
  sums[0] = rr;
  sums[1] = mm;
}

/* The weighted Jacobi update from a residual: u += omega r / diag.  */
static void
jacobi_correct (size_t nx, size_t ny, size_t stride, double *restrict u,
                const double *restrict r, const double *restrict axm,
                const double *restrict axp, const double *restrict aym,
                const double *restrict ayp, double c0, double omega)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    {
      const double cy = c0 + aym[j] + ayp[j];
      const size_t row = j * stride;
      for (size_t i = 1; i <= nx; ++i)
        u[row + i] += omega * r[row + i] / (cy + axm[i] + axp[i]);
    }
}

/* fc = R r: each coarse node averages up to 3 x 3 fine nodes; and the
   coarse correction uc starts from 0, in the same pass.  */
static void
restrict_residual (size_t nxc, size_t nyc, size_t sc, double *restrict fc,
                   double *restrict uc, size_t sf, const double *restrict r,
                   const size_t *restrict rxi, const double *restrict rxw,
                   const size_t *restrict ryi, const double *restrict ryw)
{
#pragma omp parallel for schedule(static) if (nxc * nyc >= PARALLEL_MIN)
  for (size_t J = 1; J <= nyc; ++J)
    {
      const double *r0 = r + ryi[3 * J] * sf, *r1 = r + ryi[3 * J + 1] * sf;
      const double *r2 = r + ryi[3 * J + 2] * sf;
      const double w0 = ryw[3 * J], w1 = ryw[3 * J + 1], w2 = ryw[3 * J + 2];
      for (size_t I = 1; I <= nxc; ++I)
        {
          double sum = 0.0;
          for (size_t k = 3 * I; k < 3 * I + 3; ++k)
            {
              const size_t i = rxi[k];
              sum += rxw[k] * (w0 * r0[i] + w1 * r1[i] + w2 * r2[i]);
            }
          fc[J * sc + I] = sum;
          uc[J * sc + I] = 0.0;
        }
    }
}

/* Prolongation uf += P uc in two passes, each cheap: first along y into
   t, nyf rows of the coarse row length sc (t[j][I] between the coarse
   rows around fine row j), then along x from t into uf.  Separate passes
   halve the work of a bilinear interpolation per fine node.  uc's halo
   is refreshed.  */
static void
prolong_rows (size_t nxc, size_t nyf, size_t sc, double *restrict t,
              const double *restrict uc, const size_t *restrict pyi,
              const double *restrict pyw)
{
#pragma omp parallel for schedule(static) if (nxc * nyf >= PARALLEL_MIN)
  for (size_t j = 1; j <= nyf; ++j)
    {
      const double *lo = uc + pyi[j] * sc, *hi = lo + sc;
      const double wy = pyw[j];
      for (size_t I = 0; I <= nxc + 1; ++I)
        t[j * sc + I] = wy * lo[I] + (1.0 - wy) * hi[I];
    }
}

static void
prolong_add (size_t nxf, size_t nyf, size_t sf, double *restrict uf,
             size_t sc, const double *restrict t,
             const size_t *restrict pxi, const double *restrict pxw)
{
#pragma omp parallel for schedule(static) if (nxf * nyf >= PARALLEL_MIN)
  for (size_t j = 1; j <= nyf; ++j)
    for (size_t i = 1; i <= nxf; ++i)
      {
        const size_t I = pxi[i];
        const double wx = pxw[i];
        uf[j * sf + i] += wx * t[j * sc + I] + (1.0 - wx) * t[j * sc + I + 1];
      }
}

/* u += A^-1 r on the coarsest level, A^-1 dense (n = nx ny unknowns).  */
static void
dense_correct (size_t nx, size_t ny, size_t stride, double *restrict u,
               const double *restrict r, const double *restrict inverse)
{
  const size_t n = nx * ny;
#pragma omp parallel for schedule(static) if (n * n >= PARALLEL_MIN)
  for (size_t p = 0; p < n; ++p)
    {
      double sum = 0.0;
      for (size_t q = 0; q < n; ++q)
        sum += inverse[p * n + q] * r[(q / nx + 1) * stride + q % nx + 1];
      u[(p / nx + 1) * stride + p % nx + 1] += sum;
    }
}

/* Interior sum.  */
static double
interior_sum (size_t nx, size_t ny, size_t stride, const double *u)
{
  double sum = 0.0;
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN) \
  reduction(+: sum)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      sum += u[j * stride + i];
  return sum;
}

/* dst = src + shift on the interior (src NULL: dst = shift).  */
static void
interior_set (size_t nx, size_t ny, size_t stride, double *restrict dst,
              const double *restrict src, double shift)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      dst[j * stride + i] = (src != NULL ? src[j * stride + i] : 0.0) + shift;
}

/* u += shift on the interior.  */
static void
interior_shift (size_t nx, size_t ny, size_t stride, double *u, double shift)
{
#pragma omp parallel for schedule(static) if (nx * ny >= PARALLEL_MIN)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      u[j * stride + i] += shift;
}

/* ------------------------------------------------------------ one axis */

/* One axis of one level while the hierarchy is built.  */
struct axis {
  size_t n, N;           /* unknowns, intervals */
  bool periodic, open_lo, open_hi;
  double *x;             /* N + 1 point positions */
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
axis_fine (struct axis *a, size_t n, double h, enum mg_edge_kind lo,
           enum mg_edge_kind hi)
{
  *a = (struct axis) {
    .n = n, .periodic = lo == MG_PERIODIC, .open_lo = lo == MG_ZERO_FLUX,
    .open_hi = hi == MG_ZERO_FLUX,
  };
  a->N = a->periodic ? n : n + 1;
  if (!axis_alloc (a))
    return false;
  for (size_t k = 0; k <= a->N; ++k)
    a->x[k] = (double) k * h;
  for (size_t k = 0; k < a->N; ++k)
    a->g[k] = 1.0 / h;
  for (size_t i = 1; i <= n; ++i)
    a->d[i] = h;
  /* A zero-flux face lies half a cell beyond the last node.  */
  if (a->open_lo)
    {
      a->x[0] = 0.5 * h;
      a->g[0] = 0.0;
    }
  if (a->open_hi)
    {
      a->x[a->N] = a->x[a->N - 1] + 0.5 * h;
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
  return a->open_lo ? 1 : 0;
}

static size_t
axis_merge_end (const struct axis *a)
{
  return a->open_hi ? a->N - 1 : a->N;
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
  return (a->x[a->N] - a->x[0]) / (double) a->N;
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
  return (k == 0 && c->open_lo) || (k + 1 == c->N && c->open_hi);
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
    .periodic = f->periodic, .open_lo = f->open_lo, .open_hi = f->open_hi,
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
    c->g[k] = axis_open_interval (c, k) ? 0.0 : 1.0 / (c->x[k + 1] - c->x[k]);

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

/* c1 times the weights of unknowns 1 .. n of axis a.  */
static void
axis_weights (const struct axis *a, double c1, double *am, double *ap)
{
  am[0] = ap[0] = am[a->n + 1] = ap[a->n + 1] = 0.0;
  for (size_t i = 1; i <= a->n; ++i)
    {
      am[i] = c1 * a->g[axis_left (a, i)] / a->d[i];
      ap[i] = c1 * a->g[axis_right (a, i)] / a->d[i];
    }
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
  const size_t indices = 3 * (nx + 2) + 3 * (ny + 2) + fnx + fny + 4;
  size_t total = 0;
  if (!add_bytes (&total, finest ? 2 : 3, bytes)
      || !add_bytes (&total, tables + unknowns * unknowns, sizeof (double))
      || !add_bytes (&total, indices, sizeof (size_t)))
    return false;
  L->block = calloc (1, total);
  if (L->block == NULL)
    return false;
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
   Gauss-Jordan elimination with partial pivoting.  A singular operator
   (constants in its kernel) gets the rank-one term s 1 v^T, v the nodes'
   volumes: for a compatible right-hand side (v^T r = 0, which restriction
   keeps) the solution is the same but for its mean, which becomes 0.  */
static bool
level_invert (struct level *L, double c0, bool singular,
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
  if (singular)
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

/* Level l + 1 below level l, whose axes are ax and ay, which become the
   coarse level's axes.  */
static enum mg_status
add_level (struct mg_solver *mg, struct axis *ax, struct axis *ay,
           double c1)
{
  struct level *F = &mg->level[mg->count - 1], *C = F + 1;
  bool mx, my;
  choose_merges (ax, ay, &mx, &my);
  struct transfer tx = { 0 }, ty = { 0 };
  struct axis cx = { 0 }, cy = { 0 };
  const size_t ncx = axis_coarse_unknowns (ax, mx);
  const size_t ncy = axis_coarse_unknowns (ay, my);
  size_t *s = malloc (((ax->N > ay->N ? ax->N : ay->N) + 1) * sizeof *s);
  bool ok = transfer_alloc (&tx, ax->n, ncx) && transfer_alloc (&ty, ay->n, ncy)
            && s != NULL && axis_coarsen (ax, mx, &cx, tx, s)
            && axis_coarsen (ay, my, &cy, ty, s);
  bool last = false;
  if (ok)
    {
      last = is_coarsest (&cx, &cy);
      ok = level_alloc (C, ncx, ncy, F->nx, F->ny, false, last);
    }
  if (ok)
    {
      mg->count++;
      memcpy (C->pxi, tx.pi, (F->nx + 2) * sizeof *tx.pi);
      memcpy (C->pxw, tx.pw, (F->nx + 2) * sizeof *tx.pw);
      memcpy (C->pyi, ty.pi, (F->ny + 2) * sizeof *ty.pi);
      memcpy (C->pyw, ty.pw, (F->ny + 2) * sizeof *ty.pw);
      memcpy (C->rxi, tx.ri, 3 * (ncx + 2) * sizeof *tx.ri);
      memcpy (C->rxw, tx.rw, 3 * (ncx + 2) * sizeof *tx.rw);
      memcpy (C->ryi, ty.ri, 3 * (ncy + 2) * sizeof *ty.ri);
      memcpy (C->ryw, ty.rw, 3 * (ncy + 2) * sizeof *ty.rw);
      axis_weights (&cx, c1, C->axm, C->axp);
      axis_weights (&cy, c1, C->aym, C->ayp);
    }
  free (s);
  transfer_free (&tx);
  transfer_free (&ty);
  axis_free (ax);
  axis_free (ay);
  *ax = cx;
  *ay = cy;
  if (ok && last && !level_invert (C, mg->c0, mg->singular, ax, ay))
    return MG_INVALID;
  return ok ? MG_OK : MG_NO_MEMORY;
}

static bool
valid_setup (size_t nx, size_t ny, const struct mg_operator *op,
             const struct mg_boundary *bc)
{
  bool ok = nx > 0 && ny > 0 && isfinite (op->dx) && op->dx > 0.0
            && isfinite (op->dy) && op->dy > 0.0 && isfinite (op->c1)
            && op->c1 > 0.0 && isfinite (op->c0) && op->c0 >= 0.0;
  for (int e = 0; e < MG_EDGES; ++e)
    ok = ok && bc->kind[e] >= MG_DIRICHLET && bc->kind[e] <= MG_PERIODIC;
  return ok && (bc->kind[MG_LEFT] == MG_PERIODIC)
                 == (bc->kind[MG_RIGHT] == MG_PERIODIC)
         && (bc->kind[MG_BOTTOM] == MG_PERIODIC)
            == (bc->kind[MG_TOP] == MG_PERIODIC);
}

enum mg_status
mg_create (struct mg_solver **out, size_t nx, size_t ny,
           const struct mg_operator *op, const struct mg_boundary *bc)
{
  *out = NULL;
  if (!valid_setup (nx, ny, op, bc))
    return MG_INVALID;
  struct mg_solver *mg = calloc (1, sizeof *mg);
  if (mg == NULL)
    return MG_NO_MEMORY;
  mg->c0 = op->c0;
  bool dirichlet = false;
  for (int e = 0; e < MG_EDGES; ++e)
    {
      mg->kind[e] = bc->kind[e];
      dirichlet = dirichlet || bc->kind[e] == MG_DIRICHLET;
    }
  mg->singular = op->c0 == 0.0 && !dirichlet;

  struct axis ax = { 0 }, ay = { 0 };
  enum mg_status status = MG_NO_MEMORY;
  if (axis_fine (&ax, nx, op->dx, bc->kind[MG_LEFT], bc->kind[MG_RIGHT])
      && axis_fine (&ay, ny, op->dy, bc->kind[MG_BOTTOM], bc->kind[MG_TOP]))
    {
      const bool last = is_coarsest (&ax, &ay);
      if (level_alloc (&mg->level[0], nx, ny, 0, 0, true, last))
        {
          mg->count = 1;
          axis_weights (&ax, op->c1, mg->level[0].axm, mg->level[0].axp);
          axis_weights (&ay, op->c1, mg->level[0].aym, mg->level[0].ayp);
          status = MG_OK;
          if (last && !level_invert (&mg->level[0], mg->c0, mg->singular,
                                     &ax, &ay))
            status = MG_INVALID;
          while (status == MG_OK && mg->level[mg->count - 1].inverse == NULL)
            status = add_level (mg, &ax, &ay, op->c1);
        }
    }
  axis_free (&ax);
  axis_free (&ay);
  if (status != MG_OK)
    {
      mg_destroy (mg);
      return status;
    }
  *out = mg;
  return MG_OK;
}

void
mg_destroy (struct mg_solver *mg)
{
  if (mg == NULL)
    return;
  for (size_t l = 0; l < mg->count; ++l)
    free (mg->level[l].block);
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
                               .post = 1, .smoother = MG_RED_BLACK,
                               .omega = 1.15 };
}

/* --------------------------------------------------------------- cycles */

static void
level_refresh (const struct mg_solver *mg, const struct level *L)
{
  refresh_halo (L->nx, L->ny, L->stride, L->u, mg->kind[MG_LEFT],
                mg->kind[MG_RIGHT], mg->kind[MG_BOTTOM], mg->kind[MG_TOP],
                L != mg->level);
}

static void
level_residual (const struct mg_solver *mg, const struct level *L)
{
  level_refresh (mg, L);
  residual (L->nx, L->ny, L->stride, L->u, L->f, L->r, L->axm, L->axp,
            L->aym, L->ayp, mg->c0);
}

static void
level_norms (const struct mg_solver *mg, const struct level *L,
             double sums[2])
{
  level_refresh (mg, L);
  residual_norms (L->nx, L->ny, L->stride, L->u, L->f, L->axm, L->axp,
                  L->aym, L->ayp, mg->c0, sums);
}

static void
level_smooth (const struct mg_solver *mg, const struct level *L,
              unsigned sweeps, enum mg_smoother smoother, double omega)
{
  for (unsigned s = 0; s < sweeps; ++s)
    if (smoother == MG_RED_BLACK)
      for (unsigned color = 0; color < 2; ++color)
        {
          level_refresh (mg, L);
          smooth_color (L->nx, L->ny, L->stride, L->u, L->f, L->axm, L->axp,
                        L->aym, L->ayp, mg->c0, omega, color);
        }
    else
      {
        level_residual (mg, L);
        jacobi_correct (L->nx, L->ny, L->stride, L->u, L->r, L->axm, L->axp,
                        L->aym, L->ayp, mg->c0, omega);
      }
}

/* One V-cycle from level l down, on A_l u_l = f_l.  */
static void
vcycle (const struct mg_solver *mg, size_t l, const struct mg_options *o)
{
  const struct level *L = &mg->level[l];
  if (l + 1 == mg->count)
    {
      level_residual (mg, L);
      dense_correct (L->nx, L->ny, L->stride, L->u, L->r, L->inverse);
      return;
    }
  const struct level *C = L + 1;
  level_smooth (mg, L, o->pre, o->smoother, o->omega);
  level_residual (mg, L);
  restrict_residual (C->nx, C->ny, C->stride, C->f, C->u, L->stride, L->r,
                     C->rxi, C->rxw, C->ryi, C->ryw);
  vcycle (mg, l + 1, o);
  level_refresh (mg, C);
  /* L's residual is spent: its storage holds the rows between.  */
  prolong_rows (C->nx, L->ny, C->stride, L->r, C->u, C->pyi, C->pyw);
  prolong_add (L->nx, L->ny, L->stride, L->u, C->stride, L->r, C->pxi,
               C->pxw);
  level_smooth (mg, L, o->post, o->smoother, o->omega);
}

static bool
valid_solve (const struct mg_solver *mg, const struct field *u,
             const struct field *f, const struct mg_options *o)
{
  const struct level *L = &mg->level[0];
  return o->rtol > 0.0 && o->rtol < 1.0 && o->max_cycles >= 1
         && o->max_cycles <= MG_MAX_CYCLES && o->pre + o->post >= 1
         && (o->smoother == MG_RED_BLACK || o->smoother == MG_JACOBI)
         && o->omega > 0.0 && o->omega < 2.0
         && u->nx == L->nx && u->ny == L->ny && u->stride == L->stride
         && (f == NULL || (f->nx == L->nx && f->ny == L->ny
                           && f->stride == L->stride));
}

enum mg_status
mg_solve (struct mg_solver *mg, struct field *u, const struct field *f,
          const struct mg_options *o, struct mg_report *report)
{
  if (!valid_solve (mg, u, f, o))
    return MG_INVALID;
  struct level *L = &mg->level[0];
  const size_t nx = L->nx, ny = L->ny, stride = L->stride;
  const double cells = (double) nx * (double) ny;
  L->u = u->data;
  /* A singular problem is solvable only for f of zero mean.  */
  const double mean = mg->singular && f != NULL
                      ? interior_sum (nx, ny, stride, f->data) / cells : 0.0;
  interior_set (nx, ny, stride, L->f, f != NULL ? f->data : NULL, -mean);
  const double heat = mg->singular ? interior_sum (nx, ny, stride, L->u) : 0.0;

  double sums[2];
  level_norms (mg, L, sums);
  double norm = sqrt (sums[0]);
  *report = (struct mg_report) { .initial = norm, .levels = mg->count };
  report->history[0] = norm;
  enum mg_status status = MG_NOT_CONVERGED;
  unsigned cycles = 0;
  for (;;)
    {
      report->floor = 8.0 * DBL_EPSILON * sqrt (sums[1]);
      if (norm <= o->rtol * report->initial || norm <= report->floor)
        {
          status = MG_OK;
          break;
        }
      if (!isfinite (norm) || cycles == o->max_cycles)
        break;
      vcycle (mg, 0, o);
      level_norms (mg, L, sums);
      norm = sqrt (sums[0]);
      report->history[++cycles] = norm;
    }
  if (mg->singular)
    {
      const double sum = interior_sum (nx, ny, stride, L->u);
      interior_shift (nx, ny, stride, L->u, (heat - sum) / cells);
      level_refresh (mg, L);
    }
  report->cycles = cycles;
  report->final = norm;
  L->u = NULL;
  return status;
}
