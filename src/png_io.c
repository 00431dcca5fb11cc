#include <config.h>

#include "png_io.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "colormap.h"
#include "diagnostics.h"
#include "legend.h"
#include "provenance.h"
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

/* Where a snapshot's parts lie.  */
struct image {
  size_t width, height;        /* the whole image */
  size_t field_w, field_h;     /* nx K x ny K pixels at the top left */
  struct legend legend;        /* under the field, when style->legend */
};

/* The legend's text grows with the cells, to stay readable beside them:
   K / 2 image pixels a font pixel, 1 to 4.  */
static unsigned
legend_magnification (unsigned scale)
{
  const unsigned m = scale / 2;
  return m < 1 ? 1 : m > 4 ? 4 : m;
}

static bool
image_layout (const struct png_style *st, size_t nx, size_t ny,
              struct image *im)
{
  const size_t side = png_side_max ();
  const size_t k = st->scale < 1 ? 1 : st->scale;
  if (nx > side / k || ny > side / k)
    return false;
  *im = (struct image) { .field_w = nx * k, .field_h = ny * k };
  im->width = im->field_w;
  im->height = im->field_h;
  if (st->legend)
    {
      legend_layout (&im->legend, st->lo, st->hi, st->last_step, st->steady,
                     st->unit, legend_magnification ((unsigned) k));
      if (im->legend.min_width > im->width)
        im->width = im->legend.min_width;
      im->height += legend_height (&im->legend);
    }
  if (st->even)
    {
      im->width += im->width % 2;
      im->height += im->height % 2;
    }
  return im->width <= side && im->height <= side;
}

bool
png_image_size (const struct png_style *st, size_t nx, size_t ny,
                size_t *width, size_t *height)
{
  struct image im;
  const bool fits = image_layout (st, nx, ny, &im);
  *width = fits ? im.width : 0;
  *height = fits ? im.height : 0;
  return fits;
}

static size_t
pixel_bytes (const struct png_style *st)
{
  return st->depth == 16 ? 2 : 3;
}

/* Pixel x of row: place t of the colour map (16-bit: the gray level).  */
static void
put_level (const struct png_style *st, unsigned char *row, size_t x,
           double t)
{
  if (st->depth == 16)
    {
      const double c = t > 0.0 ? (t < 1.0 ? t : 1.0) : 0.0;
      const unsigned v = (unsigned) lround (c * 65535.0);
      row[2 * x] = (unsigned char) (v >> 8);    /* big-endian */
      row[2 * x + 1] = (unsigned char) (v & 0xff);
    }
  else
    colormap_rgb (st->colormap, t, row + 3 * x);
}

/* Pixel x of row: the legend's black text or white background, in
   either depth.  */
static void
put_paint (const struct png_style *st, unsigned char *row, size_t x,
           enum paint paint, double t)
{
  if (paint == PAINT_RAMP)
    put_level (st, row, x, t);
  else
    memset (row + x * pixel_bytes (st), paint == PAINT_INK ? 0x00 : 0xff,
            pixel_bytes (st));
}

/* One image row from field row j, each cell k pixels wide, and the
   background to the right of the field.  */
static void
encode_row (const struct field *u, size_t j, const struct png_style *st,
            const struct image *im, unsigned char *row)
{
  /* In halves, so that a range as wide as -DBL_MAX..DBL_MAX does not
     overflow; halving is exact, so other ranges map as before.  */
  const double half_lo = 0.5 * st->lo;
  const double scale = st->hi > st->lo ? 1.0 / (0.5 * st->hi - half_lo) : 0.0;
  const size_t k = im->field_w / u->nx;
  for (size_t i = 1; i <= u->nx; ++i)
    {
      const double t = (0.5 * u->data[field_index (u, i, j)] - half_lo)
                       * scale;
      for (size_t r = 0; r < k; ++r)
        put_level (st, row, (i - 1) * k + r, t);
    }
  for (size_t x = im->field_w; x < im->width; ++x)
    put_paint (st, row, x, PAINT_PAPER, 0.0);
}

