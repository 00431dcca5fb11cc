/* The passes of the black box multigrid over one level: Gauss-Seidel
   sweeps, residuals, the transfers, and the finest level's vector
   operations for conjugate gradients.  Each is a loop over rows, on the
   host (several threads above BOXMG_PARALLEL_NODES) or in a target
   region (x->device), both calling the same row functions below.  Sums
   are taken row by row into row_sum, which a device placement then
   fetches, and the rows added in order on the host, so they depend on
   neither the thread count nor the placement.  */
#include <config.h>

#include "boxmg_internal.h"

#include <math.h>
#include <omp.h>

#include "boxmg_cell.h"

static bool
threaded (const struct boxmg_level *l)
{
  return l->nx * l->ny > BOXMG_PARALLEL_NODES;
}

/* A device placement's target region, counted.  */
static bool
on_device (struct boxmg_exec *x)
{
  ++x->launches;
  return x->device;
}

#pragma omp declare target
/* Gauss-Seidel on the nodes of row j from column i0 in steps of 2 (sw
   NULL: a 5-point level).  */
static void
relax_row (double *u, const double *f, const double *d, const double *w,
           const double *s, const double *sw, const double *se,
           size_t stride, size_t nx, size_t j, size_t i0)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  const size_t row = j * stride;
  /* The nodes of a colour, two apart, do not couple (9 points reach
     one node): in vectors.  */
  if (sw == NULL)
    {
BOXMG_VECTOR_LOOP
      for (size_t i = i0; i <= nx; i += 2)
        {
          const size_t k = row + i;
          u[k] = (f[k] - boxmg_off5 (u + k, w + k, s + k, st)) * d[k];
        }
    }
  else
    {
BOXMG_VECTOR_LOOP
      for (size_t i = i0; i <= nx; i += 2)
        {
          const size_t k = row + i;
          u[k] = (f[k] - boxmg_off9 (u + k, w + k, s + k, sw + k, se + k,
                                     st))
                 * d[k];
        }
    }
}

/* out[1 .. nx] = f - A u over row j (f NULL for 0).  */
static void
residual_row (const double *c, const double *w, const double *s,
              const double *sw, const double *se, size_t stride, size_t nx,
              size_t j, const double *u, const double *f, double *out)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  const size_t row = j * stride;
  if (sw == NULL)
    {
BOXMG_VECTOR_LOOP
      for (size_t i = 1; i <= nx; ++i)
        {
          const size_t k = row + i;
          const double a = c[k] * u[k] + boxmg_off5 (u + k, w + k, s + k, st);
          out[i] = (f != NULL ? f[k] : 0.0) - a;
        }
    }
  else
    {
BOXMG_VECTOR_LOOP
      for (size_t i = 1; i <= nx; ++i)
        {
          const size_t k = row + i;
          const double a = c[k] * u[k]
                           + boxmg_off9 (u + k, w + k, s + k, sw + k, se + k,
                                         st);
          out[i] = (f != NULL ? f[k] : 0.0) - a;
        }
    }
}

/* Coarse row J of P^T r, rb, rk and rt r's fine rows 2 J - 1, 2 J and
   2 J + 1 (each from its column 0).  The fine nodes around (2I, 2J):
   those west of or below it see this coarse node as their east or
   north one.  */
static void
restrict_row (const double *rb, const double *rk, const double *rt,
              const double *p0, const double *p1, const double *p2,
              const double *p3, size_t fs, double *f, size_t cs, size_t nx,
              size_t J)
{
BOXMG_VECTOR_LOOP
  for (size_t I = 1; I <= nx; ++I)
    {
      const size_t i = 2 * I, k = 2 * J * fs + i;
      const size_t b = k - fs, t = k + fs;
      f[J * cs + I] = p3[b - 1] * rb[i - 1] + p2[b] * rb[i] + p2[b + 1]
                      * rb[i + 1]
                      + p1[k - 1] * rk[i - 1] + p0[k] * rk[i]
                      + p0[k + 1] * rk[i + 1]
                      + p1[t - 1] * rt[i - 1] + p0[t] * rt[i]
                      + p0[t + 1] * rt[i + 1];
    }
}

/* Fine node k += P coarse u, q the coarse cell's lower-left node.  */
static inline void
prolong_at (double *u, const double *p0, const double *p1, const double *p2,
            const double *p3, const double *uc, size_t cs, size_t k,
            size_t q)
{
  u[k] += p0[k] * uc[q] + p1[k] * uc[q + 1] + p2[k] * uc[q + cs]
          + p3[k] * uc[q + cs + 1];
}

/* Fine row j += P coarse u: node 1, then the pairs of nodes 2 I and
   2 I + 1 of coarse cell I (in vectors: the coarse index is I itself,
   not i / 2), then node nx if even.  */
