#include <config.h>

#include "probes.h"

#include <math.h>

#include "domain.h"
#include "field.h"
#include "run_config.h"

/* Node index and weight of coordinate v on an axis of n interior nodes
   spaced h apart whose edges have kinds lo and hi: the node on the low
   edge is the halo node 0 (Dirichlet) or node 1, the one on the high edge
   node n (edge nodes) or the halo node n + 1 (Dirichlet, or periodic:
   node 1 a period on).  */
static bool
axis_place (double v, double length, double h, size_t n,
            enum boundary_kind lo, enum boundary_kind hi, size_t *index,
            double *weight)
{
  if (!isfinite (v) || v < 0.0 || v > length)
    return false;
  double t = v / h;
  const double node = nearbyint (t);
  if (fabs (t - node) <= 1e-9)
    t = node;
  const size_t first = lo != BOUNDARY_DIRICHLET;
  const size_t last = boundary_has_edge_node (hi) ? n : n + 1;
  if (t >= (double) (last - first))
    {
      *index = last - 1;
      *weight = 1.0;
      return true;
    }
  *index = (size_t) t;
  *weight = t - (double) *index;
  *index += first;
  return true;
}

bool
probe_place (const struct config *c, double x, double y,
             struct probe_point *p)
{
  p->x = x;
  p->y = y;
  for (int e = 0; e < EDGE_COUNT; ++e)
    p->boundary[e] = c->bc[e].kind;
  return axis_place (x, c->lx, config_dx (c), c->nx, c->bc[EDGE_LEFT].kind,
                     c->bc[EDGE_RIGHT].kind, &p->i, &p->wx)
         && axis_place (y, c->ly, config_dy (c), c->ny,
                        c->bc[EDGE_BOTTOM].kind, c->bc[EDGE_TOP].kind, &p->j,
                        &p->wy);
}

/* Local index along an axis of whole-grid node g, where this part holds
   interior nodes first + 1 .. first + n of a whole axis of total nodes:
   false when another rank owns it.  The edge nodes belong to the parts at
   the edge.  */
static bool
owned (size_t g, size_t first, size_t n, size_t total, size_t *local)
{
  const bool inside = g > first && g <= first + n;
  const bool low_edge = g == 0 && first == 0;
  const bool high_edge = g == total + 1 && first + n == total;
  if (!inside && !low_edge && !high_edge)
    return false;
  *local = g - first;
  return true;
}

/* The node of the whole grid whose value node g of an axis of total
   interior nodes holds: itself inside and on fixed edges; in the halo
   of a periodic edge the opposite edge's node (probes read no other
   halo node: edge nodes lie on their edges).  */
static size_t
source (size_t g, size_t total, const enum boundary_kind lo_hi[2])
{
  if (g != 0 && g != total + 1)
    return g;
  if (lo_hi[g != 0] == BOUNDARY_PERIODIC)
    return g == 0 ? total : 1;
  return g;
}

/* Into v, p's four nodes that this rank owns (the others 0).  */
static void
own_nodes (const struct domain *d, const struct field *u,
           const struct probe_point *p, double v[4])
{
  for (size_t n = 0; n < 4; ++n)
    {
      const size_t gi = source (p->i + (n & 1), d->nx, p->boundary);
      const size_t gj = source (p->j + (n >> 1), d->ny, p->boundary + EDGE_BOTTOM);
      size_t li, lj;
      v[n] = 0.0;
      if (gi <= d->nx + 1 && gj <= d->ny + 1
          && owned (gi, u->x0, u->nx, d->nx, &li)
          && owned (gj, u->y0, u->ny, d->ny, &lj))
        v[n] = u->data[field_index (u, li, lj)];
    }
}

static double
interpolate (const struct probe_point *p, const double v[4])
{
  const double low = (1.0 - p->wx) * v[0] + p->wx * v[1];
  const double high = (1.0 - p->wx) * v[2] + p->wx * v[3];
  return (1.0 - p->wy) * low + p->wy * high;
}

