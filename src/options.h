/* Command-line options: parsed and validated into a struct config by a pure
   function, so that tests can drive it without running a simulation.  */
#ifndef HEATSIM_OPTIONS_H
#define HEATSIM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run_config.h"

enum options_action {
  OPTIONS_RUN,            /* cfg is valid: simulate */
  OPTIONS_HELP,
  OPTIONS_VERSION,
  OPTIONS_LIST_DEVICES,
  OPTIONS_ERROR           /* err holds a one-line message */
};

/* Parse argv into cfg.  On OPTIONS_ERROR, err (of errlen bytes) says which
   option and value were wrong.  With --init or --restart the grid is known
   only once the file is read: derive_settings (derive.h) completes cfg
   then.  */
enum options_action options_parse (int argc, char **argv, struct config *cfg,
                                   char *err, size_t errlen);

/* The --help text.  */
void options_usage (FILE *out);

#endif
