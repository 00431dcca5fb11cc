/* The passes of the black box multigrid over one level: Gauss-Seidel
   sweeps, residuals, the transfers, and the finest level's vector
   operations for conjugate gradients.  Each is a loop over rows, on the
   host (several threads above BOXMG_PARALLEL_NODES) or in a target
   region (x->device), both calling the same row functions
   (boxmg_rows.h); on levels without a periodic axis or column lines,
   the host's V-cycle passes and PCG's search and update run as one
   wavefront over the rows instead (boxmg_host.h), a host kernel of each
   path.  Sums are taken row by row into row_sum, which a device
   placement then fetches, and the rows added in order on the host, so
   they depend on neither the thread count nor the placement.  */
#include <config.h>

#include "boxmg_internal.h"

#include <math.h>
#include <omp.h>

#include "boxmg_cell.h"
#include "boxmg_host.h"
#include "boxmg_rows.h"
#include "host_isa.h"

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
static double
true_residual_row (const double *mass, const double *w, const double *s,
                   size_t stride, size_t nx, size_t j, const double *u,
                   const double *f, double f_scale, double *r)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      /* A statement of its own: nothing fuses the (exact) scaling.  */
      const double fk = f != NULL ? f_scale * f[k] : 0.0;
      r[k] = fk - mass[k] * u[k] - boxmg_flows5 (u + k, w + k, s + k, st);
    }
  const double *row = r + j * stride + 1;
  return lanes_sum (NULL, row, row, nx);
}

static double
floor_row (const double *mass, const double *w, const double *s,
           size_t stride, size_t nx, size_t j, const double *u,
           const double *f, double f_scale)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  double part[4] = { 0.0, 0.0, 0.0, 0.0 };
  size_t i = 1;
  for (; i + 3 <= nx; i += 4)
    for (size_t h = 0; h < 4; ++h)
      {
        const size_t k = j * stride + i + h;
        const double fk = f != NULL ? f_scale * f[k] : 0.0;
        const double m = boxmg_terms5 (fk, u + k, mass[k], w + k, s + k, st);
        part[h] += m * m;
      }
  for (; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      const double fk = f != NULL ? f_scale * f[k] : 0.0;
      const double m = boxmg_terms5 (fk, u + k, mass[k], w + k, s + k, st);
      part[0] += m * m;
    }
  return (part[0] + part[1]) + (part[2] + part[3]);
}

static void
shift_row (double shift, double *a, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    a[j * stride + i] += shift;
}

/* Row j's largest magnitude (a NaN passed over: the norms find it).  */
static double
magnitude_row (const double *a, size_t stride, size_t nx, size_t j)
{
  double m = 0.0;
  for (size_t i = 1; i <= nx; ++i)
    m = fmax (m, fabs (a[j * stride + i]));
  return m;
}

/* Row j's sum of scale a, in lanes_sum's order (w and b NULL): for a
   power of two, scale times that sum wherever it is finite, and no
   overflow where scale brings a near 1.  */
static double
scaled_sum_row (double scale, const double *a, size_t stride, size_t nx,
                size_t j)
{
  const double *row = a + j * stride + 1;
  double part[4] = { 0.0, 0.0, 0.0, 0.0 };
  size_t i = 0;
  for (; i + 4 <= nx; i += 4)
    for (size_t h = 0; h < 4; ++h)
      {
        const double term = scale * row[i + h];
        part[h] += term;
      }
  for (; i < nx; ++i)
    {
      const double term = scale * row[i];
      part[0] += term;
    }
  return (part[0] + part[1]) + (part[2] + part[3]);
}

