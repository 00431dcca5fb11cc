/* heatsim: the 2-D heat equation on a GPU through OpenMP offload.
   main() is glue: parse options, pick the device, set up, run, report,
   and turn the status into the exit code.  The time loop is in solver.c,
   the offload strategies in strategy.c, the stencil in kernels.c.  */
#include <config.h>

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "derive.h"
#include "diagnostics.h"
#include "domain.h"
#include "h5io.h"
#include "monitor.h"
#include "options.h"
#include "output.h"
#include "png_io.h"
#include "problem.h"
#include "report.h"
#include "run_config.h"
#include "signals.h"
#include "solver.h"
#include "status.h"
#include "strategy.h"
#include "sysmem.h"

static void
print_version (void)
{
  printf ("%s %s\n"
          "Device code: %s\n"
          "MPI: %s\n"
          "Copyright (C) 2026 the heatsim developers.\n"
          "License GPLv3+: GNU GPL version 3 or later "
          "<https://gnu.org/licenses/gpl.html>.\n"
          "This is free software: you are free to change and redistribute it.\n"
          "There is NO WARRANTY, to the extent permitted by law.\n",
          PACKAGE, PACKAGE_VERSION, HEATSIM_OFFLOAD_ARCH, domain_build ());
}

/* The documented exit code of a status (see man/heatsim.1): 2 for what
   the user named that cannot be used, 1 for failures during the run.  */
static int
exit_code (int status)
{
  switch (status)
    {
    case HEATSIM_BAD_FILE:
    case HEATSIM_TOO_LARGE:
      return HEATSIM_USAGE;
    case HEATSIM_NO_MEMORY:
    case HEATSIM_WRITE_FAILED:
      return 1;
    default:
      return status;
    }
}

/* OMP_TARGET_OFFLOAD=MANDATORY turns a missing device into an abort inside
   the runtime; heatsim reports it instead.  */
static bool
offload_mandatory (void)
{
  const char *v = getenv ("OMP_TARGET_OFFLOAD");
  return v != NULL && strcasecmp (v, "MANDATORY") == 0;
}

static void
list_devices (void)
{
  int n = omp_get_num_devices ();
  printf ("OpenMP offload devices: %d", n);
  if (n > 0)
    printf (" (default device %d)", omp_get_default_device ());
  printf ("\ndevice code in this binary: %s\n", HEATSIM_OFFLOAD_ARCH);
  for (int d = 0; d < n; ++d)
    printf ("  device %d: target regions run %s\n", d,
            target_runs_on_host (d) ? "on the host (fallback)" : "on the device");
  printf ("host: %d OpenMP threads\n", omp_get_max_threads ());
}

/* A part of the grid (this rank's, in an MPI run) that does not fit on the
   device fails here, before any mapping, rather than inside the runtime in
   the middle of a run.  */
static int
check_device_memory (const struct domain *d, int device)
{
  size_t bytes;
  if (!field_bytes (d->local_nx, d->local_ny, &bytes)
      || !device_can_allocate (2 * bytes, device))
    {
      heatsim_error ("--grid: %zux%zu needs %zu bytes of device memory for "
                     "two grids; device %d cannot allocate them",
                     d->local_nx, d->local_ny, 2 * bytes, device);
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
  /* Every rank computes with the same strategy.  */
  const bool everywhere = domain_min (d, device ? 1.0 : 0.0) > 0.0;
  cfg->strategy = strategy_find (everywhere || demanded ? "resident" : "host");
  where->reason = everywhere ? "an offload device runs the target regions"
                  : demanded ? "a device is required"
                  : where->num_devices == 0 ? "no offload device"
                  : "target regions would run on the host";
}

/* Choose the device the target regions name, the strategy if it is
   automatic, and find out from inside a target region where they really
   run.  Ranks of an MPI run on one node take the node's devices in
   turn.  */
static int
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
  if (cfg->strategy_auto)
    choose_strategy (cfg, d, where);
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
  return where->on_device ? check_device_memory (d, where->device)
         : HEATSIM_OK;
}

/* Refuse a grid that cannot fit before touching any memory.  */
static int
check_memory (const struct domain *d)
{
  size_t need, available;
  if (!grids_fit_in_memory (d->local_nx, d->local_ny, &need, &available))
    {
      heatsim_error ("--grid: %zux%zu needs %zu bytes for two grids; only %zu "
                     "are available", d->local_nx, d->local_ny, need,
                     available);
      return HEATSIM_TOO_LARGE;
    }
  return HEATSIM_OK;
}

