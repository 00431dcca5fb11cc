#include <config.h>

#include "kernels.h"

#include "heat_cell.h"
#include "host_isa.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#ifdef HEATSIM_OFFLOAD_GPU
# include <ompx.h>
#endif

bool
kernel_form_runs (enum kernel_form form, bool on_device)
{
#ifdef HEATSIM_OFFLOAD_GPU
  return form != KERNEL_BARE || on_device;
#else
  (void) on_device;
  return form != KERNEL_BARE;
#endif
}

bool
kernel_fits (size_t nx, size_t ny)
{
  /* A band needs three rows; the frame, 2 nx + 2 ny cells, is counted
     in 32 bits.  */
  return nx <= (size_t) INT_MAX / 4 && ny <= (size_t) INT_MAX / 4;
}

/* ---------------------------------------------------------------- update
   Host loops: kernels_host.c, on the path host_isa chose.  */

double
heat_update_host (const struct stencil *s, double *restrict u,
                  double *restrict unew, struct rect r, bool residual)
{
  const struct host_kernels *k = host_kernels (HOST_KERNEL_EXPLICIT);
  if (residual)
    return k->update_residual (r.i0, r.i1, r.j0, r.j1, s->stride, s->rx,
                               s->ry, s->rc, s->rise, u, unew);
  k->update (r.i0, r.i1, r.j0, r.j1, s->stride, s->rx, s->ry, s->rc, s->rise,
             u, unew);
  return 0.0;
}

/* Target kernels.  No map clauses: the fields are found in the device
   data environment set up by the strategy.  Arguments are scalars, so
   nothing but the pointers is looked up per launch; indices are 32-bit
   (the caller keeps them below INT_MAX), so the collapsed trip count
   needs no 64-bit division.  dist_schedule(static) gives each team one
   contiguous block of cells: without it the runtime hands out chunks of
   one iteration per thread, and each thread re-enters the parallel region
   (with its barriers) for every cell.  The innermost index is the
   contiguous one, so neighbouring threads touch neighbouring addresses.  */

static void
update_collapse (int i0, int i1, int j0, int j1, int stride, double rx,
                 double ry, double rc, double rise, const double *restrict u,
                 double *restrict unew, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i)
      unew[j * stride + i] = heat_cell (u + j * stride + i, stride,
                                        rx, ry, rc, rise);
}

static double
update_residual_collapse (int i0, int i1, int j0, int j1, int stride,
                          double rx, double ry, double rc, double rise,
                          const double *restrict u, double *restrict unew,
                          int device)
{
  double change = 0.0;
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) reduction(max: change) device(device)
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i)
      {
        const int c = j * stride + i;
        unew[c] = heat_cell (u + c, stride, rx, ry, rc, rise);
        change = fmax (change, fabs (unew[c] - u[c]));
      }
  return change;
}

/* Rows to teams, the cells of a row to the threads of a team.  */
static void
update_split (int i0, int i1, int j0, int j1, int stride, double rx,
              double ry, double rc, double rise, const double *restrict u,
              double *restrict unew, int device)
{
#pragma omp target teams distribute dist_schedule(static) device(device)
  for (int j = j0; j <= j1; ++j)
    {
#pragma omp parallel for
      for (int i = i0; i <= i1; ++i)
        unew[j * stride + i] = heat_cell (u + j * stride + i, stride,
                                          rx, ry, rc, rise);
    }
}

static double
update_residual_split (int i0, int i1, int j0, int j1, int stride,
                       double rx, double ry, double rc, double rise,
                       const double *restrict u, double *restrict unew,
                       int device)
{
  double change = 0.0;
#pragma omp target teams distribute dist_schedule(static) \
  reduction(max: change) device(device)
  for (int j = j0; j <= j1; ++j)
    {
#pragma omp parallel for reduction(max: change)
      for (int i = i0; i <= i1; ++i)
        {
          const int c = j * stride + i;
          unew[c] = heat_cell (u + c, stride, rx, ry, rc, rise);
          change = fmax (change, fabs (unew[c] - u[c]));
        }
    }
  return change;
}

