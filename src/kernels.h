/* The explicit 5-point update of the heat equation,
     u'(i,j) = rc u(i,j) + rx (u(i+1,j) + u(i-1,j)) + ry (u(i,j+1) + u(i,j-1))
               + rise
   with rx = alpha dt / dx^2, ry = alpha dt / dy^2, rc = 1 - 2 (rx + ry),
   rise = dt q / (rho c_p) for a uniform source (else 0),
   on the host and in a target region.  With rc = 0 the same update is a
   Jacobi sweep for the steady state (Laplace's equation).

   Boundaries live in the halo ring, filled before each update (struct
   halo), so the update itself never branches.  */
#ifndef HEATSIM_KERNELS_H
#define HEATSIM_KERNELS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "field.h"
#include "run_config.h"

/* The heat that flux and convection edges take in at a step's start
   time, per unit area of the edge: Q + H (TINF - u), u the temperature
   of the edge node.  The time loop sets the values before each step.  */
struct edge_heat {
  double flux[EDGE_COUNT];      /* Q, W/m^2 into the domain */
  double h[EDGE_COUNT];         /* H, W/(m^2 K) */
  double ambient[EDGE_COUNT];   /* TINF */
};

/* How each edge's halo is filled before a step.  Dirichlet values sit in
   the halo for good, or, where the temperature follows a schedule, are
   set before each step; an edge whose node is an unknown (flux,
   insulated, convection) copies the mirror image of its node's
   neighbour line, periodic the opposite line; in an MPI run, an edge
   inside the whole grid receives the neighbouring subdomain's line.  */
struct halo {
  bool refresh;                 /* some edge copies an interior line or
                                   follows a schedule */
  bool copy[EDGE_COUNT];        /* the edge copies interior line source[] */
  size_t source[EDGE_COUNT];    /* column (left, right) or row (bottom, top) */
  bool exchange[EDGE_COUNT];    /* the edge receives a neighbour's line */
  /* Form (a) of a flux or convection edge this part holds, for the
     constant-coefficient stencil: the mirror plus coef (Q + H (TINF -
     u)) at the edge node, coef = 2 spacing / k, so that the 5-point
     stencil at the edge node is its half-volume balance.  Clear: the
     plain mirror (zero flux).  */
  bool heat[EDGE_COUNT];
  double coef[EDGE_COUNT];
  struct edge_heat in;          /* Q, H, TINF at the step's time */
  /* A Dirichlet edge whose temperature follows a schedule: the halo line
     of the newest field holds temperature[e], its value at that field's
     time (halo_set_*), so that a step starts from it.  */
  bool scheduled[EDGE_COUNT];
  double temperature[EDGE_COUNT];
};

/* Whether form can run where target regions on device run (on_device:
   not on the initial device).  An ompx_bare kernel needs a GPU: neither
   the host fallback nor LLVM's host plugin runs it.  */
bool kernel_form_runs (enum kernel_form form, bool on_device);

/* Whether the device kernels can take a grid of nx x ny interior cells.
   They index cells with 32-bit integers, which saves instructions per
   cell, and run grids of more than INT_MAX cells in bands of rows: a band
   needs room for three rows.  Halo and frame loops count in 32 bits.  */
bool kernel_fits (size_t nx, size_t ny);

/* Rows of a band of the target kernels: they index from the row before
   a band's first to the row after its last, and every index must stay
   below INT_MAX.  */
static inline size_t
band_rows (size_t stride)
{
  return (size_t) INT_MAX / stride - 2;
}

/* Cell k of the frame, the interior cells next to the halo: the bottom
   row, the top row (when ny > 1), then the first and the last column
   between them (when ny > 2; one column when nx = 1), so no cell comes
   twice.  Target loops count frame cells in 32 bits (kernel_fits).  */
static inline size_t
frame_length (size_t nx, size_t ny)
{
  const size_t rows = ny > 1 ? 2 : 1, columns = nx > 1 ? 2 : 1;
  return rows * nx + (ny > 2 ? columns * (ny - 2) : 0);
}

#pragma omp declare target
static inline size_t
frame_cell (size_t k, size_t nx, size_t ny, size_t stride)
{
  if (k < nx)
    return stride + 1 + k;
  k -= nx;
  if (ny > 1 && k < nx)
    return ny * stride + 1 + k;
  k -= ny > 1 ? nx : 0;
  const size_t side = ny - 2;
  return k < side ? (k + 2) * stride + 1 : (k - side + 2) * stride + nx;
}
#pragma omp end declare target

