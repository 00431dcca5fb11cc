/* The heat balance of the domain: the total heat, sum of rho c_p u V
   over the interior nodes (V = dx dy times the node's share of a full
   box, config_volume_fraction: per unit depth; J per metre of depth in
   SI), and the heat rates through the four edges: what flows in
   through each (positive into the domain), in the units of the total
   heat per unit of time.  An explicit step changes the total heat by dt
   times the rates' sum plus the sources' power exactly (to rounding),
   and at a steady state their sum plus the sources' power is zero to
   the solver's tolerance.  */
#ifndef HEATSIM_HEAT_RATES_H
#define HEATSIM_HEAT_RATES_H

#include "field.h"

struct config;
struct domain;
struct material;

/* The total heat of this rank's part u of the field with material m,
   over all ranks.  Collective.  */
double total_heat (const struct domain *d, const struct config *c,
                   const struct material *m, const struct field *u);

/* The power of the heat sources, sum of q V over the interior nodes (V
   as above; W per metre of depth in SI; 0 without sources), over all
   ranks.
   With the edges' rates it closes the heat balance: at a steady state
   their sum is zero to the solver's tolerance.  Collective.  */
double source_power (const struct domain *d, const struct config *c,
                     const struct material *m, const struct field *u);

/* rate[e] for each edge of the whole domain, from this rank's part u of
   the field (current on the host, fixed edges in its halo) and its
   material m.  The flux between an edge's boundary node and the adjacent
   interior node through their face (operator.h: the harmonic mean of
   their conductivities, alpha rho c_p for a uniform material) times the
   difference over the spacing, times the length each interior node
   stands for: the terms the step takes across the edge.  Zero-flux
   edges carry none; a periodic edge's neighbour is the opposite interior
   line.  Collective.  */
void heat_rates (const struct domain *d, const struct config *c,
                 const struct material *m, const struct field *u,
                 double rate[EDGE_COUNT]);

#endif
