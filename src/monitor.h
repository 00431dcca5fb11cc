/* --monitor FILE: one CSV row of diagnostics (total heat, range, error,
   change of the last sweep) every --monitor-every steps, so that a long
   run can be watched, and plotted, while it goes.  The file is a
   series_file (series_file.h): append-safe, never overwritten, continued
   by --restart.  */
#ifndef HEATSIM_MONITOR_H
#define HEATSIM_MONITOR_H

#include <stdbool.h>
#include <stddef.h>

#include "series_file.h"

struct config;
struct material;
struct domain;
struct field;

/* The columns, in order.  A column added later goes at the end, so
   scripts that read the file by column name or position keep working.  */
#define MONITOR_HEADER \
  "step,time,total_heat,min,max,l2_error,max_change,residual," \
  "heat_rate_left,heat_rate_right,heat_rate_bottom,heat_rate_top," \
  "source_power,face_cooling,stored_heat_rate,imbalance\n"

struct monitor {
  bool on;                 /* --monitor given: every rank computes rows */
  struct series_file file; /* open on rank 0 */
  bool heat_known;         /* the total heat of step heat_step is ... */
  size_t heat_step;
  double heat;             /* ... this (a row's, or monitor_note_heat's) */
};

/* No monitor: what monitor_close accepts before monitor_check ran.  */
#define MONITOR_NONE \
  ((struct monitor) { .on = false, .file = SERIES_NONE, .heat_known = false })

/* Check cfg->monitor before the first step, on rank 0 (series_check):
   refused (HEATSIM_BAD_FILE) when it is a directory or not a regular
   file, an input, a file the snapshots or checkpoints would overwrite,
   cannot be created, or exists without --restart, or with --restart
   holds rows that the run would drop and not write again.  Nothing is
   written yet.  Returns 0 or a heatsim_status.  */
int monitor_check (struct monitor *m, const struct config *cfg,
                   const struct domain *d);

/* Create the checked file with its header on rank 0, or with --restart
   continue it as the file of the uninterrupted run (its rows after the
   restart step are dropped: monitor_check made sure that the restarted
   run writes them again, bitwise the same).  Returns 0 or a
   heatsim_status.  */
int monitor_begin (struct monitor *m, const struct domain *d);

/* Whether a row is computed after step: every cfg->monitor_every steps
   of the simulation, at the run's first step and at its last (rank 0
   leaves out the first where a continued file says it has no place).  */
bool monitor_due (const struct monitor *m, const struct config *cfg,
                  size_t step, bool last);

/* The row of step: u is this rank's part of the field, current on the
   host, material its material (for the total heat and the heat
   budget); the stored heat's rate is the total heat's change in the
   step that ended at step, over dt (0 for steady runs; unknown where
   the heat of the step before is not known); change is the largest
   change of a cell in the sweep that gave it
   (Jacobi), residual the norm of the residual of the discrete steady
   equations (steady runs); either negative or NaN where there is none;
   last: step is the run's last.  Collective: every rank calls it, rank
   0 writes.  Returns 0 or a heatsim_status.  */
int monitor_write (struct monitor *m, const struct config *cfg,
                   const struct domain *d, const struct material *material,
                   const struct field *u, size_t step, bool last,
                   double change, double residual);

/* Whether a row of a time-dependent run falls due after the step
   that follows step (next_last: that step is the run's last), and the
   total heat at step, which its stored heat's rate needs, is not known:
   the caller then gives it by monitor_note_heat.  */
bool monitor_wants_heat (const struct monitor *m, const struct config *cfg,
                         size_t step, bool next_last);
void monitor_note_heat (struct monitor *m, size_t step, double heat);

/* Flush the rows written so far to disk, on rank 0 (series_sync):
   before a checkpoint is put in place, so that a crash of the machine
   cannot leave the checkpoint without the row of its step.  Returns 0
   or a heatsim_status.  */
int monitor_sync (struct monitor *m);

/* Flush the file to disk and close it.  Returns 0 or a heatsim_status.  */
int monitor_close (struct monitor *m);

#endif
