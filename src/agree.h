/* The ranks of an MPI run must all run the same simulation: an MPMD
   launch (mpiexec ... : ...) or node-local copies of one input path can
   give them different options or input files, which would otherwise mix
   fields silently, hang in a collective operation or abort inside MPI.
   Without MPI there is one process and nothing to agree on.  */
#ifndef HEATSIM_AGREE_H
#define HEATSIM_AGREE_H

struct config;

/* Check, before anything else of the run, that every rank holds the
   options of rank 0, as given (a value spelled otherwise differs), and
   input files (--init, --restart, --material-map, --source-map) of the
   same contents (the names may differ).  Rank-local options may differ:
   --device and --require-device (each rank's own device), and -q,
   --progress-every and --json (only rank 0 prints).  Collective over
   all ranks; every rank returns the same status: 0, or HEATSIM_USAGE
   (options) or HEATSIM_BAD_FILE (inputs) with one message from the first
   rank that differs, naming the option or file.  */
int agree_across_ranks (const struct config *cfg);

#endif
