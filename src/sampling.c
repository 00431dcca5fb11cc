#include <config.h>

#include "sampling.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "diagnostics.h"
#include "domain.h"
#include "field.h"
#include "output.h"
#include "parse.h"
#include "pattern.h"
#include "run_config.h"
#include "status.h"

/* v in the fewest digits from 15 that read back as v: "0.1", not
   "0.10000000000000001".  Not format_real's shortest, which writes
   1e+06 where this writes 1000000: a restart continues a probe file
   only under the same header.  */
static void
shortest (char *buf, size_t len, double v)
{
  for (int digits = 15; digits <= 17; ++digits)
    {
      snprintf (buf, len, "%.*g", digits, v);
      if (strtod (buf, NULL) == v)
        return;
    }
}

/* "step,time,T(x1;y1),...\n", the positions as the probes were given. */
static char *
probe_header (const struct config *cfg)
{
  const size_t len = 16 + cfg->probes * 64;
  char *h = malloc (len);
  if (h == NULL)
    return NULL;
  size_t n = (size_t) snprintf (h, len, "step,time");
  for (size_t k = 0; k < cfg->probes; ++k)
    {
      char x[32], y[32];
      shortest (x, sizeof x, cfg->probe_xy[k][0]);
      shortest (y, sizeof y, cfg->probe_xy[k][1]);
      n += (size_t) snprintf (h + n, len - n, ",T(%s;%s)", x, y);
    }
  snprintf (h + n, len - n, "\n");
  return h;
}

/* The point and the domain in the digits that read back as each: %g
   rounded 1.0000001 to 1, and the point seemed to lie on the edge.  */
static int
outside (const struct config *cfg, const char *opt, double x, double y)
{
  char text[4][32];
  const double v[4] = { x, y, cfg->lx, cfg->ly };
  for (int k = 0; k < 4; ++k)
    format_real (text[k], sizeof text[k], v[k]);
  heatsim_error ("%s: (%s, %s) lies outside the domain [0, %s] x [0, %s]",
                 opt, text[0], text[1], text[2], text[3]);
  return HEATSIM_USAGE;
}

/* The points of the profile, evenly spaced from its start to its end.  */
static int
place_profile (struct sampling *s, const struct config *cfg)
{
  const double *e = cfg->profile_ends;
  struct probe_point ends[2];
  for (int k = 0; k < 2; ++k)
    if (!probe_place (cfg, e[2 * k], e[2 * k + 1], &ends[k]))
      return outside (cfg, "--profile", e[2 * k], e[2 * k + 1]);
  const size_t n = cfg->profile_points
                   ? cfg->profile_points
                   : profile_default_points (cfg, e[0], e[1], e[2], e[3]);
  s->profile = malloc (n * sizeof *s->profile);
  if (s->profile == NULL)
    return HEATSIM_NO_MEMORY;
  s->profile_points = n;
  for (size_t k = 0; k < n; ++k)
    {
      const double t = (double) k / (double) (n - 1);
      /* The ends exactly, and between them points that cannot leave
         the domain by round-off.  */
      const double x = k == n - 1 ? e[2] : fmin (fmax (e[0] + t * (e[2]
                                                                   - e[0]),
                                                       0.0), cfg->lx);
      const double y = k == n - 1 ? e[3] : fmin (fmax (e[1] + t * (e[3]
                                                                   - e[1]),
                                                       0.0), cfg->ly);
      probe_place (cfg, x, y, &s->profile[k]);
    }
  return HEATSIM_OK;
}

/* Whether path is a file in the output directory that the profile
   writes: PROFILE_FINAL, or a name of PROFILE_PATTERN where checkpoints
   are written.  */
static bool
profile_names (const struct config *cfg, const char *path)
{
  char dir[PATH_MAX];
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  size_t step;
  return directory_of (path, dir, sizeof dir)
         && series_same_file (dir, cfg->output_dir)
         && (strcmp (base, PROFILE_FINAL) == 0
             || (cfg->checkpoint_every != 0
                 && pattern_match (PROFILE_PATTERN, base, &step)));
}

/* The profile's files must not be another file of the run.  */
static int
check_profile_files (const struct config *cfg, const char *probe_path)
{
  char final[PATH_MAX];
  snprintf (final, sizeof final, "%s/%s", cfg->output_dir, PROFILE_FINAL);
  const char *clash
    = output_writes (cfg, final)
      /* PROFILE_PATTERN's files come with the checkpoints alone.  */
      || (cfg->checkpoint_every
          && ((cfg->png_every
               && pattern_overlap (cfg->png_name, PROFILE_PATTERN))
              || pattern_overlap (cfg->checkpoint_name, PROFILE_PATTERN)))
      ? "a snapshot, checkpoint or XDMF index"
      : cfg->monitor && profile_names (cfg, cfg->monitor) ? "--monitor"
      : probe_path && profile_names (cfg, probe_path) ? "--probe-file"
      : NULL;
  if (clash == NULL)
    return HEATSIM_OK;
  heatsim_error ("--profile: its files, %s/%s and %s/%s, would overwrite "
                 "%s", cfg->output_dir, PROFILE_FINAL, cfg->output_dir,
                 PROFILE_PATTERN, clash);
  return HEATSIM_USAGE;
}

