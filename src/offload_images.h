/* LLVM's host offload plugin (device code for x86_64, the build that
   tests data movement on a CPU) loads a device's code by writing it to
   /tmp/tmpfile_XXXXXX and opening that as a shared library, and never
   removes the file: half a megabyte left in /tmp for every device a
   process touches.  */
#ifndef HEATSIM_OFFLOAD_IMAGES_H
#define HEATSIM_OFFLOAD_IMAGES_H

/* Remove the image files this process has mapped so far: a loaded
   image stays mapped without its name.  Call it after a device's first
   target region.  Nothing to do, and nothing done, in a build without
   the host plugin's device code.  */
void offload_images_remove (void);

#endif
