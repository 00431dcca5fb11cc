#include <config.h>

#include "h5io.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "diagnostics.h"
#include "domain.h"
#include "isolate.h"
#include "provenance.h"
#include "status.h"
#include "sysmem.h"

/* Format 2 (issue 15) labels the field for netCDF-4 and xarray and
   writes its strings variable-length: heatsim 0.1.0 before it cannot read
   them.  Format 1 files have the same datasets and attributes, with
   fixed-length strings; they still restart.  */
#define CHECKPOINT_FORMAT "heatsim-checkpoint-2"
#define CHECKPOINT_FORMAT_1 "heatsim-checkpoint-1"
/* What the file's layout follows, for netCDF and CF readers.  */
#define CONVENTIONS "CF-1.8"
enum { CHUNK = 256 };

/* HDF5 prints a stack trace on every error by default; heatsim prints one
   line of its own instead.  */
static void
quiet_hdf5 (void)
{
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
}

/* ----------------------------------------------------------- the seal */

/* heatsim's checkpoints begin with a 512-byte HDF5 user block, which
   libhdf5 and every HDF5 reader skip, holding a checksum of the rest of
   the file.  heatsim checks it before libhdf5 reads a byte of the file:
   libhdf5 1.10 can crash on damaged metadata, so a damaged checkpoint must
   never reach it.  The block is text, then NUL bytes:
     heatsim-checkpoint-seal-1
     fnv1a64 <FNV-1a, 64 bits, of the bytes after the block, in hex>
     bytes <their number>  */
enum { SEAL_BYTES = 512 };
#define SEAL_MAGIC "heatsim-checkpoint-seal-1\n"
#define SEAL_KEY "fnv1a64 "
#define FNV_OFFSET UINT64_C (0xcbf29ce484222325)

static uint64_t
fnv1a (uint64_t h, const unsigned char *p, size_t n)
{
  for (size_t k = 0; k < n; ++k)
    h = (h ^ p[k]) * UINT64_C (0x100000001b3);
  return h;
}

/* The user block of n bytes whose checksum is sum.  */
static void
seal_text (unsigned char block[SEAL_BYTES], uint64_t sum, uint64_t n)
{
  memset (block, 0, SEAL_BYTES);
  snprintf ((char *) block, SEAL_BYTES,
            SEAL_MAGIC SEAL_KEY "%016" PRIx64 "\nbytes %" PRIu64 "\n", sum, n);
}

/* Fill the user block of a complete file image of size bytes.  */
static void
seal (unsigned char *image, size_t size)
{
  const size_t n = size - SEAL_BYTES;
  seal_text (image, fnv1a (FNV_OFFSET, image + SEAL_BYTES, n), n);
}

/* Whether a file's first got bytes are a seal: its magic or its key line
   is enough, so that one damaged byte cannot make a sealed file pass for
   a foreign one.  */
static bool
sealed (const unsigned char *block, size_t got)
{
  const size_t magic = strlen (SEAL_MAGIC), key = strlen (SEAL_KEY);
  return (got >= magic && memcmp (block, SEAL_MAGIC, magic) == 0)
         || (got >= magic + key
             && memcmp (block + magic, SEAL_KEY, key) == 0);
}

/* The rest of a sealed file (fp after its user block) matches block.  */
static bool
seal_matches (FILE *fp, const unsigned char block[SEAL_BYTES])
{
  char text[SEAL_BYTES + 1];
  memcpy (text, block, SEAL_BYTES);
  text[SEAL_BYTES] = '\0';
  uint64_t sum, n;
  unsigned char want[SEAL_BYTES];
  if (sscanf (text + strlen (SEAL_MAGIC), SEAL_KEY "%16" SCNx64 " bytes %"
              SCNu64, &sum, &n) != 2)
    return false;
  seal_text (want, sum, n);       /* every byte of the block is checked */
  if (memcmp (block, want, SEAL_BYTES) != 0)
    return false;
  unsigned char buf[1 << 16];
  uint64_t h = FNV_OFFSET, total = 0;
  size_t got;
  while ((got = fread (buf, 1, sizeof buf, fp)) > 0)
    {
      h = fnv1a (h, buf, got);
      total += got;
    }
  return !ferror (fp) && total == n && h == sum;
}

