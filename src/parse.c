#include <config.h>

#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"

bool
parse_fail (struct parser *p, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message_vformat (p->err, p->errlen, fmt, ap);
  va_end (ap);
  return false;
}

bool
parse_fail_file (struct parser *p, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message_vformat (p->err, p->errlen, fmt, ap);
  va_end (ap);
  p->file = true;
  return false;
}

/* Whether text up to stop is a minus sign and digits, not all zeros: a
   negative whole number, below every range.  */
static bool
negative_whole (const char *text, const char *stop)
{
  if (stop - text < 2 || text[0] != '-')
    return false;
  bool nonzero = false;
  for (const char *c = text + 1; c < stop; ++c)
    {
      if (!isdigit ((unsigned char) *c))
        return false;
      nonzero |= *c != '0';
    }
  return nonzero;
}

/* A whole number in [min, max], read from text up to end (NULL: the whole
   string).  Signs, spaces and trailing text are errors: strtoull alone
   would take " -1" for a huge number.  */
bool
parse_whole (struct parser *p, const char *opt, const char *text,
             const char *end, unsigned long long min, unsigned long long max,
             unsigned long long *value)
{
  const char *stop = end ? end : text + strlen (text);
  int len = (int) (stop - text);
  if (negative_whole (text, stop))
    return parse_fail (p, "%s: '%.*s' must be at least %llu", opt, len, text,
                       min);
  if (stop == text || !isdigit ((unsigned char) text[0]))
    return parse_fail (p, "%s: '%.*s' is not a whole number", opt, len, text);
  errno = 0;
  char *tail;
  unsigned long long v = strtoull (text, &tail, 10);
  if (tail != stop)
    return parse_fail (p, "%s: '%.*s' is not a whole number", opt, len, text);
  if (errno == ERANGE || v > max)
    return parse_fail (p, "%s: '%.*s' is too large (at most %llu)", opt, len, text,
                 max);
  if (v < min)
    return parse_fail (p, "%s: '%.*s' must be at least %llu", opt, len, text, min);
  *value = v;
  return true;
}

/* A count of cells or steps: at least 1.  */
bool
parse_count (struct parser *p, const char *opt, const char *text,
             const char *end, size_t *value)
{
  unsigned long long v;
  if (!parse_whole (p, opt, text, end, 1, SIZE_MAX, &v))
    return false;
  *value = (size_t) v;
  return true;
}

bool
is_hexadecimal (const char *text, const char *stop)
{
  if (text < stop && (text[0] == '+' || text[0] == '-'))
    ++text;
  return stop - text >= 2 && text[0] == '0'
         && (text[1] == 'x' || text[1] == 'X');
}

/* A finite real number in decimal, read from text up to end (NULL: the
   whole string).  Subnormal underflow is out of range too (heatsim's
   sums and ratios of such numbers lose their digits, and subnormal
   arithmetic is slow), each case said so.  */
bool
parse_real (struct parser *p, const char *opt, const char *text,
            const char *end, double *value)
{
  const char *stop = end ? end : text + strlen (text);
  int len = (int) (stop - text);
  if (stop == text || isspace ((unsigned char) text[0])
      || is_hexadecimal (text, stop))
    return parse_fail (p, "%s: '%.*s' is not a number", opt, len, text);
  errno = 0;
  char *tail;
  double v = strtod (text, &tail);
  if (tail != stop)
    return parse_fail (p, "%s: '%.*s' is not a number", opt, len, text);
  if (errno == ERANGE || !isfinite (v))
    return parse_fail (p, "%s: '%.*s' is out of range (%s)", opt, len, text,
                       errno != ERANGE ? "not a finite number"
                       : isinf (v) ? "beyond double's largest magnitude, "
                                     "about 1.8e308"
                       : "below double's smallest normal magnitude, about "
                         "2.2e-308: give 0 or a larger one");
  *value = v;
  return true;
}

/* A finite real number > 0.  */
bool
parse_positive (struct parser *p, const char *opt, const char *text,
                const char *end, double *value)
{
  if (!parse_real (p, opt, text, end, value))
    return false;
  if (!(*value > 0.0))
    return parse_fail (p, "%s: '%.*s' must be greater than zero", opt,
                 (int) ((end ? end : text + strlen (text)) - text), text);
  return true;
}

/* Between min and max comma-separated real numbers; returns how many, or
   0 after an error.  */
size_t
parse_reals (struct parser *p, const char *opt, const char *text,
             size_t min, size_t max, double *values)
{
  size_t n = 0;
  for (const char *item = text;; ++n)
    {
      const char *comma = strchr (item, ',');
      if (n == max)
        return parse_fail (p, "%s: '%s' has more than %zu values", opt, text, max);
      if (!parse_real (p, opt, item, comma, &values[n]))
        return 0;
      if (comma == NULL)
        break;
      item = comma + 1;
    }
  if (++n < min)
    return parse_fail (p, "%s: '%s' has fewer than %zu values", opt, text, min);
  return n;
}

/* "N" or "NxM" (also "NXM"): a pair of counts, the second defaulting to the
   first.  */
bool
parse_count_pair (struct parser *p, const char *opt, const char *text,
                  size_t *a, size_t *b)
{
  const char *x = strpbrk (text, "xX");
  if (x == NULL)
    {
      if (!parse_count (p, opt, text, NULL, a))
        return false;
      *b = *a;
      return true;
    }
  if (!parse_count (p, opt, text, x, a) || !parse_count (p, opt, x + 1, NULL, b))
    return parse_fail (p, "%s: '%s' is not of the form N or NXxNY, with whole "
                 "numbers of at least 1", opt, text);
  return true;
}

bool
parse_length_pair (struct parser *p, const char *opt, const char *text,
                   double *a, double *b)
{
  /* 'x' cannot occur in a decimal number (hex floats aside, which a length
     has no business being), so the first one separates the two.  */
  const char *x = strpbrk (text, "xX");
  if (x == NULL)
    {
      if (!parse_positive (p, opt, text, NULL, a))
        return false;
      *b = *a;
      return true;
    }
  if (!parse_positive (p, opt, text, x, a)
      || !parse_positive (p, opt, x + 1, NULL, b))
    return parse_fail (p, "%s: '%s' is not of the form L or LXxLY, with numbers "
                 "greater than zero", opt, text);
  return true;
}

/* LO,HI with LO < HI.  */
bool
parse_range (struct parser *p, const char *opt, const char *text,
             double range[2])
{
  if (parse_reals (p, opt, text, 2, 2, range) != 2)
    return false;
  return range[0] < range[1]
         || parse_fail (p, "%s: '%s': the first value must be below the second",
                  opt, text);
}

void
format_real (char *buf, size_t len, double v)
{
  for (int digits = 1; digits <= 17; ++digits)
    {
      snprintf (buf, len, "%.*g", digits, v);
      if (strtod (buf, NULL) == v)
        return;
    }
}
