#include "isolate.h"

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int
isolate_run (int (*fn) (void *), void *arg, int *signal)
{
  const pid_t child = fork ();
  if (child < 0)
    return -2;
  if (child == 0)
    _exit (fn (arg) & 0xff);
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
