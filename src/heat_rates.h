/* The heat rates through the four edges of the domain: what flows in
   through each (positive into the domain), per unit depth, in the units
   of the report's total heat per unit of time.  The explicit step changes
   the total heat by dt times their sum exactly, and at a steady state
   their sum is zero to the solver's tolerance: the heat balance.  */
#ifndef HEATSIM_HEAT_RATES_H
#define HEATSIM_HEAT_RATES_H

#include "field.h"

struct config;
struct domain;

/* rate[e] for each edge of the whole domain, from this rank's part u of
   the field (current on the host, fixed edges in its halo).  The flux
   between an edge's boundary node and the adjacent interior node, alpha
   times the difference over the spacing, times the length each interior
   node stands for: the terms the 5-point stencil takes across the edge.
   Zero-flux edges carry none; a periodic edge's neighbour is the
   opposite interior line.  Collective.  */
void heat_rates (const struct domain *d, const struct config *c,
                 const struct field *u, double rate[EDGE_COUNT]);

#endif
