/* Unit tests of the padded grid and of the stencil kernels: layout,
   overflow checks, and one step compared with values worked by hand.  */
#include <config.h>

#include <math.h>
#include <stdint.h>

#include "field.h"
#include "kernels.h"
#include "unit.h"

static void
test_layout (void)
{
  struct field f;
  CHECK (field_alloc (&f, 5, 3));
  CHECK (f.stride == 7);
  CHECK (field_cells (&f) == 7 * 5);
  CHECK (field_index (&f, 0, 0) == 0);
  CHECK (field_index (&f, 1, 1) == 8);           /* first interior cell */
  CHECK (field_index (&f, 5, 3) == 3 * 7 + 5);   /* last interior cell */
  CHECK (field_index (&f, 6, 4) == field_cells (&f) - 1);
  bool zero = true;
  for (size_t k = 0; k < field_cells (&f); ++k)
    zero = zero && f.data[k] == 0.0;
  CHECK (zero);
  CHECK ((uintptr_t) f.data % 64 == 0);
  field_free (&f);
  CHECK (f.data == NULL);
}

static void
test_bytes (void)
{
  size_t bytes;
  CHECK (field_bytes (1000, 1000, &bytes) && bytes == 1002 * 1002 * 8);
  CHECK (field_bytes (8192, 8192, &bytes) && bytes == (size_t) 8194 * 8194 * 8);
  CHECK (!field_bytes (SIZE_MAX, 1, &bytes));
  CHECK (!field_bytes (SIZE_MAX - 2, 1, &bytes));
  CHECK (!field_bytes ((size_t) 1 << 32, (size_t) 1 << 32, &bytes));
  CHECK (!field_bytes ((size_t) 1 << 31, (size_t) 1 << 30, &bytes));
}

static void
test_swap_and_checksum (void)
{
  struct field a, b;
  CHECK (field_alloc (&a, 4, 4) && field_alloc (&b, 4, 4));
  double *pa = a.data;
  a.data[field_index (&a, 2, 2)] = 1.0;
  uint64_t ha = field_checksum (&a), hb = field_checksum (&b);
  CHECK (ha != hb);
  field_swap (&a, &b);
  CHECK (b.data == pa && field_checksum (&b) == ha);
  /* The halo is not part of the checksum or the sum.  */
  b.data[0] = 42.0;
  CHECK (field_checksum (&b) == ha);
  CHECK (field_sum (&b) == 1.0);
  /* One bit of difference shows.  */
  b.data[field_index (&b, 2, 2)] = nextafter (1.0, 2.0);
  CHECK (field_checksum (&b) != ha);
  field_copy (&a, &b);
  CHECK (field_checksum (&a) == field_checksum (&b) && a.data[0] == 42.0);
  field_free (&a);
  field_free (&b);
}

/* One step on a 3 x 2 interior with a non-zero halo, against the 5-point
   formula written out for each cell.  */
static void
test_stencil (void)
{
  struct field u, h, t;
  CHECK (field_alloc (&u, 3, 2) && field_alloc (&h, 3, 2)
         && field_alloc (&t, 3, 2));
  for (size_t k = 0; k < field_cells (&u); ++k)
    u.data[k] = (double) (k * k % 17);
  const struct stencil s = { .nx = 3, .ny = 2, .stride = 5,
                             .rx = 0.125, .ry = 0.0625,
                             .rc = 1.0 - 2.0 * (0.125 + 0.0625) };
  heat_update_host (&s, u.data, h.data, stencil_interior (&s), false);
  bool all = true;
  for (size_t j = 1; j <= 2; ++j)
    for (size_t i = 1; i <= 3; ++i)
      {
        double c = u.data[field_index (&u, i, j)];
        double e = u.data[field_index (&u, i + 1, j)];
        double w = u.data[field_index (&u, i - 1, j)];
        double n = u.data[field_index (&u, i, j + 1)];
        double so = u.data[field_index (&u, i, j - 1)];
        double want = c + 0.125 * (e - 2 * c + w) + 0.0625 * (n - 2 * c + so);
        all = all && fabs (h.data[field_index (&h, i, j)] - want) < 1e-13;
      }
  CHECK (all);
  /* The halo of the output is untouched.  */
  CHECK (h.data[0] == 0.0 && h.data[field_cells (&h) - 1] == 0.0);

  /* The target kernel, wherever it runs, agrees (bitwise on the host).  */
  double *ud = u.data, *td = t.data;
  size_t n = field_cells (&u);
#pragma omp target data map(to: ud[0:n]) map(tofrom: td[0:n])
  heat_update_target (&s, ud, td, stencil_interior (&s), false, 0);
  bool same = true;
  for (size_t k = 0; k < n; ++k)
    same = same && fabs (td[k] - h.data[k]) <= 1e-15 * fabs (h.data[k]);
  CHECK (same);
  if (target_runs_on_host (0))
    CHECK (field_checksum (&t) == field_checksum (&h));
  field_free (&u);
  field_free (&h);
  field_free (&t);
}

