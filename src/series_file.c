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

/* Write all of buf at the end of the file in one write(2), so that a
   reader, or a kill, sees the whole line or nothing of it.  */
static bool
append_line (struct series_file *f, const char *buf, size_t len)
{
  ssize_t n;
  do
    n = write (f->fd, buf, len);
  while (n < 0 && errno == EINTR);
  if (n == (ssize_t) len)
    {
      f->size += n;
      return true;
    }
  const int e = n < 0 ? errno : ENOSPC;
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

/* The offset after the header and the lines before the row of step, in
   the open file: rows from step on go, and so does a last line cut
   short; lines that are not rows (edited by hand) stay as they are.  The
   row of step itself stays where keep_step: *kept tells whether there
   was one.  0 for an empty file (a run killed before its header).  -1,
   with a message, when the file does not have f's header.  */
static off_t
lines_before (const struct series_file *f, FILE *fp, size_t step,
              bool keep_step, bool *kept)
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
  if (len < 0 || strcmp (line, f->header) != 0)
    {
      free (line);
      heatsim_error ("%s: %s exists and is not a heatsim %s file with the "
                     "columns %.*s; it is left as it is", f->option, f->path,
                     f->kind, (int) strlen (f->header) - 1, f->header);
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

/* With --restart: the part of the file of the run to keep, so that it
   ends as the file of an uninterrupted run.  The rows before the restart
   step stay.  So does the row of that step where rows fall on it: it may
   hold what the restarted run cannot know (the monitor's largest change
   of the sweep before it); the run writes it only where it is missing.
   Where rows do not fall on the restart step (a run stopped by a signal
   or --steps), the uninterrupted run has no row there, and the
   restarted run writes none, unless it ends there (a steady state
   restarted converged).  */
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
  const bool aligned = cfg->start_step % every == 0;
  bool kept;
  f->size = lines_before (f, fp, cfg->start_step, aligned, &kept);
  fclose (fp);
  if (f->size < 0)
    return HEATSIM_BAD_FILE;
  /* An empty file starts afresh, with the row of the first step.  */
  f->start_kept = f->size > 0 && kept;
  f->start_off_grid = f->size > 0 && !aligned;
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
              size_t every)
{
  *f = SERIES_NONE;
  f->option = option;
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
