#include <config.h>

#include "h5read.h"

#include <errno.h>
#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"
#include "h5format.h"
#include "seal.h"
#include "status.h"
#include "sysmem.h"

/* Errors while reading: the first message wins.  */
struct reader {
  const char *path;
  char msg[256];
};

static bool
bad (struct reader *r, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static bool
bad (struct reader *r, const char *fmt, ...)
{
  if (r->msg[0] == '\0')
    {
      va_list ap;
      va_start (ap, fmt);
      message_vformat (r->msg, sizeof r->msg, fmt, ap);
      va_end (ap);
    }
  return false;
}

static bool
get_attr (struct reader *r, hid_t file, const char *name, hid_t type,
          void *value)
{
  if (H5Aexists (file, name) <= 0)
    return bad (r, "attribute '%s' is missing", name);
  hid_t attr = H5Aopen (file, name, H5P_DEFAULT);
  hid_t space = attr >= 0 ? H5Aget_space (attr) : -1;
  bool ok = space >= 0 && H5Sget_simple_extent_npoints (space) == 1
            && H5Aread (attr, type, value) >= 0;
  if (space >= 0)
    H5Sclose (space);
  if (attr >= 0)
    H5Aclose (attr);
  return ok || bad (r, "attribute '%s' is unreadable", name);
}

static bool
get_double (struct reader *r, hid_t file, const char *name, double *v)
{
  if (!get_attr (r, file, name, H5T_NATIVE_DOUBLE, v))
    return false;
  return isfinite (*v) || bad (r, "attribute '%s' is not finite", name);
}

/* Whether attribute name is stored as an integer, and a signed one.  */
static bool
integer_attr (hid_t file, const char *name, bool *is_signed)
{
  hid_t attr = H5Aexists (file, name) > 0 ? H5Aopen (file, name, H5P_DEFAULT)
                                         : -1;
  hid_t stored = attr >= 0 ? H5Aget_type (attr) : -1;
  const bool integer = stored >= 0 && H5Tget_class (stored) == H5T_INTEGER;
  *is_signed = integer && H5Tget_sign (stored) == H5T_SGN_2;
  if (stored >= 0)
    H5Tclose (stored);
  if (attr >= 0)
    H5Aclose (attr);
  return integer;
}

/* A count (a step, a node count): HDF5 converts what it reads, a float
   of 16.5 to 16 and an integer of -3 to 0 (both ran on before), so the
   stored type is checked first.  */
static bool
get_count (struct reader *r, hid_t file, const char *name, size_t *v)
{
  bool is_signed = false;
  if (H5Aexists (file, name) > 0 && !integer_attr (file, name, &is_signed))
    return bad (r, "attribute '%s' is not a whole number of 0 or more",
                name);
  uint64_t w;
  if (is_signed)
    {
      int64_t s;
      if (!get_attr (r, file, name, H5T_NATIVE_INT64, &s))
        return false;
      if (s < 0)
        return bad (r, "attribute '%s' is not a whole number of 0 or more "
                    "(%" PRId64 ")", name, s);
      w = (uint64_t) s;
    }
  else if (!get_attr (r, file, name, H5T_NATIVE_UINT64, &w))
    return false;
  if (w > SIZE_MAX)
    return bad (r, "attribute '%s' is too large", name);
  *v = (size_t) w;
  return true;
}

/* The memory type to read the string attribute name into: variable-length
   if the file's is (format 2), else fixed-length of len bytes (format 1),
   in the file's character set, which libhdf5 does not convert.  */
static hid_t
string_type_of (hid_t loc, const char *name, size_t len, bool *variable)
{
  hid_t attr = H5Aexists (loc, name) > 0 ? H5Aopen (loc, name, H5P_DEFAULT)
                                         : -1;
  hid_t stored = attr >= 0 ? H5Aget_type (attr) : -1;
  const bool string = stored >= 0 && H5Tget_class (stored) == H5T_STRING;
  *variable = string && H5Tis_variable_str (stored) > 0;
  const H5T_cset_t cset = string ? H5Tget_cset (stored) : H5T_CSET_ASCII;
  if (stored >= 0)
    H5Tclose (stored);
  if (attr >= 0)
    H5Aclose (attr);
  hid_t type = H5Tcopy (H5T_C_S1);
  if (type >= 0
      && (H5Tset_size (type, *variable ? H5T_VARIABLE : len) < 0
          || H5Tset_cset (type, cset < 0 ? H5T_CSET_ASCII : cset) < 0
          || (!*variable && H5Tset_strpad (type, H5T_STR_NULLTERM) < 0)))
    {
      H5Tclose (type);
      type = -1;
    }
  return type;
}

/* Read the string attribute name into buf of len bytes.  A longer
   variable-length string is refused; a longer fixed-length one is cut,
   as before format 2.  */
static bool
get_string (struct reader *r, hid_t file, const char *name, char *buf,
            size_t len)
{
  bool variable;
  hid_t type = string_type_of (file, name, len, &variable);
  char *heap = NULL;
  memset (buf, 0, len);
  bool ok = type >= 0 && get_attr (r, file, name, type,
                                   variable ? (void *) &heap : buf);
  if (type >= 0)
    H5Tclose (type);
  if (ok && variable && heap != NULL)
    {
      if (strlen (heap) >= len)
        ok = bad (r, "attribute '%s' is longer than %zu bytes", name,
                  len - 1);
      else
        strcpy (buf, heap);
    }
  H5free_memory (heap);
  buf[len - 1] = '\0';
  return ok || bad (r, "attribute '%s' is unreadable", name);
}

/* Where a dataset's storage was never allocated, or only some of a
   chunked dataset's chunks, HDF5 reads its fill value in the rest (as
   h5dump and h5py show it); unless the fill value is never written
   there, or undefined, and then those values are whatever memory held.  */
static bool
fill_readable (struct reader *r, hid_t dcpl, const char *name)
{
  H5D_fill_time_t when;
  H5D_fill_value_t defined;
  if (H5Pget_fill_time (dcpl, &when) < 0
      || H5Pfill_value_defined (dcpl, &defined) < 0)
    return bad (r, "dataset '%s' is unreadable", name);
  return (when != H5D_FILL_TIME_NEVER && defined != H5D_FILL_VALUE_UNDEFINED)
         || bad (r, "dataset '%s' was never written and has no fill value "
                 "in its place", name);
}

/* A damaged or hostile file can claim a dataset far larger than the file:
   refuse one whose values could not fit in the bytes stored for it, before
   allocating memory for them.  A dataset not (or not wholly) written
   holds its fill value instead: fewer bytes stored are no damage, and
   what such a claim can cost is bounded by the memory check before
   allocation (alloc_field).  */
static bool
storage_plausible (struct reader *r, hid_t set, hid_t type, const char *name,
                   const hsize_t *dims, int rank)
{
  double raw = (double) H5Tget_size (type);
  for (int k = 0; k < rank; ++k)
    raw *= (double) dims[k];
  hid_t file = H5Iget_file_id (set);
  hsize_t file_size = 0;
  if (file >= 0)
    {
      H5Fget_filesize (file, &file_size);
      H5Fclose (file);
    }
  const double stored = (double) H5Dget_storage_size (set);
  if (stored > (double) file_size)
    return bad (r, "dataset '%s' claims %.0f bytes of storage in a file of "
                "%.0f bytes (damaged file?)", name, stored,
                (double) file_size);
  H5D_space_status_t space;
  hid_t dcpl = H5Dget_create_plist (set);
  if (dcpl < 0 || H5Dget_space_status (set, &space) < 0)
    {
      if (dcpl >= 0)
        H5Pclose (dcpl);
      return bad (r, "dataset '%s' is unreadable", name);
    }
  const bool filtered = H5Pget_nfilters (dcpl) > 0;
  const bool ok = space != H5D_SPACE_STATUS_ALLOCATED
                  ? fill_readable (r, dcpl, name)
                  : raw <= stored * (filtered ? MAX_INFLATION : 1)
                    || bad (r, "dataset '%s' claims %.0f bytes of values "
                            "but the file holds only %.0f for it (damaged "
                            "file?)", name, raw, stored);
  H5Pclose (dcpl);
  return ok;
}

/* Why the dataset set could not be read: a filter of its pipeline that
   this library lacks (LZF, which h5py brings: such a file is not
   damaged, it needs another reader), or else a damaged file.  */
static bool
read_failed (struct reader *r, hid_t set, const char *name)
{
  hid_t dcpl = H5Dget_create_plist (set);
  const int filters = dcpl >= 0 ? H5Pget_nfilters (dcpl) : 0;
  for (int k = 0; k < filters; ++k)
    {
      unsigned flags, config;
      size_t values = 0;
      char filter[64] = "";
      const H5Z_filter_t id = H5Pget_filter2 (dcpl, (unsigned) k, &flags,
                                              &values, NULL, sizeof filter,
                                              filter, &config);
      if (id >= 0 && H5Zfilter_avail (id) <= 0)
        {
          H5Pclose (dcpl);
          return bad (r, "dataset '%s' is compressed with filter %d (%s), "
                      "which this heatsim's HDF5 library lacks", name,
                      (int) id, filter[0] != '\0' ? filter : "unnamed");
        }
    }
  if (dcpl >= 0)
    H5Pclose (dcpl);
  return bad (r, "dataset '%s' could not be read (truncated or damaged "
              "file?)", name);
}

/* Allocate u for nx x ny, if two such grids fit in memory.  */
static bool
alloc_field (struct reader *r, struct field *u, size_t nx, size_t ny)
{
  size_t need, avail;
  if (!grids_fit_in_memory (2, nx, ny, &need, &avail))
    return need == SIZE_MAX
           ? bad (r, "a %zu x %zu field needs more bytes than memory can "
                  "address", nx, ny)
           : bad (r, "a %zu x %zu field needs %zu bytes for two grids; "
                  "only %zu are available", nx, ny, need, avail);
  if (!field_alloc (u, nx, ny))
    return bad (r, "out of memory for a %zu x %zu field", nx, ny);
  return true;
}

/* A dataset whose values live in other files (external raw storage, a
   virtual dataset) would make heatsim read whatever files it names.  */
static bool
storage_inside (struct reader *r, hid_t set, const char *name)
{
  hid_t dcpl = H5Dget_create_plist (set);
  if (dcpl < 0)
    return bad (r, "dataset '%s' is unreadable", name);
  const bool outside = H5Pget_external_count (dcpl) != 0
                       || H5Pget_layout (dcpl) == H5D_VIRTUAL;
  H5Pclose (dcpl);
  return !outside || bad (r, "dataset '%s' keeps its values in other files "
                          "(external or virtual storage); refused", name);
}

/* An external link would make heatsim read whatever file it names; the
   values must be in the file itself (the man page says so).  Called by
   libhdf5 before it opens the file a link names: refuse.  */
static herr_t
refuse_external (const char *parent_file, const char *parent_group,
                 const char *child_file, const char *child_object,
                 unsigned *flags, hid_t fapl, void *reader)
{
  (void) parent_file, (void) parent_group, (void) flags, (void) fapl;
  bad (reader, "an external link to '%s' in %s: the values must be in "
       "the file itself; refused", child_object, child_file);
  return -1;
}

/* Whether name under loc is a group (links followed as a dataset's
   are, an external one refused).  */
static bool
is_group (struct reader *r, hid_t loc, const char *name)
{
  hid_t gapl = H5Pcreate (H5P_GROUP_ACCESS);
  hid_t group = gapl >= 0 && H5Pset_elink_cb (gapl, refuse_external, r) >= 0
                ? H5Gopen2 (loc, name, gapl) : -1;
  if (gapl >= 0)
    H5Pclose (gapl);
  if (group < 0)
    return false;
  H5Gclose (group);
  return true;
}

/* Open a dataset that must be an array of the given class (H5T_FLOAT
   or H5T_INTEGER) and shape (rank 1 if rows == 0); rows/cols of 0 in
   *shape mean "any", and are filled in.  */
static hid_t
open_typed (struct reader *r, hid_t loc, const char *name, H5T_class_t want,
            int rank, hsize_t shape[2])
{
  /* The access list is a link access list too: H5Lexists follows the
     links of name but its last with it.  */
  hid_t dapl = H5Pcreate (H5P_DATASET_ACCESS);
  if (dapl < 0 || H5Pset_elink_cb (dapl, refuse_external, r) < 0)
    {
      if (dapl >= 0)
        H5Pclose (dapl);
      return bad (r, "out of memory"), -1;
    }
  const bool exists = H5Lexists (loc, name, dapl) > 0;
  hid_t set = exists ? H5Dopen2 (loc, name, dapl) : -1;
  H5Pclose (dapl);
  if (!exists)
    return bad (r, "dataset '%s' is missing", name), -1;
  if (set < 0 && is_group (r, loc, name))
    return bad (r, "'%s' is a group, not a dataset", name), -1;
  if (set < 0)
    return bad (r, "dataset '%s' is unreadable", name), -1;
  hid_t type = H5Dget_type (set), space = H5Dget_space (set);
  hsize_t dims[2] = { 0, 0 };
  int got = H5Sget_simple_extent_ndims (space);
  bool ok = true;
  if (H5Tget_class (type) != want)
    ok = bad (r, "dataset '%s' is not %s", name,
              want == H5T_FLOAT ? "floating point" : "integer");
  else if (got != rank)
    ok = bad (r, "dataset '%s' has rank %d, expected %d", name, got, rank);
  else
    {
      H5Sget_simple_extent_dims (space, dims, NULL);
      for (int k = 0; k < rank && ok; ++k)
        if (shape[k] != 0 && dims[k] != shape[k])
          ok = bad (r, "dataset '%s' has shape (%llu, %llu) (rows, "
                    "columns), expected (%llu, %llu)", name,
                    (unsigned long long) dims[0],
                    (unsigned long long) (rank == 2 ? dims[1] : 1),
                    (unsigned long long) shape[0],
                    (unsigned long long) (rank == 2 ? shape[1] : 1));
        else
          shape[k] = dims[k];
    }
  if (ok)
    ok = storage_inside (r, set, name)
         && storage_plausible (r, set, type, name, dims, rank);
  H5Tclose (type);
  H5Sclose (space);
  if (!ok)
    {
      H5Dclose (set);
      return -1;
    }
  return set;
}

/* A float array, as nearly every dataset heatsim reads.  */
static hid_t
open_array (struct reader *r, hid_t loc, const char *name, int rank,
            hsize_t shape[2])
{
  return open_typed (r, loc, name, H5T_FLOAT, rank, shape);
}

/* Read a dataset into memory rows of the given stride (in doubles).  */
static bool
read_into (struct reader *r, hid_t set, const char *name, double *dst,
           hsize_t rows, hsize_t cols, size_t stride, int rank)
{
  hsize_t mdims[2] = { rows, stride }, count[2] = { rows, cols };
  hsize_t start[2] = { 0, 0 };
  if (rank == 1)
    mdims[0] = stride, count[0] = cols;
  hid_t mspace = H5Screate_simple (rank, mdims, NULL);
  H5Sselect_hyperslab (mspace, H5S_SELECT_SET, start, NULL, count, NULL);
  bool ok = H5Dread (set, H5T_NATIVE_DOUBLE, mspace, H5S_ALL, H5P_DEFAULT,
                     dst) >= 0;
  H5Sclose (mspace);
  return ok || read_failed (r, set, name);
}

/* Every cell, halo included, is finite.  */
static bool
check_finite (struct reader *r, const struct field *u)
{
  for (size_t j = 0; j <= u->ny + 1; ++j)
    for (size_t i = 0; i <= u->nx + 1; ++i)
      if (!isfinite (u->data[field_index (u, i, j)]))
        return bad (r, "value %g at cell (%zu, %zu) is not finite",
                    u->data[field_index (u, i, j)], i, j);
  return true;
}

static hid_t
open_file (struct reader *r, bool check_seal)
{
  /* Files without a seal (other programs' files, heatsim checkpoints
     older than the seal) go to libhdf5 unchecked.  */
  switch (seal_read (r->path, check_seal))
    {
    case -1:
      return bad (r, "cannot open: %s", strerror (errno)), -1;
    case -2:
      return bad (r, "truncated or damaged checkpoint: its contents do "
                  "not match the checksum in its first %d bytes",
                  SEAL_BYTES), -1;
    }
  switch (h5_is_hdf5 (r->path))
    {
    case -1:
      return bad (r, "cannot open: %s", strerror (errno)), -1;
    case 0:
      return bad (r, "not an HDF5 file"), -1;
    }
  hid_t file = H5Fopen (r->path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    bad (r, "cannot open as HDF5 (truncated or damaged file?)");
  return file;
}

static bool
read_meta (struct reader *r, hid_t file, struct checkpoint_meta *m)
{
  char format[64];
  uint8_t steady = 0;
  if (!get_string (r, file, "format", format, sizeof format))
    return bad (r, "not a heatsim checkpoint");
  if (strcmp (format, CHECKPOINT_FORMAT) != 0
      && strcmp (format, CHECKPOINT_FORMAT_1) != 0)
    return bad (r, "format '%s' is not one this heatsim reads ('%s' or "
                "'%s'; a newer heatsim wrote it?)", format,
                CHECKPOINT_FORMAT, CHECKPOINT_FORMAT_1);
  bool ok = get_string (r, file, "problem", m->problem, sizeof m->problem)
            && get_string (r, file, "boundary", m->boundary,
                           sizeof m->boundary)
            && get_count (r, file, "step", &m->step)
            && get_double (r, file, "time", &m->time)
            && get_double (r, file, "dt", &m->dt)
            && get_double (r, file, "alpha", &m->alpha)
            && get_count (r, file, "nx", &m->nx)
            && get_count (r, file, "ny", &m->ny)
            && get_double (r, file, "lx", &m->lx)
            && get_double (r, file, "ly", &m->ly)
            && get_attr (r, file, "steady", H5T_NATIVE_UINT8, &steady);
  m->steady = steady != 0;
  /* Attributes that older checkpoints lack: present, they must be good.  */
  m->range_known = ok && H5Aexists (file, "colour_lo") > 0;
  if (m->range_known)
    ok = get_double (r, file, "colour_lo", &m->range[0])
         && get_double (r, file, "colour_hi", &m->range[1]);
  /* Checkpoints from before the multigrid options: explicit, Jacobi.  */
  snprintf (m->scheme, sizeof m->scheme, "explicit");
  snprintf (m->solver, sizeof m->solver, "jacobi");
  m->initial_residual = 0.0;
  if (ok && H5Aexists (file, "scheme") > 0)
    ok = get_string (r, file, "scheme", m->scheme, sizeof m->scheme);
  if (ok && H5Aexists (file, "solver") > 0)
    ok = get_string (r, file, "solver", m->solver, sizeof m->solver)
         && get_double (r, file, "initial_residual", &m->initial_residual);
  /* Since 2026-12: steady checkpoints before it lack it.  */
  m->initial_largest = 0.0;
  m->initial_largest_known = ok && H5Aexists (file, "initial_largest") > 0;
  if (m->initial_largest_known)
    ok = get_double (r, file, "initial_largest", &m->initial_largest)
         && (m->initial_largest >= 0.0
             || bad (r, "attribute 'initial_largest' is negative"));
  /* Checkpoints from before units: nondimensional.  */
  snprintf (m->temperature_unit, sizeof m->temperature_unit, "1");
  if (ok && H5Aexists (file, "temperature_unit") > 0)
    ok = get_string (r, file, "temperature_unit", m->temperature_unit,
                     sizeof m->temperature_unit);
  m->edges_given = ok && H5Aexists (file, h5_edge_attribute (EDGE_LEFT)) > 0;
  for (int e = 0; m->edges_given && ok && e < EDGE_COUNT; ++e)
    ok = get_double (r, file, h5_edge_attribute ((enum edge) e),
                     &m->edges[e]);
  /* Issue 24: the conditions, where the options gave them.  */
  for (int e = 0; ok && e < EDGE_COUNT; ++e)
    {
      const char *name = h5_bc_attribute ((enum edge) e);
      m->bc[e][0] = '\0';
      if (H5Aexists (file, name) > 0)
        ok = get_string (r, file, name, m->bc[e], sizeof m->bc[e]);
    }
  m->source_schedule[0] = m->surface_convection[0] = '\0';
  m->thickness = 0.0;
  if (ok && H5Aexists (file, "source_schedule") > 0)
    ok = get_string (r, file, "source_schedule", m->source_schedule,
                     sizeof m->source_schedule);
  if (ok && H5Aexists (file, "thickness") > 0)
    ok = get_double (r, file, "thickness", &m->thickness)
         && get_string (r, file, "surface_convection", m->surface_convection,
                        sizeof m->surface_convection);
  /* Issue 23: the material fields of a run whose material varies, or
     a uniform material's three values.  */
  m->has_material = ok && H5Lexists (file, "conductivity", H5P_DEFAULT) > 0;
  m->has_source = ok && H5Lexists (file, "source", H5P_DEFAULT) > 0;
  m->uniform_given = ok && H5Aexists (file, "conductivity") > 0;
  if (m->uniform_given)
    ok = get_double (r, file, "conductivity", &m->conductivity)
         && get_double (r, file, "density", &m->density)
         && get_double (r, file, "heat_capacity", &m->heat_capacity);
  if (ok && m->uniform_given
      && !(m->conductivity > 0 && m->density > 0 && m->heat_capacity > 0
           && isfinite (m->conductivity) && isfinite (m->density)
           && isfinite (m->heat_capacity)))
    ok = bad (r, "attributes conductivity, density, heat_capacity must be "
              "positive and finite");
  if (ok && m->range_known && !(m->range[0] < m->range[1]))
    ok = bad (r, "attribute colour_lo is not below colour_hi");
  if (ok && (m->nx == 0 || m->ny == 0 || !(m->dt > 0) || !(m->alpha > 0)
             || !(m->lx > 0) || !(m->ly > 0)))
    ok = bad (r, "attributes nx, ny, dt, alpha, lx, ly must be positive");
  return ok;
}

static bool
read_checkpoint (struct reader *r, hid_t file, struct checkpoint_meta *m,
                 struct field *u)
{
  if (!read_meta (r, file, m))
    return false;
  hsize_t shape[2] = { m->ny, m->nx };
  hid_t set = open_array (r, file, "field", 2, shape);
  bool ok = set >= 0 && alloc_field (r, u, m->nx, m->ny)
            && read_into (r, set, "field", &u->data[field_index (u, 1, 1)],
                          m->ny, m->nx, u->stride, 2);
  if (set >= 0)
    H5Dclose (set);

  /* The halo: columns through a scratch array, rows in place.  */
  static const char *const edges[] = { "boundary/left", "boundary/right",
                                       "boundary/bottom", "boundary/top" };
  double *col = malloc (m->ny * sizeof *col);
  for (int e = 0; ok && e < 4; ++e)
    {
      bool side = e < 2;
      hsize_t n[2] = { side ? m->ny : m->nx, 0 };
      set = col == NULL ? -1 : open_array (r, file, edges[e], 1, n);
      ok = set >= 0;
      if (ok && side)
        {
          ok = read_into (r, set, edges[e], col, 1, m->ny, m->ny, 1);
          for (size_t j = 1; ok && j <= m->ny; ++j)
            u->data[field_index (u, e == 0 ? 0 : m->nx + 1, j)] = col[j - 1];
        }
      else if (ok)
        ok = read_into (r, set, edges[e],
                        &u->data[field_index (u, 1, e == 2 ? 0 : m->ny + 1)],
                        1, m->nx, m->nx, 1);
      if (set >= 0)
        H5Dclose (set);
    }
  free (col);
  if (ok)
    ok = check_finite (r, u);

  char sum[32], want[17];
  if (ok && get_string (r, file, "checksum", sum, sizeof sum))
    {
      snprintf (want, sizeof want, "%016" PRIx64, field_checksum (u));
      if (strcmp (sum, want) != 0)
        ok = bad (r, "field checksum %s does not match the stored %s", want,
                  sum);
    }
  else
    ok = false;
  return ok;
}

static int
finish_read (struct reader *r, hid_t file, bool ok, struct field *u)
{
  if (file >= 0)
    H5Fclose (file);
  if (ok)
    return HEATSIM_OK;
  field_free (u);
  heatsim_error ("%s: %s", r->path, r->msg[0] ? r->msg : "unreadable");
  return HEATSIM_BAD_FILE;
}

int
h5read_checkpoint (const char *path, struct checkpoint_meta *meta,
                   struct field *u)
{
  struct reader r = { .path = path };
  u->data = NULL;
  hid_t file = open_file (&r, true);
  bool ok = file >= 0 && read_checkpoint (&r, file, meta, u);
  return finish_read (&r, file, ok, u);
}

bool
h5read_meta (const char *path, struct checkpoint_meta *meta)
{
  struct reader r = { .path = path };
  hid_t file = open_file (&r, false);
  const bool ok = file >= 0 && read_meta (&r, file, meta);
  if (file >= 0)
    H5Fclose (file);
  return ok;
}

int
h5read_dataset (const char *path, const char *dataset, struct field *u)
{
  struct reader r = { .path = path };
  u->data = NULL;
  hid_t file = open_file (&r, true);
  hsize_t shape[2] = { 0, 0 };
  hid_t set = file >= 0 ? open_array (&r, file, dataset, 2, shape) : -1;
  bool ok = set >= 0;
  if (ok && (shape[0] < 3 || shape[1] < 3))
    ok = bad (&r, "dataset '%s' has shape (%llu, %llu) (rows, columns); an "
              "initial field needs at least 3x3 values (one interior cell "
              "inside the boundary ring)", dataset,
              (unsigned long long) shape[0],
              (unsigned long long) shape[1]);
  else if (ok)
    ok = alloc_field (&r, u, shape[1] - 2, shape[0] - 2);
  if (ok)
    ok = read_into (&r, set, dataset, u->data, shape[0], shape[1], u->stride,
                    2)
         && check_finite (&r, u);
  if (set >= 0)
    H5Dclose (set);
  return finish_read (&r, file, ok, u);
}

int
h5_is_hdf5 (const char *path)
{
  h5_quiet ();
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    return -1;
  fclose (fp);
  return H5Fis_hdf5 (path) > 0;
}

bool
h5read_has_format (const char *path)
{
  h5_quiet ();
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    return false;
  bool yes = H5Aexists (file, "format") > 0;
  H5Fclose (file);
  return yes;
}

/* Whether the file has a link called name (not following an external
   link: open_typed refuses those).  */
static bool
has_link (hid_t file, const char *name)
{
  hid_t lapl = H5Pcreate (H5P_LINK_ACCESS);
  const bool yes = lapl >= 0 && H5Lexists (file, name, lapl) > 0;
  if (lapl >= 0)
    H5Pclose (lapl);
  return yes;
}

/* Open the 2-D dataset of file that a map reads, of class want (H5T_FLOAT
   or H5T_INTEGER), with its shape in shape; -1 where it is absent
   (*absent) or, after a message, unusable or empty.  */
static hid_t
open_map (struct reader *r, hid_t file, const char *dataset,
          H5T_class_t want, hsize_t shape[2], bool *absent)
{
  if (!has_link (file, dataset))
    {
      *absent = true;
      return -1;
    }
  hid_t set = open_typed (r, file, dataset, want, 2, shape);
  /* An empty map holds no node's value: taken as a grid of no nodes,
     its largest k / (rho c_p) came out 0, and the message blamed an
     option rather than the file.  */
  if (set >= 0 && !(shape[0] > 0 && shape[1] > 0))
    {
      bad (r, "dataset '%s' has shape (%llu, %llu) (rows, columns): empty; "
           "a map needs a value for every node", dataset,
           (unsigned long long) shape[0],
           (unsigned long long) shape[1]);
      H5Dclose (set);
      return -1;
    }
  return set;
}

/* The end of a map's read: close what is open, and on failure put the
   message in msg (len bytes).  */
static bool
finish_map (const struct reader *r, hid_t file, hid_t set, bool ok,
            char *msg, size_t len)
{
  if (set >= 0)
    H5Dclose (set);
  if (file >= 0)
    H5Fclose (file);
  if (!ok)
    snprintf (msg, len, "%s", r->msg[0] ? r->msg : "unreadable");
  return ok;
}

bool
h5read_shape (const char *path, const char *dataset, bool integers,
              size_t *nx, size_t *ny, bool *absent, char *msg, size_t len)
{
  struct reader r = { .path = path };
  *absent = false;
  hid_t file = open_file (&r, false);
  hsize_t shape[2] = { 0, 0 };
  hid_t set = file >= 0 ? open_map (&r, file, dataset,
                                    integers ? H5T_INTEGER : H5T_FLOAT,
                                    shape, absent) : -1;
  const bool ok = file >= 0 && (*absent || set >= 0);
  *nx = shape[1];
  *ny = shape[0];
  return finish_map (&r, file, set, ok, msg, len);
}

bool
h5read_grid (const char *path, const char *dataset, struct field *u,
             bool *absent, char *msg, size_t len)
{
  struct reader r = { .path = path };
  u->data = NULL;
  *absent = false;
  hid_t file = open_file (&r, false);
  hsize_t shape[2] = { 0, 0 };
  hid_t set = file >= 0 ? open_map (&r, file, dataset, H5T_FLOAT, shape,
                                    absent) : -1;
  bool ok = file >= 0 && (*absent
                          || (set >= 0
                              && alloc_field (&r, u, shape[1], shape[0])
                              && read_into (&r, set, dataset,
                                            &u->data[field_index (u, 1, 1)],
                                            shape[0], shape[1], u->stride,
                                            2)));
  if (!ok)
    field_free (u);
  return finish_map (&r, file, set, ok, msg, len);
}

/* Read the integer dataset set (rows x cols) into k, exactly: in the
   64-bit integer of its sign, which holds every value of a type of at
   most 64 bits; a wider type would be clipped without a word.  */
static bool
read_integers (struct reader *r, hid_t set, const char *name, hsize_t rows,
               hsize_t cols, size_t grids, struct h5_integers *k)
{
  hid_t type = H5Dget_type (set);
  const size_t size = type >= 0 ? H5Tget_size (type) : 0;
  const H5T_sign_t sign = type >= 0 ? H5Tget_sign (type) : H5T_SGN_ERROR;
  if (type >= 0)
    H5Tclose (type);
  if (size == 0 || sign == H5T_SGN_ERROR)
    return bad (r, "dataset '%s' is unreadable", name);
  if (size > sizeof *k->value)
    return bad (r, "dataset '%s' holds %zu-bit integers; at most 64 bits "
                "are read", name, 8 * size);
  size_t need, avail;
  if (!grids_fit_in_memory (grids, cols, rows, &need, &avail))
    return need == SIZE_MAX
           ? bad (r, "a %llu x %llu map needs more bytes than memory can "
                  "address", (unsigned long long) cols,
                  (unsigned long long) rows)
           : bad (r, "a %llu x %llu map needs %zu bytes for %zu grids; "
                  "only %zu are available", (unsigned long long) cols,
                  (unsigned long long) rows, need, grids, avail);
  k->nx = cols;
  k->ny = rows;
  k->is_signed = sign != H5T_SGN_NONE;
  k->value = malloc (k->nx * k->ny * sizeof *k->value);
  if (k->value == NULL)
    return bad (r, "out of memory for a %zu x %zu map", k->nx, k->ny);
  return H5Dread (set, k->is_signed ? H5T_NATIVE_INT64 : H5T_NATIVE_UINT64,
                  H5S_ALL, H5S_ALL, H5P_DEFAULT, k->value) >= 0
         || read_failed (r, set, name);
}

bool
h5read_integers (const char *path, const char *dataset, size_t grids,
                 struct h5_integers *k, bool *absent, char *msg, size_t len)
{
  struct reader r = { .path = path };
  k->value = NULL;
  *absent = false;
  hid_t file = open_file (&r, false);
  hsize_t shape[2] = { 0, 0 };
  hid_t set = file >= 0 ? open_map (&r, file, dataset, H5T_INTEGER, shape,
                                    absent) : -1;
  bool ok = file >= 0 && (*absent
                          || (set >= 0
                              && read_integers (&r, set, dataset, shape[0],
                                                shape[1], grids, k)));
  if (!ok)
    {
      free (k->value);
      k->value = NULL;
    }
  return finish_map (&r, file, set, ok, msg, len);
}
