/* Black box multigrid (Dendy) for the variable-coefficient operator of
   operator.h:
     A = c0 diag(rho c_p) - c1 L_k,
   L_k u the net heat flow into each node's box per unit volume
   (heat_flow_at), c0 = 0 and c1 = 1 for the steady state, c0 = 1 and
   c1 = theta dt for an implicit step.  Dirichlet values sit in u's halo;
   an insulated edge has faces of conductance 0, so its halo is not read;
   on a periodic axis (op->periodic_x, periodic_y) the halo lines are the
   opposite ends' nodes: the solve sets them from u's interior, and u
   leaves with them set.

   Geometric multigrid with averaged coefficients stalls where k jumps by
   orders of magnitude; this one builds its hierarchy from the operator:
     - standard coarsening: the coarse nodes are the fine nodes of even
       index in each axis (any nx, ny: the Galerkin operator takes the
       uneven end);
     - operator-dependent interpolation: a fine node between two coarse
       nodes of a coarse line takes their values weighted by the fine
       stencil collapsed across the line, a node between four by its own
       stencil over the interpolated values of its eight neighbours, so
       that the flux, not the temperature gradient, is continuous across
       a jump; a positive coupling (Galerkin operators of rough maps have
       them) joins the node's diagonal instead, so that no weight turns
       negative or overshoots 1 (without it, a map of nodes k = 100 or 1
       at random took 98 iterations on three levels instead of 25);
     - restriction P^T and Galerkin coarse operators R A P (9-point,
       symmetric);
     - four-colour Gauss-Seidel (colours i % 2, j % 2), the post-smoother
       in the reverse order, so that the V-cycle is a symmetric
       preconditioner;
     - a band Cholesky solve on the coarsest level (below);
     - deflation: on each level between the finest and the coarsest,
       the few modes its V-cycle hardly reduces (islands of high
       conductivity at opposite temperatures across a gap thinner than
       a coarse cell), found at set-up by a short run of conjugate
       gradients there, are added to the cycle's correction exactly
       (boxmg_deflate.c: 150 disks of contrast 1e6 took 9 to 30
       iterations near 1024^2, now 5 to 7);
   and one V(2,2) cycle preconditions conjugate gradients (V(1,1) took
   half as many iterations again on the unit test's maps of contrast
   1e6, 12-13 against 7-8).  Iteration counts hardly depend on the
   contrast of k (bench/RESULTS.md).

   The passes run where opt->placement of boxmg_solve says (enum
   mg_placement): host threads, or target regions on opt->device, one
   row of a level per device thread (a first port: the sums' order
   wants whole rows; the cell-wise passes could take a cell each).
   MG_RESIDENT enters the hierarchy (every level's matrix,
   interpolation and vectors, PCG's vectors) at its first solve and
   keeps it until boxmg_destroy; MG_MAP enters it for each solve and
   takes PCG's state back after it.  The coarsest level's band Cholesky
   solve, sequential, stays on the host for both: its f comes to the
   host and its u goes back each cycle.  The caller's u and f are solved
   in place where they are present on the device (--offload resident's
   fields: their host copies are left to the caller), else mapped for
   the solve.  Sums are taken in a fixed order (rows in turn, each row's
   sum in four lanes of every fourth node, the rows' sums added on the
   host), so results depend neither on the thread count nor on the
   placement: bitwise the same on one processor.  No global state, prints nothing.  */
#ifndef HEATSIM_BOXMG_H
#define HEATSIM_BOXMG_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"
#include "multigrid.h"

struct heat_operator;
struct boxmg_solver;

/* Coarsening stops at this many nodes by default (band at most 129):
   the coarsest level must still resolve the smallest inclusions (here
   1/128 of the grid across), or conjugate gradients stall on their
   near-constant modes.  */
enum { BOXMG_COARSEST_NODES = 16384 };

/* A periodic axis halves only while its node count is even (and at
   least 4): one that turns odd stops the coarsening, and the coarsest
   level's band factor (twice as wide across a periodic axis) can grow
   far beyond the default's.  boxmg_coarsest_factor gives the size of
   the default hierarchy's coarsest level of an nx x ny grid (*cnx x
   *cny) and the doubles of its factor; callers refuse periodic grids
   whose factor exceeds BOXMG_FACTOR_LIMIT (64 MiB; that of a square
   grid without periodic axes holds at most 2.2 million).  */
enum { BOXMG_FACTOR_LIMIT = 1 << 23 };
size_t boxmg_coarsest_factor (size_t nx, size_t ny, bool periodic_x,
                              bool periodic_y, size_t *cnx, size_t *cny);

