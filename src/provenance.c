#include "provenance.h"

#include <stdlib.h>
#include <string.h>

/* Characters that a POSIX shell reads as themselves outside quotes.  */
static int
needs_quotes (const char *s)
{
  if (*s == '\0')
    return 1;
  return s[strspn (s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                   "0123456789@%+=:,./_-")] != '\0';
}

/* Bytes of s single-quoted: each ' becomes '\'' .  */
static size_t
quoted_length (const char *s)
{
  size_t n = 2;
  for (; *s; s++)
    n += *s == '\'' ? 4 : 1;
  return n;
}

static char *
append_quoted (char *out, const char *s)
{
  if (!needs_quotes (s))
    {
      size_t n = strlen (s);
      memcpy (out, s, n);
      return out + n;
    }
  *out++ = '\'';
  for (; *s; s++)
    if (*s == '\'')
      {
        memcpy (out, "'\\''", 4);
        out += 4;
      }
    else
      *out++ = *s;
  *out++ = '\'';
  return out;
}

int
provenance_init (struct provenance *p, int argc, char *const argv[],
                 const char *version, const char *device_code,
                 const char *mpi)
{
  p->version = version;
  p->device_code = device_code;
  p->mpi = mpi;
  p->case_text = NULL;
  size_t length = 1;
  for (int i = 0; i < argc; i++)
    length += quoted_length (argv[i]) + 1;
  p->command_line = malloc (length);
  if (p->command_line == NULL)
    return -1;
  char *out = p->command_line;
  for (int i = 0; i < argc; i++)
    {
      if (i > 0)
        *out++ = ' ';
      out = append_quoted (out, argv[i]);
    }
  *out = '\0';
  return 0;
}

void
provenance_free (struct provenance *p)
{
  free (p->command_line);
  p->command_line = NULL;
  free (p->case_text);
  p->case_text = NULL;
}
