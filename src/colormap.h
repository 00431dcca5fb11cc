/* Colour maps that turn a value in [0, 1] into an 8-bit sRGB colour.  */
#ifndef HEATSIM_COLORMAP_H
#define HEATSIM_COLORMAP_H

struct colormap {
  const char *name;
  const unsigned char (*table)[3];   /* 256 entries; NULL for gray */
};

/* All maps, NULL-terminated; the first is the default.  */
extern const struct colormap *const heatsim_colormaps[];

/* The map called name, or NULL.  */
const struct colormap *colormap_find (const char *name);

/* Colour of t in [0, 1] (clamped; NaN gives the lowest colour).  */
void colormap_rgb (const struct colormap *map, double t, unsigned char rgb[3]);

#endif
