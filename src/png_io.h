/* PNG snapshots of the field (libpng), and grayscale PNGs as initial
   fields.  Images have y up, like a plot: the top row of the image is the
   top row of the grid (largest y).  */
#ifndef HEATSIM_PNG_IO_H
#define HEATSIM_PNG_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "field.h"

struct colormap;

struct png_style {
  const struct colormap *colormap;   /* 8-bit colour images */
  int depth;                         /* 8: colour; 16: linear grayscale */
  double lo, hi;                     /* values mapped to the ends */
};

/* What the image's text chunks say about it.  */
struct png_meta {
  size_t step;
  double time;
  const char *problem;
};

/* The most pixels an image may have on a side (libpng's limit).  */
size_t png_side_max (void);

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

/* True if the file at path starts with the PNG signature.  */
bool png_is_png (const char *path);

#endif
