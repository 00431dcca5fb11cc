/* HDF5 checkpoints: one file holds the interior field, the boundary values
   in the halo ring, and as attributes everything needed to continue the
   run and to interpret it.  It is also a netCDF-4 file that xarray opens
   as a (y, x) field with coordinates.  Layout (h5dump shows it):
     /field             float64 [ny][nx], chunked, optionally deflated;
                        field[j][i] is the node at x[i], y[j];
                        dimension scales y, x attached; attributes units
                        (the temperature_unit), long_name, coordinates
                        ("time step")
     /x, /y             float64 [nx], [ny]: the node coordinates
                        (run_config.h), dimension scales; units "m"
                        (SI) or "1" (nondimensional): x[i] = (i+1) dx
                        where the left edge is Dirichlet (its nodes are
                        the halo's), i dx otherwise (node 0 lies on the
                        edge); dx = Lx / (nx + 1) with two Dirichlet
                        edges, Lx / nx with one or a periodic axis,
                        Lx / (nx - 1) with none; likewise y
     /time, /step       scalars: float64 simulated time (units "s" or
                        "1"), uint64 step (units "1")
     /boundary/left     float64 [ny]   (x = 0 where Dirichlet, else
                                        the halo one dx outside)
     /boundary/right    float64 [ny]   (x = Lx, likewise)
     /boundary/bottom   float64 [nx]   (y = 0, likewise)
     /boundary/top      float64 [nx]   (y = Ly, likewise)
     /conductivity, /volumetric_heat_capacity, /source
                        float64 [ny][nx] like /field, when the material
                        varies or a source is given (issue 23): k,
                        rho c_p and q of each node
     attributes of /:   format, Conventions, heatsim_version, problem,
                        boundary, step, time, dt, alpha, nx, ny, dx, dy,
                        lx, ly, steady, checksum, colour_lo, colour_hi,
                        temperature_unit ("K", "degC" or "1"),
                        scheme (time-dependent runs) or solver,
                        initial_residual and initial_largest (steady
                        runs), for --edges runs
                        edge_left, edge_right, edge_bottom, edge_top,
                        each edge's condition where an option gave it
                        (--bc's SPEC: bc_left, bc_right, bc_bottom,
                        bc_top), source_schedule, thickness and
                        surface_convection where given, and
                        the provenance: command_line, device_code, mpi
   Strings are variable-length UTF-8.  */
#ifndef HEATSIM_H5IO_H
#define HEATSIM_H5IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "field.h"

struct material;
struct provenance;

/* The longest condition text a checkpoint records (two file names).  */
#define CHECKPOINT_SPEC_MAX 8256

/* Everything a checkpoint says about its run.  */
struct checkpoint_meta {
  char problem[32];
  char boundary[32];
  /* Written: the kinds of the edges, which place the nodes (the
     coordinates /x, /y and the attributes dx, dy).  */
  enum boundary_kind kind[EDGE_COUNT];
  size_t step;
  double time, dt, alpha;
  size_t nx, ny;
  double lx, ly;
  bool steady;
  /* Since 0.1.0's issue-14 fixes; older checkpoints lack them.  */
  bool edges_given;           /* --edges fixed the boundary values ... */
  double edges[EDGE_COUNT];   /* ... to these */
  bool range_known;           /* the values at the ends of the colour map of
                                 the run's images are known ... */
  double range[2];            /* ... and these */
  /* Since the multigrid options; older checkpoints are explicit, and
     steady ones Jacobi.  */
  char scheme[32];            /* --scheme of a time-dependent run */
  char solver[32];            /* --solver of a steady run */
  double initial_residual;    /* steady multigrid: the residual norm the
                                 run started from (--rtol is relative to
                                 it); 0 otherwise */
  double initial_largest;     /* steady: the largest |u| of the field the
                                 run started from, against which its
                                 report weighs a uniform end */
  bool initial_largest_known; /* older checkpoints lack it */
  /* Since issue 25: the unit of the field, "K" or "degC" for an SI
     run, "1" for a nondimensional one (and older checkpoints).  */
  char temperature_unit[8];
  /* Written, not read: the command line and build, or NULL.  */
  const struct provenance *provenance;
  /* Issue 23.  Written: the run's material, whose fields (this rank's
     part) go into datasets conductivity, volumetric_heat_capacity and
     source (where there is one) when it varies; NULL or uniform: none.
     Read: whether the checkpoint has those datasets.  */
  const struct material *material;
  bool has_material, has_source;
  /* A uniform SI material (--conductivity, --density, --heat-capacity
     without a map, source or anything else that makes it vary) has no
     fields: its three values, written where given, read where present
     (older checkpoints record only its alpha).  */
  bool uniform_given;
  double conductivity, density, heat_capacity;
  /* Issue 24: the conditions as the options give them: each edge's
     --bc SPEC ("" where it keeps the problem's own temperatures, and in
     older checkpoints, whose boundary gives all four edges' kind), the
     --source-schedule file (""), the face cooling (thickness 0: none)
     and its --surface-convection H,TINF.  */
  char bc[EDGE_COUNT][CHECKPOINT_SPEC_MAX];
  char source_schedule[CHECKPOINT_SPEC_MAX];
  double thickness;
  char surface_convection[CHECKPOINT_SPEC_MAX];
};

