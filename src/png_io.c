#include <config.h>

#include "png_io.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "colormap.h"
#include "diagnostics.h"
#include "status.h"
#include "sysmem.h"

/* libpng reports errors by longjmp; these carry the message out.  */
static void
png_error_handler (png_structp png, png_const_charp msg)
{
  char *buf = png_get_error_ptr (png);
  snprintf (buf, 256, "%s", msg);
  png_longjmp (png, 1);
}

static void
png_warning_handler (png_structp png, png_const_charp msg)
{
  (void) png;
  (void) msg;
}

/* One image row from field row j.  */
static void
encode_row (const struct field *u, size_t j, const struct png_style *st,
            unsigned char *row)
{
  /* In halves, so that a range as wide as -DBL_MAX..DBL_MAX does not
     overflow; halving is exact, so other ranges map as before.  */
  const double half_lo = 0.5 * st->lo;
  const double scale = st->hi > st->lo ? 1.0 / (0.5 * st->hi - half_lo) : 0.0;
  for (size_t i = 1; i <= u->nx; ++i)
    {
      double t = (0.5 * u->data[field_index (u, i, j)] - half_lo) * scale;
      if (st->depth == 16)
        {
          double c = t > 0.0 ? (t < 1.0 ? t : 1.0) : 0.0;
          unsigned v = (unsigned) lround (c * 65535.0);
          row[2 * (i - 1)] = (unsigned char) (v >> 8);    /* big-endian */
          row[2 * (i - 1) + 1] = (unsigned char) (v & 0xff);
        }
      else
        colormap_rgb (st->colormap, t, row + 3 * (i - 1));
    }
}

static void
add_text (png_structp png, png_infop info, const struct png_style *st,
          const struct png_meta *m)
{
  char step[32], time[40], range[80];
  snprintf (step, sizeof step, "%zu", m->step);
  snprintf (time, sizeof time, "%.17g", m->time);
  snprintf (range, sizeof range, "%.17g %.17g", st->lo, st->hi);
  png_text text[] = {
    { .compression = PNG_TEXT_COMPRESSION_NONE, .key = (char *) "Software",
      .text = (char *) PACKAGE_STRING },
    { .compression = PNG_TEXT_COMPRESSION_NONE, .key = (char *) "heatsim:step",
      .text = step },
    { .compression = PNG_TEXT_COMPRESSION_NONE, .key = (char *) "heatsim:time",
      .text = time },
    { .compression = PNG_TEXT_COMPRESSION_NONE,
      .key = (char *) "heatsim:range", .text = range },
    { .compression = PNG_TEXT_COMPRESSION_NONE,
      .key = (char *) "heatsim:colormap",
      .text = (char *) (st->depth == 16 ? "gray16" : st->colormap->name) },
    { .compression = PNG_TEXT_COMPRESSION_NONE,
      .key = (char *) "heatsim:problem", .text = (char *) m->problem },
  };
  png_set_text (png, info, text, (int) (sizeof text / sizeof text[0]));
}

/* The libpng part of writing: fp is open; returns false with msg set.  */
static bool
write_png_stream (FILE *fp, const struct field *u,
                  const struct png_style *st, const struct png_meta *m,
                  char *msg)
{
  const size_t pixel = st->depth == 16 ? 2 : 3;
  unsigned char *row = malloc (u->nx * pixel);
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, msg,
                                             png_error_handler,
                                             png_warning_handler);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  if (row == NULL || info == NULL)
    {
      snprintf (msg, 256, "out of memory");
      png_destroy_write_struct (&png, &info);
      free (row);
      return false;
    }
  bool ok = false;
  if (setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, fp);
      png_set_IHDR (png, info, (png_uint_32) u->nx, (png_uint_32) u->ny,
                    st->depth, st->depth == 16 ? PNG_COLOR_TYPE_GRAY
                    : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      /* Snapshots are written during a run, so favour speed: zlib level 1
         and the cheap Sub filter (measured on 4096^2: half the time of
         libpng's adaptive filtering, for files 35 % larger).  */
      png_set_compression_level (png, 1);
      png_set_filter (png, 0, PNG_FILTER_SUB);
      add_text (png, info, st, m);
      png_write_info (png, info);
      for (size_t j = u->ny; j >= 1; --j)   /* top image row = largest y */
        {
          encode_row (u, j, st, row);
          png_write_row (png, row);
        }
      png_write_end (png, info);
      ok = true;
    }
  png_destroy_write_struct (&png, &info);
  free (row);
  return ok;
}

size_t
png_side_max (void)
{
  /* libpng refuses wider or taller images, reading and writing.  */
  return PNG_USER_WIDTH_MAX < PNG_USER_HEIGHT_MAX ? PNG_USER_WIDTH_MAX
         : PNG_USER_HEIGHT_MAX;
}

int
png_write_field (const char *path, const struct field *u,
                 const struct png_style *st, const struct png_meta *m)
{
  if (u->nx > PNG_UINT_31_MAX || u->ny > PNG_UINT_31_MAX)
    {
      heatsim_error ("%s: grid too large for a PNG image", path);
      return HEATSIM_WRITE_FAILED;
    }
  char tmp[4096], msg[256] = "";
  FILE *fp = atomic_fopen (path, tmp, sizeof tmp);
  if (fp == NULL)
    {
      heatsim_error ("%s: cannot create: %s", path, strerror (errno));
      return HEATSIM_WRITE_FAILED;
    }
  bool encoded = write_png_stream (fp, u, st, m, msg);
  if (atomic_fclose (fp, encoded, tmp, path))
    return HEATSIM_OK;
  int e = errno;
  if (encoded)
    heatsim_error ("%s: cannot write: %s", path, strerror (e));
  else
    /* libpng's message for a failed fwrite is generic; errno is not.  */
    heatsim_error ("%s: cannot write: %s%s%s", path, msg,
                   e != 0 ? ": " : "", e != 0 ? strerror (e) : "");
  return HEATSIM_WRITE_FAILED;
}

