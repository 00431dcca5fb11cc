/* SIGINT, SIGTERM and SIGHUP end a run cleanly: the first asks the time
   loop to stop after the current step (and write a checkpoint if
   checkpointing is on); a second ends heatsim at once.  Output files are
   written atomically, so even then no file is left half-written.  */
#ifndef HEATSIM_SIGNALS_H
#define HEATSIM_SIGNALS_H

/* Install the handlers.  */
void signals_install (void);

/* Ignore SIGPIPE and SIGXFSZ, which would kill heatsim without a word:
   a write to a closed pipe (heatsim ... | head -1) or past a file size
   limit (ulimit -f) then fails with EPIPE or EFBIG, which the writer
   reports (status 1, naming the file).  */
void signals_ignore_write_faults (void);

/* The signal that asked the run to stop, or 0.  */
int signals_pending (void);

#endif
