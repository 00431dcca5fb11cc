/* The explicit 5-point update of the heat equation,
     u'(i,j) = rc u(i,j) + rx (u(i+1,j) + u(i-1,j)) + ry (u(i,j+1) + u(i,j-1))
   with rx = alpha dt / dx^2, ry = alpha dt / dy^2, rc = 1 - 2 (rx + ry),
   on the host and in a target region.  */
#ifndef HEATSIM_KERNELS_H
#define HEATSIM_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

struct stencil {
  size_t nx, ny, stride;   /* interior size and row length of the fields */
  double rx, ry, rc;       /* weights of x neighbours, y neighbours, centre */
};

/* One step with host threads.  */
void heat_step_host (const struct stencil *s, const double *restrict u,
                     double *restrict unew);

/* One step in a target region on device; u and unew must already be
   present there (or the region falls back to the host).  */
void heat_step_target (const struct stencil *s, const double *u,
                       double *unew, int device);

/* True when a target region on device executes on the host, asked from
   inside such a region: OpenMP falls back silently, so never assume.  */
bool target_runs_on_host (int device);

#endif
