#include "isolate.h"

#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "signals.h"

static void
signal_default (int sig)
{
  struct sigaction sa = { .sa_handler = SIG_DFL };
  sigemptyset (&sa.sa_mask);
  sigaction (sig, &sa, NULL);
}

/* SIGINT or SIGTERM caught while heatsim reads its inputs (no run has
   begun, nothing is written): end the child, if any, then this process
   as the signal would (status 128 + N), rather than after the child's
   time limit.  */
static void
stop_if_asked (pid_t child)
{
  const int sig = signals_pending ();
  if (sig == 0)
    return;
  if (child > 0)
    {
      int status;
      kill (child, SIGKILL);
      while (waitpid (child, &status, 0) < 0 && errno == EINTR)
        continue;
    }
  signal_default (sig);
  raise (sig);
}

int
isolate_run (int (*fn) (void *), void *arg, unsigned seconds, int *signal)
{
  stop_if_asked (0);
  const pid_t parent = getpid ();
  const pid_t child = fork ();
  if (child < 0)
    return -2;
  if (child == 0)
    {
#ifdef __linux__
      /* A parent killed outright takes the child with it.  */
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      if (getppid () != parent)
        _exit (0xff);
#endif
      /* The default action of SIGALRM ends the child.  */
      signal_default (SIGALRM);
      alarm (seconds);
      _exit (fn (arg) & 0xff);
    }
  /* Polled, not waited for: a signal caught just before a blocking
     wait would be seen only when the child ends.  The polls start at
     0.1 ms and double up to 10 ms, so that a quick read costs little
     and a stop is seen within 10 ms.  */
  int status;
  pid_t got;
  long nap = 100000;
  while ((got = waitpid (child, &status, WNOHANG)) == 0
         || (got < 0 && errno == EINTR))
    {
      stop_if_asked (child);
      const struct timespec pause = { 0, nap };
      nanosleep (&pause, NULL);
      nap = nap < 5000000 ? 2 * nap : 10000000;
    }
  if (got < 0)
    return -2;
  if (WIFSIGNALED (status))
    {
      *signal = WTERMSIG (status);
      return -1;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : -2;
}
