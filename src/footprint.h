/* The host memory a run's full-size arrays take, estimated from its
   configuration before any of them is allocated (main's memory check).  */
#ifndef HEATSIM_FOOTPRINT_H
#define HEATSIM_FOOTPRINT_H

#include <stddef.h>

#include "domain.h"
#include "run_config.h"

/* What a run holds, for the refusal's message.  */
struct footprint {
  size_t bytes;           /* SIZE_MAX when the count overflows */
  const char *kind;       /* "a steady black box multigrid run", ... */
  char counted[96];       /* "fields, material, levels", ... */
};

/* The bytes of this rank's full-size arrays for the run cfg asks for on
   d (split), counted from the allocators of each kind of run.  */
struct footprint run_footprint (const struct config *cfg,
                                const struct domain *d);

#endif
