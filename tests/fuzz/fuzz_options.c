/* libFuzzer target: the option parser.  The input is split at NUL bytes
   into arguments; options_parse must return a verdict, never crash, and
   write a terminated message on error.  */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum { MAX_ARGS = 32 };

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *copy = malloc (size + 1);
  if (copy == NULL)
    return 0;
  memcpy (copy, data, size);
  copy[size] = '\0';
  char *argv[MAX_ARGS + 2] = { (char *) "heatsim" };
  int argc = 1;
  for (char *p = copy; p <= copy + size && argc <= MAX_ARGS;
       p += strlen (p) + 1)
    argv[argc++] = p;
  argv[argc] = NULL;

  struct config cfg;
  char err[512];
  if (options_parse (argc, argv, &cfg, err, sizeof err) == OPTIONS_ERROR
      && strlen (err) >= sizeof err)
    abort ();
  options_free (&cfg);
  free (copy);
  return 0;
}
