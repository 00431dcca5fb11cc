/* Unit tests of the finite-volume operator and the explicit
   variable-coefficient step: faces against harmonic means worked out by
   hand, the step against a plain reference written here from the
   documented discretisation, discrete conservation with a source, and
   faces that do not depend on how the grid is split into parts.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "kernels.h"
#include "kernels_material.h"
#include "material.h"
#include "operator.h"
#include "unit.h"

static const bool open_edges[EDGE_COUNT] = { false, false, false, false };
static const bool insulated_edges[EDGE_COUNT] = { true, true, true, true };

/* A deterministic generator, so that a failure can be rerun.  */
static double
uniform (unsigned long *state)
{
  *state = *state * 6364136223846793005ul + 1442695040888963407ul;
  return (double) (*state >> 11) / 9007199254740992.0;
}

static bool
material_alloc (struct material *m, size_t nx, size_t ny, bool source)
{
  *m = (struct material) { .variable = true, .conductivity_uniform = 1.0,
                           .capacity_uniform = 1.0 };
  return field_alloc (&m->conductivity, nx, ny)
         && field_alloc (&m->capacity, nx, ny)
         && (!source || field_alloc (&m->source, nx, ny));
}

static void
material_release (struct material *m)
{
  field_free (&m->conductivity);
  field_free (&m->capacity);
  field_free (&m->source);
}

/* Every node of the padded part, halo included, random: k and rho c_p
   over four decades, q of either sign.  */
static void
randomise (struct material *m, unsigned long *state)
{
  const size_t n = field_cells (&m->conductivity);
  for (size_t c = 0; c < n; ++c)
    {
      m->conductivity.data[c] = pow (10.0, 4.0 * uniform (state) - 2.0);
      m->capacity.data[c] = pow (10.0, 2.0 * uniform (state) - 1.0);
      if (m->source.data != NULL)
        m->source.data[c] = 10.0 * (uniform (state) - 0.5);
    }
}

/* Equal to rounding: where a mean is no binary fraction, the operator
   and the hand may round differently.  */
static bool
near (double a, double b)
{
  return fabs (a - b) <= 4e-16 * fabs (b);
}

/* Faces of a 3 x 2 part against values worked out by hand: k = 1 and 3
   meet in 2 1 3 / (1 + 3) = 1.5, k = 2 and 2 in 2; over dx^2 = 1/4 and
   dy^2 = 1/16.  */
static void
test_faces_by_hand (void)
{
  struct material m;
  CHECK (material_alloc (&m, 3, 2, false));
  /* Rows 0..3 of 5 columns; the halo holds the edge nodes' own values
     except at the left of row 1, a neighbour of conductivity 4.  */
  const double k[4][5] = {
    { 0, 1, 3, 2, 0 },
    { 4, 1, 3, 2, 2 },
    { 2, 2, 2, 6, 6 },
    { 0, 2, 2, 6, 0 },
  };
  for (size_t j = 0; j < 4; ++j)
    for (size_t i = 0; i < 5; ++i)
      m.conductivity.data[j * 5 + i] = k[j][i];
  for (size_t c = 0; c < field_cells (&m.capacity); ++c)
    m.capacity.data[c] = 2.0;
  struct heat_operator op;
  const bool right_insulated[EDGE_COUNT] = { false, true, false, false };
  CHECK (heat_operator_build (&op, &m, 0.5, 0.25, right_insulated));
  CHECK (op.nx == 3 && op.ny == 2 && op.stride == 5);
  /* Row 1: faces 4|1, 1|3, 3|2, 2|2 (insulated).  */
  CHECK (near (op.wx[5 + 0], 2.0 * 4 * 1 / 5.0 * 4.0));
  CHECK (op.wx[5 + 1] == 1.5 * 4.0);
  CHECK (near (op.wx[5 + 2], 2.0 * 3 * 2 / 5.0 * 4.0));
  CHECK (op.wx[5 + 3] == 0.0);
  /* Row 2: 2|2, 2|2, 2|6, 6|6 (insulated).  */
  CHECK (op.wx[10 + 0] == 2.0 * 4.0);
  CHECK (op.wx[10 + 2] == 3.0 * 4.0);
  CHECK (op.wx[10 + 3] == 0.0);
  /* Column 1 upwards: 1|1, 1|2, 2|2; column 3, the edge nodes of the
     insulated right edge, whose faces are half as long: 2|2, 2|6, 6|6.  */
  CHECK (op.wy[0 * 5 + 1] == 1.0 * 16.0);
  CHECK (near (op.wy[1 * 5 + 1], 4.0 / 3.0 * 16.0));
  CHECK (op.wy[2 * 5 + 1] == 2.0 * 16.0);
  CHECK (op.wy[1 * 5 + 3] == 0.5 * 3.0 * 16.0);
  CHECK (op.wy[2 * 5 + 3] == 0.5 * 6.0 * 16.0);
  CHECK (op.capacity[5 + 1] == 2.0 && op.source[5 + 1] == 0.0);
  /* The edge nodes own half a box.  */
  CHECK (op.capacity[5 + 3] == 1.0 && op.capacity[10 + 3] == 1.0);
  heat_operator_free (&op);

  /* All edges insulated: every face on the edge of the part is shut.  */
  CHECK (heat_operator_build (&op, &m, 0.5, 0.25, insulated_edges));
  bool shut = true;
  for (size_t j = 1; j <= 2; ++j)
    shut = shut && op.wx[j * 5] == 0.0 && op.wx[j * 5 + 3] == 0.0;
  for (size_t i = 1; i <= 3; ++i)
    shut = shut && op.wy[i] == 0.0 && op.wy[2 * 5 + i] == 0.0;
  CHECK (shut);
  heat_operator_free (&op);
  material_release (&m);
}