/* The profile's files must not be an input file of the run, however
   it is named.  */
static int
keeps_inputs (const struct config *cfg)
{
  struct config_input in[CONFIG_INPUTS_MAX];
  const size_t n = config_inputs (cfg, in);
  for (size_t k = 0; k < n; ++k)
    {
      char real[PATH_MAX];
      const char *file = realpath (in[k].path, real) != NULL ? real
                         : in[k].path;
      if (profile_names (cfg, file))
        {
          const char *slash = strrchr (file, '/');
          heatsim_error ("%s: %s would be overwritten by the profile, "
                         "%s/%s (--profile)", in[k].option, in[k].path,
                         cfg->output_dir, slash ? slash + 1 : file);
          return HEATSIM_USAGE;
        }
    }
  return HEATSIM_OK;
}

/* What can be checked of the profile's files before the first step:
   the output directory takes files, and the final one's name is free
   for a file.  */
static int
profile_writable (const struct config *cfg)
{
  int status = output_dir_writable (cfg->output_dir);
  char final[PATH_MAX];
  struct stat st;
  snprintf (final, sizeof final, "%s/%s", cfg->output_dir, PROFILE_FINAL);
  if (status == HEATSIM_OK && lstat (final, &st) == 0
      && !S_ISREG (st.st_mode) && !S_ISLNK (st.st_mode))
    {
      heatsim_error ("--profile: %s is not a regular file", final);
      status = HEATSIM_BAD_FILE;
    }
  return status;
}

/* On rank 0: the probe file and the profile's files.  */
static int
check_files (struct sampling *s, const struct config *cfg)
{
  if ((cfg->profile || (cfg->probes > 0 && cfg->probe_file == NULL))
      && !make_directories (cfg->output_dir))
    {
      heatsim_error ("--output-dir: cannot create '%s': %s", cfg->output_dir,
                     strerror (errno));
      return HEATSIM_BAD_FILE;
    }
  if (cfg->probes > 0 && cfg->monitor != NULL
      && series_same_file (s->path, cfg->monitor))
    {
      heatsim_error ("--probe-file: %s is also the --monitor file", s->path);
      return HEATSIM_USAGE;
    }
  int status = cfg->probes == 0 ? HEATSIM_OK
               : series_check (&s->file, "--probe-file", "probe", s->path,
                               s->header, cfg, cfg->probe_every,
                               "--probe-every");
  if (status == HEATSIM_OK && cfg->profile)
    status = check_profile_files (cfg, cfg->probes ? s->path : NULL);
  if (status == HEATSIM_OK && cfg->profile)
    status = keeps_inputs (cfg);
  if (status == HEATSIM_OK && cfg->profile)
    status = profile_writable (cfg);
  return status;
}

int
sampling_check (struct sampling *s, const struct config *cfg,
                const struct domain *d)
{
  *s = SAMPLING_NONE;
  for (size_t k = 0; k < cfg->probes; ++k)
    if (!probe_place (cfg, cfg->probe_xy[k][0], cfg->probe_xy[k][1],
                      &s->probes[k]))
      return outside (cfg, "--probe", cfg->probe_xy[k][0],
                      cfg->probe_xy[k][1]);
  int status = cfg->profile ? place_profile (s, cfg) : HEATSIM_OK;
  if (status != HEATSIM_OK)
    return status;
  if (cfg->probes > 0)
    {
      s->header = probe_header (cfg);
      if (s->header == NULL)
        return HEATSIM_NO_MEMORY;
      if (cfg->probe_file != NULL)
        snprintf (s->path, sizeof s->path, "%s", cfg->probe_file);
      else if ((size_t) snprintf (s->path, sizeof s->path, "%s/probes.csv",
                                  cfg->output_dir) >= sizeof s->path)
        {
          heatsim_error ("--output-dir: %s: name too long", cfg->output_dir);
          return HEATSIM_USAGE;
        }
    }
  const size_t most = cfg->probes > s->profile_points ? cfg->probes
                      : s->profile_points;
  if (most > 0)
    {
      s->nodes = malloc (4 * most * sizeof *s->nodes);
      s->values = malloc (most * sizeof *s->values);
      if (s->nodes == NULL || s->values == NULL)
        {
          heatsim_error ("out of memory for the probes");
          return HEATSIM_NO_MEMORY;
        }
    }
  return d->rank == 0 ? check_files (s, cfg) : HEATSIM_OK;
}

int
sampling_begin (struct sampling *s, const struct domain *d)
{
  return s->header != NULL && d->rank == 0 ? series_begin (&s->file)
         : HEATSIM_OK;
}

