#include <config.h>

#include "monitor.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diagnostics.h"
#include "domain.h"
#include "output.h"
#include "problem.h"
#include "run_config.h"
#include "status.h"

/* Write all of buf at the end of the file in one write(2), so that a
   reader, or a kill, sees the whole line or nothing of it.  A short write
   (a full disk) is cut off again: the file keeps complete rows only.  */
static bool
append_line (struct monitor *m, const char *buf, size_t len)
{
  ssize_t n;
  do
    n = write (m->fd, buf, len);
  while (n < 0 && errno == EINTR);
  if (n == (ssize_t) len)
    {
      m->size += n;
      return true;
    }
  const int e = n < 0 ? errno : ENOSPC;
  if (ftruncate (m->fd, m->size) != 0)
    {
      /* The partial line stays; the error below is what matters.  */
    }
  errno = e;
  return false;
}

/* Whether line is a row: a step number, then a comma.  */
static bool
is_row (const char *line, unsigned long long *step)
{
  char *end;
  *step = strtoull (line, &end, 10);
  return isdigit ((unsigned char) line[0]) && *end == ',';
}

/* The offset after the header and the lines before the row of step, in
   the open file: rows from step on go, and so does a last line cut
   short; lines that are not rows (edited by hand) stay as they are.  The
   row of step itself stays where keep_step: *kept tells whether there
   was one.  0 for an empty file (a run killed before its header).  -1,
   with a message, when the file is not a monitor file with these
   columns.  */
static off_t
lines_before (FILE *fp, const char *path, size_t step, bool keep_step,
              bool *kept)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len = getline (&line, &cap, fp);
  *kept = false;
  if (len < 0 && !ferror (fp))
    {
      free (line);
      return 0;
    }
  if (len < 0 || strcmp (line, MONITOR_HEADER) != 0)
    {
      free (line);
      heatsim_error ("--monitor: %s exists and is not a heatsim monitor file "
                     "with the columns %.*s; it is left as it is", path,
                     (int) strlen (MONITOR_HEADER) - 1, MONITOR_HEADER);
      return -1;
    }
  off_t keep = (off_t) len;
  while ((len = getline (&line, &cap, fp)) > 0 && line[len - 1] == '\n')
    {
      unsigned long long row;
      const bool a_row = is_row (line, &row);
      if (a_row && (row > step || (row == step && !keep_step)))
        break;
      keep += (off_t) len;
      if (a_row && row == step)
        {
          *kept = true;
          break;
        }
    }
  free (line);
  return keep;
}

/* With --restart: continue the monitor file of the run, so that it ends
   as the file of an uninterrupted run.  The rows before the restart step
   stay.  So does the row of that step where rows fall on it: it holds
   the largest change of the sweep before it, which the restarted run
   cannot know; the run writes it only where it is missing.  Where rows
   do not fall on the restart step (a run stopped by a signal or
   --steps), the uninterrupted run has no row there, and the restarted
   run writes none.  */
