/* The V-cycle of the black box multigrid and the conjugate gradients it
   preconditions.  Neither touches an array: the passes are
   boxmg_relax.c's.  */
#include <config.h>

#include "boxmg_internal.h"

#include <float.h>
#include <math.h>
#include <omp.h>

/* level l's u = V-cycle approximation of A^-1 level l's f, from 0;
   row_sum not NULL: each row's f . u there (level 0 with a coarser
   one).  A level with deflation vectors Z (A-orthonormal) adds
   Z Z^T f: the cycle and that correction are symmetric apiece, so their
   sum is a symmetric preconditioner that solves the modes of Z nearly
   exactly, where the cycle alone hardly reduced them.  A Ritz vector
   not yet converged adds to modes the cycle reduces already, lifting
   the largest eigenvalue of the preconditioned operator to about 1.7
   (a review measured it): conjugate gradients take that in stride.  */
void
boxmg_vcycle (struct boxmg_solver *bm, size_t l, double *row_sum)
{
  struct boxmg_level *fine = &bm->level[l];
  struct boxmg_exec *x = &bm->x;
  if (l + 1 == bm->levels)
    {
      /* The band solve is sequential: on the host for every placement,
         the device's f fetched and u returned.  */
      boxmg_coarse_fetch (x, fine);
      boxmg_coarse_solve (&bm->coarse, fine);
      boxmg_coarse_return (x, fine);
      return;
    }
  double part[BOXMG_DEFLATE_MAX];
  if (fine->deflate_count > 0)
    boxmg_deflate_parts (x, fine, part);
  boxmg_down (x, fine, fine + 1);
  boxmg_vcycle (bm, l + 1, NULL);
  boxmg_up (x, fine, fine + 1, row_sum);
  if (fine->deflate_count > 0)
    boxmg_deflate_add (x, fine, part);
}

/* The mean of r removed: the part of a singular problem's residual
   that A can reach.  Returns ||r||^2.  */
static double
consistent (struct boxmg_exec *x, struct boxmg_level *l, double *r)
{
  const double mean = boxmg_weighted_sum (x, l, NULL, r)
                      / ((double) l->nx * (double) l->ny);
  boxmg_shift (x, l, -mean, r);
  return boxmg_dot (x, l, r, r);
}

/* r = f - A u (consistent where singular), f as the solve scales it;
   returns ||r||.  u's periodic halo lines are set from the ring
   first.  */
static double
true_residual (struct boxmg_solver *bm, const struct field *u,
               const struct field *f)
{
  struct boxmg_level *l = &bm->level[0];
  boxmg_wrap (&bm->x, l, u->data);
  double rr = boxmg_true_residual (&bm->x, l, bm->mass, u->data,
                                   f != NULL ? f->data : NULL, bm->scale,
                                   l->f);
  if (bm->singular)
    rr = consistent (&bm->x, l, l->f);
  return sqrt (rr);
}

/* The round-off floor of u's residual.  */
static double
round_off (struct boxmg_solver *bm, const struct field *u,
           const struct field *f)
{
  boxmg_wrap (&bm->x, &bm->level[0], u->data);
  return 8.0 * DBL_EPSILON * boxmg_floor (&bm->x, &bm->level[0], bm->mass,
                                          u->data,
                                          f != NULL ? f->data : NULL,
                                          bm->scale);
}

/* Where the sums of squares of u's residual or its floor could leave
   the range of double (a norm beyond 2^200 or below 2^-200, or not
   finite: a source of 1e-160 made them 0, and a field of zeros
   "converged" at once; one of 1e160 overflowed them), the solve scales
   u and f by the power of two that brings their largest magnitude near
   1 (and u back when it ends): exact, the field's bits those of the
   scaled solve.  A largest magnitude within 2^-100 to 2^100 is left as
   it is: the operator's range (implicit.c) holds its sums.  Sets
   bm->scale and returns whether it changed u.  */
static bool
field_scale (struct boxmg_solver *bm, struct field *u, const struct field *f,
             double norm, double floor)
{
  struct boxmg_level *l = &bm->level[0];
  bm->scale = 1.0;
  if (norm >= 0x1p-200 && norm <= 0x1p200 && floor <= 0x1p200)
    return false;
  double largest = boxmg_magnitude (&bm->x, l, u->data);
  if (f != NULL)
    largest = fmax (largest, boxmg_magnitude (&bm->x, l, f->data));
  if (!(largest > 0.0) || !isfinite (largest))
    return false;
  const int e = ilogb (largest);
  if (e >= -100 && e <= 100)
    return false;
  /* A subnormal largest value (e below -1022): 2^-e would be
     infinite.  */
  bm->scale = ldexp (1.0, e >= DBL_MIN_EXP - 1 ? -e : 1 - DBL_MIN_EXP);
  boxmg_scale (&bm->x, l, bm->scale, u->data);
  return true;
}