/* Row j of a padded array, its halo nodes too.  */
static void
scale_row (double scale, double *a, size_t stride, size_t j)
{
  for (size_t i = 0; i < stride; ++i)
    a[j * stride + i] *= scale;
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

/* Bands of at least 4 stages + 2 rows: the deferred rows of one
   boundary (and the residual's rows around them) neither reach
   another's nor read them, nor another band's ring.  */
static void
pipeline_run (struct boxmg_exec *x, const struct boxmg_pipeline *pl,
              unsigned long passes)
{
  const size_t ny = pl->fine->ny, least = 4 * pl->count + 2;
  size_t bands = threaded (pl->fine) ? (size_t) omp_get_max_threads () : 1;
  if (bands > ny / least)
    bands = ny / least > 0 ? ny / least : 1;
  x->launches += passes;
  host_kernels (HOST_KERNEL_PASSES)->boxmg_pipeline (pl, bands);
}

static bool
pipelined (const struct boxmg_exec *x, const struct boxmg_level *l)
{
  return !x->device && !l->periodic_x && !l->periodic_y
         && l->smoother != BOXMG_COLUMNS;
}

static void
add_sweeps (struct boxmg_pipeline *pl, bool forward)
{
  for (int t = 0; t < BOXMG_SWEEPS; ++t)
    for (size_t h = 0; h < 2; ++h)
      pl->stage[pl->count++] = (struct boxmg_stage) {
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
      struct boxmg_pipeline pl = { .fine = fine, .coarse = coarse };
      pl.stage[pl.count++] = (struct boxmg_stage) { .kind = STAGE_ZERO };
      add_sweeps (&pl, true);
      pl.stage[pl.count++] = (struct boxmg_stage) { .kind = STAGE_RESIDUAL };
      pl.stage[pl.count++] = (struct boxmg_stage) { .kind = STAGE_RESTRICT };
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
      struct boxmg_pipeline pl = { .fine = fine, .coarse = coarse,
                                   .row_sum = row_sum };
      pl.stage[pl.count++] = (struct boxmg_stage) { .kind = STAGE_PROLONG };
      add_sweeps (&pl, false);
      if (row_sum != NULL)
        pl.stage[pl.count++] = (struct boxmg_stage) { .kind = STAGE_DOT };
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
                     double f_scale, double *r)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  const double *w = l->w, *s = l->s;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = true_residual_row (mass, w, s, stride, nx, j, u, f,
                                            f_scale, r);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = true_residual_row (mass, w, s, stride, nx, j, u, f,
                                            f_scale, r);
    }
  return sum_rows (x, l);
}

double
boxmg_floor (struct boxmg_exec *x, struct boxmg_level *l, const double *mass,
             const double *u, const double *f, double f_scale)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  const double *w = l->w, *s = l->s;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = floor_row (mass, w, s, stride, nx, j, u, f,
                                    f_scale);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = floor_row (mass, w, s, stride, nx, j, u, f,
                                    f_scale);
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
  /* The host's as a wavefront of one stage: a host kernel of each
     path, where the loops below are baseline code.  */
  if (pipelined (x, l))
    {
      struct boxmg_pipeline pl = { .fine = l, .row_sum = row_sum,
                                   .alpha = alpha, .p_in = p, .q_in = q,
                                   .u = u, .r = r, .count = 1 };
      pl.stage[0] = (struct boxmg_stage) { .kind = STAGE_UPDATE };
      pipeline_run (x, &pl, 1);
      return sum_rows (x, l);
    }
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

/* The host's in one wavefront (boxmg_host.h): p row j, then q
   row j - 1, whose p rows are then new, p read from memory once.  */
double
boxmg_search (struct boxmg_exec *x, struct boxmg_level *l, double beta,
              const double *z, double *p, double *q)
{
  if (pipelined (x, l))
    {
      struct boxmg_pipeline pl = { .fine = l, .row_sum = l->row_sum,
                                   .beta = beta, .z = z, .p = p, .q = q,
                                   .count = 2 };
      pl.stage[0] = (struct boxmg_stage) { .kind = STAGE_DIRECTION };
      pl.stage[1] = (struct boxmg_stage) { .kind = STAGE_APPLY };
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

double
boxmg_magnitude (struct boxmg_exec *x, struct boxmg_level *l, const double *a)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = magnitude_row (a, stride, nx, j);
      x->from_device += ny * sizeof *row_sum;
#pragma omp target update from(row_sum[0:ny]) device(x->dev)
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = magnitude_row (a, stride, nx, j);
    }
  double m = 0.0;
  for (size_t j = 0; j < ny; ++j)
    m = fmax (m, row_sum[j]);
  return m;
}

double
boxmg_scaled_sum (struct boxmg_exec *x, struct boxmg_level *l, double scale,
                  const double *a)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = scaled_sum_row (scale, a, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = scaled_sum_row (scale, a, stride, nx, j);
    }
  return sum_rows (x, l);
}

void
boxmg_scale (struct boxmg_exec *x, struct boxmg_level *l, double scale,
             double *a)
{
  const size_t stride = l->stride, rows = l->ny + 2;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 0; j < rows; ++j)
        scale_row (scale, a, stride, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 0; j < rows; ++j)
        scale_row (scale, a, stride, j);
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