/* The rows of the legend, then a row of background where the height was
   made even.  paint and ramp have room for a row.  */
static void
write_legend (png_structp png, const struct image *im,
              const struct png_style *st, const struct png_meta *m,
              unsigned char *row, unsigned char *paint, double *ramp)
{
  size_t y = im->field_h;
  if (st->legend)
    {
      char caption[96];
      legend_caption (&im->legend, m->step, m->time, caption,
                      sizeof caption);
      for (size_t ly = 0; ly < legend_height (&im->legend); ++ly, ++y)
        {
          legend_row (&im->legend, im->width, ly, caption, paint, ramp);
          for (size_t x = 0; x < im->width; ++x)
            put_paint (st, row, x, paint[x], ramp[x]);
          png_write_row (png, row);
        }
    }
  for (; y < im->height; ++y)
    {
      for (size_t x = 0; x < im->width; ++x)
        put_paint (st, row, x, PAINT_PAPER, 0.0);
      png_write_row (png, row);
    }
}

/* Whether s is valid UTF-8 with at least one byte outside ASCII: then
   the command line goes in an iTXt chunk; other bytes are kept as they
   are in a tEXt chunk (read as Latin-1).  */
static bool
is_utf8_beyond_ascii (const char *s)
{
  bool beyond = false;
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0';)
    {
      if (*p < 0x80)
        {
          ++p;
          continue;
        }
      const int n = (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2
                    : (*p & 0xf8) == 0xf0 ? 3 : -1;
      if (n < 0)
        return false;
      ++p;
      for (int k = 0; k < n; ++k, ++p)
        if ((*p & 0xc0) != 0x80)
          return false;
      beyond = true;
    }
  return beyond;
}

/* v in the fewest significant digits that read back as v: exact, and
   "0.1" rather than "0.10000000000000001"; with an exponent only where
   17 digits would have one ("3000", not "3e+03").  */
static void
put_real (char *buf, size_t len, double v)
{
  char full[40];
  snprintf (full, sizeof full, "%.17g", v);
  for (int digits = 1; digits <= 17; ++digits)
    {
      snprintf (buf, len, "%.*g", digits, v);
      if (strtod (buf, NULL) == v
          && (strchr (buf, 'e') == NULL || strchr (full, 'e') != NULL))
        return;
    }
}

/* The text chunks, up to 20: what the image shows, how to read it, and
   the run and build that wrote it.  */
struct text_chunks {
  png_text text[20];
  int n;
  char step[32], time[40], range[80], grid[48], length[64], alpha[32];
  char dt[32], scale[16];
};

static void
put_text (struct text_chunks *t, const char *key, const char *value)
{
  t->text[t->n++] = (png_text) { .compression = PNG_TEXT_COMPRESSION_NONE,
                                 .key = (char *) key, .text = (char *) value };
}

static void
add_text (png_structp png, png_infop info, const struct png_style *st,
          const struct png_meta *m)
{
  struct text_chunks t = { .n = 0 };
  snprintf (t.step, sizeof t.step, "%zu", m->step);
  char lo[32], hi[32], lx[32], ly[32];
  put_real (t.time, sizeof t.time, m->time);
  put_real (lo, sizeof lo, st->lo);
  put_real (hi, sizeof hi, st->hi);
  snprintf (t.range, sizeof t.range, "%s %s", lo, hi);
  snprintf (t.grid, sizeof t.grid, "%zux%zu", m->nx, m->ny);
  put_real (lx, sizeof lx, m->lx);
  put_real (ly, sizeof ly, m->ly);
  snprintf (t.length, sizeof t.length, "%sx%s", lx, ly);
  put_real (t.alpha, sizeof t.alpha, m->alpha);
  put_real (t.dt, sizeof t.dt, m->dt);
  snprintf (t.scale, sizeof t.scale, "%u", st->scale < 1 ? 1 : st->scale);
  put_text (&t, "Software", PACKAGE_STRING);
  put_text (&t, "heatsim:step", t.step);
  put_text (&t, "heatsim:time", t.time);
  put_text (&t, "heatsim:range", t.range);
  put_text (&t, "heatsim:colormap",
            st->depth == 16 ? "gray16" : st->colormap->name);
  put_text (&t, "heatsim:problem", m->problem);
  put_text (&t, "heatsim:grid", t.grid);
  put_text (&t, "heatsim:length", t.length);
  put_text (&t, "heatsim:alpha", t.alpha);
  put_text (&t, "heatsim:dt", t.dt);
  put_text (&t, "heatsim:scale", t.scale);
  put_text (&t, "heatsim:temperature-unit", st->unit ? st->unit : "1");
  const struct provenance *p = m->provenance;
  if (p != NULL)
    {
      put_text (&t, "heatsim:command-line", p->command_line);
      if (is_utf8_beyond_ascii (p->command_line))
        {
          t.text[t.n - 1].compression = PNG_ITXT_COMPRESSION_NONE;
          t.text[t.n - 1].lang = (char *) "";
          t.text[t.n - 1].lang_key = (char *) "";
        }
      if (p->case_text != NULL)
        {
          put_text (&t, "heatsim:case", p->case_text);
          if (is_utf8_beyond_ascii (p->case_text))
            {
              t.text[t.n - 1].compression = PNG_ITXT_COMPRESSION_NONE;
              t.text[t.n - 1].lang = (char *) "";
              t.text[t.n - 1].lang_key = (char *) "";
            }
        }
      put_text (&t, "heatsim:version", p->version);
      put_text (&t, "heatsim:device-code", p->device_code);
      put_text (&t, "heatsim:mpi", p->mpi);
    }
  png_set_text (png, info, t.text, t.n);
}

/* The libpng part of writing: fp is open; returns false with msg set.  */
static bool
write_png_stream (FILE *fp, const struct field *u,
                  const struct png_style *st, const struct png_meta *m,
                  char *msg)
{
  struct image im;
  if (!image_layout (st, u->nx, u->ny, &im))
    {
      snprintf (msg, 256, "image too large");
      return false;
    }
  /* A row, and for the legend what each of its pixels shows.  */
  const size_t legend_w = st->legend ? im.width : 1;
  unsigned char *row = malloc (im.width * pixel_bytes (st));
  unsigned char *paint = malloc (legend_w);
  double *ramp = calloc (legend_w, sizeof *ramp);
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, msg,
                                             png_error_handler,
                                             png_warning_handler);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  bool ok = false;
  if (row == NULL || paint == NULL || ramp == NULL || info == NULL)
    snprintf (msg, 256, "out of memory");
  else if (setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, fp);
      png_set_IHDR (png, info, (png_uint_32) im.width,
                    (png_uint_32) im.height, st->depth,
                    st->depth == 16 ? PNG_COLOR_TYPE_GRAY
                    : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      /* Snapshots are written during a run, so favour speed: zlib level 1
         and the cheap Sub filter (measured on 4096^2: half the time of
         libpng's adaptive filtering, for files 35 % larger).  */
      png_set_compression_level (png, 1);
      png_set_filter (png, 0, PNG_FILTER_SUB);
      add_text (png, info, st, m);
      png_write_info (png, info);
      const size_t k = im.field_h / u->ny;
      for (size_t j = u->ny; j >= 1; --j)   /* top image row = largest y */
        {
          encode_row (u, j, st, &im, row);
          for (size_t r = 0; r < k; ++r)
            png_write_row (png, row);
        }
      write_legend (png, &im, st, m, row, paint, ramp);
      png_write_end (png, info);
      ok = true;
    }
  png_destroy_write_struct (&png, &info);
  free (ramp);
  free (paint);
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
  size_t width, height;
  if (!png_image_size (st, u->nx, u->ny, &width, &height))
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

/* Skip the chunks that do not change pixels: libpng allocates the length
   a text chunk claims before reading it, gigabytes for a 250-byte file
   with a damaged length (a fuzz_png finding).  */
static void
skip_unused_chunks (png_structp png)
{
  static const png_byte unused[] = "tEXt" "zTXt" "iTXt" "iCCP" "sPLT"
                                   "eXIf";
  png_set_keep_unknown_chunks (png, PNG_HANDLE_CHUNK_NEVER, unused,
                               (int) (sizeof unused - 1) / 4);
}

/* Whether every pixel of the palette image png (its info read) indexes
   its palette: false with a pixel that does not in msg.  The
   rows are read as indices, one byte each, into one row: an interlaced
   image's passes each write their own pixels at their places, and what
   the row held before is a pixel already found in range (or zero, in
   range), so an index beyond is always new, at its place.  */
static bool
indices_in_palette (png_structp png, png_infop info, double file_size,
                    unsigned char *volatile *row, char *msg)
{
  png_colorp palette;
  int colours = 0;
  if (png_get_PLTE (png, info, &palette, &colours) != PNG_INFO_PLTE)
    colours = 0;
  const int depth = png_get_bit_depth (png, info);
  if (colours >= 1 << depth)
    return true;                /* no index can lie beyond */
  png_set_packing (png);        /* one byte an index */
  const int passes = png_set_interlace_handling (png);
  png_read_update_info (png, info);
  const png_uint_32 w = png_get_image_width (png, info);
  const png_uint_32 h = png_get_image_height (png, info);
  const size_t rowbytes = png_get_rowbytes (png, info);
  /* Too large for its file: the decode refuses it, unread.  */
  if ((double) rowbytes * (double) h > file_size * MAX_INFLATION)
    return true;
  if ((*row = calloc (1, rowbytes)) == NULL)
    {
      snprintf (msg, 256, "out of memory for a row of %u pixels",
                (unsigned) w);
      return false;
    }
  for (int p = 0; p < passes; ++p)
    for (png_uint_32 r = 0; r < h; ++r)
      {
        png_read_row (png, *row, NULL);
        for (png_uint_32 i = 0; i < w; ++i)
          if ((*row)[i] >= colours)
            {
              snprintf (msg, 256, "pixel (%u, %u) has palette index %u, "
                        "beyond its palette of %d colour%s", (unsigned) i,
                        (unsigned) r, (unsigned) (*row)[i], colours,
                        colours == 1 ? "" : "s");
              return false;
            }
      }
  return true;
}

/* Whether every pixel of the image in fp, if a palette image, indexes
   its palette; fp is put back at its start.  False with what was wrong
   in msg.  libpng expands an index beyond the PLTE chunk to black
   without a word (its own check only warns, at the end, and skips rows
   it expands), so a map would take a colour its file never gave: the
   indices are read first, on their own.  */
static bool
palette_covers_pixels (FILE *fp, double file_size, char *msg)
{
  png_structp png = png_create_read_struct (PNG_LIBPNG_VER_STRING, msg,
                                            png_error_handler,
                                            png_warning_handler);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  unsigned char *volatile row = NULL;
  bool ok = false;
  if (info == NULL)
    snprintf (msg, 256, "out of memory");
  else if (setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, fp);
      skip_unused_chunks (png);
      png_read_info (png, info);
      ok = png_get_color_type (png, info) != PNG_COLOR_TYPE_PALETTE
           || indices_in_palette (png, info, file_size, &row, msg);
    }
  png_destroy_read_struct (&png, &info, NULL);
  free (row);
  if (ok && fseek (fp, 0, SEEK_SET) != 0)
    {
      snprintf (msg, 256, "cannot read it again: %s", strerror (errno));
      ok = false;
    }
  return ok;
}

