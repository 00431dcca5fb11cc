#include <config.h>

#include "offload_images.h"

#if defined HEATSIM_OFFLOAD && !defined HEATSIM_OFFLOAD_GPU
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
void
offload_images_remove (void)
{
}
#endif
