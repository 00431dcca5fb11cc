#include <config.h>

#include "kernels_tiled.h"

#include "diagnostics.h"
#include "heat_cell.h"
#include "host_isa.h"
#include "material_cell.h"

#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

/* Bit of edge e in a set of edges.  */
#define EDGE_BIT(e) (1u << (e))

/* Doubles per cache line: ring rows start on one.  */
enum { LINE_DOUBLES = 8 };

const char *
tiled_refusal (const struct stencil *s)
{
  const struct halo *h = &s->halo;
  const size_t nx = s->nx, ny = s->ny;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      if (h->exchange[e])
        return "MPI neighbours exchange halos every step";
      if (h->scheduled[e])
        return "an edge temperature follows a schedule";
    }
  const size_t *src = h->source;
  /* Side halos are filled per row from that row; the bottom one once
     rows 1 and 2 of a step exist, the top one after row ny.  */
  if ((h->copy[EDGE_LEFT] && (src[EDGE_LEFT] < 1 || src[EDGE_LEFT] > nx))
      || (h->copy[EDGE_RIGHT]
          && (src[EDGE_RIGHT] < 1 || src[EDGE_RIGHT] > nx)))
    return "a grid one column wide between mirror edges";
  if ((h->copy[EDGE_BOTTOM]
       && (src[EDGE_BOTTOM] < 1 || src[EDGE_BOTTOM] > (ny < 2 ? ny : 2)))
      || (h->copy[EDGE_TOP]
          && (src[EDGE_TOP] < (ny > 1 ? ny - 1 : 1) || src[EDGE_TOP] > ny)))
    return ny < 2 ? "a grid one row high between mirror edges"
           : "periodic bottom and top edges";
  return NULL;
}

static size_t
strips_length (const struct stencil *s)
{
  return 2 * (s->nx + s->ny);
}

/* Whether the side halos of every tile that reaches an edge can be
   computed from the columns that tile computes: a mirror's source
   column lies next to its edge, a periodic one's at the far end, which
   only a tile as wide as the grid holds.  */
static bool
sides_allow_tiles (const struct stencil *s)
{
  const bool *copy = s->halo.copy;
  const size_t *src = s->halo.source;
  return (!copy[EDGE_LEFT] || src[EDGE_LEFT] <= 2)
         && (!copy[EDGE_RIGHT] || src[EDGE_RIGHT] + 1 >= s->nx);
}

/* The width of the column tiles: TILED_COLUMNS_ENV's, else
   TILED_COLUMNS; the whole width where the side halos need it.  false,
   with a message, for a setting that is no whole number >= 1.  */
static bool
tile_columns (const struct stencil *s, size_t *columns)
{
  *columns = TILED_COLUMNS;
  const char *text = getenv (TILED_COLUMNS_ENV);
  if (text != NULL)
    {
      char *end;
      errno = 0;
      const unsigned long long value = strtoull (text, &end, 10);
      const bool whole = *text >= '0' && *text <= '9' && *end == '\0';
      if (!whole || value < 1)
        {
          heatsim_error ("%s=%s: not a whole number of columns of at least 1",
                         TILED_COLUMNS_ENV, text);
          return false;
        }
      if (errno != 0 || value > SIZE_MAX / 4)
        {
          heatsim_error ("%s=%s: too many columns (at most %zu)",
                         TILED_COLUMNS_ENV, text, SIZE_MAX / 4);
          return false;
        }
      *columns = (size_t) value;
    }
  if (*columns > s->nx || !sides_allow_tiles (s))
    *columns = s->nx;
  return true;
}

