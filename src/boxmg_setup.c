/* The set-up of the black box multigrid: the finest level's matrix from
   the heat operator, the operator-dependent interpolation and the
   Galerkin coarse operators, level by level down to the coarsest.  */
#include <config.h>

#include "boxmg_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "operator.h"

/* The grid-sized arrays of a level: c, w, s, 1 / c; u, f below the
   finest (the finest level's are PCG's); the 9-point entries; the
   transfers and residual above the coarsest.  (The deflation's vectors
   have a block of their own, as many as the set-up finds.)  */
static size_t
level_arrays (bool nine_point, bool coarsest, bool finest)
{
  return 4 + (finest ? 0 : 2) + (nine_point ? 2 : 0) + (coarsest ? 0 : 5);
}

/* The padded cells of an nx x ny level, false where they or arrays + 1
   grids of them in bytes overflow.  */
static bool
level_cells (size_t nx, size_t ny, size_t arrays, size_t *cells)
{
  if (nx > SIZE_MAX - 2 || ny > SIZE_MAX - 2
      || nx + 2 > SIZE_MAX / (ny + 2))
    return false;
  *cells = (nx + 2) * (ny + 2);
  return *cells <= SIZE_MAX / sizeof (double) / (arrays + 1);
}

/* The doubles of a level's block: its arrays, and row sums: ny on the
   finest level, BOXMG_DEFLATE_MAX ny on those the deflation searches.  */
static bool
level_doubles (size_t nx, size_t ny, bool nine_point, bool coarsest,
               bool finest, size_t *doubles)
{
  const size_t arrays = level_arrays (nine_point, coarsest, finest);
  size_t cells;
  if (!level_cells (nx, ny, arrays, &cells))
    return false;
  *doubles = arrays * cells
             + (finest ? ny : coarsest ? 0 : BOXMG_DEFLATE_MAX * ny);
  return true;
}

bool
boxmg_level_alloc (struct boxmg_level *l, size_t nx, size_t ny,
                   bool nine_point, bool coarsest, bool finest)
{
  *l = (struct boxmg_level) { .nx = nx, .ny = ny, .stride = nx + 2 };
  size_t doubles;
  if (!level_doubles (nx, ny, nine_point, coarsest, finest, &doubles))
    return false;
  const size_t cells = (nx + 2) * (ny + 2);
  l->bytes = doubles * sizeof (double);
  l->block = calloc (doubles, sizeof (double));
  if (l->block == NULL)
    return false;
  double *next = l->block;
  double **fields[] = { &l->c, &l->w, &l->s, &l->inverse };
  for (size_t a = 0; a < sizeof fields / sizeof *fields; ++a, next += cells)
    *fields[a] = next;
  if (!finest)
    {
      l->u = next;
      l->f = next + cells;
      next += 2 * cells;
    }
  if (nine_point)
    {
      l->sw = next;
      l->se = next + cells;
      next += 2 * cells;
    }
  if (!coarsest)
    {
      for (int q = 0; q < 4; ++q, next += cells)
        l->p[q] = next;
      l->r = next;
      next += cells;
    }
  if (finest || !coarsest)
    l->row_sum = next;
  return true;
}

void
boxmg_level_free (struct boxmg_level *l)
{
  free (l->block);
  free (l->deflate);
  l->block = NULL;
  l->deflate = NULL;
  l->deflate_count = 0;
}

/* Index i (0 .. n + 2) of an axis of n nodes as the node it stands for:
   on a periodic axis, beyond an end the node of the ring, else itself.  */
static size_t
ring (size_t i, size_t n, bool periodic)
{
  if (!periodic)
    return i;
  return i == 0 ? n : i > n ? i - n : i;
}

/* The array offset of node (i, j) of l, (i, j) as ring takes them.  */
static size_t
node_at (const struct boxmg_level *l, size_t i, size_t j)
{
  return ring (j, l->ny, l->periodic_y) * l->stride
         + ring (i, l->nx, l->periodic_x);
}

