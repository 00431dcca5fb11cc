#include <config.h>

#include "diagnostics.h"

#include <stdarg.h>
#include <stdio.h>

/* The state of the message channel: which rank speaks, and the message a
   non-zero rank holds back until it is known to have failed first.  */
static int this_rank;
static char deferred[512];

void
diagnostics_set_rank (int rank)
{
  this_rank = rank;
}

void
heatsim_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  if (this_rank == 0)
    {
      fputs (PACKAGE ": ", stderr);
      vfprintf (stderr, fmt, ap);
      fputc ('\n', stderr);
    }
  else
    vsnprintf (deferred, sizeof deferred, fmt, ap);
  va_end (ap);
}

void
heatsim_error_flush (void)
{
  if (deferred[0] != '\0')
    fprintf (stderr, PACKAGE ": rank %d: %s\n", this_rank, deferred);
  deferred[0] = '\0';
}
