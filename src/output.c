#include <config.h>

#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "diagnostics.h"
#include "domain.h"
#include "h5io.h"
#include "material.h"
#include "pattern.h"
#include "problem.h"
#include "run_config.h"
#include "status.h"
#include "xdmf.h"

/* Smallest and largest value of every cell, boundary included: the plate
   starts at 0 inside but its edges reach 100.  */
static void
full_range (const struct field *u, double *lo, double *hi)
{
  *lo = *hi = u->data[0];
  for (size_t k = 0; k < field_cells (u); ++k)
    {
      *lo = u->data[k] < *lo ? u->data[k] : *lo;
      *hi = u->data[k] > *hi ? u->data[k] : *hi;
    }
}

/* Whether output of period every is written after step.  */
static bool
due (size_t every, size_t step, bool last)
{
  return every != 0 && (last || step % every == 0);
}

/* The last step the run can reach (for a steady run, at --max-steps).  */
static size_t
last_step (const struct config *c)
{
  return c->start_step + c->steps;
}

/* Whether output of period every can be written at step of this run: the
   state it starts from always is, and a steady run can end, and write,
   after any sweep.  */
static bool
writes_at (const struct config *c, size_t every, size_t step)
{
  return step == c->start_step
         || (step > c->start_step && step <= last_step (c)
             && due (every, step, step == last_step (c) || c->steady));
}

/* Whether the snapshot named with number (a step, or a frame index when
   --png-name has %f) can be written by this run: at most one frame per
   step, and one of the initial state.  */
static bool
png_writes (const struct config *c, size_t number)
{
  if (pattern_kind (c->png_name) == PATTERN_FRAME)
    return number <= c->steps;
  return writes_at (c, c->png_every, number);
}

/* Where a file is, whatever links and '..' lead to it: the directory
   that holds its name, by identity, and the name.  */
struct place {
  dev_t dev;
  ino_t ino;
  char name[NAME_MAX + 1];
};

/* The place of path: of the file it leads to, links resolved to the
   end, or where there is none yet (a file to create, a dangling link),
   of the name in path, in its directory resolved.  */
static bool
place_of (const char *path, struct place *p)
{
  char real[PATH_MAX], dir[PATH_MAX];
  const char *file = realpath (path, real) != NULL ? real : path;
  const char *slash = strrchr (file, '/');
  const char *name = slash ? slash + 1 : file;
  struct stat st;
  if (strlen (name) >= sizeof p->name || !directory_of (file, dir, sizeof dir)
      || stat (dir, &st) != 0)
    return false;
  *p = (struct place) { .dev = st.st_dev, .ino = st.st_ino };
  strcpy (p->name, name);
  return true;
}

/* The name of the file at path, if it is in the output directory, into
   place.  */
static bool
in_output_dir (const struct config *c, const char *path, struct place *place)
{
  struct stat out;
  return place_of (path, place) && stat (c->output_dir, &out) == 0
         && out.st_dev == place->dev && out.st_ino == place->ino;
}

/* Refuse a run whose snapshots, checkpoints or XDMF index would
   overwrite input, a file that option named, however the two are
   named.  */
static int
keeps_file (const struct config *c, const char *opt, const char *input)
{
  struct place in;
  if (!in_output_dir (c, input, &in))
    return HEATSIM_OK;
  const char *dir = c->output_dir, *base = in.name;
  size_t step;
  if (c->png_every != 0 && pattern_match (c->png_name, base, &step)
      && png_writes (c, step))
    {
      heatsim_error ("%s: %s would be overwritten by the snapshot of %s "
                     "%zu, %s/%s (--png-name)", opt, input,
                     pattern_kind (c->png_name) == PATTERN_FRAME ? "frame"
                     : "step", step, dir, base);
      return HEATSIM_USAGE;
    }
  /* The checkpoint a run continues, when it is this run's checkpoint of
     its first step, is that checkpoint: it is indexed, not rewritten.
     A restart's maps are that checkpoint too, by the same string
     (material_restart).  */
  const bool continued = c->continues && (input == c->restart
                                          || input == c->init);
  if (c->checkpoint_every != 0 && pattern_match (c->checkpoint_name, base,
                                                 &step)
      && writes_at (c, c->checkpoint_every, step)
      && !(continued && step == c->start_step))
    {
      heatsim_error ("%s: %s would be overwritten by the checkpoint of step "
                     "%zu, %s/%s (--checkpoint-name)", opt, input, step, dir,
                     base);
      return HEATSIM_USAGE;
    }
  if (c->checkpoint_every != 0 && strcmp (base, XDMF_NAME) == 0)
    {
      heatsim_error ("%s: %s would be overwritten by the XDMF index, %s/%s "
                     "(--checkpoint-every)", opt, input, dir, base);
      return HEATSIM_USAGE;
    }
  return HEATSIM_OK;
}