/* The bytes boxmg_create allocates for an nx x ny grid with those
   periodic axes, coarsened to at most coarsest nodes (0 for
   BOXMG_COARSEST_NODES), counted as it allocates them (the memory
   check's estimate, before any of it is): its levels and the solver's
   own arrays, returned (what a device placement copies), and the
   coarsest level's band factor and right-hand side, and the set-up's
   scratch for the deflation (host only, freed after the set-up) in
   *factor.  SIZE_MAX in both where a count overflows.  The levels'
   deflation vectors are counted at their most (boxmg_deflate.c keeps
   up to BOXMG_DEFLATE_MAX on each level between the finest and the
   coarsest).  boxmg_bytes: the same of a hierarchy built, its deflation
   vectors as many as it kept: at most boxmg_footprint's.  */
size_t boxmg_footprint (size_t nx, size_t ny, bool periodic_x,
                        bool periodic_y, size_t coarsest, size_t *factor);
size_t boxmg_bytes (const struct boxmg_solver *bm, size_t *factor);

/* Build the hierarchy of A = c0 diag(op->capacity) + c1 (diag(sink)
   - L_k) for op's nx x ny nodes (periodic axes as op says: the face
   between a ring's ends is read at column nx, row ny), sink a padded
   array of op's shape (the
   heat a node loses per unit volume and degree above an ambient
   temperature: convection edges, face cooling) or NULL for none,
   coarsening until at most coarsest nodes (0 for BOXMG_COARSEST_NODES),
   an axis of fewer than 3 or a periodic axis that does not halve.  MG_INVALID when a size is 0, c0 < 0,
   c1 <= 0, a coefficient is negative or not finite, or a node has no
   coupling at all (no face, no sink and no c0 term); MG_SINGULAR when
   the coefficients are valid but the coarsest level's band factor, or
   a line smoother's (boxmg_internal.h), meets a pivot that is not
   positive (the operator is singular in double
   precision: with no Dirichlet face, c0 rho c_p or the sink vanishes to
   rounding beside c1 k / dx^2); MG_NO_MEMORY.  op and sink may be freed
   after.
   Without a Dirichlet face (every boundary face of conductance 0, or
   periodic) and without a sink the problem floats; with c0 = 0 too it is singular:
   solves then work on f minus its mean.  */
enum mg_status boxmg_create (struct boxmg_solver **bm,
                             const struct heat_operator *op,
                             const double *sink, double c0, double c1,
                             size_t coarsest);
void boxmg_destroy (struct boxmg_solver *bm);

/* Levels of the hierarchy, the finest included.  */
size_t boxmg_levels (const struct boxmg_solver *bm);

/* Solve A u = f by preconditioned conjugate gradients from the initial
   guess in u's interior (u's halo holds the Dirichlet values), f of u's
   shape or NULL for f = 0.  Stops when ||r|| <= opt->rtol ||r0||, or
   ||r|| <= opt->atol, or below the round-off floor 8 eps ||m|| (m the sum
   of the magnitudes of the residual's terms, node by node, as mg_solve),
   checked on the true residual f - A u, not only on the recurrence's; at
   most opt->max_cycles iterations.  Norms are l2 over the interior,
   not divided by the count; where the first residual norm lies beyond
   2^-200 or 2^200 (or its floor beyond 2^200) and the largest magnitude
   of u and f beyond 2^-100 or 2^100, u and f are solved scaled by a
   power of two (exact), and the report is in the caller's terms.
   report->cycles counts iterations, history the recurrence's
   norms (the last the true one), launches the passes (alike for every
   placement), to_device and from_device the bytes moved (0 for
   MG_HOST).  Only rtol, atol, max_cycles, placement and device of opt
   are read.
   A solve that spends its max_cycles iterations keeps the state of
   conjugate gradients, and the next solve of the same u and f arrays
   (the caller leaves them unchanged in between) goes on with it, as
   one solve would: a steady run that stops for output takes the
   iterations, and computes the bits, of one that does not.  Any other
   solve starts afresh.
   Singular problems solve for f minus its mean, and the solution keeps
   the initial total heat, sum of rho c_p u (of the first of solves that
   go on from one another; restored when they end, not between).  With
   c0 > 0 and no Dirichlet face, sum of A u is c0 times the total heat,
   so the solution is shifted by a constant at the end to make that sum
   f's exactly (the constant changes no flow): an implicit step
   conserves heat (gains exactly the heat f brings) to round-off,
   whatever the tolerance.  */
enum mg_status boxmg_solve (struct boxmg_solver *bm, struct field *u,
                            const struct field *f,
                            const struct mg_options *opt,
                            struct mg_report *report);

#endif
