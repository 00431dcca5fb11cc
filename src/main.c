/* heatsim: the 2-D heat equation on a GPU through OpenMP offload.
   main() is glue: parse options, pick the device, set up, run, report,
   and turn the status into the exit code.  The options are in options.c,
   the initial field from a file in initial.c, the device and strategy
   in placement.c, the time loop in solver.c, the offload strategies in
   strategy.c, the stencil in kernels.c.  */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agree.h"
#include "atomic.h"
#include "diagnostics.h"
#include "domain.h"
#include "edge_terms.h"
#include "footprint.h"
#include "heat_rates.h"
#include "host_isa.h"
#include "initial.h"
#include "monitor.h"
#include "options.h"
#include "output.h"
#include "placement.h"
#include "probes.h"
#include "problem.h"
#include "report.h"
#include "run_config.h"
#include "sampling.h"
#include "signals.h"
#include "solver.h"
#include "status.h"
#include "sysmem.h"

static void
print_version (void)
{
  printf ("%s %s\n"
          "Device code: %s\n"
          "MPI: %s\n"
          "Host paths:",
          PACKAGE, PACKAGE_VERSION, HEATSIM_OFFLOAD_ARCH, domain_build ());
  for (int k = 0; k < HOST_KERNEL_COUNT; ++k)
    printf ("%s %s %s", k > 0 ? "," : "",
            host_kernel_name ((enum host_kernel) k),
            host_isa_name (host_isa_of ((enum host_kernel) k)));
  printf ("\n"
          "Copyright (C) 2026 the heatsim developers.\n"
          "License GPLv3+: GNU GPL version 3 or later "
          "<https://gnu.org/licenses/gpl.html>.\n"
          "This is free software: you are free to change and redistribute it.\n"
          "There is NO WARRANTY, to the extent permitted by law.\n");
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

/* Refuse a run whose full-size arrays (footprint.c counts them) cannot
   fit, before touching any memory: past the check, Linux's overcommit
   would let the OOM killer end it instead.  The ranks on one node share
   its memory: their parts count together.  */
static int
check_memory (const struct config *cfg, const struct domain *d)
{
  struct footprint need = run_footprint (cfg, d);
  need.bytes = domain_node_total (d, need.bytes, &need.node_ranks);
  char err[HEATSIM_MESSAGE_MAX];
  const bool shared = need.node_ranks > 1;
  if (footprint_fits (&need, shared ? cfg->nx : d->local_nx,
                      shared ? cfg->ny : d->local_ny, err, sizeof err))
    return HEATSIM_OK;
  heatsim_error ("%s", err);
  return HEATSIM_TOO_LARGE;
}

/* Split the grid over the ranks of an MPI run (one rank: all of it).  */
static int
split_grid (const struct config *cfg, struct domain *d)
{
  char err[HEATSIM_MESSAGE_MAX];
  const bool periodic[2] = { config_periodic (cfg, EDGE_LEFT),
                             config_periodic (cfg, EDGE_BOTTOM) };
  if (!domain_split (d, cfg->nx, cfg->ny, periodic, err, sizeof err))
    {
      heatsim_error ("%s", err);
      return HEATSIM_USAGE;
    }
  return HEATSIM_OK;
}

/* Everything that is known about the final field, over all ranks.  */
static int
measure (const struct config *cfg, const struct domain *d,
         const struct material *m, const struct field *u,
         struct run_report *report)
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
  report->heat = total_heat (d, cfg, m, u);
  report->heat_magnitude = total_heat_magnitude (d, cfg, m, u);
  field_range (u, &report->min, &report->max);
  report->min = domain_min (d, report->min);
  report->max = domain_max (d, report->max);
  report->checksum = domain_hash (d, field_checksum (u));
  field_peak (d, cfg, u, &report->peak);
  const size_t steps = report->run.steps;
  heat_budget (d, cfg, m, u, cfg->steady ? 0.0
               : config_time (cfg, cfg->start_step + steps), &report->budget);
  /* The stored heat's rate over the last step (unknown for a run that
     stopped early).  */
  const double before = steps == 1 ? report->heat_initial
                        : steps == cfg->steps ? report->run.heat_before_last
                        : NAN;
  report->budget.stored = cfg->steady ? 0.0
                          : (report->heat - before) / cfg->dt;
  return HEATSIM_OK;
}