/* 1 if the file at path is sealed, 0 if not, -1 if it cannot be read.
   With check, a sealed file whose contents do not match gives -2.  */
static int
read_seal (const char *path, bool check)
{
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    return -1;
  unsigned char block[SEAL_BYTES];
  const size_t got = fread (block, 1, sizeof block, fp);
  int ret = ferror (fp) ? -1 : sealed (block, got);
  if (ret == 1 && check && (got < SEAL_BYTES || !seal_matches (fp, block)))
    ret = -2;
  int e = errno;
  fclose (fp);
  errno = e;
  return ret;
}

/* ----------------------------------------------------------- writing */

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

/* Whether s is well-formed UTF-8: no stray continuation byte, no
   truncated, overlong or surrogate sequence, nothing past U+10FFFF.  */
static bool
utf8_valid (const char *s)
{
  static const unsigned char lead_bits[4] = { 0x7f, 0x1f, 0x0f, 0x07 };
  static const uint32_t least[4] = { 0, 0x80, 0x800, 0x10000 };
  const unsigned char *p = (const unsigned char *) s;
  while (*p != '\0')
    {
      const int n = *p < 0x80 ? 0 : *p < 0xc0 ? -1 : *p < 0xe0 ? 1
                    : *p < 0xf0 ? 2 : *p < 0xf8 ? 3 : -1;
      if (n < 0)
        return false;
      uint32_t c = *p++ & lead_bits[n];
      for (int k = 0; k < n; ++k, ++p)
        {
          if ((*p & 0xc0) != 0x80)      /* the NUL at the end included */
            return false;
          c = c << 6 | (*p & 0x3f);
        }
      if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return false;
    }
  return true;
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

static const char *const edge_attributes[EDGE_COUNT] = {
  "edge_left", "edge_right", "edge_bottom", "edge_top"
};

static bool
put_edges (hid_t file, const double edges[EDGE_COUNT])
{
  bool ok = true;
  for (int e = 0; e < EDGE_COUNT && ok; ++e)
    ok = put_double (file, edge_attributes[e], edges[e]);
  return ok;
}

/* The command line and build that wrote the file (issue 15, item 7);
   none without a provenance (unit tests).  */
static bool
put_provenance (hid_t file, const struct provenance *p)
{
  return p == NULL
         || ((p->command_line == NULL
              || put_string (file, "command_line", p->command_line))
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
         && put_double (file, "dx", m->lx / (double) (m->nx + 1))
         && put_double (file, "dy", m->ly / (double) (m->ny + 1))
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
                                           m->initial_residual)))
         && (!m->edges_given || put_edges (file, m->edges))
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
  hsize_t chunk[2] = { u->ny < CHUNK ? u->ny : CHUNK,
                       u->nx < CHUNK ? u->nx : CHUNK };
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

/* ------------------------------------------ labels for netCDF and CF */

/* heatsim has no units of its own: lengths are in the unit of --length,
   times in the one that alpha and dt use, values in the one of the
   initial field and edges.  "1", CF's dimensionless unit, says exactly
   that; "s" or "m" would claim what heatsim does not know, and "seconds"
   would make xarray turn the times into timedeltas, rounding them.  */
#define UNITS "1"

static bool
put_labels (hid_t set, const char *long_name)
{
  return put_string (set, "units", UNITS)
         && put_string (set, "long_name", long_name);
}

/* One coordinate axis: the positions of the n interior nodes, (k + 1) d
   for k = 0 .. n - 1 as problem.c computes them, as an HDF5 dimension
   scale, which netCDF-4 reads as the dimension called name and its
   coordinate variable.  */