static bool
probe_due (const struct config *cfg, size_t step, bool last)
{
  return cfg->probes > 0 && (last || step == cfg->start_step
                             || step % cfg->probe_every == 0);
}

/* With each checkpoint: the first state, every K steps, the last.  */
static bool
checkpoint_due (const struct config *cfg, size_t step, bool last)
{
  return cfg->checkpoint_every != 0
         && (last || step == cfg->start_step
             || step % cfg->checkpoint_every == 0);
}

bool
sampling_due (const struct config *cfg, size_t step, bool last)
{
  return probe_due (cfg, step, last)
         || (cfg->profile && (last || checkpoint_due (cfg, step, last)));
}

static int
write_probes (struct sampling *s, const struct config *cfg,
              const struct domain *d, const struct field *u, size_t step,
              bool last)
{
  probe_sample_many (d, u, s->probes, cfg->probes, s->nodes, s->values);
  if (!series_takes (&s->file, cfg, step, last))
    return HEATSIM_OK;
  const size_t len = 64 + 26 * cfg->probes;
  char *row = malloc (len);
  if (row == NULL)
    {
      heatsim_error ("--probe-file: out of memory for a row");
      return HEATSIM_NO_MEMORY;
    }
  size_t n = (size_t) snprintf (row, len, "%zu,", step);
  /* The simulated time, as the monitor and checkpoints give it: a run
     from --init of a checkpoint or with --start-time does not start at
     0, so step dt is not its time.  */
  if (!cfg->steady)
    n += (size_t) snprintf (row + n, len - n, "%.17g",
                            config_time (cfg, step));
  for (size_t k = 0; k < cfg->probes; ++k)
    n += (size_t) (isfinite (s->values[k])
                   ? snprintf (row + n, len - n, ",%.17g", s->values[k])
                   : snprintf (row + n, len - n, ","));
  n += (size_t) snprintf (row + n, len - n, "\n");
  const int status = series_append (&s->file, step, row, n);
  free (row);
  return status;
}

/* The profile into the file of the output directory called
   PROFILE_FINAL, or by PROFILE_PATTERN for step where numbered, whole or
   not at all.  */
static int
write_profile (struct sampling *s, const struct config *cfg,
               const struct domain *d, const struct field *u, bool numbered,
               size_t step)
{
  probe_sample_many (d, u, s->profile, s->profile_points, s->nodes,
                     s->values);
  if (d->rank != 0)
    return HEATSIM_OK;
  char path[PATH_MAX], tmp[PATH_MAX];
  if (numbered ? !pattern_name (path, sizeof path, cfg->output_dir,
                                PROFILE_PATTERN, step)
      : (size_t) snprintf (path, sizeof path, "%s/%s", cfg->output_dir,
                           PROFILE_FINAL) >= sizeof path)
    {
      heatsim_error ("--profile: %s: name too long", cfg->output_dir);
      return HEATSIM_WRITE_FAILED;
    }
  FILE *fp = atomic_fopen (path, tmp, sizeof tmp);
  if (fp == NULL)
    {
      heatsim_error ("--profile: %s: cannot create: %s", path,
                     strerror (errno));
      return HEATSIM_WRITE_FAILED;
    }
  const struct probe_point *p = s->profile;
  bool ok = fputs ("s,x,y,T\n", fp) >= 0;
  for (size_t k = 0; k < s->profile_points && ok; ++k)
    {
      const double along = hypot (p[k].x - p[0].x, p[k].y - p[0].y);
      ok = (isfinite (s->values[k])
            ? fprintf (fp, "%.17g,%.17g,%.17g,%.17g\n", along, p[k].x,
                       p[k].y, s->values[k])
            : fprintf (fp, "%.17g,%.17g,%.17g,\n", along, p[k].x, p[k].y))
           > 0;
    }
  if (!atomic_fclose (fp, ok, tmp, path))
    {
      heatsim_error ("--profile: %s: cannot write: %s", path,
                     strerror (errno));
      return HEATSIM_WRITE_FAILED;
    }
  return HEATSIM_OK;
}

int
sampling_write (struct sampling *s, const struct config *cfg,
                const struct domain *d, const struct field *u, size_t step,
                bool last)
{
  int status = probe_due (cfg, step, last)
               ? write_probes (s, cfg, d, u, step, last) : HEATSIM_OK;
  if (cfg->profile && checkpoint_due (cfg, step, last))
    {
      const int written = write_profile (s, cfg, d, u, true, step);
      status = status != HEATSIM_OK ? status : written;
    }
  if (cfg->profile && last)
    {
      const int written = write_profile (s, cfg, d, u, false, step);
      status = status != HEATSIM_OK ? status : written;
    }
  return status;
}

int
sampling_close (struct sampling *s)
{
  const int status = series_close (&s->file);
  free (s->header);
  free (s->profile);
  free (s->nodes);
  free (s->values);
  *s = SAMPLING_NONE;
  return status;
}
