#include <config.h>

#include "h5io.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "diagnostics.h"
#include "h5read.h"
#include "isolate.h"
#include "seal.h"
#include "status.h"

/* libhdf5 can crash on a damaged file (tests/fuzz/regressions): every
   file is read once in a child process first, so that a crash there
   becomes a refusal.  The child is a copy of this process, so a read
   that returns there returns here too.  A sealed file's checksum is
   checked before libhdf5 sees it, in the child and here, which names
   accidental damage; but the seal is no proof of sound metadata (anyone
   can compute it: a damaged file sealed anew crashed libhdf5 here, and
   another hung it beyond the reach of SIGTERM), so it no longer spares
   the child's read.  */
enum probe_read {
  PROBE_FORMAT, PROBE_META, PROBE_CHECKPOINT, PROBE_DATASET, PROBE_GRID,
  PROBE_INTEGERS, PROBE_SHAPE
};

/* HDF5 1.10 can loop forever on a damaged file's variable-length
   strings: a test read that takes longer than this is a refusal.  A
   whole checkpoint of a 16384^2 grid reads in a few seconds.  */
enum { PROBE_SECONDS = 60 };

struct probe {
  enum probe_read read;
  const char *path;
  const char *dataset;
  size_t grids;           /* PROBE_INTEGERS: h5read_integers' grids */
  bool integers;          /* PROBE_SHAPE: h5read_shape's integers */
};

static int
probe_child (void *arg)
{
  const struct probe *p = arg;
  /* The parent reports; the child only has to survive.  */
  const int devnull = open ("/dev/null", O_WRONLY);
  if (devnull >= 0)
    dup2 (devnull, STDERR_FILENO);
  struct checkpoint_meta meta;
  struct field u;
  switch (p->read)
    {
    case PROBE_FORMAT:
      return h5read_has_format (p->path) ? 0 : 1;
    case PROBE_META:
      return h5read_meta (p->path, &meta) ? 0 : 1;
    case PROBE_CHECKPOINT:
      return h5read_checkpoint (p->path, &meta, &u) == HEATSIM_OK ? 0 : 1;
    case PROBE_DATASET:
      return h5read_dataset (p->path, p->dataset, &u) == HEATSIM_OK
             ? 0 : 1;
    case PROBE_GRID:
      {
        char msg[8];
        bool absent;
        return h5read_grid (p->path, p->dataset, &u, &absent, msg,
                            sizeof msg) ? 0 : 1;
      }
    case PROBE_INTEGERS:
      {
        char msg[8];
        bool absent;
        struct h5_integers k;
        return h5read_integers (p->path, p->dataset, p->grids, &k, &absent,
                                msg, sizeof msg) ? 0 : 1;
      }
    case PROBE_SHAPE:
      {
        char msg[8];
        bool absent;
        size_t nx, ny;
        return h5read_shape (p->path, p->dataset, p->integers, &nx, &ny,
                             &absent, msg, sizeof msg) ? 0 : 1;
      }
    }
  return 1;
}

/* HEATSIM_OK when the read p names may be done in this process.  Without
   a child (fork failed) the read goes on unprobed, as before.  */
static int
probe_foreign (const struct probe *p)
{
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
  const struct probe p = { .read = PROBE_CHECKPOINT, .path = path,
                           .dataset = NULL };
  u->data = NULL;
  const int status = probe_foreign (&p);
  return status != HEATSIM_OK ? status : h5read_checkpoint (path, meta, u);
}

int
h5_read_dataset (const char *path, const char *dataset, struct field *u)
{
  const struct probe p = { .read = PROBE_DATASET, .path = path,
                           .dataset = dataset };
  u->data = NULL;
  const int status = probe_foreign (&p);
  return status != HEATSIM_OK ? status : h5read_dataset (path, dataset, u);
}

bool
h5_read_meta (const char *path, struct checkpoint_meta *meta)
{
  /* The seal is not checked: that would read every byte of every file
     an index lists.  The test read in a child stands for it, sealed file
     or not; a crash there is no checkpoint, quietly.  */
  const struct probe p = { .read = PROBE_META, .path = path,
                           .dataset = NULL };
  int signal = 0;
  const int probe = isolate_run (probe_child, (void *) &p, PROBE_SECONDS,
                                 &signal);
  return (probe == 0 || probe == -2) && h5read_meta (path, meta);
}

bool
h5_is_checkpoint (const char *path)
{
  /* A sealed file is not opened here: the reader checks the seal
     first.  A file that crashes libhdf5 is not a checkpoint; the read
     that follows refuses it.  */
  if (seal_read (path, false) == 1)
    return true;
  const struct probe p = { .read = PROBE_FORMAT, .path = path,
                           .dataset = NULL };
  int signal = 0;
  const int result = isolate_run (probe_child, (void *) &p, PROBE_SECONDS,
                                  &signal);
  if (result == -1)
    return false;
  return result == 0 || (result == -2 && h5read_has_format (path));
}

/* Whether the dataset read p names may be done in this process; else
   false with why in msg (len bytes).  */
static bool
probe_grid (const struct probe *p, char *msg, size_t len)
{
  int signal = 0;
  if (isolate_run (probe_child, (void *) p, PROBE_SECONDS, &signal) != -1)
    return true;
  snprintf (msg, len, signal == SIGALRM ? "damaged HDF5 file: libhdf5 "
            "did not finish reading it (in a test read)" : "damaged "
            "HDF5 file: libhdf5 crashed reading it (in a test read)");
  return false;
}

bool
h5_read_grid (const char *path, const char *dataset, struct field *u,
              bool *absent, char *msg, size_t len)
{
  const struct probe p = { .read = PROBE_GRID, .path = path,
                           .dataset = dataset };
  u->data = NULL;
  *absent = false;
  return probe_grid (&p, msg, len)
         && h5read_grid (path, dataset, u, absent, msg, len);
}

bool
h5_read_integers (const char *path, const char *dataset, size_t grids,
                  struct h5_integers *k, bool *absent, char *msg, size_t len)
{
  const struct probe p = { .read = PROBE_INTEGERS, .path = path,
                           .dataset = dataset, .grids = grids };
  k->value = NULL;
  *absent = false;
  return probe_grid (&p, msg, len)
         && h5read_integers (path, dataset, grids, k, absent, msg, len);
}

bool
h5_map_shape (const char *path, const char *dataset, bool integers,
              size_t *nx, size_t *ny, bool *absent, char *msg, size_t len)
{
  const struct probe p = { .read = PROBE_SHAPE, .path = path,
                           .dataset = dataset, .integers = integers };
  *absent = false;
  return probe_grid (&p, msg, len)
         && h5read_shape (path, dataset, integers, nx, ny, absent, msg, len);
}
