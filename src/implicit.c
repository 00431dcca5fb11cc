#include <config.h>

#include "implicit.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "boxmg.h"
#include "diagnostics.h"
#include "domain.h"
#include "material.h"
#include "status.h"

/* heatsim gives all four edges one kind; --edges values are Dirichlet.  */
static struct mg_boundary
mg_boundary_of (const struct edge_condition bc[EDGE_COUNT])
{
  struct mg_boundary b;
  for (int e = 0; e < EDGE_COUNT; ++e)
    b.kind[e] = bc[e].kind;
  return b;
}

/* theta of (I - theta alpha dt L) u' = (I + (1 - theta) alpha dt L) u.  */
static double
scheme_theta (enum time_scheme scheme)
{
  return scheme == SCHEME_CRANK_NICOLSON ? 0.5 : 1.0;
}

/* The halo of u on the host: lines copied as s says, and those of the
   neighbouring ranks' parts.  */
static void
fill_halo (const struct stencil *s, const struct domain *d, struct field *u)
{
  if (s->halo.refresh)
    halo_refresh_host (s, u->data);
  for (int axis = 0; axis < 2; ++axis)
    domain_trade_halo (d, u->data, u->nx, u->ny, u->stride, axis);
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
   (on one rank the part is the whole).  */
static enum mg_status
create_whole (struct implicit *im, double c0, double c1)
{
  const struct domain *d = im->domain;
  if (d->ranks == 1)
    return boxmg_create (&im->boxmg, &im->op, c0, c1, 0);
  if (!field_alloc (&im->whole_u, d->nx, d->ny)
      || !field_alloc (&im->whole_f, d->nx, d->ny))
    return MG_NO_MEMORY;
  struct field wx = { 0 }, wy = { 0 }, capacity = { 0 };
  if (!field_alloc (&wx, d->nx, d->ny) || !field_alloc (&wy, d->nx, d->ny)
      || !field_alloc (&capacity, d->nx, d->ny))
    {
      field_free (&wx);
      field_free (&wy);
      field_free (&capacity);
      return MG_NO_MEMORY;
    }
  const struct field parts[3] = { part_field (d, &im->op, im->op.wx),
                                  part_field (d, &im->op, im->op.wy),
                                  part_field (d, &im->op, im->op.capacity) };
  struct field *wholes[3] = { &wx, &wy, &capacity };
  bool gathered = true;
  for (int a = 0; a < 3; ++a)
    gathered &= gather_whole (d, &parts[a], wholes[a]);
  const struct heat_operator op = {
    .nx = d->nx, .ny = d->ny, .stride = wx.stride, .wx = wx.data,
    .wy = wy.data, .capacity = capacity.data,
  };
  const enum mg_status status = gathered
                                ? boxmg_create (&im->boxmg, &op, c0, c1, 0)
                                : MG_NO_MEMORY;
  field_free (&wx);
  field_free (&wy);
  field_free (&capacity);
  return status;
}

/* The material side of implicit_init: the operator of m, its steady
   right-hand side, and the hierarchy of c0 rho c_p - c1 L_k.  */
static int
material_init (struct implicit *im, const struct config *cfg,
               const struct material *m)
{
  if (config_periodic (cfg, EDGE_LEFT) || config_periodic (cfg, EDGE_BOTTOM))
    {
      heatsim_error ("--bc periodic: the steady state and implicit "
                     "steps of a variable material take Dirichlet and "
                     "zero-flux edges only");
      return HEATSIM_USAGE;
    }
  /* The whole grid's edges of edge nodes are shut faces; the part's
     edges inside it are not.  */
  const struct domain *d = im->domain;
  const size_t nx = im->halo.nx, ny = im->halo.ny;
  if (!heat_operator_build (&im->op, m, im->dx, im->dy, im->edge_node)
      || (cfg->steady && m->source.data != NULL
          && !field_alloc (&im->steady_rhs, nx, ny)))
    {
      heatsim_error ("cannot allocate the operator of a %zu x %zu grid", nx,
                     ny);
      return HEATSIM_NO_MEMORY;
    }
  if (im->steady_rhs.data != NULL)
    memcpy (im->steady_rhs.data, im->op.source,
            field_cells (&im->steady_rhs) * sizeof (double));
  double c0 = 0.0, c1 = 1.0;
  if (!cfg->steady)
    {
      const double theta = scheme_theta (cfg->scheme);
      c0 = 1.0;
      c1 = theta * cfg->dt;
      im->step = cfg->dt;
      im->explicit_weight = (1.0 - theta) * cfg->dt;
    }
  switch (create_whole (im, c0, c1))
    {
    case MG_OK:
      return HEATSIM_OK;
    case MG_NO_MEMORY:
      heatsim_error ("cannot allocate the multigrid levels of a %zu x %zu "
                     "grid", d->nx, d->ny);
      return HEATSIM_NO_MEMORY;
    default:
      heatsim_error ("multigrid cannot take this material (dt %g, dx %g, "
                     "dy %g): a coefficient is not finite or positive",
                     cfg->dt, im->dx, im->dy);
      return HEATSIM_USAGE;
    }
}

int
implicit_init (struct implicit *im, const struct config *cfg,
               const struct stencil *s, const struct domain *d,
               const struct material *m, enum mg_placement placement,
               int device)
{
  *im = (struct implicit) {
    .options = mg_default_options (),
    .domain = d,
    .dx = config_dx (cfg), .dy = config_dy (cfg),
    .halo = *s,
    .conserves = cfg->bc[EDGE_LEFT].kind != BOUNDARY_DIRICHLET
                 && cfg->bc[EDGE_RIGHT].kind != BOUNDARY_DIRICHLET
                 && cfg->bc[EDGE_BOTTOM].kind != BOUNDARY_DIRICHLET
                 && cfg->bc[EDGE_TOP].kind != BOUNDARY_DIRICHLET,
    .volume = ((double) d->nx - 0.5 * (config_edge_node (cfg, EDGE_LEFT)
                                       + config_edge_node (cfg, EDGE_RIGHT)))
              * ((double) d->ny
                 - 0.5 * (config_edge_node (cfg, EDGE_BOTTOM)
                          + config_edge_node (cfg, EDGE_TOP))),
    .device_copy = placement == MG_RESIDENT,
  };
  domain_edge_nodes (d, cfg, im->edge_node);
  /* A hierarchy split over ranks runs on host threads (the black box
     one of a material solves the gathered grid on every rank: there
     too).  */
  const bool material = m != NULL && m->variable;
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
  const struct mg_boundary bc = mg_boundary_of (cfg->bc);
  switch (mg_create_part (&im->mg, d, &op, &bc))
    {
    case MG_OK:
      return HEATSIM_OK;
    case MG_NO_MEMORY:
      heatsim_error ("cannot allocate the multigrid levels of a %zu x %zu "
                     "grid", s->nx, s->ny);
      return HEATSIM_NO_MEMORY;
    default:
      heatsim_error ("multigrid cannot take this problem (alpha dt %g, "
                     "dx %g, dy %g)", op.c1, op.dx, op.dy);
      return HEATSIM_USAGE;
    }
}

void
implicit_free (struct implicit *im)
{
  mg_destroy (im->mg);
  im->mg = NULL;
  boxmg_destroy (im->boxmg);
  im->boxmg = NULL;
  heat_operator_free (&im->op);
  field_free (&im->steady_rhs);
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
  o.atol = target > 0.0 ? target : DBL_MIN;  /* 0: the round-off floor */
  return solve (im, u, im->steady_rhs.data != NULL ? &im->steady_rhs : NULL,
                &o, report);
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

/* rhs = rho c_p u + w L_k u + dt q over the interior (u's halo
   filled).  */
static void
material_rhs (const struct heat_operator *op, const struct field *u,
              double w, double dt, struct field *rhs)
{
  const size_t nx = u->nx, ny = u->ny, stride = u->stride;
  const double *restrict a = u->data;
  double *restrict b = rhs->data;
#pragma omp parallel for schedule(static)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = j * stride + i;
        b[k] = op->capacity[k] * a[k]
               + w * heat_flow_at (a + k, op->wx + k, op->wy + k,
                                   (ptrdiff_t) stride)
               + dt * op->source[k];
      }
}

/* A material's step: boxmg keeps the total heat itself where no edge
   is Dirichlet (boxmg_solve).  */
static enum mg_status
material_step (struct implicit *im, struct field *u, struct field *rhs,
               struct mg_report *report)
{
  material_rhs (&im->op, u, im->explicit_weight, im->step, rhs);
  field_copy (&im->previous, u);
  const enum mg_status status = solve (im, u, rhs, &im->options, report);
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
implicit_step (struct implicit *im, struct field *u, struct field *rhs,
               struct mg_report *report)
{
  fill_halo (&im->halo, im->domain, u);
  if (im->boxmg != NULL)
    return material_step (im, u, rhs, report);
  implicit_rhs (u, im->explicit_weight, im->dx, im->dy, rhs);
  const double heat
    = im->conserves
      ? domain_sum (im->domain, field_volume_sum (u, im->edge_node)) : 0.0;
  field_copy (&im->previous, u);
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
  struct mg_report report;
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