double
probe_sample (const struct domain *d, const struct field *u,
              const struct probe_point *p)
{
  double v[4];
  own_nodes (d, u, p, v);
  domain_sum_exact (d, v, 4);
  return interpolate (p, v);
}

void
probe_sample_many (const struct domain *d, const struct field *u,
                   const struct probe_point *p, size_t n, double *nodes,
                   double *t)
{
  for (size_t k = 0; k < n; ++k)
    own_nodes (d, u, &p[k], nodes + 4 * k);
  domain_sum_exact (d, nodes, 4 * n);
  for (size_t k = 0; k < n; ++k)
    t[k] = interpolate (&p[k], nodes + 4 * k);
}

size_t
profile_default_points (const struct config *c, double x0, double y0,
                        double x1, double y1)
{
  const double cells = fmax (fabs (x1 - x0) / config_dx (c),
                             fabs (y1 - y0) / config_dy (c));
  /* Both ends, however short the segment (under 1e-9 of a cell it
     read one point, the end, at s = 0).  */
  return (size_t) fmax (2.0, ceil (cells - 1e-9) + 1);
}

/* The mean of this rank's part u of the field over area (in nodes),
   its range lo .. hi: the nodes' sum weighed by their shares of a box,
   over the area.  A field near DBL_MAX overflows the sum though never
   the mean: it is then summed again scaled by a power of two, with the
   bits an unbounded exponent would give (total_heat does the same).
   Collective.  */
static double
field_mean (const struct domain *d, const struct field *u,
            const bool edge_node[EDGE_COUNT], double area, double lo,
            double hi)
{
  const double mean = domain_sum (d, field_volume_sum (u, edge_node)) / area;
  if (isfinite (mean))
    return mean;
  /* Every rank is here or none: the sum is the same on all.  */
  const double largest = fmax (fabs (domain_min (d, lo)),
                               fabs (domain_max (d, hi)));
  if (!isfinite (largest) || largest == 0.0)
    return mean;                /* a node's own infinity or NaN */
  const int shift = ilogb (largest) + 1;
  const double scaled = field_volume_sum_scaled (u, edge_node,
                                                 ldexp (1.0, -shift), false);
  return ldexp (domain_sum (d, scaled) / area, shift);
}

void
field_peak (const struct domain *d, const struct config *c,
            const struct field *u, struct peak *p)
{
  double lo, hi;
  field_range (u, &lo, &hi);
  const double top = domain_max (d, hi);
  /* The first node in the whole grid's row-major order that holds it: a
     rank's candidate as a double is exact for any grid that fits in
     memory.  */
  double first = INFINITY;
  for (size_t j = 1; j <= u->ny && isinf (first); ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      if (u->data[field_index (u, i, j)] == top)
        {
          first = (double) (u->y0 + j - 1) * (double) d->nx
                  + (double) (u->x0 + i - 1);
          break;
        }
  first = domain_min (d, first);
  p->value = top;
  /* Each node weighs its share of the domain's area (edge nodes half).  */
  bool edge_node[EDGE_COUNT], whole[EDGE_COUNT];
  domain_edge_nodes (d, c, edge_node);
  for (int e = 0; e < EDGE_COUNT; ++e)
    whole[e] = config_edge_node (c, (enum edge) e);
  const double area
    = ((double) d->nx - 0.5 * (whole[EDGE_LEFT] + whole[EDGE_RIGHT]))
      * ((double) d->ny - 0.5 * (whole[EDGE_BOTTOM] + whole[EDGE_TOP]));
  p->mean = field_mean (d, u, edge_node, area, lo, hi);
  if (isinf (first))            /* no finite largest value: NaN everywhere */
    {
      p->x = p->y = NAN;
      return;
    }
  const double nx = (double) d->nx;
  const double row = floor (first / nx);
  p->x = config_x (c, (size_t) (first - row * nx) + 1);
  p->y = config_y (c, (size_t) row + 1);
}
