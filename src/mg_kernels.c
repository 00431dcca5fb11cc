/* Where each multigrid kernel runs: the host loop (mg_host.c, or
   mg_host_vector.c on the path host_isa chose), or the
   target loop (mg_device.c) inside the sections a MG_MAP kernel maps, or
   on the hierarchy that MG_RESIDENT keeps on the device; and what each
   costs in launches and bytes moved.  */
#include <config.h>

#include "mg_internal.h"

#include <omp.h>
#include <stddef.h>

#include "host_isa.h"

/* Fill the halo lines of u that copy an interior line; nothing (and no
   launch) when every edge is Dirichlet.  */
void
k_halo (struct exec *x, const struct halo_src *h, size_t nx, size_t ny,
        size_t stride, double *u)
{
  if (h->left == 0 && h->right == 0 && h->bottom == 0 && h->top == 0)
    return;
  count_launches (x, 1);
  const size_t cells = stride * (ny + 2);
  switch (x->where)
    {
    case MG_HOST:
      halo_host (h, nx, ny, stride, u);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TOFROM } };
        map_in (x, a, MAPPED_COUNT (a));
        halo_target (h, nx, ny, stride, u, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      halo_target (h, nx, ny, stride, u, x->device);
      break;
    }
}

/* Both colours of a red-black sweep, color first, on a level whose halo
   needs no refresh between them: one pass on the host (the two kernels
   it stands for counted), the two kernels on a device.  */
void
k_sweep (struct exec *x, const struct level *level, double c0, double omega,
         unsigned color)
{
  if (x->where != MG_HOST)
    {
      k_smooth (x, level, c0, omega, color);
      k_smooth (x, level, c0, omega, color ^ 1);
      return;
    }
  count_launches (x, 2);
  host_kernels (HOST_KERNEL_SMOOTH)->sweep (level->nx, level->ny,
                                            level->stride, level->u,
                                            host_f (level), level->axm,
                                            level->axp, level->aym,
                                            level->ayp, c0, omega, color);
}

void
k_smooth (struct exec *x, const struct level *level, double c0, double omega,
          unsigned color)
{
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2);
  double *u = level->u;
  const double *f = level->f, *axm = level->axm, *axp = level->axp;
  const double *aym = level->aym, *ayp = level->ayp;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      host_kernels (HOST_KERNEL_SMOOTH)->smooth (nx, ny, stride, u,
                                                 host_f (level), axm, axp,
                                                 aym, ayp, c0, omega, color);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TOFROM },
                                    { f, cells * sizeof *f, MAP_TO },
                                    { axm, (nx + 2) * sizeof *axm, MAP_TO },
                                    { axp, (nx + 2) * sizeof *axp, MAP_TO },
                                    { aym, (ny + 2) * sizeof *aym, MAP_TO },
                                    { ayp, (ny + 2) * sizeof *ayp, MAP_TO } };
        map_in (x, a, MAPPED_COUNT (a));
        smooth_target ((int) nx, (int) ny, (int) stride, u, f, axm, axp, aym,
                       ayp, c0, omega, (int) color, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      smooth_target ((int) nx, (int) ny, (int) stride, u, f, axm, axp, aym,
                     ayp, c0, omega, (int) color, x->device);
      break;
    }
}

void
k_residual (struct exec *x, const struct level *level, double c0)
{
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2);
  const double *u = level->u, *f = level->f, *axm = level->axm,
    *axp = level->axp;
  const double *aym = level->aym, *ayp = level->ayp;
  double *r = level->r;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      host_kernels (HOST_KERNEL_RESIDUAL)->residual (nx, ny, stride, u,
                                                     host_f (level), r, axm,
                                                     axp, aym, ayp, c0);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TO },
                                    { f, cells * sizeof *f, MAP_TO },
                                    { r, cells * sizeof *r, MAP_TOFROM },
                                    { axm, (nx + 2) * sizeof *axm, MAP_TO },
                                    { axp, (nx + 2) * sizeof *axp, MAP_TO },
                                    { aym, (ny + 2) * sizeof *aym, MAP_TO },
                                    { ayp, (ny + 2) * sizeof *ayp, MAP_TO } };
        map_in (x, a, MAPPED_COUNT (a));
        residual_target ((int) nx, (int) ny, (int) stride, u, f, r, axm, axp,
                         aym, ayp, c0, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      residual_target ((int) nx, (int) ny, (int) stride, u, f, r, axm, axp,
                       aym, ayp, c0, x->device);
      break;
    }
}

