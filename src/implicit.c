#include <config.h>

#include "implicit.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boxmg.h"
#include "diagnostics.h"
#include "domain.h"
#include "edge_terms.h"
#include "material.h"
#include "schedule.h"
#include "status.h"

/* theta of (I - theta alpha dt L) u' = (I + (1 - theta) alpha dt L) u.  */
static double
scheme_theta (enum time_scheme scheme)
{
  return scheme == SCHEME_CRANK_NICOLSON ? 0.5 : 1.0;
}

/* The halo of u on the host: lines copied as s says, and those of the
   neighbouring ranks' parts (the implicit schemes' own halo, by their
   stencil; solver.c's fill_halo_at fills a checkpoint's by the explicit
   step's).  */
static void
fill_halo (const struct stencil *s, const struct domain *d, struct field *u)
{
  for (int axis = 0; axis < 2; ++axis)
    domain_trade_halo (d, u->data, u->nx, u->ny, u->stride, axis);
  /* After the neighbours' lines: a part one line thin mirrors the line
     its neighbour sends.  */
  if (s->halo.refresh)
    halo_refresh_host (s, u->data);
}

/* The whole grid of a part, on every rank: gathered on rank 0 and sent
   to the others.  whole is nx x ny of the whole grid.  */
static bool
gather_whole (const struct domain *d, const struct field *part,
              struct field *whole)
{
  struct field gathered;
  if (!domain_gather (d, part, &gathered))
    return false;
  if (d->rank == 0)
    field_copy (whole, &gathered);
  domain_release (d, &gathered);
  domain_broadcast (d, whole->data, field_cells (whole));
  return true;
}

/* A padded array of the part (an operator's) as a field placed in the
   whole grid.  */
static struct field
part_field (const struct domain *d, const struct heat_operator *op,
            double *data)
{
  return (struct field) { .nx = op->nx, .ny = op->ny, .stride = op->stride,
                          .data = data, .x0 = d->x0, .y0 = d->y0 };
}

/* The black box hierarchy of the whole grid from the parts' operators
   and sinks (on one rank the part is the whole), A = c0 rho c_p + c1
   (sink - L_k).  */
static enum mg_status
create_whole (struct implicit *im, double c0, double c1)
{
  const struct domain *d = im->domain;
  const double *sink = im->terms.sink.data;
  if (d->ranks == 1)
    return boxmg_create (&im->boxmg, &im->op, sink, c0, c1, 0);
  if ((im->whole_u.data == NULL && !field_alloc (&im->whole_u, d->nx, d->ny))
      || (im->whole_f.data == NULL
          && !field_alloc (&im->whole_f, d->nx, d->ny)))
    return MG_NO_MEMORY;
  enum { PARTS = 4 };
  struct field whole[PARTS] = { { 0 } };
  bool ok = true;
  for (int a = 0; a < PARTS; ++a)
    ok = ok && field_alloc (&whole[a], d->nx, d->ny);
  const struct field parts[PARTS] = {
    part_field (d, &im->op, im->op.wx), part_field (d, &im->op, im->op.wy),
    part_field (d, &im->op, im->op.capacity),
    part_field (d, &im->op, im->terms.sink.data),
  };
  for (int a = 0; ok && a < PARTS; ++a)
    ok = gather_whole (d, &parts[a], &whole[a]);
  const struct heat_operator op = {
    .nx = d->nx, .ny = d->ny, .stride = whole[0].stride,
    .wx = whole[0].data, .wy = whole[1].data, .capacity = whole[2].data,
    .periodic_x = im->op.periodic_x, .periodic_y = im->op.periodic_y,
  };
  const enum mg_status status = ok ? boxmg_create (&im->boxmg, &op,
                                                   whole[3].data, c0, c1, 0)
                                : MG_NO_MEMORY;
  for (int a = 0; a < PARTS; ++a)
    field_free (&whole[a]);
  return status;
}

/* Whether a convection edge or face cooling of H > 0 (im->built_h, of
   the time the hierarchy is built for) takes heat out.  */
static bool
any_sink (const struct implicit *im)
{
  for (int e = 0; e <= EDGE_COUNT; ++e)
    if (im->built_h[e] > 0.0)
      return true;
  return false;
}

/* The hold on the level of A = c0 rho c_p + c1 (sink - L_k) where no
   edge is fixed.  L_k takes nothing from a constant, so the level's
   eigenvalue is at most the mean of c0 rho c_p + c1 sink (the Rayleigh
   quotient of a constant), and the largest is at least the largest
   diagonal term c0 rho c_p + c1 (sink + faces), about 2 k / dx^2 + 2 k /
   dy^2 of conduction: the level's relative error from rounding is about
   the doubles' epsilon over their ratio (measured a quarter to a
   thirtieth of it).  Returns that largest term, the mean in *mean,
   over the whole grid: the sum taken once and sent to every rank, so
   that all ranks decide alike.  */
static double
level_hold (const struct implicit *im, double c0, double c1, double *mean)
{
  const struct field *sinks = &im->terms.sink;
  const double *wx = im->op.wx, *wy = im->op.wy, *cap = im->op.capacity;
  const size_t st = im->op.stride;
  double diagonal = 0.0, sum = 0.0;
  for (size_t j = 1; j <= sinks->ny; ++j)
    for (size_t i = 1; i <= sinks->nx; ++i)
      {
        const size_t k = j * st + i;
        const double s = sinks->data[field_index (sinks, i, j)];
        sum += c0 * cap[k] + c1 * s;
        diagonal = fmax (diagonal, c0 * cap[k]
                                   + c1 * (s + wx[k - 1] + wx[k]
                                           + wy[k - st] + wy[k]));
      }
  domain_sum_ordered (im->domain, &sum, 1);
  *mean = sum / ((double) im->domain->nx * (double) im->domain->ny);
  return domain_max (im->domain, diagonal);
}

