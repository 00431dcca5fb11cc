/* The host's half V-cycles in one pass over a level.

   Down (u = 0, the forward sweeps, r = f - A u, coarse f = P^T r) and
   up (u += P coarse u, the backward sweeps, PCG's r . z), and PCG's
   search (p = z + beta p, q = A p) and update (u += alpha p, r -= alpha
   q, ||r||^2), run on the host as one wavefront over the rows: a chain
   of stages, each a row pass, stage q working on row front - q while
   stage q - 1 works on row front - q + 1.  A stage's row reads the rows
   beside it as the passes one after another leave them (the one before
   has done them, the one after has not yet), so every node gets the
   bits of the separate passes, the device's, from one read of the
   level's arrays from memory instead of one per pass.
   Threads take bands of rows.  Stage q (q > 0) leaves 2q rows at each
   end of a band that meets another for after a barrier (the rows beside
   the band's are another thread's, and the passes ahead of them in
   phase one would overwrite what a deferred row needs); then each
   boundary's deferred rows run stage by stage.  A row line is a stage
   like a row's two colours (it reads the rows beside it alike).  Levels
   with a periodic axis (halo lines wrapped between passes) or column
   lines (each solved down the level and back) take the separate
   passes.
   The wavefront is a host kernel of its own (host_isa.h's
   boxmg_pipeline, boxmg_host.c), built for each host path: its rows
   are boxmg_rows.h's, which every path and the device share.  */
#ifndef HEATSIM_BOXMG_HOST_H
#define HEATSIM_BOXMG_HOST_H

#include <stddef.h>

#include "boxmg_internal.h"

enum boxmg_stage_kind { STAGE_ZERO, STAGE_RELAX, STAGE_RESIDUAL,
                        STAGE_RESTRICT, STAGE_PROLONG, STAGE_DOT,
                        STAGE_DIRECTION, STAGE_APPLY, STAGE_UPDATE };
/* Down's: zero, two per sweep, residual, restriction (up's fewer).  */
enum { STAGES_MAX = 3 + 2 * BOXMG_SWEEPS };

struct boxmg_stage {
  enum boxmg_stage_kind kind;
  size_t parity;              /* STAGE_RELAX: rows j, j % 2 == parity */
  size_t first, second;       /* STAGE_RELAX: the columns' colours */
};

struct boxmg_pipeline {
  struct boxmg_level *fine;
  const struct boxmg_level *coarse;
  double *row_sum;
  /* PCG's search direction p = z + beta p and q = A p; its update
     u += alpha p, r -= alpha q, which reads p and q as p_in and q_in.  */
  double beta, alpha;
  const double *z, *p_in, *q_in;
  double *p, *q, *u, *r;
  size_t count;
  struct boxmg_stage stage[STAGES_MAX];
};

#endif
