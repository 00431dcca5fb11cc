#include <config.h>

#include "casefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diagnostics.h"
#include "input_file.h"

/* A case file being read, and the files that included it: their
   identities find a cycle whatever the paths that name them.  */
struct case_frame {
  const char *path;
  dev_t dev;
  ino_t ino;
  size_t depth;                 /* 1: the file --case names */
  const struct case_frame *parent;
};

/* Where the settings go, and where a message goes.  */
struct case_reader {
  case_setting_fn *apply;
  void *context;
  char *err;
  size_t errlen;
  bool *unusable;   /* set where a case file cannot be opened or read */
};

static bool fail (const struct case_reader *r, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
static bool fail_file (const struct case_reader *r, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static bool
fail (const struct case_reader *r, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message_vformat (r->err, r->errlen, fmt, ap);
  va_end (ap);
  return false;
}

/* As fail, for a case file that cannot be opened or read (status
   bad_file), rather than a setting in it.  */
static bool
fail_file (const struct case_reader *r, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message_vformat (r->err, r->errlen, fmt, ap);
  va_end (ap);
  *r->unusable = true;
  return false;
}

/* "FIRST -> ... -> path": the includes from the first file to path.  */
static void
describe_chain (const struct case_frame *f, const char *path, char *text,
                size_t size)
{
  const struct case_frame *chain[CASE_DEPTH_MAX];
  size_t n = 0, used = 0;
  for (; f != NULL && n < CASE_DEPTH_MAX; f = f->parent)
    chain[n++] = f;
  text[0] = '\0';
  while (n > 0 && used < size)
    used += (size_t) snprintf (text + used, size - used, "%s -> ",
                               chain[--n]->path);
  if (used < size)
    snprintf (text + used, size - used, "%s", path);
}

enum line_end { LINE_READ, LINE_EOF, LINE_LONG, LINE_NUL, LINE_FAILED };

/* The next line of f into line (CASE_LINE_MAX + 1 bytes), without its
   newline.  A NUL byte is refused: it would cut the line short unseen.  */
static enum line_end
read_line (FILE *f, char *line)
{
  size_t n = 0;
  int ch;
  while ((ch = getc (f)) != EOF && ch != '\n')
    {
      if (ch == '\0')
        return LINE_NUL;
      if (n == CASE_LINE_MAX)
        return LINE_LONG;
      line[n++] = (char) ch;
    }
  line[n] = '\0';
  if (ch == EOF && ferror (f))
    return LINE_FAILED;
  return ch == EOF && n == 0 ? LINE_EOF : LINE_READ;
}

/* Blanks around names and values; a carriage return too, so that a file
   saved with CRLF line ends reads the same.  */
static bool
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

static char *
trim (char *s)
{
  while (is_blank (*s))
    ++s;
  size_t n = strlen (s);
  while (n > 0 && is_blank (s[n - 1]))
    s[--n] = '\0';
  return s;
}

static bool read_file (const struct case_reader *r, const char *path,
                       const struct case_frame *parent, const char *where);

/* The length of the directory part of path, its final '/' included
   (0 for a file in the current directory).  */
static size_t
directory_length (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash == NULL ? 0 : (size_t) (slash - path) + 1;
}

/* Whether the file name at name (up to a ',' or the end) is relative
   and not empty: one to resolve against a case file's directory.  */
static bool
relative_name (const char *name)
{
  return name[0] != '/' && name[0] != ',' && name[0] != '\0';
}

/* Whether value[k] starts a file name: the whole value's, or
   (schedules) the name of an @FILE whose '@' starts the value or
   follows a ':', ',' or '='.  */
static bool
name_starts (const char *value, size_t k, bool schedules)
{
  if (!schedules)
    return k == 0;
  return k > 0 && value[k - 1] == '@'
         && (k == 1 || strchr (":,=", value[k - 2]) != NULL);
}

/* Whether value[k] starts a relative file name, past end, where the
   name before it ended; *end moves past a name that starts there, so
   that an '@' inside one (a directory "d:@x"), absolute or not, starts
   no other.  A name runs to the next ',' or the end of value (of a
   whole value, the end: it is one name).  */
static bool
relative_starts (const char *value, size_t k, bool schedules, size_t *end)
{
  if (k < *end || !name_starts (value, k, schedules))
    return false;
  const char *comma = schedules ? strchr (value + k, ',') : NULL;
  *end = comma == NULL ? k + strlen (value + k) : (size_t) (comma - value);
  return relative_name (value + k);
}

/* How many relative file names value holds.  */
static size_t
relative_names (const char *value, bool schedules)
{
  size_t names = 0;
  for (size_t k = 0, end = 0; value[k] != '\0'; ++k)
    names += relative_starts (value, k, schedules, &end);
  return names;
}

bool
case_file_names_relative (const char *value, bool schedules)
{
  return relative_names (value, schedules) > 0;
}

bool
case_file_splits_name (const char *path, const char *value, bool schedules)
{
  const size_t dir = directory_length (path);
  if (!schedules || memchr (path, ',', dir) == NULL)
    return false;
  for (size_t k = 0, end = 0; value[k] != '\0'; ++k)
    if (relative_starts (value, k, schedules, &end) && value[end] == ',')
      return true;
  return false;
}

char *
case_file_resolve (const char *path, const char *value, bool schedules)
{
  const size_t dir = directory_length (path);
  const size_t names = relative_names (value, schedules);
  char *text = malloc (strlen (value) + names * dir + 1);
  if (text == NULL)
    return NULL;
  size_t n = 0;
  for (size_t k = 0, end = 0; value[k] != '\0'; ++k)
    {
      if (relative_starts (value, k, schedules, &end))
        {
          memcpy (text + n, path, dir);
          n += dir;
        }
      text[n++] = value[k];
    }
  text[n] = '\0';
  return text;
}

/* "case = FILE" at line lineno of f: FILE relative to f's directory.  */
static bool
include (const struct case_reader *r, const struct case_frame *f,
         size_t lineno, const char *value)
{
  if (value == NULL || value[0] == '\0')
    return fail (r, "%s:%zu: case: needs a file name (case = FILE)", f->path,
                 lineno);
  char *path = case_file_resolve (f->path, value, false);
  if (path == NULL)
    return fail (r, "%s:%zu: out of memory", f->path, lineno);
  char where[CASE_LINE_MAX + 32];
  snprintf (where, sizeof where, "%s:%zu", f->path, lineno);
  const bool ok = read_file (r, path, f, where);
  free (path);
  return ok;
}

/* line past a UTF-8 byte order mark, which editors on Windows put at
   the start of a file (schedule files skip it too).  */
static char *
skip_bom (char *line)
{
  static const char bom[] = "\xef\xbb\xbf";
  return strncmp (line, bom, sizeof bom - 1) == 0 ? line + sizeof bom - 1
         : line;
}

/* One line of f: a comment, a blank line, an include or a setting; the
   first may start with a byte order mark.  */
static bool
read_setting (const struct case_reader *r, const struct case_frame *f,
              size_t lineno, char *line)
{
  char *name = trim (lineno == 1 ? skip_bom (line) : line);
  if (name[0] == '\0' || name[0] == '#')
    return true;
  char *value = NULL;
  char *equals = strchr (name, '=');
  if (equals != NULL)
    {
      *equals = '\0';
      value = trim (equals + 1);
      name = trim (name);
    }
  if (name[0] == '\0')
    return fail (r, "%s:%zu: no option name before '='", f->path, lineno);
  if (name[strcspn (name, " \t")] != '\0')
    return fail (r, "%s:%zu: '%s': expected NAME = VALUE, or a bare NAME "
                 "for a flag", f->path, lineno, name);
  if (name[0] == '-')
    return fail (r, "%s:%zu: '%s': write the option's long name without "
                 "'--'", f->path, lineno, name);
  if (strcmp (name, "case") == 0)
    return include (r, f, lineno, value);
  /* Room for "FILE:LINE: " before it: the message is cut once
     (message_vformat).  */
  char msg[HEATSIM_MESSAGE_MAX];
  if (!r->apply (r->context, name, value, f->path, msg,
                 message_inner_size (sizeof msg, strlen (f->path) + 24)))
    return fail (r, "%s:%zu: %s", f->path, lineno, msg);
  return true;
}

/* Tell the caller that path is read, included at from ("FILE:LINE")
   from parent, or named by --case (parent NULL); its refusal is
   prefixed as the other refusals of an include are.  */
static bool
note_file (const struct case_reader *r, const char *path,
           const struct case_frame *parent, const char *from)
{
  char msg[HEATSIM_MESSAGE_MAX];
  if (r->apply (r->context, NULL, NULL, path, msg, sizeof msg))
    return true;
  return parent != NULL
         ? fail (r, "%s: case = %s: %s", from, path, msg)
         : fail (r, "%s: %s: %s", from, path, msg);
}

/* The case file path, read by from ("--case" or "FILE:LINE"), opened
   for reading with its status in st; NULL after a message.  It is
   opened without blocking and refused unless it is a regular file: a
   FIFO would block the open until a writer came, and a FIFO or a device
   (/dev/zero) may never end.  */
static FILE *
open_case (const struct case_reader *r, const char *path, const char *from,
           struct stat *st)
{
  const int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      fail_file (r, "%s: cannot open '%s': %s", from, path, strerror (errno));
      return NULL;
    }
  const char *unfit = NULL;
  FILE *f = NULL;
  if (fstat (fd, st) != 0)
    fail_file (r, "%s: cannot read '%s': %s", from, path, strerror (errno));
  else if ((unfit = input_file_unfit (st)) != NULL && S_ISDIR (st->st_mode))
    fail_file (r, "%s: '%s' is a directory, not a case file", from, path);
  else if (unfit != NULL)
    fail_file (r, "%s: '%s' is %s", from, path, unfit);
  /* A regular file reads the same either way, but stdio expects
     blocking reads.  */
  else if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0
           || (f = fdopen (fd, "r")) == NULL)
    fail_file (r, "%s: cannot read '%s': %s", from, path, strerror (errno));
  if (f == NULL)
    close (fd);
  return f;
}

