/* FNV-1a, 64 bits: the checksum of the checkpoints' seal (seal.c) and the
   digests MPI ranks compare before a run (agree.c).  Fast, and plenty
   against damage and mistakes; no defence against tampering.  */
#ifndef HEATSIM_FNV1A_H
#define HEATSIM_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_OFFSET UINT64_C (0xcbf29ce484222325)

/* h (FNV1A_OFFSET to start) with the len bytes at bytes mixed in.  */
static inline uint64_t
fnv1a (uint64_t h, const void *bytes, size_t len)
{
  const unsigned char *b = bytes;
  for (size_t i = 0; i < len; ++i)
    h = (h ^ b[i]) * UINT64_C (0x100000001b3);
  return h;
}

#endif
