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

/* Read s's file, if it names one: every value must be at least least
   (-INFINITY: any).  False with a message in p naming option, the file
   and its line.  A file read before is read again (a restart's).  */
bool schedule_load (struct parser *p, const char *option, double least,
                    struct schedule *s);

/* The value at time t.  */
double schedule_at (const struct schedule *s, double t);

/* The largest value it takes.  */
double schedule_max (const struct schedule *s);

/* The value of largest magnitude it takes (the first row's of a tie),
   and into *t that row's time (NAN for a constant): interpolation
   between rows takes none larger.  */
double schedule_extreme (const struct schedule *s, double *t);

/* Whether the value can change in time (a file of more than one
   distinct value).  */
bool schedule_varies (const struct schedule *s);

void schedule_free (struct schedule *s);

#endif
