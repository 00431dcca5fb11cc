/* The manufactured solution of the OpenMP GPU tutorial:
     u0 = sin(pi x / Lx) sin(pi y / Ly) on (0,Lx) x (0,Ly), u = 0 on the edge,
     u(t) = exp(-alpha pi^2 (1/Lx^2 + 1/Ly^2) t) u0.
   Cell (i, j) of the interior sits at x = i dx, y = j dy (i, j from 1), and
   the halo ring at x = 0, Lx and y = 0, Ly holds the zero boundary.  */
#include <config.h>

#include "problem.h"

#include <math.h>
#include <stdlib.h>

#include "options.h"

/* sin(pi x_i / length) for the n interior cells, x_i = i * d.  The field is
   separable, so n + m sines serve n * m cells.  */
static double *
sine_profile (size_t n, double d, double length)
{
  double *s = malloc (n * sizeof *s);
  if (s != NULL)
    for (size_t i = 0; i < n; ++i)
      s[i] = sin (M_PI * ((double) (i + 1) * d) / length);
  return s;
}

struct profiles {
  double *sx, *sy;
};

static bool
profiles_make (const struct config *cfg, struct profiles *p)
{
  p->sx = sine_profile (cfg->nx, config_dx (cfg), cfg->lx);
  p->sy = sine_profile (cfg->ny, config_dy (cfg), cfg->ly);
  return p->sx != NULL && p->sy != NULL;
}

static void
profiles_free (struct profiles *p)
{
  free (p->sx);
  free (p->sy);
}

bool
problem_init (const struct config *cfg, struct field *u)
{
  struct profiles p;
  bool ok = profiles_make (cfg, &p);
  if (ok)
    {
      const double *sx = p.sx, *sy = p.sy;
      const size_t nx = u->nx, ny = u->ny, stride = u->stride;
      double *data = u->data;
      /* The halo stays at zero from field_alloc: the Dirichlet boundary.  */
#pragma omp parallel for schedule(static)
      for (size_t j = 1; j <= ny; ++j)
        for (size_t i = 1; i <= nx; ++i)
          data[j * stride + i] = sx[i - 1] * sy[j - 1];
    }
  profiles_free (&p);
  return ok;
}

bool
problem_error (const struct config *cfg, const struct field *u, double t,
               struct error_norms *e)
{
  struct profiles p;
  bool ok = profiles_make (cfg, &p);
  if (ok)
    {
      const double *sx = p.sx, *sy = p.sy;
      const size_t nx = u->nx, ny = u->ny, stride = u->stride;
      const double *data = u->data;
      const double a = cfg->alpha * M_PI * M_PI * t;
      const double decay = exp (-(a / (cfg->lx * cfg->lx)
                                  + a / (cfg->ly * cfg->ly)));
      double sq_diff = 0.0, sq_exact = 0.0, max = 0.0;
#pragma omp parallel for schedule(static) \
  reduction(+: sq_diff, sq_exact) reduction(max: max)
      for (size_t j = 1; j <= ny; ++j)
        for (size_t i = 1; i <= nx; ++i)
          {
            const double exact = decay * sx[i - 1] * sy[j - 1];
            const double diff = data[j * stride + i] - exact;
            sq_diff += diff * diff;
            sq_exact += exact * exact;
            max = fmax (max, fabs (diff));
          }
      e->l2 = sqrt (sq_diff);
      e->relative = sq_exact > 0.0 ? e->l2 / sqrt (sq_exact) : 0.0;
      e->max = max;
    }
  profiles_free (&p);
  return ok;
}
