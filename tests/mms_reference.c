/* An independent reference for heatsim's numbers: the explicit scheme for
   the manufactured solution written the plain way (no halo: the zero
   boundary is tested for with branches), serial, sharing no code with
   heatsim.  Prints the L2 error and the total heat (sum of u dx dy) of the final
   field.
   Usage: mms_reference NX NY LX LY ALPHA DT STEPS  */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  if (argc != 8)
    {
      fputs ("usage: mms_reference NX NY LX LY ALPHA DT STEPS\n", stderr);
      return 2;
    }
  const long nx = atol (argv[1]), ny = atol (argv[2]);
  const double lx = atof (argv[3]), ly = atof (argv[4]);
  const double alpha = atof (argv[5]), dt = atof (argv[6]);
  const long steps = atol (argv[7]);
  const double dx = lx / (nx + 1), dy = ly / (ny + 1);
  const double rx = alpha * dt / (dx * dx), ry = alpha * dt / (dy * dy);
  const double rc = 1.0 - 2.0 * (rx + ry);

  double *u = malloc (sizeof (double) * nx * ny);
  double *v = malloc (sizeof (double) * nx * ny);
  if (u == NULL || v == NULL)
    return 1;
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i)
      u[i + j * nx] = sin (M_PI * ((i + 1) * dx) / lx)
                      * sin (M_PI * ((j + 1) * dy) / ly);

  for (long n = 0; n < steps; ++n)
    {
      for (long j = 0; j < ny; ++j)
        for (long i = 0; i < nx; ++i)
          v[i + j * nx] = rc * u[i + j * nx]
                          + rx * (i < nx - 1 ? u[i + 1 + j * nx] : 0.0)
                          + rx * (i > 0 ? u[i - 1 + j * nx] : 0.0)
                          + ry * (j < ny - 1 ? u[i + (j + 1) * nx] : 0.0)
                          + ry * (j > 0 ? u[i + (j - 1) * nx] : 0.0);
      double *t = u;
      u = v;
      v = t;
    }

  const double t = dt * steps;
  const double decay = exp (-alpha * M_PI * M_PI * t
                            * (1.0 / (lx * lx) + 1.0 / (ly * ly)));
  double sum = 0.0, heat = 0.0;
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i)
      {
        double exact = decay * sin (M_PI * ((i + 1) * dx) / lx)
                       * sin (M_PI * ((j + 1) * dy) / ly);
        double d = u[i + j * nx] - exact;
        sum += d * d;
        heat += u[i + j * nx];
      }
  printf ("%.17g %.17g\n", sqrt (sum), heat * dx * dy);
  free (u);
  free (v);
  return 0;
}