static void
prolong_row (double *u, const double *p0, const double *p1, const double *p2,
             const double *p3, size_t fs, const double *uc, size_t cs,
             size_t nx, size_t j)
{
  const size_t row = j * fs, cell = (j / 2) * cs;
  prolong_at (u, p0, p1, p2, p3, uc, cs, row + 1, cell);
  const size_t pairs = (nx - 1) / 2;
BOXMG_VECTOR_LOOP
  for (size_t I = 1; I <= pairs; ++I)
    {
      prolong_at (u, p0, p1, p2, p3, uc, cs, row + 2 * I, cell + I);
      prolong_at (u, p0, p1, p2, p3, uc, cs, row + 2 * I + 1, cell + I);
    }
  if (nx % 2 == 0)
    prolong_at (u, p0, p1, p2, p3, uc, cs, row + nx, cell + nx / 2);
}

/* sum over i < n of w[i] a[i] b[i] (w or b NULL for 1), in four lanes
   (i % 4, the last n % 4 terms into lane 0: indices the compiler
   knows, so that a GPU keeps the lanes in registers), added at the
   end: one running sum is a chain of additions
   that each wait on the last (4 cycles a node, most of a dot product's
   time in cache), and the order is fixed, the same on every placement
   and thread count.  */
static double
lanes_sum (const double *w, const double *a, const double *b, size_t n)
{
  double part[4] = { 0.0, 0.0, 0.0, 0.0 };
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (size_t h = 0; h < 4; ++h)
      part[h] += (w != NULL ? w[i + h] : 1.0) * a[i + h]
                 * (b != NULL ? b[i + h] : 1.0);
  for (; i < n; ++i)
    part[0] += (w != NULL ? w[i] : 1.0) * a[i] * (b != NULL ? b[i] : 1.0);
  return (part[0] + part[1]) + (part[2] + part[3]);
}

/* The vector passes of PCG over row j, those that sum returning their
   row's sum.  */
static void
zero_row (double *u, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    u[j * stride + i] = 0.0;
}

static double
true_residual_row (const double *mass, const double *w, const double *s,
                   size_t stride, size_t nx, size_t j, const double *u,
                   const double *f, double *r)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      r[k] = (f != NULL ? f[k] : 0.0) - mass[k] * u[k]
             - boxmg_flows5 (u + k, w + k, s + k, st);
    }
  const double *row = r + j * stride + 1;
  return lanes_sum (NULL, row, row, nx);
}

static double
floor_row (const double *mass, const double *w, const double *s,
           size_t stride, size_t nx, size_t j, const double *u,
           const double *f)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  double part[4] = { 0.0, 0.0, 0.0, 0.0 };
  size_t i = 1;
  for (; i + 3 <= nx; i += 4)
    for (size_t h = 0; h < 4; ++h)
      {
        const size_t k = j * stride + i + h;
        const double m = boxmg_terms5 (f != NULL ? f[k] : 0.0, u + k,
                                       mass[k], w + k, s + k, st);
        part[h] += m * m;
      }
  for (; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      const double m = boxmg_terms5 (f != NULL ? f[k] : 0.0, u + k, mass[k],
                                     w + k, s + k, st);
      part[0] += m * m;
    }
  return (part[0] + part[1]) + (part[2] + part[3]);
}

/* q = A p over row j (sw NULL: a 5-point level); returns its p . q.  */
static double
apply_row (const double *c, const double *w, const double *s,
           const double *sw, const double *se, size_t stride, size_t nx,
           size_t j, const double *p, double *q)
{
  residual_row (c, w, s, sw, se, stride, nx, j, p, NULL, q + j * stride);
  for (size_t i = 1; i <= nx; ++i)
    q[j * stride + i] = -q[j * stride + i];
  return lanes_sum (NULL, p + j * stride + 1, q + j * stride + 1, nx);
}

static double
update_row (double alpha, const double *p, const double *q, double *u,
            double *r, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      u[k] += alpha * p[k];
      r[k] -= alpha * q[k];
    }
  const double *row = r + j * stride + 1;
  return lanes_sum (NULL, row, row, nx);
}

static void
direction_row (double beta, const double *z, double *p, size_t stride,
               size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      p[k] = z[k] + beta * p[k];
    }
}

/* sum of w a b over the row, w or b NULL for 1.  */
static double
dot_row (const double *w, const double *a, const double *b, size_t stride,
         size_t nx, size_t j)
{
  const size_t k = j * stride + 1;
  return lanes_sum (w != NULL ? w + k : NULL, a + k, b != NULL ? b + k : NULL,
                    nx);
}

static void
shift_row (double shift, double *a, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    a[j * stride + i] += shift;
}

/* Row j of a padded array, its halo nodes too: u += sum over a of
   part[a] times vector a of z (count of them, cells apart), in order.  */
static void
deflate_row (const double *part, size_t count, const double *z,
             size_t cells, double *u, size_t stride, size_t j)
{
  for (size_t i = 0; i < stride; ++i)
    {
      const size_t k = j * stride + i;
      double sum = u[k];
      for (size_t a = 0; a < count; ++a)
        sum += part[a] * z[a * cells + k];
      u[k] = sum;
    }
}

/* Row j's dot products of the count vectors of z with f: row_sum[a ny
   + j - 1].  */
static void
parts_row (size_t count, const double *z, size_t cells, const double *f,
           double *row_sum, size_t stride, size_t nx, size_t ny, size_t j)
{
  for (size_t a = 0; a < count; ++a)
    row_sum[a * ny + j - 1] = dot_row (NULL, z + a * cells, f, stride, nx,
                                       j);
}