/* Refuse a run whose outputs would overwrite any of its input files.  */
static int
keeps_input (const struct config *c)
{
  struct config_input in[CONFIG_INPUTS_MAX];
  const size_t n = config_inputs (c, in);
  int status = HEATSIM_OK;
  for (size_t k = 0; k < n && status == HEATSIM_OK; ++k)
    status = keeps_file (c, in[k].option, in[k].path);
  return status;
}

bool
output_writes (const struct config *c, const char *path)
{
  struct place out;
  size_t step;
  if ((c->png_every == 0 && c->checkpoint_every == 0)
      || !in_output_dir (c, path, &out))
    return false;
  const char *base = out.name;
  /* A frame-numbered (%f) name may be any of the run's snapshots.  */
  return (c->png_every != 0 && pattern_match (c->png_name, base, &step)
          && (pattern_kind (c->png_name) == PATTERN_FRAME
              || writes_at (c, c->png_every, step)))
         || (c->checkpoint_every != 0
             && ((pattern_match (c->checkpoint_name, base, &step)
                  && writes_at (c, c->checkpoint_every, step))
                 || strcmp (base, XDMF_NAME) == 0));
}

/* Frame indices start at 0 in every run, so a run that continues
   another would write over its frames: refuse it while files of the
   --png-name pattern are in the output directory.  */
static int
keeps_frames (const struct config *c)
{
  if (!c->continues || c->png_every == 0
      || pattern_kind (c->png_name) != PATTERN_FRAME)
    return HEATSIM_OK;
  DIR *dir = opendir (c->output_dir);
  if (dir == NULL)
    return HEATSIM_OK;          /* output_dir_writable says what is wrong */
  int status = HEATSIM_OK;
  const struct dirent *e;
  size_t frame;
  while (status == HEATSIM_OK && (e = readdir (dir)) != NULL)
    if (pattern_match (c->png_name, e->d_name, &frame))
      {
        heatsim_error ("--png-name: %s/%s would be overwritten: frame "
                       "numbers (%%f) start at 0 in a continued run too; "
                       "give another --png-name or --output-dir",
                       c->output_dir, e->d_name);
        status = HEATSIM_USAGE;
      }
  closedir (dir);
  return status;
}

