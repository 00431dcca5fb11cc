#include <config.h>

#include "heat_rates.h"

#include <float.h>
#include <math.h>

#include "domain.h"
#include "material.h"
#include "operator.h"
#include "run_config.h"
#include "schedule.h"

/* This rank's sum of rho c_p u over its nodes, each weighed by its
   share of a box (the edge nodes' halves and quarters for a uniform
   material, config_volume_fraction for a map), with u times 2^-shift_u
   and a map's rho c_p times 2^-shift_c; of the terms' magnitudes where
   magnitude.  Unshifted (0, 0) it is the sum as it was before materials
   for a uniform one, so that a run without one reports the same bits;
   shifted, each term is the unshifted one times a power of two, rounded
   alike.  */
static double
local_heat (const struct config *c, const struct material *m,
            const struct field *u, const bool edge_node[EDGE_COUNT],
            int shift_u, int shift_c, bool magnitude)
{
  const double scale_u = ldexp (1.0, -shift_u);
  if (m->capacity.data == NULL)
    return field_volume_sum_scaled (u, edge_node, scale_u, magnitude);
  const double scale_c = ldexp (1.0, -shift_c);
  double heat = 0.0;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      {
        const size_t k = field_index (u, i, j);
        const double term = config_volume_fraction (c, u->x0 + i, u->y0 + j)
                            * (m->capacity.data[k] * scale_c)
                            * (u->data[k] * scale_u);
        heat += magnitude ? fabs (term) : term;
      }
  return heat;
}

/* The exponent that brings a positive finite v below 1 when taken from
   it, so that a sum of n such terms cannot overflow; 0 for anything
   else (no scaling).  */
static int
shift_below_one (double v)
{
  return v > 0.0 && isfinite (v) ? ilogb (v) + 1 : 0;
}

/* sum 2^shift dx dy capacity, rounded as ((sum dx) dy) capacity is,
   but with no overflow or underflow in between: each factor's mantissa
   (in [1/2, 1)) multiplied in that order, so that every product lies in
   [1/16, 1) and rounds as the plain one does, their exponents added,
   and one ldexp, which is exact or infinite, the latter only where the
   result itself exceeds DBL_MAX.  */
static double
scale_back (double sum, int shift, double dx, double dy, double capacity)
{
  int e_sum, e_dx, e_dy, e_capacity;
  const double m_sum = frexp (sum, &e_sum);
  const double m_dx = frexp (dx, &e_dx);
  const double m_dy = frexp (dy, &e_dy);
  const double m_capacity = frexp (capacity, &e_capacity);
  return ldexp (m_sum * m_dx * m_dy * m_capacity,
                shift + e_sum + e_dx + e_dy + e_capacity);
}

/* total_heat, or total_heat_magnitude where magnitude.  */
static double
heat_sum (const struct domain *d, const struct config *c,
          const struct material *m, const struct field *u, bool magnitude)
{
  bool edge_node[EDGE_COUNT];
  domain_edge_nodes (d, c, edge_node);
  const double capacity = m->capacity.data == NULL ? m->capacity_uniform
                          : 1.0;
  const double heat = domain_sum (d, local_heat (c, m, u, edge_node, 0, 0,
                                                 magnitude))
                      * config_dx (c) * config_dy (c) * capacity;
  if (isfinite (heat))
    return heat;
  /* Infinite or NaN: a node's own infinity or NaN, or a sum of finite
     terms that left the range of double on the way (a field near 1e307
     summed over its nodes before dx dy brings it back).  Sum again with
     u, and a map's rho c_p, scaled by powers of two to below 1, which
     rounds as the plain sum would with exponents unbounded, and
     multiply back without overflow in between: infinite only where the
     total heat itself exceeds DBL_MAX.  Every rank takes this branch
     or none: the sum above is the same on all.  */
  const double largest_u = domain_max (d, field_largest (u));
  const double largest_c = m->capacity.data == NULL ? 0.0
                           : domain_max (d, field_largest (&m->capacity));
  if (!isfinite (largest_u) || !isfinite (largest_c))
    return heat;
  const int shift_u = shift_below_one (largest_u);
  const int shift_c = m->capacity.data == NULL ? 0
                      : shift_below_one (largest_c);
  return scale_back (domain_sum (d, local_heat (c, m, u, edge_node, shift_u,
                                                shift_c, magnitude)),
                     shift_u + shift_c, config_dx (c), config_dy (c),
                     capacity);
}