/* Row j's halo nodes from the row's ends (a periodic x axis).  */
static void
wrap_row (double *a, size_t stride, size_t nx, size_t j)
{
  a[j * stride] = a[j * stride + nx];
  a[j * stride + nx + 1] = a[j * stride + 1];
}

/* Column i's halo nodes from the column's ends (a periodic y axis).  */
static void
wrap_column (double *a, size_t stride, size_t ny, size_t i)
{
  a[i] = a[ny * stride + i];
  a[(ny + 1) * stride + i] = a[stride + i];
}
#pragma omp end declare target

/* The halo rows of a periodic y axis, the whole width (the corners
   from the x halo's copies).  */
static void
wrap_y (struct boxmg_exec *x, const struct boxmg_level *l, double *a)
{
  const size_t stride = l->stride, ny = l->ny, width = l->nx + 2;
  if (!l->periodic_y)
    return;
  if (x != NULL && on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t i = 0; i < width; ++i)
        wrap_column (a, stride, ny, i);
      return;
    }
  for (size_t i = 0; i < width; ++i)
    wrap_column (a, stride, ny, i);
}

/* The halo columns of a periodic x axis, the whole height.  */
static void
wrap_x (struct boxmg_exec *x, const struct boxmg_level *l, double *a)
{
  const size_t stride = l->stride, nx = l->nx, height = l->ny + 2;
  if (!l->periodic_x)
    return;
  if (x != NULL && on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 0; j < height; ++j)
        wrap_row (a, stride, nx, j);
      return;
    }
  for (size_t j = 0; j < height; ++j)
    wrap_row (a, stride, nx, j);
}

/* The rows first, then the columns over the wrapped rows: the corners
   of two periodic axes are the opposite corners.  */
void
boxmg_wrap_host (const struct boxmg_level *l, double *a)
{
  wrap_y (NULL, l, a);
  wrap_x (NULL, l, a);
}

void
boxmg_wrap (struct boxmg_exec *x, const struct boxmg_level *l, double *a)
{
  wrap_y (x, l, a);
  wrap_x (x, l, a);
}

#pragma omp declare target
/* Row j solved whole, the rows beside it held (an x line): forward
   elimination into u, back substitution; d holds the inverse pivots of
   the row's factor (boxmg_setup.c).  The halo node before the row
   enters as the point smoother reads it.  */
static void
line_row (double *u, const double *f, const double *d, const double *w,
          const double *s, const double *sw, const double *se,
          size_t stride, size_t nx, size_t j)
{
  const size_t row = j * stride;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = row + i;
      u[k] = (f[k] - boxmg_off_rows (u, s, sw, se, k, stride)
              - w[k] * u[k - 1])
             * d[k];
    }
  for (size_t i = nx - 1; i >= 1; --i)
    {
      const size_t k = row + i;
      u[k] -= w[k + 1] * d[k] * u[k + 1];
    }
}

/* Columns first, first + 2, ..., last solved whole in the same way (y
   lines), the columns beside them held.  The columns do not couple:
   each node's arithmetic is the same whether they run together, row by
   row (the host's, in cache) or one by one (the device's).  */
static void
line_columns (double *u, const double *f, const double *d, const double *w,
              const double *s, const double *sw, const double *se,
              size_t stride, size_t ny, size_t first, size_t last)
{
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = first; i <= last; i += 2)
      {
        const size_t k = j * stride + i;
        u[k] = (f[k] - boxmg_off_columns (u, w, sw, se, k, stride)
                - s[k] * u[k - stride])
               * d[k];
      }
  for (size_t j = ny - 1; j >= 1; --j)
    for (size_t i = first; i <= last; i += 2)
      {
        const size_t k = j * stride + i;
        u[k] -= s[k + stride] * d[k] * u[k + stride];
      }
}
#pragma omp end declare target

/* Row j's two colours (first, second) in turn; on a periodic x axis
   the row's halo nodes follow each colour, so that the next one reads
   the ring's new values (an even ring: nodes 1 and nx differ in
   colour).  Or (line) the row solved whole.  */
#pragma omp declare target
static void
relax_colours (double *u, const double *f, const double *d, const double *w,
               const double *s, const double *sw, const double *se,
               size_t stride, size_t nx, size_t j, size_t first,
               size_t second, bool periodic_x, bool line)
{
  if (line)
    {
      line_row (u, f, d, w, s, sw, se, stride, nx, j);
      return;
    }
  relax_row (u, f, d, w, s, sw, se, stride, nx, j, first);
  if (periodic_x)
    wrap_row (u, stride, nx, j);
  relax_row (u, f, d, w, s, sw, se, stride, nx, j, second);
  if (periodic_x)
    wrap_row (u, stride, nx, j);
}
#pragma omp end declare target

/* Colours (even, odd) of the rows of parity j0 % 2 (j0 = 1 or 2): the
   rows of one parity do not couple (9 points reach one row up and
   down), so each row does its two colours in turn, in cache, and the
   rows run in parallel (or each row solved whole, a line smoother's).
   A periodic y axis's halo rows follow.
   row_sum not NULL: the rows are final, and each row's f . u goes to
   row_sum (PCG's r . z on the finest level, taken while the row is in
   cache).  */
