/* Values that change in time (schedule.h): a number, or a CSV file of
   time,value rows read once before the run and interpolated at each
   step's time levels.  */
#include <config.h>

#include "schedule.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "parse.h"

bool
schedule_parse (struct parser *p, const char *option, const char *text,
                struct schedule *s)
{
  schedule_free (s);
  *s = (struct schedule) { .path = NULL };
  if (text[0] == '@')
    {
      s->path = text + 1;
      return s->path[0] != '\0'
             || parse_fail (p, "%s: '@' needs a file name (@FILE)", option);
    }
  if (text[0] == '\0')
    return parse_fail (p, "%s: a value is missing", option);
  return parse_real (p, option, text, NULL, &s->value);
}

/* The rows read so far, growing by doubling.  */
struct rows {
  size_t n, capacity;
  double *time, *values;
};

static bool
add_row (struct rows *r, double t, double v)
{
  if (r->n == r->capacity)
    {
      const size_t capacity = r->capacity ? 2 * r->capacity : 64;
      double *time = realloc (r->time, capacity * sizeof *time);
      if (time == NULL)
        return false;
      r->time = time;
      double *values = realloc (r->values, capacity * sizeof *values);
      if (values == NULL)
        return false;
      r->values = values;
      r->capacity = capacity;
    }
  r->time[r->n] = t;
  r->values[r->n] = v;
  ++r->n;
  return true;
}

/* A finite number filling [text, end) but for blanks at its ends;
   *range false where it is a number that double does not hold (strtod's
   ERANGE: beyond DBL_MAX, or below the least normal number).  */
static bool
field_number (const char *text, const char *end, double *v, bool *range)
{
  *range = true;
  while (text < end && (*text == ' ' || *text == '\t'))
    ++text;
  while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
    --end;
  if (text == end || is_hexadecimal (text, end))
    return false;
  errno = 0;
  char *tail;
  *v = strtod (text, &tail);
  *range = !(tail == end && errno == ERANGE);
  return tail == end && errno != ERANGE && isfinite (*v);
}

/* Whether the first field of a first line, [text, end), is a number's,
   so that the line is a row: one that strtod starts to read at a digit,
   a sign or a point.  A word is a header, also one that begins as
   strtod reads inf or nan ("infusion_time", "nancy"), unless the whole
   field is such a number ("inf", "-nan"), which the row then refuses as
   a value.  */
static bool
starts_number (const char *text, const char *end)
{
  text += strspn (text, " \t");
  char *tail;
  (void) strtod (text, &tail);
  if (tail == text)
    return false;
  const char *first = text + (*text == '+' || *text == '-');
  if (!isalpha ((unsigned char) *first))
    return true;
  const char *rest = tail;
  while (rest < end && (*rest == ' ' || *rest == '\t'))
    ++rest;
  return rest >= end;
}

/* One line of the file, its line break (LF or CR LF) removed: a blank
   line is skipped, a first line (after a UTF-8 byte order mark) whose
   first field does not start as a number is the header, any other line
   must be "time,value" with times strictly increasing and values >=
   least.  A carriage return anywhere else makes the line no row, so
   that rows are never lost to old Mac line ends.  */
static bool
read_line (struct parser *p, const char *where, size_t number, char *line,
           double least, struct rows *r)
{
  size_t length = strcspn (line, "\n");
  if (length > 0 && line[length - 1] == '\r')
    --length;
  line[length] = '\0';
  static const char bom[] = "\xef\xbb\xbf";
  if (number == 1 && strncmp (line, bom, sizeof bom - 1) == 0)
    line += sizeof bom - 1;
  if (line[strspn (line, " \t")] == '\0')
    return true;
  if (strchr (line, '\r') != NULL)
    return parse_fail (p, "%s:%zu: a carriage return inside a line (lines "
                       "must end with LF or CR LF)", where, number);
  const char *comma = strchr (line, ',');
  double t, v;
  if (number == 1 && !starts_number (line, comma != NULL ? comma
                                     : line + strlen (line)))
    return true;
  bool time_range = true, value_range = true;
  const bool row = comma != NULL && strchr (comma + 1, ',') == NULL
                   && field_number (line, comma, &t, &time_range)
                   && field_number (comma + 1, comma + strlen (comma), &v,
                                    &value_range);
  /* "1e-320,2" is two numbers, one of which double does not hold.  */
  if (!row && (!time_range || !value_range))
    return parse_fail (p, "%s:%zu: '%s': its %s is out of range (beyond "
                       "the largest double, or below the least normal "
                       "one, 2.2e-308)", where, number, line,
                       !time_range ? "time" : "value");
  if (!row)
    return parse_fail (p, "%s:%zu: '%s' is not a row 'time,value' of two "
                          "numbers", where, number, line);
  if (r->n > 0 && !(t > r->time[r->n - 1]))
    return parse_fail (p, "%s:%zu: time %g does not follow %g (times must "
                       "increase)", where, number, t, r->time[r->n - 1]);
  if (v < least)
    return parse_fail (p, "%s:%zu: value %g is below %g", where, number, v,
                       least);
  return add_row (r, t, v)
         || parse_fail (p, "%s:%zu: out of memory", where, number);
}

