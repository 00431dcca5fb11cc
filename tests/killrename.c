/* killrename.so: an LD_PRELOAD shim that kills the process with SIGKILL
   at the rename of a chosen file, so that a test can stop a run at an
   exact point between two of its writes (a kill from outside lands
   anywhere), and that logs the order of renames and flushes.

     KILLRENAME_NAME=NAME  the rename(2) whose target's last name is NAME
     KILLRENAME_WHEN=WHEN  after (default): kill just after that rename;
                           before: kill instead of renaming
     KILLRENAME_LOG=FILE   append a line for each rename(2) ("rename
                           TARGET") and fsync(2) ("fsync PATH") the
                           process makes, before it makes it

   heatsim's atomic writes (atomic.c) put a checkpoint in place with
   rename(2); its monitor and probe files are flushed with fsync(2).  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *
real (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);
  if (f == NULL)
    abort ();
  return f;
}

/* Append "what path\n" to KILLRENAME_LOG, if set, in one write(2).  */
static void
log_call (const char *what, const char *path)
{
  const char *log = getenv ("KILLRENAME_LOG");
  if (log == NULL)
    return;
  char line[PATH_MAX + 16];
  const int n = snprintf (line, sizeof line, "%s %s\n", what, path);
  const int fd = open (log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0)
    return;
  if (n > 0 && (size_t) n < sizeof line && write (fd, line, (size_t) n) < 0)
    {
      /* A test that reads the log finds the line missing.  */
    }
  close (fd);
}

/* Whether target's last name is KILLRENAME_NAME.  */
static int
chosen (const char *target)
{
  const char *name = getenv ("KILLRENAME_NAME");
  const char *slash = strrchr (target, '/');
  return name != NULL && strcmp (slash ? slash + 1 : target, name) == 0;
}

int
rename (const char *from, const char *to)
{
  int (*f) (const char *, const char *) = real ("rename");
  log_call ("rename", to);
  const char *when = getenv ("KILLRENAME_WHEN");
  const int before = when != NULL && strcmp (when, "before") == 0;
  if (chosen (to) && before)
    raise (SIGKILL);
  const int r = f (from, to);
  if (chosen (to))
    raise (SIGKILL);
  return r;
}

int
fsync (int fd)
{
  int (*f) (int) = real ("fsync");
  char link[64], path[PATH_MAX];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink (link, path, sizeof path - 1);
  if (n >= 0)
    {
      path[n] = '\0';
      log_call ("fsync", path);
    }
  return f (fd);
}
