/* The heat a run's edges, plate faces and sources bring to each node, as
   the implicit steps and the steady state of the operator (form (b) of
   DESIGN.md, "The general heat equation") take it: per unit full volume
   of a node at time t,
     heat[k] - sink[k] u[k],
   sink the coefficients of u (diagonal terms: H fy / dx on a left or
   right convection edge node, H fx / dy on a bottom or top one, and the
   face cooling s = 2 H / D times the volume fraction), heat the rest
   (fy (Q + H TINF) / dx on a flux or convection edge node, likewise
   across y, s TINF times the volume fraction, and the source, already
   times the volume fraction in the operator, times --source-schedule's
   factor).  fy (fx) is the node's volume fraction along the edge: 1/2
   at a corner of two edges whose nodes are unknowns.  The schedules are
   read at t; nothing else depends on it.  */
#ifndef HEATSIM_EDGE_TERMS_H
#define HEATSIM_EDGE_TERMS_H

#include <stdbool.h>

#include "field.h"
#include "multigrid.h"
#include "run_config.h"

struct domain;

struct edge_terms {
  struct field sink, heat;   /* of a part, padded like its fields */
};

/* The kinds of the run's edges, as the geometric multigrid takes them
   (its Dirichlet, flux and convection edges' values come in the
   right-hand side).  */
struct mg_boundary edge_terms_mg_boundary (const struct config *cfg);

/* Whether the run has terms the constant-coefficient multigrid cannot
   take, so that its implicit steps and steady state need the operator
   (the black box multigrid) even for a uniform material: a flux edge
   with a nonzero or scheduled Q, a convection edge, face cooling or a
   source schedule.  */
bool edge_terms_needed (const struct config *cfg);

/* Whether a uniform material's source is the geometric multigrid's
   right-hand side (q / k steady, dt q / (rho c_p) a step) rather than
   a term of the operator: the source is the material's only variable
   term (material_options.source_only) and an edge is held at a fixed
   temperature, so that no total heat need be kept.  At 1024^2 its
   steady state took a quarter of the black box multigrid's time.  */
bool edge_terms_geometric_source (const struct config *cfg);

/* Whether the run's steady state and implicit steps solve with the
   operator (the black box multigrid): a variable material but for
   edge_terms_geometric_source, edge_terms_needed, or
   edge_terms_slow_geometric where no edge is periodic.  */
bool edge_terms_operator (const struct config *cfg);

/* The same before the maps are read, as if every map were uniform, a
   source lay in range and implicit steps did not stall the geometric
   multigrid (alpha and dt are not known yet): false where the run may
   still take the geometric multigrid (footprint.c's least footprint).  */
bool edge_terms_operator_least (const struct config *cfg);

/* Whether the geometric multigrid of a uniform material would leave
   cells far from square on a level that cannot coarsen their short
   side's axis, and stall: a fin, whose short side's axis has insulated
   ends (or is periodic) and stops at two nodes while the long one
   coarsens on.  */
bool edge_terms_slow_geometric (const struct config *cfg);

/* Whether the run has a sink (a convection edge or face cooling): the
   temperature is then tied to ambient ones even without a Dirichlet
   edge.  */
bool edge_terms_sink (const struct config *cfg);

/* The heat transfer coefficients at time t: H of each edge (0 unless a
   convection edge) and, last, that of the faces (0 without face
   cooling).  They alone set the sink: equal values, equal sinks.  */
void edge_conductances_at (const struct config *cfg, double t,
                           double h[EDGE_COUNT + 1]);

/* Arrays for d's part.  False when memory is short.  */
bool edge_terms_alloc (struct edge_terms *et, const struct domain *d);
void edge_terms_free (struct edge_terms *et);

/* The terms of cfg on d's part at time t; source is the operator's
   (times the volume fraction, padded like the part), or NULL for none.  */
void edge_terms_at (struct edge_terms *et, const struct config *cfg,
                    const struct domain *d, const double *source, double t);

/* Set the halo line of every Dirichlet edge of the whole grid that d's
   part holds and whose temperature is a schedule to its value at t.  */
void edge_temperatures_at (const struct config *cfg, const struct domain *d,
                           struct field *u, double t);

#endif
