#include <config.h>

#include "initial.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "derive.h"
#include "diagnostics.h"
#include "field.h"
#include "h5io.h"
#include "options.h"
#include "png_io.h"
#include "problem.h"
#include "run_config.h"
#include "status.h"

/* Complete cfg from the settings of the checkpoint it continues: the
   run goes on as it began.  */
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
  char err[512];
  if (!options_check_method (cfg, path, err, sizeof err))
    {
      heatsim_error ("%s", err);
      return HEATSIM_USAGE;
    }
  cfg->restart_residual = m->initial_residual;
  cfg->lx = m->lx;
  cfg->ly = m->ly;
  cfg->alpha = m->alpha;
  cfg->dt = m->dt;
  cfg->start_step = m->step;
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

/* --init: a dataset of an HDF5 file (a checkpoint's field by default) or
   a PNG image, into u.  */
static int
read_init (const struct config *cfg, struct field *u)
{
  const char *path = cfg->init;
  struct checkpoint_meta meta;
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
        return h5_read_checkpoint (path, &meta, u);
      return h5_read_dataset (path, cfg->init_dataset ? cfg->init_dataset
                              : "field", u);
    case 0:
      if (png_is_png (path))
        return png_read_field (path, cfg->init_range[0], cfg->init_range[1],
                               u);
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
      struct checkpoint_meta meta;
      status = h5_read_checkpoint (path, &meta, u);
      if (status == HEATSIM_OK)
        status = apply_checkpoint (cfg, &meta);
    }
  else
    status = read_init (cfg, u);
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
