/* Values that change in time (struct schedule, run_config.h): a constant,
   or time,value rows of a CSV file (a header line optional, times
   strictly increasing), linearly interpolated between rows and held at
   the first and last value outside them.  */
#ifndef HEATSIM_SCHEDULE_H
#define HEATSIM_SCHEDULE_H

#include <stdbool.h>

#include "run_config.h"

struct parser;

/* A value as an option gives it: a number, or @FILE (the file is read
   later, by schedule_load).  option names the option for messages.
   False with a message in p.  */
bool schedule_parse (struct parser *p, const char *option, const char *text,
                     struct schedule *s);

/* Read s's file, if it names one.  Returns 0 or a heatsim_status after a
   message naming option, the file and its line.  */
int schedule_load (struct schedule *s, const char *option);

/* The value at time t.  */
double schedule_at (const struct schedule *s, double t);

/* Whether the value can change in time (a file of more than one
   distinct value).  */
bool schedule_varies (const struct schedule *s);

void schedule_free (struct schedule *s);

#endif
