#include "isolate.h"

#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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
    got = waitpid (child, &status, 0);
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
