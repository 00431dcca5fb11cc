#include <config.h>

#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool
directory_of (const char *path, char *buf, size_t len)
{
  const char *slash = strrchr (path, '/');
  int n = slash == NULL ? snprintf (buf, len, ".")
          : slash == path ? snprintf (buf, len, "/")
          : snprintf (buf, len, "%.*s", (int) (slash - path), path);
  if (n < 0 || (size_t) n >= len)
    {
      errno = ENAMETOOLONG;
      return false;
    }
  return true;
}

bool
atomic_temp (const char *path, char *tmp, size_t len)
{
  char dir[4096];
  if (!directory_of (path, dir, sizeof dir))
    return false;
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  int n = snprintf (tmp, len, "%s/.%s.XXXXXX", dir, base);
  if (n < 0 || (size_t) n >= len)
    {
      errno = ENAMETOOLONG;
      return false;
    }
  int fd = mkstemp (tmp);
  if (fd < 0)
    return false;
  /* mkstemp makes the file 0600; a result file gets the usual mode.  */
  mode_t mask = umask (0);
  umask (mask);
  if (fchmod (fd, 0666 & ~mask) != 0 || close (fd) != 0)
    {
      int e = errno;
      unlink (tmp);
      errno = e;
      return false;
    }
  return true;
}

static bool
sync_path (const char *path, int flags)
{
  int fd = open (path, flags);
  if (fd < 0)
    return false;
  bool ok = fsync (fd) == 0;
  int e = errno;
  close (fd);
  errno = e;
  return ok;
}

bool
atomic_commit (const char *tmp, const char *path)
{
  char dir[4096];
  if (!sync_path (tmp, O_RDONLY) || rename (tmp, path) != 0)
    {
      int e = errno;
      unlink (tmp);
      errno = e;
      return false;
    }
  /* Make the rename itself durable.  Some file systems refuse fsync on a
     directory; the data is safe either way.  */
  if (directory_of (path, dir, sizeof dir))
    sync_path (dir, O_RDONLY | O_DIRECTORY);
  return true;
}

FILE *
atomic_fopen (const char *path, char *tmp, size_t len)
{
  if (!atomic_temp (path, tmp, len))
    return NULL;
  FILE *fp = fopen (tmp, "wb");
  if (fp == NULL)
    atomic_abort (tmp);
  return fp;
}

bool
atomic_fclose (FILE *fp, bool ok, const char *tmp, const char *path)
{
  int e = errno;
  if (fclose (fp) != 0 && ok)
    {
      ok = false;
      e = errno;
    }
  if (ok)
    return atomic_commit (tmp, path);
  errno = e;
  atomic_abort (tmp);
  return false;
}

void
atomic_abort (const char *tmp)
{
  int e = errno;
  unlink (tmp);
  errno = e;
}

bool
make_directories (const char *dir)
{
  char path[4096];
  int n = snprintf (path, sizeof path, "%s", dir);
  if (n < 0 || (size_t) n >= sizeof path)
    {
      errno = ENAMETOOLONG;
      return false;
    }
  for (char *p = path + 1; *p; ++p)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (path, 0777) != 0 && errno != EEXIST)
          return false;
        *p = '/';
      }
  if (mkdir (path, 0777) != 0 && errno != EEXIST)
    return false;
  struct stat st;
  if (stat (path, &st) != 0)
    return false;
  if (!S_ISDIR (st.st_mode))
    {
      errno = ENOTDIR;
      return false;
    }
  return true;
}

size_t
existing_prefix (const char *dir)
{
  struct stat st;
  char path[4096];
  int n = snprintf (path, sizeof path, "%s", dir);
  if (n < 0 || (size_t) n >= sizeof path)
    return 0;
  for (size_t len = (size_t) n; len > 0; --len)
    if ((path[len] == '/' || path[len] == '\0'))
      {
        const char keep = path[len];
        path[len] = '\0';
        const bool there = stat (path, &st) == 0;
        path[len] = keep;
        if (there)
          return len;
      }
  return 0;
}

void
unmake_directories (const char *dir, size_t prefix)
{
  char path[4096];
  int n = snprintf (path, sizeof path, "%s", dir);
  if (n < 0 || (size_t) n >= sizeof path)
    return;
  for (size_t len = (size_t) n; len > prefix; --len)
    if (path[len] == '/' || path[len] == '\0')
      {
        path[len] = '\0';
        /* Only an empty directory goes: one that holds anything (made by
           someone else meanwhile) stops it.  */
        if (len > 0 && path[len - 1] != '/' && rmdir (path) != 0)
          return;
      }
}
