#include <config.h>

#include "offload_images.h"

#if defined HEATSIM_OFFLOAD && !defined HEATSIM_OFFLOAD_GPU
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The plugin's name for an image: mkstemp's template, fixed in
   libomptarget.  */
static const char image_prefix[] = "/tmp/tmpfile_";
enum { IMAGE_SUFFIX = 6 };

/* The image file a line of /proc/self/maps names (its last field, after
   spaces), cut out of line, or NULL.  A removed one is listed as "NAME
   (deleted)", which does not match.  */
static const char *
mapped_image (char *line)
{
  char *name = strstr (line, image_prefix);
  if (name == NULL || name == line || name[-1] != ' ')
    return NULL;
  name[strcspn (name, "\n")] = '\0';
  return strlen (name) == sizeof image_prefix - 1 + IMAGE_SUFFIX ? name
         : NULL;
}

bool
offload_images_writable (char *err, size_t errlen)
{
  struct stat exe;
  const unsigned long long image
    = stat ("/proc/self/exe", &exe) == 0 ? (unsigned long long) exe.st_size
      : 1ull << 20;
  struct rlimit limit;
  if (getrlimit (RLIMIT_FSIZE, &limit) == 0
      && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < image)
    {
      snprintf (err, errlen, "the offload runtime (LLVM's host plugin) "
                "writes each device's code to /tmp, up to %llu bytes, "
                "beyond the file size limit (ulimit -f) of %llu bytes: "
                "raise it, or use --offload host", image,
                (unsigned long long) limit.rlim_cur);
      return false;
    }
  struct statvfs tmp;
  if (statvfs ("/tmp", &tmp) == 0
      && (unsigned long long) tmp.f_bavail * tmp.f_frsize < image)
    {
      snprintf (err, errlen, "the offload runtime (LLVM's host plugin) "
                "writes each device's code to /tmp, up to %llu bytes, and "
                "/tmp has %llu bytes free: free some, or use --offload "
                "host", image,
                (unsigned long long) tmp.f_bavail * tmp.f_frsize);
      return false;
    }
  return true;
}

void
offload_images_remove (void)
{
  FILE *maps = fopen ("/proc/self/maps", "r");
  if (maps == NULL)
    return;
  char *line = NULL;
  size_t size = 0;
  while (getline (&line, &size, maps) != -1)
    {
      const char *image = mapped_image (line);
      /* Each image is mapped in several segments: the second unlink
         finds no name, harmlessly.  */
      if (image != NULL)
        unlink (image);
    }
  free (line);
  fclose (maps);
}
#else
bool
offload_images_writable (char *err, size_t errlen)
{
  (void) err;
  (void) errlen;
  return true;
}

void
offload_images_remove (void)
{
}
#endif
