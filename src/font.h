/* A 5x7 bitmap font of the characters that PNG legends need: digits,
   '.', '-', '+', '=', ' ' and the letters of "step", "sweep", "t", "e"
   (exponents), "inf", "nan" and the units "K", "degC" and "s".  Built in, so that no font library or
   file is needed.  Text is drawn magnified: every font pixel becomes an
   m x m block.  */
#ifndef HEATSIM_FONT_H
#define HEATSIM_FONT_H

#include <stdbool.h>
#include <stddef.h>

enum {
  FONT_WIDTH = 5,         /* font pixels of a glyph, across */
  FONT_HEIGHT = 7,        /* and down */
  FONT_ADVANCE = 6        /* from one character to the next */
};

/* Whether every character of text has a glyph.  */
bool font_has_glyphs (const char *text);

/* Pixels that text takes across at magnification m (no spacing after
   its last character; 0 for "").  */
size_t font_text_width (const char *text, unsigned m);

/* Whether pixel (x, y) of text drawn at magnification m, with (0, 0) the
   top left of its first character, is ink.  Characters without a glyph
   are blank.  */
bool font_ink (const char *text, unsigned m, size_t x, size_t y);

#endif
