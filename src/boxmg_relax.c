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
  if (sw == NULL)
    for (size_t i = i0; i <= nx; i += 2)
      {
        const size_t k = row + i;
        u[k] = (f[k] - boxmg_off5 (u + k, w + k, s + k, st)) * d[k];
      }
  else
    for (size_t i = i0; i <= nx; i += 2)
      {
        const size_t k = row + i;
        u[k] = (f[k] - boxmg_off9 (u + k, w + k, s + k, sw + k, se + k, st))
               * d[k];
      }
}

/* out = f - A u over row j (f NULL for 0).  */
static void
residual_row (const double *c, const double *w, const double *s,
              const double *sw, const double *se, size_t stride, size_t nx,
              size_t j, const double *u, const double *f, double *out)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  const size_t row = j * stride;
  if (sw == NULL)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = row + i;
        const double a = c[k] * u[k] + boxmg_off5 (u + k, w + k, s + k, st);
        out[k] = (f != NULL ? f[k] : 0.0) - a;
      }
  else
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = row + i;
        const double a = c[k] * u[k]
                         + boxmg_off9 (u + k, w + k, s + k, sw + k, se + k,
                                       st);
        out[k] = (f != NULL ? f[k] : 0.0) - a;
      }
}

/* Coarse row J of P^T r.  The fine nodes around (2I, 2J): those west of
   or below it see this coarse node as their east or north one.  */
static void
restrict_row (const double *r, const double *p0, const double *p1,
              const double *p2, const double *p3, size_t fs, double *f,
              size_t cs, size_t nx, size_t J)
{
  for (size_t I = 1; I <= nx; ++I)
    {
      const size_t k = 2 * J * fs + 2 * I;
      const size_t b = k - fs, t = k + fs;
      f[J * cs + I] = p3[b - 1] * r[b - 1] + p2[b] * r[b] + p2[b + 1]
                      * r[b + 1]
                      + p1[k - 1] * r[k - 1] + p0[k] * r[k]
                      + p0[k + 1] * r[k + 1]
                      + p1[t - 1] * r[t - 1] + p0[t] * r[t]
                      + p0[t + 1] * r[t + 1];
    }
}

/* Fine row j += P coarse u.  */
static void
prolong_row (double *u, const double *p0, const double *p1, const double *p2,
             const double *p3, size_t fs, const double *uc, size_t cs,
             size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * fs + i;
      const size_t q = (j / 2) * cs + i / 2;
      u[k] += p0[k] * uc[q] + p1[k] * uc[q + 1] + p2[k] * uc[q + cs]
              + p3[k] * uc[q + cs + 1];
    }
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
  double sum = 0.0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      r[k] = (f != NULL ? f[k] : 0.0) - mass[k] * u[k]
             - boxmg_flows5 (u + k, w + k, s + k, st);
      sum += r[k] * r[k];
    }
  return sum;
}

static double
floor_row (const double *mass, const double *w, const double *s,
           size_t stride, size_t nx, size_t j, const double *u,
           const double *f)
{
  const ptrdiff_t st = (ptrdiff_t) stride;
  double sum = 0.0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      const double m = boxmg_terms5 (f != NULL ? f[k] : 0.0, u + k, mass[k],
                                     w + k, s + k, st);
      sum += m * m;
    }
  return sum;
}

static double
apply_row (const double *c, const double *w, const double *s, size_t stride,
           size_t nx, size_t j, const double *p, double *q)
{
  residual_row (c, w, s, NULL, NULL, stride, nx, j, p, NULL, q);
  double sum = 0.0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      q[k] = -q[k];
      sum += p[k] * q[k];
    }
  return sum;
}

static double
update_row (double alpha, const double *p, const double *q, double *u,
            double *r, size_t stride, size_t nx, size_t j)
{
  double sum = 0.0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      u[k] += alpha * p[k];
      r[k] -= alpha * q[k];
      sum += r[k] * r[k];
    }
  return sum;
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
  double sum = 0.0;
  for (size_t i = 1; i <= nx; ++i)
    {
      const size_t k = j * stride + i;
      sum += (w != NULL ? w[k] : 1.0) * a[k] * (b != NULL ? b[k] : 1.0);
    }
  return sum;
}