double
total_heat (const struct domain *d, const struct config *c,
            const struct material *m, const struct field *u)
{
  return heat_sum (d, c, m, u, false);
}

double
total_heat_magnitude (const struct domain *d, const struct config *c,
                      const struct material *m, const struct field *u)
{
  return heat_sum (d, c, m, u, true);
}

/* This rank's sum of q over its nodes, each weighed by its share of a
   box, with q times scale (a power of two); of |q| where magnitude.  */
static double
local_power (const struct config *c, const struct material *m,
             const struct field *u, double scale, bool magnitude)
{
  double power = 0.0;
  if (m->source.data != NULL)
    for (size_t j = 1; j <= u->ny; ++j)
      for (size_t i = 1; i <= u->nx; ++i)
        {
          const double q = m->source.data[field_index (u, i, j)] * scale;
          power += config_volume_fraction (c, u->x0 + i, u->y0 + j)
                   * (magnitude ? fabs (q) : q);
        }
  return power;
}

double
source_power (const struct domain *d, const struct config *c,
              const struct material *m, const struct field *u)
{
  const double power = domain_sum (d, local_power (c, m, u, 1.0, false))
                       * config_dx (c) * config_dy (c);
  if (isfinite (power) || m->source.data == NULL)
    return power;
  /* A sum of finite sources that left the range of double before dx dy
     brought it back (q near 1e308): again with q scaled below 1, as
     heat_sum does; infinite only where the power exceeds DBL_MAX.  */
  const double largest = domain_max (d, field_largest (&m->source));
  if (!isfinite (largest))
    return power;
  const int shift = shift_below_one (largest);
  return scale_back (domain_sum (d, local_power (c, m, u,
                                                 ldexp (1.0, -shift), false)),
                     shift, config_dx (c), config_dy (c), 1.0);
}

static bool
vertical (enum edge e)
{
  return e == EDGE_LEFT || e == EDGE_RIGHT;
}

/* The length node k (1 .. the edge's length on this part) of edge e
   stands for: the spacing along the edge, times the node's fraction
   there.  */
static double
node_length (const struct config *c, const struct field *u, enum edge e,
             size_t k)
{
  return vertical (e)
         ? config_dy (c) * axis_fraction (u->y0 + k, c->ny,
                                          c->bc[EDGE_BOTTOM].kind,
                                          c->bc[EDGE_TOP].kind)
         : config_dx (c) * axis_fraction (u->x0 + k, c->nx,
                                          c->bc[EDGE_LEFT].kind,
                                          c->bc[EDGE_RIGHT].kind);
}

/* Cell k (1 .. the edge's length) of the line at edge e: the first line
   of the part (offset 1) or the halo line beyond it (offset 0).  */
static size_t
line_cell (const struct field *u, enum edge e, size_t offset, size_t k)
{
  const size_t at = e == EDGE_LEFT || e == EDGE_BOTTOM ? offset
                    : (vertical (e) ? u->nx : u->ny) + 1 - offset;
  return vertical (e) ? field_index (u, at, k) : field_index (u, k, at);
}

static size_t
line_length (const struct field *u, enum edge e)
{
  return vertical (e) ? u->ny : u->nx;
}

/* The conductance of the face between the first line's node k and the
   halo node beyond it: the harmonic mean of their k, west or south node
   first as the operator takes it (so the two edges of a periodic axis
   weigh each row alike); alpha rho c_p for a uniform material.  */