/* The interpolation weight of fine node (i, j) from coarse node (I, J),
   0 where that coarse node is not one of its cell's corners.  Indices
   beyond a periodic end count on along the ring (I = n / 2 + 1 is coarse
   node 1): the weights of the fine ring repeat with an even period.  */
static double
weight (const struct boxmg_level *l, size_t i, size_t j, size_t I, size_t J)
{
  if (I < i / 2 || I > i / 2 + 1 || J < j / 2 || J > j / 2 + 1)
    return 0.0;
  return l->p[(J - j / 2) * 2 + (I - i / 2)][node_at (l, i, j)];
}

/* A coupling a of a node to a neighbour that interpolation reads: a
   negative one joins sum, a positive one (Galerkin operators of rough
   maps have them) the centre, so that no weight turns negative or
   overshoots 1.  */
static void
collapse (double a, double *sum, double *centre)
{
  if (a > 0.0)
    *centre += a;
  else
    *sum += a;
}

/* Fine node (i, j) with one odd index lies between two coarse nodes of
   a coarse line: its equation with the correction taken constant across
   the line (the stencil collapsed onto the line) gives the weights, so
   that the interpolant carries the flux through a jump in k.  */
static void
line_weights (struct boxmg_level *l, size_t i, size_t j)
{
  const size_t k = j * l->stride + i;
  const bool along_x = i % 2 == 1;
  /* Across the line: the collapsed neighbours; along it: the two sides.  */
  double centre = boxmg_entry (l, k, 0, 0), lower = 0.0, upper = 0.0;
  for (int d = -1; d <= 1; ++d)
    {
      if (along_x)
        {
          if (d != 0)
            centre += boxmg_entry (l, k, 0, d);
          collapse (boxmg_entry (l, k, -1, d), &lower, &centre);
          collapse (boxmg_entry (l, k, 1, d), &upper, &centre);
        }
      else
        {
          if (d != 0)
            centre += boxmg_entry (l, k, d, 0);
          collapse (boxmg_entry (l, k, d, -1), &lower, &centre);
          collapse (boxmg_entry (l, k, d, 1), &upper, &centre);
        }
    }
  if (!(centre > 0.0))
    return;
  l->p[0][k] = -lower / centre;
  l->p[along_x ? 1 : 2][k] = -upper / centre;
}

/* The diagonal of node k with its positive couplings added (collapse's
   rule for a centre node), in a fixed order.  */
static double
lumped_centre (const struct boxmg_level *l, size_t k)
{
  double centre = l->c[k];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if ((dx != 0 || dy != 0) && boxmg_entry (l, k, dx, dy) > 0.0)
        centre += boxmg_entry (l, k, dx, dy);
  return centre;
}

/* Fine node (i, j) with both indices odd: from its own equation over the
   interpolated values of its eight neighbours (its positive couplings
   lumped onto its diagonal, as collapse does).  */
static void
centre_weights (struct boxmg_level *l, size_t i, size_t j)
{
  const size_t k = j * l->stride + i;
  const double centre = lumped_centre (l, k);
  for (int q = 0; q < 4; ++q)
    {
      const size_t I = i / 2 + (size_t) (q % 2), J = j / 2 + (size_t) (q / 2);
      double sum = 0.0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx != 0 || dy != 0) && boxmg_entry (l, k, dx, dy) <= 0.0)
            sum += boxmg_entry (l, k, dx, dy)
                   * weight (l, (size_t) ((ptrdiff_t) i + dx),
                             (size_t) ((ptrdiff_t) j + dy), I, J);
      l->p[q][k] = -sum / centre;
    }
}

/* The same of a centre node whose eight neighbours are interior (3 <= i
   <= nx - 1, the same along y): no ring, and the weights known to be 0
   left out (those towards a coarse node that is no corner of the
   neighbour's cell: centre_weights adds them as entry times 0, which
   leaves its sum as it is).  Neighbour (i + dx, j + dy) has coarse node
   (I, J) = (i / 2 + q % 2, j / 2 + q / 2) as its corner (I - (i + dx) /
   2, J - (j + dy) / 2): q % 2 along x for dx <= 0, and corner 0 for dx
   = 1 where q % 2 = 1, none else.  Sums in centre_weights' order: the
   same bits.  */
