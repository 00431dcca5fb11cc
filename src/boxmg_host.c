/* The host's wavefront over a level's rows (boxmg_host.h says what it
   does and why).  A variant file (see host_isa.h): compiled once per
   host path, its kernel named by HOST_ISA_NAME; no target region here.  */
#include <config.h>

#include "host_isa.h"

#include <omp.h>
#include <stdbool.h>
#include <stddef.h>

#include "boxmg_host.h"
#include "boxmg_rows.h"

/* Whether stage q has work on row j.  */
static bool
covers (const struct boxmg_pipeline *pl, size_t q, size_t j)
{
  const struct boxmg_stage *st = &pl->stage[q];
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
residual_at (const struct boxmg_pipeline *pl, double *ring, size_t j)
{
  const struct boxmg_level *l = pl->fine;
  if (ring != NULL && j >= 1 && j <= l->ny)
    return ring + (j % 3) * l->stride;
  return l->r + j * l->stride;
}

static void
stage_row (const struct boxmg_pipeline *pl, double *ring, size_t q, size_t j)
{
  const struct boxmg_stage *st = &pl->stage[q];
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
    case STAGE_UPDATE:
      pl->row_sum[j - 1] = update_row (pl->alpha, pl->p_in, pl->q_in, pl->u,
                                       pl->r, stride, nx, j);
      break;
    }
}

/* Band b of bands: rows a .. z.  Phase one: the wavefront over the
   band, stage q > 0 kept 2q rows off each end that meets another band;
   the residual, which only the restriction (the next stage, on the
   rows around the one behind) reads, in three rows of r at the band's
   start, which stay in cache (r is scratch, read by nothing else).
   Phase two (after every band's phase one), band b > 0: the rows
   deferred around its first row, the stages in order, the residual at
   its place in r: the rows the deferred restriction reads, computed
   again (the same bits) where phase one computed them into a ring.  */
static void
pipeline_band (const struct boxmg_pipeline *pl, size_t b, size_t bands)
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

void
HOST_ISA_NAME (boxmg_pipeline) (const struct boxmg_pipeline *pl,
                                size_t bands)
{
#pragma omp parallel num_threads(bands) if (bands > 1)
  pipeline_band (pl, (size_t) omp_get_thread_num (),
                 (size_t) omp_get_num_threads ());
}