bool
png_is_png (const char *path)
{
  unsigned char sig[8];
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    return false;
  bool yes = fread (sig, 1, sizeof sig, fp) == sizeof sig
             && png_sig_cmp (sig, 0, sizeof sig) == 0;
  fclose (fp);
  return yes;
}

/* Decode rows of a gray image (8 or 16 bits) into the padded field.  */
static bool
read_png_stream (FILE *fp, double lo, double hi, struct field *u, char *msg)
{
  struct stat st;
  const double file_size = fstat (fileno (fp), &st) == 0 ? (double) st.st_size
                           : 0.0;
  size_t need, avail;
  png_structp png = png_create_read_struct (PNG_LIBPNG_VER_STRING, msg,
                                            png_error_handler,
                                            png_warning_handler);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  unsigned char *volatile row = NULL;
  bool ok = false;
  u->data = NULL;
  if (info == NULL)
    snprintf (msg, 256, "out of memory");
  else if (setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, fp);
      /* Skip the chunks that do not change pixels: libpng allocates the
         length a text chunk claims before reading it, gigabytes for a
         250-byte file with a damaged length (a fuzz_png finding).  */
      static const png_byte unused[] = "tEXt" "zTXt" "iTXt" "iCCP" "sPLT"
                                       "eXIf";
      png_set_keep_unknown_chunks (png, PNG_HANDLE_CHUNK_NEVER, unused,
                                   (int) (sizeof unused - 1) / 4);
      png_read_info (png, info);
      const png_uint_32 w = png_get_image_width (png, info);
      const png_uint_32 h = png_get_image_height (png, info);
      const int type = png_get_color_type (png, info);
      if (png_get_bit_depth (png, info) < 8)
        png_set_expand_gray_1_2_4_to_8 (png);
      if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb (png);
      if (type & PNG_COLOR_MASK_COLOR)
        png_set_rgb_to_gray_fixed (png, 1, -1, -1);
      png_set_strip_alpha (png);
      /* An interlaced image comes in passes over the whole image: read
         every row once per pass, and libpng fills the rows in.  */
      const int passes = png_set_interlace_handling (png);
      png_read_update_info (png, info);
      const int depth = png_get_bit_depth (png, info);
      /* A damaged or hostile file can claim any size: its pixels must fit
         in its compressed bytes before memory is taken for them.  */
      const double raw = (double) png_get_rowbytes (png, info) * (double) h;
      if (w < 3 || h < 3)
        snprintf (msg, 256, "image is %ux%u; an initial field needs at least "
                  "3x3 pixels (one interior cell inside the boundary ring)",
                  (unsigned) w, (unsigned) h);
      else if (raw > file_size * MAX_INFLATION)
        snprintf (msg, 256, "image claims %ux%u pixels, more than a %.0f-byte "
                  "file can hold (damaged file?)", (unsigned) w, (unsigned) h,
                  file_size);
      else if (!grids_fit_in_memory (w - 2, h - 2, &need, &avail))
        snprintf (msg, 256, "a %ux%u field needs %zu bytes for two grids; "
                  "only %zu are available", (unsigned) w - 2,
                  (unsigned) h - 2, need, avail);
      else if ((row = calloc (passes == 1 ? 1 : h,
                              png_get_rowbytes (png, info))) == NULL
               || !field_alloc (u, w - 2, h - 2))
        snprintf (msg, 256, "out of memory for a %ux%u field", (unsigned) w,
                  (unsigned) h);
      else
        {
          const double top = depth == 16 ? 65535.0 : 255.0;
          const size_t rowbytes = png_get_rowbytes (png, info);
          /* Interlaced: the whole image first, then the rows from it.  */
          for (int p = 1; p < passes; ++p)
            for (png_uint_32 r = 0; r < h; ++r)
              png_read_row (png, row + r * rowbytes, NULL);
          for (png_uint_32 r = 0; r < h; ++r)
            {
              unsigned char *const pixels = passes == 1 ? row
                                            : row + r * rowbytes;
              png_read_row (png, pixels, NULL);
              const size_t j = h - 1 - r;      /* y up */
              for (png_uint_32 i = 0; i < w; ++i)
                {
                  unsigned g = depth == 16 ? (unsigned) pixels[2 * i] << 8
                                             | pixels[2 * i + 1] : pixels[i];
                  u->data[field_index (u, i, j)] = lo + (hi - lo) * (g / top);
                }
            }
          png_read_end (png, NULL);
          ok = true;
        }
    }
  png_destroy_read_struct (&png, &info, NULL);
  free (row);
  if (!ok)
    field_free (u);
  return ok;
}

int
png_read_field (const char *path, double lo, double hi, struct field *u)
{
  char msg[256] = "";
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    {
      heatsim_error ("%s: cannot open: %s", path, strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  bool ok = read_png_stream (fp, lo, hi, u, msg);
  fclose (fp);
  if (ok)
    return HEATSIM_OK;
  heatsim_error ("%s: not a usable PNG image: %s", path, msg);
  return HEATSIM_BAD_FILE;
}