enum heatsim_status
tiled_alloc (struct tiled_scratch *t, const struct stencil *s,
             unsigned steps)
{
  *t = (struct tiled_scratch) { .steps = steps };
  if (!tile_columns (s, &t->columns))
    return HEATSIM_USAGE;
  t->threads = omp_get_max_threads ();
  /* A tile's widest level, the first, reaches steps - 1 columns beyond
     the tile on each side, plus a halo column.  */
  size_t width = t->columns + 2 * (size_t) steps;
  if (width > s->nx + 2)
    width = s->nx + 2;
  t->ring_stride = (width + LINE_DOUBLES - 1) / LINE_DOUBLES * LINE_DOUBLES;
  t->per_thread = (size_t) (steps - 1) * 3 * t->ring_stride;
  t->rings = aligned_alloc (LINE_DOUBLES * sizeof (double),
                            (size_t) t->threads * t->per_thread
                            * sizeof (double));
  t->lines = malloc (2 * strips_length (s) * sizeof *t->lines);
  if (t->rings != NULL && t->lines != NULL)
    return HEATSIM_OK;
  tiled_free (t);
  heatsim_error ("--tile-steps: cannot allocate the rows of %u fused steps",
                 steps);
  return HEATSIM_NO_MEMORY;
}

void
tiled_free (struct tiled_scratch *t)
{
  free (t->rings);
  free (t->lines);
  t->rings = t->lines = NULL;
}

/* One thread's share of a pass of steps steps: the rows b0..b1 and,
   one tile at a time, the columns c0..c1 of the last step, and the
   rings of the steps in between.  Level 0 is u, level L the field after
   L steps.  */
struct pass {
  const struct stencil *s;
  const double *u;
  double *unew;
  double *ring;             /* this thread's rings: levels 1..steps-1 */
  size_t ring_stride;
  unsigned steps;
  size_t b0, b1;
  size_t c0, c1;
  size_t origin;            /* the column in the rings' first place */
  double *kept;             /* halo lines of levels steps-2, steps-1 */
  /* The edges' halo rules: halo_refresh_host's.  */
  unsigned copy, heat;
  double a[EDGE_COUNT], b[EDGE_COUNT], tinf[EDGE_COUNT];
  /* A row of cells, on the chosen host path: of the constant stencil,
     or with ms of a variable material's step.  */
  heat_row_fn *row;
  const struct material_step *ms;
  material_row_fn *material_row;
  /* The material's flux and convection edges (material_terms_host's,
     with tinf): bit e of heated, Q and H.  */
  unsigned heated;
  double q[EDGE_COUNT], h[EDGE_COUNT];
};

/* The ends of lo..hi widened by reach, cut by the domain's 1..n.  */
static size_t
widened_low (size_t lo, size_t reach)
{
  return lo > reach ? lo - reach : 1;
}

static size_t
widened_high (size_t hi, size_t reach, size_t n)
{
  return hi + reach < n ? hi + reach : n;
}

/* Rows of level that this band computes: those the rows b0..b1 of the
   last level depend on.  */
static size_t
first_row (const struct pass *p, unsigned level)
{
  return widened_low (p->b0, p->steps - level);
}

static size_t
last_row (const struct pass *p, unsigned level)
{
  return widened_high (p->b1, p->steps - level, p->s->ny);
}

/* The same for the columns of the tile: a trapezoid, one column
   narrower on each side per level, that the domain's edges cut.  */
static size_t
first_column (const struct pass *p, unsigned level)
{
  return widened_low (p->c0, p->steps - level);
}

static size_t
last_column (const struct pass *p, unsigned level)
{
  return widened_high (p->c1, p->steps - level, p->s->nx);
}

/* Cell (k, j) (k 0 .. nx + 1, j 0 .. ny + 1) of level 1 .. steps - 1,
   in its ring of three rows, which hold the tile's columns.  */
static double *
ring_cell (const struct pass *p, unsigned level, size_t j, size_t k)
{
  return p->ring + ((size_t) (level - 1) * 3 + j % 3) * p->ring_stride
         + (k - p->origin);
}

static const double *
level_cell (const struct pass *p, unsigned level, size_t j, size_t k)
{
  return level == 0 ? p->u + j * p->s->stride + k
         : ring_cell (p, level, j, k);
}

/* The halo value of edge e from its source line's src and its node's
   value: halo_cell's (kernels.c).  */
static double
edge_value (const struct pass *p, enum edge e, double src, double node)
{
  if (p->heat & EDGE_BIT (e))
    return edge_halo_value (src, node, p->a[e], p->b[e], p->tinf[e]);
  return src;
}