static bool
valid_options (const struct mg_options *o)
{
  return o->rtol >= 0.0 && o->rtol < 1.0 && o->atol >= 0.0
         && (o->rtol > 0.0 || o->atol > 0.0) && o->max_cycles >= 1
         && o->max_cycles <= MG_MAX_CYCLES;
}

/* The constant that makes the solution's total heat what it must be:
   the initial one (singular), or f's sum over c0 (c0 > 0, floating:
   sum of A u is then c0 times the total heat).  */
static void
fix_heat (struct boxmg_solver *bm, struct field *u, const struct field *f,
          double heat)
{
  struct boxmg_level *l = &bm->level[0];
  struct boxmg_exec *x = &bm->x;
  /* f's terms scaled before they are summed: scaling the sum after
     overflowed (a source of 1e306, insulated).  */
  if (!bm->singular)
    heat = f != NULL ? boxmg_scaled_sum (x, l, bm->scale, f->data) / bm->c0
                     : 0.0;
  const double capacity = boxmg_weighted_sum (x, l, NULL, bm->capacity);
  const double now = boxmg_weighted_sum (x, l, bm->capacity, u->data);
  boxmg_shift (x, l, (heat - now) / capacity, u->data);
}

static enum mg_status
pcg (struct boxmg_solver *bm, struct field *u, const struct field *f,
     const struct mg_options *opt, struct mg_report *report)
{
  struct boxmg_level *l = &bm->level[0];
  *report = (struct mg_report) { .levels = (unsigned) bm->levels };
  if (u->nx != l->nx || u->ny != l->ny || u->stride != l->stride
      || (f != NULL && (f->nx != l->nx || f->ny != l->ny
                        || f->stride != l->stride))
      || !valid_options (opt))
    return MG_INVALID;
  double *r = l->f, *z = l->u, *p = bm->pcg_p, *q = bm->pcg_q;
  const double *fd = f != NULL ? f->data : NULL;
  const bool resume = bm->resume_u == u->data && bm->resume_f == fd;
  bm->resume_u = bm->resume_f = NULL;
  double norm, floor, rz = 0.0;
  if (resume)
    {
      /* u comes back as the last solve left it, unscaled.  */
      if (bm->scale != 1.0)
        boxmg_scale (&bm->x, l, bm->scale, u->data);
      norm = bm->resume_norm;
      floor = bm->resume_floor;
      rz = bm->resume_rz;
    }
  else
    {
      bm->scale = 1.0;
      norm = true_residual (bm, u, f);
      floor = round_off (bm, u, f);
      if (field_scale (bm, u, f, norm, floor))
        {
          norm = true_residual (bm, u, f);
          floor = round_off (bm, u, f);
        }
    }
  const double heat = resume ? bm->resume_heat
                      : bm->singular
                      ? boxmg_weighted_sum (&bm->x, l, bm->capacity, u->data)
                      : 0.0;
  report->initial = report->history[0] = norm;
  const double target = fmax (opt->rtol * norm, opt->atol * bm->scale);
  enum mg_status status = MG_NOT_CONVERGED;
  bool restart = !resume;
  while (isfinite (norm) && isfinite (floor))
    {
      if (norm <= target || norm <= floor)
        {
          status = MG_OK;
          break;
        }
      if (report->cycles == opt->max_cycles)
        {
          /* Stopped between iterations: the next solve of u goes on.  */
          bm->resume_u = u->data;
          bm->resume_f = fd;
          bm->resume_rz = rz;
          bm->resume_norm = norm;
          bm->resume_floor = floor;
          bm->resume_heat = heat;
          break;
        }
      /* r . z taken by the cycle's last sweep, as it leaves each row
         (a single level: by a pass of its own).  */
      const bool one_level = bm->levels == 1;
      boxmg_vcycle (bm, 0, one_level ? NULL : l->row_sum);
      const double rz_new = one_level ? boxmg_dot (&bm->x, l, r, z)
                                      : boxmg_row_total (&bm->x, l);
      const double pq = boxmg_search (&bm->x, l, restart ? 0.0 : rz_new / rz,
                                      z, p, q);
      rz = rz_new;
      restart = false;
      if (!(pq > 0.0) || !isfinite (pq))
        {
          if (!isfinite (pq))
            norm = pq;
          break;
        }
      double rr = boxmg_update (&bm->x, l, rz / pq, p, q, u->data, r);
      /* Round-off in A p gives r a mean, which A cannot reach.  */
      if (bm->singular)
        rr = consistent (&bm->x, l, r);
      norm = sqrt (rr);
      report->history[++report->cycles] = norm;
      /* The floor grows with u, which the first iteration sets.  */
      if (report->cycles == 1 && !resume)
        floor = round_off (bm, u, f);
      /* The recurrence's residual drifts from the true one: decide on
         the true one, and restart from it where they part.  */
      if (norm <= target || norm <= floor)
        {
          norm = true_residual (bm, u, f);
          floor = round_off (bm, u, f);
          report->history[report->cycles] = norm;
          restart = true;
        }
    }
  /* A singular problem's constant changes no residual: its heat is
     restored when the solve ends (not where the next one goes on).  */
  if (bm->singular && bm->resume_u == NULL)
    fix_heat (bm, u, f, heat);
  else if (bm->floating && status == MG_OK)
    {
      fix_heat (bm, u, f, heat);
      norm = true_residual (bm, u, f);
      floor = round_off (bm, u, f);
      report->history[report->cycles] = norm;
    }
  /* The caller's u leaves unscaled, with its ring's halo lines; the
     report in the caller's terms.  */
  if (bm->scale != 1.0)
    {
      boxmg_scale (&bm->x, l, 1.0 / bm->scale, u->data);
      norm /= bm->scale;
      floor /= bm->scale;
      report->initial /= bm->scale;
      for (unsigned c = 0; c <= report->cycles; ++c)
        report->history[c] /= bm->scale;
    }
  boxmg_wrap (&bm->x, l, u->data);
  report->final = norm;
  report->floor = floor;
  if (!isfinite (norm) || !isfinite (floor))
    return MG_NOT_FINITE;
  return status;
}

