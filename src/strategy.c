/* The offload strategies behind struct strategy.  Each differs only in
   where the fields live and how they move; the stencil is in kernels.c.  */
#include <config.h>

#include "strategy.h"

#include <string.h>

static void
no_transfer (struct workspace *s)
{
  (void) s;
}

/* host and map keep the fields on the host between steps: halo copies,
   exchange strips and the NaN count are host loops.  */

static void
refresh_on_host (struct workspace *s)
{
  halo_refresh_host (&s->stencil, s->u.data);
}

static void
set_on_host (struct workspace *s)
{
  halo_set_host (&s->stencil, s->u.data, s->stencil.halo.scheduled,
                 s->stencil.halo.temperature);
}

static void
pack_on_host (struct workspace *s)
{
  halo_pack_host (&s->stencil, s->u.data, s->send);
}

static void
unpack_on_host (struct workspace *s)
{
  halo_unpack_host (&s->stencil, s->u.data, s->recv);
}

static size_t
count_nonfinite_on_host (struct workspace *s)
{
  return count_nonfinite_host (&s->stencil, s->u.data);
}

static void
host_copy (struct workspace *s)
{
  copy_host (&s->stencil, s->u.data, s->unew.data);
}

static void
host_memcpy (struct workspace *s)
{
  memcpy (s->unew.data, s->u.data, field_cells (&s->u) * sizeof *s->u.data);
}

/* The device copy, with both fields present (resident, or mapped once
   around the whole measurement for map: the reference is the device's
   bandwidth, not the transfers').  */
static void
device_copy (struct workspace *s)
{
  copy_target (&s->stencil, s->u.data, s->unew.data, s->device);
}

static void
device_memcpy (struct workspace *s)
{
  memcpy_target (&s->stencil, s->u.data, s->unew.data, s->device);
}

/* host: CPU threads, no target constructs.  */

static double
host_update (struct workspace *s, struct rect r, bool residual)
{
  return heat_update_host (&s->stencil, s->u.data, s->unew.data, r,
                           residual);
}

static double
host_update_frame (struct workspace *s, bool residual)
{
  return heat_update_frame_host (&s->stencil, s->u.data, s->unew.data,
                                 residual);
}

static void
host_update_material (struct workspace *s, struct rect r)
{
  material_update_host (&s->stencil, &s->material, s->u.data, s->unew.data,
                        r);
}

static void
host_update_frame_material (struct workspace *s)
{
  material_update_frame_host (&s->stencil, &s->material, s->u.data,
                              s->unew.data);
}

static void
host_terms_material (struct workspace *s)
{
  material_terms_host (&s->stencil, &s->material, s->u.data, s->unew.data);
}

static const struct strategy host_strategy = {
  .name = "host",
  .summary = "CPU threads only (parallel for), no target constructs",
  .offload = false, .multigrid = MG_HOST,
  .enter = no_transfer, .refresh_halo = refresh_on_host,
  .set_halo = set_on_host,
  .update = host_update, .update_frame = host_update_frame,
  .update_material = host_update_material,
  .update_frame_material = host_update_frame_material,
  .terms_material = host_terms_material,
  .pack = pack_on_host, .unpack = unpack_on_host,
  .fetch = no_transfer,
  .count_nonfinite = count_nonfinite_on_host,
  .leave = no_transfer, .copy = host_copy, .runtime_copy = host_memcpy,
};

/* map: the naive port; both fields cross to the device and back for every
   kernel, which is what the transfers cost.  */

static double
map_update (struct workspace *s, struct rect r, bool residual)
{
  double *u = s->u.data, *unew = s->unew.data, change;
  const size_t n = field_cells (&s->u);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) device(s->device)
  change = heat_update_target (&s->stencil, u, unew, r, residual, s->device);
  return change;
}

static double
map_update_frame (struct workspace *s, bool residual)
{
  double *u = s->u.data, *unew = s->unew.data, change;
  const size_t n = field_cells (&s->u);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) device(s->device)
  change = heat_update_frame_target (&s->stencil, u, unew, residual,
                                     s->device);
  return change;
}

