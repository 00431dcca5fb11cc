#include <config.h>

#include "pattern.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the number conversion of a valid pattern starts, its width and
   its letter ('d' or 'f').  */
static const char *
find_conversion (const char *pattern, int *width, char *letter)
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
      if ((*q != 'd' && *q != 'f') || w > 20)
        return NULL;
      conv = p;
      *width = w;
      *letter = *q;
      p = q;
    }
  return conv;
}

enum pattern_kind
pattern_kind (const char *pattern)
{
  int width;
  char letter = 0;
  if (find_conversion (pattern, &width, &letter) == NULL)
    return PATTERN_INVALID;
  return letter == 'f' ? PATTERN_FRAME : PATTERN_STEP;
}

bool
pattern_ok (const char *pattern)
{
  return pattern_kind (pattern) != PATTERN_INVALID;
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
             size_t number)
{
  int width = 0;
  char letter = 0;
  const char *conv = find_conversion (pattern, &width, &letter);
  int n = snprintf (buf, len, "%s/", dir);
  if (conv == NULL || n < 0 || (size_t) n >= len)
    return false;
  char *out = buf + n, *end = buf + len;
  if (!append_literal (&out, end, pattern, (size_t) (conv - pattern)))
    return false;
  /* Zeros whether the pattern wrote the 0 or not (%4d is %04d, as for
     ffmpeg): printf's spaces do not belong in file names.  */
  n = snprintf (out, (size_t) (end - out), "%0*zu", width, number);
  if (n < 0 || n >= end - out)
    return false;
  out += n;
  const char *rest = strchr (conv, letter) + 1;
  if (!append_literal (&out, end, rest, strlen (rest)))
    return false;
  *out = '\0';
  return true;
}

/* The names a pattern can give, as a sequence of symbols: a character
   code (>= 0), one digit, or any number of digits.  The conversion, step
   or frame alike, is one digit followed by any number: its zero padding
   only chooses among digit strings.  */
enum { ONE_DIGIT = -1, MORE_DIGITS = -2 };

/* The symbols of a valid pattern into sym (room for strlen + 1); returns
   how many.  */
static size_t
symbols (const char *pattern, int *sym)
{
  int width;
  char letter = 0;
  const char *conv = find_conversion (pattern, &width, &letter);
  const char *rest = strchr (conv, letter) + 1;
  size_t n = 0;
  for (const char *p = pattern; *p; ++p)
    {
      if (p == conv)
        {
          sym[n++] = ONE_DIGIT;
          sym[n++] = MORE_DIGITS;
          p = rest - 1;
          continue;
        }
      if (*p == '%')
        ++p;                           /* '%%' */
      sym[n++] = (unsigned char) *p;
    }
  return n;
}

static bool
is_digit_symbol (int s)
{
  return s == ONE_DIGIT || s == MORE_DIGITS || (s >= '0' && s <= '9');
}

/* Whether symbols x and y can stand for the same character.  */
static bool
compatible (int x, int y)
{
  if (x >= 0 && y >= 0)
    return x == y;
  return is_digit_symbol (x) && is_digit_symbol (y);
}

bool
pattern_overlap (const char *a, const char *b)
{
  if (!pattern_ok (a) || !pattern_ok (b))
    return false;
  const size_t la = strlen (a) + 1, lb = strlen (b) + 1;
  int *sa = malloc (la * sizeof *sa), *sb = malloc (lb * sizeof *sb);
  /* A walk over the pairs of positions (i, j) both patterns can reach
     reading the same name: they overlap if the ends meet.  Each pair is
     expanded once and pushes at most three.  */
  bool *seen = calloc (la * lb, sizeof *seen);
  size_t *stack = malloc ((3 * la * lb + 1) * sizeof *stack);
  bool meet = sa == NULL || sb == NULL || seen == NULL || stack == NULL;
  if (meet)                  /* no memory: say yes, the cautious answer */
    goto done;
  const size_t na = symbols (a, sa), nb = symbols (b, sb);
  size_t top = 0;
  stack[top++] = 0;
  while (top > 0 && !meet)
    {
      const size_t state = stack[--top], i = state / lb, j = state % lb;
      if (seen[state])
        continue;
      seen[state] = true;
      if (i == na && j == nb)
        meet = true;
      /* Any number of digits may be none; or both read one character.  */
      if (i < na && sa[i] == MORE_DIGITS)
        stack[top++] = (i + 1) * lb + j;
      if (j < nb && sb[j] == MORE_DIGITS)
        stack[top++] = i * lb + j + 1;
      if (i < na && j < nb && compatible (sa[i], sb[j]))
        {
          const size_t ni = sa[i] == MORE_DIGITS ? i : i + 1;
          const size_t nj = sb[j] == MORE_DIGITS ? j : j + 1;
          if (ni != i || nj != j)
            stack[top++] = ni * lb + nj;
        }
    }
done:
  free (sa);
  free (sb);
  free (seen);
  free (stack);
  return meet;
}

bool
pattern_match (const char *pattern, const char *name, size_t *number)
{
  int width;
  char letter;
  const char *conv = find_conversion (pattern, &width, &letter);
  if (conv == NULL)
    return false;
  /* The digits sit after the pattern's literal prefix; the number they
     spell must give back exactly this name.  */
  size_t prefix = 0;
  for (const char *p = pattern; p < conv; ++p, ++prefix)
    p += *p == '%';
  if (strlen (name) <= prefix || !isdigit ((unsigned char) name[prefix]))
    return false;
  size_t s = 0;
  for (const char *d = name + prefix; isdigit ((unsigned char) *d); ++d)
    {
      if (s > (SIZE_MAX - 9) / 10)
        return false;
      s = 10 * s + (size_t) (*d - '0');
    }
  char buf[4096];
  if (!pattern_name (buf, sizeof buf, ".", pattern, s)
      || strcmp (buf + 2, name) != 0)
    return false;
  *number = s;
  return true;
}
