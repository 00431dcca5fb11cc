/* Command-line options: parsed and validated into a struct config by a pure
   function, so that tests can drive it without running a simulation.
   One table (options.c) defines every option: its names, value, help
   and setter; getopt_long's tables, --help and options_apply follow
   from it.  */
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
  OPTIONS_PRINT_CASE,     /* cfg is valid: print it as a case file */
  OPTIONS_ERROR           /* err holds a one-line message */
};

/* Parse argv into cfg.  On OPTIONS_ERROR, err (of errlen bytes) says which
   option and value were wrong.  With --init or --restart the grid is known
   only once the file is read: derive_settings (derive.h) completes cfg
   then.  Values read from --case files are allocated in cfg: free them
   with options_free, whatever the outcome.  */
enum options_action options_parse (int argc, char **argv, struct config *cfg,
                                   char *err, size_t errlen);

/* Free what options_parse or options_apply allocated in cfg (the values
   read from case files).  */
void options_free (struct config *cfg);

/* The settings of cfg as a case file (--print-case): a header comment,
   then one line a setting, in the order of --help, each option by its
   long name.  Into *text, malloc'ed.  False with a message in err
   (errlen bytes) for a value that a case file cannot hold (a line break,
   or blanks at its ends) or when out of memory.  */
bool options_case_text (const struct config *cfg, char **text, char *err,
                        size_t errlen);

/* Apply the option called name (its long name, without "--") with value
   (NULL for a flag) to c, as the command line does: for settings read
   from elsewhere than argv.  False with a message in err (errlen bytes)
   for an unknown name, a value a flag does not take or a setting does
   not have, or a wrong value.  options_parse's checks of how options go
   together are not made.  */
bool options_apply (struct config *c, const char *name, const char *value,
                    char *err, size_t errlen);

/* Read the schedule files of cfg's --bc, --source-schedule and
   --surface-convection values (schedule.h; options_parse does, or a
   restart once it has restored them) and refuse a schedule that varies
   in a --steady run.  False with a message in err (errlen bytes)
   naming the option, the file and its line.  options_free frees them.  */
bool options_load_schedules (struct config *cfg, char *err, size_t errlen);

/* options_apply for a setting a checkpoint recorded: value is copied
   into c (options_free frees it).  */
bool options_restore (struct config *c, const char *name, const char *value,
                      char *err, size_t errlen);

/* The rules that tie --rtol, --tol, --residual-every, --force and
   --max-steps to the run's method (scheme, or steady solver): checked
   on the command line, or with checkpoint (its path) once a restart has
   read the method from it.  Sets multigrid's default --max-steps.  False
   with a message in err (errlen bytes).  */
bool options_check_method (struct config *c, const char *checkpoint,
                           char *err, size_t errlen);

/* Whether argv asks for --json, read as options_parse reads it (also
   abbreviated, and past an option that is wrong; not where it is the
   value of another option), so that a refused command line can still be
   answered in JSON.  */
bool options_json_requested (int argc, char **argv);

/* The rows of the option table, and the long name (without "--") of
   row k < options_count (), the number struct setting holds.  */
unsigned options_count (void);
const char *options_long_name (unsigned k);

/* The --help text.  */
void options_usage (FILE *out);

#endif
