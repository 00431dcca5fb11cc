#include <config.h>

#include "h5image.h"

#include <stdlib.h>
#include <string.h>

/* The core driver frees its buffer at close through these callbacks,
   which keep it instead: the buffer then holds the complete file.  */

static void *
image_malloc (size_t size, H5FD_file_image_op_t op, void *udata)
{
  (void) op;
  struct h5image *im = udata;
  void *p = malloc (size);
  if (p != NULL)
    im->capacity = size;
  return p;
}

static void *
image_memcpy (void *dest, const void *src, size_t size,
              H5FD_file_image_op_t op, void *udata)
{
  (void) op, (void) udata;
  return memcpy (dest, src, size);
}

static void *
image_realloc (void *ptr, size_t size, H5FD_file_image_op_t op, void *udata)
{
  (void) op;
  struct h5image *im = udata;
  void *p = realloc (ptr, size);
  if (p != NULL)
    im->capacity = size;
  return p;
}

static herr_t
image_free (void *ptr, H5FD_file_image_op_t op, void *udata)
{
  struct h5image *im = udata;
  if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && im->data == NULL)
    im->data = ptr;
  else
    free (ptr);
  return 0;
}

/* The property lists share the one struct h5image.  */
static void *
image_udata_copy (void *udata)
{
  return udata;
}

static herr_t
image_udata_free (void *udata)
{
  (void) udata;
  return 0;
}

hid_t
h5image_create (struct h5image *im, size_t userblock)
{
  H5FD_file_image_callbacks_t callbacks = {
    image_malloc, image_memcpy, image_realloc, image_free,
    image_udata_copy, image_udata_free, im,
  };
  *im = (struct h5image) { .userblock = userblock };
  hid_t fcpl = H5Pcreate (H5P_FILE_CREATE);
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);
  const bool ok = H5Pset_userblock (fcpl, userblock) >= 0
                  && H5Pset_fapl_core (fapl, 1 << 20, false) >= 0
                  && H5Pset_file_image_callbacks (fapl, &callbacks) >= 0;
  hid_t file = ok ? H5Fcreate ("heatsim-image", H5F_ACC_TRUNC, fcpl, fapl)
                  : -1;
  H5Pclose (fapl);
  H5Pclose (fcpl);
  return file;
}

bool
h5image_close (hid_t file, bool ok, struct h5image *im, size_t *size)
{
  ok = ok && file >= 0 && H5Fflush (file, H5F_SCOPE_LOCAL) >= 0;
  /* The size of the flushed file, user block left out.  Closing writes
     nothing past it: it can only give back unused space at the end.  */
  const ssize_t n = ok ? H5Fget_file_image (file, NULL, 0) : -1;
  if (file >= 0)
    ok = H5Fclose (file) >= 0 && ok;
  *size = im->userblock + (size_t) (n > 0 ? n : 0);
  if (ok && n > 0 && im->data != NULL && *size <= im->capacity)
    return true;
  free (im->data);
  im->data = NULL;
  return false;
}
