/* The summary of a run on stdout: text for people, or one JSON object
   for scripts.  */
#ifndef HEATSIM_REPORT_H
#define HEATSIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "problem.h"
#include "solver.h"

struct config;

/* Where the kernels ran, as found out at run time.  */
struct placement {
  bool on_device;          /* false: host threads, by choice or fallback */
  int device;              /* the device number the target regions named */
  int num_devices;
  int threads;             /* OpenMP threads on the host */
  bool automatic;          /* --offload auto chose the strategy ... */
  const char *reason;      /* ... for this reason */
};

struct run_report {
  struct placement where;
  struct run_result run;
  bool has_exact;          /* error holds the distance to the exact solution */
  struct error_norms error;
  double heat_initial;     /* sum of u dx dy over the interior at the start */
  double heat;             /* the same at the end */
  double min, max;         /* range of the final field's interior */
  uint64_t checksum;
  size_t peak_memory;      /* largest resident set of the process, bytes */
  int ranks;               /* MPI ranks (1 without MPI) */
  int dims[2];             /* ranks along x and y */
};

void report_print (FILE *out, const struct config *cfg,
                   const struct run_report *r);
void report_json (FILE *out, const struct config *cfg,
                  const struct run_report *r);

#endif
