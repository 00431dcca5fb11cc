/* LLVM's host offload plugin (device code for x86_64, the build that
   tests data movement on a CPU) loads a device's code by writing it to
   /tmp/tmpfile_XXXXXX and opening that as a shared library, and never
   removes the file: half a megabyte left in /tmp for every device a
   process touches.  */
#ifndef HEATSIM_OFFLOAD_IMAGES_H
#define HEATSIM_OFFLOAD_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the plugin can write a device's image: where a file size
   limit (ulimit -f) or a full /tmp stops the write, libomptarget aborts
   the process (SIGABRT) in its first target region, leaving the
   truncated file.  The image is counted as the size of the executable's
   section that holds the images (.llvm.offloading).  False with a message in err; true in a build
   without the host plugin's device code.  */
bool offload_images_writable (char *err, size_t errlen);

/* Remove the image files this process has mapped so far: a loaded
   image stays mapped without its name.  Call it after a device's first
   target region.  Nothing to do, and nothing done, in a build without
   the host plugin's device code.  */
void offload_images_remove (void);

#endif
