/* The explicit 5-point update of the heat equation,
     u'(i,j) = rc u(i,j) + rx (u(i+1,j) + u(i-1,j)) + ry (u(i,j+1) + u(i,j-1))
   with rx = alpha dt / dx^2, ry = alpha dt / dy^2, rc = 1 - 2 (rx + ry),
   on the host and in a target region.  With rc = 0 the same update is a
   Jacobi sweep for the steady state (Laplace's equation).

   Boundaries live in the halo ring.  Dirichlet values sit there for good;
   zero-flux and periodic boundaries copy an interior row or column into the
   halo before each update, so the update itself never branches.  */
#ifndef HEATSIM_KERNELS_H
#define HEATSIM_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

/* Which interior column (row) each halo column (row) copies before a step:
   1 and nx for zero flux (a mirror), nx and 1 for periodic (the far side).  */
struct halo {
  bool refresh;              /* false: Dirichlet, the halo never changes */
  size_t west, east;         /* source columns of halo columns 0 and nx+1 */
  size_t south, north;       /* source rows of halo rows 0 and ny+1 */
};

/* How a target kernel spreads the interior over the device: all three
   compute the same values; they differ in speed only (--kernel).  */
enum kernel_form {
  KERNEL_COLLAPSE,           /* teams distribute parallel for collapse(2) */
  KERNEL_LOOP,               /* teams loop collapse(2) (OpenMP 5) */
  KERNEL_SPLIT               /* rows to teams, parallel for within a row */
};

/* The --kernel name of form, and the form called name (false if none).  */
const char *kernel_form_name (enum kernel_form form);
bool kernel_form_find (const char *name, enum kernel_form *form);

struct stencil {
  size_t nx, ny, stride;     /* interior size and row length of the fields */
  double rx, ry, rc;         /* weights of x neighbours, y neighbours, centre */
  struct halo halo;
  enum kernel_form form;     /* of the target kernels */
};

/* One step with host threads: halo refresh, then the update u -> unew.  */
void heat_step_host (const struct stencil *s, double *restrict u,
                     double *restrict unew);

/* The same step, also returning the largest |unew - u| of any cell.  */
double heat_step_residual_host (const struct stencil *s, double *restrict u,
                                double *restrict unew);

/* One step in target regions on device; u and unew must already be
   present there (or the regions fall back to the host).  */
void heat_step_target (const struct stencil *s, double *u, double *unew,
                       int device);
double heat_step_residual_target (const struct stencil *s, double *u,
                                  double *unew, int device);

/* b = a over n doubles: the STREAM-style copy that bounds what a
   memory-bound kernel can reach, on the host and in a target region (a and
   b present on device).  */
void copy_host (const double *restrict a, double *restrict b, size_t n);
void copy_target (const double *a, double *b, size_t n, int device);

/* Interior cells of u that are NaN or infinite, on the host and in a
   target region (u present on device).  */
size_t count_nonfinite_host (const struct stencil *s, const double *u);
size_t count_nonfinite_target (const struct stencil *s, const double *u,
                               int device);

/* Whether device could allocate bytes now.  OpenMP cannot say how much
   device memory is free, but it can try to take it.  */
bool device_can_allocate (size_t bytes, int device);

/* True when a target region on device executes on the host, asked from
   inside such a region: OpenMP falls back silently, so never assume.  */
bool target_runs_on_host (int device);

#endif
