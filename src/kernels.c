#include <config.h>

#include "kernels.h"

#include <math.h>
#include <omp.h>

#pragma omp declare target
/* One cell.  The order of the additions is fixed so that every strategy
   computes bitwise the same value on the same processor.  */
static inline double
heat_cell (const double *u, size_t c, size_t stride,
           double rx, double ry, double rc)
{
  return rc * u[c] + rx * u[c + 1] + rx * u[c - 1]
         + ry * u[c + stride] + ry * u[c - stride];
}

/* Update one cell and return how much it changed.  */
static inline double
update_cell (const double *u, double *unew, size_t c, size_t stride,
             double rx, double ry, double rc)
{
  unew[c] = heat_cell (u, c, stride, rx, ry, rc);
  return fabs (unew[c] - u[c]);
}

/* Halo cells number k of the side columns (k <= ny) and of the bottom and
   top rows (k <= nx), for the edges that copy an interior line.  Corners
   are never read by the 5-point stencil.  */
static inline void
halo_cells (double *u, size_t k, size_t nx, size_t ny, size_t stride,
            struct halo h)
{
  if (k <= ny)
    {
      if (h.copy[EDGE_LEFT])
        u[k * stride] = u[k * stride + h.source[EDGE_LEFT]];
      if (h.copy[EDGE_RIGHT])
        u[k * stride + nx + 1] = u[k * stride + h.source[EDGE_RIGHT]];
    }
  if (k <= nx)
    {
      if (h.copy[EDGE_BOTTOM])
        u[k] = u[h.source[EDGE_BOTTOM] * stride + k];
      if (h.copy[EDGE_TOP])
        u[(ny + 1) * stride + k] = u[h.source[EDGE_TOP] * stride + k];
    }
}