/* Split the grid over the ranks of an MPI run (one rank: all of it).  */
static int
split_grid (const struct config *cfg, struct domain *d)
{
  char err[512];
  if (!domain_split (d, cfg->nx, cfg->ny, cfg->boundary == BOUNDARY_PERIODIC,
                     err, sizeof err))
    {
      heatsim_error ("%s", err);
      return HEATSIM_USAGE;
    }
  return HEATSIM_OK;
}

static int
apply_checkpoint (struct config *cfg, const struct checkpoint_meta *m)
{
  const char *path = cfg->restart;
  cfg->problem = problem_find (m->problem);
  if (cfg->problem == NULL || !boundary_find (m->boundary, &cfg->boundary))
    {
      heatsim_error ("--restart: %s: unknown problem '%s' or boundary '%s'",
                     path, m->problem, m->boundary);
      return HEATSIM_BAD_FILE;
    }
  if (m->steady != cfg->steady)
    {
      heatsim_error ("--restart: %s is from a %s run; %s --steady",
                     path, m->steady ? "--steady" : "time-dependent",
                     m->steady ? "add" : "drop");
      return HEATSIM_USAGE;
    }
  enum time_scheme scheme;
  enum steady_solver solver;
  if (!time_scheme_find (m->scheme, &scheme)
      || !steady_solver_find (m->solver, &solver))
    {
      heatsim_error ("--restart: %s: unknown scheme '%s' or solver '%s'",
                     path, m->scheme, m->solver);
      return HEATSIM_BAD_FILE;
    }
  /* The run goes on with the method it began with.  */
  if ((cfg->given.scheme && scheme != cfg->scheme)
      || (cfg->given.solver && solver != cfg->solver))
    {
      heatsim_error ("--%s: %s is from a --%s %s run", cfg->given.scheme
                     ? "scheme" : "solver", path, m->steady ? "solver"
                     : "scheme", m->steady ? m->solver : m->scheme);
      return HEATSIM_USAGE;
    }
  cfg->scheme = scheme;
  cfg->solver = solver;
  const bool multigrid = config_uses_multigrid (cfg);
  if (cfg->given.rtol && !multigrid)
    {
      heatsim_error ("--rtol: only for multigrid; %s is from a %s run", path,
                     m->steady ? "--solver jacobi" : "--scheme explicit");
      return HEATSIM_USAGE;
    }
  if (m->steady && multigrid && (cfg->given.tol || cfg->given.residual_every))
    {
      heatsim_error ("--%s: only with --solver jacobi; %s is from a "
                     "multigrid run", cfg->given.tol ? "tol"
                     : "residual-every", path);
      return HEATSIM_USAGE;
    }
  if (m->steady && multigrid && !cfg->given.max_steps)
    cfg->max_steps = DEFAULT_MAX_CYCLES;
  cfg->restart_residual = m->initial_residual;
  cfg->lx = m->lx;
  cfg->ly = m->ly;
  cfg->alpha = m->alpha;
  cfg->dt = m->dt;
  cfg->start_step = m->step;
  cfg->start_time = m->time;
  cfg->continues = true;
  /* The run goes on as it began: with its fixed edges (so no exact
     solution applies) and its images' colour range.  */
  cfg->edges_given = m->edges_given;
  memcpy (cfg->edges, m->edges, sizeof cfg->edges);
  if (m->range_known && !cfg->range_given)
    {
      cfg->range_given = true;
      cfg->range[0] = m->range[0];
      cfg->range[1] = m->range[1];
    }
  return HEATSIM_OK;
}

/* Read the initial field named by --restart or --init into u and complete
   cfg from it.  Returns 0 or a heatsim_status.  */
