#include "isolate.h"

#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "signals.h"

static void
signal_default (int sig)
{
  struct sigaction sa = { .sa_handler = SIG_DFL };
  sigemptyset (&sa.sa_mask);
  sigaction (sig, &sa, NULL);
}

int
isolate_run (int (*fn) (void *), void *arg, unsigned seconds, int *signal)
{
  const pid_t child = fork ();
  if (child < 0)
    return -2;
  if (child == 0)
    {
      /* The default action of SIGALRM ends the child.  */
      signal_default (SIGALRM);
      alarm (seconds);
      _exit (fn (arg) & 0xff);
    }
  int status;
  pid_t got;
  do
    {
      got = waitpid (child, &status, 0);
      /* SIGINT or SIGTERM while the child reads (heatsim reads its
         inputs: no run has begun, nothing is written): end the child,
         then this process as the signal would (status 128 + N), rather
         than after the child's time limit.  */
      const int sig = got < 0 && errno == EINTR ? signals_pending () : 0;
      if (sig != 0)
        {
          kill (child, SIGKILL);
          while (waitpid (child, &status, 0) < 0 && errno == EINTR)
            continue;
          signal_default (sig);
          raise (sig);
        }
    }
  while (got < 0 && errno == EINTR);
  if (got < 0)
    return -2;
  if (WIFSIGNALED (status))
    {
      *signal = WTERMSIG (status);
      return -1;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : -2;
}
