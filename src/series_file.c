#include <config.h>

#include "series_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "diagnostics.h"
#include "output.h"
#include "run_config.h"
#include "status.h"

/* Write all of buf at the end of the file, in one write(2) unless the
   first is short, so that a reader, or a kill, sees the whole line or
   nothing of it.  A short write is followed by one for the rest, whose
   failure says why (a file size limit, EFBIG, or a full disk).  */
static bool
append_line (struct series_file *f, const char *buf, size_t len)
{
  size_t done = 0;
  int e = 0;
  while (done < len && e == 0)
    {
      const ssize_t n = write (f->fd, buf + done, len - done);
      if (n > 0)
        done += (size_t) n;
      else if (n == 0 || errno != EINTR)
        e = n < 0 ? errno : ENOSPC;
    }
  if (e == 0)
    {
      f->size += len;
      return true;
    }
  if (ftruncate (f->fd, f->size) != 0)
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

/* The rows a restarted run writes: every `every` steps of the
   simulation, at its first step, start, and at its last, end (for a
   steady run the last it may reach: its --max-steps sweeps).  */
struct row_plan {
  size_t start, end, every;
};

/* Whether the run of p writes the row of step again, after its first.  */
static bool
written_again (const struct row_plan *p, size_t step)
{
  return step > p->start && step <= p->end
         && (step % p->every == 0 || step == p->end);
}

/* What rows_to_keep reads of a continued file.  */
struct file_rows {
  off_t before;          /* bytes of the header and the lines before the
                            first row at or after the restart step */
  off_t after;           /* those and the row of the restart step, where
                            that first row is of it (start_row) */
  bool start_row;
  bool any;              /* the file has rows, from first to last */
  size_t first, last;
  size_t off_grid;       /* rows but the first off the rows' grid */
  size_t lost;           /* rows after the cut that the run does not
                            write again, from lost_first to lost_last */
  size_t lost_first, lost_last;
  bool lost_here;        /* one of them lies up to the run's last step */
  bool lost_later;       /* one of them lies after it */
  bool lost_is_last;     /* the file's last row is one of them */
};

/* Count a row of step (dropped: it lies after the cut, other than the
   row of the restart step) into r.  */
static void
note_row (struct file_rows *r, const struct row_plan *p, size_t step,
          bool dropped)
{
  if (r->any && step % p->every != 0)
    r->off_grid++;
  if (!r->any)
    r->first = step;
  r->any = true;
  r->last = step;
  r->lost_is_last = dropped && !written_again (p, step);
  if (!r->lost_is_last)
    return;
  if (r->lost++ == 0)
    r->lost_first = step;
  r->lost_last = step;
  r->lost_here = r->lost_here || step <= p->end;
  r->lost_later = r->lost_later || step > p->end;
}

/* Read f's open file fp into r: the cut falls before the first row at
   or after the restart step, or after that row where it is of the
   restart step; lines that are not rows (edited by hand) before it
   stay, and a last line cut short goes.  An empty file (a run killed
   before its header) has nothing to keep.  False, with a message, when
   the file does not have f's header.  */
static bool
read_rows (const struct series_file *f, FILE *fp, const struct row_plan *p,
           struct file_rows *r)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len = getline (&line, &cap, fp);
  *r = (struct file_rows) { .before = 0 };
  if (len < 0 && !ferror (fp))
    {
      free (line);
      return true;
    }
  if (len < 0 || strcmp (line, f->header) != 0)
    {
      free (line);
      heatsim_error ("%s: %s exists and is not a heatsim %s file with the "
                     "columns %.*s; it is left as it is", f->option, f->path,
                     f->kind, (int) strlen (f->header) - 1, f->header);
      return false;
    }
  off_t at = (off_t) len;
  bool cut = false;
  r->before = r->after = at;
  while ((len = getline (&line, &cap, fp)) > 0 && line[len - 1] == '\n')
    {
      unsigned long long row;
      const bool a_row = is_row (line, &row);
      const bool at_cut = a_row && !cut && row >= p->start;
      if (at_cut)
        {
          cut = true;
          r->before = at;
          r->start_row = row == p->start;
        }
      if (a_row)
        note_row (r, p, row, cut && !(at_cut && r->start_row));
      at += (off_t) len;
      if (!cut)
        r->before = at;
      if (!cut || (at_cut && r->start_row))
        r->after = at;
    }
  free (line);
  return true;
}

/* Whether the file's last row is the row of a run stopped there (by a
   signal, --steps or --max-steps, or at its steady state) that a run
   at this cadence going past it has not: off the rows' grid, and the
   only row but the first that is.  Rows of another cadence (an earlier
   --probe-every or --monitor-every) show that it may be one of theirs,
   which would be lost.  */
