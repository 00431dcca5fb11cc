/* Deflation of the black box multigrid's slowest modes (boxmg.h).

   Where k jumps by orders of magnitude, a few modes pass the V-cycle
   almost untouched: two islands of high conductivity at opposite
   temperatures across a gap of low conductivity thinner than a coarse
   cell, whose jump no coarse level's interpolation can place in the gap
   (bench/RESULTS.md: 150 disks of contrast 1e6 at 1024^2 left three
   eigenvalues of the preconditioned operator at 2e-4 .. 1e-2 while all
   others lay in 0.86 .. 1, and conjugate gradients took 14 iterations
   instead of 6).  Each level between the finest and the coarsest finds
   its own at set-up, from the coarsest up: BOXMG_LANCZOS_STEPS steps of
   conjugate gradients on that level, preconditioned by the V-cycle from
   it (which includes the deflation of the levels below), from a fixed
   pseudo-random start; their Lanczos tridiagonal matrix gives Ritz
   values and, from the stored preconditioned residuals, Ritz vectors;
   those below BOXMG_DEFLATE_BELOW (most others lie within 0.75 .. 1)
   are made A-orthonormal and kept, at most BOXMG_DEFLATE_MAX, dropping
   any that the kept ones already span (the duplicates rounding makes).
   Every such level searches: a level may find none while those above
   it find some (384^2 disks on five levels: none on 48^2, one on 96^2,
   two on 192^2).  The V-cycle then adds Z Z^T f on each level that kept some
   (boxmg_vcycle).  A singular problem's search starts without the
   mean, which A cannot reach, so that its constant is no Ritz vector.
   Nothing is searched where k does not vary (varying).  Host only,
   with sums in a fixed order: the same vectors for every thread count
   and placement.  */
#include <config.h>

#include "boxmg_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* The search's scratch, in grids of the level: the stored
   preconditioned residuals, then r, p, q, a Ritz vector and A times it,
   and the vectors kept so far.  */
enum { SCRATCH_GRIDS = BOXMG_LANCZOS_STEPS + 5 + BOXMG_DEFLATE_MAX };

size_t
boxmg_deflation_scratch (size_t levels, size_t cells)
{
  if (levels < 3)
    return 0;
  return cells > SIZE_MAX / sizeof (double) / SCRATCH_GRIDS
         ? SIZE_MAX : SCRATCH_GRIDS * cells;
}

size_t
boxmg_deflation_bytes (const struct boxmg_level *l)
{
  return l->deflate_count * l->stride * (l->ny + 2) * sizeof (double);
}

/* a less its mean over the interior, its halo lines wrapped or 0: the
   part of a singular problem's vector that A can reach.  */
static void
remove_mean (struct boxmg_exec *x, struct boxmg_level *l, double *a)
{
  const double mean = boxmg_weighted_sum (x, l, NULL, a)
                      / ((double) l->nx * (double) l->ny);
  boxmg_shift (x, l, -mean, a);
  boxmg_wrap_host (l, a);
}

/* A fixed pseudo-random start (xorshift64*) in [-1/2, 1/2) over the
   interior, its halo lines wrapped or 0; without its mean where the
   problem is singular.  */
static void
start (struct boxmg_exec *x, struct boxmg_level *l, bool singular,
       double *r)
{
  unsigned long long state = 2026;
  memset (r, 0, l->stride * (l->ny + 2) * sizeof *r);
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        r[j * l->stride + i]
          = (double) ((state * 2685821657736338717ULL) >> 11) * 0x1p-53
            - 0.5;
      }
  boxmg_wrap_host (l, r);
  if (singular)
    remove_mean (x, l, r);
}

/* The eigenvalues (the diagonal of t) and eigenvectors (the columns of
   v) of the symmetric m x m matrix t, by cyclic Jacobi rotations.  */
