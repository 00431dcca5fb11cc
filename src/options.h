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

/* Whether argv asks for --json, read as options_parse reads it (also
   abbreviated, and past an option that is wrong; not where it is the
   value of another option), so that a refused command line can still be
   answered in JSON.  */
bool options_json_requested (int argc, char **argv);

/* The --help text.  */
void options_usage (FILE *out);

#endif