static void
relax_rows (struct boxmg_exec *x, struct boxmg_level *l, size_t j0,
            size_t first, size_t second, double *row_sum)
{
  const size_t rows = l->ny >= j0 ? (l->ny - j0) / 2 + 1 : 0;
  const size_t stride = l->stride, nx = l->nx;
  const bool px = l->periodic_x, line = l->smoother == BOXMG_ROWS;
  double *u = l->u;
  const double *f = l->f, *d = l->inverse, *w = l->w, *s = l->s,
    *sw = l->sw, *se = l->se;
  /* A kernel of its own for the lines on a device: one that may solve
     a line takes 190 registers a thread where the point smoother's
     takes 138 (make device-report, sm_90), which costs it occupancy.  */
  if (on_device (x) && line)
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t t = 0; t < rows; ++t)
        {
          const size_t j = j0 + 2 * t;
          line_row (u, f, d, w, s, sw, se, stride, nx, j);
          if (row_sum != NULL)
            row_sum[j - 1] = dot_row (NULL, f, u, stride, nx, j);
        }
    }
  else if (x->device)
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t t = 0; t < rows; ++t)
        {
          const size_t j = j0 + 2 * t;
          relax_colours (u, f, d, w, s, sw, se, stride, nx, j, first, second,
                         px, false);
          if (row_sum != NULL)
            row_sum[j - 1] = dot_row (NULL, f, u, stride, nx, j);
        }
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t t = 0; t < rows; ++t)
        {
          const size_t j = j0 + 2 * t;
          relax_colours (u, f, d, w, s, sw, se, stride, nx, j, first, second,
                         px, line);
          if (row_sum != NULL)
            row_sum[j - 1] = dot_row (NULL, f, u, stride, nx, j);
        }
    }
  wrap_y (x, l, u);
}

/* row_sum[j - 1] = dot_row (w, a, b) of row j, every row.  */
static void
dot_rows (struct boxmg_exec *x, const struct boxmg_level *l, const double *w,
          const double *a, const double *b, double *row_sum)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = dot_row (w, a, b, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = dot_row (w, a, b, stride, nx, j);
    }
}

/* The columns of parity i0 % 2 solved whole: on the host each thread's
   share of them together, row by row.  */
static void
line_column_set (struct boxmg_exec *x, struct boxmg_level *l, size_t i0)
{
  const size_t columns = l->nx >= i0 ? (l->nx - i0) / 2 + 1 : 0;
  const size_t stride = l->stride, ny = l->ny;
  double *u = l->u;
  const double *f = l->f, *d = l->inverse, *w = l->w, *s = l->s,
    *sw = l->sw, *se = l->se;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t t = 0; t < columns; ++t)
        line_columns (u, f, d, w, s, sw, se, stride, ny, i0 + 2 * t,
                      i0 + 2 * t);
    }
  else
    {
#pragma omp parallel if (threaded (l))
      {
        const size_t n = (size_t) omp_get_num_threads ();
        const size_t me = (size_t) omp_get_thread_num ();
        const size_t t0 = columns * me / n, t1 = columns * (me + 1) / n;
        if (t1 > t0)
          line_columns (u, f, d, w, s, sw, se, stride, ny, i0 + 2 * t0,
                        i0 + 2 * (t1 - 1));
      }
    }
  wrap_x (x, l, u);
}

/* Zebra line Gauss-Seidel: forward the lines of parity 0, then 1;
   backward the reverse, the adjoint sweep.  */
static void
smooth_lines (struct boxmg_exec *x, struct boxmg_level *l, bool forward,
              double *row_sum)
{
  const size_t first = forward ? 2 : 1, second = forward ? 1 : 2;
  if (l->smoother == BOXMG_ROWS)
    {
      relax_rows (x, l, first, 0, 0, row_sum);
      relax_rows (x, l, second, 0, 0, row_sum);
      return;
    }
  line_column_set (x, l, first);
  line_column_set (x, l, second);
  if (row_sum != NULL)
    dot_rows (x, l, NULL, l->f, l->u, row_sum);
}

/* Forward: colours (i % 2, j % 2) = (0, 0), (1, 0), (0, 1), (1, 1);
   backward the reverse, the adjoint sweep.  */
static void
smooth (struct boxmg_exec *x, struct boxmg_level *l, bool forward,
        double *row_sum)
{
  if (l->smoother != BOXMG_POINTS)
    smooth_lines (x, l, forward, row_sum);
  else if (forward)
    {
      relax_rows (x, l, 2, 2, 1, row_sum);
      relax_rows (x, l, 1, 2, 1, row_sum);
    }
  else
    {
      relax_rows (x, l, 1, 1, 2, row_sum);
      relax_rows (x, l, 2, 1, 2, row_sum);
    }
}

static void
residual (struct boxmg_exec *x, struct boxmg_level *l)
{
  const size_t ny = l->ny, nx = l->nx, stride = l->stride;
  const double *c = l->c, *w = l->w, *s = l->s, *sw = l->sw, *se = l->se;
  const double *u = l->u, *f = l->f;
  double *r = l->r;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        residual_row (c, w, s, sw, se, stride, nx, j, u, f, r + j * stride);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        residual_row (c, w, s, sw, se, stride, nx, j, u, f, r + j * stride);
    }
  boxmg_wrap (x, l, r);
}