/* Below this ratio of level_hold's mean to its largest term the level
   could be off by more than 2e-3: a steady run "converged" to a level
   70 % off (H 1e-10 on a 256 x 128 map of k up to 1e3), and implicit
   steps found their residual under the round-off floor and left the
   field as it was, with status 0 (a uniform k of 1e6 on 64^2, H 1e-6,
   dt 1e6).  A copper plate of 0.1 m with H = 10 at one edge has 1e-8 at
   256^2, 1e-11 at 8192^2.  */
#define SINK_RATIO_MIN 1e-13

/* The sinks of H > 0 (im->built_h) as the options name them, into
   text; returns their count.  */
static int
name_sinks (const struct implicit *im, char *text, size_t size)
{
  size_t used = 0;
  int count = 0;
  text[0] = '\0';
  for (int e = 0; e <= EDGE_COUNT && used < size; ++e)
    if (im->built_h[e] > 0.0)
      {
        ++count;
        const int n = snprintf (text + used, size - used, "%s%s%s (H %g)",
                                used > 0 ? ", " : "",
                                e < EDGE_COUNT ? "--bc " : "",
                                e < EDGE_COUNT ? edge_name ((enum edge) e)
                                : "--surface-convection", im->built_h[e]);
        used += n > 0 ? (size_t) n : 0;
      }
  return count;
}

/* Whether the level of c0 rho c_p + c1 (sink - L_k) is held too weakly
   (level_hold below SINK_RATIO_MIN): then the ratio in *ratio and the
   sinks' names in names, *one where there is one.  */
static bool
weak_hold (const struct implicit *im, double c0, double c1, double *ratio,
           char *names, size_t size, bool *one)
{
  double mean;
  const double diagonal = level_hold (im, c0, c1, &mean);
  if (mean >= SINK_RATIO_MIN * diagonal)
    return false;
  *ratio = mean / diagonal;
  *one = name_sinks (im, names, size) == 1;
  return true;
}

/* Without a Dirichlet edge, or convection or face cooling of H > 0
   (im->built_h, the steady state's), the steady state is singular: it
   exists only where the heat the sources and the edges bring (the sum
   of f) balances, to a relative 1e-9 of the heat they move.  With them
   but no Dirichlet edge, the sinks must be strong enough to fix the
   level (level_hold, SINK_RATIO_MIN).  Returns 0 or HEATSIM_USAGE after
   a message giving the net heat rate, or naming the weak sinks.  */
static int
check_balance (const struct implicit *im, const struct config *cfg)
{
  if (config_fixed_edge (cfg))
    return HEATSIM_OK;
  if (any_sink (im))
    {
      double ratio;
      char names[256];
      bool one;
      if (!weak_hold (im, 0.0, 1.0, &ratio, names, sizeof names, &one))
        return HEATSIM_OK;
      heatsim_error ("--steady: the %s of %s %s too weak beside the "
                     "conduction to fix the steady state's level in double "
                     "precision: %s mean term is %.3g of the largest "
                     "diagonal term (about 2 k / dx^2 + 2 k / dy^2), below "
                     "%g, where rounding could move the level by more than "
                     "2e-3; give a larger H, fewer nodes across the "
                     "domain, or fix an edge's temperature",
                     one ? "sink" : "sinks", names, one ? "is" : "are",
                     one ? "its" : "their", ratio, SINK_RATIO_MIN);
      return HEATSIM_USAGE;
    }
  const struct field *f = &im->steady_rhs;
  double sums[2] = { 0.0, 0.0 };
  for (size_t j = 1; j <= f->ny; ++j)
    for (size_t i = 1; i <= f->nx; ++i)
      {
        sums[0] += f->data[field_index (f, i, j)];
        sums[1] += fabs (f->data[field_index (f, i, j)]);
      }
  domain_sum_ordered (im->domain, sums, 2);
  const double net = sums[0], moved = sums[1];
  if (fabs (net) <= 1e-9 * moved)
    return HEATSIM_OK;
  const double area = im->dx * im->dy;
  heatsim_error ("--steady: with no edge at a fixed temperature and no "
                 "convection or face cooling of H > 0, the heat sources and "
                 "edge fluxes must balance, but they bring a net %g%s (of %g "
                 "moved): no steady state exists; check --bc and the sources",
                 net * area, cfg->unit != TEMPERATURE_NONE
                 ? " W per metre of depth" : "", moved * area);
  return HEATSIM_USAGE;
}

/* The same hold on an implicit step's level (c0 = 1, c1 = theta dt),
   where no edge is fixed but a sink of H > 0 takes the conservation's
   shift away (boxmg.h).  Returns 0 or HEATSIM_USAGE after a message.  */
