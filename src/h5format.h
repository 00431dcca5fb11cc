/* What heatsim's checkpoint writer and reader agree on: the names of the
   format and of the --edges and --bc attributes.  Both use libhdf5.  */
#ifndef HEATSIM_H5FORMAT_H
#define HEATSIM_H5FORMAT_H

#include <hdf5.h>

#include "field.h"

/* Format 2 (issue 15) labels the field for netCDF-4 and xarray and
   writes its strings variable-length: heatsim 0.1.0 before it cannot read
   them.  Format 1 files have the same datasets and attributes, with
   fixed-length strings; they still restart.  */
#define CHECKPOINT_FORMAT "heatsim-checkpoint-2"
#define CHECKPOINT_FORMAT_1 "heatsim-checkpoint-1"

/* The attribute that holds the --edges value of edge e.  */
static inline const char *
h5_edge_attribute (enum edge e)
{
  static const char *const names[EDGE_COUNT] = {
    [EDGE_LEFT] = "edge_left", [EDGE_RIGHT] = "edge_right",
    [EDGE_BOTTOM] = "edge_bottom", [EDGE_TOP] = "edge_top",
  };
  return names[e];
}

/* The attribute that holds the --bc SPEC of edge e.  */
static inline const char *
h5_bc_attribute (enum edge e)
{
  static const char *const names[EDGE_COUNT] = {
    [EDGE_LEFT] = "bc_left", [EDGE_RIGHT] = "bc_right",
    [EDGE_BOTTOM] = "bc_bottom", [EDGE_TOP] = "bc_top",
  };
  return names[e];
}

/* HDF5 prints a stack trace on every error by default; heatsim prints one
   line of its own instead.  */
static inline void
h5_quiet (void)
{
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
}

#endif
