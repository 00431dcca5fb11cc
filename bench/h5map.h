/* Two-dimensional double datasets in HDF5 files, shaped (ny, nx) like
   heatsim's checkpoints' /field and its --material-map datasets (y
   first, x contiguous): what bench/contrast_maps writes and
   bench/hypre_bench reads and writes.  Plain HDF5 (high-level lite
   interface), nothing of heatsim's, so that the bench's references stay
   independent of the program they check.  */
#ifndef HEATSIM_BENCH_H5MAP_H
#define HEATSIM_BENCH_H5MAP_H

#include <stdbool.h>
#include <stddef.h>

/* Dataset NAME of the HDF5 file PATH, which must be a rank-2 numeric
   dataset: a malloc'd array of *ny rows of *nx doubles.  NULL after a
   one-line message naming the file and what is wrong in msg.  */
double *h5map_read (const char *path, const char *name, size_t *nx,
                    size_t *ny, char *msg, size_t msg_size);

/* A new file PATH holding data as dataset NAME, (ny, nx) doubles, and the
   string attribute "description" on its root.  The file is written under
   PATH.part and renamed, so a failure leaves no file PATH.  false after a
   one-line message in msg.  */
bool h5map_write (const char *path, const char *name, const double *data,
                  size_t nx, size_t ny, const char *description, char *msg,
                  size_t msg_size);

#endif