static bool
put_axis (hid_t file, const char *name, const char *long_name, size_t n,
          double d)
{
  double *v = malloc (n * sizeof *v);
  if (v == NULL)
    return false;
  for (size_t k = 0; k < n; ++k)
    v[k] = (double) (k + 1) * d;
  const struct block b = { .rank = 1, .count = { n }, .step = 1, .data = v };
  bool ok = put_block (file, name, &b, H5P_DEFAULT);
  free (v);
  hid_t set = ok ? H5Dopen2 (file, name, H5P_DEFAULT) : -1;
  char axis[2] = { (char) (name[0] - 'a' + 'A'), '\0' };
  ok = set >= 0 && H5DSset_scale (set, name) >= 0
       && put_labels (set, long_name) && put_string (set, "axis", axis);
  if (set >= 0)
    ok = H5Dclose (set) >= 0 && ok;
  return ok;
}

/* A scalar dataset: netCDF-4 and xarray read attributes of the file as
   attributes, not variables, so time and step need datasets of their own
   to become coordinates of the field.  */
static bool
put_scalar (hid_t file, const char *name, hid_t type, hid_t mem_type,
            const void *value, const char *long_name)
{
  hid_t space = H5Screate (H5S_SCALAR);
  hid_t set = H5Dcreate2 (file, name, type, space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
  bool ok = set >= 0
            && H5Dwrite (set, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                         value) >= 0
            && put_labels (set, long_name);
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
  bool ok = put_axis (file, "x", "x, from the left edge", m->nx,
                      m->lx / (double) (m->nx + 1))
            && put_axis (file, "y", "y, from the bottom edge", m->ny,
                         m->ly / (double) (m->ny + 1))
            && put_scalar (file, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                           &m->time, "simulated time")
            && put_scalar (file, "step", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                           &step, "time step")
            && attach (file, "field", "y", 0) && attach (file, "field", "x", 1)
            && attach (file, "boundary/left", "y", 0)
            && attach (file, "boundary/right", "y", 0)
            && attach (file, "boundary/bottom", "x", 0)
            && attach (file, "boundary/top", "x", 0);
  hid_t set = ok ? H5Dopen2 (file, "field", H5P_DEFAULT) : -1;
  ok = set >= 0 && put_labels (set, "temperature")
       && put_string (set, "coordinates", "time step");
  if (set >= 0)
    ok = H5Dclose (set) >= 0 && ok;
  return ok;
}

/* libhdf5 builds the checkpoint in memory (the core driver, no backing
   store) and heatsim writes the bytes itself.  When libhdf5 writes a file
   and a write fails (a full disk), H5Fclose fails half-way, leaves a
   dangling file ID behind, and libhdf5 1.10 crashes in its exit handler
   closing it; in memory nothing can fail but allocation.  The core driver
   frees its buffer at close through these callbacks, which keep it
   instead: the buffer then holds the complete file.  */
struct image {
  unsigned char *data;
  size_t capacity;
};

static void *
image_malloc (size_t size, H5FD_file_image_op_t op, void *udata)
{
  (void) op;
  struct image *im = udata;
  void *p = malloc (size);
  if (p != NULL)
    im->capacity = size;
  return p;
}

static void *
image_memcpy (void *dest, const void *src, size_t size,
              H5FD_file_image_op_t op, void *udata)
{
  (void) op, (void) udata;
  return memcpy (dest, src, size);
}

static void *
image_realloc (void *ptr, size_t size, H5FD_file_image_op_t op, void *udata)
{
  (void) op;
  struct image *im = udata;
  void *p = realloc (ptr, size);
  if (p != NULL)
    im->capacity = size;
  return p;
}

static herr_t
image_free (void *ptr, H5FD_file_image_op_t op, void *udata)
{
  struct image *im = udata;
  if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && im->data == NULL)
    im->data = ptr;
  else
    free (ptr);
  return 0;
}

/* The property lists share the one struct image.  */
static void *
image_udata_copy (void *udata)
{
  return udata;
}

static herr_t
image_udata_free (void *udata)
{
  (void) udata;
  return 0;
}