static void
eigen (size_t m, double t[][BOXMG_LANCZOS_STEPS],
       double v[][BOXMG_LANCZOS_STEPS])
{
  for (size_t a = 0; a < m; ++a)
    for (size_t b = 0; b < m; ++b)
      v[a][b] = a == b;
  for (int sweep = 0; sweep < 64; ++sweep)
    {
      double off = 0.0, diagonal = 0.0;
      for (size_t a = 0; a < m; ++a)
        {
          diagonal += t[a][a] * t[a][a];
          for (size_t b = a + 1; b < m; ++b)
            off += t[a][b] * t[a][b];
        }
      if (!(off > 1e-30 * diagonal))
        return;
      for (size_t p = 0; p < m; ++p)
        for (size_t q = p + 1; q < m; ++q)
          {
            if (t[p][q] == 0.0)
              continue;
            const double theta = (t[q][q] - t[p][p]) / (2.0 * t[p][q]);
            const double slope = (theta >= 0.0 ? 1.0 : -1.0)
                               / (fabs (theta) + sqrt (theta * theta + 1.0));
            const double c = 1.0 / sqrt (slope * slope + 1.0);
            const double s = slope * c;
            for (size_t k = 0; k < m; ++k)
              {
                const double kp = t[k][p], kq = t[k][q];
                t[k][p] = c * kp - s * kq;
                t[k][q] = s * kp + c * kq;
              }
            for (size_t k = 0; k < m; ++k)
              {
                const double pk = t[p][k], qk = t[q][k];
                t[p][k] = c * pk - s * qk;
                t[q][k] = s * pk + c * qk;
              }
            for (size_t k = 0; k < m; ++k)
              {
                const double kp = v[k][p], kq = v[k][q];
                v[k][p] = c * kp - s * kq;
                v[k][q] = s * kp + c * kq;
              }
          }
    }
}

/* The search's state on one level: the Lanczos coefficients of its
   conjugate gradients, and the scratch grids.  */
struct search {
  size_t steps;                          /* taken */
  double alpha[BOXMG_LANCZOS_STEPS];
  double beta[BOXMG_LANCZOS_STEPS];
  double rz[BOXMG_LANCZOS_STEPS];
  double *z;                             /* steps grids */
  double *r, *p, *q, *y, *ay;
  double *kept;                          /* BOXMG_DEFLATE_MAX grids */
  size_t count;                          /* of them */
};

/* Conjugate gradients on level l from the fixed start, preconditioned by
   the V-cycle from l, each preconditioned residual kept.  */
static void
lanczos (struct boxmg_solver *bm, size_t l, struct search *s)
{
  struct boxmg_level *lv = &bm->level[l];
  struct boxmg_exec *x = &bm->x;
  const size_t cells = lv->stride * (lv->ny + 2);
  start (x, lv, bm->singular, s->r);
  memset (s->p, 0, cells * sizeof *s->p);
  s->steps = 0;
  for (size_t k = 0; k < BOXMG_LANCZOS_STEPS; ++k)
    {
      double *z = s->z + k * cells;
      memcpy (lv->f, s->r, cells * sizeof *s->r);
      boxmg_vcycle (bm, l, NULL);
      memcpy (z, lv->u, cells * sizeof *z);
      const double rz = boxmg_dot (x, lv, s->r, z);
      if (!(rz > 0.0) || !isfinite (rz))
        return;
      const double beta = k > 0 ? rz / s->rz[k - 1] : 0.0;
      boxmg_direction (x, lv, beta, z, s->p);
      boxmg_wrap_host (lv, s->p);
      const double pq = boxmg_apply (x, lv, s->p, s->q);
      if (!(pq > 0.0) || !isfinite (pq))
        return;
      const double alpha = rz / pq;
      for (size_t j = 1; j <= lv->ny; ++j)
        for (size_t i = 1; i <= lv->nx; ++i)
          s->r[j * lv->stride + i] -= alpha * s->q[j * lv->stride + i];
      boxmg_wrap_host (lv, s->r);
      s->alpha[k] = alpha;
      s->beta[k] = beta;
      s->rz[k] = rz;
      s->steps = k + 1;
    }
}

/* Ritz vector e of the search into s->y: sum over the steps k of v[k][e]
   times the k-th Lanczos vector, (-1)^k z_k / sqrt(r_k . z_k).  */
static void
ritz_vector (const struct boxmg_level *lv, struct search *s,
             double v[][BOXMG_LANCZOS_STEPS], size_t e)
{
  const size_t cells = lv->stride * (lv->ny + 2);
  memset (s->y, 0, cells * sizeof *s->y);
  for (size_t k = 0; k < s->steps; ++k)
    {
      const double a = v[k][e] * (k % 2 == 0 ? 1.0 : -1.0) / sqrt (s->rz[k]);
      const double *z = s->z + k * cells;
      for (size_t c = 0; c < cells; ++c)
        s->y[c] += a * z[c];
    }
}

/* Keep s->y as level lv's next deflation vector, A-orthonormal to the
   kept ones, unless they span most of it (its A-norm falls below a
   tenth).  */
static void
keep (struct boxmg_exec *x, struct boxmg_level *lv, struct search *s)
{
  const size_t cells = lv->stride * (lv->ny + 2);
  const double energy = boxmg_apply (x, lv, s->y, s->ay);
  double left = energy;
  for (size_t b = 0; b < s->count; ++b)
    {
      const double *zb = s->kept + b * cells;
      const double c = boxmg_dot (x, lv, zb, s->ay);
      for (size_t k = 0; k < cells; ++k)
        s->y[k] -= c * zb[k];
      left -= c * c;
    }
  if (!(energy > 0.0) || !(left > 0.01 * energy) || !isfinite (left))
    return;
  double *z = s->kept + s->count * cells;
  const double scale = 1.0 / sqrt (left);
  for (size_t k = 0; k < cells; ++k)
    z[k] = scale * s->y[k];
  ++s->count;
}

