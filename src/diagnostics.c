#include <config.h>

#include "diagnostics.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The state of the message channel: which rank speaks, the last message
   of this process (kept for the JSON report of a failure), and whether a
   non-zero rank still holds it back until it is known to have failed
   first.  */
static int this_rank;
static char message[HEATSIM_MESSAGE_MAX];
static bool held;
static const char *prefix;

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
  char text[sizeof message];
  vsnprintf (text, sizeof text, fmt, ap);
  va_end (ap);
  if (prefix != NULL)
    snprintf (message, sizeof message, "%s: %s", prefix, text);
  else
    snprintf (message, sizeof message, "%s", text);
  held = this_rank != 0;
  if (!held)
    fprintf (stderr, PACKAGE ": %s\n", message);
}

void
heatsim_error_prefix (const char *text)
{
  prefix = text;
}

void
heatsim_error_flush (void)
{
  if (held)
    {
      /* As printed, so that heatsim_error_message matches stderr.  */
      char text[sizeof message];
      snprintf (text, sizeof text, "rank %d: %s", this_rank, message);
      strcpy (message, text);
      fprintf (stderr, PACKAGE ": %s\n", message);
    }
  held = false;
}

const char *
heatsim_error_message (void)
{
  return message;
}

void
heatsim_error_adopt (const char *text)
{
  snprintf (message, sizeof message, "%s", text);
  held = false;
}