/* The rows of the open file fp into r.  */
static bool
read_rows (struct parser *p, const char *where, FILE *fp, double least,
           struct rows *r)
{
  char *line = NULL;
  size_t size = 0;
  bool ok = true;
  size_t number = 0;
  ssize_t length;
  while (ok && (length = getline (&line, &size, fp)) != -1)
    {
      ++number;
      /* The line's text ends at a NUL byte: what follows would be lost
         unseen.  Refused as case files refuse it, as a file that is
         not text (status bad_file).  */
      if (memchr (line, '\0', (size_t) length) != NULL)
        ok = parse_fail_file (p, "%s:%zu: a NUL byte: not a text file",
                              where, number);
      else
        ok = read_line (p, where, number, line, least, r);
    }
  free (line);
  if (ok && ferror (fp))
    ok = parse_fail_file (p, "%s: cannot read: %s", where, strerror (errno));
  if (ok && r->n == 0)
    ok = parse_fail (p, "%s: no 'time,value' rows", where);
  return ok;
}

bool
schedule_load (struct parser *p, const char *option, double least,
               struct schedule *s)
{
  if (s->path == NULL)
    return s->value >= least
           || parse_fail (p, "%s: %g is below %g", option, s->value, least);
  char where[4096];
  snprintf (where, sizeof where, "%s: %s", option, s->path);
  struct stat st;
  /* A FIFO or device would block or never end.  */
  if (stat (s->path, &st) == 0 && !S_ISREG (st.st_mode))
    return parse_fail_file (p, "%s: not a regular file", where);
  FILE *fp = fopen (s->path, "r");
  if (fp == NULL)
    return parse_fail_file (p, "%s: cannot open: %s", where,
                            strerror (errno));
  struct rows r = { .n = 0 };
  const bool ok = read_rows (p, where, fp, least, &r);
  fclose (fp);
  free (s->time);
  free (s->values);
  s->points = ok ? r.n : 0;
  s->time = ok ? r.time : NULL;
  s->values = ok ? r.values : NULL;
  if (!ok)
    {
      free (r.time);
      free (r.values);
    }
  return ok;
}

double
schedule_at (const struct schedule *s, double t)
{
  const size_t n = s->points;
  if (n == 0)
    return s->value;
  if (!(t > s->time[0]))
    return s->values[0];
  if (t >= s->time[n - 1])
    return s->values[n - 1];
  /* time[lo] <= t < time[hi]: a row's own time gives its value
     exactly.  */
  size_t lo = 0, hi = n - 1;
  while (hi - lo > 1)
    {
      const size_t mid = lo + (hi - lo) / 2;
      if (s->time[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
  const double w = (t - s->time[lo]) / (s->time[hi] - s->time[lo]);
  const double v0 = s->values[lo], v1 = s->values[hi];
  /* v1 - v0 overflows where the values have opposite signs and
     magnitudes near the largest double (1e308 and -1e308): then the
     weighted mean, whose terms have opposite signs and cannot overflow.
     Every other pair keeps v0 + w (v1 - v0), bit for bit, and with it a
     row's own value at its time.  */
  const double rise = v1 - v0;
  return isfinite (rise) ? v0 + w * rise : (1.0 - w) * v0 + w * v1;
}

double
schedule_max (const struct schedule *s)
{
  double m = s->points == 0 ? s->value : s->values[0];
  for (size_t k = 1; k < s->points; ++k)
    m = fmax (m, s->values[k]);
  return m;
}

double
schedule_extreme (const struct schedule *s, double *t)
{
  *t = NAN;
  if (s->points == 0)
    return s->value;
  size_t at = 0;
  for (size_t k = 1; k < s->points; ++k)
    if (fabs (s->values[k]) > fabs (s->values[at]))
      at = k;
  *t = s->time[at];
  return s->values[at];
}

bool
schedule_varies (const struct schedule *s)
{
  for (size_t k = 1; k < s->points; ++k)
    if (s->values[k] != s->values[0])
      return true;
  return false;
}

void
schedule_free (struct schedule *s)
{
  free (s->time);
  free (s->values);
  s->time = s->values = NULL;
  s->points = 0;
}
