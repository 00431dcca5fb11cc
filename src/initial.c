#include <config.h>

#include "initial.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "derive.h"
#include "diagnostics.h"
#include "field.h"
#include "h5io.h"
#include "input_file.h"
#include "material.h"
#include "options.h"
#include "parse.h"
#include "png_io.h"
#include "problem.h"
#include "run_config.h"
#include "status.h"

/* The unit of the checkpoint at path is the run's: one given on the
   command line must be the same.  */
static int
take_unit (struct config *cfg, const struct checkpoint_meta *m,
           const char *opt, const char *path)
{
  enum temperature_unit unit;
  if (!temperature_unit_find (m->temperature_unit, &unit))
    {
      heatsim_error ("%s: %s: unknown temperature_unit '%s'", opt, path,
                     m->temperature_unit);
      return HEATSIM_BAD_FILE;
    }
  /* As a run of an SI material without a unit is refused: k in
     W/(m K) of a field in no unit.  */
  const char *si = material_si_option (&cfg->material);
  if (si != NULL && unit == TEMPERATURE_NONE)
    {
      heatsim_error ("--%s: an SI material needs a temperature unit, and %s "
                     "is of a nondimensional run (temperature_unit %s); "
                     "leave the material options out to go on without "
                     "units", si, path, m->temperature_unit);
      return HEATSIM_USAGE;
    }
  if (cfg->given.temperature_unit && cfg->unit != unit)
    {
      heatsim_error ("--temperature-unit: %s contradicts the unit %s%s of %s",
                     temperature_unit_name (cfg->unit), m->temperature_unit,
                     unit == TEMPERATURE_NONE ? " (nondimensional)" : "",
                     path);
      return HEATSIM_USAGE;
    }
  cfg->unit = unit;
  return HEATSIM_OK;
}

/* --init takes a checkpoint's field alone: a run of a material or
   sources that does not give them again solves another equation (k =
   alpha, rho c_p = 1, no source), which the user must hear of.  */
static void
warn_material_left (const struct config *cfg,
                    const struct checkpoint_meta *m)
{
  const bool material = m->has_material || m->uniform_given;
  /* material.given: any material or source option (options.c's
     material_check_options has run).  */
  if (!(material || m->has_source) || cfg->material.given)
    return;
  heatsim_error ("warning: --init %s: its run had %s, which --init does "
                 "not take: this run is nondimensional (k = alpha = %g, "
                 "rho c_p = 1, no source); give the material and source "
                 "options again, or --restart to go on with them",
                 cfg->init, material && m->has_source
                 ? "a material and sources" : material ? "a material"
                 : "sources", cfg->alpha);
}

/* --init of a heatsim checkpoint (issue 25): its domain, unit and, when
   it is time-dependent, alpha are the run's unless given, and given ones
   must agree; a time-dependent run from a time-dependent checkpoint
   goes on from its step and time (or --start-time), so that its outputs
   join the checkpoint's run.  */
static int
init_from_checkpoint (struct config *cfg, const struct checkpoint_meta *m)
{
  const char *path = cfg->init;
  /* In the digits that tell the values apart: %g printed 0.1 and
     0.10000001 alike.  */
  char given[2][32], has[2][32];
  if (cfg->given.length && (cfg->lx != m->lx || cfg->ly != m->ly))
    {
      format_real (given[0], sizeof given[0], cfg->lx);
      format_real (given[1], sizeof given[1], cfg->ly);
      format_real (has[0], sizeof has[0], m->lx);
      format_real (has[1], sizeof has[1], m->ly);
      heatsim_error ("--length: %sx%s contradicts the domain %sx%s of %s "
                     "(leave --length out to take it)", given[0], given[1],
                     has[0], has[1], path);
      return HEATSIM_USAGE;
    }
  cfg->lx = m->lx;
  cfg->ly = m->ly;
  /* A steady state does not depend on alpha.  */
  if (!m->steady)
    {
      if (cfg->given.alpha && cfg->alpha != m->alpha)
        {
          format_real (given[0], sizeof given[0], cfg->alpha);
          format_real (has[0], sizeof has[0], m->alpha);
          heatsim_error ("--alpha: %s contradicts the alpha %s of %s (leave "
                         "--alpha out to take it)", given[0], has[0], path);
          return HEATSIM_USAGE;
        }
      cfg->alpha = m->alpha;
    }
  const int status = take_unit (cfg, m, "--init", path);
  if (status == HEATSIM_OK)
    warn_material_left (cfg, m);
  if (status != HEATSIM_OK || m->steady || cfg->steady)
    return status;
  cfg->start_step = m->step;
  if (!cfg->given.start_time)
    cfg->start_time = m->time;
  cfg->continues = true;
  return HEATSIM_OK;
}

