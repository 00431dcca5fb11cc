#include <config.h>

#include "heat_rates.h"

#include "domain.h"
#include "run_config.h"

/* Sum of u over the interior line at edge e (the nodes next to the
   boundary, offset 1) or over the halo line beyond it (offset 0), on a
   rank that holds that edge of the whole grid; 0 elsewhere.  */
static double
line_sum (const struct domain *d, const struct field *u, enum edge e,
          size_t offset)
{
  const bool holds = (e == EDGE_LEFT && u->x0 == 0)
                     || (e == EDGE_RIGHT && u->x0 + u->nx == d->nx)
                     || (e == EDGE_BOTTOM && u->y0 == 0)
                     || (e == EDGE_TOP && u->y0 + u->ny == d->ny);
  if (!holds)
    return 0.0;
  const bool vertical = e == EDGE_LEFT || e == EDGE_RIGHT;
  const size_t at = e == EDGE_LEFT || e == EDGE_BOTTOM ? offset
                    : (vertical ? u->nx : u->ny) + 1 - offset;
  const size_t n = vertical ? u->ny : u->nx;
  double sum = 0.0;
  for (size_t k = 1; k <= n; ++k)
    sum += vertical ? u->data[field_index (u, at, k)]
           : u->data[field_index (u, k, at)];
  return sum;
}

void
heat_rates (const struct domain *d, const struct config *c,
            const struct field *u, double rate[EDGE_COUNT])
{
  double inner[EDGE_COUNT], halo[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      inner[e] = line_sum (d, u, (enum edge) e, 1);
      halo[e] = line_sum (d, u, (enum edge) e, 0);
    }
  domain_sum_ordered (d, inner, EDGE_COUNT);
  domain_sum_ordered (d, halo, EDGE_COUNT);
  const double dx = config_dx (c), dy = config_dy (c);
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      /* alpha (u_boundary - u_inner) / spacing, times the side each
         node stands for.  */
      const double weight = c->alpha * (e == EDGE_LEFT || e == EDGE_RIGHT
                                        ? dy / dx : dx / dy);
      /* An edge and its opposite differ in the lowest bit.  */
      const double beyond = c->boundary == BOUNDARY_PERIODIC ? inner[e ^ 1]
                            : halo[e];
      rate[e] = c->boundary == BOUNDARY_NEUMANN ? 0.0
                : weight * (beyond - inner[e]);
    }
}
