/* The XDMF index of a run's checkpoints (heatsim.xmf in the output
   directory), which ParaView and VisIt open as a time series.  It is
   rewritten whole after each checkpoint; a run that continues a
   checkpoint (--restart, --init of one) takes over the entries of the
   run it continues from the index already there.  */
#ifndef HEATSIM_XDMF_H
#define HEATSIM_XDMF_H

#include <stdbool.h>
#include <stddef.h>

#define XDMF_NAME "heatsim.xmf"

/* One checkpoint of the index: its file in the output directory and the
   grid and time it holds.  */
struct xdmf_entry {
  size_t step;
  char *name;
  size_t nx, ny;            /* interior cells */
  double dx, dy;            /* spacing */
  double x1, y1;            /* the position of the first interior node */
  double time;              /* simulated time */
  bool material, source;    /* the checkpoint has the material's fields,
                               and a source (issue 23) */
};

/* The entries by increasing step.  */
struct xdmf_index {
  struct xdmf_entry *entry;
  size_t count, capacity;
};

/* Add e (its name copied) at the end of the index.  Returns 0 or
   HEATSIM_NO_MEMORY after a message.  */
int xdmf_add (struct xdmf_index *x, const struct xdmf_entry *e);

/* What the index in a directory does not say for certain, the grid and
   time of a checkpoint file, comes from the file: describe completes e,
   whose step and name (a file in dir) are set, or returns false to leave
   the entry out.  */
typedef bool xdmf_describe (const char *dir, struct xdmf_entry *e);

/* Take over from the index in dir the entries before step and time
   whose files are still there, as describe completes them, so that
   steps and times keep increasing.  No index, or one that cannot be read
   (a warning then), adds nothing.  Returns 0 or a heatsim_status.  */
int xdmf_load (struct xdmf_index *x, const char *dir, size_t step,
               double time, xdmf_describe *describe);

/* Rewrite the index in dir.  Returns 0 or, after a message,
   HEATSIM_WRITE_FAILED.  */
int xdmf_write (const struct xdmf_index *x, const char *dir);

void xdmf_free (struct xdmf_index *x);

#endif