/* Read path, included at where ("FILE:LINE") from parent, or named by
   --case (parent and where NULL).  */
static bool
read_file (const struct case_reader *r, const char *path,
           const struct case_frame *parent, const char *where)
{
  const char *from = where != NULL ? where : "--case";
  if (parent != NULL && parent->depth == CASE_DEPTH_MAX)
    return fail (r, "%s: case = %s: case files nested more than %d deep",
                 from, path, CASE_DEPTH_MAX);
  struct stat st;
  FILE *f = open_case (r, path, from, &st);
  if (f == NULL)
    return false;
  bool ok = true;
  for (const struct case_frame *p = parent; ok && p != NULL; p = p->parent)
    if (p->dev == st.st_dev && p->ino == st.st_ino)
      {
        char chain[1024];
        describe_chain (parent, path, chain, sizeof chain);
        ok = fail (r, "%s: case = %s: an include cycle: %s", from, path,
                   chain);
      }
  const struct case_frame frame = {
    .path = path, .dev = ok ? st.st_dev : 0, .ino = ok ? st.st_ino : 0,
    .depth = parent != NULL ? parent->depth + 1 : 1, .parent = parent
  };
  /* The caller learns of every file read, one without settings too;
     its refusal (too many files) names the include or --case that
     read this one.  */
  ok = ok && note_file (r, path, parent, from);
  char line[CASE_LINE_MAX + 1];
  for (size_t lineno = 1; ok; ++lineno)
    {
      const enum line_end end = read_line (f, line);
      if (end == LINE_EOF)
        break;
      if (end == LINE_READ)
        ok = read_setting (r, &frame, lineno, line);
      else if (end == LINE_LONG)
        ok = fail (r, "%s:%zu: line longer than %d bytes", path, lineno,
                   CASE_LINE_MAX);
      else
        ok = fail_file (r, "%s:%zu: %s", path, lineno, end == LINE_NUL
                        ? "a NUL byte: not a text file" : strerror (errno));
    }
  fclose (f);
  return ok;
}

bool
case_file_read (const char *path, case_setting_fn *apply, void *context,
                char *err, size_t errlen, bool *unusable)
{
  *unusable = false;
  const struct case_reader r = { apply, context, err, errlen, unusable };
  return read_file (&r, path, NULL, NULL);
}
