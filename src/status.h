/* Statuses of heatsim's fallible functions (see the convention in
   diagnostics.h).  Each kind of failure has its own status; main() alone
   maps them onto the documented exit codes: 1 for failures during the
   run, 2 for anything the user named that cannot be used.  */
#ifndef HEATSIM_STATUS_H
#define HEATSIM_STATUS_H

enum heatsim_status {
  HEATSIM_OK = 0,            /* the run completed */
  HEATSIM_USAGE = 2,         /* bad command line (exit 2, with a hint) */
  HEATSIM_NO_DEVICE = 3,     /* an offload device was required but absent */
  HEATSIM_NOT_CONVERGED = 4, /* --steady: --max-steps reached first */
  HEATSIM_NOT_FINITE = 5,    /* the field became NaN or infinite */
  HEATSIM_BAD_FILE,          /* an input file or output directory the user
                                named cannot be used (exit 2) */
  HEATSIM_TOO_LARGE,         /* the grid does not fit in host or device
                                memory, found before the run (exit 2) */
  HEATSIM_NO_MEMORY,         /* an allocation failed during the run (exit 1) */
  HEATSIM_WRITE_FAILED,      /* an output file or the report could not be
                                written (exit 1) */
  HEATSIM_INTERRUPTED = 128  /* plus the signal number: SIGINT, SIGTERM */
};

#endif