/* Whether the cells' aspect ratio dx/dy is beyond 4 either way, where
   the hints below name it.  */
static bool
far_from_square (const struct config *cfg)
{
  const double ratio = config_dx (cfg) / config_dy (cfg);
  return ratio > 4.0 || ratio < 0.25;
}

/* What a steady run that reached --max-steps may be told about its
   cells, or nothing: cells stretched enough (an aspect ratio above 4)
   slow the black box multigrid, whose line smoother cures a uniform
   material and a layered wall, not all maps of varying k, nor a strong
   axis that is periodic (man page); so do a ring's in the geometric
   multigrid of a uniform material.  */
static const char *
slow_cells_hint (const struct config *cfg)
{
  if (edge_terms_operator (cfg) && far_from_square (cfg))
    return " (cells far from square slow the black box multigrid where k "
           "varies, or where their short side lies along a periodic axis: "
           "make --grid proportional to --length)";
  if (!edge_terms_operator (cfg) && edge_terms_slow_geometric (cfg))
    return " (cells far from square across a periodic axis that the "
           "multigrid cannot coarsen further slow it: raise --max-steps)";
  return "";
}

/* Whether the axis of edge low (left or bottom), of n nodes, carries
   the odd-even pattern (+1, -1, +1, ...) as an eigenvector of the
   5-point stencil: a periodic axis of an even number of nodes, or one
   insulated at both ends (Jacobi takes no flux edges), whose mirror
   halo repeats it.  */
static bool
axis_keeps_odd_even (const struct config *cfg, enum edge low, size_t n)
{
  if (config_periodic (cfg, low))
    return n % 2 == 0;
  return cfg->bc[low].kind == BOUNDARY_NEUMANN
         && cfg->bc[low + 1].kind == BOUNDARY_NEUMANN;
}

/* What a Jacobi run that reached --max-steps may be told: where both
   axes carry the odd-even pattern, the checkerboard of the two is a mode
   that a Jacobi sweep multiplies by -1, so a field that holds any of it
   changes by as much every sweep, forever (-g 32x16 -b periodic: 0.39 a
   sweep); damping it would change every Jacobi result.  */
static const char *
odd_even_hint (const struct config *cfg)
{
  return axis_keeps_odd_even (cfg, EDGE_LEFT, cfg->nx)
         && axis_keeps_odd_even (cfg, EDGE_BOTTOM, cfg->ny)
         ? " (Jacobi sweeps never damp an odd-even pattern where every axis "
           "is periodic with an even number of nodes or insulated at both "
           "ends: use --solver multigrid, or an odd number of nodes along "
           "a periodic axis)"
         : "";
}

/* A converged steady state whose heat balance is off by more than
   BALANCE_WARNING of its largest term, though its residual fell to a
   --rtol of at most BALANCE_RTOL (a looser one leaves an imbalance of
   its own): rounding has spoiled the system.  Cells far from square do
   it (a fin of 100 x 1000 cells, 1 x 1e-4, dx/dy 1e5: 1.8e-2, its
   worst error 0.023 of a range of 10), where the material maps of issue
   23 (contrast up to 1e6) balance to 1e-13 .. 1e-8.  Not a steady state
   of next to no heat (edges at 0: 1e-12 of the initial heat), whose
   rates are rounding themselves, nor a uniform one, whose relative
   imbalance reads 0 (report_imbalance_relative).  */
#define BALANCE_WARNING 1e-4
#define BALANCE_RTOL 1e-8

/* Say so, from rank 0 (every rank has the same budget).  The status
   stays 0: the solver did what was asked.  */
