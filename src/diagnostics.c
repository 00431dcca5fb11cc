#include <config.h>

#include "diagnostics.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The state of the message channel: which rank speaks, the last message
   of this process (kept for the JSON report of a failure), and whether a
   non-zero rank still holds it back until it is known to have failed
   first.  */
static int this_rank;
static char message[HEATSIM_MESSAGE_MAX];
static bool held;
static const char *prefix;

/* The longest " [... N bytes left out ...] ".  A buffer must hold it
   and a few bytes of each end for a message to be cut in the middle
   (more than CUT_MIN bytes); an inner message's buffer is made smaller
   only where INNER_MIN bytes are left.  */
enum { GAP_MAX = 48, CUT_MIN = 4 * GAP_MAX, INNER_MIN = 256 };

void
message_vformat (char *buf, size_t size, const char *fmt, va_list ap)
{
  va_list again;
  va_copy (again, ap);
  const int n = vsnprintf (buf, size, fmt, ap);
  char *whole = n >= 0 && (size_t) n >= size && size > CUT_MIN
                ? malloc ((size_t) n + 1) : NULL;
  if (whole != NULL)
    {
      vsnprintf (whole, (size_t) n + 1, fmt, again);
      const size_t length = (size_t) n, keep = size - 1 - GAP_MAX;
      size_t head = keep / 2, tail = length - (keep - keep / 2);
      /* Not inside a UTF-8 character.  */
      while (head > 0 && ((unsigned char) whole[head] & 0xc0) == 0x80)
        --head;
      while (tail < length && ((unsigned char) whole[tail] & 0xc0) == 0x80)
        ++tail;
      snprintf (buf, size, "%.*s [... %zu bytes left out ...] %s",
                (int) head, whole, tail - head, whole + tail);
      free (whole);
    }
  va_end (again);
}

size_t
message_inner_size (size_t size, size_t before)
{
  return before < size && size - before > INNER_MIN ? size - before : size;
}

/* message_vformat with its arguments.  */
static void
message_format (char *buf, size_t size, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static void
message_format (char *buf, size_t size, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message_vformat (buf, size, fmt, ap);
  va_end (ap);
}

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
  /* Room for the prefix (an option's name), so that the message is
     cut once: message_vformat.  */
  char text[sizeof message];
  message_vformat (text, message_inner_size (sizeof text, prefix != NULL
                                             ? strlen (prefix) + 2 : 0),
                   fmt, ap);
  va_end (ap);
  if (prefix != NULL)
    message_format (message, sizeof message, "%s: %s", prefix, text);
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
