/* The settings that follow from others: the time step, step count and
   end time from the two of them the user gave (or, for --steady, the
   largest stable step), the stability check of the explicit scheme, and
   the default disk radius.  Run once the grid is known: after parsing, or
   after reading --init or --restart.  */
#ifndef HEATSIM_DERIVE_H
#define HEATSIM_DERIVE_H

#include <stdbool.h>
#include <stddef.h>

struct config;

/* Complete c.  False with a one-line message in err (errlen bytes) naming
   the option that makes the run impossible.  to_run: a run follows (not
   --print-case), and one of one rank that cannot fit in memory even if
   its maps were uniform (least_footprint) is refused before they are
   read (c->too_large).  */
bool derive_settings (struct config *c, bool to_run, char *err,
                      size_t errlen);

#endif
