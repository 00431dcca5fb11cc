/* Geometric multigrid for A u = f on the vertex-centred grid of a field,
     A = c0 I - c1 Laplacian_h      (5-point, dx and dy may differ),
   c0 = 0 for the steady state, c0 = 1 and c1 = theta alpha dt for an
   implicit time step.  Each edge is Dirichlet (values in u's halo), zero
   flux (the halo mirrors the adjacent interior line) or periodic (the halo
   holds the opposite interior line).

   Any nx x ny works.  Each axis is coarsened on its own by merging its
   intervals in pairs; an odd count leaves one interval unmerged, so coarse
   grids are nested but may be slightly non-uniform, and their operator is
   the 1-D Galerkin operator of linear interpolation (exact in each axis)
   with lumped masses: still a 5-point stencil, with per-column and per-row
   weights.  Node positions are whole and half multiples of the finest
   spacing, exact in floating point, so evenly spaced nodes get exactly
   even transfer weights (1/2, 1/4), and the host runs such stretches as
   plain vector loops; it also skips the loads of a right-hand side it
   knows to be zero.  Only the axes with the finest spacing (within a
   factor sqrt 2) are coarsened, so dx != dy leaves no strong anisotropy
   for the smoother.
   Coarsening stops at 64 unknowns or fewer, solved by a dense inverse
   (in one kernel on a device: coarse levels cost launches, not work).
   V-cycles smooth with red-black SOR (each colour one in-place pass, as
   parallel as Jacobi; on the host, where the halo stays between the
   colours, both in one pass over the rows) or weighted Jacobi;
   bench/RESULTS.md has the measurements behind the default, V(1,2) with
   omega 1.15.

   The module keeps no global state and prints nothing.  */
#ifndef HEATSIM_MULTIGRID_H
#define HEATSIM_MULTIGRID_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"

/* The kind of each edge (field.h).  */
struct mg_boundary {
  enum boundary_kind kind[EDGE_COUNT];
};

struct mg_operator {
  double c0, c1;     /* A = c0 I - c1 Laplacian_h; c0 >= 0, c1 > 0 */
  double dx, dy;     /* node spacing */
};

enum mg_smoother {
  MG_RED_BLACK,      /* red-black SOR, in place (the default) */
  MG_JACOBI          /* weighted Jacobi (best near omega = 4/5) */
};

enum { MG_MAX_CYCLES = 200 };

/* Levels a hierarchy can have: each halves an axis of at most 2^64.  */
enum { MG_MAX_LEVELS = 130 };

/* Where the kernels of a solve run: the placements of heatsim's offload
   strategies (--offload host, map, resident).  All three do the same
   arithmetic in the same order, so on the same processor (the host
   fallback, LLVM's x86_64 host plugin) they give bitwise the same field,
   residuals and cycles; a GPU contracts into FMAs, and agrees to
   rounding.
     MG_HOST      host threads (parallel for), no target construct.
     MG_MAP       every kernel is a target region that maps what it uses,
                  the caller's u and f included, to and from the device.
     MG_RESIDENT  the hierarchy (every level's fields, right-hand sides,
                  weights, transfer tables and the coarsest level's dense
                  inverse) enters the device at the first resident solve
                  and stays until mg_destroy (or a solve on another
                  device); kernels have no map clause, and per cycle only
                  the two doubles of the residual norm cross (two more,
                  of the sum of u, with c0 > 0 and no Dirichlet edge).  The
                  caller's u (and f) may already be present on the device
                  (target enter data, as --offload resident keeps its
                  fields): the solve then reads and writes them there,
                  and u's host copy is left as it was (the caller updates
                  it when it needs it).  If they are not present they are
                  copied in at the start of the solve and u back at its
                  end.  Devices need the finest grid below INT_MAX cells
                  (32-bit indices in the kernels).  */
enum mg_placement { MG_HOST, MG_MAP, MG_RESIDENT };

struct mg_options {
  double rtol;              /* stop when ||r|| <= rtol ||r0||; 0 <= rtol < 1 */
  double atol;              /* or when ||r|| <= atol; atol >= 0, and one of
                               the two is not 0 */
  unsigned max_cycles;      /* 1 .. MG_MAX_CYCLES */
  unsigned pre, post;       /* smoothing sweeps around the coarse correction */
  enum mg_smoother smoother;
  double omega;             /* relaxation weight of the smoother, 0 .. 2 */
  enum mg_placement placement;
  int device;               /* OpenMP device of MG_MAP and MG_RESIDENT, or
                               -1 for omp_get_default_device () */
};

