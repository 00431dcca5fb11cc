/* The per-node arithmetic of the black box multigrid, written once for
   every loop that needs it (host passes now, device kernels later):
   pointers point at the node, stride is the level's row length, and the
   matrix is stored as boxmg_internal.h says.  */
#ifndef HEATSIM_BOXMG_CELL_H
#define HEATSIM_BOXMG_CELL_H

#include <math.h>
#include <stddef.h>

/* Before a loop whose iterations do not depend on one another: run it
   in vectors on the host.  A GPU thread has no vectors, and there the
   request would only draw the warning that it was not met.  */
#if defined __NVPTX__ || defined __AMDGPU__
# define BOXMG_VECTOR_LOOP
#else
# define BOXMG_VECTOR_LOOP _Pragma ("omp simd")
#endif

#pragma omp declare target
/* The off-diagonal part of (A u)_P of a 5-point level.  */
static inline double
boxmg_off5 (const double *u, const double *w, const double *s,
            ptrdiff_t stride)
{
  return w[0] * u[-1] + w[1] * u[1] + s[0] * u[-stride]
         + s[stride] * u[stride];
}

/* The same of a 9-point level.  */
static inline double
boxmg_off9 (const double *u, const double *w, const double *s,
            const double *sw, const double *se, ptrdiff_t stride)
{
  return boxmg_off5 (u, w, s, stride)
         + ((sw[0] * u[-stride - 1] + sw[stride + 1] * u[stride + 1])
            + (se[0] * u[-stride + 1] + se[stride - 1] * u[stride - 1]));
}

/* A line smoother's right-hand side takes the couplings of node k to
   the lines beside its own, the rest of the line's row of A being the
   tridiagonal it solves: the rows above and below for a row (an x
   line), the columns either side for a column.  sw NULL: a 5-point
   level.  */
static inline double
boxmg_off_rows (const double *u, const double *s, const double *sw,
                const double *se, size_t k, size_t stride)
{
  double a = s[k] * u[k - stride] + s[k + stride] * u[k + stride];
  if (sw != NULL)
    a += sw[k] * u[k - stride - 1] + sw[k + stride + 1] * u[k + stride + 1]
         + se[k] * u[k - stride + 1] + se[k + stride - 1] * u[k + stride - 1];
  return a;
}

static inline double
boxmg_off_columns (const double *u, const double *w, const double *sw,
                   const double *se, size_t k, size_t stride)
{
  double a = w[k] * u[k - 1] + w[k + 1] * u[k + 1];
  if (sw != NULL)
    a += sw[k] * u[k - stride - 1] + sw[k + stride + 1] * u[k + stride + 1]
         + se[k] * u[k - stride + 1] + se[k + stride - 1] * u[k + stride - 1];
  return a;
}

/* The same as flows: sum over the neighbours n of a_n (u_n - u_P), which
   is (A u)_P - d u_P for a 5-point level whose rows sum to d (the finest:
   d = c0 rho c_p).  Differences keep a temperature offset out of the
   rounding of the residual.  */
static inline double
boxmg_flows5 (const double *u, const double *w, const double *s,
              ptrdiff_t stride)
{
  return w[0] * (u[-1] - u[0]) + w[1] * (u[1] - u[0])
         + s[0] * (u[-stride] - u[0]) + s[stride] * (u[stride] - u[0]);
}

/* What round-off in that residual is relative to: the magnitudes of f,
   of d u_P and of each flow's terms a_n u_n and a_n u_P.  No iterate can
   push the residual much below eps times it, as u itself is rounded.  */
static inline double
boxmg_terms5 (double f, const double *u, double d, const double *w,
              const double *s, ptrdiff_t stride)
{
  const double p = fabs (u[0]);
  return fabs (f) + fabs (d) * p + fabs (w[0]) * (fabs (u[-1]) + p)
         + fabs (w[1]) * (fabs (u[1]) + p)
         + fabs (s[0]) * (fabs (u[-stride]) + p)
         + fabs (s[stride]) * (fabs (u[stride]) + p);
}
#pragma omp end declare target

#endif
