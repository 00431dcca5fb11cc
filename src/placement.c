#include <config.h>

#include "placement.h"

#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "diagnostics.h"
#include "domain.h"
#include "field.h"
#include "kernels.h"
#include "offload_images.h"
#include "report.h"
#include "run_config.h"
#include "status.h"
#include "strategy.h"

/* OMP_TARGET_OFFLOAD=MANDATORY turns a missing device into an abort inside
   the runtime; heatsim reports it instead.  */
static bool
offload_mandatory (void)
{
  const char *v = getenv ("OMP_TARGET_OFFLOAD");
  return v != NULL && strcasecmp (v, "MANDATORY") == 0;
}

/* Whether the runtime can load the device code of the n devices, which
   it does in each one's first target region; else a message.  */
static int
check_images (int n)
{
  char err[512];
  if (n == 0 || offload_images_writable (err, sizeof err))
    return HEATSIM_OK;
  heatsim_error ("%s", err);
  return HEATSIM_WRITE_FAILED;
}

int
list_devices (void)
{
  int n = omp_get_num_devices ();
  const int status = check_images (n);
  if (status != HEATSIM_OK)
    return status;
  printf ("OpenMP offload devices: %d", n);
  if (n > 0)
    printf (" (default device %d)", omp_get_default_device ());
  printf ("\ndevice code in this binary: %s\n", HEATSIM_OFFLOAD_ARCH);
  for (int d = 0; d < n; ++d)
    printf ("  device %d: target regions run %s\n", d,
            target_runs_on_host (d) ? "on the host (fallback)" : "on the device");
  offload_images_remove ();
  printf ("host: %d OpenMP threads\n", omp_get_max_threads ());
  return HEATSIM_OK;
}

/* A part of the grid (this rank's, in an MPI run) that does not fit on the
   device fails here, before any mapping, rather than inside the runtime in
   the middle of a run.  */
static int
check_device_memory (const struct config *cfg, const struct domain *d,
                     int device)
{
  /* Both fields, and the four arrays of a varying material's explicit
     step (kernels_material.h) beside them.  */
  const size_t grids = config_variable_step (cfg) && !cfg->steady
                       && cfg->scheme == SCHEME_EXPLICIT ? 6 : 2;
  size_t bytes;
  if (!field_bytes (d->local_nx, d->local_ny, &bytes)
      || bytes > SIZE_MAX / grids
      || !device_can_allocate (grids * bytes, device))
    {
      heatsim_error ("--grid: %zux%zu needs %zu bytes of device memory for "
                     "%zu grids; device %d cannot allocate them",
                     d->local_nx, d->local_ny, grids * bytes, grids, device);
      return HEATSIM_TOO_LARGE;
    }
  return HEATSIM_OK;
}

/* --offload auto: resident where the target regions of every rank run on
   an offload device, host threads otherwise.  A user who demands a device
   gets the target path, and its refusal if there is none.  */
static void
choose_strategy (struct config *cfg, const struct domain *d,
                 struct placement *where)
{
  const bool demanded = cfg->require_device || offload_mandatory ();
  const bool device = where->num_devices > 0
                      && where->device < where->num_devices
                      && !target_runs_on_host (where->device);
  offload_images_remove ();
  /* Every rank computes with the same strategy.  */
  const bool everywhere = domain_min (d, device ? 1.0 : 0.0) > 0.0;
  cfg->strategy = strategy_find (everywhere || demanded ? "resident" : "host");
  where->reason = everywhere ? "an offload device runs the target regions"
                  : demanded ? "a device is required"
                  : where->num_devices == 0 ? "no offload device"
                  : "target regions would run on the host";
}

int
place_kernels (struct config *cfg, const struct domain *d,
               struct placement *where)
{
  where->num_devices = omp_get_num_devices ();
  where->threads = omp_get_max_threads ();
  where->device = cfg->device >= 0 ? cfg->device
                  : d->ranks > 1 && where->num_devices > 0
                  ? d->node_rank % where->num_devices
                  : omp_get_default_device ();
  where->on_device = false;
  where->automatic = cfg->strategy_auto;
  if (cfg->device >= 0 && where->device >= where->num_devices)
    {
      if (where->num_devices == 0)
        heatsim_error ("--device: %d: there is no offload device",
                       where->device);
      else
        heatsim_error ("--device: %d: there %s only %d offload device%s "
                       "(0 to %d)", where->device,
                       where->num_devices == 1 ? "is" : "are",
                       where->num_devices, where->num_devices == 1 ? "" : "s",
                       where->num_devices - 1);
      return HEATSIM_USAGE;
    }
  /* The environment's default device, past the initial device (number
     num_devices): the offload runtime aborts on its first target
     region.  */
  if (cfg->device < 0 && d->ranks == 1 && where->device > where->num_devices)
    {
      heatsim_error ("OMP_DEFAULT_DEVICE: %d: there %s %d offload device%s "
                     "(and the host, %d)", where->device,
                     where->num_devices == 1 ? "is" : "are",
                     where->num_devices, where->num_devices == 1 ? "" : "s",
                     where->num_devices);
      return HEATSIM_USAGE;
    }
  /* Target regions on the initial device (num_devices) load no
     image.  */
  if ((cfg->strategy_auto || cfg->strategy->offload)
      && where->device < where->num_devices)
    {
      const int status = check_images (where->num_devices);
      if (status != HEATSIM_OK)
        return status;
    }
  if (cfg->strategy_auto)
    {
      choose_strategy (cfg, d, where);
      /* A script's --kernel, for the machines with a GPU: said here,
         where it has nothing to run, not refused.  */
      if (!cfg->strategy->offload && cfg->given.kernel && d->rank == 0)
        heatsim_error ("warning: --kernel %s: not used: --offload auto runs "
                       "on the host (%s), which has no target kernels",
                       kernel_form_name (cfg->kernel), where->reason);
    }
  if (!cfg->strategy->offload)
    return HEATSIM_OK;

  if (where->num_devices == 0 && (cfg->require_device || offload_mandatory ()))
    {
      heatsim_error ("--offload %s: no offload device is available (device "
                     "code in this binary: %s)", cfg->strategy_auto ? "auto"
                     : cfg->strategy->name, HEATSIM_OFFLOAD_ARCH);
      return HEATSIM_NO_DEVICE;
    }
  where->on_device = !target_runs_on_host (where->device);
  offload_images_remove ();
  if (!kernel_form_runs (cfg->kernel, where->on_device))
    {
      heatsim_error ("--kernel %s: needs a GPU, and target regions on "
                     "device %d do not run on one (device code in this "
                     "binary: %s)", kernel_form_name (cfg->kernel),
                     where->device, HEATSIM_OFFLOAD_ARCH);
      return HEATSIM_NO_DEVICE;
    }
  if (!where->on_device && cfg->require_device)
    {
      heatsim_error ("--require-device: target regions on device %d run on "
                     "the host", where->device);
      return HEATSIM_NO_DEVICE;
    }
  return where->on_device ? check_device_memory (cfg, d, where->device)
         : HEATSIM_OK;
}