/* The edges' conditions, source schedule and face cooling of the
   checkpoint's run, applied as the options that gave them (--restart
   refuses those options), and their schedule files read again.  A
   checkpoint without --bc attributes (older ones too) has the kind of
   its boundary attribute on every edge.  */
static int
restore_conditions (struct config *cfg, const struct checkpoint_meta *m)
{
  const char *path = cfg->restart;
  char err[HEATSIM_MESSAGE_MAX], spec[CHECKPOINT_SPEC_MAX + 8];
  bool ok = true, per_edge = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    per_edge = per_edge || m->bc[e][0] != '\0';
  if (!per_edge)
    ok = options_restore (cfg, "boundary", m->boundary, err, sizeof err);
  for (int e = 0; ok && e < EDGE_COUNT; ++e)
    if (m->bc[e][0] != '\0')
      {
        snprintf (spec, sizeof spec, "%s=%s", edge_name ((enum edge) e),
                  m->bc[e]);
        ok = options_restore (cfg, "bc", spec, err, sizeof err);
      }
  if (ok && m->source_schedule[0] != '\0')
    ok = options_restore (cfg, "source-schedule", m->source_schedule, err,
                          sizeof err);
  if (ok && m->thickness > 0.0)
    {
      snprintf (spec, sizeof spec, "%.17g", m->thickness);
      ok = options_restore (cfg, "thickness", spec, err, sizeof err)
           && options_restore (cfg, "surface-convection",
                               m->surface_convection, err, sizeof err);
      cfg->surface_given = true;
    }
  if (!ok)
    {
      heatsim_error ("--restart: %s: %s", path, err);
      return HEATSIM_BAD_FILE;
    }
  if (!options_load_schedules (cfg, err, sizeof err))
    {
      heatsim_error ("--restart: %s: %s (a file its run was given)", path,
                     err);
      return HEATSIM_BAD_FILE;
    }
  return HEATSIM_OK;
}

/* Complete cfg from the settings of the checkpoint it continues: the
   run goes on as it began.  */
