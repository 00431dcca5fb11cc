/* Restriction (with the residual, in one pass) and prolongation (with
   the correction) between two levels: the target loops, and the
   dispatch to them or to the host loops (mg_transfer_host.c).  */
#include <config.h>

#include "mg_internal.h"

#include <stddef.h>

#include "domain.h"

#include "host_isa.h"
#include "mg_cell.h"

/* ---- residual and restriction in one pass: fc = R (f - A u), uc = 0 */

static void
restrict_target (int nxc, int nyc, int coarse_stride, double *restrict fc,
                 double *restrict uc, int fine_stride,
                 const double *restrict u, const double *restrict f,
                 const double *restrict axm, const double *restrict axp,
                 const double *restrict aym, const double *restrict ayp,
                 double c0, const size_t *restrict rxi,
                 const double *restrict rxw, const size_t *restrict ryi,
                 const double *restrict ryw, int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int jc = 1; jc <= nyc; ++jc)
    for (int ic = 1; ic <= nxc; ++ic)
      {
        fc[jc * coarse_stride + ic]
            = restrict_at (u, f, fine_stride, axm, axp, aym, ayp, c0, rxi, rxw,
                           ryi, ryw, (size_t) ic, (size_t) jc);
        uc[jc * coarse_stride + ic] = 0.0;
      }
}

/* From the fine level to the window of the coarse level.  A split fine
   level's residual needs its neighbours' halo lines: the restriction of
   a node by the edge of its part gathers fine nodes beyond it.  */
void
k_restrict (struct exec *x, const struct mg_solver *mg,
            const struct level *fine, const struct level *coarse)
{
  const size_t nxc = coarse->wnx, nyc = coarse->wny,
               coarse_stride = coarse->stride;
  const size_t window = coarse->wy0 * coarse_stride + coarse->wx0;
  const size_t nx = fine->nx, ny = fine->ny, fine_stride = fine->stride;
  const size_t ccells = coarse_stride * (coarse->ny + 2) - window,
               fcells = fine_stride * (ny + 2);
  const double c0 = mg->c0;
  double *fc = coarse->f + window, *uc = coarse->u + window;
  const double *u = fine->u, *f = fine->f, *axm = fine->axm, *axp = fine->axp;
  const double *aym = fine->aym, *ayp = fine->ayp;
  const size_t *rxi = coarse->rxi, *ryi = coarse->ryi;
  const double *rxw = coarse->rxw, *ryw = coarse->ryw;
  const size_t tx = 3 * (nxc + 2), ty = 3 * (nyc + 2);
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      if (!fine->split && x->mg != NULL)
        {
          host_kernels (HOST_KERNEL_TRANSFER)->restriction (
              nxc, nyc, coarse_stride, fc, uc, nx, fine_stride, u,
              host_f (fine), axm, axp, aym, ayp, c0, rxi, rxw, ryi, ryw,
              x->mg->rows);
          break;
        }
      host_kernels (HOST_KERNEL_RESIDUAL)->residual (nx, ny, fine_stride, u,
                                                     host_f (fine), fine->r,
                                                     axm, axp, aym, ayp, c0);
      if (fine->split)
        for (int axis = 0; axis < 2; ++axis)
          domain_trade_halo (mg->domain, fine->r, nx, ny, fine_stride, axis);
      host_kernels (HOST_KERNEL_TRANSFER)->restriction_stored (
          nxc, nyc, coarse_stride, fc, uc, fine_stride, fine->r, rxi, rxw,
          ryi, ryw);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = {
          { fc, ccells * sizeof *fc, MAP_TOFROM },
          { uc, ccells * sizeof *uc, MAP_TOFROM },
          { u, fcells * sizeof *u, MAP_TO },
          { f, fcells * sizeof *f, MAP_TO },
          { axm, (nx + 2) * sizeof *axm, MAP_TO },
          { axp, (nx + 2) * sizeof *axp, MAP_TO },
          { aym, (ny + 2) * sizeof *aym, MAP_TO },
          { ayp, (ny + 2) * sizeof *ayp, MAP_TO },
          { rxi, tx * sizeof *rxi, MAP_TO },
          { rxw, tx * sizeof *rxw, MAP_TO },
          { ryi, ty * sizeof *ryi, MAP_TO },
          { ryw, ty * sizeof *ryw, MAP_TO }
        };
        map_in (x, a, MAPPED_COUNT (a));
        restrict_target ((int) nxc, (int) nyc, (int) coarse_stride, fc, uc,
                         (int) fine_stride, u, f, axm, axp, aym, ayp, c0, rxi,
                         rxw, ryi, ryw, x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      restrict_target ((int) nxc, (int) nyc, (int) coarse_stride, fc, uc,
                       (int) fine_stride, u, f, axm, axp, aym, ayp, c0, rxi,
                       rxw, ryi, ryw, x->device);
      break;
    }
}

