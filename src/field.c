#include <config.h>

#include "field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_SYS_MMAN_H
# include <sys/mman.h>
#endif

enum { FIELD_ALIGN = 64 };   /* a cache line; also suits AVX-512 loads */

/* Blocks of at least HUGE_MIN bytes start on a 2 MiB boundary and ask the
   kernel for transparent huge pages, where it gives them only on request
   (Debian's default): a 1024^2 level is 2048 pages of 4 KiB, more than
   the TLB holds, and the multigrid solve touches several such at once.  */
enum { HUGE_PAGE = 1 << 21, HUGE_MIN = 1 << 22 };

void *
field_block (size_t bytes)
{
  const size_t align = bytes >= HUGE_MIN ? HUGE_PAGE : FIELD_ALIGN;
  if (bytes > SIZE_MAX - align)
    return NULL;
  /* aligned_alloc wants a multiple of the alignment.  */
  const size_t rounded = (bytes + align - 1) / align * align;
  void *block = aligned_alloc (align, rounded);
#if defined HAVE_SYS_MMAN_H && defined MADV_HUGEPAGE
  /* Advice: where it is refused, the pages are small.  */
  if (block != NULL && align == HUGE_PAGE)
    (void) madvise (block, rounded, MADV_HUGEPAGE);
#endif
  return block;
}

bool
field_bytes (size_t nx, size_t ny, size_t *bytes)
{
  if (nx > SIZE_MAX - 2 || ny > SIZE_MAX - 2)
    return false;
  size_t cols = nx + 2, rows = ny + 2;
  if (cols > SIZE_MAX / rows)
    return false;
  size_t cells = cols * rows;
  if (cells > (SIZE_MAX - FIELD_ALIGN) / sizeof (double))
    return false;
  *bytes = cells * sizeof (double);
  return true;
}

bool
field_alloc (struct field *f, size_t nx, size_t ny)
{
  size_t bytes;
  f->nx = nx;
  f->ny = ny;
  f->stride = nx + 2;
  f->data = NULL;
  f->x0 = f->y0 = 0;
  if (!field_bytes (nx, ny, &bytes))
    return false;
  f->data = field_block (bytes);
  if (f->data == NULL)
    return false;

  /* Zero row by row in parallel: the threads that will update a row touch
     its pages first, which places them near those threads.  */
  double *const data = f->data;
  const size_t stride = f->stride;
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < ny + 2; ++j)
    memset (data + j * stride, 0, stride * sizeof (double));
  return true;
}

void
field_free (struct field *f)
{
  free (f->data);
  f->data = NULL;
}

void
field_swap (struct field *a, struct field *b)
{
  struct field t = *a;
  *a = *b;
  *b = t;
}

void
field_copy (struct field *dst, const struct field *src)
{
  memcpy (dst->data, src->data, field_cells (src) * sizeof (double));
}

void
field_range (const struct field *f, double *min, double *max)
{
  const double *data = f->data;
  const size_t nx = f->nx, ny = f->ny, stride = f->stride;
  double lo = data[stride + 1], hi = lo;
#pragma omp parallel for schedule(static) reduction(min: lo) reduction(max: hi)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        lo = fmin (lo, data[j * stride + i]);
        hi = fmax (hi, data[j * stride + i]);
      }
  *min = lo;
  *max = hi;
}

double
field_largest (const struct field *f)
{
  double lo, hi;
  field_range (f, &lo, &hi);
  return fmax (fabs (lo), fabs (hi));
}

double
field_sum (const struct field *f)
{
  const double *data = f->data;
  const size_t nx = f->nx, ny = f->ny, stride = f->stride;
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+: sum)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      sum += data[j * stride + i];
  return sum;
}

double
field_volume_sum (const struct field *f, const bool edge_node[EDGE_COUNT])
{
  return field_volume_sum_scaled (f, edge_node, 1.0, false);
}

double
field_volume_sum_scaled (const struct field *f,
                         const bool edge_node[EDGE_COUNT], double scale,
                         bool magnitude)
{
  const double *data = f->data;
  const size_t nx = f->nx, ny = f->ny, stride = f->stride;
  const double left = edge_node[EDGE_LEFT] ? 0.5 : 1.0;
  const double right = edge_node[EDGE_RIGHT] ? 0.5 : 1.0;
  const double bottom = edge_node[EDGE_BOTTOM] ? 0.5 : 1.0;
  const double top = edge_node[EDGE_TOP] ? 0.5 : 1.0;
  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+: sum)
  for (size_t j = 1; j <= ny; ++j)
    {
      const double row = (j == 1 ? bottom : 1.0) * (j == ny ? top : 1.0);
      /* The cell scaled before it is weighed: a power of two times the
         product the unscaled sum takes, rounded alike.  */
      for (size_t i = 1; i <= nx; ++i)
        {
          const double v = data[j * stride + i] * scale;
          sum += (i == 1 ? left : 1.0) * (i == nx ? right : 1.0) * row
                 * (magnitude ? fabs (v) : v);
        }
    }
  return sum;
}

/* splitmix64's finalizer: every input bit flips about half the output.  */
static inline uint64_t
mix (uint64_t z)
{
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

uint64_t
field_checksum (const struct field *f)
{
  const size_t nx = f->nx, ny = f->ny, stride = f->stride;
  const uint64_t x0 = f->x0, y0 = f->y0;
  const double *data = f->data;
  uint64_t h = 0;
#pragma omp parallel for schedule(static) reduction(+: h)
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        uint64_t bits;
        memcpy (&bits, &data[j * stride + i], sizeof bits);
        h += mix (mix ((x0 + i) ^ ((y0 + j) << 32)) ^ bits);
      }
  return h;
}
