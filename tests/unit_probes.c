/* Unit tests of probes, profiles and the peak (src/probes.c): positions
   on and between nodes against values worked by hand, the edges, refused
   positions, and the peak's value, place and mean.  */
#include <config.h>

#include <math.h>

#include "domain.h"
#include "field.h"
#include "probes.h"
#include "run_config.h"
#include "unit.h"

/* A linear field over every node, halo included: bilinear interpolation
   reproduces it, so a probe anywhere has a known value.  */
static double
linear (double x, double y)
{
  return 2.0 + 3.0 * x + 5.0 * y;
}

static void
fill (struct field *u, const struct config *c, double (*f) (double, double))
{
  for (size_t j = 0; j <= u->ny + 1; ++j)
    for (size_t i = 0; i <= u->nx + 1; ++i)
      u->data[field_index (u, i, j)] = f ((double) i * config_dx (c),
                                          (double) j * config_dy (c));
}

static double
sample_at (const struct domain *d, const struct config *c,
           const struct field *u, double x, double y)
{
  struct probe_point p;
  if (!probe_place (c, x, y, &p))
    return NAN;
  return probe_sample (d, u, &p);
}

static void
test_between_nodes (const struct domain *d)
{
  /* dx = 5 / 5 = 1, dy = 4 / 4 = 1.  */
  const struct config c = { .nx = 4, .ny = 3, .lx = 5.0, .ly = 4.0 };
  struct field u;
  CHECK (field_alloc (&u, c.nx, c.ny));
  fill (&u, &c, linear);
  CHECK (sample_at (d, &c, &u, 2.5, 1.25) == linear (2.5, 1.25));
  CHECK (sample_at (d, &c, &u, 3.0, 2.0) == linear (3.0, 2.0));
  CHECK (sample_at (d, &c, &u, 0.75, 3.5) == linear (0.75, 3.5));
  /* The edges and corners are the halo's nodes.  */
  CHECK (sample_at (d, &c, &u, 0.0, 0.0) == linear (0.0, 0.0));
  CHECK (sample_at (d, &c, &u, 5.0, 4.0) == linear (5.0, 4.0));
  CHECK (sample_at (d, &c, &u, 5.0, 0.5) == linear (5.0, 0.5));
  /* A wrong weight shows: half way between nodes 1 and 2 of a field
     that is 0 and 1 there.  */
  u.data[field_index (&u, 1, 1)] = 0.0;
  u.data[field_index (&u, 2, 1)] = 1.0;
  CHECK (sample_at (d, &c, &u, 1.25, 1.0) == 0.25);
  field_free (&u);
}

static double
rough (double x, double y)
{
  return sin (37.0 * x + 11.0 * y) + x * y;
}

static void
test_decimal_nodes (const struct domain *d)
{
  /* dx = 0.1, dy = 0.2: 0.3 / 0.1 is 2.9999999999999996 in doubles, yet
     the probe must read node 3 itself.  */
  const struct config c = { .nx = 6, .ny = 4, .lx = 0.7, .ly = 1.0 };
  struct field u;
  CHECK (field_alloc (&u, c.nx, c.ny));
  fill (&u, &c, rough);
  CHECK (sample_at (d, &c, &u, 0.3, 0.6) == u.data[field_index (&u, 3, 3)]);
  CHECK (sample_at (d, &c, &u, 0.7, 0.2) == u.data[field_index (&u, 7, 1)]);
  /* Off a node by more than the snap: interpolated.  */
  const double v = sample_at (d, &c, &u, 0.35, 0.6);
  const double a = u.data[field_index (&u, 3, 3)];
  const double b = u.data[field_index (&u, 4, 3)];
  CHECK (fabs (v - 0.5 * (a + b)) <= 1e-12 * (fabs (a) + fabs (b)));
  field_free (&u);
}

static void
test_refused (void)
{
  const struct config c = { .nx = 4, .ny = 3, .lx = 5.0, .ly = 4.0 };
  struct probe_point p;
  CHECK (!probe_place (&c, -1e-12, 1.0, &p));
  CHECK (!probe_place (&c, 1.0, 4.0000001, &p));
  CHECK (!probe_place (&c, NAN, 1.0, &p));
  CHECK (!probe_place (&c, 1.0, INFINITY, &p));
  CHECK (probe_place (&c, 5.0, 4.0, &p) && p.i == 4 && p.wx == 1.0);
}

static void
test_profile_points (void)
{
  const struct config c = { .nx = 4, .ny = 3, .lx = 5.0, .ly = 4.0 };
  CHECK (profile_default_points (&c, 0.0, 1.0, 5.0, 1.0) == 6);
  CHECK (profile_default_points (&c, 0.0, 0.0, 5.0, 4.0) == 6);
  CHECK (profile_default_points (&c, 1.0, 0.0, 1.0, 4.0) == 5);
  /* Its two ends however short (under 1e-9 of a cell it gave 1).  */
  CHECK (profile_default_points (&c, 1.0, 1.0, 1.0 + 1e-14, 1.0) == 2);
  CHECK (profile_default_points (&c, 1.0, 1.0, 1.0, 1.0) == 2);
  CHECK (profile_default_points (&c, 0.0, 0.0, 2.5, 0.0) == 4);
}

static void
test_peak (const struct domain *d)
{
  const struct config c = { .nx = 4, .ny = 3, .lx = 5.0, .ly = 4.0 };
  struct field u;
  CHECK (field_alloc (&u, c.nx, c.ny));
  for (size_t j = 1; j <= c.ny; ++j)
    for (size_t i = 1; i <= c.nx; ++i)
      u.data[field_index (&u, i, j)] = 1.0;
  /* Two nodes hold the largest value: the first in row-major order
     (lower y first) is reported.  A larger halo value does not count.  */
  u.data[field_index (&u, 3, 2)] = 7.0;
  u.data[field_index (&u, 2, 3)] = 7.0;
  u.data[field_index (&u, 0, 1)] = 99.0;
  struct peak p;
  field_peak (d, &c, &u, &p);
  CHECK (p.value == 7.0);
  CHECK (p.x == 3.0 && p.y == 2.0);
  CHECK (p.mean == (10.0 + 7.0 + 7.0) / 12.0);
  field_free (&u);
}

int
main (int argc, char **argv)
{
  domain_start (&argc, &argv);
  struct domain d;
  char err[256];
  /* One rank: the collective operations act on this process alone.  */
  const bool periodic[2] = { false, false };
  if (!domain_split (&d, 4, 3, periodic, err, sizeof err))
    {
      fprintf (stderr, "%s\n", err);
      return 1;
    }
  test_between_nodes (&d);
  test_refused ();
  test_profile_points ();
  test_peak (&d);
  struct domain d2;
  if (!domain_split (&d2, 6, 4, periodic, err, sizeof err))
    return 1;
  test_decimal_nodes (&d2);
  domain_stop ();
  return unit_exit ();
}
