/* The host memory a run's full-size arrays take, estimated from its
   configuration before any of them is allocated (main's memory check),
   and the least it can take before its maps are read (derive.c's).  */
#ifndef HEATSIM_FOOTPRINT_H
#define HEATSIM_FOOTPRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "domain.h"
#include "run_config.h"

/* What a run holds, for the refusal's message.  */
struct footprint {
  size_t bytes;           /* SIZE_MAX when the count overflows */
  const char *kind;       /* "a steady black box multigrid run", ... */
  char counted[96];       /* "fields, material, levels", ... */
  bool least;             /* a lower bound (least_footprint) */
  int node_ranks;         /* bytes counts the parts of this many ranks,
                             which share a node's memory (0 or 1: one
                             rank's) */
};

/* The bytes of this rank's full-size arrays for the run cfg asks for on
   d (split), counted from the allocators of each kind of run.  */
struct footprint run_footprint (const struct config *cfg,
                                const struct domain *d);

/* The least a run of cfg on one rank can take, counted before its maps
   are read (derive.c): as if every map were uniform (a source too, so
   that explicit steps need the variable step's arrays only for face
   cooling or a source schedule), a source lay in
   the geometric multigrid's range and implicit steps did not stall that
   multigrid (alpha and dt are derived later).  Where that cannot fit,
   neither can the run: it is refused before a map is opened or a
   source grid made.  */
struct footprint least_footprint (const struct config *cfg);

/* Whether need fits in the memory available now; else false, with the
   refusal, naming --grid's nx x ny ("needs at least" a lower bound),
   in err.  */
bool footprint_fits (const struct footprint *need, size_t nx, size_t ny,
                     char *err, size_t errlen);

#endif