/* Build the checkpoint of the whole field u in memory: *size bytes at
   im->data (to free), a zero user block of SEAL_BYTES first.  */
static bool
build_image (const struct field *u, const struct checkpoint_meta *m,
             int compress, struct image *im, size_t *size)
{
  H5FD_file_image_callbacks_t callbacks = {
    image_malloc, image_memcpy, image_realloc, image_free,
    image_udata_copy, image_udata_free, im,
  };
  *im = (struct image) { .data = NULL };
  hid_t fcpl = H5Pcreate (H5P_FILE_CREATE);
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);
  bool ok = H5Pset_userblock (fcpl, SEAL_BYTES) >= 0
            && H5Pset_fapl_core (fapl, 1 << 20, false) >= 0
            && H5Pset_file_image_callbacks (fapl, &callbacks) >= 0;
  hid_t file = ok ? H5Fcreate ("heatsim-checkpoint", H5F_ACC_TRUNC, fcpl,
                               fapl) : -1;
  ok = file >= 0 && put_meta (file, m, field_checksum (u))
       && put_field (file, u, compress) && describe (file, m)
       && H5Fflush (file, H5F_SCOPE_LOCAL) >= 0;
  /* The size of the flushed file, user block left out.  Closing writes
     nothing past it: it can only give back unused space at the end.  */
  ssize_t n = ok ? H5Fget_file_image (file, NULL, 0) : -1;
  if (file >= 0)
    ok = H5Fclose (file) >= 0 && ok;
  H5Pclose (fapl);
  H5Pclose (fcpl);
  *size = SEAL_BYTES + (size_t) (n > 0 ? n : 0);
  if (ok && n > 0 && im->data != NULL && *size <= im->capacity)
    return true;
  free (im->data);
  im->data = NULL;
  return false;
}

/* Write the whole field u to path: rank 0's part of h5_write_checkpoint.
   Returns 0, or the errno of a failed write (-1 if libhdf5 failed).  */
static int
write_whole (const char *path, const struct field *u,
             const struct checkpoint_meta *m, int compress)
{
  struct image im;
  size_t size;
  if (!build_image (u, m, compress, &im, &size))
    return -1;
  seal (im.data, size);
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
  quiet_hdf5 ();
  /* One file whatever the number of ranks: rank 0 writes the whole field,
     as it does for PNG snapshots (parallel HDF5 would write through
     libhdf5's file driver, which cannot fail safely, see build_image).  */
  struct field whole;
  if (!domain_gather (d, u, &whole))
    {
      heatsim_error ("%s: no memory to assemble the whole field", path);
      return HEATSIM_NO_MEMORY;
    }
  int e = d->rank == 0 ? write_whole (path, &whole, m, compress) : 0;
  domain_release (d, &whole);
  if (e == -1)
    heatsim_error ("%s: cannot write the checkpoint: libhdf5 failed (out "
                   "of memory?)", path);
  else if (e != 0)
    heatsim_error ("%s: cannot write the checkpoint: %s", path, strerror (e));
  return domain_agree (e != 0 ? HEATSIM_WRITE_FAILED : HEATSIM_OK);
}

/* ----------------------------------------------------------- reading */

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
      vsnprintf (r->msg, sizeof r->msg, fmt, ap);
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

