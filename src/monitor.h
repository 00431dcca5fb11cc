/* --monitor FILE: one CSV row of diagnostics (total heat, range, error,
   change of the last sweep) every --monitor-every steps, so that a long
   run can be watched, and plotted, while it goes.

   The file is append-safe: the header and every row are each one write(2)
   of whole lines to a file opened with O_APPEND, so a killed heatsim
   leaves the header and complete rows only.  It is flushed to disk
   (fsync) after the header and when the run ends, not per row: a row
   costs no disk round trip, and only a crash of the machine itself can
   lose the rows written since.  */
#ifndef HEATSIM_MONITOR_H
#define HEATSIM_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct config;
struct domain;
struct field;

/* The columns, in order.  A column added later goes at the end, so
   scripts that read the file by column name or position keep working.  */
#define MONITOR_HEADER \
  "step,time,total_heat,min,max,l2_error,max_change,residual\n"

struct monitor {
  bool on;                 /* --monitor given: every rank computes rows */
  int fd;                  /* the file on rank 0, else -1 */
  const char *path;
  off_t size;              /* bytes of the header and complete rows */
  bool skip_first;         /* a continued file has the row of the run's
                              first step, or the uninterrupted run has
                              none there: it is not written */
};

/* No monitor: what monitor_close accepts before monitor_open ran.  */
#define MONITOR_NONE ((struct monitor) { .on = false, .fd = -1 })

/* Check cfg->monitor before the first step and open it on rank 0: a new
   file with a header; with --restart an existing monitor file is
   continued as the file of the uninterrupted run (its rows after the
   restart step are dropped: the restarted run writes them again, bitwise
   the same; see continue_file).  Refused (HEATSIM_BAD_FILE)
   when it is a directory or not a regular file, an input, a file the
   snapshots or checkpoints would overwrite, cannot be created, or exists
   without --restart.  Returns 0 or a heatsim_status.  */
int monitor_open (struct monitor *m, const struct config *cfg,
                  const struct domain *d);

/* Whether a row is computed after step: every cfg->monitor_every steps
   of the simulation, at the run's first step and at its last (rank 0
   leaves out the first where a continued file says it has no place).  */
bool monitor_due (const struct monitor *m, const struct config *cfg,
                  size_t step, bool last);

/* The row of step: u is this rank's part of the field, current on the
   host; change is the largest change of a cell in the sweep that gave it
   (Jacobi), residual the norm of the residual of the discrete steady
   equations (steady runs); either negative or NaN where there is none.
   Collective: every rank calls it, rank 0 writes.  Returns 0 or a
   heatsim_status.  */
int monitor_write (struct monitor *m, const struct config *cfg,
                   const struct domain *d, const struct field *u,
                   size_t step, double change, double residual);

/* Flush the file to disk and close it.  Returns 0 or a heatsim_status.  */
int monitor_close (struct monitor *m);

#endif