static double
face_conductance (const struct config *c, const struct material *m,
                  const struct field *u, enum edge e, size_t k)
{
  if (!m->variable)
    return c->alpha * m->capacity_uniform;
  const double *cond = m->conductivity.data;
  const double inner = cond[line_cell (u, e, 1, k)];
  const double halo = cond[line_cell (u, e, 0, k)];
  return e == EDGE_LEFT || e == EDGE_BOTTOM
         ? heat_face_conductance (halo, inner)
         : heat_face_conductance (inner, halo);
}

/* The spacing across edge e.  */
static double
normal_spacing (const struct config *c, enum edge e)
{
  return vertical (e) ? config_dx (c) : config_dy (c);
}

/* A sum of flows and the sum of their magnitudes, taken in one pass.  */
struct flows {
  double net, gross;
};

static void
add_flow (struct flows *f, double flow)
{
  f->net += flow;
  f->gross += fabs (flow);
}

/* This part's share of the rate into the domain through edge e at time
   t, e not periodic: the flows through the faces of a fixed edge (its
   temperature from the option's schedule where given, else the problem's
   own in the halo), Q times the nodes' lengths for a flux, and H (TINF -
   u) times them for convection; and of their magnitudes.  */
static struct flows
edge_share (const struct domain *d, const struct config *c,
            const struct material *m, const struct field *u, enum edge e,
            double t)
{
  const struct edge_condition *bc = &c->bc[e];
  struct flows sum = { 0.0, 0.0 };
  if (!domain_holds_edge (d, e))
    return sum;
  switch (bc->kind)
    {
    case BOUNDARY_DIRICHLET:
      {
        const double given = schedule_at (&bc->value, t);
        for (size_t k = 1; k <= line_length (u, e); ++k)
          {
            const double edge = bc->given ? given
                                : u->data[line_cell (u, e, 0, k)];
            add_flow (&sum, face_conductance (c, m, u, e, k)
                            * node_length (c, u, e, k)
                            * (edge - u->data[line_cell (u, e, 1, k)]));
          }
        const double h = normal_spacing (c, e);
        return (struct flows) { sum.net / h, sum.gross / h };
      }
    case BOUNDARY_NEUMANN:
      {
        double length = 0.0;
        for (size_t k = 1; k <= line_length (u, e); ++k)
          length += node_length (c, u, e, k);
        const double q = schedule_at (&bc->value, t);
        return (struct flows) { q * length, fabs (q) * length };
      }
    case BOUNDARY_ROBIN:
      {
        const double ambient = schedule_at (&bc->ambient, t);
        for (size_t k = 1; k <= line_length (u, e); ++k)
          add_flow (&sum, node_length (c, u, e, k)
                          * (ambient - u->data[line_cell (u, e, 1, k)]));
        const double h = schedule_at (&bc->h, t);
        return (struct flows) { h * sum.net, fabs (h) * sum.gross };
      }
    default:
      return sum;
    }
}

/* On a periodic edge e, this part's sum over the first line of k_f u
   times each node's length; the flow across the seam is the difference
   of the two edges' sums over the spacing.  */
static double
seam_share (const struct domain *d, const struct config *c,
            const struct material *m, const struct field *u, enum edge e)
{
  if (!config_periodic (c, e) || !domain_holds_edge (d, e))
    return 0.0;
  double sum = 0.0;
  for (size_t k = 1; k <= line_length (u, e); ++k)
    sum += face_conductance (c, m, u, e, k) * node_length (c, u, e, k)
           * u->data[line_cell (u, e, 1, k)];
  return sum;
}

/* This part's share of the heat lost through the faces of a cooled
   plate at time t: 2 H / D (u - TINF) V over its nodes; and of their
   magnitudes.  */
