/* HDF5 files built in memory: libhdf5 builds the file with its core
   driver, no backing store, and the caller writes the bytes itself.  When
   libhdf5 writes a file and a write fails (a full disk), H5Fclose fails
   half-way, leaves a dangling file ID behind, and libhdf5 1.10 crashes in
   its exit handler closing it; in memory nothing can fail but
   allocation.  */
#ifndef HEATSIM_H5IMAGE_H
#define HEATSIM_H5IMAGE_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>

struct h5image {
  unsigned char *data;      /* the file's bytes, once closed */
  size_t capacity;          /* bytes allocated at data */
  size_t userblock;         /* bytes of zeros the file starts with */
};

/* Create an empty HDF5 file in memory that starts with a user block of
   userblock bytes (0, or a power of 2 of at least 512).  Returns the
   file, or -1.  */
hid_t h5image_create (struct h5image *im, size_t userblock);

/* Flush and close file; if ok and all went well, im->data (to free) holds
   the complete file, user block first, and *size is its size in bytes.
   Otherwise false, with nothing to free.  */
bool h5image_close (hid_t file, bool ok, struct h5image *im, size_t *size);

#endif