#ifdef HEATSIM_OFFLOAD_GPU
/* Threads of a team of the bare form: a multiple of the warp size.  */
enum { BARE_THREADS = 256 };

/* One team per row, its threads striding along the row: the launch shape
   of a hand-written CUDA kernel, with no OpenMP runtime in the kernel.  */
static void
update_bare (int i0, int i1, int j0, int j1, int stride, double rx,
             double ry, double rc, double rise, const double *restrict u,
             double *restrict unew, int device)
{
  const int teams = j1 - j0 + 1;
#pragma omp target teams ompx_bare num_teams(teams) \
  thread_limit(BARE_THREADS) device(device)
  {
    const int j = j0 + ompx_block_id_x ();
    for (int i = i0 + ompx_thread_id_x (); i <= i1; i += BARE_THREADS)
      unew[j * stride + i] = heat_cell (u + j * stride + i, stride,
                                        rx, ry, rc, rise);
  }
}
#endif

/* Cells i0..i1 of rows 1..rows of the band whose row 0 is at u (and
   unew), in the given form.  */
static double
update_band (enum kernel_form form, bool residual, int i0, int i1, int rows,
             int stride, double rx, double ry, double rc, double rise,
             const double *u, double *unew, int device)
{
  if (residual)
    return form == KERNEL_SPLIT
           ? update_residual_split (i0, i1, 1, rows, stride, rx, ry, rc, rise,
                                    u, unew, device)
           : update_residual_collapse (i0, i1, 1, rows, stride, rx, ry, rc,
                                       rise, u, unew, device);
#ifdef HEATSIM_OFFLOAD_GPU
  if (form == KERNEL_BARE)
    {
      update_bare (i0, i1, 1, rows, stride, rx, ry, rc, rise, u, unew, device);
      return 0.0;
    }
#endif
  /* Without GPU device code a bare run is refused before it starts
     (kernel_form_runs); collapse stands in for it here.  */
  if (form == KERNEL_SPLIT)
    update_split (i0, i1, 1, rows, stride, rx, ry, rc, rise, u, unew, device);
  else
    update_collapse (i0, i1, 1, rows, stride, rx, ry, rc, rise, u, unew,
                     device);
  return 0.0;
}

double
heat_update_target (const struct stencil *s, double *u, double *unew,
                    struct rect r, bool residual, int device)
{
  const size_t stride = s->stride, rows = band_rows (stride);
  double change = 0.0;
  for (size_t j = r.j0; j <= r.j1; j += rows)
    {
      const size_t last = r.j1 - j < rows ? r.j1 : j + rows - 1;
      const size_t base = (j - 1) * stride;
      change = fmax (change,
                     update_band (s->form, residual, (int) r.i0, (int) r.i1,
                                  (int) (last - j + 1), (int) stride, s->rx,
                                  s->ry, s->rc, s->rise, u + base, unew + base,
                                  device));
    }
  return change;
}

/* ---------------------------------------------------------------- frame  */

double
heat_update_frame_host (const struct stencil *s, const double *restrict u,
                        double *restrict unew, bool residual)
{
  const struct host_kernels *k = host_kernels (HOST_KERNEL_EXPLICIT);
  if (residual)
    return k->frame_residual (s->nx, s->ny, s->stride, s->rx, s->ry, s->rc,
                              s->rise, u, unew);
  k->frame (s->nx, s->ny, s->stride, s->rx, s->ry, s->rc, s->rise, u, unew);
  return 0.0;
}

static void
update_frame_target (size_t nx, size_t ny, size_t stride, double rx,
                     double ry, double rc, double rise,
                     const double *restrict u, double *restrict unew,
                     int device)
{
  const int n = (int) frame_length (nx, ny);
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 0; k < n; ++k)
    {
      const size_t c = frame_cell (k, nx, ny, stride);
      unew[c] = heat_cell (u + c, stride, rx, ry, rc, rise);
    }
}