/* The harmonic mean as the discretisation documents it.  */
static double
harmonic (double a, double b)
{
  return 2.0 * a * b / (a + b);
}

/* The reference step, written from the equation and nothing of heatsim
   but the padded layout: each face's flux from its two nodes, per
   node dt / C (net inflow + q).  The nodes of an insulated edge lie on
   it: their boxes, and so their faces along the edge, their capacity and
   their source, are half of the others' (a quarter of the box at a
   corner).  */
static void
reference_step (const struct material *m, const bool insulated[EDGE_COUNT],
                double dx, double dy, double dt, const struct field *u,
                struct field *unew)
{
  const size_t nx = u->nx, ny = u->ny, s = u->stride;
  const double *k = m->conductivity.data, *v = u->data;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t c = j * s + i;
        const double west = i == 1 && insulated[EDGE_LEFT] ? 0.0
                            : harmonic (k[c - 1], k[c]) * (v[c - 1] - v[c]);
        const double east = i == nx && insulated[EDGE_RIGHT] ? 0.0
                            : harmonic (k[c + 1], k[c]) * (v[c + 1] - v[c]);
        const double south = j == 1 && insulated[EDGE_BOTTOM] ? 0.0
                             : harmonic (k[c - s], k[c]) * (v[c - s] - v[c]);
        const double north = j == ny && insulated[EDGE_TOP] ? 0.0
                             : harmonic (k[c + s], k[c]) * (v[c + s] - v[c]);
        const double q = m->source.data != NULL ? m->source.data[c] : 0.0;
        const double fx = (i == 1 && insulated[EDGE_LEFT])
                          || (i == nx && insulated[EDGE_RIGHT]) ? 0.5 : 1.0;
        const double fy = (j == 1 && insulated[EDGE_BOTTOM])
                          || (j == ny && insulated[EDGE_TOP]) ? 0.5 : 1.0;
        const double flow = fy * (west + east) / (dx * dx)
                            + fx * (south + north) / (dy * dy);
        unew->data[c] = v[c] + dt / (fx * fy * m->capacity.data[c])
                               * (flow + fx * fy * q);
      }
}

static void
random_field (struct field *u, unsigned long *state)
{
  for (size_t c = 0; c < field_cells (u); ++c)
    u->data[c] = 100.0 * uniform (state);
}

/* Largest |a - b| over the interior, relative to the largest |a|.  */
static double
distance (const struct field *a, const struct field *b)
{
  double diff = 0.0, size = 0.0;
  for (size_t j = 1; j <= a->ny; ++j)
    for (size_t i = 1; i <= a->nx; ++i)
      {
        const size_t c = field_index (a, i, j);
        diff = fmax (diff, fabs (a->data[c] - b->data[c]));
        size = fmax (size, fabs (a->data[c]));
      }
  return diff / size;
}

static bool
bitwise_equal (const struct field *a, const struct field *b)
{
  return memcmp (a->data, b->data, field_cells (a) * sizeof *a->data) == 0;
}

/* The step on a random material against the reference, on the host and
   in target regions of each form that runs here (the same bits), with
   open and with insulated edges.  */
