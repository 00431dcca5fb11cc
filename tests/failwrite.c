/* failwrite.so: an LD_PRELOAD shim that makes writes fail as on a full
   disk, for tests that cannot mount a small file system.

     FAILWRITE_AT=N      the Nth write to a watched file fails, and so does
                         every later write and fsync of a watched file
     FAILWRITE_DIR=DIR   watch only files under DIR (default: every file
                         but standard input, output and error)
     FAILWRITE_ERRNO=E   the errno of the failures (default ENOSPC)

   It wraps write, pwrite, pwrite64, writev, fsync and fdatasync (libhdf5's
   file driver) and fopen for writing (stdio's own writes do not go
   through write, so the stream is rebuilt with fopencookie over a
   counted write).  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long writes;

static void *
real (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);
  if (f == NULL)
    abort ();
  return f;
}

/* Whether path lies under FAILWRITE_DIR.  */
static bool
watched_path (const char *path)
{
  const char *dir = getenv ("FAILWRITE_DIR");
  return dir == NULL || strncmp (path, dir, strlen (dir)) == 0;
}

static bool
watched (int fd)
{
  if (getenv ("FAILWRITE_AT") == NULL || fd <= 2)
    return false;
  char link[64], path[PATH_MAX];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, path, sizeof path - 1);
  if (n < 0)
    return false;
  path[n] = '\0';
  return path[0] == '/' && watched_path (path);
}

static bool
failing (void)
{
  return __atomic_load_n (&writes, __ATOMIC_SEQ_CST)
         >= atol (getenv ("FAILWRITE_AT"));
}

/* Count a write to fd; true (errno set) if it must fail.  */
static bool
fails (int fd)
{
  if (!watched (fd))
    return false;
  __atomic_add_fetch (&writes, 1, __ATOMIC_SEQ_CST);
  if (!failing ())
    return false;
  const char *e = getenv ("FAILWRITE_ERRNO");
  errno = e != NULL ? atoi (e) : ENOSPC;
  return true;
}

ssize_t
write (int fd, const void *buf, size_t n)
{
  ssize_t (*f) (int, const void *, size_t) = real ("write");
  return fails (fd) ? -1 : f (fd, buf, n);
}

ssize_t
pwrite (int fd, const void *buf, size_t n, off_t at)
{
  ssize_t (*f) (int, const void *, size_t, off_t) = real ("pwrite");
  return fails (fd) ? -1 : f (fd, buf, n, at);
}

ssize_t
pwrite64 (int fd, const void *buf, size_t n, off64_t at)
{
  ssize_t (*f) (int, const void *, size_t, off64_t) = real ("pwrite64");
  return fails (fd) ? -1 : f (fd, buf, n, at);
}

ssize_t
writev (int fd, const struct iovec *iov, int n)
{
  ssize_t (*f) (int, const struct iovec *, int) = real ("writev");
  return fails (fd) ? -1 : f (fd, iov, n);
}

/* Once writes fail, flushing a watched file fails too.  */
static int
sync_call (const char *name, int fd)
{
  int (*f) (int) = real (name);
  if (watched (fd) && failing ())
    {
      const char *e = getenv ("FAILWRITE_ERRNO");
      errno = e != NULL ? atoi (e) : ENOSPC;
      return -1;
    }
  return f (fd);
}

int
fsync (int fd)
{
  return sync_call ("fsync", fd);
}

int
fdatasync (int fd)
{
  return sync_call ("fdatasync", fd);
}

/* A stream over a file descriptor whose writes are counted.  */
static ssize_t
cookie_write (void *cookie, const char *buf, size_t n)
{
  return write ((int) (intptr_t) cookie, buf, n);
}

static int
cookie_close (void *cookie)
{
  return close ((int) (intptr_t) cookie);
}

static FILE *
open_stream (const char *name, const char *path, const char *mode)
{
  FILE *(*f) (const char *, const char *) = real (name);
  if (getenv ("FAILWRITE_AT") == NULL || mode[0] != 'w'
      || strchr (mode, '+') != NULL)
    return f (path, mode);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0)
    return NULL;
  cookie_io_functions_t io = { .write = cookie_write,
                               .close = cookie_close };
  FILE *fp = watched (fd) ? fopencookie ((void *) (intptr_t) fd, "w", io)
             : fdopen (fd, mode);
  if (fp == NULL)
    close (fd);
  return fp;
}

FILE *
fopen (const char *path, const char *mode)
{
  return open_stream ("fopen", path, mode);
}

FILE *
fopen64 (const char *path, const char *mode)
{
  return open_stream ("fopen64", path, mode);
}
