/* The legend of a PNG snapshot: a band under the field with a colour bar
   from the low to the high end of the colour map, labelled with the two
   values (and the middle one where it fits), each followed by the unit
   of the values when the run has one ("300 K"), and a caption with the
   step and simulated time ("step 200  t=0.01", "t=0.01 s" in SI runs;
   "sweep 200" in steady runs).
   It knows nothing of libpng: it says, pixel by pixel, whether a pixel is
   background, text (ink) or colour bar, and where on the colour map a bar
   pixel lies.

   Layout, in font pixels of m x m image pixels: a margin of 4, the bar
   10 high (a frame of 1 around the ramp), 3, the labels 7, 4, the caption
   7, a margin of 4: 39 m pixels in all.  The bar spans the width less the
   margins; the low label starts under its left end, the high one ends
   under its right end, the middle one is centred.  */
#ifndef HEATSIM_LEGEND_H
#define HEATSIM_LEGEND_H

#include <stdbool.h>
#include <stddef.h>

enum paint { PAINT_PAPER, PAINT_INK, PAINT_RAMP };

struct legend {
  unsigned m;               /* font magnification */
  bool steady;              /* caption: sweeps, no time */
  bool seconds;             /* caption: the time in s (SI) */
  char lo[24], mid[24], hi[24];   /* labels of the colour bar */
  size_t min_width;         /* the narrowest legend that holds its text
                               for every step of the run */
};

enum { LEGEND_ROWS = 39 };   /* in font pixels */

/* Lay out the legend of a run whose values lo..hi span the colour map
   and whose steps go up to last_step, with magnification m (>= 1).
   unit: of the values, which an SI run has ("K", "degC"), or NULL.  */
void legend_layout (struct legend *l, double lo, double hi, size_t last_step,
                    bool steady, const char *unit, unsigned m);

/* Pixels down the legend.  */
size_t legend_height (const struct legend *l);

/* The caption of step (at time) into buf of len bytes.  */
void legend_caption (const struct legend *l, size_t step, double time,
                     char *buf, size_t len);

/* Paint row y of a legend width pixels across (width >= min_width) with
   caption: paint[x] for each pixel, and ramp[x] in [0, 1], the place on
   the colour map, for PAINT_RAMP pixels.  */
void legend_row (const struct legend *l, size_t width, size_t y,
                 const char *caption, unsigned char *paint, double *ramp);

#endif
