/* The heat balance of the domain: the total heat, sum of rho c_p u V
   over the interior nodes (V = dx dy times the node's share of a full
   box, config_volume_fraction: per unit depth; J per metre of depth in
   SI), and what changes it: the heat
   rates through the four edges (positive into the domain), the power of
   the heat sources and the heat lost through the faces of a cooled
   plate, in the units of the total heat per unit of time (W per metre of
   depth in SI).  An explicit step changes the total heat by dt times
   their balance exactly (to rounding), and at a steady state the
   balance is zero to the solver's tolerance.  */
#ifndef HEATSIM_HEAT_RATES_H
#define HEATSIM_HEAT_RATES_H

#include "field.h"

struct config;
struct domain;
struct material;

/* The total heat of this rank's part u of the field with material m,
   over all ranks.  Finite wherever the total is, though the sum of the
   nodes' terms, before dx dy, leaves the range of double (a field near
   1e307): it is summed again scaled by a power of two, with the bits
   the plain sum would have with exponents unbounded; other fields keep
   the plain sum's bits.  Infinite where the total exceeds DBL_MAX, NaN
   or infinite where a node is.  Collective.  */
double total_heat (const struct domain *d, const struct config *c,
                   const struct material *m, const struct field *u);

/* The sum of the magnitudes of total_heat's terms, |rho c_p u V|, over
   all ranks: what the rounding of the total is relative to.  It is the
   total heat's magnitude for a field of one sign, and far more where
   the signs mix (degrees Celsius about 0: a total near 0 of terms that
   are not).  Collective.  */
double total_heat_magnitude (const struct domain *d, const struct config *c,
                             const struct material *m, const struct field *u);

/* The power of the heat sources at full strength, sum of q V over the
   interior nodes (V as above; W per metre of depth in SI; 0 without
   sources), over all
   ranks; heat_budget multiplies it by --source-schedule's factor.
   Collective.  */
double source_power (const struct domain *d, const struct config *c,
                     const struct material *m, const struct field *u);

/* What changes the total heat, for one field at one time.  */
struct heat_budget {
  double rate[EDGE_COUNT]; /* into the domain through each edge of the
                              whole grid */
  double source;           /* the sources' power, --source-schedule's
                              factor included */
  double face_cooling;     /* lost through the faces of a cooled plate
                              (--surface-convection; 0 without) */
  double stored;           /* rate of change of the total heat over the
                              last step (0 at a steady state, NaN where
                              unknown): set by the caller */
  double scale;            /* the largest sum of a term's magnitudes,
                              node by node: an edge's flows, the face
                              cooling's, the sources' (a term whose
                              parts change sign can net to rounding) */
};

/* The budget of this rank's part u of the field (current on the host,
   the problem's own fixed edges in its halo) with material m at time t
   (the conditions' schedules are taken there), stored NaN.  Collective:
   every rank gets the same numbers, summed along each edge in a fixed
   order.

   Per edge: a fixed temperature's rate is the flow through the faces
   between the edge's boundary nodes and the first line inside, k_f
   (u_edge - u_next) / spacing times the length of each face (the
   harmonic mean of the two nodes' k, alpha rho c_p for a uniform
   material); a heat flux's, Q times the edge length its nodes stand
   for; a convection edge's, the sum over its nodes of H (TINF - u) times
   each node's length; a periodic edge's, the flow across the seam from
   the opposite edge.  A node's length along an edge is the spacing,
   half of it at a corner with another edge whose node is an unknown.  */
void heat_budget (const struct domain *d, const struct config *c,
                  const struct material *m, const struct field *u, double t,
                  struct heat_budget *b);

/* The sum of the edge rates, in edge order.  */
double heat_budget_net (const struct heat_budget *b);

/* net + source - face cooling: the rate of change of the total heat the
   boundary and the sources give; 0 at a steady state.  */
double heat_budget_balance (const struct heat_budget *b);

/* balance - stored: how far the heat balance is from closing.  */
double heat_budget_imbalance (const struct heat_budget *b);

/* The rate of change of the total heat that rounding alone can show
   in a step: the stored rate is the difference of two totals of the
   nodes' heat over dt, and a total, a sum over the nodes of terms whose
   magnitudes add up to magnitude (total_heat_magnitude), is known to
   sqrt(nodes) DBL_EPSILON magnitude (the typical error of a sum of
   that many terms), twice for the difference.  Not the total's own
   magnitude: a field of both signs can total near 0 while its terms,
   and their rounding, do not.  0 at a steady state (dt 0), whose stored
   rate is exactly 0.  */
double heat_rounding_rate (double magnitude, size_t nodes, double dt);

/* |imbalance| relative to the largest magnitude of the budget's terms
   (the edge rates, source, face cooling, stored, each of the first three
   as the sum of its parts' magnitudes) and of rounding, the
   stored rate's rounding (heat_rounding_rate); 0 where the imbalance
   is no larger than that rounding, so that a budget whose every term
   is round-off (insulated edges, no source) reads 0, not 1.  */
double heat_budget_relative (const struct heat_budget *b, double rounding);

#endif