static bool
stop_row (const struct file_rows *r, const struct row_plan *p)
{
  return r->last % p->every != 0 && r->off_grid == 1 && r->last < p->end;
}

/* Refuse the restart of p: it would drop r's lost rows.  */
static int
refuse_loss (const struct series_file *f, const struct config *cfg,
             const struct file_rows *r, const struct row_plan *p)
{
  char rows[128], why[256];
  if (r->lost == 1)
    snprintf (rows, sizeof rows, "its row of step %zu and not write it",
              r->lost_first);
  else
    snprintf (rows, sizeof rows, "its rows of steps %zu to %zu (%zu rows) "
              "and not write them", r->lost_first, r->lost_last, r->lost);
  int n = 0;
  if (r->lost_here)
    n = snprintf (why, sizeof why, "this run writes a row every %zu "
                  "step%s (%s)", p->every, p->every == 1 ? "" : "s",
                  f->every_option);
  if (r->lost_later)
    snprintf (why + n, sizeof why - (size_t) n, "%s stops at step %zu%s "
              "(%s), before the file's last row, of step %zu",
              r->lost_here ? " and" : "this run", p->end,
              cfg->steady ? " at the latest" : "",
              cfg->steady ? "--max-steps" : "--steps", r->last);
  heatsim_error ("%s: %s: the restart would drop %s again: %s; restart "
                 "with the options that wrote the file, or give another %s",
                 f->option, f->path, rows, why, f->option);
  return HEATSIM_BAD_FILE;
}

/* With --restart: the part of the file of the run to keep, so that no
   row is lost and, with the options of the run that wrote it, it ends
   as the file of the uninterrupted run.  The rows before the restart
   step stay.  So does the row of that step: it is the state the run
   starts from, and may hold what the run cannot know (the monitor's
   largest change of the sweep before it); the run writes it only where
   it is missing.  Only the row of a run stopped at the restart step
   off the rows' grid goes (stop_row): the uninterrupted run has none
   there, and the restarted run writes none unless it ends there (a
   steady state restarted converged).  The rows after the restart step
   go, and the run writes them again, bitwise the same; one it does not
   write again (at another cadence, or after its last step) would be
   lost, and the restart is refused, unless it is the row of a run
   stopped there.  */
