/* The initial field from a file: a checkpoint to continue (--restart),
   whose settings then complete the configuration under the same rules
   as the command line's, or a field to start from (--init: an HDF5
   dataset or a PNG image).  */
#ifndef HEATSIM_INITIAL_H
#define HEATSIM_INITIAL_H

struct config;
struct field;

/* Read the initial field named by --restart or --init into u (allocated
   here) and complete cfg from it (derive.h).  Returns 0 or a
   heatsim_status, after printing the message; u is then freed.  */
int load_initial (struct config *cfg, struct field *u);

#endif