static void
centre_weights_inner (struct boxmg_level *l, size_t i, size_t j)
{
  const size_t st = l->stride, k = j * st + i;
  const double centre = lumped_centre (l, k);
  for (int q = 0; q < 4; ++q)
    {
      const int qx = q % 2, qy = q / 2;
      double sum = 0.0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          {
            const int cx = dx <= 0 ? qx : qx - 1, cy = dy <= 0 ? qy : qy - 1;
            if ((dx == 0 && dy == 0) || cx < 0 || cy < 0
                || boxmg_entry (l, k, dx, dy) > 0.0)
              continue;
            const size_t n = (size_t) ((ptrdiff_t) k + dy * (ptrdiff_t) st
                                       + dx);
            sum += boxmg_entry (l, k, dx, dy) * l->p[cy * 2 + cx][n];
          }
      l->p[q][k] = -sum / centre;
    }
}

/* The weights towards coarse halo nodes are 0: those nodes are no
   unknowns, their corrections 0.  On a periodic axis coarse node 0 is
   node n / 2 of the ring, an unknown.  Only the fine lines at the ends
   have such corners (coarse index 0 at fine index 1, cn + 1 from 2 cn
   on): row j's columns between them are skipped, unless row j is at
   an end itself.  */
static void
clear_halo_weights (struct boxmg_level *l, size_t j)
{
  const size_t cnx = l->nx / 2, cny = l->ny / 2;
  const bool end_row = j == 1 || j >= 2 * cny;
  for (size_t i = 1; i <= l->nx; i = end_row || i + 1 >= 2 * cnx ? i + 1
                                     : 2 * cnx)
    for (int q = 0; q < 4; ++q)
      {
        const size_t I = i / 2 + (size_t) (q % 2);
        const size_t J = j / 2 + (size_t) (q / 2);
        if ((!l->periodic_x && (I < 1 || I > cnx))
            || (!l->periodic_y && (J < 1 || J > cny)))
          l->p[q][j * l->stride + i] = 0.0;
      }
}

/* The interpolation's halo lines on periodic axes.  */
static void
wrap_weights (struct boxmg_level *l)
{
  for (int q = 0; q < 4; ++q)
    boxmg_wrap_host (l, l->p[q]);
}

void
boxmg_interpolation (struct boxmg_level *l)
{
  const size_t nx = l->nx, ny = l->ny, st = l->stride;
  const bool threads = nx * ny > BOXMG_PARALLEL_NODES;
#pragma omp parallel for schedule(static) if (threads)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      if (i % 2 == 0 && j % 2 == 0)
        l->p[0][j * st + i] = 1.0;
      else if (i % 2 == 0 || j % 2 == 0)
        line_weights (l, i, j);
  /* The centres read the line nodes' weights (across a periodic end
     too): a pass of their own.  */
  wrap_weights (l);
#pragma omp parallel for schedule(static) if (threads)
  for (size_t j = 1; j <= ny; j += 2)
    for (size_t i = 1; i <= nx; i += 2)
      if (i >= 3 && i + 1 <= nx && j >= 3 && j + 1 <= ny)
        centre_weights_inner (l, i, j);
      else
        centre_weights (l, i, j);
#pragma omp parallel for schedule(static) if (threads)
  for (size_t j = 1; j <= ny; ++j)
    clear_halo_weights (l, j);
  wrap_weights (l);
}

/* Row (I, J) of R A P: the row of P^T A over the 5 x 5 fine nodes around
   (2I, 2J), then its products with the columns of P, gathered on the
   3 x 3 coarse nodes around (I, J).  */