/* ---- prolongation and correction in one pass: uf += P uc */

static void
prolong_target (int nxf, int nyf, int fine_stride, double *restrict uf,
                int coarse_stride, const double *restrict uc,
                const size_t *restrict pxi, const double *restrict pxw,
                const size_t *restrict pyi, const double *restrict pyw,
                int device)
{
#pragma omp target teams distribute parallel for collapse(2) \
  dist_schedule(static) device(device)
  for (int j = 1; j <= nyf; ++j)
    for (int i = 1; i <= nxf; ++i)
      uf[j * fine_stride + i]
          += prolong_at (uc, (size_t) coarse_stride, pxi, pxw, pyi, pyw,
                         (size_t) i, (size_t) j);
}

/* From the window of the coarse level to the fine level.  */
void
k_prolong (struct exec *x, const struct level *fine,
           const struct level *coarse)
{
  const size_t nxf = fine->nx, nyf = fine->ny, fine_stride = fine->stride,
    coarse_stride = coarse->stride;
  const size_t window = coarse->wy0 * coarse_stride + coarse->wx0;
  const size_t fcells = fine_stride * (nyf + 2),
    ccells = coarse_stride * (coarse->ny + 2) - window;
  double *uf = fine->u;
  const double *uc = coarse->u + window, *pxw = coarse->pxw,
    *pyw = coarse->pyw;
  const size_t *pxi = coarse->pxi, *pyi = coarse->pyi;
  count_launches (x, 1);
  switch (x->where)
    {
    case MG_HOST:
      /* Without scratch rows, the fine level's spent residual holds them.  */
      host_kernels (HOST_KERNEL_TRANSFER)->prolongation (
          nxf, nyf, fine_stride, uf, coarse->wnx, coarse_stride, uc,
          x->mg != NULL ? x->mg->rows : fine->r, x->mg != NULL, pxi, pxw,
          pyi, pyw);
      break;
    case MG_MAP:
      {
        const struct mapped a[] = {
          { uf, fcells * sizeof *uf, MAP_TOFROM },
          { uc, ccells * sizeof *uc, MAP_TO },
          { pxi, (nxf + 2) * sizeof *pxi, MAP_TO },
          { pxw, (nxf + 2) * sizeof *pxw, MAP_TO },
          { pyi, (nyf + 2) * sizeof *pyi, MAP_TO },
          { pyw, (nyf + 2) * sizeof *pyw, MAP_TO }
        };
        map_in (x, a, MAPPED_COUNT (a));
        prolong_target ((int) nxf, (int) nyf, (int) fine_stride, uf,
                        (int) coarse_stride, uc, pxi, pxw, pyi, pyw,
                        x->device);
        map_out (x, a, MAPPED_COUNT (a));
      }
      break;
    case MG_RESIDENT:
      prolong_target ((int) nxf, (int) nyf, (int) fine_stride, uf,
                      (int) coarse_stride, uc, pxi, pxw, pyi, pyw, x->device);
      break;
    }
}
