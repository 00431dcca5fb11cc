/* The checkpoint and dataset reader, in this process: the caller has made
   sure that libhdf5 survives reading the file (h5io.h's readers probe
   foreign files first).  Sealed files are checked against their seal
   before libhdf5 opens them.  */
#ifndef HEATSIM_H5READ_H
#define HEATSIM_H5READ_H

#include <stdbool.h>

#include "h5io.h"

/* As h5_read_checkpoint and h5_read_dataset (h5io.h), unprobed.  */
int h5read_checkpoint (const char *path, struct checkpoint_meta *meta,
                       struct field *u);
int h5read_dataset (const char *path, const char *dataset, struct field *u);

/* As h5_read_grid, h5_map_shape and h5_read_integers (h5io.h),
   unprobed.  */
bool h5read_grid (const char *path, const char *dataset, struct field *u,
                  bool *absent, char *msg, size_t len);
bool h5read_shape (const char *path, const char *dataset, bool integers,
                   size_t *nx, size_t *ny, bool *absent, char *msg,
                   size_t len);
bool h5read_integers (const char *path, const char *dataset, size_t grids,
                      struct h5_integers *k, bool *absent, char *msg,
                      size_t len);

/* As h5_read_meta (h5io.h), unprobed, and without checking the seal
   (which reads the whole file).  */
bool h5read_meta (const char *path, struct checkpoint_meta *meta);

/* Whether the HDF5 file at path has a heatsim checkpoint's "format"
   attribute.  */
bool h5read_has_format (const char *path);

#endif
