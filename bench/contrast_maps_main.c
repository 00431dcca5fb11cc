/* contrast_maps KIND N CONTRAST OUT.h5: an N x N conductivity map of
   issue 23's robustness figures (contrast_maps.h describes the kinds) as
   an HDF5 material map, dataset `conductivity` of (N, N) doubles, which
   heatsim --material-map and bench/hypre_bench read.  Prints the map's
   share of high-conductivity nodes (all of them at contrast 1).  Exit
   status 0, 1 when the file cannot be written, 2 for a bad command
   line.  */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "contrast_maps.h"
#include "h5map.h"

/* Large enough for 4096^2 and beyond, small enough that N * N doubles
   cannot overflow size_t.  */
#define N_MAX 65536

static int
usage_error (const char *what, const char *value)
{
  fprintf (stderr, "contrast_maps: %s '%s'\n"
           "usage: contrast_maps layered|checkerboard|disks|disks-inverse "
           "N CONTRAST OUT.h5\n", what, value);
  return 2;
}

int
main (int argc, char **argv)
{
  if (argc != 5)
    return usage_error ("needs 4 arguments, got", argc > 1 ? argv[1] : "");
  const enum contrast_kind kind = contrast_kind_parse (argv[1]);
  if (kind == CONTRAST_KIND_COUNT)
    return usage_error ("unknown map kind", argv[1]);
  char *end;
  errno = 0;
  const unsigned long n = strtoul (argv[2], &end, 10);
  if (errno != 0 || *end != '\0' || argv[2][0] == '-' || n < 1 || n > N_MAX)
    return usage_error ("N must be a whole number from 1 to 65536, not",
                        argv[2]);
  const double contrast = strtod (argv[3], &end);
  if (*end != '\0' || end == argv[3] || !isfinite (contrast)
      || contrast <= 0.0)
    return usage_error ("CONTRAST must be a positive finite number, not",
                        argv[3]);

  double *k = malloc ((size_t) n * n * sizeof *k);
  if (k == NULL)
    {
      fprintf (stderr, "contrast_maps: no memory for %lu x %lu nodes\n",
               n, n);
      return 1;
    }
  contrast_map_fill (kind, n, n, contrast, k);
  size_t high = 0;
  for (size_t c = 0; c < (size_t) n * n; ++c)
    high += k[c] == contrast;

  char description[256], msg[4200];
  snprintf (description, sizeof description,
            "bench/contrast_maps %s %lu %.17g: k 1 and %.17g, blocks %d, "
            "%d disks from SplitMix64 seed %llu", argv[1], n, contrast,
            contrast, CONTRAST_BLOCK, CONTRAST_DISK_COUNT,
            (unsigned long long) CONTRAST_DISK_SEED);
  const bool ok = h5map_write (argv[4], "conductivity", k, n, n,
                               description, msg, sizeof msg);
  free (k);
  if (!ok)
    {
      fprintf (stderr, "contrast_maps: %s\n", msg);
      return 1;
    }
  printf ("%s: %s %lux%lu, contrast %g, high-k share %.4f\n", argv[4],
          argv[1], n, n, contrast, (double) high / ((double) n * n));
  return 0;
}