static int
apply_checkpoint (struct config *cfg, const struct checkpoint_meta *m)
{
  const char *path = cfg->restart;
  cfg->problem = problem_find (m->problem);
  if (cfg->problem == NULL)
    {
      heatsim_error ("--restart: %s: unknown problem '%s'", path,
                     m->problem);
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
  /* Named alone: both unknown read "unknown scheme 'rk4' or solver
     'jacobi'", blaming a solver the file had right.  */
  const bool scheme_known = time_scheme_find (m->scheme, &scheme);
  if (!scheme_known || !steady_solver_find (m->solver, &solver))
    {
      heatsim_error ("--restart: %s: unknown %s '%s'", path,
                     scheme_known ? "solver" : "scheme",
                     scheme_known ? m->solver : m->scheme);
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
  char err[HEATSIM_MESSAGE_MAX];
  if (!options_check_method (cfg, path, err, sizeof err))
    {
      heatsim_error ("%s", err);
      return HEATSIM_USAGE;
    }
  cfg->restart_residual = m->initial_residual;
  cfg->restart_largest = m->initial_largest;
  cfg->restart_largest_known = m->initial_largest_known;
  cfg->lx = m->lx;
  cfg->ly = m->ly;
  cfg->alpha = m->alpha;
  cfg->dt = m->dt;
  cfg->start_step = m->step;
  cfg->start_time = m->time;
  cfg->continues = true;
  const int status = take_unit (cfg, m, "--restart", path);
  if (status != HEATSIM_OK)
    return status;
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
  return restore_conditions (cfg, m);
}

/* --init: a dataset of an HDF5 file (a checkpoint's field by default,
   with what the checkpoint says of the run) or a PNG image, into u.  */
static int
read_init (struct config *cfg, struct field *u)
{
  const char *path = cfg->init;
  struct checkpoint_meta meta;
  bool checkpoint;
  int status;
  switch (h5_is_hdf5 (path))
    {
    case 1:
      if (cfg->given.init_range)
        {
          heatsim_error ("--init-range: only for PNG images; %s is an HDF5 "
                         "file", path);
          return HEATSIM_USAGE;
        }
      checkpoint = cfg->init_dataset == NULL && h5_is_checkpoint (path);
      /* The readers name the file alone: their messages are --init's.  */
      heatsim_error_prefix ("--init");
      status = checkpoint ? h5_read_checkpoint (path, &meta, u)
               : h5_read_dataset (path, cfg->init_dataset
                                        ? cfg->init_dataset : "field", u);
      heatsim_error_prefix (NULL);
      return status != HEATSIM_OK || !checkpoint ? status
             : init_from_checkpoint (cfg, &meta);
    case 0:
      if (png_is_png (path) && cfg->init_dataset != NULL)
        {
          heatsim_error ("--init-dataset: only for HDF5 files; %s is a PNG "
                         "image", path);
          return HEATSIM_USAGE;
        }
      if (png_is_png (path))
        {
          heatsim_error_prefix ("--init");
          status = png_read_field (path, cfg->init_range[0],
                                   cfg->init_range[1], u);
          heatsim_error_prefix (NULL);
          return status;
        }
      heatsim_error ("--init: %s: neither an HDF5 file nor a PNG image", path);
      return HEATSIM_BAD_FILE;
    default:
      heatsim_error ("--init: %s: cannot open: %s", path, strerror (errno));
      return HEATSIM_BAD_FILE;
    }
}

int
load_initial (struct config *cfg, struct field *u)
{
  const char *path = cfg->restart ? cfg->restart : cfg->init;
  const char *opt = cfg->restart ? "--restart" : "--init";
  /* A FIFO or device would block or never end; refuse before opening.  */
  const char *unfit = input_path_unfit (path);
  if (unfit != NULL)
    {
      heatsim_error ("%s: %s: %s", opt, path, unfit);
      return HEATSIM_BAD_FILE;
    }
  int status;
  struct checkpoint_meta meta;
  if (cfg->restart != NULL)
    {
      heatsim_error_prefix ("--restart");
      status = h5_read_checkpoint (path, &meta, u);
      heatsim_error_prefix (NULL);
      if (status == HEATSIM_OK)
        status = apply_checkpoint (cfg, &meta);
    }
  else
    status = read_init (cfg, u);
  if (status == HEATSIM_OK)
    {
      cfg->nx = u->nx;
      cfg->ny = u->ny;
      /* The material too goes on as it began.  */
      if (cfg->restart != NULL)
        status = material_restart (cfg, &meta);
    }
  if (status != HEATSIM_OK)
    {
      field_free (u);
      return status;
    }
  char err[HEATSIM_MESSAGE_MAX];
  if (!derive_settings (cfg, true, err, sizeof err))
    {
      heatsim_error ("%s", err);
      field_free (u);
      return cfg->file_unusable ? HEATSIM_BAD_FILE
             : cfg->too_large ? HEATSIM_TOO_LARGE : HEATSIM_USAGE;
    }
  /* A new run's end time counts from its start (--restart's counts from
     the start of the simulation already).  */
  if (cfg->restart == NULL && !cfg->steady)
    {
      if (cfg->steps > SIZE_MAX - cfg->start_step)
        {
          heatsim_error ("--steps: %zu more steps after step %zu of %s: "
                         "the step counter would overflow", cfg->steps,
                         cfg->start_step, path);
          field_free (u);
          return HEATSIM_USAGE;
        }
      cfg->end_time += cfg->start_time;
    }
  return HEATSIM_OK;
}