void
k_jacobi (struct exec *x, const struct level *level, double c0, double omega)
{
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2);
  double *u = level->u;
  const double *r = level->r, *axm = level->axm, *axp = level->axp;
  const double *aym = level->aym, *ayp = level->ayp;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      host_kernels (HOST_KERNEL_SMOOTH)->jacobi (nx, ny, stride, u, r, axm,
                                                 axp, aym, ayp, c0, omega);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TOFROM },
                                    { r, cells * sizeof *r, MAP_TO },
                                    { axm, (nx + 2) * sizeof *axm, MAP_TO },
                                    { axp, (nx + 2) * sizeof *axp, MAP_TO },
                                    { aym, (ny + 2) * sizeof *aym, MAP_TO },
                                    { ayp, (ny + 2) * sizeof *ayp, MAP_TO } };
        map_in (x, a, MAPPED_COUNT (a));
        jacobi_target ((int) nx, (int) ny, (int) stride, u, r, axm, axp, aym,
                       ayp, c0, omega, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      jacobi_target ((int) nx, (int) ny, (int) stride, u, r, axm, axp, aym,
                     ayp, c0, omega, x->device);
      break;
    }
}

void
k_coarsest (struct exec *x, const struct halo_src *h,
            const struct level *level, double c0)
{
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2), n = nx * ny;
  double *u = level->u, *r = level->r;
  const double *f = level->f, *axm = level->axm, *axp = level->axp;
  const double *aym = level->aym, *ayp = level->ayp, *inverse = level->inverse;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      coarsest_host (h, nx, ny, stride, u, f, r, axm, axp, aym, ayp, c0,
                     inverse);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TOFROM },
                                    { r, n * sizeof *r, MAP_TOFROM },
                                    { f, cells * sizeof *f, MAP_TO },
                                    { axm, (nx + 2) * sizeof *axm, MAP_TO },
                                    { axp, (nx + 2) * sizeof *axp, MAP_TO },
                                    { aym, (ny + 2) * sizeof *aym, MAP_TO },
                                    { ayp, (ny + 2) * sizeof *ayp, MAP_TO },
                                    { inverse, n * n * sizeof *inverse,
                                      MAP_TO } };
        map_in (x, a, MAPPED_COUNT (a));
        coarsest_target (h, (int) nx, (int) ny, (int) stride, u, f, r, axm,
                         axp, aym, ayp, c0, inverse, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      coarsest_target (h, (int) nx, (int) ny, (int) stride, u, f, r, axm, axp,
                       aym, ayp, c0, inverse, x->device);
      break;
    }
}

/* out[0] = sum of (sq[0] (f - A u))^2 and out[1] of the squared scales
   times sq[1] over the interior of the level (A without f: the interior
   sum of u weighted by the level's shares, and 0); part holds
   norm_scratch (nx, ny) doubles.  */
void
k_sums (struct exec *x, const struct level *level, const double *u,
        const double *f, double c0, const double sq[2], double *part,
        double out[2])
{
  const double sr = sq[0], sm = sq[1];
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2), nb = norm_bands (ny);
  const size_t np = norm_scratch (nx, ny), fn = f != NULL ? cells : 0;
  const double *axm = level->axm, *axp = level->axp, *aym = level->aym,
    *ayp = level->ayp;
  count_launches (x, 2);
  switch (x->where)
    {
    case MG_HOST:
      host_kernels (HOST_KERNEL_NORMS)->bands (nx, ny, stride, u, f,
                                               level->zero_f
                                               && f == level->f,
                                               axm, axp, aym, ayp, c0, sr,
                                               sm, level->shares, part);
      totals_host (nx, nb, part, out);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TO },
                                    { f, fn * sizeof *u, MAP_TO },
                                    { axm, (nx + 2) * sizeof *axm, MAP_TO },
                                    { axp, (nx + 2) * sizeof *axp, MAP_TO },
                                    { aym, (ny + 2) * sizeof *aym, MAP_TO },
                                    { ayp, (ny + 2) * sizeof *ayp, MAP_TO },
                                    { part, np * sizeof *part, MAP_ALLOC } };
        x->from_device += 2 * sizeof *out;
        map_in (x, a, MAPPED_COUNT (a));
        bands_target ((int) nx, (int) ny, (int) stride, u, f, axm, axp, aym,
                      ayp, c0, sr, sm, level->shares, part, x->device);
        totals_target ((int) nx, (int) nb, part, out, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      x->from_device += 2 * sizeof *out;
      bands_target ((int) nx, (int) ny, (int) stride, u, f, axm, axp, aym, ayp,
                    c0, sr, sm, level->shares, part, x->device);
      totals_target ((int) nx, (int) nb, part, out, x->device);
      break;
    }
}