static double
update_residual_frame_target (size_t nx, size_t ny, size_t stride,
                              double rx, double ry, double rc, double rise,
                              const double *restrict u,
                              double *restrict unew, int device)
{
  const int n = (int) frame_length (nx, ny);
  double change = 0.0;
#pragma omp target teams distribute parallel for dist_schedule(static) \
  reduction(max: change) device(device)
  for (int k = 0; k < n; ++k)
    {
      const size_t c = frame_cell (k, nx, ny, stride);
      unew[c] = heat_cell (u + c, stride, rx, ry, rc, rise);
      change = fmax (change, fabs (unew[c] - u[c]));
    }
  return change;
}

double
heat_update_frame_target (const struct stencil *s, const double *u,
                          double *unew, bool residual, int device)
{
  if (residual)
    return update_residual_frame_target (s->nx, s->ny, s->stride, s->rx,
                                         s->ry, s->rc, s->rise, u, unew,
                                         device);
  update_frame_target (s->nx, s->ny, s->stride, s->rx, s->ry, s->rc, s->rise,
                       u, unew, device);
  return 0.0;
}

/* ---------------------------------------------------------------- halo
   Halo lines, k = 1..max(nx, ny): cell k of the side columns (k <= ny)
   and of the bottom and top rows (k <= nx).  Corners are never read by
   the 5-point stencil.  An edge copies from interior line source (and
   adds the heat it takes in), is set to its scheduled temperature, or
   receives its line from recv; a clear bit leaves the edge alone.  The
   edge's own values reach the kernels as scalars: per edge a = coef Q
   (or the temperature), b = coef H and TINF.  Target loops count lines
   with 32-bit integers (kernel_fits), which spares the runtime a 64-bit
   division per launch; cells are indexed with size_t.  */

/* Bit of edge e in a set of edges.  */
#define EDGE_BIT(e) (1u << (e))

#pragma omp declare target
/* Halo cell dst of edge bit: the temperature a where the edge is set;
   the copy of src, plus a + b (tinf - u[node]) where the edge takes
   heat (node: the edge node).  Branches on the edge's bits are the same
   for every thread.  */
static inline void
halo_cell (double *u, size_t dst, size_t src, size_t node, unsigned bit,
           unsigned copy, unsigned heat, unsigned set, double a, double b,
           double tinf)
{
  if (set & bit)
    u[dst] = a;
  else if (heat & bit)
    u[dst] = edge_halo_value (u[src], u[node], a, b, tinf);
  else if (copy & bit)
    u[dst] = u[src];
}

static inline void
halo_cells (double *u, size_t k, size_t nx, size_t ny, size_t stride,
            unsigned copy, unsigned heat, unsigned set, size_t left,
            size_t right, size_t bottom, size_t top, const double a[4],
            const double b[4], const double tinf[4])
{
  if (k <= ny)
    {
      const size_t row = k * stride;
      halo_cell (u, row, row + left, row + 1, EDGE_BIT (EDGE_LEFT), copy,
                 heat, set, a[EDGE_LEFT], b[EDGE_LEFT], tinf[EDGE_LEFT]);
      halo_cell (u, row + nx + 1, row + right, row + nx,
                 EDGE_BIT (EDGE_RIGHT), copy, heat, set, a[EDGE_RIGHT],
                 b[EDGE_RIGHT], tinf[EDGE_RIGHT]);
    }
  if (k <= nx)
    {
      halo_cell (u, k, bottom * stride + k, stride + k,
                 EDGE_BIT (EDGE_BOTTOM), copy, heat, set, a[EDGE_BOTTOM],
                 b[EDGE_BOTTOM], tinf[EDGE_BOTTOM]);
      halo_cell (u, (ny + 1) * stride + k, top * stride + k, ny * stride + k,
                 EDGE_BIT (EDGE_TOP), copy, heat, set, a[EDGE_TOP],
                 b[EDGE_TOP], tinf[EDGE_TOP]);
    }
}

