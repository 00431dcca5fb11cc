/* Test helper: write the malformed HDF5 files that heatsim must refuse,
   made with the HDF5 library independently of heatsim's writer.
   Usage: h5_fixtures DIR
   Writes DIR/rank1.h5 (a 1-D dataset /field), DIR/int.h5 (an integer
   /field), DIR/small.h5 (a 2x2 /field), DIR/nan.h5 (a 5x4 /field with a
   NaN), DIR/inf.h5 (with an Inf), DIR/huge.h5 (a /field of
   2^24 x 2^24 values never written: its fill value, 2 PB of it), DIR/good.h5 (a valid 6x5 /field with a
   ring of 1 and 0 inside, and a 1-D /line), DIR/fake.h5 (a checkpoint
   whose 'format' attribute is right but whose field is missing), and
   files whose /field is good.h5's through links: DIR/elink.h5 (an
   external link), DIR/elink-group.h5 (/g an external link to good.h5's
   root: g/field), DIR/soft-elink.h5 (/field a soft link to /g/field, /g
   an external link) and DIR/soft.h5 (/field a soft link to /data, a
   copy of good.h5's field in the file itself).  */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int
write_file (const char *dir, const char *name, int rank, const hsize_t *dims,
            hid_t type, const void *data, const char *dataset)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t space = H5Screate_simple (rank, dims, NULL);
  hid_t set = H5Dcreate2 (file, dataset, type, space, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT);
  int bad = H5Dwrite (set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0;
  H5Dclose (set);
  H5Sclose (space);
  H5Fclose (file);
  return bad;
}

/* A new file DIR/name with, when given, a copy of good.h5's field as
   /data; returns the open file.  */
static hid_t
create (const char *dir, const char *name, const double *data,
        const hsize_t *dims)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (data != NULL)
    {
      hid_t space = H5Screate_simple (2, dims, NULL);
      hid_t set = H5Dcreate2 (file, "data", H5T_NATIVE_DOUBLE, space,
                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      H5Dwrite (set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
      H5Dclose (set);
      H5Sclose (space);
    }
  return file;
}

/* The files whose field is reached through links (after good.h5).  */
static int
write_links (const char *dir)
{
  char good[4096];
  snprintf (good, sizeof good, "%s/good.h5", dir);
  double v[30];
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 6; ++i)
      v[j * 6 + i] = (i == 0 || j == 0 || i == 5 || j == 4) ? 1.0 : 0.0;
  const hsize_t d2[2] = { 5, 6 };
  int bad = 0;
  hid_t file = create (dir, "elink.h5", NULL, NULL);
  bad |= H5Lcreate_external (good, "/field", file, "field", H5P_DEFAULT,
                             H5P_DEFAULT) < 0;
  H5Fclose (file);
  file = create (dir, "elink-group.h5", NULL, NULL);
  bad |= H5Lcreate_external (good, "/", file, "g", H5P_DEFAULT,
                             H5P_DEFAULT) < 0;
  H5Fclose (file);
  file = create (dir, "soft-elink.h5", NULL, NULL);
  bad |= H5Lcreate_external (good, "/", file, "g", H5P_DEFAULT,
                             H5P_DEFAULT) < 0
         || H5Lcreate_soft ("/g/field", file, "field", H5P_DEFAULT,
                            H5P_DEFAULT) < 0;
  H5Fclose (file);
  file = create (dir, "soft.h5", v, d2);
  bad |= H5Lcreate_soft ("/data", file, "field", H5P_DEFAULT,
                         H5P_DEFAULT) < 0;
  H5Fclose (file);
  return bad;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fputs ("usage: h5_fixtures DIR\n", stderr);
      return 2;
    }
  const char *dir = argv[1];
  double v[30];
  int iv[30];
  for (int k = 0; k < 30; ++k)
    v[k] = iv[k] = k;
  hsize_t d1[1] = { 30 }, d2[2] = { 5, 6 }, small[2] = { 2, 2 };
  hsize_t d54[2] = { 5, 4 };
  int bad = write_file (dir, "rank1.h5", 1, d1, H5T_NATIVE_DOUBLE, v, "field");
  bad |= write_file (dir, "int.h5", 2, d2, H5T_NATIVE_INT, iv, "field");
  bad |= write_file (dir, "small.h5", 2, small, H5T_NATIVE_DOUBLE, v, "field");
  v[7] = NAN;
  bad |= write_file (dir, "nan.h5", 2, d54, H5T_NATIVE_DOUBLE, v, "field");
  v[7] = INFINITY;
  bad |= write_file (dir, "inf.h5", 2, d54, H5T_NATIVE_DOUBLE, v, "field");
  {
    char path[4096];
    snprintf (path, sizeof path, "%s/huge.h5", dir);
    hsize_t huge[2] = { (hsize_t) 1 << 24, (hsize_t) 1 << 24 };
    hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple (2, huge, NULL);
    hid_t set = H5Dcreate2 (file, "field", H5T_NATIVE_DOUBLE, space,
                            H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bad |= set < 0;
    H5Dclose (set);
    H5Sclose (space);
    H5Fclose (file);
  }
  {
    /* A field whose values live in another file (external storage).  */
    char path[4096], raw[4096];
    const double secret[30] = { 0 };
    snprintf (raw, sizeof raw, "%s/secret.bin", dir);
    FILE *fp = fopen (raw, "wb");
    bad |= fp == NULL || fwrite (secret, sizeof secret, 1, fp) != 1;
    if (fp != NULL)
      fclose (fp);
    snprintf (path, sizeof path, "%s/external.h5", dir);
    hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t dcpl = H5Pcreate (H5P_DATASET_CREATE);
    H5Pset_external (dcpl, raw, 0, sizeof secret);
    hid_t space = H5Screate_simple (2, d2, NULL);
    hid_t set = H5Dcreate2 (file, "field", H5T_NATIVE_DOUBLE, space,
                            H5P_DEFAULT, dcpl, H5P_DEFAULT);
    bad |= set < 0;
    H5Dclose (set);
    H5Sclose (space);
    H5Pclose (dcpl);
    H5Fclose (file);
  }
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 6; ++i)
      v[j * 6 + i] = (i == 0 || j == 0 || i == 5 || j == 4) ? 1.0 : 0.0;
  bad |= write_file (dir, "good.h5", 2, d2, H5T_NATIVE_DOUBLE, v, "field");
  {
    char path[4096];
    snprintf (path, sizeof path, "%s/good.h5", dir);
    hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t space = H5Screate_simple (1, d1, NULL);
    hid_t set = H5Dcreate2 (file, "line", H5T_NATIVE_DOUBLE, space,
                            H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bad |= H5Dwrite (set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                     v) < 0;
    H5Dclose (set);
    H5Sclose (space);
    H5Fclose (file);
  }
  {
    char path[4096];
    snprintf (path, sizeof path, "%s/fake.h5", dir);
    hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t type = H5Tcopy (H5T_C_S1);
    const char *format = "heatsim-checkpoint-1";
    H5Tset_size (type, strlen (format) + 1);
    hid_t space = H5Screate (H5S_SCALAR);
    hid_t attr = H5Acreate2 (file, "format", type, space, H5P_DEFAULT,
                             H5P_DEFAULT);
    bad |= H5Awrite (attr, type, format) < 0;
    H5Aclose (attr);
    H5Sclose (space);
    H5Tclose (type);
    H5Fclose (file);
  }
  bad |= write_links (dir);
  return bad;
}
