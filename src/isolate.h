/* Run a risky function in a child process first.  libhdf5 can crash on
   a damaged file (tests/fuzz/regressions); a crash in a child is a
   refusal, not the end of heatsim.  */
#ifndef HEATSIM_ISOLATE_H
#define HEATSIM_ISOLATE_H

/* Run fn (arg) in a forked child that exits at once with fn's result
   (0-255), running no exit handlers and flushing no buffers, and is
   ended by SIGALRM after seconds (0: no limit).  Returns that result, or
   -1 with *signal set to the signal that ended the child, or -2 when no
   child could be made (the caller decides whether to go on without the
   probe).  The child is a copy of this process, so a deterministic fn
   that returns in the child returns here too.  A SIGINT or SIGTERM
   caught (signals.h) before or while the child runs ends the child and
   then this process, by that signal, within 10 ms: for reads of the
   inputs, before any run.  On Linux the child dies with this
   process.  */
int isolate_run (int (*fn) (void *), void *arg, unsigned seconds,
                 int *signal);

#endif
