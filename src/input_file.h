/* The kind of an input file, checked before it is opened: a run reads
   only regular files (or links to them).  Opening a FIFO for reading
   blocks until a writer comes, and a FIFO or a device (/dev/zero) may
   never end; a directory has nothing to read, and libhdf5 and libpng
   would call it a file of the wrong format.  */
#ifndef HEATSIM_INPUT_FILE_H
#define HEATSIM_INPUT_FILE_H

#include <sys/stat.h>

/* Why a file of status st cannot be an input: "is a directory" or "not
   a regular file", or NULL for a regular file.  */
const char *input_file_unfit (const struct stat *st);

/* As input_file_unfit for the file at path (links followed).  NULL too
   where stat fails: the open that follows says why, with its errno.  */
const char *input_path_unfit (const char *path);

#endif