static int
check_step_level (const struct implicit *im, const struct config *cfg,
                  double c1)
{
  double ratio;
  char names[256];
  bool one;
  if (config_fixed_edge (cfg) || !any_sink (im)
      || !weak_hold (im, 1.0, c1, &ratio, names, sizeof names, &one))
    return HEATSIM_OK;
  heatsim_error ("--scheme %s: dt %g: with no edge at a fixed temperature, "
                 "rho c_p / dt and the %s of %s hold the step's level too "
                 "weakly beside the conduction for double precision: their "
                 "mean is %.3g of the largest diagonal term, below %g, where "
                 "rounding could leave the field unchanged; take a smaller "
                 "dt (--dt, or more --steps), give a larger H, or fix an "
                 "edge's temperature", time_scheme_name (cfg->scheme),
                 cfg->dt, one ? "sink" : "sinks", names, ratio,
                 SINK_RATIO_MIN);
  return HEATSIM_USAGE;
}

/* alpha dt / dx^2 and alpha dt / dy^2 of cfg's step, alpha the largest
   k / (rho c_p).  */
static void
step_weights (const struct implicit *im, const struct config *cfg,
              double *wx, double *wy)
{
  const double w = cfg->alpha * cfg->dt;
  *wx = w / (im->dx * im->dx);
  *wy = w / (im->dy * im->dy);
}

/* The largest alpha dt / dx^2 of the black box multigrid's implicit
   steps.  Its solve scales the field near 1 (boxmg_cycle.c), not the
   operator, whose coefficients enter its norms and dot products as
   they are (the geometric multigrid's are scaled, up to derive.c's
   1e280); before the field was scaled, at 1e153 a uniform material
   with a source overflowed the residual's squares (status 5, "the
   field's values leave the range of double"), and a random map of k up
   to 1e6 at 1e99; 1e60 keeps a margin of 1e39 below that, and is a dt of
   1e58 s for copper on millimetre cells.  */
#define MATERIAL_WEIGHT_MAX 1e60

/* Returns 0 or HEATSIM_USAGE after a message.  */
static int
check_step_weight (const struct implicit *im, const struct config *cfg)
{
  double wx, wy;
  step_weights (im, cfg, &wx, &wy);
  if (wx <= MATERIAL_WEIGHT_MAX && wy <= MATERIAL_WEIGHT_MAX)
    return HEATSIM_OK;
  heatsim_error ("--scheme %s: dt %g: alpha*dt/dx^2 = %g, alpha*dt/dy^2 = "
                 "%g (alpha the largest k / (rho c_p)): beyond %g, where the "
                 "black box multigrid (whose operator is not scaled) could "
                 "overflow; take a smaller dt (--dt, or more "
                 "--steps), or --steady for the steady state",
                 time_scheme_name (cfg->scheme), cfg->dt, wx, wy,
                 MATERIAL_WEIGHT_MAX);
  return HEATSIM_USAGE;
}

/* The range of k / dx^2 and k / dy^2 of a steady solve by the black
   box multigrid, divided by its steady_scale.  Its residual norms and
   CG's dot products are sums of squares of the field scaled near 1
   (boxmg_cycle.c) but not of the operator (the geometric multigrid's
   are scaled, derive.c), of terms of about k / dx^2 times the field's
   differences: k = 1e150 in one layer on cells of 1/34
   overflowed them for a field of 0 to 100 (status 5), and k = 1e-200
   beside a fixed edge made them 0, so that the solve "converged" at
   once to a field of zeros.  Random maps of k over six decades solve
   alike from 1e-100 to 1e100 (tests/overflow-messages.sh); the squares
   keep about 1e100 of room both ways for the field's values (within
   2^-100 to 2^100, or scaled) and the number of nodes.  A uniform k is divided out first (steady_scale), so
   that only cells far from square could leave the range.  */
#define STEADY_WEIGHT_MIN 1e-100
#define STEADY_WEIGHT_MAX 1e100

/* The least and the largest k of the whole grid (every rank calls
   it).  */
static void
conductivity_range (const struct material *m, const struct domain *d,
                    double range[2])
{
  double lo = m->conductivity_uniform, hi = lo;
  const struct field *k = &m->conductivity;
  if (m->variable && k->data != NULL)
    {
      lo = HUGE_VAL;
      hi = -HUGE_VAL;
      for (size_t j = 1; j <= k->ny; ++j)
        for (size_t i = 1; i <= k->nx; ++i)
          {
            lo = fmin (lo, k->data[field_index (k, i, j)]);
            hi = fmax (hi, k->data[field_index (k, i, j)]);
          }
    }
  range[0] = domain_min (d, lo);
  range[1] = domain_max (d, hi);
}

/* The steady_scale of a steady black box solve of k, the grid's least
   and largest.  A uniform k is no contrast: the steady state of
   div (k grad T) + g = 0 is that of div (grad T) + g / k = 0, and
   dividing the operator and the heat g by about k / (dx dy) leaves
   weights of about dy / dx and dx / dy, and terms of the sums of
   squares of about the field's own differences, whatever k is (k =
   1e150 was refused by the range, and before that overflowed the
   squares on 64^2 cells).  A power of two, so that the division is
   exact and a run of k in range keeps its bits; an even one, so that
   the square roots of the coarsest level's band Cholesky factor divide
   exactly too (an odd one changed the last bits).  A k that varies
   keeps its contrasts, and its weights with them: 1.  */
static double
steady_scale (const struct implicit *im, const double k[2])
{
  const double w = k[0] / im->dx / im->dy;
  if (k[0] != k[1] || !(w > 0.0) || !isfinite (w))
    return 1.0;
  const int e = ilogb (w);
  return ldexp (1.0, e - (e & 1));
}

