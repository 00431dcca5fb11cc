/* libFuzzer target: the readers of user files.  Built twice: with
   FUZZ_HDF5 it feeds the input to the HDF5 checkpoint and dataset readers
   (seeds: heatsim checkpoints with and without the checksummed user
   block, whose mutations the checksum must stop before libhdf5),
   else to the PNG reader.  The input goes through a file, as the readers
   take paths.  Each reader must accept or refuse it, never crash, and
   leave no memory behind.  */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "field.h"
#include "h5io.h"
#include "png_io.h"
#include "status.h"

static char path[] = "/tmp/heatsim-fuzz-XXXXXX";
static int fd = -1;

static void
remove_input (void)
{
  unlink (path);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (fd < 0)
    {
      if ((fd = mkstemp (path)) < 0)
        abort ();
      atexit (remove_input);
    }
  if (ftruncate (fd, 0) != 0
      || pwrite (fd, data, size, 0) != (ssize_t) size)
    abort ();

  struct field u = { 0 };
#ifdef FUZZ_HDF5
  struct checkpoint_meta meta;
  h5_is_checkpoint (path);          /* --init asks first */
  if (h5_read_checkpoint (path, &meta, &u) == HEATSIM_OK)
    field_free (&u);
  if (h5_read_dataset (path, "field", &u) == HEATSIM_OK)
    field_free (&u);
#else
  if (png_read_field (path, 0.0, 1.0, &u) == HEATSIM_OK)
    field_free (&u);
#endif
  return 0;
}
