/* PNG snapshots of the field (libpng), and grayscale PNGs as initial
   fields.  Images have y up, like a plot: the top row of the image is the
   top row of the grid (largest y).  A snapshot may show each cell as
   K x K pixels and carry a legend under the field (legend.h); the field
   is always the image's top left nx K x ny K pixels.  */
#ifndef HEATSIM_PNG_IO_H
#define HEATSIM_PNG_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"

struct colormap;
struct provenance;

struct png_style {
  const struct colormap *colormap;   /* 8-bit colour images */
  int depth;                         /* 8: colour; 16: linear grayscale */
  double lo, hi;                     /* values mapped to the ends */
  unsigned scale;                    /* K x K pixels a cell, K >= 1 */
  bool legend;                       /* colour bar, labels, step, time */
  bool even;                         /* pad to even width and height (for
                                        video encoders) */
  bool steady;                       /* steps are sweeps, without time */
  const char *unit;                  /* of the values ("K", "degC"), times
                                        then in s; NULL: nondimensional */
  size_t last_step;                  /* the largest step of the run: the
                                        legend has room for it, so that
                                        every frame has one size */
};

/* What the image's text chunks say about it.  */
struct png_meta {
  size_t step;
  double time;
  const char *problem;
  size_t nx, ny;                     /* grid */
  double lx, ly, alpha, dt;
  const struct provenance *provenance;   /* NULL: not recorded */
};

/* The most pixels an image may have on a side (libpng's limit).  */
size_t png_side_max (void);

/* The size of the image of an nx x ny field in style: false if a side
   is larger than png_side_max ().  */
bool png_image_size (const struct png_style *style, size_t nx, size_t ny,
                     size_t *width, size_t *height);

/* Write the interior of u to path, atomically.  Returns 0, or after a
   message naming the file, HEATSIM_WRITE_FAILED.  */
int png_write_field (const char *path, const struct field *u,
                      const struct png_style *style,
                      const struct png_meta *meta);

/* Read a grayscale (or colour, converted to gray) PNG as a padded field:
   its outer ring of pixels is the halo, the rest the interior, gray levels
   mapped linearly from 0..max to lo..hi.  Allocates u.  Returns 0, or
   after a message naming the file, HEATSIM_BAD_FILE.  */
int png_read_field (const char *path, double lo, double hi, struct field *u);

/* The width and height of the PNG image at path, from its header alone:
   a map's size, checked against the grid before it is decoded.  False
   with what was wrong in msg (len bytes).  */
bool png_map_size (const char *path, size_t *nx, size_t *ny, char *msg,
                   size_t len);

/* Read a whole image (no ring) into the interior of an allocated field,
   y up, each pixel's value its key: a gray image's level (8 or 16 bits),
   a colour image's colour 0xrrggbb (*colour; 16-bit channels read at 8
   bits).  False with what was wrong in msg (len bytes), and before any
   pixel is decoded where grids grid-sized arrays (the caller's with the
   image's) cannot fit in memory.  */
bool png_read_keys (const char *path, size_t grids, struct field *keys,
                    bool *colour, char *msg, size_t len);

/* Read a whole gray image (no ring) into the interior of an allocated
   field, y up, gray 0 .. max mapped linearly onto lo .. hi.  False with
   what was wrong in msg (len bytes); a colour image is refused, and so
   is one whose grids grid-sized arrays cannot fit (png_read_keys).  */
bool png_read_gray (const char *path, double lo, double hi, size_t grids,
                    struct field *u, char *msg, size_t len);

/* True if the file at path starts with the PNG signature.  */
bool png_is_png (const char *path);

#endif