/* rtol 1e-10, 100 cycles, V(1,2) with red-black SOR, omega 1.15: over-
   relaxing the red-black sweeps cuts the cycles by a third, and the
   second post-smoothing sweep costs less than the cycles it saves
   (bench/RESULTS.md); MG_HOST on the default device (-1).  */
struct mg_options mg_default_options (void);

enum mg_status {
  MG_OK,               /* converged */
  MG_NOT_CONVERGED,    /* max_cycles spent: u holds the last iterate */
  MG_INVALID,          /* bad sizes, operator, boundary or options */
  MG_NO_MEMORY,
  MG_NOT_FINITE,       /* a residual norm (or its round-off floor) is
                          infinite or NaN: u or f holds, or the cycles
                          made, values beyond the range of double; u holds
                          the last iterate */
  MG_SINGULAR          /* boxmg_create: every coefficient is valid, but
                          the coarsest level's band factor (or a line
                          smoother's) met a pivot that is not positive:
                          the operator is singular to rounding */
};

/* What a solve did.  Residual norms are l2 over the interior,
   sqrt (sum of (f - A u)^2), without scaling by the cell count; a sum of
   squares that would overflow or underflow is taken again from terms
   scaled by mg_square_scale, so a norm is finite and not 0 wherever the
   residual is.  */
struct mg_report {
  unsigned cycles;
  double initial, final;            /* ||r|| before the first and after the
                                       last cycle */
  double floor;                     /* the round-off floor of the last
                                       residual (see mg_solve) */
  double history[MG_MAX_CYCLES + 1];  /* ||r|| after 0 .. cycles cycles */
  unsigned levels;                  /* of the hierarchy, the finest included */
  /* Kernels launched: target regions, or for MG_HOST the host loops that
     stand for them, counted the same way (a host pass doing both colours
     of a sweep counts as the two kernels it stands for), so that every
     placement reports the same numbers.  With E = 1 when some edge is
     zero flux or periodic (its halo is refreshed by a kernel before each
     stencil pass) and 0 otherwise, one V(pre, post) cycle launches, on
     every level but the coarsest,
       red-black:  (1 + E) (2 (pre + post) + 2)
                   (halo and kernel for each colour of each sweep; halo
                   and residual fused with restriction; the coarse
                   level's halo and prolongation fused with the
                   correction)
       Jacobi:     (pre + post) (2 + E) + 2 (1 + E),
     on the coarsest 1 (halo, residual and dense solve in one kernel),
     and on the finest 2 + E more for the residual norm after the cycle
     (two kernels, so that the sum is deterministic; 2 more where a sum of
     squares leaves the range of double and is taken again, scaled), and
     3 more with c0 > 0 and no Dirichlet edge (the sum of u and its
     shift to the known mean, see mg_solve).  */
  unsigned long launches;           /* the whole solve, set-up included */
  unsigned cycle_launches;          /* one cycle and the norm after it */
  unsigned level_launches[MG_MAX_LEVELS];  /* the same by level, the norm
                                              counted on level 0 */
  /* Bytes the solve's explicit transfers moved to and from the device:
     for MG_RESIDENT the hierarchy when it enters, u and f when they were
     not present (data already present, and every array when target
     regions fall back to the host, move nothing), and the norms'
     doubles; for MG_MAP the sections every kernel maps (counted even
     where the fallback moves nothing); 0 for MG_HOST.  */
  unsigned long long to_device, from_device;
  unsigned long long cycle_to_device, cycle_from_device;  /* of one cycle
                                                             and its norm */
};

struct mg_solver;

/* Build the hierarchy for nx x ny interior nodes.  MG_INVALID when nx or
   ny is 0, a spacing or c1 is not positive and finite, c0 is negative,
   or a single edge of an axis is periodic.  */
enum mg_status mg_create (struct mg_solver **mg, size_t nx, size_t ny,
                          const struct mg_operator *op,
                          const struct mg_boundary *bc);

/* The same for this rank's part of a grid split over the ranks of an MPI
   run (d from domain_split; every rank of d calls it, and later each
   mg_solve, together).  The finest level is d's part; each coarser level
   is split the same way, each rank keeping the coarse nodes that lie in
   its part, while every rank keeps at least a few unknowns along each
   split axis; the levels below are whole on every rank, and solved on
   every rank alike (a coarse level of a few cells per rank costs a
   message per sweep for next to no work).  Halo lines travel on every
   split level before each sweep, restriction and prolongation; the
   restriction to the first whole level is summed over the ranks.  The
   red-black colours, the transfers and the coarse solves are those of
   the whole grid, so a solve on any number of ranks gives bitwise the
   field of one rank for the same number of cycles; the residual norms
   are summed in another order, and may differ in the last bits (as may
   the singular problems' mean and total heat, which enter the field).
   A split hierarchy runs on the host (MG_HOST only).  With one rank
   this is mg_create of the whole grid.  */