/* The steady_scale of a steady black box solve of m into im, and its
   k, divided by it, within STEADY_WEIGHT_MIN and _MAX times dx^2 and
   dy^2.  Returns 0 or HEATSIM_USAGE after a message.  */
static int
check_steady_conductivity (struct implicit *im, const struct config *cfg,
                           const struct material *m)
{
  double k[2];
  conductivity_range (m, im->domain, k);
  const double scale = im->steady_scale = steady_scale (im, k);
  const double h2_min = fmin (im->dx * im->dx, im->dy * im->dy);
  const double h2_max = fmax (im->dx * im->dx, im->dy * im->dy);
  const double lo = STEADY_WEIGHT_MIN * h2_max;
  const double hi = STEADY_WEIGHT_MAX * h2_min;
  if (k[0] / scale >= lo && k[1] / scale <= hi)
    return HEATSIM_OK;
  char what[4200], has[64];
  config_describe_material (cfg, false, what, sizeof what);
  /* A uniform k divided out leaves only the cells' shape; one whose
     k / (dx dy) leaves double's range is not divided out (steady_scale)
     and is out of range for the cells itself.  */
  const double w = k[0] / im->dx / im->dy;
  if (k[0] == k[1] && w > 0.0 && isfinite (w))
    {
      heatsim_error ("%s: k %g: the steady black box multigrid cannot take "
                     "cells of %g x %g: k / dx^2 and k / dy^2 differ by "
                     "more than %g (its operator is not scaled); "
                     "make --grid proportional to --length", what, k[0],
                     im->dx, im->dy, STEADY_WEIGHT_MAX / STEADY_WEIGHT_MIN);
      return HEATSIM_USAGE;
    }
  char takes[64];
  if (k[0] == k[1])
    snprintf (has, sizeof has, "k %g", k[0]);
  else
    snprintf (has, sizeof has, "k from %g to %g", k[0], k[1]);
  /* On cells so large that 1e100 dx^2 overflows, no k is too large.  */
  if (isfinite (hi))
    snprintf (takes, sizeof takes, "from %g to %g", lo, hi);
  else
    snprintf (takes, sizeof takes, "of at least %g", lo);
  heatsim_error ("%s: %s: the steady black box multigrid takes k %s on "
                 "cells of %g x %g (k / dx^2 and k / dy^2 from %g to %g: "
                 "its operator is not scaled)", what, has, takes, im->dx,
                 im->dy, STEADY_WEIGHT_MIN, STEADY_WEIGHT_MAX);
  return HEATSIM_USAGE;
}

/* The outcome of building the multigrid hierarchy of an nx x ny grid
   as a status for main, with a message where it failed: refusal where
   the operator is refused.  */
static int
hierarchy_status (enum mg_status status, size_t nx, size_t ny,
                  const char *refusal)
{
  switch (status)
    {
    case MG_OK:
      return HEATSIM_OK;
    case MG_NO_MEMORY:
      heatsim_error ("cannot allocate the multigrid levels of a %zu x %zu "
                     "grid", nx, ny);
      return HEATSIM_NO_MEMORY;
    default:
      heatsim_error ("%s", refusal);
      return HEATSIM_USAGE;
    }
}

/* A hierarchy whose band factor (or line smoother) met a pivot that
   is not positive (MG_SINGULAR): every coefficient is valid, but the
   operator is singular in double precision.  In an implicit step, rho c_p / dt
   vanishes to rounding beside k / dx^2 where nothing else (a fixed
   edge, a sink) ties the temperature's level: the level is then set by
   rounding, and a smaller dt resolves it.  In a steady state a sink too
   weak beside the conduction (check_balance refuses most such first),
   conductivities too far apart, or cells so far from square that the
   couplings along one axis vanish beside the other's.  Returns
   HEATSIM_USAGE after a message.  */
static int
singular_status (const struct implicit *im, const struct config *cfg)
{
  if (cfg->steady)
    {
      heatsim_error ("--steady: the operator is singular to rounding (the "
                     "multigrid met a pivot that is not positive): a sink "
                     "(convection, face cooling) too weak beside the "
                     "conduction, conductivities too far apart, or cells "
                     "too far from square (dx/dy %g), to fix the "
                     "temperature in double precision; fix an edge's "
                     "temperature, give a larger H or make --grid "
                     "proportional to --length", im->dx / im->dy);
      return HEATSIM_USAGE;
    }
  double wx, wy;
  step_weights (im, cfg, &wx, &wy);
  heatsim_error ("--scheme %s: dt %g: the step's operator is singular to "
                 "rounding: rho c_p / dt vanishes beside k / dx^2 "
                 "(alpha*dt/dx^2 = %g, alpha*dt/dy^2 = %g, alpha the "
                 "largest k / (rho c_p)), and no fixed edge, convection or "
                 "face cooling ties the temperature's level firmly enough; "
                 "take a smaller dt (--dt, or more --steps), or --steady "
                 "for the steady state", time_scheme_name (cfg->scheme),
                 cfg->dt, wx, wy);
  return HEATSIM_USAGE;
}

/* A periodic axis halves only while its node count is even: refused
   where the coarsest level left would need too large a factor
   (boxmg.h).  Returns 0 or HEATSIM_USAGE after a message.  */
