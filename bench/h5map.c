#include <config.h>

#include "h5map.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

double *
h5map_read (const char *path, const char *name, size_t *nx, size_t *ny,
            char *msg, size_t msg_size)
{
  /* The message below says what failed; HDF5's own stack would repeat
     it over a dozen lines.  */
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    {
      snprintf (msg, msg_size, "%s: cannot open as an HDF5 file", path);
      return NULL;
    }
  double *data = NULL;
  int rank = -1;
  hsize_t dims[2] = { 0, 0 };
  H5T_class_t type_class = H5T_NO_CLASS;
  size_t type_size = 0;
  if (H5LTfind_dataset (file, name) <= 0
      || H5LTget_dataset_ndims (file, name, &rank) < 0)
    snprintf (msg, msg_size, "%s: no dataset '%s'", path, name);
  else if (rank != 2
           || H5LTget_dataset_info (file, name, dims, &type_class,
                                    &type_size) < 0)
    snprintf (msg, msg_size, "%s: dataset '%s' has rank %d, not 2 (ny, nx)",
              path, name, rank);
  else if (type_class != H5T_FLOAT && type_class != H5T_INTEGER)
    snprintf (msg, msg_size, "%s: dataset '%s' is not numeric", path, name);
  else if (dims[0] == 0 || dims[1] == 0
           || dims[0] > SIZE_MAX / sizeof *data / dims[1])
    snprintf (msg, msg_size, "%s: dataset '%s' has the unusable shape "
              "(%llu, %llu)", path, name, (unsigned long long) dims[0],
              (unsigned long long) dims[1]);
  else if ((data = malloc (dims[0] * dims[1] * sizeof *data)) == NULL)
    snprintf (msg, msg_size, "%s: no memory for dataset '%s'", path, name);
  else if (H5LTread_dataset_double (file, name, data) < 0)
    {
      snprintf (msg, msg_size, "%s: cannot read dataset '%s'", path, name);
      free (data);
      data = NULL;
    }
  H5Fclose (file);
  *ny = dims[0];
  *nx = dims[1];
  return data;
}

bool
h5map_write (const char *path, const char *name, const double *data,
             size_t nx, size_t ny, const char *description, char *msg,
             size_t msg_size)
{
  char part[4096];
  if ((size_t) snprintf (part, sizeof part, "%s.part", path) >= sizeof part)
    {
      snprintf (msg, msg_size, "%s: name too long", path);
      return false;
    }
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fcreate (part, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0)
    {
      snprintf (msg, msg_size, "%s: cannot create", part);
      return false;
    }
  const hsize_t dims[2] = { ny, nx };
  bool ok = H5LTmake_dataset_double (file, name, 2, dims, data) >= 0
            && H5LTset_attribute_string (file, "/", "description",
                                         description) >= 0;
  ok = H5Fclose (file) >= 0 && ok;
  if (ok && rename (part, path) != 0)
    ok = false;
  if (!ok)
    {
      snprintf (msg, msg_size, "%s: cannot write", path);
      remove (part);
    }
  return ok;
}