/* Where the halo lines of level go after the pass (pack layout: left,
   right, bottom, top), or NULL: only the last two but one are kept.  */
static double *
kept_lines (const struct pass *p, unsigned level)
{
  if (level + 2 == p->steps)
    return p->kept;
  if (level + 1 == p->steps)
    return p->kept + strips_length (p->s);
  return NULL;
}

/* The halo cell of side e (left or right) of row j of level, in a tile
   that reaches that side: a copying edge's from the row, as the refresh
   before the next plain step would fill it (its source column is in the
   tile: tile_columns); a fixed edge's, which never changes, from u.  */
static void
side_halo (const struct pass *p, unsigned level, size_t j, enum edge e)
{
  const size_t nx = p->s->nx, ny = p->s->ny;
  const bool left = e == EDGE_LEFT;
  const size_t halo = left ? 0 : nx + 1;
  double *cell = ring_cell (p, level, j, halo);
  *cell = p->copy & EDGE_BIT (e)
          ? edge_value (p, e, *ring_cell (p, level, j, p->s->halo.source[e]),
                        *ring_cell (p, level, j, left ? 1 : nx))
          : p->u[j * p->s->stride + halo];
  double *kept = kept_lines (p, level);
  if (kept != NULL && j >= p->b0 && j <= p->b1)
    kept[(left ? 0 : ny) + j - 1] = *cell;
}

/* The bottom (end 0) or top (end ny + 1) halo row of level in the
   tile's columns, once the rows it copies exist.  The band that holds
   the end keeps the tile's own columns.  */
static void
end_halo (const struct pass *p, unsigned level, enum edge e)
{
  const size_t nx = p->s->nx, ny = p->s->ny, stride = p->s->stride;
  const bool bottom = e == EDGE_BOTTOM;
  const size_t end = bottom ? 0 : ny + 1;
  const size_t k0 = first_column (p, level), k1 = last_column (p, level);
  if (p->copy & EDGE_BIT (e))
    {
      const size_t src = p->s->halo.source[e], node = bottom ? 1 : ny;
      for (size_t k = k0; k <= k1; ++k)
        *ring_cell (p, level, end, k)
          = edge_value (p, e, *ring_cell (p, level, src, k),
                        *ring_cell (p, level, node, k));
    }
  else
    for (size_t k = k0; k <= k1; ++k)
      *ring_cell (p, level, end, k) = p->u[end * stride + k];
  double *kept = kept_lines (p, level);
  if (kept != NULL && (bottom ? p->b0 == 1 : p->b1 == ny))
    for (size_t k = p->c0; k <= p->c1; ++k)
      kept[2 * ny + (bottom ? 0 : nx) + k - 1] = *ring_cell (p, level, end, k);
}

/* The heat of the material's flux and convection edges into node
   (k, j), out, of temperature u before the step: edges_host's
   (kernels_material.c).  */
static void
edge_node_heat (const struct pass *p, size_t j, size_t k, double u,
                double *out)
{
  const struct material_step *ms = p->ms;
  const size_t nx = p->s->nx, ny = p->s->ny;
  if (material_heated_node (k, j, nx, ny, p->heated))
    *out += material_edge_heat (k, j, nx, ny, p->heated, ms->fraction_x,
                                ms->fraction_y, p->q, p->h, p->tinf,
                                ms->gain[j * p->s->stride + k], u, ms->dx,
                                ms->dy);
}

/* Row j, columns k0..k1, out, of the variable material's step from the
   rows below, mid and above of the level before: the update and the
   terms material_terms_host adds after it, in its order (face cooling,
   then the edges' heat).  */
