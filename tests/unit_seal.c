/* Unit tests of the checksum seal of checkpoints (src/seal.c): a sealed
   image passes its check, and one changed byte anywhere, in the seal or
   in the bytes it covers, is found.  No libhdf5: the image is any bytes.  */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seal.h"
#include "unit.h"

enum { BODY = 300 };

static bool
put_file (const char *path, const unsigned char *data, size_t size)
{
  FILE *fp = fopen (path, "wb");
  if (fp == NULL)
    return false;
  const bool ok = fwrite (data, 1, size, fp) == size;
  return fclose (fp) == 0 && ok;
}

/* Every byte of a sealed image, changed alone, makes the check fail.  */
static void
test_every_byte (const char *path, unsigned char *image, size_t size)
{
  size_t missed = 0;
  for (size_t k = 0; k < size; ++k)
    {
      image[k] ^= 0x20;
      CHECK (put_file (path, image, size));
      if (seal_read (path, true) != -2)
        {
          if (missed++ == 0)
            fprintf (stderr, "  byte %zu changed: not detected\n", k);
        }
      image[k] ^= 0x20;
    }
  CHECK (missed == 0);
}

int
main (void)
{
  char path[] = "unit_seal.XXXXXX";
  const int fd = mkstemp (path);
  CHECK (fd >= 0);
  if (fd < 0)
    return unit_exit ();
  close (fd);

  const size_t size = SEAL_BYTES + BODY;
  unsigned char *image = calloc (size, 1);
  CHECK (image != NULL);
  if (image == NULL)
    return unit_exit ();
  for (size_t k = SEAL_BYTES; k < size; ++k)
    image[k] = (unsigned char) (k * 37 + 11);

  /* Not sealed yet: a foreign file.  */
  CHECK (put_file (path, image, size));
  CHECK (seal_read (path, true) == 0);

  seal_image (image, size);
  CHECK (put_file (path, image, size));
  CHECK (seal_read (path, false) == 1);
  CHECK (seal_read (path, true) == 1);

  test_every_byte (path, image, size);

  /* Truncated, or with a byte added at the end.  */
  CHECK (put_file (path, image, size - 1));
  CHECK (seal_read (path, true) == -2);
  unsigned char *longer = calloc (size + 1, 1);
  CHECK (longer != NULL);
  if (longer != NULL)
    {
      memcpy (longer, image, size);
      CHECK (put_file (path, longer, size + 1));
      CHECK (seal_read (path, true) == -2);
      free (longer);
    }

  /* The same image again passes: the checks above changed nothing.  */
  CHECK (put_file (path, image, size));
  CHECK (seal_read (path, true) == 1);

  unlink (path);
  CHECK (seal_read (path, false) == -1);
  free (image);
  return unit_exit ();
}