static void
warn_balance (const struct config *cfg, const struct run_report *report)
{
  const double off = report_imbalance_relative (cfg, report);
  if (off > BALANCE_WARNING && cfg->rtol <= BALANCE_RTOL
      && fabs (report->heat) > 1e-9 * fabs (report->heat_initial))
    heatsim_error ("warning: --steady: the heat balance is off by %.2g of "
                   "its largest term although the residual reached --rtol: "
                   "rounding has spoiled the field (errors up to about "
                   "that fraction of its range)%s", off,
                   far_from_square (cfg)
                   ? "; cells far from square: make --grid proportional to "
                     "--length" : "");
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
    status = domain_agree (check_memory (cfg, d));
  if (status == HEATSIM_OK)
    status = domain_agree (place_kernels (cfg, d, &report->where));
  /* The run is on devices only if every rank's is: one whose target
     regions run on the host (no --require-device) is the report's.  */
  if (status == HEATSIM_OK)
    report->where.on_device
      = domain_min (d, report->where.on_device ? 1.0 : 0.0) > 0.0;
  struct solver solver = { .domain = NULL };
  if (status == HEATSIM_OK)
    status = domain_agree (solver_init (&solver, cfg, report->where.device, d,
                                        &initial));
  if (status == HEATSIM_OK)
    status = domain_agree (solver_prepare (&solver, cfg));
  field_free (&initial);
  if (status != HEATSIM_OK)
    {
      solver_free (&solver);
      return status;
    }

  struct output out;
  struct monitor monitor = MONITOR_NONE;
  struct sampling sampling = SAMPLING_NONE;
  /* What of the output directory exists before output_open and the
     probes make it: a run refused before its first step removes what
     they made (empty directories; nothing else goes).  */
  const size_t existed = existing_prefix (cfg->output_dir);
  status = domain_agree (output_open (&out, cfg, d, &solver.work.u));
  out.material = &solver.material;
  /* Every check before any file is made, so that a refused run leaves
     none.  */
  if (status == HEATSIM_OK)
    status = domain_agree (monitor_check (&monitor, cfg, d));
  if (status == HEATSIM_OK)
    status = domain_agree (sampling_check (&sampling, cfg, d));
  if (status == HEATSIM_OK)
    status = domain_agree (monitor_begin (&monitor, d));
  if (status == HEATSIM_OK)
    status = domain_agree (sampling_begin (&sampling, d));
  if (status != HEATSIM_OK && d->rank == 0)
    unmake_directories (cfg->output_dir, existed);
  solver.monitor = &monitor;
  solver.sampling = &sampling;
  report->heat_initial = total_heat (d, cfg, &solver.material,
                                     &solver.work.u);
  /* A steady run weighs a uniform end against the field the whole run
     started from: a restart's own first field may be next to 0.  */
  report->largest_initial = cfg->restart_largest_known
                            ? cfg->restart_largest
                            : domain_max (d, field_largest (&solver.work.u));
  out.initial_largest = report->largest_initial;
  report->run.setup = omp_get_wtime () - t0;
  report->ranks = d->ranks;
  report->dims[0] = d->dims[0];
  report->dims[1] = d->dims[1];
  if (status == HEATSIM_OK)
    status = solver_run (&solver, cfg, &out, &report->run);
  output_close (&out);
  const int closed = domain_agree (monitor_close (&monitor));
  status = status != HEATSIM_OK ? status : closed;
  const int sampled = domain_agree (sampling_close (&sampling));
  status = status != HEATSIM_OK ? status : sampled;
  /* A failed implicit step (not converged) left the last good field:
     its report is printed, and complete.  */
  if (status == HEATSIM_OK || status == HEATSIM_NOT_CONVERGED)
    {
      const int measured = domain_agree (measure (cfg, d, &solver.material,
                                                  &solver.work.u, report));
      status = measured != HEATSIM_OK ? measured : status;
    }
  solver_free (&solver);
  report->peak_memory = peak_resident_bytes ();
  report->run.total = omp_get_wtime () - t0;
  if (status == HEATSIM_OK && cfg->steady && !report->run.converged)
    {
      if (cfg->solver == SOLVER_JACOBI)
        heatsim_error ("warning: --steady: largest change %g still above "
                       "--tol %g after --max-steps %zu sweeps%s",
                       report->run.residual, cfg->tol, cfg->max_steps,
                       odd_even_hint (cfg));
      else
        heatsim_error ("warning: --steady: residual norm %g still above "
                       "--rtol %g of the initial %g after --max-steps %zu "
                       "%s%s", report->run.residual_final, cfg->rtol,
                       report->run.residual_initial, cfg->max_steps,
                       report_iterations (cfg), slow_cells_hint (cfg));
      return HEATSIM_NOT_CONVERGED;
    }
  if (status == HEATSIM_OK && cfg->steady && cfg->solver == SOLVER_MULTIGRID)
    warn_balance (cfg, report);
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
  int status = agree_across_ranks (cfg);
  if (status == HEATSIM_OK)
    status = simulate (cfg, &domain, &report);
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

/* --print-case: the settings as a case file on stdout.  Every rank
   makes the text, which names files from its working directory (one
   may fail to read it), and all agree before any prints.  */
static int
print_case (const struct config *cfg, bool speaks)
{
  char *text, err[HEATSIM_MESSAGE_MAX];
  int status = HEATSIM_OK;
  if (!options_case_text (cfg, &text, err, sizeof err))
    {
      heatsim_error ("--print-case: %s", err);
      status = HEATSIM_USAGE;
    }
  status = domain_agree (status);
  if (status == HEATSIM_OK && speaks)
    fputs (text, stdout);
  free (text);
  return status == HEATSIM_OK ? flush_stdout () : status;
}

/* The run's settings as a case file, in its provenance; a setting that
   a case file cannot hold leaves it out, with a warning.  */
static void
record_case (struct provenance *provenance, const struct config *cfg)
{
  char err[HEATSIM_MESSAGE_MAX];
  if (!options_case_text (cfg, &provenance->case_text, err, sizeof err))
    heatsim_error ("warning: the run's case is not recorded: %s", err);
}

/* OMP_NUM_THREADS as the OpenMP runtime can take it: a list of whole
   numbers from 1 to a bound, comma-separated (one a nesting level),
   blanks around each allowed.  The runtime aborts on "-1", "" and
   10^20, hangs on "abc", and aborts where the system cannot make the
   threads (100000 here); the bound, 64 threads a processor and at
   least 1024, keeps clear of that.  NULL (unset) is fine.  */
static bool
threads_setting_ok (const char *value, char *err, size_t errlen)
{
  if (value == NULL)
    return true;
  const long processors = sysconf (_SC_NPROCESSORS_ONLN);
  const unsigned long long bound
    = processors > 16 ? 64ULL * (unsigned long long) processors : 1024ULL;
  const char *p = value;
  bool ok = true;
  do
    {
      while (*p == ' ' || *p == '\t')
        ++p;
      unsigned long long n = 0;
      const char *digits = p;
      while (*p >= '0' && *p <= '9' && n <= bound)
        n = 10 * n + (unsigned long long) (*p++ - '0');
      ok = p > digits && n >= 1 && n <= bound;
      while (*p == ' ' || *p == '\t')
        ++p;
    }
  while (ok && *p++ == ',');
  if (ok && p[-1] == '\0')
    return true;
  snprintf (err, errlen, "OMP_NUM_THREADS: '%s': give a whole number of "
            "threads from 1 to %llu (or a comma-separated list of them, "
            "one for each level of nesting)", value, bound);
  return false;
}

/* Everything but MPI's start and end: only rank 0 prints.  Under --json
   every run that gets to parsing prints one JSON object, the failed ones
   too: the refused command lines among them when --json is among their
   options (options_json_requested).  */
static int
run (int argc, char **argv)
{
  struct config cfg;
  char err[HEATSIM_MESSAGE_MAX];
  const bool speaks = domain_world_rank () == 0;
  struct provenance provenance;
  /* Before parsing, which reorders argv: the command line as typed.  */
  if (provenance_init (&provenance, argc, argv, PACKAGE_STRING,
                       HEATSIM_OFFLOAD_ARCH, domain_build ()) != 0)
    {
      heatsim_error ("out of memory");
      return HEATSIM_NO_MEMORY;
    }

  /* Before anything runs a kernel or starts the OpenMP runtime; a path
     or thread count forced by the environment that cannot run here is
     refused like a bad option.  */
  if (!threads_setting_ok (getenv ("OMP_NUM_THREADS"), err, sizeof err)
      || !host_isa_init (getenv (HOST_ISA_ENV), err, sizeof err))
    {
      heatsim_error ("%s", err);
      if (speaks && options_json_requested (argc, argv))
        {
          const struct run_outcome end = outcome (HEATSIM_USAGE);
          report_json_failure (stdout, &provenance, &end);
          (void) flush_stdout ();
        }
      provenance_free (&provenance);
      return HEATSIM_USAGE;
    }

  int status;
  bool json, reported = false;
  const enum options_action parsed = options_parse (argc, argv, &cfg, err,
                                                    sizeof err);
  if (parsed == OPTIONS_ERROR)
    heatsim_error ("%s", err);
  /* Every rank learns whether any failed: one that fails alone (a map or
     schedule only it cannot read, or reads otherwise) would leave the
     others waiting in the run's first collective operation.  The first
     to fail says why, for all.  */
  /* An input file that cannot be opened or read is a bad file, as
     --init's is, not a bad command line.  */
  const int refusal = cfg.file_unusable ? HEATSIM_BAD_FILE
                      : cfg.too_large ? HEATSIM_TOO_LARGE : HEATSIM_USAGE;
  const int agreed = domain_agree (parsed == OPTIONS_ERROR ? refusal
                                   : HEATSIM_OK);
  const bool failed = agreed != HEATSIM_OK;
  switch (failed ? OPTIONS_ERROR : parsed)
    {
    case OPTIONS_HELP:
      if (speaks)
        options_usage (stdout);
      options_free (&cfg);
      provenance_free (&provenance);
      return flush_stdout ();
    case OPTIONS_VERSION:
      if (speaks)
        print_version ();
      options_free (&cfg);
      provenance_free (&provenance);
      return flush_stdout ();
    case OPTIONS_LIST_DEVICES:
      status = speaks ? list_devices () : HEATSIM_OK;
      options_free (&cfg);
      provenance_free (&provenance);
      return status != HEATSIM_OK ? status : flush_stdout ();
    case OPTIONS_PRINT_CASE:
      /* The case file is the output, --json one of its settings.  */
      json = cfg.json;
      status = print_case (&cfg, speaks);
      reported = status == HEATSIM_OK;
      break;
    case OPTIONS_ERROR:
      /* --json given before the error (a case file's too) or after it.  */
      json = cfg.json || options_json_requested (argc, argv);
      status = agreed;
      break;
    case OPTIONS_RUN:
    default:
      json = cfg.json;
      record_case (&provenance, &cfg);
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
  options_free (&cfg);
  provenance_free (&provenance);
  return status;
}

/* Descriptors 0, 1 and 2 left closed by the caller (2>&-) would be
   taken by the first files heatsim opens, and messages written into a
   monitor or probe file: hold them with /dev/null, read-only, so that
   a write to a closed stdout still fails (status 1) as it did.  */
static void
reserve_standard_streams (void)
{
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      {
        const int held = open ("/dev/null", O_RDONLY);
        if (held >= 0 && held != fd)
          close (held);
      }
}

int
main (int argc, char **argv)
{
  reserve_standard_streams ();
  signals_ignore_write_faults ();
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