/* The halo strips of an MPI exchange, one buffer: the first and last
   interior columns (ny each), then the first and last interior rows (nx
   each), in the order of enum edge.  Packing reads the interior lines a
   neighbour needs; unpacking writes what the neighbours sent into the halo
   of the edges that exchange.  */
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
              size_t stride, struct halo h)
{
  if (k <= ny)
    {
      if (h.exchange[EDGE_LEFT])
        u[k * stride] = recv[k - 1];
      if (h.exchange[EDGE_RIGHT])
        u[k * stride + nx + 1] = recv[ny + k - 1];
    }
  if (k <= nx)
    {
      if (h.exchange[EDGE_BOTTOM])
        u[k] = recv[2 * ny + k - 1];
      if (h.exchange[EDGE_TOP])
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

/* Directives built from macro arguments: _Pragma takes one string literal,
   so the clauses are stringized with the rest of the directive.  */
#define PRAGMA(...) _Pragma (#__VA_ARGS__)

/* The loops below come in pairs, host and target, the same but for the
   directive: the host strategy must contain no target construct at all,
   since its point is to show what the CPU path alone does.  The loop over
   the halo's lines is written once for the three halo operations and both
   directives.  */
#define ON_HOST omp parallel for schedule(static)
#define ON_DEVICE omp target teams distribute parallel for device(device)
#define FOR_HALO(DIRECTIVE, CALL)                                           \
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;                  \
  const size_t n = halo_length (s);                                         \
  PRAGMA (DIRECTIVE)                                                        \
  for (size_t k = 1; k <= n; ++k)                                           \
    CALL

void
halo_refresh_host (const struct stencil *s, double *u)
{
  const struct halo h = s->halo;
  FOR_HALO (ON_HOST, halo_cells (u, k, nx, ny, stride, h));
}

void
halo_refresh_target (const struct stencil *s, double *u, int device)
{
  const struct halo h = s->halo;
  FOR_HALO (ON_DEVICE, halo_cells (u, k, nx, ny, stride, h));
}

void
halo_pack_host (const struct stencil *s, const double *u, double *send)
{
  FOR_HALO (ON_HOST, pack_cells (u, send, k, nx, ny, stride));
}

void
halo_pack_target (const struct stencil *s, const double *u, double *send,
                  int device)
{
  FOR_HALO (ON_DEVICE, pack_cells (u, send, k, nx, ny, stride));
}

void
halo_unpack_host (const struct stencil *s, double *u, const double *recv)
{
  const struct halo h = s->halo;
  FOR_HALO (ON_HOST, unpack_cells (u, recv, k, nx, ny, stride, h));
}

void
halo_unpack_target (const struct stencil *s, double *u, const double *recv,
                    int device)
{
  const struct halo h = s->halo;
  FOR_HALO (ON_DEVICE, unpack_cells (u, recv, k, nx, ny, stride, h));
}

/* The cells of rectangle r, BODY for each, at c = j * stride + i.  */
#define FOR_CELLS(BODY)                                                     \
  for (size_t j = r.j0; j <= r.j1; ++j)                                     \
    for (size_t i = r.i0; i <= r.i1; ++i)                                   \
      {                                                                     \
        const size_t c = j * stride + i;                                    \
        BODY;                                                               \
      }

/* ... with host threads.  */
#define FOR_RECT_HOST(CLAUSES, BODY)                                        \
  PRAGMA (omp parallel for schedule(static) CLAUSES)                        \
  FOR_CELLS (BODY)

/* ... in a target kernel of the chosen form.  No map clauses: the fields
   are found in the device data environment set up by the strategy.  The
   innermost index is the contiguous one, so neighbouring GPU threads touch
   neighbouring addresses.  */
#define FOR_RECT_TARGET(form, CLAUSES, BODY)                                \
  switch (form)                                                             \
    {                                                                       \
    case KERNEL_COLLAPSE:                                                   \
      PRAGMA (omp target teams distribute parallel for collapse(2)          \
              device(device) CLAUSES)                                       \
      FOR_CELLS (BODY)                                                      \
      break;                                                                \
    case KERNEL_LOOP:                                                       \
      PRAGMA (omp target teams loop collapse(2) device(device) CLAUSES)     \
      FOR_CELLS (BODY)                                                      \
      break;                                                                \
    case KERNEL_SPLIT:                                                      \
      /* Rows to teams, the cells of a row to the threads of a team.  */    \
      PRAGMA (omp target teams distribute device(device) CLAUSES)           \
      for (size_t j = r.j0; j <= r.j1; ++j)                                 \
        {                                                                   \
          PRAGMA (omp parallel for CLAUSES)                                 \
          for (size_t i = r.i0; i <= r.i1; ++i)                             \
            {                                                               \
              const size_t c = j * stride + i;                              \
              BODY;                                                         \
            }                                                               \
        }                                                                   \
      break;                                                                \
    }

/* The update and, fused into the same pass over memory, the largest
   change of a cell: only the scalar result crosses back to the host.  */
#define UPDATE(FOR_RECT, ...)                                               \
  const size_t stride = s->stride;                                          \
  const double rx = s->rx, ry = s->ry, rc = s->rc;                          \
  double change = 0.0;                                                      \
  if (residual)                                                             \
    {                                                                       \
      FOR_RECT (__VA_ARGS__ reduction(max: change),                          \
                change = fmax (change, update_cell (u, unew, c, stride,     \
                                                    rx, ry, rc)));          \
    }                                                                       \
  else                                                                      \
    {                                                                       \
      FOR_RECT (__VA_ARGS__, unew[c] = heat_cell (u, c, stride, rx, ry, rc)); \
    }                                                                       \
  return change

double
heat_update_host (const struct stencil *s, double *restrict u,
                  double *restrict unew, struct rect r, bool residual)
{
  UPDATE (FOR_RECT_HOST, );
}

double
heat_update_target (const struct stencil *s, double *u, double *unew,
                    struct rect r, bool residual, int device)
{
  UPDATE (FOR_RECT_TARGET, s->form,);
}

void
copy_host (const double *restrict a, double *restrict b, size_t n)
{
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < n; ++k)
    b[k] = a[k];
}

void
copy_target (const double *a, double *b, size_t n, int device)
{
#pragma omp target teams distribute parallel for device(device)
  for (size_t k = 0; k < n; ++k)
    b[k] = a[k];
}

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

size_t
count_nonfinite_target (const struct stencil *s, const double *u, int device)
{
  const size_t nx = s->nx, ny = s->ny, stride = s->stride;
  size_t bad = 0;
#pragma omp target teams distribute parallel for collapse(2) \
  device(device) reduction(+: bad)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      bad += !isfinite (u[j * stride + i]);
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