static void
galerkin_row (const struct boxmg_level *fine, struct boxmg_level *coarse,
              size_t I, size_t J)
{
  const size_t ci = 2 * I, cj = 2 * J;
  double t[5][5] = { { 0.0 } };
  for (int ky = -1; ky <= 1; ++ky)
    for (int kx = -1; kx <= 1; ++kx)
      {
        const size_t i = ci + (size_t) kx, j = cj + (size_t) ky;
        if ((i > fine->nx && !fine->periodic_x)
            || (j > fine->ny && !fine->periodic_y))
          continue;
        const double a = weight (fine, i, j, I, J);
        if (a == 0.0)
          continue;
        for (int ly = -1; ly <= 1; ++ly)
          for (int lx = -1; lx <= 1; ++lx)
            t[ky + ly + 2][kx + lx + 2]
              += a * boxmg_entry (fine, node_at (fine, i, j), lx, ly);
      }
  /* Indices count on beyond a periodic end, so that the coarse
     neighbours keep their places (west, east) where the ring is short.  */
  double ac[3][3] = { { 0.0 } };
  for (int ty = 0; ty < 5; ++ty)
    for (int tx = 0; tx < 5; ++tx)
      {
        if (t[ty][tx] == 0.0)
          continue;
        const size_t i = ci + (size_t) tx - 2, j = cj + (size_t) ty - 2;
        for (int q = 0; q < 4; ++q)
          {
            const double p = fine->p[q][node_at (fine, i, j)];
            if (p == 0.0)
              continue;
            const size_t cI = i / 2 + (size_t) (q % 2);
            const size_t cJ = j / 2 + (size_t) (q / 2);
            ac[cJ + 1 - J][cI + 1 - I] += t[ty][tx] * p;
          }
      }
  const size_t k = J * coarse->stride + I;
  coarse->c[k] = ac[1][1];
  coarse->w[k] = ac[1][0];
  coarse->s[k] = ac[0][1];
  coarse->sw[k] = ac[0][0];
  coarse->se[k] = ac[0][2];
  coarse->inverse[k] = 1.0 / ac[1][1];
}

/* Coarse entry (I - 1 + ox, J - 1 + oy) of galerkin_inner's row: the
   sum over the fine nodes (tx, ty) of its 5 x 5 that have the coarse
   node as a corner q (ty / 2 + q / 2 = oy, tx / 2 + q % 2 = ox) of
   t[ty][tx] times that weight, row by row as galerkin_row adds them,
   in a register.  Called with constant ox, oy, so that the loops
   unroll.  */
static inline double
gather (const double t[5][5], const struct boxmg_level *fine, size_t origin,
        size_t oy, size_t ox)
{
  const size_t st = fine->stride;
  double sum = 0.0;
  for (size_t ty = oy == 0 ? 0 : 2 * oy - 2; ty <= 2 * oy + 1 && ty < 5; ++ty)
    for (size_t tx = ox == 0 ? 0 : 2 * ox - 2; tx <= 2 * ox + 1 && tx < 5;
         ++tx)
      sum += t[ty][tx]
             * fine->p[(oy - ty / 2) * 2 + (ox - tx / 2)][origin + ty * st
                                                          + tx];
  return sum;
}

/* The same as galerkin_row of a coarse node whose 5 x 5 fine nodes are
   all interior (2 <= I, 2 I + 2 <= nx, the same along y): no ring, no
   edge, so the offsets are known and the tests go, and the coarse
   entries are gathered in registers.  Every sum takes galerkin_row's
   terms in its order, so that the results are the same bits: the terms
   it skips as zero add zeros here, which leave a sum that starts at +0
   as it is.  Fine node (2 I + kx - 1, 2 J + ky - 1), kx, ky 0 .. 2,
   takes (I, J) as corner q = 2 (ky == 0) + (kx == 0) of its cell.  */
