/* Unit tests of the PNG legend: the font has a glyph for every character
   a label or caption can hold, whatever the values; the layout's width is
   the documented (6 D + 121) M, D the digits of the last step and at
   least 6; labels and captions read as intended, with the unit of an SI
   run after each value and s after the time.  */
#include <config.h>

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "font.h"
#include "legend.h"
#include "unit.h"

/* Every label and caption of a run over lo..hi up to step has glyphs.  */
static void
expect_drawable (double lo, double hi, size_t step, double time,
                 const char *unit)
{
  struct legend l;
  legend_layout (&l, lo, hi, step, false, unit, 1);
  char caption[96];
  legend_caption (&l, step, time, caption, sizeof caption);
  const bool ok = font_has_glyphs (l.lo) && font_has_glyphs (l.mid)
                  && font_has_glyphs (l.hi) && font_has_glyphs (caption);
  CHECK (ok);
  if (!ok)
    fprintf (stderr, "  no glyph in '%s' '%s' '%s' '%s'\n", l.lo, l.mid,
             l.hi, caption);
  /* The caption fits the room the layout keeps for it.  */
  CHECK (font_text_width (caption, 1) + 8 <= l.min_width);
}

static void
test_glyphs (void)
{
  CHECK (font_has_glyphs ("0123456789.-+e= stepsweept=nanif KdegC"));
  CHECK (!font_has_glyphs ("x"));
  for (int u = 0; u < 3; ++u)
    {
      const char *unit = u == 0 ? NULL : u == 1 ? "K" : "degC";
      expect_drawable (0.0, 100.0, 25, 3000.0, unit);
      expect_drawable (-DBL_MAX, DBL_MAX, SIZE_MAX, DBL_MAX, unit);
      expect_drawable (-1e-300, 1e-300, 1, DBL_MIN, unit);
      expect_drawable (-0.0, 1.0, 0, 0.0, unit);
      expect_drawable (1.0 / 3.0, 2.0 / 3.0, 999999, 1.0 / 3.0, unit);
    }
}

static void
test_layout (void)
{
  struct legend l;
  legend_layout (&l, 0.0, 100.0, 25, false, NULL, 1);
  CHECK (l.min_width == 6 * 6 + 121);        /* room for 6 digits */
  CHECK (strcmp (l.lo, "0") == 0 && strcmp (l.mid, "50") == 0
         && strcmp (l.hi, "100") == 0);
  legend_layout (&l, -DBL_MAX, DBL_MAX, 1, false, NULL, 1);
  CHECK (strcmp (l.mid, "0") == 0);           /* not inf */
  legend_layout (&l, -0.0, 1.0, 1000000, false, NULL, 3);
  CHECK (l.min_width == 3 * (6 * 7 + 121));
  CHECK (strcmp (l.lo, "0") == 0);            /* not "-0" */
  CHECK (legend_height (&l) == 3 * 39);
  char caption[96];
  legend_caption (&l, 200, 0.01, caption, sizeof caption);
  CHECK (strcmp (caption, "step 200  t=0.01") == 0);
  legend_layout (&l, 0.0, 1.0, 40, true, NULL, 1);
  legend_caption (&l, 40, 123.0, caption, sizeof caption);
  CHECK (strcmp (caption, "sweep 40") == 0);
  /* SI: the unit after each value, seconds after the time; the room
     kept for the caption grows by the 2 characters of " s".  */
  legend_layout (&l, 273.15, 373.15, 25, false, "K", 1);
  CHECK (strcmp (l.lo, "273.1 K") == 0 && strcmp (l.mid, "323.1 K") == 0
         && strcmp (l.hi, "373.1 K") == 0);
  CHECK (l.min_width == 6 * 6 + 121 + 2 * 6);
  legend_caption (&l, 200, 0.01, caption, sizeof caption);
  CHECK (strcmp (caption, "step 200  t=0.01 s") == 0);
  legend_layout (&l, -5.0, 20.0, 25, true, "degC", 1);
  CHECK (strcmp (l.lo, "-5 degC") == 0 && strcmp (l.hi, "20 degC") == 0);
  legend_caption (&l, 40, 123.0, caption, sizeof caption);
  CHECK (strcmp (caption, "sweep 40") == 0);
}

/* Glyph pixels: '1' has its stem in the middle column, magnified.  */
static void
test_ink (void)
{
  CHECK (font_text_width ("", 1) == 0);
  CHECK (font_text_width ("10", 2) == 2 * 11);
  CHECK (font_ink ("1", 1, 2, 3) && !font_ink ("1", 1, 0, 3));
  CHECK (font_ink ("1", 2, 4, 6) && font_ink ("1", 2, 5, 7));
  CHECK (!font_ink ("1", 1, 2, 7));               /* below the glyph */
  CHECK (!font_ink ("11", 1, 5, 3));              /* the spacing column */
  CHECK (font_ink ("11", 1, 8, 3));               /* the second '1' */
  CHECK (!font_ink (" ", 1, 2, 3));
}

int
main (void)
{
  test_glyphs ();
  test_layout ();
  test_ink ();
  return unit_exit ();
}