/* Write u, this rank's part of the field, and meta to path, atomically:
   one file, the same whatever the number of ranks, written by rank 0
   (all ranks take part).  It starts with a 512-byte user block holding a
   checksum of the rest, which the readers check before libhdf5 reads the
   file.  compress: deflate level 0-9.  Returns 0, or on every rank after
   a message naming the file, HEATSIM_WRITE_FAILED.  */
struct domain;
int h5_write_checkpoint (const char *path, const struct domain *d,
                          const struct field *u,
                          const struct checkpoint_meta *meta, int compress);

/* Read a heatsim checkpoint: allocates u (halo from /boundary).  Returns
   0, or after a message naming the file and what was wrong (a checksum
   that does not match included), HEATSIM_BAD_FILE.  */
int h5_read_checkpoint (const char *path, struct checkpoint_meta *meta,
                         struct field *u);

/* Read the attributes of the heatsim checkpoint at path into meta, not
   its field.  False, saying nothing, if path is not a checkpoint that
   can be read.  */
bool h5_read_meta (const char *path, struct checkpoint_meta *meta);

/* Read any 2-D float dataset as a padded field: its outer ring is the
   halo.  Allocates u.  Returns as h5_read_checkpoint.  */
int h5_read_dataset (const char *path, const char *dataset, struct field *u);

/* Read the 2-D floating-point dataset of the HDF5 file at path whole
   into the interior of u (allocated here; its halo 0): dataset[j][i] is
   u's cell (i + 1, j + 1), as a checkpoint's field.  A dataset that is
   not there is no error: *absent, and u has no data.  False, with what
   was wrong in msg (len bytes; the caller names the file), when the
   file or the dataset cannot be read, or the dataset is empty.  */
bool h5_read_grid (const char *path, const char *dataset, struct field *u,
                   bool *absent, char *msg, size_t len);

/* The shape of the 2-D dataset of the HDF5 file at path (of integers
   where integers, else floating point), its values unread: nx columns,
   ny rows; checked as h5_read_grid (h5_read_integers) checks it, so that
   a map of another size than the grid is refused before it is read.  */
bool h5_map_shape (const char *path, const char *dataset, bool integers,
                   size_t *nx, size_t *ny, bool *absent, char *msg,
                   size_t len);

/* The values of a 2-D integer dataset, exact: value[j * nx + i] is
   dataset[j][i], an int64_t where is_signed, else a uint64_t.  */
struct h5_integers {
  size_t nx, ny;
  bool is_signed;
  uint64_t *value;          /* malloc'd; free it */
};

/* As h5_read_grid, for a dataset of integers of up to 64 bits, read
   whole into k without rounding (through a double, 2^53 + 1 is 2^53).
   k->value is NULL where the dataset is absent or on failure.  Refused
   before any value is read where grids grid-sized arrays (the caller's
   with the dataset's) cannot fit in memory.  */
bool h5_read_integers (const char *path, const char *dataset, size_t grids,
                       struct h5_integers *k, bool *absent, char *msg,
                       size_t len);

/* 1 if path is an HDF5 file, 0 if not, -1 if it cannot be read.  */
int h5_is_hdf5 (const char *path);

/* True if the HDF5 file at path has a heatsim checkpoint's layout (or
   the checksummed user block, without opening it with libhdf5).  */
bool h5_is_checkpoint (const char *path);

#endif