static int
load_initial (struct config *cfg, struct field *u)
{
  struct checkpoint_meta meta;
  const char *path = cfg->restart ? cfg->restart : cfg->init;
  const char *opt = cfg->restart ? "--restart" : "--init";
  struct stat st;
  /* A FIFO or device would block or never end; refuse before opening.  */
  if (stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      heatsim_error ("%s: %s: not a regular file", opt, path);
      return HEATSIM_BAD_FILE;
    }
  int status;
  if (cfg->restart != NULL)
    {
      status = h5_read_checkpoint (path, &meta, u);
      if (status == HEATSIM_OK)
        status = apply_checkpoint (cfg, &meta);
    }
  else
    switch (h5_is_hdf5 (path))
      {
      case 1:
        if (cfg->given.init_range)
          {
            heatsim_error ("--init-range: only for PNG images; %s is an HDF5 "
                           "file", path);
            return HEATSIM_USAGE;
          }
        if (cfg->init_dataset == NULL && h5_is_checkpoint (path))
          status = h5_read_checkpoint (path, &meta, u);
        else
          status = h5_read_dataset (path, cfg->init_dataset
                                    ? cfg->init_dataset : "field", u);
        break;
      case 0:
        if (png_is_png (path))
          status = png_read_field (path, cfg->init_range[0],
                                   cfg->init_range[1], u);
        else
          {
            heatsim_error ("--init: %s: neither an HDF5 file nor a PNG image",
                           path);
            status = HEATSIM_BAD_FILE;
          }
        break;
      default:
        heatsim_error ("--init: %s: cannot open: %s", path, strerror (errno));
        status = HEATSIM_BAD_FILE;
        break;
      }
  if (status != HEATSIM_OK)
    {
      field_free (u);
      return status;
    }
  char err[512];
  cfg->nx = u->nx;
  cfg->ny = u->ny;
  if (!derive_settings (cfg, err, sizeof err))
    {
      heatsim_error ("%s", err);
      field_free (u);
      return HEATSIM_USAGE;
    }
  return HEATSIM_OK;
}

/* Everything that is known about the final field, over all ranks.  */
static int
measure (const struct config *cfg, const struct domain *d,
         const struct field *u, struct run_report *report)
{
  report->has_exact = problem_has_exact (cfg);
  if (report->has_exact
      && !problem_error (cfg, d, u, cfg->steady ? 0.0
                         : config_time (cfg, cfg->start_step
                                             + report->run.steps),
                         &report->error))
    {
      heatsim_error ("out of memory while comparing with the exact solution");
      return HEATSIM_NO_MEMORY;
    }
  report->heat = domain_sum (d, field_sum (u)) * config_dx (cfg)
                 * config_dy (cfg);
  field_range (u, &report->min, &report->max);
  report->min = domain_min (d, report->min);
  report->max = domain_max (d, report->max);
  report->checksum = domain_hash (d, field_checksum (u));
  return HEATSIM_OK;
}

/* Every step that can fail on some ranks only ends with domain_agree, so
   that all ranks of an MPI run go on, or stop, together.  */
static int
simulate (struct config *cfg, struct domain *d, struct run_report *report)
{
  struct field initial = { 0 };
  double t0 = omp_get_wtime ();
  int status = HEATSIM_OK;
  if (cfg->restart != NULL || cfg->init != NULL)
    status = domain_agree (load_initial (cfg, &initial));
  if (status == HEATSIM_OK)
    status = split_grid (cfg, d);
  if (status == HEATSIM_OK)
    status = domain_agree (check_memory (d));
  if (status == HEATSIM_OK)
    status = domain_agree (place_kernels (cfg, d, &report->where));
  struct solver s = { .domain = NULL };
  if (status == HEATSIM_OK)
    status = domain_agree (solver_init (&s, cfg, report->where.device, d,
                                        &initial));
  if (status == HEATSIM_OK)
    status = domain_agree (solver_prepare (&s, cfg));
  field_free (&initial);
  if (status != HEATSIM_OK)
    {
      solver_free (&s);
      return status;
    }

  struct output out;
  struct monitor monitor = MONITOR_NONE;
  status = domain_agree (output_open (&out, cfg, d, &s.work.u));
  if (status == HEATSIM_OK)
    status = domain_agree (monitor_open (&monitor, cfg, d));
  s.monitor = &monitor;
  report->heat_initial = domain_sum (d, field_sum (&s.work.u))
                         * config_dx (cfg)
                         * config_dy (cfg);
  report->run.setup = omp_get_wtime () - t0;
  report->ranks = d->ranks;
  report->dims[0] = d->dims[0];
  report->dims[1] = d->dims[1];
  if (status == HEATSIM_OK)
    status = solver_run (&s, cfg, &out, &report->run);
  output_close (&out);
  const int closed = domain_agree (monitor_close (&monitor));
  status = status != HEATSIM_OK ? status : closed;
  if (status == HEATSIM_OK)
    status = domain_agree (measure (cfg, d, &s.work.u, report));
  solver_free (&s);
  report->peak_memory = peak_resident_bytes ();
  report->run.total = omp_get_wtime () - t0;
  if (status == HEATSIM_OK && cfg->steady && !report->run.converged)
    {
      if (cfg->solver == SOLVER_JACOBI)
        heatsim_error ("warning: --steady: largest change %g still above "
                       "--tol %g after --max-steps %zu sweeps",
                       report->run.residual, cfg->tol, cfg->max_steps);
      else
        heatsim_error ("warning: --steady: residual norm %g still above "
                       "--rtol %g of the initial %g after --max-steps %zu "
                       "V-cycles", report->run.residual_final, cfg->rtol,
                       report->run.residual_initial, cfg->max_steps);
      return HEATSIM_NOT_CONVERGED;
    }
  return status;
}