void
k_set (struct exec *x, const struct level *level, double *dst,
       const double *src, double shift)
{
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2), sn = src != NULL ? cells : 0;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      set_host (nx, ny, stride, dst, src, shift);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { dst, cells * sizeof *dst, MAP_TOFROM },
                                    { src, sn * sizeof *dst, MAP_TO } };
        map_in (x, a, MAPPED_COUNT (a));
        set_target ((int) nx, (int) ny, (int) stride, dst, src, shift,
                    x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      set_target ((int) nx, (int) ny, (int) stride, dst, src, shift,
                  x->device);
      break;
    }
}

void
k_shift (struct exec *x, const struct level *level, double *u, double shift)
{
  const size_t nx = level->nx, ny = level->ny, stride = level->stride;
  const size_t cells = stride * (ny + 2);
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      shift_host (nx, ny, stride, u, shift);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = { { u, cells * sizeof *u, MAP_TOFROM } };
        map_in (x, a, MAPPED_COUNT (a));
        shift_target ((int) nx, (int) ny, (int) stride, u, shift, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      shift_target ((int) nx, (int) ny, (int) stride, u, shift, x->device);
      break;
    }
}

/* The arrays of a, mapped to the device (target enter data), and what
   that moves counted.  */
void
map_in (struct exec *x, const struct mapped *a, size_t n)
{
  for (size_t k = 0; k < n; ++k)
    {
      char *p = (char *) a[k].p;
      const size_t bytes = a[k].bytes;
      if (a[k].way == MAP_ALLOC)
        {
#pragma omp target enter data map(alloc: p[0:bytes]) device(x->device)
          continue;
        }
      x->to_device += bytes;
      if (a[k].way == MAP_TOFROM)
        x->from_device += bytes;
#pragma omp target enter data map(to: p[0:bytes]) device(x->device)
    }
}

/* The arrays of a back from the device: the written ones copied to the
   host, the others released.  */
void
map_out (struct exec *x, const struct mapped *a, size_t n)
{
  for (size_t k = 0; k < n; ++k)
    {
      char *p = (char *) a[k].p;
      const size_t bytes = a[k].bytes;
      if (a[k].way == MAP_TOFROM)
        {
#pragma omp target exit data map(from: p[0:bytes]) device(x->device)
        }
      else
        {
#pragma omp target exit data map(release: p[0:bytes]) device(x->device)
        }
    }
}

/* Whether p is on the device already: then mapping it moves nothing.  A
   build without device code moves nothing either, nor does the host
   fallback, where the runtime finds everything present.  */
bool
present (const void *p, int device)
{
#ifdef HEATSIM_OFFLOAD
  return p == NULL || omp_target_is_present (p, device);
#else
  (void) p;
  (void) device;
  return true;
#endif
}

/* The hierarchy enters device's memory, each level's block (fields,
   right-hand sides, weights, tables, inverse) in one piece: kernels find
   its arrays by their host addresses, which lie inside the block.  */
void
hierarchy_leave (struct mg_solver *mg)
{
  if (!mg->resident)
    return;
  for (size_t l = 0; l < mg->count; ++l)
    {
      char *block = mg->level[l].block;
      const size_t bytes = mg->level[l].bytes;
#pragma omp target exit data map(delete: block[0:bytes]) device(mg->device)
    }
  mg->resident = false;
}

void
hierarchy_enter (struct mg_solver *mg, struct exec *x)
{
  if (mg->resident && mg->device == x->device)
    return;
  hierarchy_leave (mg);
  for (size_t l = 0; l < mg->count; ++l)
    {
      char *block = mg->level[l].block;
      const size_t bytes = mg->level[l].bytes;
      if (!present (block, x->device))
        x->to_device += bytes;
#pragma omp target enter data map(to: block[0:bytes]) device(x->device)
    }
  mg->resident = true;
  mg->device = x->device;
}
