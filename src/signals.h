/* SIGINT and SIGTERM end a run cleanly: the first asks the time loop to
   stop after the current step (and write a checkpoint if checkpointing is
   on); a second ends heatsim at once.  Output files are written
   atomically, so even then no file is left half-written.  */
#ifndef HEATSIM_SIGNALS_H
#define HEATSIM_SIGNALS_H

/* Install the handlers.  */
void signals_install (void);

/* The signal that asked the run to stop, or 0.  */
int signals_pending (void);

#endif
