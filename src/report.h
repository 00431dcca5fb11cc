/* The summary of a run on stdout: text for people, or one JSON object
   for scripts.  */
#ifndef HEATSIM_REPORT_H
#define HEATSIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "heat_rates.h"
#include "probes.h"
#include "problem.h"
#include "solver.h"

struct config;
struct provenance;

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
  double heat_magnitude;   /* sum of |rho c_p u V| at the end, what the
                              rounding of heat is relative to */
  double largest_initial;  /* largest |u| of the initial interior */
  double min, max;         /* range of the final field's interior */
  struct peak peak;        /* its largest value, where, and its mean */
  struct heat_budget budget;   /* of the final field: the heat rates
                                  through the edges, sources, face
                                  cooling, the stored heat's rate */
  uint64_t checksum;
  size_t peak_memory;      /* largest resident set of the process, bytes */
  int ranks;               /* MPI ranks (1 without MPI) */
  int dims[2];             /* ranks along x and y */
};

/* How a run ended, as every JSON object says: its heatsim_status, the
   exit status main() gives it, and the message that went to stderr
   (NULL when the run succeeded).  */
struct run_outcome {
  int status;
  int exit_status;
  const char *error;
};

/* The version of the JSON report's keys and their meaning (man page,
   JSON REPORT): 1 from the report with status and provenance on.  Raise
   it when a key is removed or renamed, or its type, unit or meaning
   changes; added keys leave it alone.  */
#define REPORT_SCHEMA_VERSION 1

/* What a multigrid solve of cfg counts: the black box multigrid's
   "PCG iterations", the geometric one's "V-cycles".  */
const char *report_iterations (const struct config *cfg);

/* imbalance_relative: |imbalance| over the budget's largest term, 0
   where it is within the rounding of the total heat in the last step
   (heat_rounding_rate of heat_magnitude; none at a steady state), and
   0 for a steady state whose field is uniform to 1e-8 of its largest
   value, which nothing drives, so that its edge rates are what the
   solver's last bits leave (1 to 3 of the largest of them apart), or,
   without a source, to 1e-8 of the initial field's largest value (the
   steady state 0 of edges at 0: what the solver leaves of the initial
   field flows out, 4 of the largest rate whatever --rtol).  */
double report_imbalance_relative (const struct config *cfg,
                                  const struct run_report *r);

void report_print (FILE *out, const struct config *cfg,
                   const struct run_report *r);
/* The whole report of a run that finished (status ok or not_converged).  */
void report_json (FILE *out, const struct config *cfg,
                  const struct run_report *r, const struct run_outcome *end);
/* The object of a run that failed before it had a report: status, error
   and provenance (p may lack its command line, NULL after running out of
   memory).  */
void report_json_failure (FILE *out, const struct provenance *p,
                          const struct run_outcome *end);

#endif