static void
restriction (struct boxmg_exec *x, const struct boxmg_level *fine,
             const struct boxmg_level *coarse)
{
  const size_t fs = fine->stride, cs = coarse->stride;
  const size_t nx = coarse->nx, ny = coarse->ny;
  const double *r = fine->r, *p0 = fine->p[0], *p1 = fine->p[1],
    *p2 = fine->p[2], *p3 = fine->p[3];
  double *f = coarse->f;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t J = 1; J <= ny; ++J)
        restrict_row (r + (2 * J - 1) * fs, r + 2 * J * fs,
                      r + (2 * J + 1) * fs, p0, p1, p2, p3, fs, f, cs, nx, J);
      return;
    }
#pragma omp parallel for schedule(static) if (threaded (fine))
  for (size_t J = 1; J <= ny; ++J)
    restrict_row (r + (2 * J - 1) * fs, r + 2 * J * fs, r + (2 * J + 1) * fs,
                  p0, p1, p2, p3, fs, f, cs, nx, J);
}

static void
prolong (struct boxmg_exec *x, struct boxmg_level *fine,
         const struct boxmg_level *coarse)
{
  const size_t fs = fine->stride, cs = coarse->stride;
  const size_t nx = fine->nx, ny = fine->ny;
  const double *uc = coarse->u, *p0 = fine->p[0], *p1 = fine->p[1],
    *p2 = fine->p[2], *p3 = fine->p[3];
  double *u = fine->u;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        prolong_row (u, p0, p1, p2, p3, fs, uc, cs, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (fine))
      for (size_t j = 1; j <= ny; ++j)
        prolong_row (u, p0, p1, p2, p3, fs, uc, cs, nx, j);
    }
  boxmg_wrap (x, fine, u);
}

/* The rows' partial sums, fetched from a device, added in order.  */
static double
sum_rows (struct boxmg_exec *x, const struct boxmg_level *l)
{
  double *row_sum = l->row_sum;
  const size_t ny = l->ny;
  if (x->device)
    {
      x->from_device += ny * sizeof *row_sum;
#pragma omp target update from(row_sum[0:ny]) device(x->dev)
    }
  double sum = 0.0;
  for (size_t j = 0; j < ny; ++j)
    sum += row_sum[j];
  return sum;
}

static void
zero (struct boxmg_exec *x, struct boxmg_level *l, double *u)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        zero_row (u, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        zero_row (u, stride, nx, j);
    }
  boxmg_wrap (x, l, u);
}

/* ---- The host's half V-cycles in one pass over a level.

   Down (u = 0, the forward sweeps, r = f - A u, coarse f = P^T r) and
   up (u += P coarse u, the backward sweeps, PCG's r . z) run on the
   host as one wavefront over the rows: a chain of stages, each a row
   pass, stage q working on row front - q while stage q - 1 works on
   row front - q + 1.  A stage's row reads the rows beside it as the
   passes one after another leave them (the one before has done them,
   the one after has not yet), so every node gets the bits of the
   separate passes, the device's, from one read of the level's arrays
   from memory instead of one per pass.
   Threads take bands of rows.  Stage q (q > 0) leaves 2q rows at each
   end of a band that meets another for after a barrier (the rows beside
   the band's are another thread's, and the passes ahead of them in
   phase one would overwrite what a deferred row needs); then each
   boundary's deferred rows run stage by stage.  A row line is a stage
   like a row's two colours (it reads the rows beside it alike).  Levels
   with a periodic axis (halo lines wrapped between passes) or column
   lines (each solved down the level and back) take the separate
   passes.  */

enum stage_kind { STAGE_ZERO, STAGE_RELAX, STAGE_RESIDUAL, STAGE_RESTRICT,
                  STAGE_PROLONG, STAGE_DOT, STAGE_DIRECTION, STAGE_APPLY };
/* Down's: zero, two per sweep, residual, restriction (up's fewer).  */
enum { STAGES_MAX = 3 + 2 * BOXMG_SWEEPS };

struct stage {
  enum stage_kind kind;
  size_t parity;              /* STAGE_RELAX: rows j, j % 2 == parity */
  size_t first, second;       /* STAGE_RELAX: the columns' colours */
};

struct pipeline {
  struct boxmg_level *fine;
  const struct boxmg_level *coarse;
  double *row_sum;
  /* PCG's search direction p = z + beta p and q = A p.  */
  double beta;
  const double *z;
  double *p, *q;
  size_t count;
  struct stage stage[STAGES_MAX];
};

/* Whether stage q has work on row j.  */
static bool
covers (const struct pipeline *pl, size_t q, size_t j)
{
  const struct stage *st = &pl->stage[q];
  switch (st->kind)
    {
    case STAGE_RELAX:
      return j % 2 == st->parity;
    case STAGE_RESTRICT:
      /* Coarse row J is fine row 2 J's: rows 2 J +- 1 of r are ready.  */
      return j % 2 == 0 && j / 2 <= pl->coarse->ny;
    default:
      return true;
    }
}