static int
check_rings (const struct config *cfg, const struct domain *d)
{
  const bool px = config_periodic (cfg, EDGE_LEFT);
  const bool py = config_periodic (cfg, EDGE_BOTTOM);
  size_t cnx, cny;
  if ((!px && !py)
      || boxmg_coarsest_factor (d->nx, d->ny, px, py, &cnx, &cny)
         <= BOXMG_FACTOR_LIMIT)
    return HEATSIM_OK;
  heatsim_error ("--bc periodic: the black box multigrid (of a material, "
                 "a source or edge terms) halves a periodic axis only "
                 "while its node count is even; a %zu x "
                 "%zu grid stops at %zu x %zu nodes, too many for its "
                 "coarsest solve: give a periodic axis a node count with "
                 "more factors of 2", d->nx, d->ny, cnx, cny);
  return HEATSIM_USAGE;
}

/* The sinks the operator holds beside the material, for a refusal of
   its coefficients (an H of 1e308 overflows them): " or --bc left
   (H 1e+308)" for each convection edge, and --surface-convection; ""
   where none.  */
static void
describe_sinks (const struct config *cfg, char *buf, size_t size)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int e = 0; e < EDGE_COUNT && used < size; ++e)
    if (cfg->bc[e].kind == BOUNDARY_ROBIN)
      used += (size_t) snprintf (buf + used, size - used, " or --bc %s (H "
                                 "%g)", edge_name ((enum edge) e),
                                 schedule_max (&cfg->bc[e].h));
  if (cfg->surface_given && used < size)
    snprintf (buf + used, size - used, " or --surface-convection (H %g, "
              "--thickness %g)", schedule_max (&cfg->surface_h),
              cfg->thickness);
}

/* The operator side of implicit_init: the operator of m (a uniform one
   where m does not vary), its edge terms, the steady right-hand side,
   and the hierarchy of c0 rho c_p + c1 (sink - L_k).  */
static int
material_init (struct implicit *im, const struct config *cfg,
               const struct material *m)
{
  /* The whole grid's edges of edge nodes are shut faces (their heat
     is an edge term); the part's edges inside it are not.  */
  const struct domain *d = im->domain;
  const int rings = check_rings (cfg, d);
  if (rings != HEATSIM_OK)
    return rings;
  /* The edges' heat is a term at their nodes, not in the halo (whose
     rule, mirror + 2 dx / k times the heat, has no k when k varies:
     infinity, and 0 infinity through a shut face).  */
  for (int e = 0; e < EDGE_COUNT; ++e)
    im->halo.halo.heat[e] = false;
  const size_t nx = im->halo.nx, ny = im->halo.ny;
  /* A uniform material holds no per-node field: the part's size is
     given by an empty one.  */
  struct material uniform = { .conductivity_uniform = cfg->alpha,
                              .capacity_uniform = 1.0 };
  if (m != NULL)
    uniform = *m;
  if (cfg->steady)
    {
      const int range = check_steady_conductivity (im, cfg, &uniform);
      if (range != HEATSIM_OK)
        return range;
    }
  if (!uniform.variable)
    uniform.capacity = (struct field) { .nx = nx, .ny = ny };
  if (!heat_operator_build (&im->op, &uniform, im->dx, im->dy, im->edge_node)
      || !edge_terms_alloc (&im->terms, d)
      || (cfg->steady && !field_alloc (&im->steady_rhs, nx, ny)))
    {
      heatsim_error ("cannot allocate the operator of a %zu x %zu grid", nx,
                     ny);
      return HEATSIM_NO_MEMORY;
    }
  im->op.periodic_x = config_periodic (cfg, EDGE_LEFT);
  im->op.periodic_y = config_periodic (cfg, EDGE_BOTTOM);
  const double start = config_time (cfg, cfg->start_step);
  edge_terms_at (&im->terms, cfg, d, im->op.source, start);
  edge_conductances_at (cfg, start, im->built_h);
  double c0 = 0.0, c1 = 1.0;
  if (cfg->steady)
    {
      field_copy (&im->steady_rhs, &im->terms.heat);
      const int balance = check_balance (im, cfg);
      if (balance != HEATSIM_OK)
        return balance;
      /* Exact: a power of two.  */
      c1 = 1.0 / im->steady_scale;
      double *restrict f = im->steady_rhs.data;
      const size_t cells = field_cells (&im->steady_rhs);
      for (size_t k = 0; k < cells; ++k)
        f[k] *= c1;
    }
  else
    {
      const double theta = scheme_theta (cfg->scheme);
      c0 = 1.0;
      c1 = theta * cfg->dt;
      im->explicit_weight = (1.0 - theta) * cfg->dt;
      im->implicit_weight = c1;
      /* The hierarchy is built for the first step's end.  */
      const double next = config_time (cfg, cfg->start_step + 1);
      edge_terms_at (&im->terms, cfg, d, im->op.source, next);
      edge_conductances_at (cfg, next, im->built_h);
      const int weight = check_step_weight (im, cfg);
      if (weight != HEATSIM_OK)
        return weight;
      const int level = check_step_level (im, cfg, c1);
      if (level != HEATSIM_OK)
        return level;
    }
  const enum mg_status status = create_whole (im, c0, c1);
  if (status == MG_SINGULAR)
    return singular_status (im, cfg);
  /* A steady run's dt is that of its sweeps, no time step.  */
  char refusal[600], sinks[400];
  describe_sinks (cfg, sinks, sizeof sinks);
  if (cfg->steady)
    snprintf (refusal, sizeof refusal, "--steady: multigrid cannot take "
              "this material (dx %g, dy %g)%s: a coefficient is not finite "
              "or positive", im->dx, im->dy, sinks);
  else
    snprintf (refusal, sizeof refusal, "--scheme %s: multigrid cannot take "
              "this material (dt %g, dx %g, dy %g)%s: a coefficient is not "
              "finite or positive", time_scheme_name (cfg->scheme), cfg->dt,
              im->dx, im->dy, sinks);
  return hierarchy_status (status, d->nx, d->ny, refusal);
}

