#include <config.h>

#include "seal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fnv1a.h"

/* The block is text, then NUL bytes:
     heatsim-checkpoint-seal-1
     fnv1a64 <FNV-1a, 64 bits, of the bytes after the block, in hex>
     bytes <their number>  */
#define SEAL_MAGIC "heatsim-checkpoint-seal-1\n"
#define SEAL_KEY "fnv1a64 "

/* The user block of n bytes whose checksum is sum.  */
static void
seal_text (unsigned char block[SEAL_BYTES], uint64_t sum, uint64_t n)
{
  memset (block, 0, SEAL_BYTES);
  snprintf ((char *) block, SEAL_BYTES,
            SEAL_MAGIC SEAL_KEY "%016" PRIx64 "\nbytes %" PRIu64 "\n", sum, n);
}

void
seal_image (unsigned char *image, size_t size)
{
  const size_t n = size - SEAL_BYTES;
  seal_text (image, fnv1a (FNV1A_OFFSET, image + SEAL_BYTES, n), n);
}

/* Whether a file's first got bytes are a seal: its magic or its key line
   is enough, so that one damaged byte cannot make a sealed file pass for
   a foreign one.  */
static bool
sealed (const unsigned char *block, size_t got)
{
  const size_t magic = strlen (SEAL_MAGIC), key = strlen (SEAL_KEY);
  return (got >= magic && memcmp (block, SEAL_MAGIC, magic) == 0)
         || (got >= magic + key
             && memcmp (block + magic, SEAL_KEY, key) == 0);
}

/* The rest of a sealed file (fp after its user block) matches block.  */
static bool
seal_matches (FILE *fp, const unsigned char block[SEAL_BYTES])
{
  char text[SEAL_BYTES + 1];
  memcpy (text, block, SEAL_BYTES);
  text[SEAL_BYTES] = '\0';
  uint64_t sum, n;
  unsigned char want[SEAL_BYTES];
  if (sscanf (text + strlen (SEAL_MAGIC), SEAL_KEY "%16" SCNx64 " bytes %"
              SCNu64, &sum, &n) != 2)
    return false;
  seal_text (want, sum, n);       /* every byte of the block is checked */
  if (memcmp (block, want, SEAL_BYTES) != 0)
    return false;
  unsigned char buf[1 << 16];
  uint64_t h = FNV1A_OFFSET, total = 0;
  size_t got;
  while ((got = fread (buf, 1, sizeof buf, fp)) > 0)
    {
      h = fnv1a (h, buf, got);
      total += got;
    }
  return !ferror (fp) && total == n && h == sum;
}

int
seal_read (const char *path, bool check)
{
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    return -1;
  unsigned char block[SEAL_BYTES];
  const size_t got = fread (block, 1, sizeof block, fp);
  int ret = ferror (fp) ? -1 : sealed (block, got);
  if (ret == 1 && check && (got < SEAL_BYTES || !seal_matches (fp, block)))
    ret = -2;
  int e = errno;
  fclose (fp);
  errno = e;
  return ret;
}