/* The variable step maps the operator's arrays to the device with the
   fields, every step: what the naive port of it would move.  */
static void
map_update_material (struct workspace *s, struct rect r)
{
  double *u = s->u.data, *unew = s->unew.data;
  const struct material_step *ms = &s->material;
  const double *wx = ms->op.wx, *wy = ms->op.wy;
  const double *gain = ms->gain, *rise = ms->rise;
  const size_t n = field_cells (&s->u);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) \
  map(to: wx[0:n], wy[0:n], gain[0:n], rise[0:n]) device(s->device)
  material_update_target (&s->stencil, ms, u, unew, r, s->device);
}

static void
map_update_frame_material (struct workspace *s)
{
  double *u = s->u.data, *unew = s->unew.data;
  const struct material_step *ms = &s->material;
  const double *wx = ms->op.wx, *wy = ms->op.wy;
  const double *gain = ms->gain, *rise = ms->rise;
  const size_t n = field_cells (&s->u);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) \
  map(to: wx[0:n], wy[0:n], gain[0:n], rise[0:n]) device(s->device)
  material_update_frame_target (&s->stencil, ms, u, unew, s->device);
}

static void
map_terms_material (struct workspace *s)
{
  double *u = s->u.data, *unew = s->unew.data;
  const struct material_step *ms = &s->material;
  const double *gain = ms->gain;
  const double *fx = ms->fraction_x, *fy = ms->fraction_y;
  const size_t n = field_cells (&s->u);
  const size_t nx = material_step_columns (ms), ny = material_step_rows (ms);
#pragma omp target data map(tofrom: u[0:n], unew[0:n]) \
  map(to: gain[0:n], fx[0:nx], fy[0:ny]) device(s->device)
  material_terms_target (&s->stencil, ms, u, unew, s->device);
}

static const struct strategy map_strategy = {
  .name = "map",
  .summary = "target region with map(tofrom:) of both fields every step",
  .offload = true, .multigrid = MG_MAP,
  .enter = no_transfer, .refresh_halo = refresh_on_host,
  .set_halo = set_on_host,
  .update = map_update, .update_frame = map_update_frame,
  .update_material = map_update_material,
  .update_frame_material = map_update_frame_material,
  .terms_material = map_terms_material,
  .pack = pack_on_host, .unpack = unpack_on_host,
  .fetch = no_transfer,
  .count_nonfinite = count_nonfinite_on_host,
  .leave = no_transfer, .copy = device_copy,
  .runtime_copy = device_memcpy,
};

/* resident: both fields enter the device once.  The host swaps pointers
   each step; device copies are found by host address, so the swap needs no
   transfer, and the field that holds the newest step is always s->u.  In
   an MPI run only the halo strips cross, packed and unpacked on the
   device.  */

static void
resident_enter (struct workspace *s)
{
  double *u = s->u.data, *unew = s->unew.data;
  double *send = s->send, *recv = s->recv;
  const size_t n = field_cells (&s->u), m = s->send ? s->strips : 0;
  /* The variable step's arrays enter with the fields and stay.  */
  const struct material_step *ms = &s->material;
  const double *wx = ms->op.wx, *wy = ms->op.wy;
  const double *gain = ms->gain, *rise = ms->rise;
  const double *fx = ms->fraction_x, *fy = ms->fraction_y;
  const size_t k = s->variable ? n : 0;
  const size_t kx = s->variable ? material_step_columns (ms) : 0;
  const size_t ky = s->variable ? material_step_rows (ms) : 0;
#pragma omp target enter data map(to: u[0:n], unew[0:n]) \
  map(alloc: send[0:m], recv[0:m]) \
  map(to: wx[0:k], wy[0:k], gain[0:k], rise[0:k], fx[0:kx], fy[0:ky]) \
  device(s->device)
}

static void
resident_refresh (struct workspace *s)
{
  halo_refresh_target (&s->stencil, s->u.data, s->device);
}

static void
resident_set (struct workspace *s)
{
  halo_set_target (&s->stencil, s->u.data, s->stencil.halo.scheduled,
                   s->stencil.halo.temperature, s->device);
}