static struct flows
face_cooling_share (const struct config *c, const struct field *u, double t)
{
  struct flows sum = { 0.0, 0.0 };
  if (!c->surface_given)
    return sum;
  const double ambient = schedule_at (&c->surface_ambient, t);
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      add_flow (&sum, config_volume_fraction (c, u->x0 + i, u->y0 + j)
                      * (u->data[field_index (u, i, j)] - ambient));
  const double h = schedule_at (&c->surface_h, t);
  return (struct flows) {
    2.0 * h / c->thickness * sum.net * config_dx (c) * config_dy (c),
    2.0 * fabs (h) / c->thickness * sum.gross * config_dx (c) * config_dy (c)
  };
}

void
heat_budget (const struct domain *d, const struct config *c,
             const struct material *m, const struct field *u, double t,
             struct heat_budget *b)
{
  /* The edges' shares, the periodic edges' seam sums, the face
     cooling, and the magnitudes of the edges' flows, the cooling's and
     the sources' (for b->scale), summed over the ranks at once.  */
  enum { SEAMS = EDGE_COUNT, COOLING = 2 * EDGE_COUNT, GROSS,
         SHARES = GROSS + EDGE_COUNT + 2 };
  double share[SHARES];
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct flows edge = edge_share (d, c, m, u, (enum edge) e, t);
      share[e] = edge.net;
      share[SEAMS + e] = seam_share (d, c, m, u, (enum edge) e);
      share[GROSS + e] = edge.gross;
    }
  const struct flows cooling = face_cooling_share (c, u, t);
  share[COOLING] = cooling.net;
  share[GROSS + EDGE_COUNT] = cooling.gross;
  share[GROSS + EDGE_COUNT + 1] = local_power (c, m, u, 1.0, true);
  domain_sum_ordered (d, share, SHARES);
  for (int e = 0; e < EDGE_COUNT; ++e)
    /* An edge and its opposite differ in the lowest bit.  */
    b->rate[e] = config_periodic (c, (enum edge) e)
                 ? (share[EDGE_COUNT + (e ^ 1)] - share[EDGE_COUNT + e])
                   / normal_spacing (c, (enum edge) e)
                 : share[e];
  b->face_cooling = share[COOLING];
  b->source = source_power (d, c, m, u) * schedule_at (&c->source_schedule, t);
  b->stored = NAN;
  /* A periodic edge's seam sums are of u, not of flows: none.  A sum
     beyond double (sources near 1e308) counts as none.  */
  share[GROSS + EDGE_COUNT + 1] *= config_dx (c) * config_dy (c)
                                   * fabs (schedule_at (&c->source_schedule,
                                                        t));
  b->scale = 0.0;
  for (int k = GROSS; k < SHARES; ++k)
    if (isfinite (share[k]))
      b->scale = fmax (b->scale, share[k]);
}

double
heat_budget_net (const struct heat_budget *b)
{
  double net = 0.0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    net += b->rate[e];
  return net;
}

double
heat_budget_balance (const struct heat_budget *b)
{
  return heat_budget_net (b) + b->source - b->face_cooling;
}

double
heat_budget_imbalance (const struct heat_budget *b)
{
  return heat_budget_balance (b) - b->stored;
}

double
heat_rounding_rate (double magnitude, size_t nodes, double dt)
{
  return dt > 0.0 ? 2.0 * sqrt ((double) nodes) * DBL_EPSILON
                    * fabs (magnitude) / dt
         : 0.0;
}

double
heat_budget_relative (const struct heat_budget *b, double rounding)
{
  double scale = fmax (fabs (b->source), fabs (b->face_cooling));
  for (int e = 0; e < EDGE_COUNT; ++e)
    scale = fmax (scale, fabs (b->rate[e]));
  scale = fmax (scale, fabs (b->stored));
  scale = fmax (scale, b->scale);
  scale = fmax (scale, rounding);
  const double imbalance = fabs (heat_budget_imbalance (b));
  if (imbalance <= rounding)
    return 0.0;
  return scale > 0.0 ? imbalance / scale : imbalance;
}