/* A field absent from the device is mapped for the solve (u copied
   back after it); one present already (--offload resident's fields) is
   solved in place, its host copy left to the caller.  Returns whether
   it was mapped.  */
static bool
map_field (struct boxmg_exec *x, const struct field *a)
{
  double *d = a->data;
  const size_t n = field_cells (a);
  if (boxmg_present (d, x->dev))
    return false;
  x->to_device += n * sizeof *d;
#pragma omp target enter data map(to: d[0:n]) device(x->dev)
  return true;
}

static void
unmap_field (struct boxmg_exec *x, const struct field *a, bool written)
{
  double *d = a->data;
  const size_t n = field_cells (a);
  if (written)
    {
      x->from_device += n * sizeof *d;
#pragma omp target exit data map(from: d[0:n]) device(x->dev)
    }
  else
    {
#pragma omp target exit data map(release: d[0:n]) device(x->dev)
    }
}

/* The placement's set-up around the iterations: MG_RESIDENT keeps the
   hierarchy on the device from its first solve on, MG_MAP enters it
   for the solve and takes PCG's state back after it (a solve may go on
   from it), MG_HOST takes back a state a device placement left.  */
enum mg_status
boxmg_solve (struct boxmg_solver *bm, struct field *u, const struct field *f,
             const struct mg_options *opt, struct mg_report *report)
{
  const int dev = opt->device >= 0 ? opt->device : omp_get_default_device ();
  bm->x = (struct boxmg_exec) { .device = opt->placement != MG_HOST,
                                .dev = dev };
  struct boxmg_exec *x = &bm->x;
  bool u_mapped = false, f_mapped = false;
  if (x->device)
    {
      boxmg_enter (bm);
      u_mapped = map_field (x, u);
      f_mapped = f != NULL && map_field (x, f);
    }
  else
    boxmg_leave (bm, true);
  const enum mg_status status = pcg (bm, u, f, opt, report);
  if (u_mapped)
    unmap_field (x, u, true);
  if (f_mapped)
    unmap_field (x, f, false);
  if (opt->placement == MG_MAP)
    boxmg_leave (bm, bm->resume_u != NULL);
  report->launches = x->launches;
  report->to_device = x->to_device;
  report->from_device = x->from_device;
  return status;
}