static void
galerkin_inner (const struct boxmg_level *fine, struct boxmg_level *coarse,
                size_t I, size_t J)
{
  const size_t st = fine->stride;
  /* Fine node (2 I - 2, 2 J - 2): the origin of t's 5 x 5.  */
  const size_t origin = (2 * J - 2) * st + 2 * I - 2;
  const bool nine = fine->sw != NULL;
  double t[5][5] = { { 0.0 } };
  for (size_t ky = 0; ky < 3; ++ky)
    for (size_t kx = 0; kx < 3; ++kx)
      {
        const size_t k = origin + (ky + 1) * st + kx + 1;
        const double a = fine->p[(ky == 0 ? 2 : 0) + (kx == 0 ? 1 : 0)][k];
        const double e[3][3] = {
          { nine ? fine->sw[k] : 0.0, fine->s[k],
            nine ? fine->se[k] : 0.0 },
          { fine->w[k], fine->c[k], fine->w[k + 1] },
          { nine ? fine->se[k + st - 1] : 0.0, fine->s[k + st],
            nine ? fine->sw[k + st + 1] : 0.0 } };
        for (size_t ly = 0; ly < 3; ++ly)
          for (size_t lx = 0; lx < 3; ++lx)
            t[ky + ly][kx + lx] += a * e[ly][lx];
      }
  const size_t k = J * coarse->stride + I;
  coarse->sw[k] = gather (t, fine, origin, 0, 0);
  coarse->s[k] = gather (t, fine, origin, 0, 1);
  coarse->se[k] = gather (t, fine, origin, 0, 2);
  coarse->w[k] = gather (t, fine, origin, 1, 0);
  coarse->c[k] = gather (t, fine, origin, 1, 1);
  coarse->inverse[k] = 1.0 / coarse->c[k];
}

/* Whether coarse index I (1 .. n / 2 of a fine axis of n) has its 5
   fine nodes 2 I - 2 .. 2 I + 2 within 1 .. n.  */
static bool
inner (size_t I, size_t n)
{
  return I >= 2 && 2 * I + 2 <= n;
}

void
boxmg_galerkin (const struct boxmg_level *fine, struct boxmg_level *coarse)
{
#pragma omp parallel for schedule(static) \
  if (fine->nx * fine->ny > BOXMG_PARALLEL_NODES)
  for (size_t J = 1; J <= coarse->ny; ++J)
    for (size_t I = 1; I <= coarse->nx; ++I)
      if (inner (I, fine->nx) && inner (J, fine->ny))
        galerkin_inner (fine, coarse, I, J);
      else
        galerkin_row (fine, coarse, I, J);
  double *entries[] = { coarse->c, coarse->w, coarse->s, coarse->sw,
                        coarse->se, coarse->inverse };
  for (size_t a = 0; a < sizeof entries / sizeof *entries; ++a)
    boxmg_wrap_host (coarse, entries[a]);
}

/* The finest level's matrix, c0 diag(rho c_p) + c1 (diag(sink) - L_k),
   and whether it is valid (coefficients finite, faces and sinks >= 0, a
   positive diagonal).  mass takes the diagonal's own part, c0 rho c_p
   + c1 sink.  */
static bool
finest_matrix (struct boxmg_level *l, const struct heat_operator *op,
               const double *sink, double c0, double c1, double *capacity,
               double *mass)
{
  const size_t nx = l->nx, ny = l->ny, st = l->stride;
  const bool threads = nx * ny > BOXMG_PARALLEL_NODES;
  const bool px = op->periodic_x, py = op->periodic_y;
  const double *const restrict wx = op->wx, *const restrict wy = op->wy;
  const double *const restrict heat_of = op->capacity;
  double *const restrict w = l->w, *const restrict s = l->s;
  double *const restrict c = l->c, *const restrict inverse = l->inverse;
  bool valid = true;
  /* Rows over the threads: the first touch of the level's and the
     solver's pages (faults the kernel clears page by page) is much of
     the time.  */
#pragma omp parallel for schedule(static) reduction(&&: valid) if (threads)
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      {
        const size_t k = j * st + i;
        const bool row = j >= 1 && j <= ny, col = i >= 1 && i <= nx;
        /* A periodic axis's face between its ends is read where it
           lies east (north) of the last node: it is that of column nx
           (row ny), whoever gathered the operator.  */
        if (row && i >= 1)
          {
            const size_t face = k - 1 + (px && i == 1 ? nx : 0);
            valid &= wx[face] >= 0.0 && isfinite (wx[face]);
            w[k] = -c1 * wx[face];
          }
        if (col && j >= 1)
          {
            const size_t face = k - st + (py && j == 1 ? ny * st : 0);
            valid &= wy[face] >= 0.0 && isfinite (wy[face]);
            s[k] = -c1 * wy[face];
          }
      }
#pragma omp parallel for schedule(static) reduction(&&: valid) if (threads)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = j * st + i;
        const double heat = c0 > 0.0 ? heat_of[k] : 0.0;
        const double loss = sink != NULL ? sink[k] : 0.0;
        valid &= heat >= 0.0 && isfinite (heat) && loss >= 0.0
                 && isfinite (loss);
        capacity[k] = heat_of[k];
        mass[k] = c0 * heat + c1 * loss;
        c[k] = mass[k] - (w[k] + w[k + 1] + s[k] + s[k + st]);
        valid &= c[k] > 0.0 && isfinite (c[k]);
        inverse[k] = 1.0 / c[k];
      }
  return valid;
}