/* The halo strips of an MPI exchange, one buffer: the first and last
   interior columns (ny each), then the first and last interior rows (nx
   each), in the order of enum edge.  */
static inline void
pack_cells (const double *u, double *send, size_t k, size_t nx, size_t ny,
            size_t stride)
{
  if (k <= ny)
    {
      send[k - 1] = u[k * stride + 1];
      send[ny + k - 1] = u[k * stride + nx];
    }
  if (k <= nx)
    {
      send[2 * ny + k - 1] = u[stride + k];
      send[2 * ny + nx + k - 1] = u[ny * stride + k];
    }
}

static inline void
unpack_cells (double *u, const double *recv, size_t k, size_t nx, size_t ny,
              size_t stride, unsigned exchange)
{
  if (k <= ny)
    {
      if (exchange & EDGE_BIT (EDGE_LEFT))
        u[k * stride] = recv[k - 1];
      if (exchange & EDGE_BIT (EDGE_RIGHT))
        u[k * stride + nx + 1] = recv[ny + k - 1];
    }
  if (k <= nx)
    {
      if (exchange & EDGE_BIT (EDGE_BOTTOM))
        u[k] = recv[2 * ny + k - 1];
      if (exchange & EDGE_BIT (EDGE_TOP))
        u[(ny + 1) * stride + k] = recv[2 * ny + nx + k - 1];
    }
}
#pragma omp end declare target

static size_t
halo_length (const struct stencil *s)
{
  return s->nx > s->ny ? s->nx : s->ny;
}

size_t
halo_strips_length (const struct stencil *s)
{
  return 2 * (s->nx + s->ny);
}

struct rect
stencil_interior (const struct stencil *s)
{
  return (struct rect) { 1, s->nx, 1, s->ny };
}

/* The set of edges whose flag is set in flag[].  Kernels take it, and the
   sources, as scalars: a target region that named struct halo would map
   it to and from the device at every launch.  */
static unsigned
edge_set (const bool flag[EDGE_COUNT])
{
  unsigned set = 0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (flag[e])
      set |= EDGE_BIT (e);
  return set;
}

/* The scalars of the halo fill: edge bits and, per edge, a, b, tinf.  */
struct halo_fill {
  unsigned copy, heat, set;
  double a[EDGE_COUNT], b[EDGE_COUNT], tinf[EDGE_COUNT];
};

static struct halo_fill
halo_fill (const struct halo *h)
{
  struct halo_fill f = {
    .copy = edge_set (h->copy), .heat = edge_set (h->heat), .set = 0u,
  };
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      f.a[e] = h->coef[e] * h->in.flux[e];
      f.b[e] = h->coef[e] * h->in.h[e];
      f.tinf[e] = h->in.ambient[e];
    }
  return f;
}

void
halo_refresh_host (const struct stencil *s, double *u)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const size_t n = halo_length (s);
  const struct halo_fill f = halo_fill (&s->halo);
  const size_t *src = s->halo.source;
  const size_t left = src[EDGE_LEFT], right = src[EDGE_RIGHT];
  const size_t bottom = src[EDGE_BOTTOM], top = src[EDGE_TOP];
#pragma omp parallel for schedule(static)
  for (size_t k = 1; k <= n; ++k)
    halo_cells (u, k, nx, ny, stride, f.copy, f.heat, f.set, left, right,
                bottom, top, f.a, f.b, f.tinf);
}

