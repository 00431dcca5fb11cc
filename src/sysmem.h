/* How much memory the host can give this process now.  */
#ifndef HEATSIM_SYSMEM_H
#define HEATSIM_SYSMEM_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes available (Linux: MemAvailable; elsewhere free pages).  False when
   the system does not say, in which case no limit is assumed.  */
bool host_memory_available (size_t *bytes);

/* Whether need bytes fit in the memory available now (true when the
   system does not say; false for SIZE_MAX, a count that overflowed);
   avail receives the bytes available (0 if unknown).  */
bool fits_in_memory (size_t need, size_t *avail);

/* Whether grids padded nx x ny grids fit in the memory available now
   (true when the system does not say); need and avail receive the byte
   counts.  */
bool grids_fit_in_memory (size_t grids, size_t nx, size_t ny, size_t *need,
                          size_t *avail);

/* The largest resident set this process has had, in bytes (0 if the
   system does not say).  */
size_t peak_resident_bytes (void);

/* The most raw bytes that stored bytes can hold: deflate, the best
   compression HDF5 and PNG use here, packs at most 1032 bytes into 1.  */
#define MAX_INFLATION 1032

#endif