static int
continue_file (struct monitor *m, const struct config *cfg)
{
  FILE *fp = fopen (m->path, "r");
  m->fd = open (m->path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fp == NULL || m->fd < 0)
    {
      heatsim_error ("--monitor: %s: cannot open: %s", m->path,
                     strerror (errno));
      if (fp != NULL)
        fclose (fp);
      return HEATSIM_BAD_FILE;
    }
  const bool aligned = cfg->start_step % cfg->monitor_every == 0;
  bool kept;
  m->size = lines_before (fp, m->path, cfg->start_step, aligned, &kept);
  fclose (fp);
  if (m->size < 0)
    return HEATSIM_BAD_FILE;
  /* An empty file starts afresh, with the row of the first step.  */
  m->skip_first = m->size > 0 && (kept || !aligned);
  if (ftruncate (m->fd, m->size) != 0
      || (m->size == 0
          && !append_line (m, MONITOR_HEADER, strlen (MONITOR_HEADER))))
    {
      heatsim_error ("--monitor: %s: cannot continue it: %s", m->path,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  return HEATSIM_OK;
}

/* A new file with its header.  O_EXCL: whatever is there is never
   replaced (see monitor_open for why).  */
static int
create_file (struct monitor *m)
{
  m->fd = open (m->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
                0666);
  if (m->fd < 0)
    {
      heatsim_error ("--monitor: %s: cannot create: %s", m->path,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  if (!append_line (m, MONITOR_HEADER, strlen (MONITOR_HEADER))
      || fsync (m->fd) != 0)
    {
      heatsim_error ("--monitor: %s: cannot write: %s", m->path,
                     strerror (errno));
      return HEATSIM_WRITE_FAILED;
    }
  return HEATSIM_OK;
}

/* Whether path names the same file as the input of the run.  */
static bool
is_input (const struct config *cfg, const struct stat *st)
{
  const char *input = cfg->restart ? cfg->restart : cfg->init;
  struct stat in;
  return input != NULL && stat (input, &in) == 0 && in.st_dev == st->st_dev
         && in.st_ino == st->st_ino;
}

/* The checks on rank 0, then the file.  A file that exists is refused
   rather than replaced, unlike snapshots and checkpoints, which the same
   run writes again bitwise: a monitor file is the record of a run, which
   another run would destroy.  */
static int
open_file (struct monitor *m, const struct config *cfg)
{
  struct stat st;
  const bool exists = stat (m->path, &st) == 0;
  const char *why = !exists ? NULL
                    : S_ISDIR (st.st_mode) ? "is a directory"
                    : !S_ISREG (st.st_mode) ? "is not a regular file"
                    : is_input (cfg, &st) ? "is the input file of the run"
                    : cfg->restart == NULL
                    ? "exists; heatsim does not overwrite it (remove it, "
                      "choose another name, or continue it with --restart)"
                    : NULL;
  if (why == NULL && output_writes (cfg, m->path))
    why = "would be overwritten by a snapshot, checkpoint or XDMF index "
          "(--output-dir)";
  if (why != NULL)
    {
      heatsim_error ("--monitor: %s %s", m->path, why);
      return HEATSIM_BAD_FILE;
    }
  return exists ? continue_file (m, cfg) : create_file (m);
}

int
monitor_open (struct monitor *m, const struct config *cfg,
              const struct domain *d)
{
  *m = MONITOR_NONE;
  if (cfg->monitor == NULL)
    return HEATSIM_OK;
  m->on = true;
  m->path = cfg->monitor;
  return d->rank == 0 ? open_file (m, cfg) : HEATSIM_OK;
}

bool
monitor_due (const struct monitor *m, const struct config *cfg, size_t step,
             bool last)
{
  return m->on && (last || step == cfg->start_step
                   || step % cfg->monitor_every == 0);
}

/* "%.17g," of v, or "," where it is unknown, infinite or NaN: an empty
   CSV field, as the JSON report writes null for these.  */
static int
put_number (char *buf, size_t len, bool known, double v, char sep)
{
  return known && isfinite (v) ? snprintf (buf, len, "%.17g%c", v, sep)
         : snprintf (buf, len, "%c", sep);
}

int
monitor_write (struct monitor *m, const struct config *cfg,
               const struct domain *d, const struct field *u, size_t step,
               double change, double residual)
{
  /* The quantities and reductions of the final report (main.c,
     measure), so that the last row equals the report.  */
  struct error_norms e = { 0 };
  const bool exact = problem_has_exact (cfg);
  if (exact && !problem_error (cfg, d, u, cfg->steady ? 0.0
                               : config_time (cfg, step), &e))
    {
      heatsim_error ("--monitor: out of memory for the exact solution");
      return HEATSIM_NO_MEMORY;
    }
  const double heat = domain_sum (d, field_sum (u)) * config_dx (cfg)
                      * config_dy (cfg);
  double lo, hi;
  field_range (u, &lo, &hi);
  lo = domain_min (d, lo);
  hi = domain_max (d, hi);
  if (m->fd < 0 || (step == cfg->start_step && m->skip_first))
    return HEATSIM_OK;

  char row[512];
  size_t n = (size_t) snprintf (row, sizeof row, "%zu,", step);
  n += put_number (row + n, sizeof row - n, !cfg->steady,
                   config_time (cfg, step), ',');
  n += put_number (row + n, sizeof row - n, true, heat, ',');
  n += put_number (row + n, sizeof row - n, true, lo, ',');
  n += put_number (row + n, sizeof row - n, true, hi, ',');
  n += put_number (row + n, sizeof row - n, exact, e.l2, ',');
  n += put_number (row + n, sizeof row - n, change >= 0.0, change, ',');
  n += put_number (row + n, sizeof row - n, residual >= 0.0, residual, '\n');
  if (append_line (m, row, n))
    return HEATSIM_OK;
  heatsim_error ("--monitor: %s: cannot write: %s", m->path,
                 strerror (errno));
  return HEATSIM_WRITE_FAILED;
}

int
monitor_close (struct monitor *m)
{
  if (m->fd < 0)
    return HEATSIM_OK;
  const bool ok = fsync (m->fd) == 0;
  const int e = errno;
  const bool closed = close (m->fd) == 0;
  m->fd = -1;
  if (ok && closed)
    return HEATSIM_OK;
  heatsim_error ("--monitor: %s: cannot write: %s", m->path,
                 strerror (ok ? errno : e));
  return HEATSIM_WRITE_FAILED;
}