static void
material_cells (const struct pass *p, size_t j, size_t k0, size_t k1,
                const double *below, const double *mid, const double *above,
                double *out)
{
  const struct material_step *ms = p->ms;
  const size_t stride = p->s->stride, c = j * stride + k0;
  p->material_row (k1 - k0 + 1, ms->op.wx + c, ms->op.wy + c,
                   ms->op.wy + c - stride, ms->gain + c, ms->rise + c,
                   ms->factor, below, mid, above, out);
  if (ms->cooled)
    for (size_t k = k0; k <= k1; ++k)
      out[k - k0] += material_cooling (ms->gain[c + k - k0],
                                       ms->fraction_x[k], ms->fraction_y[j],
                                       ms->sink, ms->ambient, mid[k - k0]);
  if (p->heated == 0)
    return;
  const size_t nx = p->s->nx;
  if (j == 1 || j == p->s->ny)
    for (size_t k = k0; k <= k1; ++k)
      edge_node_heat (p, j, k, mid[k - k0], out + (k - k0));
  else
    {
      if (k0 == 1)
        edge_node_heat (p, j, 1, mid[0], out);
      if (k1 == nx && nx > 1)
        edge_node_heat (p, j, nx, mid[nx - k0], out + (nx - k0));
    }
}

/* Row j of level, in the tile's columns, from rows j - 1 .. j + 1 of
   the level before; the last level's goes to unew.  */
static void
compute_row (const struct pass *p, unsigned level, size_t j)
{
  const size_t k0 = first_column (p, level), k1 = last_column (p, level);
  double *out = level == p->steps ? p->unew + j * p->s->stride + k0
                : ring_cell (p, level, j, k0);
  const double *below = level_cell (p, level - 1, j - 1, k0);
  const double *mid = level_cell (p, level - 1, j, k0);
  const double *above = level_cell (p, level - 1, j + 1, k0);
  if (p->ms != NULL)
    material_cells (p, j, k0, k1, below, mid, above, out);
  else
    p->row (k1 - k0 + 1, p->s->rx, p->s->ry, p->s->rc, p->s->rise, below,
            mid, above, out);
  if (level < p->steps && k0 == 1)
    side_halo (p, level, j, EDGE_LEFT);
  if (level < p->steps && k1 == p->s->nx)
    side_halo (p, level, j, EDGE_RIGHT);
}

/* Stages ahead that the memory the sweep streams through is asked
   for: a tile's row of u or unew is too short for the processor's own
   prefetcher to find the stream before the row is over.  */
enum { PREFETCH_STAGES = 2 };

/* Ask for the cache lines of u that stage j reads first (level 1's row
   j + 1) and of unew that it writes (the last level's row).  */
static void
prefetch_rows (const struct pass *p, size_t j)
{
  const size_t stride = p->s->stride;
  if (j + 1 <= p->s->ny + 1)
    {
      const double *row = p->u + (j + 1) * stride;
      const size_t k1 = last_column (p, 1) + 1;
      for (size_t k = first_column (p, 1) - 1; k <= k1; k += LINE_DOUBLES)
        __builtin_prefetch (row + k, 0);
      __builtin_prefetch (row + k1, 0);
    }
  const size_t r = j + 1 - p->steps;
  if (j + 1 >= p->steps && r >= p->b0 && r <= p->b1)
    {
      double *row = p->unew + r * stride;
      for (size_t k = p->c0; k <= p->c1; k += LINE_DOUBLES)
        __builtin_prefetch (row + k, 1);
      __builtin_prefetch (row + p->c1, 1);
    }
}

/* Stage j of the wavefront.  */
static void
stage (const struct pass *p, size_t j, size_t bottom_ready)
{
  const unsigned steps = p->steps;
  const size_t ny = p->s->ny;
  for (unsigned level = 1; level <= steps && level <= j + 1; ++level)
    {
      const size_t r = j + 1 - level;
      if (r >= first_row (p, level) && r <= last_row (p, level))
        {
          compute_row (p, level, r);
          if (level < steps && r == bottom_ready
              && first_row (p, level) == 1)
            end_halo (p, level, EDGE_BOTTOM);
        }
      else if (level < steps && r == ny + 1 && last_row (p, level) == ny)
        end_halo (p, level, EDGE_TOP);
    }
}

/* The wavefront over one tile: at stage j, level L computes its row
   j + 1 - L, which needs rows j - L .. j + 2 - L of level L - 1, the
   last of them computed at this stage just before.  A ring of three
   rows holds what the next level still needs.  The top halo of a level
   takes the place of its row ny + 1.  */