/* Whatever went to standard output must have arrived: a full disk or a
   closed pipe is a failure a script must see.  */
static int
flush_stdout (void)
{
  if (fflush (stdout) == 0 && !ferror (stdout))
    return HEATSIM_OK;
  heatsim_error ("cannot write to standard output: %s", strerror (errno));
  return HEATSIM_WRITE_FAILED;
}

/* How a run ended, for its JSON report.  */
static struct run_outcome
outcome (int status)
{
  return (struct run_outcome) {
    .status = status, .exit_status = exit_code (status),
    .error = status == HEATSIM_OK ? NULL : heatsim_error_message ()
  };
}

/* Set up, run and report the simulation cfg describes.  *reported: the
   report went to stdout (also when writing it failed), so there is no
   room for a failure object after it.  */
static int
run_simulation (struct config *cfg, bool speaks, bool *reported)
{
  signals_install ();
  cfg->quiet = cfg->quiet || !speaks;
  struct run_report report = { 0 };
  struct domain domain;
  int status = simulate (cfg, &domain, &report);
  *reported = (status == HEATSIM_OK || status == HEATSIM_NOT_CONVERGED)
              && speaks;
  if (*reported)
    {
      if (cfg->json)
        {
          const struct run_outcome end = outcome (status);
          report_json (stdout, cfg, &report, &end);
        }
      else
        report_print (stdout, cfg, &report);
      const int written = flush_stdout ();
      if (written != HEATSIM_OK)
        status = written;
    }
  return status;
}

/* Everything but MPI's start and end: only rank 0 prints.  Under --json
   every run that gets to parsing prints one JSON object, the failed ones
   too: the refused command lines among them when --json is among their
   options (options_json_requested).  */
static int
run (int argc, char **argv)
{
  struct config cfg;
  char err[512];
  const bool speaks = domain_world_rank () == 0;
  struct provenance provenance;
  /* Before parsing, which reorders argv: the command line as typed.  */
  if (provenance_init (&provenance, argc, argv, PACKAGE_STRING,
                       HEATSIM_OFFLOAD_ARCH, domain_build ()) != 0)
    {
      heatsim_error ("out of memory");
      return HEATSIM_NO_MEMORY;
    }

  int status;
  bool json, reported = false;
  switch (options_parse (argc, argv, &cfg, err, sizeof err))
    {
    case OPTIONS_HELP:
      if (speaks)
        options_usage (stdout);
      provenance_free (&provenance);
      return flush_stdout ();
    case OPTIONS_VERSION:
      if (speaks)
        print_version ();
      provenance_free (&provenance);
      return flush_stdout ();
    case OPTIONS_LIST_DEVICES:
      if (speaks)
        list_devices ();
      provenance_free (&provenance);
      return flush_stdout ();
    case OPTIONS_ERROR:
      heatsim_error ("%s", err);
      json = options_json_requested (argc, argv);
      status = HEATSIM_USAGE;
      break;
    case OPTIONS_RUN:
    default:
      json = cfg.json;
      cfg.provenance = &provenance;
      status = run_simulation (&cfg, speaks, &reported);
      break;
    }
  if (json && speaks && !reported)
    {
      const struct run_outcome end = outcome (status);
      report_json_failure (stdout, &provenance, &end);
      /* The failure stays the status: it is what the exit code reports.  */
      (void) flush_stdout ();
    }
  provenance_free (&provenance);
  return status;
}

int
main (int argc, char **argv)
{
  domain_start (&argc, &argv);
  const int rank = domain_world_rank ();
  diagnostics_set_rank (rank);
  const int code = exit_code (run (argc, argv));
  /* After a refusal of what the user asked for, point to --help.  */
  if (code == HEATSIM_USAGE && rank == 0)
    fprintf (stderr, "Try '%s --help' for more information.\n", PACKAGE);
  domain_stop ();
  return code;
}