/* Search level l and keep its slow modes in a block of their own;
   false if memory is short.  */
static bool
deflate_level (struct boxmg_solver *bm, size_t l, struct search *s)
{
  struct boxmg_level *lv = &bm->level[l];
  lanczos (bm, l, s);
  const size_t m = s->steps;
  double t[BOXMG_LANCZOS_STEPS][BOXMG_LANCZOS_STEPS] = { { 0.0 } };
  double v[BOXMG_LANCZOS_STEPS][BOXMG_LANCZOS_STEPS];
  for (size_t k = 0; k < m; ++k)
    {
      t[k][k] = 1.0 / s->alpha[k]
                + (k > 0 ? s->beta[k] / s->alpha[k - 1] : 0.0);
      if (k + 1 < m)
        t[k][k + 1] = t[k + 1][k] = sqrt (s->beta[k + 1]) / s->alpha[k];
    }
  eigen (m, t, v);
  /* The smallest Ritz values first.  */
  bool used[BOXMG_LANCZOS_STEPS] = { false };
  while (s->count < BOXMG_DEFLATE_MAX)
    {
      size_t e = m;
      for (size_t k = 0; k < m; ++k)
        if (!used[k] && t[k][k] < BOXMG_DEFLATE_BELOW
            && (e == m || t[k][k] < t[e][e]))
          e = k;
      if (e == m)
        break;
      used[e] = true;
      ritz_vector (lv, s, v, e);
      /* The cycle's output may carry a constant, which A does not see
         and a kept vector must not: it would scale up to anything.  */
      if (bm->singular)
        remove_mean (&bm->x, lv, s->y);
      keep (&bm->x, lv, s);
    }
  if (s->count == 0)
    return true;
  const size_t bytes = s->count * lv->stride * (lv->ny + 2) * sizeof *s->kept;
  lv->deflate = malloc (bytes);
  if (lv->deflate == NULL)
    return false;
  memcpy (lv->deflate, s->kept, bytes);
  lv->deflate_count = s->count;
  return true;
}

/* Whether the finest level's couplings along an axis span more than
   a factor of 10 (faces shut to an insulated edge left out; those
   along it, half as long, span 2): k varies, and islands of it may
   float.  A uniform material (a run with a flux or convection edge)
   skips the search, which would find nothing.  */
static bool
varying (const struct boxmg_level *l)
{
  double lo[2] = { HUGE_VAL, HUGE_VAL }, hi[2] = { 0.0, 0.0 };
  for (size_t j = 1; j <= l->ny; ++j)
    for (size_t i = 1; i <= l->nx; ++i)
      {
        const size_t k = j * l->stride + i;
        const double a[2] = { fabs (l->w[k]), fabs (l->s[k]) };
        for (int axis = 0; axis < 2; ++axis)
          if (a[axis] > 0.0)
            {
              lo[axis] = fmin (lo[axis], a[axis]);
              hi[axis] = fmax (hi[axis], a[axis]);
            }
      }
  return hi[0] > 10.0 * lo[0] || hi[1] > 10.0 * lo[1];
}

enum mg_status
boxmg_deflation (struct boxmg_solver *bm)
{
  if (bm->levels < 3 || !varying (&bm->level[0]))
    return MG_OK;
  const struct boxmg_level *largest = &bm->level[1];
  const size_t cells = largest->stride * (largest->ny + 2);
  const size_t doubles = boxmg_deflation_scratch (bm->levels, cells);
  double *block = doubles < SIZE_MAX ? malloc (doubles * sizeof *block)
                                     : NULL;
  if (block == NULL)
    return MG_NO_MEMORY;
  bm->x = (struct boxmg_exec) { .device = false };
  for (size_t l = bm->levels - 2; l >= 1; --l)
    {
      const struct boxmg_level *lv = &bm->level[l];
      const size_t n = lv->stride * (lv->ny + 2);
      struct search s = { .z = block };
      double *next = block + BOXMG_LANCZOS_STEPS * n;
      double **grids[] = { &s.r, &s.p, &s.q, &s.y, &s.ay, &s.kept };
      for (size_t g = 0; g < sizeof grids / sizeof *grids; ++g, next += n)
        *grids[g] = next;
      if (!deflate_level (bm, l, &s))
        {
          free (block);
          return MG_NO_MEMORY;
        }
    }
  free (block);
  return MG_OK;
}