/* Zero-flux and periodic halos: after a step the halo holds the mirrored
   or the opposite interior edge, so the update saw those neighbours.  */
static void
test_halo (void)
{
  const size_t nx = 4, ny = 3;
  struct field u, v;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&v, nx, ny));
  struct stencil s = { .nx = nx, .ny = ny, .stride = nx + 2,
                       .rx = 0.1, .ry = 0.1, .rc = 0.6 };
  for (int kind = 0; kind < 2; ++kind)
    {
      bool periodic = kind == 1;
      s.halo = (struct halo) {
        .refresh = true, .copy = { true, true, true, true },
        .source = { [EDGE_LEFT] = periodic ? nx : 1,
                    [EDGE_RIGHT] = periodic ? 1 : nx,
                    [EDGE_BOTTOM] = periodic ? ny : 1,
                    [EDGE_TOP] = periodic ? 1 : ny } };
      for (size_t k = 0; k < field_cells (&u); ++k)
        u.data[k] = (double) k;
      halo_refresh_host (&s, u.data);
      heat_update_host (&s, u.data, v.data, stencil_interior (&s), false);
      const size_t *src = s.halo.source;
      bool ok = true;
      for (size_t j = 1; j <= ny; ++j)
        ok = ok && u.data[field_index (&u, 0, j)]
                   == u.data[field_index (&u, src[EDGE_LEFT], j)]
                && u.data[field_index (&u, nx + 1, j)]
                   == u.data[field_index (&u, src[EDGE_RIGHT], j)];
      for (size_t i = 1; i <= nx; ++i)
        ok = ok && u.data[field_index (&u, i, 0)]
                   == u.data[field_index (&u, i, src[EDGE_BOTTOM])]
                && u.data[field_index (&u, i, ny + 1)]
                   == u.data[field_index (&u, i, src[EDGE_TOP])];
      CHECK (ok);
      /* Corner cell (1,1): west and south neighbours come from the halo.  */
      double c = u.data[field_index (&u, 1, 1)];
      double w = u.data[field_index (&u, periodic ? nx : 1, 1)];
      double so = u.data[field_index (&u, 1, periodic ? ny : 1)];
      double want = 0.6 * c + 0.1 * u.data[field_index (&u, 2, 1)] + 0.1 * w
                    + 0.1 * u.data[field_index (&u, 1, 2)] + 0.1 * so;
      CHECK (v.data[field_index (&v, 1, 1)] == want);
      /* Heat is conserved: the interior sum does not change.  */
      CHECK (fabs (field_sum (&v) - field_sum (&u)) < 1e-12 * field_sum (&u));
    }
  field_free (&u);
  field_free (&v);
}

/* The MPI halo strips: packing takes the four interior edge lines;
   unpacking puts each strip into the halo of its edge, and only of the
   edges that exchange.  Updating a field in pieces (as an MPI step does:
   inner cells, then strips) gives bitwise the whole update.  */