/* The geometric multigrid's right-hand side of a uniform material's
   source (edge_terms_geometric_source): steady, -L u = q / k, its
   residual that of k L u + q divided by k (steady_scale, so that the
   report's norms are in the black box solve's units, W/m^3); an
   implicit step, u^{n+1} - theta alpha dt L u^{n+1} = rhs + dt q /
   (rho c_p).  An edge node's equation is that of its half (or quarter)
   volume, as the mirrored halo gives it: q counts whole.  Returns 0 or
   HEATSIM_NO_MEMORY after a message.  */
static int
geometric_source (struct implicit *im, const struct config *cfg,
                  const struct material *m)
{
  struct field *f = cfg->steady ? &im->steady_rhs : &im->step_source;
  const struct field *q = &m->source;
  if (!field_alloc (f, q->nx, q->ny))
    {
      heatsim_error ("cannot allocate the source of a %zu x %zu grid", q->nx,
                     q->ny);
      return HEATSIM_NO_MEMORY;
    }
  /* Divided first: dt / (rho c_p) alone can leave double's range.  */
  const double by = cfg->steady ? m->conductivity_uniform
                    : m->capacity_uniform;
  const double dt = cfg->steady ? 1.0 : cfg->dt;
  for (size_t j = 1; j <= q->ny; ++j)
    for (size_t i = 1; i <= q->nx; ++i)
      f->data[field_index (f, i, j)]
        = q->data[field_index (q, i, j)] / by * dt;
  if (cfg->steady)
    im->steady_scale = m->conductivity_uniform;
  return HEATSIM_OK;
}

int
implicit_init (struct implicit *im, const struct config *cfg,
               const struct stencil *s, const struct domain *d,
               const struct material *m, enum mg_placement placement,
               int device)
{
  *im = (struct implicit) {
    .options = mg_default_options (),
    .cfg = cfg,
    .domain = d,
    .dx = config_dx (cfg), .dy = config_dy (cfg),
    .halo = *s,
    .conserves = !config_fixed_edge (cfg),
    .volume = ((double) d->nx - 0.5 * (config_edge_node (cfg, EDGE_LEFT)
                                       + config_edge_node (cfg, EDGE_RIGHT)))
              * ((double) d->ny
                 - 0.5 * (config_edge_node (cfg, EDGE_BOTTOM)
                          + config_edge_node (cfg, EDGE_TOP))),
    .device_copy = placement == MG_RESIDENT,
    .steady_scale = 1.0,
  };
  domain_edge_nodes (d, cfg, im->edge_node);
  /* A hierarchy split over ranks runs on host threads (the black box
     one of a material solves the gathered grid on every rank: there
     too).  */
  const bool material = edge_terms_operator (cfg);
  if (d->ranks > 1)
    placement = MG_HOST;
  im->options.rtol = cfg->rtol;
  im->options.max_cycles = MG_MAX_CYCLES;
  im->options.placement = placement;
  im->options.device = device;
  if (!cfg->steady && !field_alloc (&im->previous, s->nx, s->ny))
    {
      heatsim_error ("cannot allocate a %zu x %zu grid for the last time "
                     "step", s->nx, s->ny);
      return HEATSIM_NO_MEMORY;
    }
  if (material)
    return material_init (im, cfg, m);
  struct mg_operator op = { .c0 = 0.0, .c1 = 1.0, .dx = im->dx,
                            .dy = im->dy };
  if (!cfg->steady)
    {
      const double theta = scheme_theta (cfg->scheme);
      op.c0 = 1.0;
      op.c1 = theta * cfg->alpha * cfg->dt;
      im->explicit_weight = (1.0 - theta) * cfg->alpha * cfg->dt;
    }
  if (m != NULL && m->source.data != NULL)
    {
      const int source = geometric_source (im, cfg, m);
      if (source != HEATSIM_OK)
        return source;
    }
  const struct mg_boundary bc = edge_terms_mg_boundary (cfg);
  char refusal[160];
  snprintf (refusal, sizeof refusal, "multigrid cannot take this problem "
            "(alpha dt %g, dx %g, dy %g)", op.c1, op.dx, op.dy);
  return hierarchy_status (mg_create_part (&im->mg, d, &op, &bc), s->nx,
                           s->ny, refusal);
}

void
implicit_free (struct implicit *im)
{
  mg_destroy (im->mg);
  im->mg = NULL;
  boxmg_destroy (im->boxmg);
  im->boxmg = NULL;
  heat_operator_free (&im->op);
  edge_terms_free (&im->terms);
  field_free (&im->steady_rhs);
  field_free (&im->step_source);
  field_free (&im->whole_u);
  field_free (&im->whole_f);
  field_free (&im->previous);
}

