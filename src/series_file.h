/* A CSV time series that a run appends to: the --monitor file and the
   --probe-file.  One header line, then one row per line, each starting
   with its step number.

   The file is append-safe: the header and every row are each one
   write(2) of whole lines to a file opened with O_APPEND, so a killed
   heatsim leaves the header and complete rows only.  It is flushed to
   disk (fsync) after the header and when the run ends, not per row: a
   row costs no disk round trip, and only a crash of the machine itself
   can lose the rows written since.  The monitor file is flushed before
   each checkpoint too (series_sync), so that not even a crash can leave
   a checkpoint without the rows up to its step.

   A file that exists is refused rather than replaced, unlike snapshots
   and checkpoints, which the same run writes again bitwise: a series is
   the record of a run, which another run would destroy.  With --restart
   it is continued instead, so that it ends as the file of the
   uninterrupted run; a restart that would drop rows it does not write
   again (another cadence, an earlier last step) is refused, for the
   same reason.  */
#ifndef HEATSIM_SERIES_FILE_H
#define HEATSIM_SERIES_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct config;

struct series_file {
  const char *option;      /* the option that names it, for messages */
  const char *every_option;   /* the option of its rows' cadence */
  const char *kind;        /* "monitor", "probe": what it is */
  const char *path;
  const char *header;      /* the header line, '\n' included */
  int fd;                  /* open on rank 0 after series_begin, else -1 */
  bool exists;             /* series_check found it (to be continued) */
  off_t size;              /* bytes of the header and complete rows:
                              those kept of a continued file */
  bool start_kept;         /* a continued file keeps the row of the
                              run's first step: it is not written */
  bool start_off_grid;     /* the uninterrupted run has no row at the
                              run's first step unless it is its last */
  bool wrote;              /* this run appended a row, of step last_step */
  size_t last_step;
};

/* No file: what series_close accepts before series_begin ran.  */
#define SERIES_NONE ((struct series_file) { .fd = -1 })

/* The file option names at path, a kind file, with rows every `every`
   steps (set by every_option): check, on rank 0 and before anything is
   written, that it can be used.
   Refused (HEATSIM_BAD_FILE, with a message naming option) when it is a
   directory or not a regular file, the input of the run, a file the
   snapshots or checkpoints would overwrite, or exists without --restart,
   or with --restart is not a file of these columns, or holds rows after
   the restart step that the run would drop and not write again (at
   another cadence, or after its last step; the message names
   every_option or --steps).  With --restart, an existing file is read
   to find the rows to keep: those before the restart step, and the row
   of that step unless a run stopped there (see series_file.c).
   Nothing is written.  Returns 0 or a heatsim_status.  */
int series_check (struct series_file *f, const char *option,
                  const char *kind, const char *path, const char *header,
                  const struct config *cfg, size_t every,
                  const char *every_option);

/* Create the checked file with its header, or continue it: cut it after
   the rows it keeps.  Returns 0 or a heatsim_status.  */
int series_begin (struct series_file *f);

/* Whether the row of step (last: the run's last) is written: not the
   run's first where start_kept or start_off_grid says so (a steady
   restart that starts converged ends there: its last row, which the
   uninterrupted run has too), and not a step that has its row already
   (a multigrid run that starts converged ends at its first step): one
   row a step, in order.  */
bool series_takes (const struct series_file *f, const struct config *cfg,
                   size_t step, bool last);

/* Append row, of step (len bytes, whole lines), in one write(2).  A
   short write (a full disk) is cut off again: the file keeps complete
   rows only.
   Returns 0 or HEATSIM_WRITE_FAILED, with a message.  */
int series_append (struct series_file *f, size_t step, const char *row,
                   size_t len);

/* Flush the rows written so far to disk (nothing if the file is not
   open), before a checkpoint that a restart would continue them from.
   Returns 0 or HEATSIM_WRITE_FAILED, with a message.  */
int series_sync (struct series_file *f);

/* Flush the file to disk and close it (nothing if it is not open).
   Returns 0 or a heatsim_status.  */
int series_close (struct series_file *f);

/* Whether paths a and b name the same file, existing or to be created,
   whatever links and '..' lead to it.  */
bool series_same_file (const char *a, const char *b);

#endif