struct stencil {
  size_t nx, ny, stride;     /* interior size and row length of the fields */
  double rx, ry, rc;         /* weights of x neighbours, y neighbours, centre */
  double rise;               /* added to every cell: dt q / (rho c_p) of a
                                uniform source in a uniform material, else
                                0 */
  struct halo halo;
  enum kernel_form form;     /* of the target kernels */
};

/* Cells i0..i1 x j0..j1 (inclusive) of a field; empty if i0 > i1 or
   j0 > j1.  */
struct rect {
  size_t i0, i1, j0, j1;
};

/* All interior cells.  */
struct rect stencil_interior (const struct stencil *s);

/* Update the cells of r, u -> unew, with host threads or in a target region
   on device (u and unew present there).  With residual, also return the
   largest |unew - u| of those cells (else 0); the bare form runs residual
   sweeps as collapse, since ompx_bare kernels have no reduction.  */
double heat_update_host (const struct stencil *s, double *restrict u,
                         double *restrict unew, struct rect r, bool residual);
double heat_update_target (const struct stencil *s, double *u, double *unew,
                           struct rect r, bool residual, int device);

/* Update the frame, the interior cells next to the halo, u -> unew: what
   an MPI step computes once the neighbours' lines have arrived.  One
   kernel rather than one per strip, as launches cost more than these
   few cells.  With residual, return the largest change (else 0).  */
double heat_update_frame_host (const struct stencil *s,
                               const double *restrict u,
                               double *restrict unew, bool residual);
double heat_update_frame_target (const struct stencil *s, const double *u,
                                 double *unew, bool residual, int device);

/* Fill the halo of the edges that copy (halo.copy), with the heat of
   the edges that take it in (halo.heat).  */
void halo_refresh_host (const struct stencil *s, double *u);
void halo_refresh_target (const struct stencil *s, double *u, int device);

/* Set the halo line of each edge in fixed to temperature[e].  */
void halo_set_host (const struct stencil *s, double *u,
                    const bool fixed[EDGE_COUNT],
                    const double temperature[EDGE_COUNT]);
void halo_set_target (const struct stencil *s, double *u,
                      const bool fixed[EDGE_COUNT],
                      const double temperature[EDGE_COUNT], int device);

/* The halo strips of an MPI exchange, halo_strips_length doubles: pack the
   four interior edge lines of u into send; unpack recv into the halo of the
   edges that exchange.  Target versions work on device copies.  */
size_t halo_strips_length (const struct stencil *s);
void halo_pack_host (const struct stencil *s, const double *u, double *send);
void halo_pack_target (const struct stencil *s, const double *u,
                       double *send, int device);
void halo_unpack_host (const struct stencil *s, double *u,
                       const double *recv);
void halo_unpack_target (const struct stencil *s, double *u,
                         const double *recv, int device);

/* b = a over a whole padded field: the STREAM-style copy that bounds what
   a memory-bound kernel can reach, on the host and in a target region (a
   and b present on device) of the same shape as the stencil's form.  */
void copy_host (const struct stencil *s, const double *restrict a,
                double *restrict b);
void copy_target (const struct stencil *s, const double *a, double *b,
                  int device);

/* The same copy by the OpenMP runtime (omp_target_memcpy between the
   device copies of a and b): the device's own copy engine or kernel, the
   hardware's reference rather than another OpenMP kernel.  */
void memcpy_target (const struct stencil *s, const double *a, double *b,
                    int device);

/* Interior cells of u that are NaN or infinite, on the host and in a
   target region (u present on device).  */
size_t count_nonfinite_host (const struct stencil *s, const double *u);
size_t count_nonfinite_target (const struct stencil *s, const double *u,
                               int device);

/* Whether device could allocate bytes now.  OpenMP cannot say how much
   device memory is free, but it can try to take it.  */
bool device_can_allocate (size_t bytes, int device);

/* The device copy of host memory that is mapped on device, for a library
   that reads device memory itself (CUDA-aware MPI).  */
void *device_address (void *host, int device);

/* True when a target region on device executes on the host, asked from
   inside such a region: OpenMP falls back silently, so never assume.  */
bool target_runs_on_host (int device);

#endif