unsigned
implicit_levels (const struct implicit *im)
{
  return (unsigned) (im->boxmg != NULL ? boxmg_levels (im->boxmg)
                     : mg_levels (im->mg));
}

/* The fields of the resident strategy are entered on its device: a
   MG_RESIDENT solve works on their device copies, brought up to date
   with the host before it and the host with the solution after it; a
   host solve of such a field (an MPI run) updates the device copy after
   it.  */
static void
to_device (const struct implicit *im, const struct field *f)
{
  double *a = f->data;
  const size_t n = field_cells (f);
  const int device = im->options.device;
#pragma omp target update to(a[0:n]) device(device)
}

static void
from_device (const struct implicit *im, const struct field *f)
{
  double *a = f->data;
  const size_t n = field_cells (f);
  const int device = im->options.device;
#pragma omp target update from(a[0:n]) device(device)
}

/* The black box solve of the whole grid: on one rank of u itself, on
   several of the gathered field on every rank, each keeping its part
   (halo included: the neighbours' new values).  */
static enum mg_status
boxmg_whole (struct implicit *im, struct field *u, const struct field *f,
             const struct mg_options *o, struct mg_report *report)
{
  const struct domain *d = im->domain;
  if (d->ranks == 1)
    return boxmg_solve (im->boxmg, u, f, o, report);
  if (!gather_whole (d, u, &im->whole_u)
      || (f != NULL && !gather_whole (d, f, &im->whole_f)))
    return MG_NO_MEMORY;
  const enum mg_status status = boxmg_solve (im->boxmg, &im->whole_u,
                                             f != NULL ? &im->whole_f : NULL,
                                             o, report);
  for (size_t j = 0; j <= u->ny + 1; ++j)
    memcpy (&u->data[field_index (u, 0, j)],
            &im->whole_u.data[field_index (&im->whole_u, d->x0, d->y0 + j)],
            u->stride * sizeof (double));
  return status;
}

static enum mg_status
solve (struct implicit *im, struct field *u, const struct field *f,
       const struct mg_options *o, struct mg_report *report)
{
  const bool resident = im->options.placement == MG_RESIDENT;
  if (resident)
    {
      to_device (im, u);
      if (f != NULL)
        to_device (im, f);
    }
  const enum mg_status status = im->boxmg != NULL
                                ? boxmg_whole (im, u, f, o, report)
                                : mg_solve (im->mg, u, f, o, report);
  if (resident)
    from_device (im, u);
  else if (im->device_copy)
    to_device (im, u);
  return status;
}

enum mg_status
implicit_steady_cycles (struct implicit *im, struct field *u,
                        unsigned max_cycles, double target,
                        struct mg_report *report)
{
  /* A run that stops and goes on (output due, a restart) states its
     target in absolute terms, so that it stops where an unbroken run
     would.  */
  struct mg_options o = im->options;
  o.max_cycles = max_cycles;
  o.rtol = 0.0;
  /* The solve's norms are those of the equations divided by
     steady_scale; the target and the report are the run's.  */
  const double scale = im->steady_scale;
  /* 0: the round-off floor.  A target that the scale takes to 0 is
     the least one double holds (an atol of 0 is no target at all); a
     subnormal one stays, which the scaled solves reach.  */
  o.atol = target > 0.0 ? fmax (fmin (target / scale, DBL_MAX), DBL_TRUE_MIN)
           : DBL_MIN;
  const enum mg_status status
    = solve (im, u, im->steady_rhs.data != NULL ? &im->steady_rhs : NULL,
             &o, report);
  if (scale != 1.0)
    {
      report->initial *= scale;
      report->final *= scale;
      report->floor *= scale;
      for (unsigned c = 0; c <= report->cycles && c <= MG_MAX_CYCLES; ++c)
        report->history[c] *= scale;
    }
  return status;
}

/* rhs = u + w L_h u over the interior (u's halo filled).  */
static void
implicit_rhs (const struct field *u, double w, double dx, double dy,
              struct field *rhs)
{
  const size_t nx = u->nx, ny = u->ny, stride = u->stride;
  const double *restrict a = u->data;
  double *restrict b = rhs->data;
  const double wx = w / (dx * dx), wy = w / (dy * dy);
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = j * stride + i;
        b[k] = a[k] + wx * (a[k - 1] - 2.0 * a[k] + a[k + 1])
               + wy * (a[k - stride] - 2.0 * a[k] + a[k + stride]);
      }
}

/* rhs = rho c_p u + w (L_k u - sink u + heat) over the interior (u's
   halo filled), the terms those of the step's start.  */
static void
material_rhs (const struct heat_operator *op, const struct edge_terms *et,
              const struct field *u, double w, struct field *rhs)
{
  const size_t nx = u->nx, ny = u->ny, stride = u->stride;
  const double *restrict a = u->data;
  const double *restrict sink = et->sink.data, *restrict heat = et->heat.data;
  double *restrict b = rhs->data;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = j * stride + i;
        b[k] = op->capacity[k] * a[k]
               + w * (heat_flow_at (a + k, op->wx + k, op->wy + k,
                                    (ptrdiff_t) stride)
                      - sink[k] * a[k] + heat[k]);
      }
}

/* rhs += w heat over the interior: the edge terms of the step's end,
   or a uniform material's dt q / (rho c_p) (geometric_source; w 1,
   exact).  */