void
halo_refresh_target (const struct stencil *s, double *u, int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const int n = (int) halo_length (s);
  const struct halo_fill f = halo_fill (&s->halo);
  const unsigned copy = f.copy, heat = f.heat, set = f.set;
  const size_t *src = s->halo.source;
  const size_t left = src[EDGE_LEFT], right = src[EDGE_RIGHT];
  const size_t bottom = src[EDGE_BOTTOM], top = src[EDGE_TOP];
  /* Scalars, not arrays: an array named in a target region would be
     mapped at every launch.  */
  const double a0 = f.a[0], a1 = f.a[1], a2 = f.a[2], a3 = f.a[3];
  const double b0 = f.b[0], b1 = f.b[1], b2 = f.b[2], b3 = f.b[3];
  const double t0 = f.tinf[0], t1 = f.tinf[1], t2 = f.tinf[2];
  const double t3 = f.tinf[3];
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 1; k <= n; ++k)
    {
      const double a[4] = { a0, a1, a2, a3 }, b[4] = { b0, b1, b2, b3 };
      const double tinf[4] = { t0, t1, t2, t3 };
      halo_cells (u, (size_t) k, nx, ny, stride, copy, heat, set, left,
                  right, bottom, top, a, b, tinf);
    }
}

void
halo_set_host (const struct stencil *s, double *u,
               const bool fixed[EDGE_COUNT],
               const double temperature[EDGE_COUNT])
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const unsigned set = edge_set (fixed);
  const double none[EDGE_COUNT] = { 0.0, 0.0, 0.0, 0.0 };
  const size_t n = halo_length (s);
  for (size_t k = 1; k <= n; ++k)
    halo_cells (u, k, nx, ny, stride, 0u, 0u, set, 0, 0, 0, 0, temperature,
                none, none);
}

void
halo_set_target (const struct stencil *s, double *u,
                 const bool fixed[EDGE_COUNT],
                 const double temperature[EDGE_COUNT], int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const unsigned set = edge_set (fixed);
  const int n = (int) halo_length (s);
  const double t0 = temperature[0], t1 = temperature[1];
  const double t2 = temperature[2], t3 = temperature[3];
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 1; k <= n; ++k)
    {
      const double a[4] = { t0, t1, t2, t3 };
      const double none[4] = { 0.0, 0.0, 0.0, 0.0 };
      halo_cells (u, (size_t) k, nx, ny, stride, 0u, 0u, set, 0, 0, 0, 0, a,
                  none, none);
    }
}

void
halo_pack_host (const struct stencil *s, const double *u, double *send)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const size_t n = halo_length (s);
#pragma omp parallel for schedule(static)
  for (size_t k = 1; k <= n; ++k)
    pack_cells (u, send, k, nx, ny, stride);
}

void
halo_pack_target (const struct stencil *s, const double *u, double *send,
                  int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const int n = (int) halo_length (s);
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 1; k <= n; ++k)
    pack_cells (u, send, k, nx, ny, stride);
}

void
halo_unpack_host (const struct stencil *s, double *u, const double *recv)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const size_t n = halo_length (s);
  const unsigned exchange = edge_set (s->halo.exchange);
#pragma omp parallel for schedule(static)
  for (size_t k = 1; k <= n; ++k)
    unpack_cells (u, recv, k, nx, ny, stride, exchange);
}

void
halo_unpack_target (const struct stencil *s, double *u, const double *recv,
                    int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  const int n = (int) halo_length (s);
  const unsigned exchange = edge_set (s->halo.exchange);
#pragma omp target teams distribute parallel for dist_schedule(static) \
  device(device)
  for (int k = 1; k <= n; ++k)
    unpack_cells (u, recv, k, nx, ny, stride, exchange);
}

/* ---------------------------------------------------------------- copy
   The copy reference has the shape of the stencil kernel it is compared
   with: rows x row length, collapsed, 32-bit indices, one block per team
   (or one team per row for the bare form).  */

void
copy_host (const struct stencil *s, const double *restrict a,
           double *restrict b)
{
  const size_t n = s->stride * (s->ny + 2);
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    b[k] = a[k];
}

