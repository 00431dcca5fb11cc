/* Everything heatsim tells its user: error messages, progress on stderr,
   and the summary of a run on stdout (text, or JSON for scripts).  */
#ifndef HEATSIM_REPORT_H
#define HEATSIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "problem.h"
#include "solver.h"

struct config;

/* "heatsim: <message>" on stderr.  */
void heatsim_error (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
/* In an MPI run, print the message this rank kept back (see
   domain_agree).  */
void heatsim_error_flush (void);

/* Progress of a long run, on stderr, at most every few seconds.  */
struct progress {
  bool enabled;
  size_t steps;
  double start, last;
};

void progress_start (struct progress *p, bool enabled, size_t steps);
/* residual < 0: none known (time-dependent runs).  */
void progress_update (struct progress *p, size_t step, double residual);
void progress_finish (const struct progress *p);

/* Where the kernels ran, as found out at run time.  */
struct placement {
  bool on_device;          /* false: host threads, by choice or fallback */
  int device;              /* the device number the target regions named */
  int num_devices;
  int threads;             /* OpenMP threads on the host */
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