static void
test_step_against_reference (const bool insulated[EDGE_COUNT])
{
  enum { NX = 37, NY = 23 };
  const double dx = 0.1, dy = 0.07, dt = 1e-5;
  unsigned long state = 12345;
  struct material m;
  CHECK (material_alloc (&m, NX, NY, true));
  randomise (&m, &state);
  struct field u, host, ref, dev;
  CHECK (field_alloc (&u, NX, NY) && field_alloc (&host, NX, NY)
         && field_alloc (&ref, NX, NY) && field_alloc (&dev, NX, NY));
  random_field (&u, &state);
  struct material_step ms;
  CHECK (material_step_build (&ms, &m, dx, dy, dt, insulated));
  const struct stencil s = { .nx = NX, .ny = NY, .stride = NX + 2,
                             .form = KERNEL_COLLAPSE };
  const struct rect all = stencil_interior (&s);
  reference_step (&m, insulated, dx, dy, dt, &u, &ref);
  material_update_host (&s, &ms, u.data, host.data, all);
  CHECK (distance (&ref, &host) <= 1e-13);
  /* A step that changes nothing detectable would pass the line above
     only if the reference did too: make sure it does something.  */
  CHECK (distance (&u, &host) > 1e-6);

  const enum kernel_form forms[] = { KERNEL_COLLAPSE, KERNEL_SPLIT };
  for (size_t f = 0; f < sizeof forms / sizeof *forms; ++f)
    {
      struct stencil t = s;
      t.form = forms[f];
      double *ud = u.data, *dd = dev.data;
      double *wx = ms.op.wx, *wy = ms.op.wy, *gain = ms.gain;
      double *rise = ms.rise;
      const size_t n = field_cells (&u);
      memset (dd, 0, n * sizeof *dd);
#pragma omp target data map(to: ud[0:n], wx[0:n], wy[0:n], gain[0:n], \
                            rise[0:n]) map(tofrom: dd[0:n])
      {
        /* The frame by itself and the rest, as an MPI step runs them.  */
        material_update_frame_target (&t, &ms, ud, dd, 0);
        material_update_target (&t, &ms, ud, dd,
                                (struct rect) { 2, NX - 1, 2, NY - 1 }, 0);
      }
      CHECK (bitwise_equal (&host, &dev));
    }
  memset (dev.data, 0, field_cells (&dev) * sizeof *dev.data);
  material_update_frame_host (&s, &ms, u.data, dev.data);
  material_update_host (&s, &ms, u.data, dev.data,
                        (struct rect) { 2, NX - 1, 2, NY - 1 });
  CHECK (bitwise_equal (&host, &dev));

  material_step_free (&ms);
  field_free (&u);
  field_free (&host);
  field_free (&ref);
  field_free (&dev);
  material_release (&m);
}

/* The share of a full box of node k of n between two insulated ends.  */
static double
share (size_t k, size_t n)
{
  return k == 1 || k == n ? 0.5 : 1.0;
}

/* sum C u V over the interior, the nodes of the insulated edges owning
   half a box (a quarter at the corners), summed in long double so that
   the test's own rounding stays far below what it checks.  */
static long double
total_heat (const struct material *m, const struct field *u, double volume)
{
  long double heat = 0.0;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      {
        const size_t c = field_index (u, i, j);
        heat += (long double) m->capacity.data[c] * u->data[c] * volume
                * share (i, u->nx) * share (j, u->ny);
      }
  return heat;
}

/* Insulated edges and a source: each step adds exactly sum q V dt to the
   discrete total heat, whatever the material (the faces' fluxes cancel
   in pairs).  */
