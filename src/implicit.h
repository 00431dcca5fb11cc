/* The multigrid side of a run: the steady state (Laplace's equation,
   A = -L) and implicit time steps (A = I - theta alpha dt L), with
   heatsim's boundary kinds given to multigrid as its edge kinds.  The
   field is current on the host before each solve (strategy fetch), and
   after it both on the host and where the strategy keeps it.  The
   right-hand side and the heat shift are host loops.

   With a variable material (material.h), or terms the constant-
   coefficient multigrid cannot take (edge_terms_needed: a heat flux,
   convection, face cooling, a source schedule), the operator is
   operator.h's with the edge terms of edge_terms.h,
   A = c0 rho c_p + c1 (sink - L_k) (the steady state
   (sink - L_k) u = heat, implicit steps
   (rho c_p + theta dt (sink' - L_k)) u' = rho c_p u
     + (1 - theta) dt ((L_k - sink) u + heat) + theta dt heat',
   primes at the step's end, the others at its start), solved by the
   black box multigrid (boxmg.h) where the placement says.  A heat
   transfer coefficient that changes in time changes the hierarchy: it
   is set up again for each step where it has changed.  Dirichlet edges
   whose temperature is a schedule have their halo lines set at the
   time each half reads them.  Edges that are not Dirichlet are
   insulated faces with their heat as an edge term; periodic edges are
   refused.  A steady state with no Dirichlet edge, convection or face
   cooling is singular: refused unless its heat balances, else solved
   with the initial total heat kept.  On several MPI ranks each solve,
   for now, gathers the field and the right-hand side on every rank,
   solves the whole grid there alike and keeps its own part: bitwise
   the field of one rank, at the cost of a whole grid per rank.  */
#ifndef HEATSIM_IMPLICIT_H
#define HEATSIM_IMPLICIT_H

#include <stdbool.h>
#include <stddef.h>

#include "edge_terms.h"
#include "field.h"
#include "kernels.h"
#include "multigrid.h"
#include "operator.h"
#include "run_config.h"

struct domain;
struct material;
struct boxmg_solver;

struct implicit {
  struct mg_solver *mg;         /* constant coefficients, else NULL */
  struct boxmg_solver *boxmg;   /* the operator's, else NULL: the
                                   whole grid's hierarchy */
  struct heat_operator op;      /* its operator on this rank's part */
  struct edge_terms terms;      /* and its edge terms, at the time last
                                   asked for */
  double built_h[EDGE_COUNT + 1];   /* the heat transfer coefficients of
                                       the hierarchy (edge_conductances_at) */
  double implicit_weight;       /* theta dt of the operator's steps */
  struct field steady_rhs;      /* the steady state's: heat, divided
                                   by steady_scale */
  double steady_scale;          /* the steady state's operator and heat
                                   are divided by it: a power of two near
                                   k / (dx dy) of a uniform k, else 1;
                                   k itself where the geometric
                                   multigrid solves a source */
  struct field step_source;     /* the geometric multigrid's implicit
                                   steps: dt q / (rho c_p) of a uniform
                                   material's source, else no data */
  struct field whole_u, whole_f;  /* several ranks: the whole grid */
  struct mg_options options;
  const struct config *cfg;     /* the run's (its schedules) */
  const struct domain *domain;  /* this rank's part of the grid */
  double dx, dy;
  double explicit_weight;   /* (1 - theta) alpha dt (the operator's:
                               (1 - theta) dt): weight of L u^n on the
                               right-hand side; 0 for the steady state and
                               backward Euler */
  struct stencil halo;      /* how the zero-flux and periodic halo is
                               filled (only its sizes and halo are used) */
  bool conserves;           /* no Dirichlet edge: the total heat (the sum
                               of u weighted by the nodes' volume shares)
                               is invariant */
  bool edge_node[EDGE_COUNT];   /* the part's outer lines that are edge
                                   nodes of the whole grid */
  double volume;            /* the nodes' shares over the whole grid */
  bool device_copy;         /* the strategy keeps the fields on a device
                               (entered there): MG_RESIDENT solves them
                               there, a host solve updates them after */
  struct field previous;    /* implicit steps: u^n, on the host, kept
                               until the step has succeeded */
};

/* Build the hierarchy for cfg on d's part of the grid, a field whose
   halo is filled as s says: Laplace's equation with cfg->steady, else
   the operator of cfg->scheme; those of the operator where material m
   is variable (m may be NULL for none) or cfg needs it
   (edge_terms_needed), after a check that a singular steady state
   balances.  cfg must outlive im.  The V-cycles run where placement says
   (on device for the offload ones), but on host threads when d has
   several ranks (mg_create_part).  With MG_RESIDENT the fields handed to the solves
   must be entered on device (the resident strategy does): their device
   copies are updated from the host before each solve and the host copy
   from the device after it, so only the fields cross per solve and only
   norms per cycle.  Returns 0 or a heatsim_status after a message.  */
int implicit_init (struct implicit *im, const struct config *cfg,
                   const struct stencil *s, const struct domain *d,
                   const struct material *m, enum mg_placement placement,
                   int device);
void implicit_free (struct implicit *im);

/* Levels of the hierarchy, the finest included.  */
unsigned implicit_levels (const struct implicit *im);

/* At most max_cycles V-cycles (1 .. MG_MAX_CYCLES) towards the steady
   state, stopping once the residual norm is at most target or at the
   round-off floor.  */
enum mg_status implicit_steady_cycles (struct implicit *im, struct field *u,
                                       unsigned max_cycles, double target,
                                       struct mg_report *report);

/* Multigrid's residual norm of the steady equations for u (the one its
   V-cycles measure; with a material, of -L_k u = q), without a cycle;
   not finite where u's residual leaves the range of double.  */
double implicit_steady_norm (struct implicit *im, struct field *u);

/* One implicit step in place: u^n -> u^{n+1} to --rtol, from u^n, the
   field of step (cfg's numbering: its time is config_time); rhs is
   scratch of u's shape.  Backward Euler reads the schedules at step + 1,
   Crank-Nicolson at step for its explicit half and step + 1 for its
   implicit half.  Without a Dirichlet edge (or sink) the sum of L_h u
   over the interior is zero, so the exact solution of the step keeps the
   total heat of u^n plus what sources and edge fluxes bring; the
   iterate is shifted by a constant (which L_h does not see) to keep it
   too, rather than to within --rtol.  A step
   that fails (not MG_OK) leaves u^n in u, on the host and where the
   strategy keeps it: the last good field.  */
enum mg_status implicit_step (struct implicit *im, struct field *u,
                              size_t step, struct field *rhs,
                              struct mg_report *report);

/* The l2 norm over the interior of the residual of the discrete steady
   equations, sqrt (sum of (L_h u)^2), where L_h is the 5-point Laplacian
   (1/dx^2, 1/dy^2 weights): multigrid's residual norm for A = -L_h, f = 0
   (summed in another order), its terms scaled as multigrid's where the
   sum of squares leaves the range of double.  Fills the halo of u first:
   zero-flux and periodic lines as s says, and those of the neighbouring
   ranks' parts of d, over which it sums.  */
double laplace_residual_norm (const struct stencil *s,
                              const struct domain *d, double dx, double dy,
                              struct field *u);

#endif