static void
add_heat (const struct field *heat, double w, struct field *rhs)
{
  const size_t nx = rhs->nx, ny = rhs->ny, stride = rhs->stride;
  const double *restrict h = heat->data;
  double *restrict b = rhs->data;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      b[j * stride + i] += w * h[j * stride + i];
}

/* The hierarchy of the step ending at t: built again where a heat
   transfer coefficient has changed since the last (a set-up per such
   step), im->terms holding the terms at t.  */
static enum mg_status
follow_conductances (struct implicit *im, double t)
{
  double h[EDGE_COUNT + 1];
  edge_conductances_at (im->cfg, t, h);
  if (memcmp (h, im->built_h, sizeof h) == 0)
    return MG_OK;
  memcpy (im->built_h, h, sizeof h);
  boxmg_destroy (im->boxmg);
  im->boxmg = NULL;
  return create_whole (im, 1.0, im->implicit_weight);
}

/* The step from now to next with the operator: the explicit half's
   terms at now (Crank-Nicolson), the implicit half's and the Dirichlet
   temperatures at next.  boxmg keeps the total heat plus what f brings
   where nothing ties the temperature (boxmg_solve).  */
static enum mg_status
material_step (struct implicit *im, struct field *u, struct field *rhs,
               double now, double next, struct mg_report *report)
{
  const struct config *cfg = im->cfg;
  const struct domain *d = im->domain;
  if (im->explicit_weight != 0.0)
    edge_terms_at (&im->terms, cfg, d, im->op.source, now);
  material_rhs (&im->op, &im->terms, u, im->explicit_weight, rhs);
  edge_terms_at (&im->terms, cfg, d, im->op.source, next);
  add_heat (&im->terms.heat, im->implicit_weight, rhs);
  *report = (struct mg_report) { 0 };
  enum mg_status status = follow_conductances (im, next);
  field_copy (&im->previous, u);
  edge_temperatures_at (cfg, d, u, next);
  if (status == MG_OK)
    status = solve (im, u, rhs, &im->options, report);
  if (status != MG_OK)
    {
      field_copy (u, &im->previous);
      if (im->device_copy)
        to_device (im, u);
      return status;
    }
  fill_halo (&im->halo, im->domain, u);
  if (im->device_copy)
    to_device (im, u);
  return status;
}

enum mg_status
implicit_step (struct implicit *im, struct field *u, size_t step,
               struct field *rhs, struct mg_report *report)
{
  const double now = config_time (im->cfg, step);
  const double next = config_time (im->cfg, step + 1);
  edge_temperatures_at (im->cfg, im->domain, u, now);
  fill_halo (&im->halo, im->domain, u);
  if (im->boxmg != NULL)
    return material_step (im, u, rhs, now, next, report);
  implicit_rhs (u, im->explicit_weight, im->dx, im->dy, rhs);
  if (im->step_source.data != NULL)
    add_heat (&im->step_source, 1.0, rhs);
  const double heat
    = im->conserves
      ? domain_sum (im->domain, field_volume_sum (u, im->edge_node)) : 0.0;
  field_copy (&im->previous, u);
  edge_temperatures_at (im->cfg, im->domain, u, next);
  const enum mg_status status = solve (im, u, rhs, &im->options, report);
  if (status != MG_OK)
    {
      field_copy (u, &im->previous);
      if (im->device_copy)
        to_device (im, u);
      return status;
    }
  if (im->conserves)
    {
      const double shift
        = (heat - domain_sum (im->domain,
                              field_volume_sum (u, im->edge_node)))
          / im->volume;
      const size_t nx = u->nx, ny = u->ny, stride = u->stride;
      double *restrict a = u->data;
#pragma omp parallel for schedule(static)
      for (size_t j = 1; j <= ny; ++j)
        for (size_t i = 1; i <= nx; ++i)
          a[j * stride + i] += shift;
      fill_halo (&im->halo, im->domain, u);
      if (im->device_copy)
        to_device (im, u);
    }
  return status;
}

double
implicit_steady_norm (struct implicit *im, struct field *u)
{
  /* Every finite norm is at most DBL_MAX: the solve stops before its
     first cycle.  */
  struct mg_report report = { 0 };
  implicit_steady_cycles (im, u, 1, DBL_MAX, &report);
  return report.initial;
}

/* The sum over the interior of (scale L_h u)^2, over all ranks.  */
static double
laplace_squares (const struct domain *d, double cx, double cy, double scale,
                 const struct field *u)
{
  const size_t nx = u->nx, ny = u->ny, stride = u->stride;
  const double *restrict a = u->data;
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+: sum)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = j * stride + i;
        const double r = scale
                         * (cx * (a[k - 1] - 2.0 * a[k] + a[k + 1])
                            + cy * (a[k - stride] - 2.0 * a[k]
                                    + a[k + stride]));
        sum += r * r;
      }
  domain_sum_ordered (d, &sum, 1);
  return sum;
}

double
laplace_residual_norm (const struct stencil *s, const struct domain *d,
                       double dx, double dy, struct field *u)
{
  fill_halo (s, d, u);
  const double cx = 1.0 / (dx * dx), cy = 1.0 / (dy * dy);
  double sum = laplace_squares (d, cx, cy, 1.0, u);
  /* Out of the range of double: again from scaled terms, as multigrid's
     norms.  */
  const double scale = mg_square_scale (sum);
  if (scale != 1.0)
    sum = laplace_squares (d, cx, cy, scale, u);
  return sqrt (sum) / scale;
}