/* Decode a whole image into u, y up (the top row of the image is the
   highest row of u): with ring, the image is the field with its halo
   ring (w - 2 x h - 2 interior nodes), else the interior alone (a map).
   Each value is the pixel's key: a gray level as stored (8 or 16 bits,
   *depth), or, for a colour image (*colour) that gray does not turn to
   gray levels, 0xrrggbb of its 8-bit channels (16-bit channels cut to
   their high bytes).  Alpha is ignored.  The image is refused from its
   header where grids grid-sized arrays, what its reader holds with it,
   cannot fit in memory.  */
static bool
read_png_image (FILE *fp, bool ring, bool gray, size_t grids,
                struct field *u, bool *colour, int *depth, char *msg)
{
  const char *what = ring ? "field" : "map";
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
  else if (!palette_covers_pixels (fp, file_size, msg))
    ;                                  /* msg says why */
  else if (setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, fp);
      skip_unused_chunks (png);
      png_read_info (png, info);
      const png_uint_32 w = png_get_image_width (png, info);
      const png_uint_32 h = png_get_image_height (png, info);
      const int type = png_get_color_type (png, info);
      *colour = (type & PNG_COLOR_MASK_COLOR) != 0;
      const bool rgb = *colour && !gray;
      if (png_get_bit_depth (png, info) < 8)
        png_set_expand_gray_1_2_4_to_8 (png);
      if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb (png);
      if (*colour && gray)
        png_set_rgb_to_gray_fixed (png, 1, -1, -1);
      if (rgb)
        png_set_strip_16 (png);
      png_set_strip_alpha (png);
      /* An interlaced image comes in passes over the whole image: read
         every row once per pass, and libpng fills the rows in.  */
      const int passes = png_set_interlace_handling (png);
      png_read_update_info (png, info);
      *depth = png_get_bit_depth (png, info);
      const size_t rowbytes = png_get_rowbytes (png, info);
      /* A damaged or hostile file can claim any size: its pixels must fit
         in its compressed bytes before memory is taken for them.  */
      const double raw = (double) rowbytes * (double) h;
      const png_uint_32 nx = ring ? w - 2 : w, ny = ring ? h - 2 : h;
      if (ring && (w < 3 || h < 3))
        snprintf (msg, 256, "image is %ux%u; an initial field needs at least "
                  "3x3 pixels (one interior cell inside the boundary ring)",
                  (unsigned) w, (unsigned) h);
      else if (raw > file_size * MAX_INFLATION)
        snprintf (msg, 256, "image claims %ux%u pixels, more than a %.0f-byte "
                  "file can hold (damaged file?)", (unsigned) w, (unsigned) h,
                  file_size);
      else if (!grids_fit_in_memory (grids, nx, ny, &need, &avail))
        snprintf (msg, 256, need == SIZE_MAX
                  ? "a %ux%u %s needs more bytes than memory can address"
                  : "a %ux%u %s needs %zu bytes for %zu grids; only %zu are "
                    "available", (unsigned) nx, (unsigned) ny, what, need,
                  grids, avail);
      else if ((row = calloc (passes == 1 ? 1 : h, rowbytes)) == NULL
               || !field_alloc (u, nx, ny))
        snprintf (msg, 256, "out of memory for a %ux%u %s", (unsigned) w,
                  (unsigned) h, what);
      else
        {
          /* Interlaced: the whole image first, then the rows from it.  */
          for (int p = 1; p < passes; ++p)
            for (png_uint_32 r = 0; r < h; ++r)
              png_read_row (png, row + r * rowbytes, NULL);
          const size_t first = ring ? 0 : 1;
          for (png_uint_32 r = 0; r < h; ++r)
            {
              unsigned char *const px = passes == 1 ? row : row + r * rowbytes;
              png_read_row (png, px, NULL);
              const size_t j = first + h - 1 - r;          /* y up */
              for (png_uint_32 i = 0; i < w; ++i)
                {
                  unsigned long key
                    = rgb ? (unsigned long) px[3 * i] << 16
                            | (unsigned long) px[3 * i + 1] << 8
                            | px[3 * i + 2]
                      : *depth == 16 ? (unsigned long) px[2 * i] << 8
                                       | px[2 * i + 1]
                      : px[i];
                  u->data[field_index (u, first + i, j)] = (double) key;
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

/* Gray levels of the cells of u from first to last (both 0 .. n + 1)
   into lo + (hi - lo) level / top, top the largest level of depth.  */
static void
scale_levels (struct field *u, size_t first, size_t last_x, size_t last_y,
              int depth, double lo, double hi)
{
  const double top = depth == 16 ? 65535.0 : 255.0;
  for (size_t j = first; j <= last_y; ++j)
    for (size_t i = first; i <= last_x; ++i)
      {
        double *v = &u->data[field_index (u, i, j)];
        *v = lo + (hi - lo) * (*v / top);
      }
}

int
png_read_field (const char *path, double lo, double hi, struct field *u)
{
  char msg[256] = "";
  bool colour;
  int depth;
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    {
      heatsim_error ("%s: cannot open: %s", path, strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  bool ok = read_png_image (fp, true, true, 2, u, &colour, &depth, msg);
  fclose (fp);
  if (ok)
    {
      scale_levels (u, 0, u->nx + 1, u->ny + 1, depth, lo, hi);
      return HEATSIM_OK;
    }
  heatsim_error ("%s: not a usable PNG image: %s", path, msg);
  return HEATSIM_BAD_FILE;
}

bool
png_map_size (const char *path, size_t *nx, size_t *ny, char *msg,
              size_t len)
{
  char buf[256] = "";
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    {
      snprintf (msg, len, "cannot open: %s", strerror (errno));
      return false;
    }
  png_structp png = png_create_read_struct (PNG_LIBPNG_VER_STRING, buf,
                                            png_error_handler,
                                            png_warning_handler);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  bool ok = false;
  if (info == NULL)
    snprintf (buf, sizeof buf, "out of memory");
  else if (setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, fp);
      skip_unused_chunks (png);
      png_read_info (png, info);
      *nx = png_get_image_width (png, info);
      *ny = png_get_image_height (png, info);
      ok = true;
    }
  png_destroy_read_struct (&png, &info, NULL);
  fclose (fp);
  if (!ok)
    snprintf (msg, len, "not a usable PNG image: %s", buf);
  return ok;
}

/* read_png_image of the map at path, with a message in msg (len bytes)
   where it fails.  */
static bool
read_png_map (const char *path, size_t grids, struct field *u, bool *colour,
              int *depth, char *msg, size_t len)
{
  char buf[256] = "";
  FILE *fp = fopen (path, "rb");
  if (fp == NULL)
    {
      snprintf (msg, len, "cannot open: %s", strerror (errno));
      return false;
    }
  const bool ok = read_png_image (fp, false, false, grids, u, colour, depth,
                                 buf);
  fclose (fp);
  if (!ok)
    snprintf (msg, len, "not a usable PNG image: %s", buf);
  return ok;
}

bool
png_read_keys (const char *path, size_t grids, struct field *keys,
               bool *colour, char *msg, size_t len)
{
  int depth;
  return read_png_map (path, grids, keys, colour, &depth, msg, len);
}

bool
png_read_gray (const char *path, double lo, double hi, size_t grids,
               struct field *u, char *msg, size_t len)
{
  bool colour;
  int depth;
  if (!read_png_map (path, grids, u, &colour, &depth, msg, len))
    return false;
  if (colour)
    {
      field_free (u);
      snprintf (msg, len, "a colour image; a map of values must be gray");
      return false;
    }
  scale_levels (u, 1, u->nx, u->ny, depth, lo, hi);
  return true;
}