/* The level's smoother (boxmg_internal.h), and the inverse pivots of
   its lines where it relaxes by lines: false where a pivot is not
   positive (a line of an operator singular to rounding).  */
static bool
choose_smoother (struct boxmg_level *l)
{
  const size_t nx = l->nx, ny = l->ny, st = l->stride;
  const double *const restrict c = l->c, *const restrict w = l->w,
    *const restrict s = l->s;
  double *const restrict inverse = l->inverse;
  double along_x = 0.0, along_y = 0.0;
  bool valid = true;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        along_x -= fmin (w[j * st + i], 0.0);
        along_y -= fmin (s[j * st + i], 0.0);
      }
  if (along_x > BOXMG_LINE_RATIO * along_y && !l->periodic_x)
    l->smoother = BOXMG_ROWS;
  else if (along_y > BOXMG_LINE_RATIO * along_x && !l->periodic_y)
    l->smoother = BOXMG_COLUMNS;
  if (l->smoother != BOXMG_POINTS)
    {
      /* The couplings along a line, and the node before along it.  */
      const bool rows = l->smoother == BOXMG_ROWS;
      const double *const a = rows ? w : s;
      const size_t back = rows ? 1 : st;
      for (size_t j = 1; j <= ny; ++j)
        for (size_t i = 1; i <= nx; ++i)
          {
            const size_t k = j * st + i;
            const bool first = rows ? i == 1 : j == 1;
            const double before = first ? 0.0
                                  : a[k] * a[k] * inverse[k - back];
            inverse[k] = 1.0 / (c[k] - before);
            valid &= inverse[k] > 0.0 && isfinite (inverse[k]);
          }
    }
  boxmg_wrap_host (l, inverse);
  return valid;
}

/* No Dirichlet face (every boundary face has conductance 0; a
   periodic axis has none) and no sink: nothing ties the temperature to
   a given one.  */
