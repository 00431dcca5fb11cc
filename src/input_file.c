#include <config.h>

#include "input_file.h"

#include <stddef.h>

const char *
input_file_unfit (const struct stat *st)
{
  if (S_ISREG (st->st_mode))
    return NULL;
  return S_ISDIR (st->st_mode) ? "is a directory" : "not a regular file";
}

const char *
input_path_unfit (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 ? input_file_unfit (&st) : NULL;
}
