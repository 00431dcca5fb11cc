/* Temporal blocking of explicit host steps: several steps of the
   constant-coefficient stencil, or of a variable material's step
   (kernels_material.h), fused into one pass over the field, so
   that a step costs far less than the read and write of the whole field
   that bounds a plain step.

   A line-buffered wavefront: each thread takes a band of the rows of
   the last step and, one column tile at a time, sweeps it row by row,
   computing row j of step 1 from u, row j - 1 of step 2 from step 1,
   ..., row j - T + 1 of step T into unew.  The steps in between keep
   three rows each of the tile's columns in the thread's own rings,
   small enough to stay in the core's caches even for wide grids; bands
   overlap by the rows, tiles by the columns, that the steps in between
   need (a trapezoid one column wider per level below the last on each
   inner side), computed twice, so threads never wait for each other.
   Every cell is heat_cell's (or material_cell's, with the terms that
   material_terms_host adds after it), every halo value
   halo_refresh_host's: the result is bitwise that of T plain steps.  A
   material's coefficient arrays are read where they lie, only u's
   levels live in the rings.  Host code only, no target regions.  */
#ifndef HEATSIM_KERNELS_TILED_H
#define HEATSIM_KERNELS_TILED_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels.h"
#include "kernels_material.h"
#include "status.h"

/* Columns of a tile of the last step: what measured fastest on the
   build machine (bench/RESULTS.md), its rings of 8 steps well inside a
   1 MiB L2.  The environment variable overrides it (for tests and
   tuning); a tile never spans more than the grid, and spans all of it
   where a periodic side's halo needs the far end's column.  */
enum { TILED_COLUMNS = 1024 };
#define TILED_COLUMNS_ENV "HEATSIM_TILE_COLUMNS"

/* Each thread's rings and the halo lines the pass leaves in the fields.  */
struct tiled_scratch {
  unsigned steps;          /* the most steps a pass fuses */
  int threads;             /* threads of a pass, each with its rings */
  size_t columns;          /* the most columns of a tile of the last step */
  size_t ring_stride;      /* doubles per ring row (a tile's widest
                              level with its halo, padded) */
  size_t per_thread;       /* doubles of each thread's rings */
  double *rings;
  double *lines;           /* halo lines of the last two steps but one */
};

/* Whether a pass computes every halo value of the steps in between
   exactly as halo_refresh_host would between plain steps: NULL if so,
   else why not.  A copying edge's source line must be computed before
   it is needed within the sweep: a periodic bottom or top edge (whose
   halo is the opposite end's line of the same step) and a mirror whose
   line is a halo (a grid one line wide) are not; nor are MPI
   exchanges.  */
const char *tiled_refusal (const struct stencil *s);

/* Rings for passes of up to steps steps (at least 2) with the threads
   of a parallel region, tiles as wide as TILED_COLUMNS_ENV says.
   HEATSIM_USAGE for a setting of it that is no whole number >= 1,
   HEATSIM_NO_MEMORY if out of memory, after a message.  */
enum heatsim_status tiled_alloc (struct tiled_scratch *t,
                                 const struct stencil *s, unsigned steps);
void tiled_free (struct tiled_scratch *t);

/* steps (2 .. t->steps) explicit steps u -> unew, whose halo
   halo_refresh_host has filled: of the constant stencil where ms is
   NULL, else of ms, whose factor, sink, ambient and edge heat (in
   s->halo.in) hold for every step of the pass.  The fields' copying halos are left as
   steps plain steps leave them (whose refresh goes to the field that
   is stepped from): unew's hold the refresh of step steps - 2, u's
   that of step steps - 1, so that outputs of them are the same too.
   u's interior is not changed.  */
void heat_steps_tiled (const struct stencil *s,
                       const struct material_step *ms, double *u,
                       double *unew, unsigned steps,
                       struct tiled_scratch *t);

#endif
