#include <config.h>

#include "pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Where the step conversion of a valid pattern starts and its width.  */
static const char *
find_conversion (const char *pattern, int *width)
{
  const char *conv = NULL;
  for (const char *p = pattern; *p; ++p)
    {
      if (*p == '/')
        return NULL;
      if (*p != '%')
        continue;
      if (p[1] == '%')
        {
          ++p;
          continue;
        }
      if (conv != NULL)
        return NULL;                   /* a second conversion */
      const char *q = p + 1;
      int w = 0;
      while (isdigit ((unsigned char) *q) && w <= 20)
        w = 10 * w + (*q++ - '0');
      if (*q != 'd' || w > 20)
        return NULL;
      conv = p;
      *width = w;
      p = q;
    }
  return conv;
}

bool
pattern_ok (const char *pattern)
{
  int width;
  return find_conversion (pattern, &width) != NULL;
}

/* Append text[0..n) to buf with '%%' turned into '%'.  */
static bool
append_literal (char **out, char *end, const char *text, size_t n)
{
  for (size_t k = 0; k < n; ++k)
    {
      if (text[k] == '%')
        ++k;                           /* '%%' */
      if (*out + 1 >= end)
        return false;
      *(*out)++ = text[k];
    }
  return true;
}

bool
pattern_name (char *buf, size_t len, const char *dir, const char *pattern,
             size_t step)
{
  int width = 0;
  const char *conv = find_conversion (pattern, &width);
  int n = snprintf (buf, len, "%s/", dir);
  if (conv == NULL || n < 0 || (size_t) n >= len)
    return false;
  char *out = buf + n, *end = buf + len;
  if (!append_literal (&out, end, pattern, (size_t) (conv - pattern)))
    return false;
  n = snprintf (out, (size_t) (end - out), "%0*zu", width, step);
  if (n < 0 || n >= end - out)
    return false;
  out += n;
  const char *rest = strchr (conv, 'd') + 1;
  if (!append_literal (&out, end, rest, strlen (rest)))
    return false;
  *out = '\0';
  return true;
}