static void
copy_collapse (int rows, int stride, const double *restrict a,
               double *restrict b, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < stride; ++i)
      b[j * stride + i] = a[j * stride + i];
}

#ifdef HEATSIM_OFFLOAD_GPU
static void
copy_bare (int rows, int stride, const double *restrict a,
           double *restrict b, int device)
{
#pragma omp target teams ompx_bare num_teams(rows) \
  thread_limit(BARE_THREADS) device(device)
  {
    const int j = ompx_block_id_x ();
    for (int i = ompx_thread_id_x (); i < stride; i += BARE_THREADS)
      b[j * stride + i] = a[j * stride + i];
  }
}
#endif

void
copy_target (const struct stencil *s, const double *a, double *b, int device)
{
  const size_t stride = s->stride, all = s->ny + 2;
  const size_t rows = band_rows (stride) + 2;
  for (size_t j = 0; j < all; j += rows)
    {
      const int n = (int) (all - j < rows ? all - j : rows);
#ifdef HEATSIM_OFFLOAD_GPU
      if (s->form == KERNEL_BARE)
        {
          copy_bare (n, (int) stride, a + j * stride, b + j * stride, device);
          continue;
        }
#endif
      copy_collapse (n, (int) stride, a + j * stride, b + j * stride,
                     device);
    }
}

void
memcpy_target (const struct stencil *s, const double *a, double *b,
               int device)
{
  const size_t bytes = s->stride * (s->ny + 2) * sizeof *a;
#ifdef HEATSIM_OFFLOAD
  /* device_address takes non-const pointers; a is only read.  */
  void *src = device_address ((void *) a, device);
  omp_target_memcpy (device_address (b, device), src, bytes, 0, 0, device,
                     device);
#else
  /* No device code: target regions use the host's memory.  */
  (void) device;
  memcpy (b, a, bytes);
#endif
}

/* ---------------------------------------------------------------- NaN  */

size_t
count_nonfinite_host (const struct stencil *s, const double *u)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+: bad)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      bad += !isfinite (u[j * stride + i]);
  return bad;
}

/* Rows 1..rows of the band whose row 0 is at u.  */
static size_t
count_nonfinite_band (int nx, int rows, int stride, const double *u,
                      int device)
{
  size_t bad = 0;
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) reduction(+: bad) device(device)
  for (int j = 1; j <= rows; ++j)
    for (int i = 1; i <= nx; ++i)
      bad += !isfinite (u[j * stride + i]);
  return bad;
}

size_t
count_nonfinite_target (const struct stencil *s, const double *u, int device)
{
  const size_t stride = s->stride, rows = band_rows (stride);
  size_t bad = 0;
  for (size_t j = 1; j <= s->ny; j += rows)
    {
      const size_t n = s->ny - j + 1 < rows ? s->ny - j + 1 : rows;
      bad += count_nonfinite_band ((int) s->nx, (int) n, (int) stride,
                                   u + (j - 1) * stride, device);
    }
  return bad;
}

bool
device_can_allocate (size_t bytes, int device)
{
#ifdef HEATSIM_OFFLOAD
  void *probe = omp_target_alloc (bytes, device);
  if (probe == NULL)
    return false;
  omp_target_free (probe, device);
#else
  /* No device code: libomptarget is not linked, and target regions always
     run on the host, whose memory check_memory has already counted.  */
  (void) bytes;
  (void) device;
#endif
  return true;
}

void *
device_address (void *host, int device)
{
#ifdef HEATSIM_OFFLOAD
  return omp_get_mapped_ptr (host, device);
#else
  /* No device code: libomptarget is not linked, and target regions use
     the host's memory.  */
  (void) device;
  return host;
#endif
}

bool
target_runs_on_host (int device)
{
  int on_host = 1;
#pragma omp target device(device) map(from: on_host)
  on_host = omp_is_initial_device ();
  return on_host != 0;
}
