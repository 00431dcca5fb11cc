#include <config.h>

#include "contrast_maps.h"

#include <math.h>
#include <string.h>

static const char *const kind_names[CONTRAST_KIND_COUNT] = {
  [CONTRAST_LAYERED] = "layered",
  [CONTRAST_CHECKERBOARD] = "checkerboard",
  [CONTRAST_DISKS] = "disks",
  [CONTRAST_DISKS_INVERSE] = "disks-inverse",
};

/* Disk radii, as fractions of the side.  */
#define RADIUS_MIN 0.015
#define RADIUS_SPAN 0.015

const char *
contrast_kind_name (enum contrast_kind kind)
{
  return kind_names[kind];
}

enum contrast_kind
contrast_kind_parse (const char *name)
{
  enum contrast_kind kind = 0;
  while (kind < CONTRAST_KIND_COUNT && strcmp (name, kind_names[kind]) != 0)
    ++kind;
  return kind;
}

/* SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a fixed sequence on
   every platform, unlike rand ().  */
static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Uniform in [0, 1), from the top 53 bits.  */
static double
uniform (uint64_t *state)
{
  return (double) (splitmix64 (state) >> 11) * 0x1.0p-53;
}

/* The index range [*lo, *hi) of the nodes i whose position (i + 1) / (n + 1)
   lies in [a, b].  */
static void
node_span (double a, double b, size_t n, size_t *lo, size_t *hi)
{
  const double first = ceil (a * (double) (n + 1)) - 1.0;
  const double last = floor (b * (double) (n + 1)) - 1.0;
  *lo = first < 0.0 ? 0 : (size_t) first;
  *hi = last < 0.0 ? 0 : last >= (double) n ? n : (size_t) last + 1;
}

static void
fill_disks (size_t nx, size_t ny, double inside, double outside,
            double *restrict k)
{
  for (size_t c = 0; c < nx * ny; ++c)
    k[c] = outside;
  uint64_t state = CONTRAST_DISK_SEED;
  for (int d = 0; d < CONTRAST_DISK_COUNT; ++d)
    {
      const double cx = uniform (&state);
      const double cy = uniform (&state);
      const double r = RADIUS_MIN + RADIUS_SPAN * uniform (&state);
      size_t i0, i1, j0, j1;
      node_span (cx - r, cx + r, nx, &i0, &i1);
      node_span (cy - r, cy + r, ny, &j0, &j1);
      for (size_t j = j0; j < j1; ++j)
        {
          const double y = (double) (j + 1) / (double) (ny + 1) - cy;
          for (size_t i = i0; i < i1; ++i)
            {
              const double x = (double) (i + 1) / (double) (nx + 1) - cx;
              if (x * x + y * y <= r * r)
                k[j * nx + i] = inside;
            }
        }
    }
}

void
contrast_map_fill (enum contrast_kind kind, size_t nx, size_t ny,
                   double contrast, double *restrict k)
{
  switch (kind)
    {
    case CONTRAST_LAYERED:
    case CONTRAST_CHECKERBOARD:
      for (size_t j = 0; j < ny; ++j)
        for (size_t i = 0; i < nx; ++i)
          {
            size_t block = i / CONTRAST_BLOCK;
            if (kind == CONTRAST_CHECKERBOARD)
              block += j / CONTRAST_BLOCK;
            k[j * nx + i] = block % 2 ? contrast : 1.0;
          }
      break;
    case CONTRAST_DISKS:
      fill_disks (nx, ny, contrast, 1.0, k);
      break;
    case CONTRAST_DISKS_INVERSE:
      fill_disks (nx, ny, 1.0, contrast, k);
      break;
    case CONTRAST_KIND_COUNT:
      break;
    }
}