static void
shift_row (double shift, double *a, size_t stride, size_t nx, size_t j)
{
  for (size_t i = 1; i <= nx; ++i)
    a[j * stride + i] += shift;
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

/* Row j's two colours (first, second) in turn; on a periodic x axis
   the row's halo nodes follow each colour, so that the next one reads
   the ring's new values (an even ring: nodes 1 and nx differ in
   colour).  */
#pragma omp declare target
static void
relax_colours (double *u, const double *f, const double *d, const double *w,
               const double *s, const double *sw, const double *se,
               size_t stride, size_t nx, size_t j, size_t first,
               size_t second, bool periodic_x)
{
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
   rows run in parallel.  A periodic y axis's halo rows follow.  */
static void
relax_rows (struct boxmg_exec *x, struct boxmg_level *l, size_t j0,
            size_t first, size_t second)
{
  const size_t rows = l->ny >= j0 ? (l->ny - j0) / 2 + 1 : 0;
  const size_t stride = l->stride, nx = l->nx;
  const bool px = l->periodic_x;
  double *u = l->u;
  const double *f = l->f, *d = l->inverse, *w = l->w, *s = l->s,
    *sw = l->sw, *se = l->se;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t t = 0; t < rows; ++t)
        relax_colours (u, f, d, w, s, sw, se, stride, nx, j0 + 2 * t, first,
                       second, px);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t t = 0; t < rows; ++t)
        relax_colours (u, f, d, w, s, sw, se, stride, nx, j0 + 2 * t, first,
                       second, px);
    }
  wrap_y (x, l, u);
}

/* Forward: colours (i % 2, j % 2) = (0, 0), (1, 0), (0, 1), (1, 1);
   backward the reverse, the adjoint sweep.  */
void
boxmg_smooth (struct boxmg_exec *x, struct boxmg_level *l, bool forward)
{
  if (forward)
    {
      relax_rows (x, l, 2, 2, 1);
      relax_rows (x, l, 1, 2, 1);
    }
  else
    {
      relax_rows (x, l, 1, 1, 2);
      relax_rows (x, l, 2, 1, 2);
    }
}

void
boxmg_residual (struct boxmg_exec *x, struct boxmg_level *l)
{
  const size_t ny = l->ny, nx = l->nx, stride = l->stride;
  const double *c = l->c, *w = l->w, *s = l->s, *sw = l->sw, *se = l->se;
  const double *u = l->u, *f = l->f;
  double *r = l->r;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        residual_row (c, w, s, sw, se, stride, nx, j, u, f, r);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        residual_row (c, w, s, sw, se, stride, nx, j, u, f, r);
    }
  boxmg_wrap (x, l, r);
}

void
boxmg_restrict (struct boxmg_exec *x, const struct boxmg_level *fine,
                struct boxmg_level *coarse)
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
        restrict_row (r, p0, p1, p2, p3, fs, f, cs, nx, J);
      return;
    }
#pragma omp parallel for schedule(static) if (threaded (fine))
  for (size_t J = 1; J <= ny; ++J)
    restrict_row (r, p0, p1, p2, p3, fs, f, cs, nx, J);
}

void
boxmg_prolong (struct boxmg_exec *x, struct boxmg_level *fine,
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

void
boxmg_zero (struct boxmg_exec *x, struct boxmg_level *l, double *u)
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
  const double *c = l->c, *w = l->w, *s = l->s;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = apply_row (c, w, s, stride, nx, j, p, q);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = apply_row (c, w, s, stride, nx, j, p, q);
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

double
boxmg_dot (struct boxmg_exec *x, struct boxmg_level *l, const double *a,
           const double *b)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = dot_row (NULL, a, b, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = dot_row (NULL, a, b, stride, nx, j);
    }
  return sum_rows (x, l);
}

double
boxmg_weighted_sum (struct boxmg_exec *x, struct boxmg_level *l,
                    const double *w, const double *a)
{
  const size_t stride = l->stride, nx = l->nx, ny = l->ny;
  double *row_sum = l->row_sum;
  if (on_device (x))
    {
#pragma omp target teams distribute parallel for device(x->dev)
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = dot_row (w, a, NULL, stride, nx, j);
    }
  else
    {
#pragma omp parallel for schedule(static) if (threaded (l))
      for (size_t j = 1; j <= ny; ++j)
        row_sum[j - 1] = dot_row (w, a, NULL, stride, nx, j);
    }
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

/* Every level's block and the solver's arrays enter x's device in one
   piece each: the target loops find their arrays by host address.  */
void
boxmg_enter (struct boxmg_solver *bm)
{
  struct boxmg_exec *x = &bm->x;
  if (bm->resident && bm->device == x->dev)
    return;
  boxmg_leave (bm, false);
  for (size_t l = 0; l <= bm->levels; ++l)
    {
      char *block = l < bm->levels ? bm->level[l].block : bm->block;
      const size_t bytes = l < bm->levels ? bm->level[l].bytes : bm->bytes;
      if (!boxmg_present (block, x->dev))
        x->to_device += bytes;
#pragma omp target enter data map(to: block[0:bytes]) device(x->dev)
    }
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
    }
  bm->resident = false;
}
