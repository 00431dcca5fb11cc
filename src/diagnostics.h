/* Messages to the user on stderr, one per failure, also in an MPI run.

   The error convention of heatsim:
   - A function that can fail and knows the context (the option or file a
     user would recognise) returns int: HEATSIM_OK (0) or an enum
     heatsim_status.  It prints the one message itself, with heatsim_error,
     naming the option or file and what was wrong.
   - A helper that cannot name that context (a number parser, an
     allocation, a low-level read) returns bool, or a pointer that is NULL
     on failure, and prints nothing: its caller prints and picks the
     status.  Parsers that build a message leave it in a caller's buffer.
   - Callers pass a status up unchanged.  Only main() turns a status into
     an exit code (see status.h); nothing else calls exit().
   - HEATSIM_USAGE is for bad command lines alone; unreadable input files,
     failed writes and exhausted memory have statuses of their own.  */
#ifndef HEATSIM_DIAGNOSTICS_H
#define HEATSIM_DIAGNOSTICS_H

#include <stdarg.h>
#include <stddef.h>

/* The longest message kept, in bytes: room for a few paths of PATH_MAX
   (512 cut a long --output-dir's message before its reason).  */
enum { HEATSIM_MESSAGE_MAX = 16384 };

/* vsnprintf into buf (size bytes), where a message is too long for it
   keeping its start (what it is about) and its end (what was wrong)
   around " [... N bytes left out ...] ": a value or a line quoted whole
   pushed the reason past the end.  A buffer of at most 192 bytes is cut
   at its end.  A message that quotes another made so must leave it room
   (a smaller buffer for the inner one): the marker of a second cut
   would count only the bytes that cut left out.  */
void message_vformat (char *buf, size_t size, const char *fmt, va_list ap)
  __attribute__ ((format (printf, 3, 0)));

/* The size of a buffer for a message that another, of size bytes,
   will quote after before bytes, so that the message is cut once
   (message_vformat): size less before, or size where that would leave
   too little to cut well.  */
size_t message_inner_size (size_t size, size_t before);

/* Which rank of an MPI run this process is (0 without MPI).  main() sets
   it once, before anything can fail; rank 0 prints at once, the others
   keep their message back.  */
void diagnostics_set_rank (int rank);

/* "heatsim: <message>" on stderr, from rank 0.  Another rank keeps its
   last message until heatsim_error_flush: an MPI run prints one message
   per failure, from the first rank that failed (see domain_agree).  */
void heatsim_error (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Begin every message with "PREFIX: " until called again (NULL: no
   prefix).  A reader that knows only a file's path (h5read.c, png_io.c)
   prints its own message; the caller that gave it the path sets the
   option that named the file (--init, --restart) around the read.  */
void heatsim_error_prefix (const char *prefix);

/* Print the message this rank kept back, prefixed with the rank.  */
void heatsim_error_flush (void);

/* The last message of this process as it went (or would go) to stderr,
   without the "heatsim: " prefix; "" when there was none.  A non-zero
   rank's message reads "rank N: ..." once flushed.  The JSON report of a
   failure carries it (report_json_failure).  */
const char *heatsim_error_message (void);

/* Take text as this process's last message, printed elsewhere: in an MPI
   run the rank that failed first sends its message to the others
   (domain_agree), so that rank 0 can report it.  */
void heatsim_error_adopt (const char *text);

#endif
