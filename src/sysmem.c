#include <config.h>

#include "sysmem.h"

#include <sys/resource.h>

#include "field.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

bool
host_memory_available (size_t *bytes)
{
  /* MemAvailable counts reclaimable page cache, which free pages do not.  */
  FILE *f = fopen ("/proc/meminfo", "r");
  if (f != NULL)
    {
      char line[128];
      unsigned long long kib;
      bool found = false;
      while (!found && fgets (line, sizeof line, f) != NULL)
        found = sscanf (line, "MemAvailable: %llu kB", &kib) == 1;
      fclose (f);
      if (found)
        {
          *bytes = kib > SIZE_MAX / 1024 ? SIZE_MAX : (size_t) kib * 1024;
          return true;
        }
    }
  long pages = sysconf (_SC_AVPHYS_PAGES), size = sysconf (_SC_PAGESIZE);
  if (pages <= 0 || size <= 0)
    return false;
  *bytes = (size_t) pages * (size_t) size;
  return true;
}

bool
fits_in_memory (size_t need, size_t *avail)
{
  *avail = 0;
  return need != SIZE_MAX
         && (!host_memory_available (avail) || need <= *avail);
}

bool
grids_fit_in_memory (size_t grids, size_t nx, size_t ny, size_t *need,
                     size_t *avail)
{
  size_t bytes;
  *need = !field_bytes (nx, ny, &bytes) || grids == 0
          || bytes > SIZE_MAX / grids ? SIZE_MAX : grids * bytes;
  return fits_in_memory (*need, avail);
}

size_t
peak_resident_bytes (void)
{
  struct rusage usage;
  if (getrusage (RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss < 0)
    return 0;
  return (size_t) usage.ru_maxrss * 1024;   /* Linux counts KiB */
}