/* Row j of the residual: in ring's three rows (row j % 3) where ring
   is not NULL and j an interior row, else at its place in r.  A level
   with a coarser one has at least 3 rows, so the ring never reaches
   r's halo row ny + 1, which the last coarse row's restriction reads
   (times weights 0).  */
static double *
residual_at (const struct pipeline *pl, double *ring, size_t j)
{
  const struct boxmg_level *l = pl->fine;
  if (ring != NULL && j >= 1 && j <= l->ny)
    return ring + (j % 3) * l->stride;
  return l->r + j * l->stride;
}

static void
stage_row (const struct pipeline *pl, double *ring, size_t q, size_t j)
{
  const struct stage *st = &pl->stage[q];
  struct boxmg_level *l = pl->fine;
  const size_t stride = l->stride, nx = l->nx;
  switch (st->kind)
    {
    case STAGE_ZERO:
      zero_row (l->u, stride, nx, j);
      break;
    case STAGE_RELAX:
      relax_colours (l->u, l->f, l->inverse, l->w, l->s, l->sw, l->se,
                     stride, nx, j, st->first, st->second, false,
                     l->smoother == BOXMG_ROWS);
      break;
    case STAGE_RESIDUAL:
      residual_row (l->c, l->w, l->s, l->sw, l->se, stride, nx, j, l->u,
                    l->f, residual_at (pl, ring, j));
      break;
    case STAGE_RESTRICT:
      restrict_row (residual_at (pl, ring, j - 1), residual_at (pl, ring, j),
                    residual_at (pl, ring, j + 1), l->p[0], l->p[1], l->p[2],
                    l->p[3], stride, pl->coarse->f, pl->coarse->stride,
                    pl->coarse->nx, j / 2);
      break;
    case STAGE_PROLONG:
      prolong_row (l->u, l->p[0], l->p[1], l->p[2], l->p[3], stride,
                   pl->coarse->u, pl->coarse->stride, nx, j);
      break;
    case STAGE_DOT:
      pl->row_sum[j - 1] = dot_row (NULL, l->f, l->u, stride, nx, j);
      break;
    case STAGE_DIRECTION:
      direction_row (pl->beta, pl->z, pl->p, stride, nx, j);
      break;
    case STAGE_APPLY:
      pl->row_sum[j - 1] = apply_row (l->c, l->w, l->s, l->sw, l->se,
                                      stride, nx, j, pl->p,
                                      pl->q);
      break;
    }
}

/* Band b of bands: rows a .. z.  Phase one: the wavefront over the
   band, stage q > 0 kept 2q rows off each end that meets another band;
   the residual, which only the restriction (the next stage, on the
   rows around the one behind) reads, in three rows of r at the band's
   start, which stay in cache (r is scratch, read by nothing else).  Phase two (after every band's phase
   one), band b > 0: the rows deferred around its first row, the stages
   in order, the residual at its place in r: the rows the deferred
   restriction reads, computed again (the same bits) where phase one
   computed them into a ring.  */
static void
pipeline_band (const struct pipeline *pl, size_t b, size_t bands)
{
  const size_t ny = pl->fine->ny, n = pl->count;
  const size_t a = 1 + ny * b / bands, z = ny * (b + 1) / bands;
  /* A level without a coarser one has no r (and no residual stage).  */
  double *ring = pl->fine->r != NULL ? pl->fine->r + a * pl->fine->stride
                 : NULL;
  for (size_t front = a; front < z + n; ++front)
    for (size_t q = 0; q < n && q <= front - a; ++q)
      {
        const size_t j = front - q;
        const size_t lo = b > 0 ? a + 2 * q : a;
        const size_t hi = b + 1 < bands ? z - 2 * q : z;
        if (j >= lo && j <= hi && covers (pl, q, j))
          stage_row (pl, ring, q, j);
      }
#pragma omp barrier
  if (b == 0)
    return;
  for (size_t q = 1; q < n; ++q)
    {
      const size_t reach = pl->stage[q].kind == STAGE_RESIDUAL ? 2 * q + 3
                                                               : 2 * q;
      for (size_t j = a - reach; j < a + reach; ++j)
        if (covers (pl, q, j))
          stage_row (pl, NULL, q, j);
    }
}

/* Bands of at least 4 stages + 2 rows: the deferred rows of one
   boundary (and the residual's rows around them) neither reach
   another's nor read them, nor another band's ring.  */
static void
pipeline_run (struct boxmg_exec *x, const struct pipeline *pl,
              unsigned long passes)
{
  const size_t ny = pl->fine->ny, least = 4 * pl->count + 2;
  size_t bands = threaded (pl->fine) ? (size_t) omp_get_max_threads () : 1;
  if (bands > ny / least)
    bands = ny / least > 0 ? ny / least : 1;
  x->launches += passes;
#pragma omp parallel num_threads(bands) if (bands > 1)
  pipeline_band (pl, (size_t) omp_get_thread_num (),
                 (size_t) omp_get_num_threads ());
}

static bool
pipelined (const struct boxmg_exec *x, const struct boxmg_level *l)
{
  return !x->device && !l->periodic_x && !l->periodic_y
         && l->smoother != BOXMG_COLUMNS;
}

