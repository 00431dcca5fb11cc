/* Fused explicit steps (kernels_tiled.h) on one rank's part of an MPI
   run.  Before a pass of T steps the part is widened by the neighbours'
   cells, T + 1 lines deep (the last one as its halo), across each edge
   that trades (domain_trade_strips, corners included), and the pass runs
   on the wide part, whose edges inside the whole grid keep that halo
   fixed.  A wrong halo value spoils one more line per step, so after T
   steps the part's own cells are bitwise those of T plain steps.  The
   halo lines that plain steps leave in both fields are put there too:
   the whole grid's edges' from the pass, the trading edges' computed
   again on the lines within their reach.  A varying material's step
   (kernels_material.h) is widened likewise, once: its coefficients are
   constant in time, and the neighbours' are those of their own plain
   steps on the same cells, so the wide part's step is bitwise theirs.
   Host code only.  */
#ifndef HEATSIM_TILED_RANKS_H
#define HEATSIM_TILED_RANKS_H

#include <stdbool.h>
#include <stddef.h>

#include "domain.h"
#include "kernels.h"
#include "kernels_material.h"
#include "kernels_tiled.h"
#include "status.h"

struct tiled_ranks {
  struct stencil wide;      /* the wide part's, its trading edges fixed */
  size_t x0, y0;            /* where the part's cell (0, 0) lies in it */
  unsigned depth;           /* the most steps of a pass */
  double *before, *after;   /* the wide part before and after a pass */
  /* A varying material's step on the wide part, or block NULL: the
     constant stencil's passes.  */
  struct material_step material;
  struct tiled_scratch tiles;
};

/* The most steps a pass can fuse on the parts of d: one less than the
   narrowest part across an axis split over ranks (the lines a rank
   sends are its own), every rank alike.  */
size_t tiled_ranks_limit (const struct domain *d);

/* Why passes of steps steps cannot run on the part
   whose stencil is s (domain_halo's), or NULL (kernels_tiled.h's tiled_refusal of the
   wide part).  */
const char *tiled_ranks_refusal (const struct stencil *s, unsigned steps);

/* The wide parts and rings for passes of up to steps steps of the part
   of d whose stencil is s, and with ms (NULL for the constant stencil)
   the step of its varying material on the wide part, traded from the
   neighbours' steps.  As tiled_alloc; every rank calls it, and they
   agree on the status (domain_agree) before the trade.  */
enum heatsim_status tiled_ranks_alloc (struct tiled_ranks *t,
                                       const struct domain *d,
                                       const struct stencil *s,
                                       const struct material_step *ms,
                                       unsigned steps);
void tiled_ranks_free (struct tiled_ranks *t);

/* steps (2 .. t->depth) explicit steps u -> unew of the part whose
   stencil is s, with ms the material's step given to tiled_ranks_alloc
   (its values at the pass's start time: factor, sink, ambient), every
   rank at once: unew's cells and both fields' halo lines as plain steps
   leave them (heat_steps_tiled's rule), u's cells unchanged.  The time
   the strips travel adds to *exchange_seconds.  */
void tiled_ranks_steps (struct tiled_ranks *t, const struct domain *d,
                        const struct stencil *s,
                        const struct material_step *ms, double *u,
                        double *unew, unsigned steps,
                        double *exchange_seconds);

#endif