struct domain;
enum mg_status mg_create_part (struct mg_solver **mg, const struct domain *d,
                               const struct mg_operator *op,
                               const struct mg_boundary *bc);
void mg_destroy (struct mg_solver *mg);

/* The largest aspect ratio of the cells on a level of mg_create's
   hierarchy for nx x ny nodes of spacing dx, dy that is not the coarsest
   and coarsens only the axis of their long side: the short side's axis
   has run out of nodes (an insulated end keeps its node on every level,
   so such an axis stops at two; a ring likewise), and the point
   smoother relaxes such a level poorly.  An axis with a fixed end does
   not count (its last node's conductance to the edge dominates).  1
   where there is none.  Nothing is allocated.  */
double mg_blocked_aspect (size_t nx, size_t ny, double dx, double dy,
                          const struct mg_boundary *bc);

/* The bytes mg_create allocates for the hierarchy of nx x ny nodes of
   spacing dx, dy with the current thread count (its levels, their axes'
   transfer tables, which on a grid 1 or 2 nodes across outweigh its
   fields, and the scratch rows), found without allocating; SIZE_MAX
   where the count overflows.  */
size_t mg_footprint (size_t nx, size_t ny, double dx, double dy,
                     const struct mg_boundary *bc);

/* Number of levels, the finest included, and the interior size of level
   l (0 the finest).  */
size_t mg_levels (const struct mg_solver *mg);
void mg_level_size (const struct mg_solver *mg, size_t l, size_t *nx,
                    size_t *ny);

/* Solve A u = f by V-cycles from the initial guess in u's interior.  u is
   nx x ny with Dirichlet values in its halo; on return the halo of the
   zero-flux and periodic edges is filled as the heat kernels expect.  f
   has u's shape (its halo is not read), or is NULL for f = 0.
   Stops when ||r|| <= rtol ||r0|| or ||r|| <= atol, or when ||r|| falls
   below the round-off
   floor 8 eps ||m||, where m(i,j) is the sum of the magnitudes of the
   terms of the residual at (i, j), plus the diagonal times DBL_MIN (the
   spacing of subnormal u over eps): no cycle can push a residual
   evaluated in floating point much below that.  A norm or floor that is not
   finite stops the solve with MG_NOT_FINITE, never as converged.
   Singular problems (c0 = 0, no Dirichlet edge) solve for f minus its
   mean, and the solution keeps the initial interior's total heat.
   Without a Dirichlet edge and with c0 > 0 (implicit steps with zero-flux
   or periodic edges) the sum of A u is c0 times u's, so the solution's
   interior sum is f's over c0: u is shifted to it before the first cycle
   and after each, and the cycles solve for the rest, whose operator
   stays well conditioned however large c1 is (the mean alone has the
   eigenvalue c0; the others grow with c1).
   Norms and sums are taken in a fixed order (column sums over bands of
   rows, then the columns in turn), not by an OpenMP reduction, so the
   result does not depend on the thread count or the placement.

   opt->placement says where the kernels run (enum mg_placement).  How
   heatsim's strategies call it:
     --offload host      MG_HOST: u and f on the host.
     --offload map       MG_MAP: u and f on the host; each kernel maps
                         what it reads and writes.
     --offload resident  MG_RESIDENT with opt->device the run's device,
                         u and f already entered (target enter data): the
                         solve works on their device copies and leaves the
                         host copies alone; fetch u (target update from)
                         before writing it out.  A caller whose fields are
                         on the host may pass them too: they are copied in
                         and u out around the solve.
   A resident hierarchy stays on its device between solves (implicit time
   steps reuse it) and leaves it in mg_destroy; a solve on another device
   moves it there.  MG_INVALID also when the placement is unknown,
   opt->device < -1, or a device placement meets a grid of more than
   INT_MAX cells.  */
enum mg_status mg_solve (struct mg_solver *mg, struct field *u,
                         const struct field *f, const struct mg_options *opt,
                         struct mg_report *report);

/* The power of two (exact to multiply by) by which the terms of a sum
   of squares are scaled when sum, their unscaled sum, left the range of
   double: 2^-600 after an overflow, 2^600 below DBL_MIN (0 included), 1
   where sum is in range (or NaN).  The norm is then sqrt (scaled sum) /
   scale.  Every placement and rank decides alike from the same sum.  */
double mg_square_scale (double sum);

#endif
