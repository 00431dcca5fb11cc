#include <config.h>

#include "heat_rates.h"

#include "domain.h"
#include "material.h"
#include "operator.h"
#include "run_config.h"

double
total_heat (const struct domain *d, const struct config *c,
            const struct material *m, const struct field *u)
{
  /* The uniform sum as it was before materials, so that a run without
     one reports the same bits.  */
  if (m->capacity.data == NULL)
    {
      bool edge_node[EDGE_COUNT];
      domain_edge_nodes (d, c, edge_node);
      return domain_sum (d, field_volume_sum (u, edge_node)) * config_dx (c)
             * config_dy (c) * m->capacity_uniform;
    }
  double heat = 0.0;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      {
        const size_t k = field_index (u, i, j);
        heat += config_volume_fraction (c, u->x0 + i, u->y0 + j)
                * m->capacity.data[k] * u->data[k];
      }
  return domain_sum (d, heat) * config_dx (c) * config_dy (c);
}

double
source_power (const struct domain *d, const struct config *c,
              const struct material *m, const struct field *u)
{
  double power = 0.0;
  if (m->source.data != NULL)
    for (size_t j = 1; j <= u->ny; ++j)
      for (size_t i = 1; i <= u->nx; ++i)
        power += config_volume_fraction (c, u->x0 + i, u->y0 + j)
                 * m->source.data[field_index (u, i, j)];
  return domain_sum (d, power) * config_dx (c) * config_dy (c);
}

/* Cell k (1 .. the edge's length) of the line at edge e: the interior
   node next to the boundary (offset 1) or the halo node beyond it
   (offset 0).  */
static size_t
line_cell (const struct field *u, enum edge e, size_t offset, size_t k)
{
  const bool vertical = e == EDGE_LEFT || e == EDGE_RIGHT;
  const size_t at = e == EDGE_LEFT || e == EDGE_BOTTOM ? offset
                    : (vertical ? u->nx : u->ny) + 1 - offset;
  return vertical ? field_index (u, at, k) : field_index (u, k, at);
}

static size_t
line_length (const struct field *u, enum edge e)
{
  return e == EDGE_LEFT || e == EDGE_RIGHT ? u->ny : u->nx;
}

/* Sum of u over the line at offset of edge e, on a rank that holds that
   edge of the whole grid; 0 elsewhere.  */
static double
line_sum (const struct domain *d, const struct field *u, enum edge e,
          size_t offset)
{
  if (!domain_holds_edge (d, e))
    return 0.0;
  double sum = 0.0;
  for (size_t k = 1; k <= line_length (u, e); ++k)
    sum += u->data[line_cell (u, e, offset, k)];
  return sum;
}

/* The same sum with each node weighted by the conductance of its edge
   face (west or south node first, as the operator takes it; the two
   edges of a periodic axis then weigh each row alike).  */
static double
line_flux_sum (const struct domain *d, const struct material *m,
               const struct field *u, enum edge e, size_t offset)
{
  if (!domain_holds_edge (d, e))
    return 0.0;
  const bool low = e == EDGE_LEFT || e == EDGE_BOTTOM;
  const double *k = m->conductivity.data;
  const double uniform = m->conductivity_uniform;
  double sum = 0.0;
  for (size_t n = 1; n <= line_length (u, e); ++n)
    {
      const size_t inner = line_cell (u, e, 1, n);
      const size_t halo = line_cell (u, e, 0, n);
      const double ki = k != NULL ? k[inner] : uniform;
      const double kh = k != NULL ? k[halo] : uniform;
      const double face = low ? heat_face_conductance (kh, ki)
                          : heat_face_conductance (ki, kh);
      sum += face * u->data[line_cell (u, e, offset, n)];
    }
  return sum;
}

void
heat_rates (const struct domain *d, const struct config *c,
            const struct material *m, const struct field *u,
            double rate[EDGE_COUNT])
{
  double inner[EDGE_COUNT], halo[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      inner[e] = m->variable ? line_flux_sum (d, m, u, (enum edge) e, 1)
                 : line_sum (d, u, (enum edge) e, 1);
      halo[e] = m->variable ? line_flux_sum (d, m, u, (enum edge) e, 0)
                : line_sum (d, u, (enum edge) e, 0);
    }
  domain_sum_ordered (d, inner, EDGE_COUNT);
  domain_sum_ordered (d, halo, EDGE_COUNT);
  const double dx = config_dx (c), dy = config_dy (c);
  /* A uniform material's faces all have conductance alpha rho c_p,
     taken out of the sums; a variable one's are in them.  */
  const double conductance = m->variable ? 1.0
                             : c->alpha * m->capacity_uniform;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      /* k (u_boundary - u_inner) / spacing, times the side each node
         stands for.  */
      const double weight = conductance * (e == EDGE_LEFT || e == EDGE_RIGHT
                                           ? dy / dx : dx / dy);
      /* An edge and its opposite differ in the lowest bit.  */
      const double beyond = c->bc[e].kind == BOUNDARY_PERIODIC
                            ? inner[e ^ 1] : halo[e];
      rate[e] = c->bc[e].kind == BOUNDARY_NEUMANN ? 0.0
                : weight * (beyond - inner[e]);
    }
}
