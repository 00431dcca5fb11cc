#include <config.h>

#include "signals.h"

#include <signal.h>
#include <string.h>

/* The one piece of global state in heatsim: a signal handler can reach
   nothing else.  */
static volatile sig_atomic_t stop_signal;

static void
on_signal (int sig)
{
  if (stop_signal != 0)
    {
      /* Second signal: die of it now, with the conventional status.  */
      signal (sig, SIG_DFL);
      raise (sig);
      return;
    }
  stop_signal = sig;
}

void
signals_install (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  /* A dropped ssh session: as SIGTERM, so the run leaves a checkpoint.  */
  sigaction (SIGHUP, &sa, NULL);
}

void
signals_ignore_write_faults (void)
{
  signal (SIGPIPE, SIG_IGN);
  signal (SIGXFSZ, SIG_IGN);
}

int
signals_pending (void)
{
  return stop_signal;
}
