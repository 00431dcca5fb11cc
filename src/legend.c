#include <config.h>

#include "legend.h"

#include <stdio.h>
#include <string.h>

#include "font.h"

/* Rows and columns of the layout, in font pixels.  */
enum {
  MARGIN = 4,
  BAR_TOP = MARGIN,
  BAR_HEIGHT = 10,
  FRAME_WIDTH = 1,
  LABEL_TOP = BAR_TOP + BAR_HEIGHT + 3,
  CAPTION_TOP = LABEL_TOP + FONT_HEIGHT + 4,
  GAP = 2 * FONT_ADVANCE    /* the least room between two labels */
};

/* The longest time "%.4g" prints ("1.235e+308"), and the digits of the
   step kept room for: those of the run's last step, at least 6.  The
   caption's room does not change from step to step, so every frame of a
   run has one size, and a restarted run below step 1000000 gives frames
   of the size of the run it continues (for joining the films).  */
enum { TIME_CHARS = 10, STEP_DIGITS_MIN = 6 };

static void
label (char *buf, size_t len, double v, const char *unit)
{
  /* -0 would print "-0", which reads as a different value.  */
  snprintf (buf, len, "%.4g%s%s", v == 0.0 ? 0.0 : v, unit ? " " : "",
            unit ? unit : "");
}

static size_t
digits (size_t n)
{
  size_t d = 1;
  for (; n >= 10; n /= 10)
    ++d;
  return d;
}

void
legend_layout (struct legend *l, double lo, double hi, size_t last_step,
               bool steady, const char *unit, unsigned m)
{
  *l = (struct legend) { .m = m, .steady = steady, .seconds = unit != NULL };
  label (l->lo, sizeof l->lo, lo, unit);
  label (l->mid, sizeof l->mid, 0.5 * lo + 0.5 * hi, unit);  /* no overflow */
  label (l->hi, sizeof l->hi, hi, unit);
  /* "step N  t=T[ s]" or "sweep N", at their longest.  */
  const size_t d = digits (last_step) > STEP_DIGITS_MIN ? digits (last_step)
                   : STEP_DIGITS_MIN;
  const size_t caption_chars = steady ? 6 + d
                               : 5 + d + 4 + TIME_CHARS + 2 * l->seconds;
  const size_t caption = (caption_chars * FONT_ADVANCE - 1) * m;
  const size_t labels = font_text_width (l->lo, m) + GAP * m
                        + font_text_width (l->hi, m);
  l->min_width = 2 * MARGIN * m + (caption > labels ? caption : labels);
}

size_t
legend_height (const struct legend *l)
{
  return (size_t) LEGEND_ROWS * l->m;
}

void
legend_caption (const struct legend *l, size_t step, double time, char *buf,
                size_t len)
{
  if (l->steady)
    snprintf (buf, len, "sweep %zu", step);
  else
    snprintf (buf, len, "step %zu  t=%.4g%s", step, time,
              l->seconds ? " s" : "");
}

/* Ink of text whose top left corner is at (x0, y0), at pixel (x, y).  */
static bool
text_at (const struct legend *l, const char *text, size_t x0, size_t y0,
         size_t x, size_t y)
{
  return x >= x0 && y >= y0 && font_ink (text, l->m, x - x0, y - y0);
}

/* Paint row y of the colour bar, which spans x0..x1 (inclusive).  */
static void
bar_row (const struct legend *l, size_t x0, size_t x1, size_t y,
         unsigned char *paint, double *ramp)
{
  const size_t frame = FRAME_WIDTH * l->m;
  const bool edge = y < frame || y >= (BAR_HEIGHT - FRAME_WIDTH) * l->m;
  const size_t first = x0 + frame, last = x1 - frame;
  for (size_t x = x0; x <= x1; ++x)
    if (edge || x < first || x > last)
      paint[x] = PAINT_INK;
    else
      {
        paint[x] = PAINT_RAMP;
        ramp[x] = last > first ? (double) (x - first) / (double) (last - first)
                               : 0.5;
      }
}

/* Paint row y of the labels: where the middle label would crowd the
   others, it is left out.  */
static void
labels_row (const struct legend *l, size_t x0, size_t x1, size_t y,
            unsigned char *paint)
{
  const unsigned m = l->m;
  const size_t w_lo = font_text_width (l->lo, m);
  const size_t w_mid = font_text_width (l->mid, m);
  const size_t w_hi = font_text_width (l->hi, m);
  const size_t hi_x = x1 + 1 - w_hi, centre = (x0 + x1 + 1) / 2;
  const size_t mid_x = centre > w_mid / 2 ? centre - w_mid / 2 : 0;
  const bool mid = mid_x >= x0 + w_lo + GAP * m
                   && mid_x + w_mid + GAP * m <= hi_x;
  for (size_t x = x0; x <= x1; ++x)
    if (text_at (l, l->lo, x0, 0, x, y) || text_at (l, l->hi, hi_x, 0, x, y)
        || (mid && text_at (l, l->mid, mid_x, 0, x, y)))
      paint[x] = PAINT_INK;
}

void
legend_row (const struct legend *l, size_t width, size_t y,
            const char *caption, unsigned char *paint, double *ramp)
{
  const unsigned m = l->m;
  memset (paint, PAINT_PAPER, width);
  const size_t x0 = MARGIN * m, x1 = width - MARGIN * m - 1;
  if (y >= BAR_TOP * m && y < (BAR_TOP + BAR_HEIGHT) * m)
    bar_row (l, x0, x1, y - BAR_TOP * m, paint, ramp);
  else if (y >= LABEL_TOP * m && y < (LABEL_TOP + FONT_HEIGHT) * m)
    labels_row (l, x0, x1, y - LABEL_TOP * m, paint);
  else if (y >= CAPTION_TOP * m && y < (CAPTION_TOP + FONT_HEIGHT) * m)
    for (size_t x = x0; x <= x1; ++x)
      if (text_at (l, caption, x0, CAPTION_TOP * m, x, y))
        paint[x] = PAINT_INK;
}
