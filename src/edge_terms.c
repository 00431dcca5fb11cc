#include <config.h>

#include "edge_terms.h"

#include <math.h>

#include "domain.h"
#include "multigrid.h"
#include "schedule.h"

bool
edge_terms_sink (const struct config *cfg)
{
  bool sink = cfg->surface_given;
  for (int e = 0; e < EDGE_COUNT; ++e)
    sink |= cfg->bc[e].kind == BOUNDARY_ROBIN;
  return sink;
}

bool
edge_terms_needed (const struct config *cfg)
{
  bool needed = edge_terms_sink (cfg) || cfg->source_schedule.path != NULL;
  for (int e = 0; e < EDGE_COUNT; ++e)
    needed |= cfg->bc[e].kind == BOUNDARY_NEUMANN
              && (cfg->bc[e].value.path != NULL
                  || cfg->bc[e].value.value != 0.0);
  return needed;
}

/* The aspect ratio of cells that the geometric multigrid of a uniform
   material may leave to its point smoother on a level that cannot
   coarsen their short side's axis (mg_blocked_aspect) and still
   converge in about 25 V-cycles.  A fin (fixed ends, insulated faces)
   of 1000 x 1000 cells: aspect 9.5 and 12.2 on such a level, 8 and 12
   V-cycles; 300 x 10 cells: 7.1: 9, 14.2: 22, 23.7: 48, 71: 323 (its
   implicit steps never converged); 3000 x 40: 62: 171.  A fin only 2-5
   nodes across stalls sooner (its finest levels are such levels):
   aspect 4-5: 8-11, 6-8: 11-26, 10-13: 24-65, 15-20: 40-143 (100 to
   1000 nodes long), where the black box multigrid costs next to
   nothing: small grids take it from aspect 4.  A ring across
   (periodic faces) stalls sooner still: 2.6: 11, 5.3: 27, 10.5: 71.  */
#define GEOMETRIC_ASPECT_MAX 16.0
#define GEOMETRIC_ASPECT_SMALL 4.0
#define SMALL_GRID_NODES 131072.0

/* Whether an implicit step's capacity term holds the short side's
   nodes together less than their conduction: alpha dt over the short
   side squared above 1 (a steady state has none).  Below, the term
   dominates the levels whose short side has run out of nodes, and the
   V-cycles do not stall (a fin of 4000 x 400 cells, 1 x 1e-3, at alpha
   dt 1e-7: 9 a step).  */
static bool
conduction_dominates (const struct config *cfg)
{
  const double side = fmin (cfg->lx, cfg->ly);
  return cfg->steady || config_diffusivity_max (cfg) * cfg->dt > side * side;
}

struct mg_boundary
edge_terms_mg_boundary (const struct config *cfg)
{
  struct mg_boundary b;
  for (int e = 0; e < EDGE_COUNT; ++e)
    b.kind[e] = cfg->bc[e].kind;
  return b;
}

bool
edge_terms_slow_geometric (const struct config *cfg)
{
  if (!config_uses_multigrid (cfg) || !conduction_dominates (cfg))
    return false;
  const struct mg_boundary bc = edge_terms_mg_boundary (cfg);
  const double aspect = mg_blocked_aspect (cfg->nx, cfg->ny, config_dx (cfg),
                                           config_dy (cfg), &bc);
  const double nodes = (double) cfg->nx * (double) cfg->ny;
  return aspect > GEOMETRIC_ASPECT_MAX
         || (aspect > GEOMETRIC_ASPECT_SMALL && nodes <= SMALL_GRID_NODES);
}

/* A ring keeps the geometric multigrid: the black box one relaxes by
   points along a periodic axis too, and took more iterations (a ring
   of 300 x 100 cells, 1 x 1e-2: 72 against 26).  */
static bool
stalls_geometric (const struct config *cfg)
{
  return !config_periodic (cfg, EDGE_LEFT)
         && !config_periodic (cfg, EDGE_BOTTOM)
         && edge_terms_slow_geometric (cfg);
}

/* Whether a magnitude lies well inside double's normal range.  */
static bool
normal_magnitude (double v)
{
  return v >= 1e-280 && v <= 1e280;
}

/* Whether the geometric multigrid's right-hand side of the source and
   the temperatures it makes lie well inside double's normal range: the
   largest q / k, and it times each side squared (the field's scale in
   the steady state, which long implicit steps approach); q / (rho c_p)
   and dt times it for implicit steps.  Beyond, q / k of 1e-324 was 0
   (a field of zeros), subnormal ones stalled, and dt q / (rho c_p) of
   1e310 overflowed: the black box multigrid scales its field and
   refuses what it cannot take, naming it.  */
static bool
source_in_range (const struct config *cfg)
{
  const struct material_options *m = &cfg->material;
  const double per_k = m->source_per_k;
  if (!normal_magnitude (per_k)
      || !normal_magnitude (per_k * cfg->lx * cfg->lx)
      || !normal_magnitude (per_k * cfg->ly * cfg->ly))
    return false;
  /* q / (rho c_p) first, then dt: a subnormal quotient has lost its
     bits before dt could bring it back (20 % at 1e-316 and dt 1e60).  */
  return cfg->steady || (normal_magnitude (m->source_per_capacity)
                         && normal_magnitude (m->source_per_capacity
                                              * cfg->dt));
}

bool
edge_terms_geometric_source (const struct config *cfg)
{
  return cfg->material.source_only && source_in_range (cfg)
         && config_fixed_edge (cfg);
}

/* edge_terms_operator of a material that varies or not (variable),
   whose source the geometric multigrid takes or not (geometric), and
   whose geometric multigrid would stall or not (stalls).  */
static bool
operator_for (const struct config *cfg, bool variable, bool geometric,
              bool stalls)
{
  return (variable && !geometric) || edge_terms_needed (cfg) || stalls;
}