static void
sweep (const struct pass *p)
{
  const unsigned steps = p->steps;
  const size_t ny = p->s->ny;
  const size_t bottom_ready = ny < 2 ? ny : 2;
  const size_t stages = last_row (p, steps) + steps - 1;
  for (size_t j = first_row (p, 1); j <= stages; ++j)
    {
      prefetch_rows (p, j + PREFETCH_STAGES);
      stage (p, j, bottom_ready);
    }
}

/* The band's tiles, left to right: the columns split into tiles of at
   most columns each, as even as can be.  */
static void
sweep_tiles (struct pass *p, size_t columns)
{
  const size_t nx = p->s->nx;
  const size_t tiles = (nx + columns - 1) / columns;
  for (size_t t = 0; t < tiles; ++t)
    {
      p->c0 = 1 + nx * t / tiles;
      p->c1 = nx * (t + 1) / tiles;
      p->origin = first_column (p, 1) - 1;
      sweep (p);
    }
}

/* Field cell f and line cell l: one to the other.  */
static void
move (double *u, size_t f, double *lines, size_t l, bool to_u)
{
  if (to_u)
    u[f] = lines[l];
  else
    lines[l] = u[f];
}

/* The halo cells of u's copying edges to lines (pack layout), or
   back.  */
static void
halo_lines (const struct stencil *s, double *u, double *lines, bool to_u)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const bool *copy = s->halo.copy;
  for (size_t j = 1; j <= ny; ++j)
    {
      if (copy[EDGE_LEFT])
        move (u, j * stride, lines, j - 1, to_u);
      if (copy[EDGE_RIGHT])
        move (u, j * stride + nx + 1, lines, ny + j - 1, to_u);
    }
  for (size_t k = 1; k <= nx; ++k)
    {
      if (copy[EDGE_BOTTOM])
        move (u, k, lines, 2 * ny + k - 1, to_u);
      if (copy[EDGE_TOP])
        move (u, (ny + 1) * stride + k, lines, 2 * ny + nx + k - 1, to_u);
    }
}

void
heat_steps_tiled (const struct stencil *s, const struct material_step *ms,
                  double *u, double *unew, unsigned steps,
                  struct tiled_scratch *t)
{
  const struct host_kernels *kernels = host_kernels (HOST_KERNEL_TILED);
  struct pass common = {
    .s = s, .u = u, .unew = unew, .ring_stride = t->ring_stride,
    .steps = steps, .kept = t->lines,
    .row = kernels->row, .ms = ms, .material_row = kernels->material_row,
  };
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      common.copy |= s->halo.copy[e] ? EDGE_BIT (e) : 0u;
      common.heat |= s->halo.heat[e] ? EDGE_BIT (e) : 0u;
      common.heated |= ms != NULL && ms->heated[e] ? EDGE_BIT (e) : 0u;
      /* halo_fill's products (kernels.c), bitwise.  */
      common.a[e] = s->halo.coef[e] * s->halo.in.flux[e];
      common.b[e] = s->halo.coef[e] * s->halo.in.h[e];
      common.q[e] = s->halo.in.flux[e];
      common.h[e] = s->halo.in.h[e];
      common.tinf[e] = s->halo.in.ambient[e];
    }
  const size_t ny = s->ny;
#pragma omp parallel num_threads(t->threads)
  {
    const size_t id = (size_t) omp_get_thread_num ();
    const size_t n = (size_t) omp_get_num_threads ();
    struct pass p = common;
    p.ring = t->rings + id * t->per_thread;
    p.b0 = 1 + ny * id / n;
    p.b1 = ny * (id + 1) / n;
    if (p.b0 <= p.b1)
      sweep_tiles (&p, t->columns);
  }
  /* The halo the plain steps would leave: unew's from level steps - 2
     (u's own for two steps), u's from level steps - 1.  */
  double *before_last = t->lines, *last = t->lines + strips_length (s);
  if (steps == 2)
    halo_lines (s, u, before_last, false);
  halo_lines (s, unew, before_last, true);
  halo_lines (s, u, last, true);
}