static int
rows_to_keep (struct series_file *f, const struct config *cfg, size_t every)
{
  FILE *fp = fopen (f->path, "r");
  if (fp == NULL)
    {
      heatsim_error ("%s: %s: cannot open: %s", f->option, f->path,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  const struct row_plan p = { cfg->start_step, cfg->start_step + cfg->steps,
                              every };
  struct file_rows r;
  const bool read = read_rows (f, fp, &p, &r);
  fclose (fp);
  if (!read)
    return HEATSIM_BAD_FILE;
  const bool stopped = r.any && stop_row (&r, &p);
  if (r.lost > (stopped && r.lost_is_last))
    return refuse_loss (f, cfg, &r, &p);
  const bool drop_start = r.start_row && r.last == p.start && stopped;
  f->start_kept = r.start_row && !drop_start;
  f->size = f->start_kept ? r.after : r.before;
  /* An empty file starts afresh, with the row of the first step.  */
  f->start_off_grid = f->size > 0 && !f->start_kept && p.start % every != 0;
  return HEATSIM_OK;
}

/* The option that named the input file of the run that st describes,
   or NULL: the series is appended to, and must not be any of them.  */
static const char *
input_option (const struct config *cfg, const struct stat *st)
{
  struct config_input in[CONFIG_INPUTS_MAX];
  const size_t n = config_inputs (cfg, in);
  struct stat s;
  for (size_t k = 0; k < n; ++k)
    if (stat (in[k].path, &s) == 0 && s.st_dev == st->st_dev
        && s.st_ino == st->st_ino)
      return in[k].option;
  return NULL;
}

/* Why a file that does not exist yet cannot be created at path, or
   NULL: its directory must be there and writable.  */
static const char *
uncreatable (const char *path)
{
  char dir[PATH_MAX];
  struct stat st;
  if (!directory_of (path, dir, sizeof dir) || stat (dir, &st) != 0)
    return strerror (errno);
  if (!S_ISDIR (st.st_mode))
    return strerror (ENOTDIR);
  return access (dir, W_OK | X_OK) == 0 ? NULL : strerror (errno);
}

int
series_check (struct series_file *f, const char *option, const char *kind,
              const char *path, const char *header, const struct config *cfg,
              size_t every, const char *every_option)
{
  *f = SERIES_NONE;
  f->option = option;
  f->every_option = every_option;
  f->kind = kind;
  f->path = path;
  f->header = header;
  struct stat st;
  f->exists = stat (path, &st) == 0;
  const char *input = f->exists ? input_option (cfg, &st) : NULL;
  if (input != NULL)
    {
      heatsim_error ("%s: %s is the input file of %s: it would be "
                     "written to", option, path, input);
      return HEATSIM_USAGE;
    }
  const char *why = !f->exists ? NULL
                    : S_ISDIR (st.st_mode) ? "is a directory"
                    : !S_ISREG (st.st_mode) ? "is not a regular file"
                    : cfg->restart == NULL
                    ? "exists; heatsim does not overwrite it (remove it, "
                      "choose another name, or continue it with --restart)"
                    : NULL;
  if (why == NULL && output_writes (cfg, path))
    why = "would be overwritten by a snapshot, checkpoint or XDMF index "
          "(--output-dir)";
  if (why != NULL)
    {
      heatsim_error ("%s: %s %s", option, path, why);
      return HEATSIM_BAD_FILE;
    }
  const char *cannot = f->exists ? NULL : uncreatable (path);
  if (cannot != NULL)
    {
      heatsim_error ("%s: %s: cannot create: %s", option, path, cannot);
      return HEATSIM_BAD_FILE;
    }
  return f->exists ? rows_to_keep (f, cfg, every) : HEATSIM_OK;
}

/* A new file with its header.  O_EXCL: whatever is there is never
   replaced.  */
static int
create_file (struct series_file *f)
{
  f->fd = open (f->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
                0666);
  if (f->fd < 0)
    {
      heatsim_error ("%s: %s: cannot create: %s", f->option, f->path,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  f->size = 0;
  if (!append_line (f, f->header, strlen (f->header)) || fsync (f->fd) != 0)
    {
      heatsim_error ("%s: %s: cannot write: %s", f->option, f->path,
                     strerror (errno));
      return HEATSIM_WRITE_FAILED;
    }
  return HEATSIM_OK;
}

/* The kept part of a continued file, and its header if it had none.  */
static int
continue_file (struct series_file *f)
{
  f->fd = open (f->path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (f->fd < 0)
    {
      heatsim_error ("%s: %s: cannot open: %s", f->option, f->path,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  if (ftruncate (f->fd, f->size) != 0
      || (f->size == 0 && !append_line (f, f->header, strlen (f->header))))
    {
      heatsim_error ("%s: %s: cannot continue it: %s", f->option, f->path,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  return HEATSIM_OK;
}

int
series_begin (struct series_file *f)
{
  return f->exists ? continue_file (f) : create_file (f);
}

bool
series_takes (const struct series_file *f, const struct config *cfg,
              size_t step, bool last)
{
  const bool skip = step == cfg->start_step
                    && (f->start_kept || (f->start_off_grid && !last));
  return f->fd >= 0 && !skip
         && !(f->wrote && step <= f->last_step);
}

int
series_append (struct series_file *f, size_t step, const char *row,
               size_t len)
{
  if (append_line (f, row, len))
    {
      f->wrote = true;
      f->last_step = step;
      return HEATSIM_OK;
    }
  heatsim_error ("%s: %s: cannot write: %s", f->option, f->path,
                 strerror (errno));
  return HEATSIM_WRITE_FAILED;
}

int
series_sync (struct series_file *f)
{
  if (f->fd < 0 || fsync (f->fd) == 0)
    return HEATSIM_OK;
  heatsim_error ("%s: %s: cannot write: %s", f->option, f->path,
                 strerror (errno));
  return HEATSIM_WRITE_FAILED;
}

int
series_close (struct series_file *f)
{
  if (f->fd < 0)
    return HEATSIM_OK;
  const bool ok = fsync (f->fd) == 0;
  const int e = errno;
  const bool closed = close (f->fd) == 0;
  f->fd = -1;
  if (ok && closed)
    return HEATSIM_OK;
  heatsim_error ("%s: %s: cannot write: %s", f->option, f->path,
                 strerror (ok ? errno : e));
  return HEATSIM_WRITE_FAILED;
}

/* The directory of path resolved, and its last name, in buf.  */
static bool
resolved (const char *path, char *buf, size_t len)
{
  char dir[PATH_MAX], real[PATH_MAX];
  if (realpath (path, real) != NULL)
    return (size_t) snprintf (buf, len, "%s", real) < len;
  const char *slash = strrchr (path, '/');
  return directory_of (path, dir, sizeof dir) && realpath (dir, real) != NULL
         && (size_t) snprintf (buf, len, "%s/%s", real,
                               slash ? slash + 1 : path) < len;
}

bool
series_same_file (const char *a, const char *b)
{
  char ra[PATH_MAX + NAME_MAX + 2], rb[PATH_MAX + NAME_MAX + 2];
  return resolved (a, ra, sizeof ra) && resolved (b, rb, sizeof rb)
         && strcmp (ra, rb) == 0;
}
