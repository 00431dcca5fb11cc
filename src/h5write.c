/* The checkpoint writer: the field, its boundary values and the run's
   settings as an HDF5 file that is also a CF-labelled netCDF-4 file,
   built in memory, sealed and written atomically by rank 0.  */
#include <config.h>

#include "h5io.h"

#include <errno.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "diagnostics.h"
#include "domain.h"
#include "h5format.h"
#include "h5image.h"
#include "material.h"
#include "provenance.h"
#include "run_config.h"
#include "seal.h"
#include "utf8.h"
#include "status.h"

/* What the file's layout follows, for netCDF and CF readers.  */
#define CONVENTIONS "CF-1.8"
enum { CHUNK_SIDE = 256 };


static bool
put_attr (hid_t loc, const char *name, hid_t type, const void *value)
{
  hid_t space = H5Screate (H5S_SCALAR);
  hid_t attr = H5Acreate2 (loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  bool ok = attr >= 0 && H5Awrite (attr, type, value) >= 0;
  if (attr >= 0)
    H5Aclose (attr);
  H5Sclose (space);
  return ok;
}

static bool
put_double (hid_t loc, const char *name, double v)
{
  return put_attr (loc, name, H5T_NATIVE_DOUBLE, &v);
}

static bool
put_count (hid_t loc, const char *name, size_t v)
{
  uint64_t w = v;
  return put_attr (loc, name, H5T_NATIVE_UINT64, &w);
}

/* Strings are variable-length and UTF-8: h5py gives such attributes as
   str (fixed-length ones come back as bytes) and netCDF-4 as strings.  A
   string that is not UTF-8 (a command line can hold any bytes) is
   stored as it is, marked ASCII, so that no reader decodes it as UTF-8
   and fails.  */
static bool
put_string (hid_t loc, const char *name, const char *s)
{
  hid_t type = H5Tcopy (H5T_C_S1);
  bool ok = type >= 0 && H5Tset_size (type, H5T_VARIABLE) >= 0
            && H5Tset_cset (type, utf8_valid (s) ? H5T_CSET_UTF8
                                                 : H5T_CSET_ASCII) >= 0
            && put_attr (loc, name, type, &s);
  if (type >= 0)
    H5Tclose (type);
  return ok;
}

static bool
put_edges (hid_t file, const double edges[EDGE_COUNT])
{
  bool ok = true;
  for (int e = 0; e < EDGE_COUNT && ok; ++e)
    ok = put_double (file, h5_edge_attribute ((enum edge) e), edges[e]);
  return ok;
}

/* The conditions the options gave (issue 24): none where the run has
   none of them.  */
static bool
put_conditions (hid_t file, const struct checkpoint_meta *m)
{
  bool ok = true;
  for (int e = 0; e < EDGE_COUNT && ok; ++e)
    ok = m->bc[e][0] == '\0'
         || put_string (file, h5_bc_attribute ((enum edge) e), m->bc[e]);
  return ok
         && (m->source_schedule[0] == '\0'
             || put_string (file, "source_schedule", m->source_schedule))
         && (!(m->thickness > 0.0)
             || (put_double (file, "thickness", m->thickness)
                 && put_string (file, "surface_convection",
                                m->surface_convection)));
}

/* The command line and build that wrote the file (issue 15, item 7);
   none without a provenance (unit tests).  */
static bool
put_provenance (hid_t file, const struct provenance *p)
{
  return p == NULL
         || ((p->command_line == NULL
              || put_string (file, "command_line", p->command_line))
             && (p->case_text == NULL
                 || put_string (file, "case", p->case_text))
             && put_string (file, "device_code", p->device_code)
             && put_string (file, "mpi", p->mpi));
}

static bool
put_meta (hid_t file, const struct checkpoint_meta *m, uint64_t checksum)
{
  char sum[17];
  snprintf (sum, sizeof sum, "%016" PRIx64, checksum);
  uint8_t steady = m->steady;
  return put_string (file, "format", CHECKPOINT_FORMAT)
         && put_string (file, "Conventions", CONVENTIONS)
         && put_string (file, "heatsim_version", PACKAGE_VERSION)
         && put_string (file, "problem", m->problem)
         && put_string (file, "boundary", m->boundary)
         && put_count (file, "step", m->step)
         && put_double (file, "time", m->time)
         && put_double (file, "dt", m->dt)
         && put_double (file, "alpha", m->alpha)
         && put_count (file, "nx", m->nx)
         && put_count (file, "ny", m->ny)
         && put_double (file, "dx", axis_spacing (m->lx, m->nx,
                                                   m->kind[EDGE_LEFT],
                                                   m->kind[EDGE_RIGHT]))
         && put_double (file, "dy", axis_spacing (m->ly, m->ny,
                                                   m->kind[EDGE_BOTTOM],
                                                   m->kind[EDGE_TOP]))
         && put_double (file, "lx", m->lx)
         && put_double (file, "ly", m->ly)
         && put_attr (file, "steady", H5T_NATIVE_UINT8, &steady)
         && put_string (file, "checksum", sum)
         && (!m->range_known || (put_double (file, "colour_lo", m->range[0])
                                 && put_double (file, "colour_hi",
                                                m->range[1])))
         && (m->steady || put_string (file, "scheme", m->scheme))
         && (!m->steady || (put_string (file, "solver", m->solver)
                            && put_double (file, "initial_residual",
                                           m->initial_residual)
                            && put_double (file, "initial_largest",
                                           m->initial_largest)))
         && put_string (file, "temperature_unit", m->temperature_unit)
         && (!m->edges_given || put_edges (file, m->edges))
         && put_conditions (file, m)
         && (!m->uniform_given
             || (put_double (file, "conductivity", m->conductivity)
                 && put_double (file, "density", m->density)
                 && put_double (file, "heat_capacity", m->heat_capacity)))
         && put_provenance (file, m->provenance);
}

/* One dataset of the whole field: count values, from memory at data with
   rows step doubles apart (2-D), or values step doubles apart (1-D).  */
struct block {
  int rank;
  hsize_t count[2];
  size_t step;
  const double *data;
};

static bool
put_block (hid_t loc, const char *name, const struct block *b, hid_t dcpl)
{
  hid_t fspace = H5Screate_simple (b->rank, b->count, NULL);
  hsize_t mdims[2] = { b->count[0], b->step };
  hsize_t zero[2] = { 0, 0 }, stride[2] = { b->step, 1 };
  if (b->rank == 1)
    mdims[0] = (b->count[0] - 1) * b->step + 1;
  hid_t mspace = H5Screate_simple (b->rank, mdims, NULL);
  H5Sselect_hyperslab (mspace, H5S_SELECT_SET, zero,
                       b->rank == 1 ? stride : NULL, b->count, NULL);
  hid_t set = H5Dcreate2 (loc, name, H5T_IEEE_F64LE, fspace, H5P_DEFAULT,
                          dcpl, H5P_DEFAULT);
  bool ok = set >= 0 && H5Dwrite (set, H5T_NATIVE_DOUBLE, mspace, fspace,
                                  H5P_DEFAULT, b->data) >= 0;
  if (set >= 0)
    ok = H5Dclose (set) >= 0 && ok;
  H5Sclose (mspace);
  H5Sclose (fspace);
  return ok;
}

/* The boundary values of one edge: a line of the halo ring.  */
static struct block
edge_block (const struct field *u, int edge)
{
  const bool column = edge == EDGE_LEFT || edge == EDGE_RIGHT;
  const size_t i = edge == EDGE_RIGHT ? u->nx + 1 : column ? 0 : 1;
  const size_t j = edge == EDGE_TOP ? u->ny + 1 : column ? 1 : 0;
  return (struct block) {
    .rank = 1, .count = { column ? u->ny : u->nx },
    .step = column ? u->stride : 1,
    .data = &u->data[field_index (u, i, j)],
  };
}

static bool
put_field (hid_t file, const struct field *u, int compress)
{
  hsize_t chunk[2] = { u->ny < CHUNK_SIDE ? u->ny : CHUNK_SIDE,
                       u->nx < CHUNK_SIDE ? u->nx : CHUNK_SIDE };
  hid_t dcpl = H5Pcreate (H5P_DATASET_CREATE);
  const struct block interior = {
    .rank = 2, .count = { u->ny, u->nx }, .step = u->stride,
    .data = &u->data[field_index (u, 1, 1)],
  };
  bool ok = H5Pset_chunk (dcpl, 2, chunk) >= 0
            && (compress == 0 || H5Pset_deflate (dcpl, (unsigned) compress) >= 0)
            && put_block (file, "field", &interior, dcpl);
  H5Pclose (dcpl);

  hid_t group = ok ? H5Gcreate2 (file, "boundary", H5P_DEFAULT, H5P_DEFAULT,
                                 H5P_DEFAULT) : -1;
  static const char *const names[EDGE_COUNT] = {
    [EDGE_LEFT] = "left", [EDGE_RIGHT] = "right",
    [EDGE_BOTTOM] = "bottom", [EDGE_TOP] = "top",
  };
  ok = ok && group >= 0;
  for (int e = 0; e < EDGE_COUNT && ok; ++e)
    {
      const struct block b = edge_block (u, e);
      ok = put_block (group, names[e], &b, H5P_DEFAULT);
    }
  if (group >= 0)
    H5Gclose (group);
  return ok;
}

/* The material fields of a checkpoint, whole, in the order of
   material_sets; data NULL where there are none.  */
enum { MATERIAL_SETS = 3 };
static const struct {
  const char *name, *long_name, *units;
} material_sets[MATERIAL_SETS] = {
  { "conductivity", "thermal conductivity", "W m-1 K-1" },
  { "volumetric_heat_capacity", "volumetric heat capacity (rho c_p)",
    "J m-3 K-1" },
  { "source", "heat source", "W m-3" },
};

static bool
put_material (hid_t file, const struct field wholes[MATERIAL_SETS],
              int compress)
{
  bool ok = true;
  for (int k = 0; k < MATERIAL_SETS && ok; ++k)
    {
      const struct field *f = &wholes[k];
      if (f->data == NULL)
        continue;
      hsize_t chunk[2] = { f->ny < CHUNK_SIDE ? f->ny : CHUNK_SIDE,
                           f->nx < CHUNK_SIDE ? f->nx : CHUNK_SIDE };
      hid_t dcpl = H5Pcreate (H5P_DATASET_CREATE);
      const struct block b = {
        .rank = 2, .count = { f->ny, f->nx }, .step = f->stride,
        .data = &f->data[field_index (f, 1, 1)],
      };
      ok = H5Pset_chunk (dcpl, 2, chunk) >= 0
           && (compress == 0 || H5Pset_deflate (dcpl, (unsigned) compress)
               >= 0)
           && put_block (file, material_sets[k].name, &b, dcpl);
      H5Pclose (dcpl);
    }
  return ok;
}

/* ------------------------------------------ labels for netCDF and CF */

/* The units of lengths and times: SI when the field has a temperature
   unit, else CF's "1" (nondimensional): heatsim then knows only that
   lengths are in the unit of --length, times in the one alpha and dt
   use.  "s", unlike "seconds", is not one of the units xarray turns
   into timedeltas (rounding them).  */
static const char *
unit_of (const struct checkpoint_meta *m, const char *si)
{
  return strcmp (m->temperature_unit, "1") == 0 ? "1" : si;
}

static bool
put_labels (hid_t set, const char *long_name, const char *units)
{
  return put_string (set, "units", units)
         && put_string (set, "long_name", long_name);
}

/* One coordinate axis of length, with edges of kinds lo and hi: the
   positions of the n interior nodes as problem.c computes them
   (axis_position), as an HDF5 dimension scale, which netCDF-4 reads as
   the dimension called name and its coordinate variable.  */
static bool
put_axis (hid_t file, const char *name, const char *long_name, size_t n,
          double length, enum boundary_kind lo, enum boundary_kind hi,
          const char *units)
{
  double *v = malloc (n * sizeof *v);
  if (v == NULL)
    return false;
  const double d = axis_spacing (length, n, lo, hi);
  for (size_t k = 0; k < n; ++k)
    v[k] = axis_position (k + 1, d, lo);
  const struct block b = { .rank = 1, .count = { n }, .step = 1, .data = v };
  bool ok = put_block (file, name, &b, H5P_DEFAULT);
  free (v);
  hid_t set = ok ? H5Dopen2 (file, name, H5P_DEFAULT) : -1;
  char axis[2] = { (char) (name[0] - 'a' + 'A'), '\0' };
  ok = set >= 0 && H5DSset_scale (set, name) >= 0
       && put_labels (set, long_name, units)
       && put_string (set, "axis", axis);
  if (set >= 0)
    ok = H5Dclose (set) >= 0 && ok;
  return ok;
}

/* A scalar dataset: netCDF-4 and xarray read attributes of the file as
   attributes, not variables, so time and step need datasets of their own
   to become coordinates of the field.  */
static bool
put_scalar (hid_t file, const char *name, hid_t type, hid_t mem_type,
            const void *value, const char *long_name, const char *units)
{
  hid_t space = H5Screate (H5S_SCALAR);
  hid_t set = H5Dcreate2 (file, name, type, space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
  bool ok = set >= 0
            && H5Dwrite (set, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                         value) >= 0
            && put_labels (set, long_name, units);
  if (set >= 0)
    ok = H5Dclose (set) >= 0 && ok;
  H5Sclose (space);
  return ok;
}

/* Attach the scale at path scale to dimension dim of the dataset at
   path set.  */
static bool
attach (hid_t file, const char *set_path, const char *scale_path,
        unsigned dim)
{
  hid_t set = H5Dopen2 (file, set_path, H5P_DEFAULT);
  hid_t scale = H5Dopen2 (file, scale_path, H5P_DEFAULT);
  bool ok = set >= 0 && scale >= 0
            && H5DSattach_scale (set, scale, dim) >= 0;
  if (scale >= 0)
    H5Dclose (scale);
  if (set >= 0)
    H5Dclose (set);
  return ok;
}

/* Make the checkpoint a self-describing netCDF-4 file for xarray (issue
   15): axes x and y with the node coordinates, attached to the field
   (dimensions y, x) and to the boundary lines, time and step as scalar
   variables that the field names as its coordinates (CF), and units and
   names.  Everything is added beside /field and the attributes, which
   keep their names, shapes and types.  */
static bool
describe (hid_t file, const struct checkpoint_meta *m)
{
  const uint64_t step = m->step;
  /* A steady state has no time: its checkpoints record their step.  */
  static const char steady_time[] = "the step (a steady run has no time)";
  const char *metres = unit_of (m, "m");
  bool ok = put_axis (file, "x", "x, from the left edge", m->nx, m->lx,
                      m->kind[EDGE_LEFT], m->kind[EDGE_RIGHT], metres)
            && put_axis (file, "y", "y, from the bottom edge", m->ny, m->ly,
                         m->kind[EDGE_BOTTOM], m->kind[EDGE_TOP], metres)
            && put_scalar (file, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                           &m->time,
                           m->steady ? steady_time : "simulated time",
                           m->steady ? "1" : unit_of (m, "s"))
            && put_scalar (file, "step", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                           &step, "time step", "1")
            && attach (file, "field", "y", 0) && attach (file, "field", "x", 1)
            && attach (file, "boundary/left", "y", 0)
            && attach (file, "boundary/right", "y", 0)
            && attach (file, "boundary/bottom", "x", 0)
            && attach (file, "boundary/top", "x", 0);
  hid_t set = ok ? H5Dopen2 (file, "field", H5P_DEFAULT) : -1;
  ok = set >= 0 && put_labels (set, "temperature", m->temperature_unit)
       && put_string (set, "coordinates", "time step");
  if (set >= 0)
    ok = H5Dclose (set) >= 0 && ok;
  return ok;
}

/* The material datasets as the field: dimensions y, x, and their units
   (SI: a material makes the run SI, a nondimensional run's source is in
   the field's units per time).  */
static bool
describe_material (hid_t file, const struct checkpoint_meta *m,
                   const struct field wholes[MATERIAL_SETS])
{
  bool ok = true;
  for (int k = 0; k < MATERIAL_SETS && ok; ++k)
    {
      if (wholes[k].data == NULL)
        continue;
      const char *name = material_sets[k].name;
      ok = attach (file, name, "y", 0) && attach (file, name, "x", 1);
      hid_t set = ok ? H5Dopen2 (file, name, H5P_DEFAULT) : -1;
      ok = set >= 0 && put_labels (set, material_sets[k].long_name,
                                   unit_of (m, material_sets[k].units));
      if (set >= 0)
        ok = H5Dclose (set) >= 0 && ok;
    }
  return ok;
}

/* Build the checkpoint of the whole field u in memory: *size bytes at
   im->data (to free), a zero user block of SEAL_BYTES first.  */
static bool
build_image (const struct field *u, const struct field wholes[MATERIAL_SETS],
             const struct checkpoint_meta *m, int compress,
             struct h5image *im, size_t *size)
{
  hid_t file = h5image_create (im, SEAL_BYTES);
  const bool ok = file >= 0 && put_meta (file, m, field_checksum (u))
                  && put_field (file, u, compress)
                  && put_material (file, wholes, compress)
                  && describe (file, m)
                  && describe_material (file, m, wholes);
  return h5image_close (file, ok, im, size);
}

/* Write the whole field u to path: rank 0's part of h5_write_checkpoint.
   Returns 0, or the errno of a failed write (-1 if libhdf5 failed).  */
static int
write_whole (const char *path, const struct field *u,
             const struct field wholes[MATERIAL_SETS],
             const struct checkpoint_meta *m, int compress)
{
  struct h5image im;
  size_t size;
  if (!build_image (u, wholes, m, compress, &im, &size))
    return -1;
  seal_image (im.data, size);
  char tmp[4096];
  FILE *fp = atomic_fopen (path, tmp, sizeof tmp);
  int e = fp == NULL ? errno : 0;
  if (fp != NULL)
    {
      bool ok = fwrite (im.data, 1, size, fp) == size;
      e = atomic_fclose (fp, ok, tmp, path) ? 0 : errno;
    }
  free (im.data);
  return e;
}

int
h5_write_checkpoint (const char *path, const struct domain *d,
                     const struct field *u, const struct checkpoint_meta *m,
                     int compress)
{
  h5_quiet ();
  /* One file whatever the number of ranks: rank 0 writes the whole field,
     as it does for PNG snapshots (parallel HDF5 would write through
     libhdf5's file driver, which cannot fail safely, see h5image.h).  */
  struct field whole, wholes[MATERIAL_SETS] = { { 0 } };
  const struct material *mat = m->material;
  const struct field *parts[MATERIAL_SETS] = { NULL, NULL, NULL };
  if (mat != NULL && mat->variable)
    {
      parts[0] = &mat->conductivity;
      parts[1] = &mat->capacity;
      parts[2] = mat->source.data != NULL ? &mat->source : NULL;
    }
  bool gathered = domain_gather (d, u, &whole);
  for (int k = 0; k < MATERIAL_SETS; ++k)
    if (parts[k] != NULL)
      gathered = domain_gather (d, parts[k], &wholes[k]) && gathered;
  int e = gathered && d->rank == 0
          ? write_whole (path, &whole, wholes, m, compress) : 0;
  domain_release (d, &whole);
  for (int k = 0; k < MATERIAL_SETS; ++k)
    if (parts[k] != NULL)
      domain_release (d, &wholes[k]);
  if (!gathered)
    {
      heatsim_error ("%s: no memory to assemble the whole field", path);
      return HEATSIM_NO_MEMORY;
    }
  if (e == -1)
    heatsim_error ("%s: cannot write the checkpoint: libhdf5 failed (out "
                   "of memory?)", path);
  else if (e != 0)
    heatsim_error ("%s: cannot write the checkpoint: %s", path, strerror (e));
  return domain_agree (e != 0 ? HEATSIM_WRITE_FAILED : HEATSIM_OK);
}