bool
edge_terms_operator (const struct config *cfg)
{
  return operator_for (cfg, cfg->material.variable,
                       edge_terms_geometric_source (cfg),
                       stalls_geometric (cfg));
}

bool
edge_terms_operator_least (const struct config *cfg)
{
  const bool variable = config_varies_before_maps (cfg);
  /* A step's stall depends on alpha and dt, which the maps and
     derive.c set later: counted for a steady run only.  */
  return operator_for (cfg, variable,
                       variable && !config_step_terms (cfg)
                       && config_fixed_edge (cfg),
                       cfg->steady && stalls_geometric (cfg));
}

void
edge_conductances_at (const struct config *cfg, double t,
                      double h[EDGE_COUNT + 1])
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    h[e] = cfg->bc[e].kind == BOUNDARY_ROBIN
           ? schedule_at (&cfg->bc[e].h, t) : 0.0;
  h[EDGE_COUNT] = cfg->surface_given ? schedule_at (&cfg->surface_h, t)
                  : 0.0;
}

bool
edge_terms_alloc (struct edge_terms *et, const struct domain *d)
{
  *et = (struct edge_terms) { 0 };
  if (field_alloc (&et->sink, d->local_nx, d->local_ny)
      && field_alloc (&et->heat, d->local_nx, d->local_ny))
    return true;
  edge_terms_free (et);
  return false;
}

void
edge_terms_free (struct edge_terms *et)
{
  field_free (&et->sink);
  field_free (&et->heat);
}

/* Edge e's heat per unit full volume of a node whose fraction along
   the edge is 1: (Q + H TINF) / spacing into heat, H / spacing into
   sink.  */
static void
edge_rates (const struct config *cfg, enum edge e, double t, double *heat,
            double *sink)
{
  const struct edge_condition *bc = &cfg->bc[e];
  const double spacing = e == EDGE_LEFT || e == EDGE_RIGHT
                         ? config_dx (cfg) : config_dy (cfg);
  double q = 0.0, h = 0.0;
  if (bc->kind == BOUNDARY_NEUMANN)
    q = schedule_at (&bc->value, t);
  else if (bc->kind == BOUNDARY_ROBIN)
    {
      h = schedule_at (&bc->h, t);
      q = h * schedule_at (&bc->ambient, t);
    }
  *heat = q / spacing;
  *sink = h / spacing;
}

/* Add edge e's terms to its line of nodes in d's part, if it holds the
   edge and the edge's nodes are unknowns.  */
static void
add_edge (struct edge_terms *et, const struct config *cfg,
          const struct domain *d, enum edge e, double t)
{
  if (!config_edge_node (cfg, e) || !domain_holds_edge (d, e)
      || (cfg->bc[e].kind != BOUNDARY_NEUMANN
          && cfg->bc[e].kind != BOUNDARY_ROBIN))
    return;
  double heat, sink;
  edge_rates (cfg, e, t, &heat, &sink);
  const struct field *f = &et->heat;
  const bool vertical = e == EDGE_LEFT || e == EDGE_RIGHT;
  const size_t count = vertical ? f->ny : f->nx;
  const size_t line = e == EDGE_LEFT || e == EDGE_BOTTOM ? 1
                      : vertical ? f->nx : f->ny;
  for (size_t a = 1; a <= count; ++a)
    {
      const size_t k = vertical ? field_index (f, line, a)
                       : field_index (f, a, line);
      const double along = vertical
                           ? axis_fraction (d->y0 + a, d->ny,
                                            cfg->bc[EDGE_BOTTOM].kind,
                                            cfg->bc[EDGE_TOP].kind)
                           : axis_fraction (d->x0 + a, d->nx,
                                            cfg->bc[EDGE_LEFT].kind,
                                            cfg->bc[EDGE_RIGHT].kind);
      et->heat.data[k] += along * heat;
      et->sink.data[k] += along * sink;
    }
}

void
edge_terms_at (struct edge_terms *et, const struct config *cfg,
               const struct domain *d, const double *source, double t)
{
  const size_t nx = et->heat.nx, ny = et->heat.ny;
  const double factor = schedule_at (&cfg->source_schedule, t);
  double s = 0.0, ambient = 0.0;
  if (cfg->surface_given)
    {
      s = 2.0 * schedule_at (&cfg->surface_h, t) / cfg->thickness;
      ambient = schedule_at (&cfg->surface_ambient, t);
    }
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t k = field_index (&et->heat, i, j);
        const double fraction = config_volume_fraction (cfg, d->x0 + i,
                                                        d->y0 + j);
        et->sink.data[k] = s * fraction;
        et->heat.data[k] = (source != NULL ? source[k] * factor : 0.0)
                           + s * fraction * ambient;
      }
  for (int e = 0; e < EDGE_COUNT; ++e)
    add_edge (et, cfg, d, (enum edge) e, t);
}

void
edge_temperatures_at (const struct config *cfg, const struct domain *d,
                      struct field *u, double t)
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition *bc = &cfg->bc[e];
      if (bc->kind != BOUNDARY_DIRICHLET || bc->value.path == NULL
          || !domain_holds_edge (d, (enum edge) e))
        continue;
      const double value = schedule_at (&bc->value, t);
      const bool vertical = e == EDGE_LEFT || e == EDGE_RIGHT;
      const size_t count = vertical ? u->ny : u->nx;
      const size_t line = e == EDGE_LEFT || e == EDGE_BOTTOM ? 0
                          : vertical ? u->nx + 1 : u->ny + 1;
      for (size_t a = 1; a <= count; ++a)
        u->data[vertical ? field_index (u, line, a)
                : field_index (u, a, line)] = value;
    }
}
