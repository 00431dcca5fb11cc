/* The checksum seal of heatsim's checkpoints: a 512-byte HDF5 user block,
   which libhdf5 and every HDF5 reader skip, holding a checksum of the
   rest of the file.  heatsim checks it before libhdf5 reads a byte of the
   file: libhdf5 1.10 can crash on damaged metadata, so a damaged
   checkpoint must never reach it.  No libhdf5 here.  */
#ifndef HEATSIM_SEAL_H
#define HEATSIM_SEAL_H

#include <stdbool.h>
#include <stddef.h>

enum { SEAL_BYTES = 512 };

/* Fill the first SEAL_BYTES of a complete file image of size bytes
   (size >= SEAL_BYTES) with the seal of the bytes after them.  */
void seal_image (unsigned char *image, size_t size);

/* 1 if the file at path is sealed, 0 if not, -1 (errno set) if it cannot
   be read.  With check, a sealed file whose contents do not match its
   seal gives -2.  */
int seal_read (const char *path, bool check);

#endif