static void
test_strips (void)
{
  const size_t nx = 5, ny = 4;
  struct field u, w;
  CHECK (field_alloc (&u, nx, ny) && field_alloc (&w, nx, ny));
  struct stencil s = { .nx = nx, .ny = ny, .stride = nx + 2,
                       .rx = 0.1, .ry = 0.2, .rc = 0.4,
                       .halo = { .exchange = { [EDGE_LEFT] = true,
                                               [EDGE_TOP] = true } } };
  for (size_t k = 0; k < field_cells (&u); ++k)
    u.data[k] = 1.0 + (double) k;
  double strips[2 * (5 + 4)];
  CHECK (halo_strips_length (&s) == sizeof strips / sizeof *strips);
  halo_pack_host (&s, u.data, strips);
  halo_unpack_host (&s, w.data, strips);
  bool ok = true;
  for (size_t j = 1; j <= ny; ++j)
    ok = ok && w.data[field_index (&w, 0, j)] == u.data[field_index (&u, 1, j)]
         && w.data[field_index (&w, nx + 1, j)] == 0.0;
  for (size_t i = 1; i <= nx; ++i)
    ok = ok && w.data[field_index (&w, i, ny + 1)]
               == u.data[field_index (&u, i, ny)]
         && w.data[field_index (&w, i, 0)] == 0.0;
  CHECK (ok);

  struct field whole, parts;
  CHECK (field_alloc (&whole, nx, ny) && field_alloc (&parts, nx, ny));
  heat_update_host (&s, u.data, whole.data, stencil_interior (&s), false);
  const struct rect pieces[] = {
    { 2, nx - 1, 2, ny - 1 }, { 1, nx, 1, 1 }, { 1, nx, ny, ny },
    { 1, 1, 2, ny - 1 }, { nx, nx, 2, ny - 1 },
  };
  double change = 0.0;
  for (size_t k = 0; k < sizeof pieces / sizeof *pieces; ++k)
    change = fmax (change, heat_update_host (&s, u.data, parts.data,
                                             pieces[k], true));
  CHECK (field_checksum (&parts) == field_checksum (&whole));
  CHECK (change > 0.0);
  field_free (&u);
  field_free (&w);
  field_free (&whole);
  field_free (&parts);
}

/* The frame kernels (host and target) update exactly the cells next to
   the halo: with the inner rectangle they give the whole update, for
   grids of one and two rows or columns too, with the residual of the
   whole.  */
static void
test_frame (void)
{
  const size_t shapes[][2] = { { 7, 5 }, { 1, 4 }, { 5, 1 }, { 2, 2 },
                               { 3, 2 }, { 1, 1 } };
  for (size_t k = 0; k < sizeof shapes / sizeof *shapes; ++k)
    {
      const size_t nx = shapes[k][0], ny = shapes[k][1];
      struct field u, whole, parts, dev;
      CHECK (field_alloc (&u, nx, ny) && field_alloc (&whole, nx, ny)
             && field_alloc (&parts, nx, ny) && field_alloc (&dev, nx, ny));
      for (size_t c = 0; c < field_cells (&u); ++c)
        u.data[c] = (double) (c * c % 23);
      const struct stencil s = { .nx = nx, .ny = ny, .stride = nx + 2,
                                 .rx = 0.1, .ry = 0.15, .rc = 0.5 };
      const double all = heat_update_host (&s, u.data, whole.data,
                                           stencil_interior (&s), true);
      double change = heat_update_frame_host (&s, u.data, parts.data, true);
      if (nx > 2 && ny > 2)
        change = fmax (change, heat_update_host (&s, u.data, parts.data,
                         (struct rect) { 2, nx - 1, 2, ny - 1 }, true));
      CHECK (field_checksum (&parts) == field_checksum (&whole));
      CHECK (change == all);

      double *ud = u.data, *dd = dev.data;
      const size_t n = field_cells (&u);
      field_copy (&dev, &parts);
      /* Spoil the frame, so that only the kernel can restore it.  */
      for (size_t j = 1; j <= ny; ++j)
        for (size_t i = 1; i <= nx; ++i)
          if (i == 1 || i == nx || j == 1 || j == ny)
            dd[field_index (&dev, i, j)] = -1.0;
#pragma omp target data map(to: ud[0:n]) map(tofrom: dd[0:n])
      heat_update_frame_target (&s, ud, dd, false, 0);
      bool same = true;
      for (size_t c = 0; c < n; ++c)
        same = same && fabs (dd[c] - parts.data[c])
                       <= 1e-15 * fabs (parts.data[c]);
      CHECK (same);
      field_free (&u);
      field_free (&whole);
      field_free (&parts);
      field_free (&dev);
    }
}

int
main (void)
{
  test_layout ();
  test_bytes ();
  test_swap_and_checksum ();
  test_stencil ();
  test_halo ();
  test_strips ();
  test_frame ();
  return unit_exit ();
}