static double
resident_update (struct workspace *s, struct rect r, bool residual)
{
  return heat_update_target (&s->stencil, s->u.data, s->unew.data, r,
                             residual, s->device);
}

static double
resident_update_frame (struct workspace *s, bool residual)
{
  return heat_update_frame_target (&s->stencil, s->u.data, s->unew.data,
                                   residual, s->device);
}

static void
resident_update_material (struct workspace *s, struct rect r)
{
  material_update_target (&s->stencil, &s->material, s->u.data,
                          s->unew.data, r, s->device);
}

static void
resident_update_frame_material (struct workspace *s)
{
  material_update_frame_target (&s->stencil, &s->material, s->u.data,
                                s->unew.data, s->device);
}

static void
resident_terms_material (struct workspace *s)
{
  material_terms_target (&s->stencil, &s->material, s->u.data, s->unew.data,
                         s->device);
}

static void
resident_pack (struct workspace *s)
{
  double *send = s->send;
  const size_t m = s->strips;
  halo_pack_target (&s->stencil, s->u.data, send, s->device);
#pragma omp target update from(send[0:m]) device(s->device) \
  if(!s->strips_on_device)
}

static void
resident_unpack (struct workspace *s)
{
  double *recv = s->recv;
  const size_t m = s->strips;
#pragma omp target update to(recv[0:m]) device(s->device) \
  if(!s->strips_on_device)
  halo_unpack_target (&s->stencil, s->u.data, recv, s->device);
}

static void
resident_fetch (struct workspace *s)
{
  double *u = s->u.data;
  const size_t n = field_cells (&s->u);
#pragma omp target update from(u[0:n]) device(s->device)
}

static size_t
resident_count_nonfinite (struct workspace *s)
{
  return count_nonfinite_target (&s->stencil, s->u.data, s->device);
}

static void
resident_leave (struct workspace *s)
{
  /* s->u, not the pointer seen at enter: after an odd number of swaps the
     newest step lives in the other buffer.  */
  double *u = s->u.data, *unew = s->unew.data;
  double *send = s->send, *recv = s->recv;
  const size_t n = field_cells (&s->u), m = s->send ? s->strips : 0;
  const struct material_step *ms = &s->material;
  const double *wx = ms->op.wx, *wy = ms->op.wy;
  const double *gain = ms->gain, *rise = ms->rise;
  const double *fx = ms->fraction_x, *fy = ms->fraction_y;
  const size_t k = s->variable ? n : 0;
  const size_t kx = s->variable ? material_step_columns (ms) : 0;
  const size_t ky = s->variable ? material_step_rows (ms) : 0;
#pragma omp target exit data map(from: u[0:n]) map(release: unew[0:n]) \
  map(release: send[0:m], recv[0:m]) \
  map(release: wx[0:k], wy[0:k], gain[0:k], rise[0:k], fx[0:kx], \
              fy[0:ky]) device(s->device)
}

static const struct strategy resident_strategy = {
  .name = "resident",
  .summary = "enter data once, kernels without maps, pointer swap",
  .offload = true, .resident = true, .multigrid = MG_RESIDENT,
  .enter = resident_enter, .refresh_halo = resident_refresh,
  .set_halo = resident_set,
  .update = resident_update, .update_frame = resident_update_frame,
  .update_material = resident_update_material,
  .update_frame_material = resident_update_frame_material,
  .terms_material = resident_terms_material,
  .pack = resident_pack,
  .unpack = resident_unpack, .fetch = resident_fetch,
  .count_nonfinite = resident_count_nonfinite, .leave = resident_leave,
  .copy = device_copy, .runtime_copy = device_memcpy,
};

const struct strategy *const heatsim_strategies[] = {
  &resident_strategy, &map_strategy, &host_strategy, NULL
};

const struct strategy *
strategy_find (const char *name)
{
  for (const struct strategy *const *s = heatsim_strategies; *s; ++s)
    if (strcmp ((*s)->name, name) == 0)
      return *s;
  return NULL;
}
