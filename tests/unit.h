/* A minimal unit-test harness for the Automake test driver: CHECK records
   a failure with its line and carries on; unit_exit() turns the count into
   the exit status (0 pass, 1 fail).  */
#ifndef HEATSIM_UNIT_H
#define HEATSIM_UNIT_H

#include <stdio.h>
#include <stdlib.h>

#include "offload_images.h"

static int unit_failures, unit_checks;

#define CHECK(cond)                                                        \
  do {                                                                     \
    ++unit_checks;                                                         \
    if (!(cond))                                                           \
      {                                                                    \
        ++unit_failures;                                                   \
        fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
                 #cond);                                                   \
      }                                                                    \
  } while (0)

static inline int
unit_exit (void)
{
  offload_images_remove ();
  printf ("%d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
