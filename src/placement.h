/* Where the kernels run: the offload devices there are, the device the
   target regions name, the strategy --offload auto chooses, and the
   checks that the choice can work (a device that is there, a kernel
   form it runs, memory for the grids) before any memory is mapped.  */
#ifndef HEATSIM_PLACEMENT_H
#define HEATSIM_PLACEMENT_H

struct config;
struct domain;
struct placement;

/* --list-devices: the offload devices and where their target regions
   run, on stdout.  Returns 0 or a heatsim_status, after a message where
   the offload runtime could not load their code
   (offload_images_writable).  */
int list_devices (void);

/* Choose the device the target regions name, the strategy if it is
   automatic (set in cfg), and find out from inside a target region where
   they really run (where).  Ranks of an MPI run on one node take the
   node's devices in turn.  Returns 0 or a heatsim_status, after printing
   the message.  */
int place_kernels (struct config *cfg, const struct domain *d,
                   struct placement *where);

#endif