static void
add_sweeps (struct pipeline *pl, bool forward)
{
  for (int t = 0; t < BOXMG_SWEEPS; ++t)
    for (size_t h = 0; h < 2; ++h)
      pl->stage[pl->count++] = (struct stage) {
        .kind = STAGE_RELAX,
        .parity = forward ? h : 1 - h,
        .first = forward ? 2 : 1,
        .second = forward ? 1 : 2 };
}

void
boxmg_down (struct boxmg_exec *x, struct boxmg_level *fine,
            const struct boxmg_level *coarse)
{
  if (pipelined (x, fine))
    {
      struct pipeline pl = { .fine = fine, .coarse = coarse };
      pl.stage[pl.count++] = (struct stage) { .kind = STAGE_ZERO };
      add_sweeps (&pl, true);
      pl.stage[pl.count++] = (struct stage) { .kind = STAGE_RESIDUAL };
      pl.stage[pl.count++] = (struct stage) { .kind = STAGE_RESTRICT };
      /* The device's: zero, two per sweep, residual, restriction.  */
      pipeline_run (x, &pl, 3 + 2 * BOXMG_SWEEPS);
      return;
    }
  zero (x, fine, fine->u);
  for (int t = 0; t < BOXMG_SWEEPS; ++t)
    smooth (x, fine, true, NULL);
  residual (x, fine);
  restriction (x, fine, coarse);
}

void
boxmg_up (struct boxmg_exec *x, struct boxmg_level *fine,
          const struct boxmg_level *coarse, double *row_sum)
{
  if (pipelined (x, fine))
    {
      struct pipeline pl = { .fine = fine, .coarse = coarse,
                             .row_sum = row_sum };
      pl.stage[pl.count++] = (struct stage) { .kind = STAGE_PROLONG };
      add_sweeps (&pl, false);
      if (row_sum != NULL)
        pl.stage[pl.count++] = (struct stage) { .kind = STAGE_DOT };
      pipeline_run (x, &pl, 1 + 2 * BOXMG_SWEEPS);
      return;
    }
  prolong (x, fine, coarse);
  for (int t = 0; t < BOXMG_SWEEPS; ++t)
    smooth (x, fine, false, t + 1 == BOXMG_SWEEPS ? row_sum : NULL);
}

double
boxmg_row_total (struct boxmg_exec *x, const struct boxmg_level *l)
{
  return sum_rows (x, l);
}

double
boxmg_true_residual (struct boxmg_exec *x, struct boxmg_level *l,
                     const double *mass, const double *u, const double *f,
                     double *r)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  const double *w = l->w, *s = l->s;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = true_residual_row (mass, w, s, stride, nx, j, u, f,
                                            r);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = true_residual_row (mass, w, s, stride, nx, j, u, f,
                                            r);
    }
  return sum_rows (x, l);
}

double
boxmg_floor (struct boxmg_exec *x, struct boxmg_level *l, const double *mass,
             const double *u, const double *f)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  const double *w = l->w, *s = l->s;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = floor_row (mass, w, s, stride, nx, j, u, f);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = floor_row (mass, w, s, stride, nx, j, u, f);
    }
  return sqrt (sum_rows (x, l));
}

double
boxmg_apply (struct boxmg_exec *x, struct boxmg_level *l, const double *p,
             double *q)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  const double *c = l->c, *w = l->w, *s = l->s, *sw = l->sw, *se = l->se;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = apply_row (c, w, s, sw, se, stride, nx, j, p, q);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = apply_row (c, w, s, sw, se, stride, nx, j, p, q);
    }
  return sum_rows (x, l);
}

double
boxmg_update (struct boxmg_exec *x, struct boxmg_level *l, double alpha,
              const double *p, const double *q, double *u, double *r)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = update_row (alpha, p, q, u, r, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = update_row (alpha, p, q, u, r, stride, nx, j);
    }
  return sum_rows (x, l);
}

void
boxmg_direction (struct boxmg_exec *x, struct boxmg_level *l, double beta,
                 const double *z, double *p)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        direction_row (beta, z, p, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        direction_row (beta, z, p, stride, nx, j);
    }
}

/* The host's in one wavefront (the pipeline above): p row j, then q
   row j - 1, whose p rows are then new, p read from memory once.  */
double
boxmg_search (struct boxmg_exec *x, struct boxmg_level *l, double beta,
              const double *z, double *p, double *q)
{
  if (pipelined (x, l))
    {
      struct pipeline pl = { .fine = l, .row_sum = l->row_sum, .beta = beta,
                             .z = z, .p = p, .q = q, .count = 2 };
      pl.stage[0] = (struct stage) { .kind = STAGE_DIRECTION };
      pl.stage[1] = (struct stage) { .kind = STAGE_APPLY };
      pipeline_run (x, &pl, 2);
      return sum_rows (x, l);
    }
  boxmg_direction (x, l, beta, z, p);
  boxmg_wrap (x, l, p);
  return boxmg_apply (x, l, p, q);
}

double
boxmg_dot (struct boxmg_exec *x, struct boxmg_level *l, const double *a,
           const double *b)
{
  dot_rows (x, l, NULL, a, b, l->row_sum);
  return sum_rows (x, l);
}

