/* The offload strategies behind struct strategy.  Each differs only in
   where the fields live and how they move; the stencil is in kernels.c.  */
#include <config.h>

#include "strategy.h"

#include <string.h>

#include "solver.h"

static void
no_transfer (struct solver *s)
{
  (void) s;
}

static void
host_copy (struct solver *s)
{
  copy_host (s->u.data, s->unew.data, field_cells (&s->u));
}

/* The device copy, with both fields present (resident, or mapped once
   around the whole measurement for map: the reference is the device's
   bandwidth, not the transfers').  */
static void
device_copy (struct solver *s)
{
  copy_target (s->u.data, s->unew.data, field_cells (&s->u), s->device);
}

/* host and map keep the field on the host between steps.  */
static size_t
count_nonfinite_on_host (struct solver *s)
{
  return count_nonfinite_host (&s->stencil, s->u.data);
}

/* host: CPU threads, no target constructs.  */

static void
host_step (struct solver *s)
{
  heat_step_host (&s->stencil, s->u.data, s->unew.data);
}

static double
host_step_residual (struct solver *s)
{
  return heat_step_residual_host (&s->stencil, s->u.data, s->unew.data);
}

static const struct strategy host_strategy = {
  .name = "host",
  .summary = "CPU threads only (parallel for), no target constructs",
  .offload = false,
  .enter = no_transfer, .step = host_step,
  .step_residual = host_step_residual, .fetch = no_transfer,
  .count_nonfinite = count_nonfinite_on_host, .leave = no_transfer,
  .copy = host_copy,
};

/* map: the naive port; both fields cross to the device and back every
   step, which is what the transfers cost.  */

static void
map_step (struct solver *s)
{
  double *u = s->u.data, *unew = s->unew.data;
  const size_t n = field_cells (&s->u);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) device(s->device)
  heat_step_target (&s->stencil, u, unew, s->device);
}

static double
map_step_residual (struct solver *s)
{
  double *u = s->u.data, *unew = s->unew.data, change;
  const size_t n = field_cells (&s->u);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) device(s->device)
  change = heat_step_residual_target (&s->stencil, u, unew, s->device);
  return change;
}

static const struct strategy map_strategy = {
  .name = "map",
  .summary = "target region with map(tofrom:) of both fields every step",
  .offload = true,
  .enter = no_transfer, .step = map_step,
  .step_residual = map_step_residual, .fetch = no_transfer,
  .count_nonfinite = count_nonfinite_on_host, .leave = no_transfer,
  .copy = device_copy,
};

/* resident: both fields enter the device once.  The host swaps pointers
   each step; device copies are found by host address, so the swap needs no
   transfer, and the field that holds the newest step is always s->u.  */

static void
resident_enter (struct solver *s)
{
  double *u = s->u.data, *unew = s->unew.data;
  const size_t n = field_cells (&s->u);
#pragma omp target enter data map(to: u[0:n], unew[0:n]) device(s->device)
}

static void
resident_step (struct solver *s)
{
  heat_step_target (&s->stencil, s->u.data, s->unew.data, s->device);
}

static double
resident_step_residual (struct solver *s)
{
  return heat_step_residual_target (&s->stencil, s->u.data, s->unew.data,
                                    s->device);
}

static void
resident_fetch (struct solver *s)
{
  double *u = s->u.data;
  const size_t n = field_cells (&s->u);
#pragma omp target update from(u[0:n]) device(s->device)
}

static size_t
resident_count_nonfinite (struct solver *s)
{
  return count_nonfinite_target (&s->stencil, s->u.data, s->device);
}

static void
resident_leave (struct solver *s)
{
  /* s->u, not the pointer seen at enter: after an odd number of swaps the
     newest step lives in the other buffer.  */
  double *u = s->u.data, *unew = s->unew.data;
  const size_t n = field_cells (&s->u);
#pragma omp target exit data map(from: u[0:n]) map(release: unew[0:n]) \
  device(s->device)
}

static const struct strategy resident_strategy = {
  .name = "resident",
  .summary = "enter data once, kernels without maps, pointer swap (default)",
  .offload = true,
  .enter = resident_enter, .step = resident_step,
  .step_residual = resident_step_residual, .fetch = resident_fetch,
  .count_nonfinite = resident_count_nonfinite, .leave = resident_leave,
  .copy = device_copy,
};

const struct strategy *const heatsim_strategies[] = {
  &resident_strategy, &map_strategy, &host_strategy, NULL
};

const struct strategy *
strategy_find (const char *name)
{
  for (const struct strategy *const *p = heatsim_strategies; *p; ++p)
    if (strcmp ((*p)->name, name) == 0)
      return *p;
  return NULL;
}