int
output_dir_writable (const char *dir)
{
  char probe[4096], tmp[4096];
  snprintf (probe, sizeof probe, "%s/heatsim", dir);
  if (!atomic_temp (probe, tmp, sizeof tmp))
    {
      heatsim_error ("--output-dir: %s: not writable: %s", dir,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  atomic_abort (tmp);
  return HEATSIM_OK;
}

/* The longest name pattern gives in this run (at its last step), with
   its temporary name, must fit the file system's limit.  */
static int
check_name_length (const struct config *c, const char *pattern,
                   const char *opt)
{
  char path[4096];
  if (!pattern_name (path, sizeof path, c->output_dir, pattern,
                     last_step (c)))
    {
      heatsim_error ("%s: file names in %s are too long", opt,
                     c->output_dir);
      return HEATSIM_USAGE;
    }
  long limit = pathconf (c->output_dir, _PC_NAME_MAX);
  if (limit < 0)
    limit = NAME_MAX;
  const size_t len = strlen (strrchr (path, '/') + 1) + ATOMIC_TEMP_EXTRA;
  if (len > (size_t) limit)
    {
      heatsim_error ("%s: '%s' is too long for %s: with the %d characters "
                     "of its temporary name it has %zu, more than %ld", opt,
                     pattern, c->output_dir, ATOMIC_TEMP_EXTRA, len,
                     limit);
      return HEATSIM_USAGE;
    }
  return HEATSIM_OK;
}

/* The index entry of this run's checkpoint of step, file name in the
   output directory.  */
static struct xdmf_entry
index_entry (const struct output *o, size_t step, char *name)
{
  const struct config *c = o->cfg;
  const bool varies = o->material != NULL && o->material->variable;
  return (struct xdmf_entry) {
    .step = step, .name = name, .nx = c->nx, .ny = c->ny,
    .dx = config_dx (c), .dy = config_dy (c), .x1 = config_x (c, 1),
    .y1 = config_y (c, 1), .time = config_record_time (c, step),
    .material = varies, .source = varies && o->material->source.data != NULL,
  };
}

/* An entry of the index in the output directory that this run keeps
   (xdmf_load), described as its checkpoint says, which may be another
   run's; dropped if it is no checkpoint.  */
static bool
describe_kept (const char *dir, struct xdmf_entry *e)
{
  char path[4096];
  struct checkpoint_meta m;
  if ((size_t) snprintf (path, sizeof path, "%s/%s", dir, e->name)
      >= sizeof path
      || !h5_read_meta (path, &m))
    return false;
  /* The nodes lie as the edges' kinds place them: an edge's --bc SPEC
     where an option gave one, else the kind all four share (older
     checkpoints, and edges that keep the problem's temperatures).  */
  enum boundary_kind shared = BOUNDARY_DIRICHLET, kind[EDGE_COUNT];
  boundary_find (m.boundary, &shared);
  for (int k = 0; k < EDGE_COUNT; ++k)
    if (!edge_spec_kind (m.bc[k], &kind[k]))
      kind[k] = shared;
  e->nx = m.nx;
  e->ny = m.ny;
  e->dx = axis_spacing (m.lx, m.nx, kind[EDGE_LEFT], kind[EDGE_RIGHT]);
  e->dy = axis_spacing (m.ly, m.ny, kind[EDGE_BOTTOM], kind[EDGE_TOP]);
  e->x1 = axis_position (1, e->dx, kind[EDGE_LEFT]);
  e->y1 = axis_position (1, e->dy, kind[EDGE_BOTTOM]);
  /* Steady checkpoints of older versions recorded step dt.  */
  e->time = m.steady ? (double) m.step : m.time;
  e->material = m.has_material;
  e->source = m.has_source;
  return true;
}

/* ------------------------------------------------------------ writing */

/* The colour range of a uniform field at *lo: *lo to *lo + 1, wider
   where *lo is so large that *lo + 1 rounds back to it (1e16: a
   checkpoint's colour_lo was then its colour_hi, which its reader
   refuses), within double's range.  */
static void
uniform_range (double *lo, double *hi)
{
  const double width = fmax (1.0, fabs (*lo) * 0x1p-40);
  *hi = *lo + width;
  if (!isfinite (*hi))
    {
      *hi = *lo;
      *lo = *hi - width;
    }
}

int
output_open (struct output *o, const struct config *cfg,
             const struct domain *d, const struct field *initial)
{
  *o = (struct output) { .cfg = cfg };
  o->png = (struct png_style) { .colormap = cfg->colormap,
                                .depth = cfg->png_depth,
                                .lo = cfg->range[0], .hi = cfg->range[1],
                                .scale = cfg->png_scale ? cfg->png_scale : 1,
                                .legend = cfg->png_legend,
                                .even = cfg->png_legend || cfg->png_scale,
                                .steady = cfg->steady,
                                .unit = cfg->unit == TEMPERATURE_NONE ? NULL
                                        : temperature_unit_name (cfg->unit),
                                .last_step = last_step (cfg) };
  if (!cfg->range_given)
    {
      full_range (initial, &o->png.lo, &o->png.hi);
      o->png.lo = domain_min (d, o->png.lo);
      o->png.hi = domain_max (d, o->png.hi);
      if (!(o->png.hi > o->png.lo))
        uniform_range (&o->png.lo, &o->png.hi);
    }
  if (cfg->png_every == 0 && cfg->checkpoint_every == 0)
    return HEATSIM_OK;
  /* What can be checked before the first step is checked now, so that a
     run does not compute for hours to fail at its first write.  */
  size_t width, height;
  if (cfg->png_every != 0
      && !png_image_size (&o->png, cfg->nx, cfg->ny, &width, &height))
    {
      heatsim_error ("--png-every: a %zux%zu grid%s does not fit in a PNG "
                     "image (at most %zu pixels a side)", cfg->nx, cfg->ny,
                     o->png.scale > 1 || o->png.legend
                     ? " at this --png-scale or with --png-legend" : "",
                     png_side_max ());
      return HEATSIM_USAGE;
    }
  int status = keeps_input (cfg);
  if (status != HEATSIM_OK || d->rank != 0)
    return status;
  if (!make_directories (cfg->output_dir))
    {
      heatsim_error ("--output-dir: cannot create '%s': %s", cfg->output_dir,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  status = output_dir_writable (cfg->output_dir);
  if (status == HEATSIM_OK)
    status = keeps_frames (cfg);
  if (status == HEATSIM_OK && cfg->png_every != 0)
    status = check_name_length (cfg, cfg->png_name, "--png-name");
  if (status == HEATSIM_OK && cfg->checkpoint_every != 0)
    status = check_name_length (cfg, cfg->checkpoint_name,
                                "--checkpoint-name");
  if (status == HEATSIM_OK && cfg->checkpoint_every != 0 && cfg->continues)
    status = xdmf_load (&o->index, cfg->output_dir, cfg->start_step,
                        config_record_time (cfg, cfg->start_step),
                        describe_kept);
  return status;
}

bool
output_due (const struct output *o, size_t step, bool last)
{
  return due (o->cfg->png_every, step, last)
         || due (o->cfg->checkpoint_every, step, last);
}

bool
output_checkpoint_due (const struct output *o, size_t step, bool last)
{
  return due (o->cfg->checkpoint_every, step, last);
}

/* List the checkpoint of step, now in the output directory, in the
   index, and rewrite it (on rank 0, which keeps the index).  */
static int
index_checkpoint (struct output *o, const struct domain *d, size_t step)
{
  if (d->rank != 0)
    return HEATSIM_OK;
  char file[4096];
  pattern_name (file, sizeof file, ".", o->cfg->checkpoint_name, step);
  const struct xdmf_entry e = index_entry (o, step, file + 2);
  const int status = xdmf_add (&o->index, &e);
  return status != HEATSIM_OK ? status
         : xdmf_write (&o->index, o->cfg->output_dir);
}

/* The conditions the options gave, as m records them (issue 24).  */
static int
conditions_meta (const struct config *c, struct checkpoint_meta *m)
{
  bool ok = true;
  for (int e = 0; e < EDGE_COUNT && ok; ++e)
    ok = edge_condition_spec (&c->bc[e], m->bc[e], sizeof m->bc[e]);
  const char *schedule = c->given.source_schedule ? c->source_schedule.path
                         : "";
  ok = ok && snprintf (m->source_schedule, sizeof m->source_schedule, "%s",
                       schedule) < (int) sizeof m->source_schedule;
  m->thickness = c->surface_given ? c->thickness : 0.0;
  m->surface_convection[0] = '\0';
  ok = ok && (!c->surface_given
              || surface_convection_spec (c, m->surface_convection,
                                          sizeof m->surface_convection));
  if (!ok)
    {
      heatsim_error ("--checkpoint-every: a boundary condition's file name "
                     "is too long to record in a checkpoint");
      return HEATSIM_WRITE_FAILED;
    }
  return HEATSIM_OK;
}

/* A checkpoint, written by all ranks together into one file.  */
static int
write_checkpoint (struct output *o, const struct domain *d,
                  const struct field *u, size_t step)
{
  const struct config *c = o->cfg;
  char path[4096];
  if (!pattern_name (path, sizeof path, c->output_dir, c->checkpoint_name,
                    step))
    {
      heatsim_error ("--checkpoint-name: file name too long");
      return HEATSIM_WRITE_FAILED;
    }
  struct checkpoint_meta m = {
    .step = step, .time = config_record_time (c, step), .dt = c->dt,
    .alpha = c->alpha, .nx = c->nx, .ny = c->ny, .lx = c->lx, .ly = c->ly,
    .steady = c->steady, .edges_given = c->edges_given,
    .range_known = true, .range = { o->png.lo, o->png.hi },
    .initial_residual = o->initial_residual,
    .initial_largest = o->initial_largest,
    .provenance = c->provenance, .material = o->material,
  };
  snprintf (m.scheme, sizeof m.scheme, "%s", time_scheme_name (c->scheme));
  snprintf (m.temperature_unit, sizeof m.temperature_unit, "%s",
            temperature_unit_name (c->unit));
  snprintf (m.solver, sizeof m.solver, "%s", steady_solver_name (c->solver));
  memcpy (m.edges, c->edges, sizeof m.edges);
  for (int e = 0; e < EDGE_COUNT; ++e)
    m.kind[e] = c->bc[e].kind;
  snprintf (m.problem, sizeof m.problem, "%s", c->problem->name);
  snprintf (m.boundary, sizeof m.boundary, "%s", config_boundary_summary (c));
  const struct material_options *mo = &c->material;
  m.uniform_given = material_options_uniform (mo) && !mo->variable;
  m.conductivity = mo->conductivity;
  m.density = mo->density;
  m.heat_capacity = mo->heat_capacity;
  int status = conditions_meta (c, &m);
  if (status == HEATSIM_OK)
    status = h5_write_checkpoint (path, d, u, &m, c->compress);
  if (status != HEATSIM_OK)
    return status;
  ++o->files;
  return index_checkpoint (o, d, step);
}

/* Whether this run's checkpoint of step is the checkpoint it continues
   (the same file, whatever the path says).  Rank 0 decides for all, so
   that all take part in the write, or none.  */
static bool
is_continued_file (const struct config *c, const struct domain *d,
                   size_t step)
{
  bool same = false;
  char path[4096];
  struct stat ours, theirs;
  const char *input = c->restart ? c->restart : c->init;
  if (c->continues && d->rank == 0)
    same = pattern_name (path, sizeof path, c->output_dir, c->checkpoint_name,
                         step)
           && stat (path, &ours) == 0 && stat (input, &theirs) == 0
           && ours.st_dev == theirs.st_dev && ours.st_ino == theirs.st_ino;
  return domain_max (d, same ? 1.0 : 0.0) > 0.0;
}

/* A snapshot of the whole field, assembled on rank 0, which writes it.  */
static int
write_png (struct output *o, const struct domain *d, const struct field *u,
           size_t step)
{
  const struct config *c = o->cfg;
  char path[4096];
  const size_t number = pattern_kind (c->png_name) == PATTERN_FRAME
                        ? o->frames++ : step;
  if (!pattern_name (path, sizeof path, c->output_dir, c->png_name, number))
    {
      heatsim_error ("--png-name: file name too long");
      return HEATSIM_WRITE_FAILED;
    }
  struct png_meta m = { .step = step,
                        .time = config_record_time (c, step),
                        .problem = c->problem->name, .nx = c->nx,
                        .ny = c->ny, .lx = c->lx, .ly = c->ly,
                        .alpha = c->alpha, .dt = c->dt,
                        .provenance = c->provenance };
  ++o->files;
  struct field whole;
  if (!domain_gather (d, u, &whole))
    {
      heatsim_error ("%s: no memory to assemble the whole field", path);
      return HEATSIM_NO_MEMORY;
    }
  const int status = d->rank == 0
                     ? png_write_field (path, &whole, &o->png, &m) : HEATSIM_OK;
  domain_release (d, &whole);
  return status;
}

int
output_write_first (struct output *o, const struct domain *d,
                    const struct field *u)
{
  const struct config *c = o->cfg;
  const size_t step = c->start_step;
  const int png_status = c->png_every != 0 ? write_png (o, d, u, step)
                         : HEATSIM_OK;
  int h5_status = HEATSIM_OK;
  /* Rewriting the checkpoint continued would only change its
     provenance.  */
  if (c->checkpoint_every != 0)
    h5_status = is_continued_file (c, d, step) ? index_checkpoint (o, d, step)
                : write_checkpoint (o, d, u, step);
  return png_status != HEATSIM_OK ? png_status : h5_status;
}

int
output_write (struct output *o, const struct domain *d, const struct field *u,
              size_t step, bool last)
{
  const struct config *c = o->cfg;
  const bool png = due (c->png_every, step, last);
  const bool checkpoint = due (c->checkpoint_every, step, last);
  /* Every rank takes part in both writes, even after a failure of the
     first on some rank: they are collective.  */
  const int png_status = png ? write_png (o, d, u, step) : HEATSIM_OK;
  const int h5_status = checkpoint ? write_checkpoint (o, d, u, step)
                        : HEATSIM_OK;
  return png_status != HEATSIM_OK ? png_status : h5_status;
}

void
output_close (struct output *o)
{
  xdmf_free (&o->index);
}