double
boxmg_weighted_sum (struct boxmg_exec *x, struct boxmg_level *l,
                    const double *w, const double *a)
{
  dot_rows (x, l, w, a, NULL, l->row_sum);
  return sum_rows (x, l);
}

void
boxmg_shift (struct boxmg_exec *x, struct boxmg_level *l, double shift,
             double *a)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        shift_row (shift, a, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        shift_row (shift, a, stride, nx, j);
    }
}

void
boxmg_deflate_parts (struct boxmg_exec *x, struct boxmg_level *l,
                     double *part)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  const size_t count = l->deflate_count, cells = stride * (ny + 2);
  const double *z = l->deflate, *f = l->f;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        parts_row (count, z, cells, f, row_sum, stride, nx, ny, j);
      x->from_device += count * ny * sizeof *row_sum;
#pragma omp target update from(row_sum[0:count * ny]) device(x->dev)
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        parts_row (count, z, cells, f, row_sum, stride, nx, ny, j);
    }
  for (size_t a = 0; a < count; ++a)
    {
      double sum = 0.0;
      for (size_t j = 0; j < ny; ++j)
        sum += row_sum[a * ny + j];
      part[a] = sum;
    }
}

void
boxmg_deflate_add (struct boxmg_exec *x, struct boxmg_level *l,
                   const double *part)
{
  const size_t stride = l->stride, rows = l->ny + 2;
  const size_t count = l->deflate_count, cells = stride * rows;
  const double *z = l->deflate;
  double *u = l->u;
  /* By value: no map clause.  */
  double g[BOXMG_DEFLATE_MAX];
  for (size_t a = 0; a < count; ++a)
    g[a] = part[a];
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev) \
  firstprivate(g)
      for (size_t j = 0; j < rows; ++j)
        deflate_row (g, count, z, cells, u, stride, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 0; j < rows; ++j)
        deflate_row (g, count, z, cells, u, stride, j);
    }
}

/* The whole padded array: the band solve reads f's interior and writes
   u's, whose halo stays 0.  */
void
boxmg_coarse_fetch (struct boxmg_exec *x, struct boxmg_level *l)
{
  double *f = l->f;
  const size_t n = l->stride * (l->ny + 2);
  if (!x->device)
    return;
  x->from_device += n * sizeof *f;
#pragma omp target update from(f[0:n]) device(x->dev)
}

void
boxmg_coarse_return (struct boxmg_exec *x, struct boxmg_level *l)
{
  double *u = l->u;
  const size_t n = l->stride * (l->ny + 2);
  if (!x->device)
    return;
  x->to_device += n * sizeof *u;
#pragma omp target update to(u[0:n]) device(x->dev)
}

bool
boxmg_present (const void *p, int device)
{
#ifdef HEATSIM_OFFLOAD
  return omp_target_is_present (p, device);
#else
  (void) p;
  (void) device;
  return true;
#endif
}

/* A block of bytes onto device dev, counted unless there already.  */
static void
enter_block (struct boxmg_exec *x, char *block, size_t bytes, int dev)
{
  if (!boxmg_present (block, dev))
    x->to_device += bytes;
#pragma omp target enter data map(to: block[0:bytes]) device(dev)
}

/* Every level's block (and its deflation vectors, where it kept some)
   and the solver's arrays enter x's device in one piece each: the
   target loops find their arrays by host address.  */
void
boxmg_enter (struct boxmg_solver *bm)
{
  struct boxmg_exec *x = &bm->x;
  if (bm->resident && bm->device == x->dev)
    return;
  boxmg_leave (bm, false);
  for (size_t l = 0; l < bm->levels; ++l)
    {
      struct boxmg_level *lv = &bm->level[l];
      enter_block (x, lv->block, lv->bytes, x->dev);
      if (lv->deflate != NULL)
        enter_block (x, (char *) lv->deflate, boxmg_deflation_bytes (lv),
                     x->dev);
    }
  enter_block (x, bm->block, bm->bytes, x->dev);
  bm->resident = true;
  bm->device = x->dev;
}

/* The hierarchy leaves its device; keep_state: PCG's vectors (the
   solver's block) come back first, for a solve that goes on.  */
void
boxmg_leave (struct boxmg_solver *bm, bool keep_state)
{
  if (!bm->resident)
    return;
  const int device = bm->device;
  for (size_t l = 0; l <= bm->levels; ++l)
    {
      char *block = l < bm->levels ? bm->level[l].block : bm->block;
      const size_t bytes = l < bm->levels ? bm->level[l].bytes : bm->bytes;
      if (keep_state && l == bm->levels)
        {
          bm->x.from_device += bytes;
#pragma omp target update from(block[0:bytes]) device(device)
        }
#pragma omp target exit data map(delete: block[0:bytes]) device(device)
      char *deflate = l < bm->levels ? (char *) bm->level[l].deflate : NULL;
      if (deflate != NULL)
        {
          const size_t kept = boxmg_deflation_bytes (&bm->level[l]);
#pragma omp target exit data map(delete: deflate[0:kept]) device(device)
        }
    }
  bm->resident = false;
}