static void
test_conservation (void)
{
  enum { NX = 40, NY = 30, STEPS = 20 };
  const double dx = 1.0 / 41, dy = 1.0 / 31, volume = dx * dy;
  unsigned long state = 777;
  struct material m;
  CHECK (material_alloc (&m, NX, NY, true));
  randomise (&m, &state);
  double kmax = 0.0, power = 0.0;
  for (size_t j = 1; j <= NY; ++j)
    for (size_t i = 1; i <= NX; ++i)
      {
        const size_t c = field_index (&m.conductivity, i, j);
        /* A source of one sign, strong enough that a step's gain stands
           far above the rounding of the total.  */
        m.source.data[c] = 1e6 * (1.0 + fabs (m.source.data[c]));
        kmax = fmax (kmax, m.conductivity.data[c] / m.capacity.data[c]);
        power += m.source.data[c] * volume * share (i, NX) * share (j, NY);
      }
  const double dt = 0.2 / (kmax * (1.0 / (dx * dx) + 1.0 / (dy * dy)));
  struct field u, unew;
  CHECK (field_alloc (&u, NX, NY) && field_alloc (&unew, NX, NY));
  random_field (&u, &state);
  struct material_step ms;
  CHECK (material_step_build (&ms, &m, dx, dy, dt, insulated_edges));
  const struct stencil s = { .nx = NX, .ny = NY, .stride = NX + 2 };
  double worst = 0.0;
  for (int n = 0; n < STEPS; ++n)
    {
      const long double before = total_heat (&m, &u, volume);
      material_update_host (&s, &ms, u.data, unew.data,
                            stencil_interior (&s));
      const long double after = total_heat (&m, &unew, volume);
      worst = fmax (worst, (double) fabsl ((after - before) - power * dt)
                           / (power * dt));
      field_swap (&u, &unew);
    }
  printf ("conservation: largest relative error of a step's gain %.3g\n",
          worst);
  CHECK (worst <= 1e-12);
  /* The same steps with the left edge open leak heat through it (its
     halo is 0): the check above can tell.  */
  const bool leaky[EDGE_COUNT] = { false, true, true, true };
  material_step_free (&ms);
  CHECK (material_step_build (&ms, &m, dx, dy, dt, leaky));
  for (size_t j = 0; j <= NY + 1; ++j)
    u.data[field_index (&u, 0, j)] = 0.0;
  const long double before = total_heat (&m, &u, volume);
  material_update_host (&s, &ms, u.data, unew.data, stencil_interior (&s));
  const long double after = total_heat (&m, &unew, volume);
  CHECK (fabsl ((after - before) - power * dt) / (power * dt) > 1e-6);
  material_step_free (&ms);
  field_free (&u);
  field_free (&unew);
  material_release (&m);
}

/* The faces of two halves of a grid, each with the halo ring the whole
   material gives it (as the material of an MPI rank holds it), equal
   the whole grid's bit for bit; on a periodic axis the faces of both
   edges are one face.  */
static void
test_split_and_periodic (void)
{
  enum { NX = 9, NY = 6, HALF = 4 };
  unsigned long state = 99;
  struct material whole, part;
  CHECK (material_alloc (&whole, NX, NY, false));
  randomise (&whole, &state);
  /* Periodic in x: the halo columns hold the opposite edge's nodes.  */
  for (size_t j = 0; j <= NY + 1; ++j)
    {
      double *k = whole.conductivity.data + j * (NX + 2);
      k[0] = k[NX];
      k[NX + 1] = k[1];
    }
  struct heat_operator all, right;
  CHECK (heat_operator_build (&all, &whole, 0.3, 0.2, open_edges));
  bool periodic = true;
  for (size_t j = 1; j <= NY; ++j)
    periodic = periodic && all.wx[j * (NX + 2)] == all.wx[j * (NX + 2) + NX];
  CHECK (periodic);
  /* The right part: columns HALF+1..NX, with column HALF and the halo
     beyond NX as its halo.  */
  const size_t pnx = NX - HALF;
  CHECK (material_alloc (&part, pnx, NY, false));
  for (size_t j = 0; j <= NY + 1; ++j)
    for (size_t i = 0; i <= pnx + 1; ++i)
      {
        part.conductivity.data[j * (pnx + 2) + i]
          = whole.conductivity.data[j * (NX + 2) + HALF + i];
        part.capacity.data[j * (pnx + 2) + i]
          = whole.capacity.data[j * (NX + 2) + HALF + i];
      }
  CHECK (heat_operator_build (&right, &part, 0.3, 0.2, open_edges));
  bool same = true;
  for (size_t j = 1; j <= NY; ++j)
    for (size_t i = 0; i <= pnx; ++i)
      same = same && right.wx[j * (pnx + 2) + i]
                     == all.wx[j * (NX + 2) + HALF + i];
  for (size_t j = 0; j <= NY; ++j)
    for (size_t i = 1; i <= pnx; ++i)
      same = same && right.wy[j * (pnx + 2) + i]
                     == all.wy[j * (NX + 2) + HALF + i];
  CHECK (same);
  heat_operator_free (&all);
  heat_operator_free (&right);
  material_release (&whole);
  material_release (&part);
}

int
main (void)
{
  test_faces_by_hand ();
  test_step_against_reference (open_edges);
  test_step_against_reference (insulated_edges);
  test_conservation ();
  test_split_and_periodic ();
  return unit_exit ();
}
