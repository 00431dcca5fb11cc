/* Exit statuses of heatsim.  Only main() turns them into an exit code; every
   other function returns one of them (or 0) to its caller.  */
#ifndef HEATSIM_STATUS_H
#define HEATSIM_STATUS_H

enum heatsim_status {
  HEATSIM_OK = 0,          /* the run completed */
  HEATSIM_FAILURE = 1,     /* a run-time failure: memory, I/O */
  HEATSIM_USAGE = 2,       /* bad command line */
  HEATSIM_NO_DEVICE = 3,   /* an offload device was required but absent */
  HEATSIM_NOT_CONVERGED = 4, /* --steady: --max-steps reached first */
  HEATSIM_NOT_FINITE = 5,  /* the field became NaN or infinite */
  HEATSIM_INTERRUPTED = 128  /* plus the signal number: SIGINT, SIGTERM */
};

#endif