static bool
floating (const struct boxmg_level *l, const double *sink)
{
  const size_t nx = l->nx, ny = l->ny, st = l->stride;
  bool none = true;
  for (size_t j = 1; sink != NULL && j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      none &= sink[j * st + i] == 0.0;
  for (size_t j = 1; j <= ny && !l->periodic_x; ++j)
    none &= l->w[j * st + 1] == 0.0 && l->w[j * st + nx + 1] == 0.0;
  for (size_t i = 1; i <= nx && !l->periodic_y; ++i)
    none &= l->s[st + i] == 0.0 && l->s[(ny + 1) * st + i] == 0.0;
  return none;
}

/* Whether an axis of n nodes halves: a periodic one only to an even
   ring of at least 2 coarse nodes (boxmg_internal.h).  */
static bool
halves (size_t n, bool periodic)
{
  return n >= 3 && (!periodic || (n % 2 == 0 && n >= 4));
}

/* The levels of an nx x ny grid, and the coarsest's size in *nx, *ny.  */
static size_t
count_levels (size_t *nx, size_t *ny, bool periodic_x, bool periodic_y,
              size_t coarsest)
{
  size_t levels = 1;
  while (*nx * *ny > coarsest && halves (*nx, periodic_x)
         && halves (*ny, periodic_y))
    {
      *nx /= 2;
      *ny /= 2;
      ++levels;
    }
  return levels;
}

size_t
boxmg_coarsest_factor (size_t nx, size_t ny, bool periodic_x,
                       bool periodic_y, size_t *cnx, size_t *cny)
{
  *cnx = nx;
  *cny = ny;
  count_levels (cnx, cny, periodic_x, periodic_y, BOXMG_COARSEST_NODES);
  return boxmg_coarse_doubles (*cnx, *cny, periodic_x, periodic_y);
}

/* The solver's own arrays (solver_arrays).  */
enum { SOLVER_ARRAYS = 6 };

size_t
boxmg_footprint (size_t nx, size_t ny, bool periodic_x, bool periodic_y,
                 size_t coarsest, size_t *factor)
{
  *factor = SIZE_MAX;
  size_t cells, doubles;
  if (nx == 0 || ny == 0 || !level_cells (nx, ny, SOLVER_ARRAYS, &cells))
    return SIZE_MAX;
  size_t total = SOLVER_ARRAYS * cells;
  /* Level 1's padded cells (no overflow: fewer than the finest's).  */
  const size_t cells1 = (nx / 2 + 2) * (ny / 2 + 2);
  size_t cnx = nx, cny = ny;
  const size_t levels = count_levels (&cnx, &cny, periodic_x, periodic_y,
                                      coarsest > 0 ? coarsest
                                      : BOXMG_COARSEST_NODES);
  for (size_t l = 0; l < levels; ++l, nx /= 2, ny /= 2)
    {
      if (!level_doubles (nx, ny, l > 0, l + 1 == levels, l == 0, &doubles)
          || doubles > SIZE_MAX / sizeof (double) - total)
        return SIZE_MAX;
      total += doubles;
      /* The most deflation vectors the set-up may keep there.  */
      if (l > 0 && l + 1 < levels)
        {
          const size_t room = BOXMG_DEFLATE_MAX * (nx + 2) * (ny + 2);
          if (room > SIZE_MAX / sizeof (double) - total)
            return SIZE_MAX;
          total += room;
        }
    }
  /* The factor and the solve's right-hand side in one block (and a
     split factor's separator blocks); the deflation's scratch on the
     largest level it searches (level 1, where there are three levels or
     more), freed after the set-up.  */
  const size_t entries = boxmg_coarse_doubles (cnx, cny, periodic_x,
                                              periodic_y);
  const size_t scratch = boxmg_deflation_scratch (levels, cells1);
  if (entries > SIZE_MAX / sizeof (double)
      || scratch > SIZE_MAX / sizeof (double) - entries)
    return SIZE_MAX;
  *factor = (entries + scratch) * sizeof (double);
  return total * sizeof (double);
}

size_t
boxmg_bytes (const struct boxmg_solver *bm, size_t *factor)
{
  size_t total = bm->bytes;
  for (size_t l = 0; l < bm->levels; ++l)
    total += bm->level[l].bytes + boxmg_deflation_bytes (&bm->level[l]);
  /* The deflation's scratch, as boxmg_footprint counts it (also where
     the set-up skipped the search: k does not vary).  */
  const struct boxmg_level *finest = &bm->level[0];
  const size_t scratch
    = boxmg_deflation_scratch (bm->levels, (finest->nx / 2 + 2)
                                           * (finest->ny / 2 + 2));
  const struct boxmg_level *coarsest = &bm->level[bm->levels - 1];
  *factor = (boxmg_coarse_doubles (coarsest->nx, coarsest->ny,
                                   coarsest->periodic_x, coarsest->periodic_y)
             + scratch) * sizeof (double);
  return total;
}

/* The solver's own arrays: the finest rho c_p, PCG's p, q, z, r and
   the mass c0 rho c_p.  */
static bool
solver_arrays (struct boxmg_solver *bm)
{
  struct boxmg_level *l = &bm->level[0];
  const size_t cells = l->stride * (l->ny + 2);
  if (cells > SIZE_MAX / sizeof (double) / SOLVER_ARRAYS)
    return false;
  bm->bytes = SOLVER_ARRAYS * cells * sizeof (double);
  bm->block = calloc (SOLVER_ARRAYS * cells, sizeof (double));
  if (bm->block == NULL)
    return false;
  double *a = bm->block;
  bm->capacity = a;
  bm->pcg_p = a + cells;
  bm->pcg_q = a + 2 * cells;
  l->u = a + 3 * cells;     /* z, the preconditioned residual */
  l->f = a + 4 * cells;     /* r */
  bm->mass = a + 5 * cells;
  return true;
}

void
boxmg_destroy (struct boxmg_solver *bm)
{
  if (bm == NULL)
    return;
  boxmg_leave (bm, false);
  for (size_t l = 0; l < bm->levels; ++l)
    boxmg_level_free (&bm->level[l]);
  boxmg_coarse_free (&bm->coarse);
  free (bm->level);
  free (bm->block);
  free (bm);
}

size_t
boxmg_levels (const struct boxmg_solver *bm)
{
  return bm->levels;
}

static enum mg_status
build (struct boxmg_solver *bm, const struct heat_operator *op,
       const double *sink, double c0, double c1, size_t coarsest)
{
  size_t nx = op->nx, ny = op->ny;
  const size_t levels = count_levels (&nx, &ny, op->periodic_x,
                                      op->periodic_y, coarsest > 0 ? coarsest
                                      : BOXMG_COARSEST_NODES);
  nx = op->nx;
  ny = op->ny;
  bm->level = calloc (levels, sizeof *bm->level);
  if (bm->level == NULL)
    return MG_NO_MEMORY;
  for (size_t l = 0; l < levels; ++l, nx /= 2, ny /= 2)
    {
      if (!boxmg_level_alloc (&bm->level[l], nx, ny, l > 0, l + 1 == levels,
                              l == 0))
        return MG_NO_MEMORY;
      bm->level[l].periodic_x = op->periodic_x;
      bm->level[l].periodic_y = op->periodic_y;
      bm->levels = l + 1;
    }
  if (!solver_arrays (bm))
    return MG_NO_MEMORY;
  if (!finest_matrix (&bm->level[0], op, sink, c0, c1, bm->capacity,
                      bm->mass))
    return MG_INVALID;
  bm->floating = floating (&bm->level[0], sink);
  bm->singular = bm->floating && c0 == 0.0;
  for (size_t l = 0; l + 1 < levels; ++l)
    {
      boxmg_interpolation (&bm->level[l]);
      boxmg_galerkin (&bm->level[l], &bm->level[l + 1]);
      if (!choose_smoother (&bm->level[l]))
        return MG_SINGULAR;
    }
  const enum mg_status status = boxmg_coarse_factor (&bm->coarse,
                                                     &bm->level[levels - 1],
                                                     bm->singular);
  return status == MG_OK ? boxmg_deflation (bm) : status;
}

enum mg_status
boxmg_create (struct boxmg_solver **bm, const struct heat_operator *op,
              const double *sink, double c0, double c1, size_t coarsest)
{
  *bm = NULL;
  if (op->nx == 0 || op->ny == 0 || !(c0 >= 0.0) || !isfinite (c0)
      || !(c1 > 0.0) || !isfinite (c1))
    return MG_INVALID;
  struct boxmg_solver *s = calloc (1, sizeof *s);
  if (s == NULL)
    return MG_NO_MEMORY;
  s->c0 = c0;
  s->scale = 1.0;
  const enum mg_status status = build (s, op, sink, c0, c1, coarsest);
  if (status != MG_OK)
    {
      boxmg_destroy (s);
      return status;
    }
  *bm = s;
  return MG_OK;
}