static bool
get_count (struct reader *r, hid_t file, const char *name, size_t *v)
{
  uint64_t w;
  if (!get_attr (r, file, name, H5T_NATIVE_UINT64, &w))
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

/* A damaged or hostile file can claim a dataset far larger than the file:
   refuse one whose values could not fit in the bytes stored for it, before
   allocating memory for them.  */
static bool
storage_plausible (struct reader *r, hid_t set, hid_t type, const char *name,
                   const hsize_t *dims, int rank)
{
  double raw = (double) H5Tget_size (type);
  for (int k = 0; k < rank; ++k)
    raw *= (double) dims[k];
  hid_t dcpl = H5Dget_create_plist (set);
  bool filtered = dcpl >= 0 && H5Pget_nfilters (dcpl) > 0;
  if (dcpl >= 0)
    H5Pclose (dcpl);
  hid_t file = H5Iget_file_id (set);
  hsize_t file_size = 0;
  if (file >= 0)
    {
      H5Fget_filesize (file, &file_size);
      H5Fclose (file);
    }
  double stored = (double) H5Dget_storage_size (set);
  if (stored > (double) file_size
      || raw > stored * (filtered ? MAX_INFLATION : 1))
    return bad (r, "dataset '%s' claims %.0f bytes of values but the file "
                "holds only %.0f for it (damaged file?)", name, raw, stored);
  return true;
}

/* Allocate u for nx x ny, if two such grids fit in memory.  */
static bool
alloc_field (struct reader *r, struct field *u, size_t nx, size_t ny)
{
  size_t need, avail;
  if (!grids_fit_in_memory (nx, ny, &need, &avail))
    return bad (r, "a %zu x %zu field needs %zu bytes for two grids; only "
                "%zu are available", nx, ny, need, avail);
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

/* Open a dataset that must be a float array of the given shape (rank 1 if
   rows == 0); rows/cols of 0 in *shape mean "any", and are filled in.  */
static hid_t
open_array (struct reader *r, hid_t loc, const char *name, int rank,
            hsize_t shape[2])
{
  if (H5Lexists (loc, name, H5P_DEFAULT) <= 0)
    return bad (r, "dataset '%s' is missing", name), -1;
  hid_t set = H5Dopen2 (loc, name, H5P_DEFAULT);
  if (set < 0)
    return bad (r, "dataset '%s' is unreadable", name), -1;
  hid_t type = H5Dget_type (set), space = H5Dget_space (set);
  hsize_t dims[2] = { 0, 0 };
  int got = H5Sget_simple_extent_ndims (space);
  bool ok = true;
  if (H5Tget_class (type) != H5T_FLOAT)
    ok = bad (r, "dataset '%s' is not floating point", name);
  else if (got != rank)
    ok = bad (r, "dataset '%s' has rank %d, expected %d", name, got, rank);
  else
    {
      H5Sget_simple_extent_dims (space, dims, NULL);
      for (int k = 0; k < rank && ok; ++k)
        if (shape[k] != 0 && dims[k] != shape[k])
          ok = bad (r, "dataset '%s' has %llu x %llu values, expected "
                    "%llu x %llu", name, (unsigned long long) dims[0],
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
  return ok || bad (r, "dataset '%s' could not be read (truncated or "
                    "damaged file?)", name);
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
open_file (struct reader *r)
{
  /* Files without a seal (other programs' files, heatsim checkpoints
     older than the seal) go to libhdf5 unchecked.  */
  switch (read_seal (r->path, true))
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
  m->edges_given = ok && H5Aexists (file, edge_attributes[0]) > 0;
  for (int e = 0; m->edges_given && ok && e < EDGE_COUNT; ++e)
    ok = get_double (r, file, edge_attributes[e], &m->edges[e]);
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

static int
read_checkpoint_file (const char *path, struct checkpoint_meta *meta,
                      struct field *u)
{
  struct reader r = { .path = path };
  u->data = NULL;
  hid_t file = open_file (&r);
  bool ok = file >= 0 && read_checkpoint (&r, file, meta, u);
  return finish_read (&r, file, ok, u);
}

static int
read_dataset_file (const char *path, const char *dataset, struct field *u)
{
  struct reader r = { .path = path };
  u->data = NULL;
  hid_t file = open_file (&r);
  hsize_t shape[2] = { 0, 0 };
  hid_t set = file >= 0 ? open_array (&r, file, dataset, 2, shape) : -1;
  bool ok = set >= 0;
  if (ok && (shape[0] < 3 || shape[1] < 3))
    ok = bad (&r, "dataset '%s' is %llux%llu; an initial field needs at "
              "least 3x3 values (one interior cell inside the boundary "
              "ring)", dataset, (unsigned long long) shape[0],
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
  quiet_hdf5 ();
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    return -1;
  fclose (fp);
  return H5Fis_hdf5 (path) > 0;
}

static bool
has_checkpoint_format (const char *path)
{
  quiet_hdf5 ();
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    return false;
  bool yes = H5Aexists (file, "format") > 0;
  H5Fclose (file);
  return yes;
}

/* ------------------------------------------ foreign files, in a child */

/* libhdf5 can crash on a damaged file (tests/fuzz/regressions): a file
   without heatsim's seal is read once in a child process first, so that
   a crash there becomes a refusal.  The child is a copy of this process,
   so a read that returns there returns here too.  Sealed files were
   written by heatsim and their checksum is checked before libhdf5 sees
   them.  */
enum probe_read { PROBE_FORMAT, PROBE_CHECKPOINT, PROBE_DATASET };

/* HDF5 1.10 can loop forever on a damaged file's variable-length
   strings: a test read that takes longer than this is a refusal.  A
   whole checkpoint of a 16384^2 grid reads in a few seconds.  */
enum { PROBE_SECONDS = 60 };

struct probe {
  enum probe_read read;
  const char *path;
  const char *dataset;
};

static int
probe_child (void *arg)
{
  const struct probe *p = arg;
  /* The parent reports; the child only has to survive.  */
  const int null = open ("/dev/null", O_WRONLY);
  if (null >= 0)
    dup2 (null, STDERR_FILENO);
  struct checkpoint_meta meta;
  struct field u;
  switch (p->read)
    {
    case PROBE_FORMAT:
      return has_checkpoint_format (p->path) ? 0 : 1;
    case PROBE_CHECKPOINT:
      return read_checkpoint_file (p->path, &meta, &u) == HEATSIM_OK ? 0 : 1;
    case PROBE_DATASET:
      return read_dataset_file (p->path, p->dataset, &u) == HEATSIM_OK
             ? 0 : 1;
    }
  return 1;
}

/* HEATSIM_OK when the read p names may be done in this process.  Without
   a child (fork failed) the read goes on unprobed, as before.  */
static int
probe_foreign (const struct probe *p)
{
  if (read_seal (p->path, false) == 1)
    return HEATSIM_OK;
  int signal = 0;
  if (isolate_run (probe_child, (void *) p, PROBE_SECONDS, &signal) != -1)
    return HEATSIM_OK;
  if (signal == SIGALRM)
    heatsim_error ("%s: damaged HDF5 file: libhdf5 did not finish reading "
                   "it in %d s (in a test read)", p->path, PROBE_SECONDS);
  else
    heatsim_error ("%s: damaged HDF5 file: libhdf5 crashed reading it "
                   "(signal %d, in a test read)", p->path, signal);
  return HEATSIM_BAD_FILE;
}

int
h5_read_checkpoint (const char *path, struct checkpoint_meta *meta,
                    struct field *u)
{
  const struct probe p = { PROBE_CHECKPOINT, path, NULL };
  u->data = NULL;
  const int status = probe_foreign (&p);
  return status != HEATSIM_OK ? status : read_checkpoint_file (path, meta, u);
}

int
h5_read_dataset (const char *path, const char *dataset, struct field *u)
{
  const struct probe p = { PROBE_DATASET, path, dataset };
  u->data = NULL;
  const int status = probe_foreign (&p);
  return status != HEATSIM_OK ? status : read_dataset_file (path, dataset, u);
}

bool
h5_is_checkpoint (const char *path)
{
  /* Only h5_read_checkpoint may open a sealed file: it checks the seal
     first.  A file that crashes libhdf5 is not a checkpoint; the read
     that follows refuses it.  */
  if (read_seal (path, false) == 1)
    return true;
  const struct probe p = { PROBE_FORMAT, path, NULL };
  int signal = 0;
  const int result = isolate_run (probe_child, (void *) &p, PROBE_SECONDS,
                                  &signal);
  if (result == -1)
    return false;
  return result == 0 || (result == -2 && has_checkpoint_format (path));
}
