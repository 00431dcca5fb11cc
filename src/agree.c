/* That every rank of an MPI run runs the same simulation (agree.h): each
   rank hashes its options and input files, part by part, rank 0's hashes
   go to every rank, and a rank that holds another one names the first
   part that differs.  */
#include <config.h>

#include "agree.h"

#include "status.h"

#ifdef HEATSIM_MPI

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "colormap.h"
#include "diagnostics.h"
#include "domain.h"
#include "fnv1a.h"
#include "problem.h"
#include "run_config.h"
#include "strategy.h"

/* More than the parts that describe_options and describe_inputs add.  */
#define MAX_PARTS 64

/* What a rank runs, part by part: the option (and, for an input, the
   file) a message names, and the hash of the part's canonical bytes:
   each value on its own, strings by their characters, pointers by the
   names of what they point to, never a struct's padding or an address,
   which differ between processes.  */
struct digest {
  const char *name[MAX_PARTS];
  const char *path[MAX_PARTS];   /* the input file, or NULL: an option */
  uint64_t hash[MAX_PARTS];
  size_t n;
};

/* Begin the part called name: what is mixed next goes into its hash.  */
static void
part (struct digest *d, const char *name)
{
  d->name[d->n] = name;
  d->path[d->n] = NULL;
  d->hash[d->n] = FNV1A_OFFSET;
  ++d->n;
}

static void
mix (struct digest *d, const void *bytes, size_t len)
{
  d->hash[d->n - 1] = fnv1a (d->hash[d->n - 1], bytes, len);
}

static void
mix_count (struct digest *d, uint64_t v)
{
  mix (d, &v, sizeof v);
}

static void
mix_number (struct digest *d, double v)
{
  mix (d, &v, sizeof v);
}

/* NULL differs from every string; "" too, by the count before it.  */
static void
mix_text (struct digest *d, const char *s)
{
  mix_count (d, s == NULL ? UINT64_MAX : strlen (s));
  if (s != NULL)
    mix (d, s, strlen (s));
}

/* The options every rank must share: all but the rank-local ones
   (agree.h), in the order of the parts a message names first.  The
   input files' names are left out: their contents are compared
   (describe_inputs).  */
static void
describe_options (struct digest *d, const struct config *c)
{
  /* The kind of run first: other values (--steps, --max-steps) follow
     from it, and a message names what the user changed.  */
  part (d, "--steady");
  mix_count (d, c->steady);
  part (d, "--solver");
  mix_count (d, c->solver);
  part (d, "--scheme");
  mix_count (d, c->scheme);
  part (d, "--problem");
  mix_text (d, c->problem != NULL ? c->problem->name : NULL);
  part (d, "--boundary");
  mix_count (d, c->boundary);
  part (d, "--edges");
  mix_count (d, c->edges_given);
  for (int e = 0; e < EDGE_COUNT; ++e)
    mix_number (d, c->edges[e]);
  part (d, "--disk");
  mix_number (d, c->disk_radius);
  mix_number (d, c->disk_inside);
  mix_number (d, c->disk_outside);
  part (d, "--grid");
  mix_count (d, c->nx);
  mix_count (d, c->ny);
  part (d, "--length");
  mix_number (d, c->lx);
  mix_number (d, c->ly);
  part (d, "--alpha");
  mix_number (d, c->alpha);
  part (d, "--temperature-unit");
  mix_count (d, c->unit);
  const struct material_options *m = &c->material;
  part (d, "--conductivity, --density, --heat-capacity");
  mix_number (d, m->conductivity);
  mix_number (d, m->density);
  mix_number (d, m->heat_capacity);
  part (d, "--material");
  mix_count (d, m->defs);
  for (size_t k = 0; k < m->defs; ++k)
    mix_text (d, m->def[k].text);
  part (d, "--source, --source-range, --source-rect");
  mix_number (d, m->source);
  mix_number (d, m->source_range[0]);
  mix_number (d, m->source_range[1]);
  mix_count (d, m->rects);
  for (size_t k = 0; k < m->rects; ++k)
    for (int e = 0; e < 5; ++e)
      mix_number (d, m->rect[k][e]);
  part (d, "--initial-temperature");
  mix_number (d, m->initial_temperature);
  part (d, "--start-time");
  mix_count (d, c->given.start_time);
  mix_number (d, c->start_time);
  part (d, "--steps");
  mix_count (d, c->steps);
  part (d, "--dt");
  mix_number (d, c->dt);
  part (d, "--end-time");
  mix_number (d, c->end_time);
  part (d, "--force");
  mix_count (d, c->force);
  part (d, "--tol");
  mix_number (d, c->tol);
  part (d, "--rtol");
  mix_number (d, c->rtol);
  part (d, "--max-steps");
  mix_count (d, c->max_steps);
  part (d, "--residual-every");
  mix_count (d, c->residual_every);
  part (d, "--nan-check-every");
  mix_count (d, c->nan_check_every);
  part (d, "--offload");
  mix_text (d, c->strategy_auto || c->strategy == NULL ? "auto"
            : c->strategy->name);
  part (d, "--kernel");
  mix_count (d, c->kernel);
  part (d, "--bench");
  mix_count (d, c->bench);
  part (d, "--monitor");
  mix_text (d, c->monitor);
  part (d, "--monitor-every");
  mix_count (d, c->monitor_every);
  part (d, "--probe");
  mix_count (d, c->probes);
  for (size_t k = 0; k < c->probes; ++k)
    {
      mix_number (d, c->probe_xy[k][0]);
      mix_number (d, c->probe_xy[k][1]);
    }
  part (d, "--probe-every");
  mix_count (d, c->probe_every);
  part (d, "--probe-file");
  mix_text (d, c->probe_file);
  part (d, "--profile");
  mix_count (d, c->profile);
  for (int k = 0; k < 4; ++k)
    mix_number (d, c->profile_ends[k]);
  mix_count (d, c->profile_points);
  part (d, "--output-dir");
  mix_text (d, c->output_dir);
  part (d, "--png-every");
  mix_count (d, c->png_every);
  part (d, "--png-name");
  mix_text (d, c->png_name);
  part (d, "--colormap");
  mix_text (d, c->colormap != NULL ? c->colormap->name : NULL);
  part (d, "--png-depth");
  mix_count (d, (uint64_t) c->png_depth);
  part (d, "--png-scale");
  mix_count (d, c->png_scale);
  part (d, "--png-legend");
  mix_count (d, c->png_legend);
  part (d, "--range");
  mix_count (d, c->range_given);
  mix_number (d, c->range[0]);
  mix_number (d, c->range[1]);
  part (d, "--checkpoint-every");
  mix_count (d, c->checkpoint_every);
  part (d, "--checkpoint-name");
  mix_text (d, c->checkpoint_name);
  part (d, "--compress");
  mix_count (d, (uint64_t) c->compress);
  part (d, "--restart");
  mix_count (d, c->restart != NULL);
  part (d, "--init");
  mix_count (d, c->init != NULL);
  part (d, "--init-dataset");
  mix_text (d, c->init_dataset);
  part (d, "--init-range");
  mix_number (d, c->init_range[0]);
  mix_number (d, c->init_range[1]);
  /* Which options were named decides what a restart derives from its
     checkpoint.  All members are bool: no padding, each 0 or 1.  */
  part (d, "the set of options given");
  mix (d, &c->given, sizeof c->given);
}

/* The hash of the bytes of the file at path; 0 where it is not a
   regular file that can be read (the run's loading of it says why).  */
static uint64_t
file_hash (const char *path)
{
  struct stat st;
  FILE *fp = stat (path, &st) == 0 && S_ISREG (st.st_mode)
             ? fopen (path, "rb") : NULL;
  if (fp == NULL)
    return 0;
  uint64_t h = FNV1A_OFFSET;
  unsigned char buf[1 << 16];
  size_t n;
  while ((n = fread (buf, 1, sizeof buf, fp)) > 0)
    h = fnv1a (h, buf, n);
  const bool read = !ferror (fp);
  fclose (fp);
  /* 0 means unknown: a file whose hash is 0 counts as 1.  */
  return !read ? 0 : h == 0 ? 1 : h;
}

static void
describe_inputs (struct digest *d, const struct config *c)
{
  const char *opt[] = { "--init", "--restart", "--material-map",
                        "--source-map" };
  const char *path[] = { c->init, c->restart, c->material.map,
                         c->material.source_map };
  for (size_t k = 0; k < sizeof opt / sizeof opt[0]; ++k)
    if (path[k] != NULL)
      {
        part (d, opt[k]);
        d->path[d->n - 1] = path[k];
        d->hash[d->n - 1] = file_hash (path[k]);
      }
}

/* This rank's first part that differs from rank 0's (hashes in rank0),
   with its message; 0 where none does.  The parts line up: the options
   agree before the inputs are compared, so both ranks have the same.  */
static int
first_difference (const struct digest *d, const uint64_t *rank0)
{
  for (size_t k = 0; k < d->n; ++k)
    if (d->hash[k] != rank0[k])
      {
        if (d->path[k] == NULL)
          {
            heatsim_error ("%s differs from rank 0's: every rank must be "
                           "given the same options", d->name[k]);
            return HEATSIM_USAGE;
          }
        /* Unreadable here or on rank 0: loading the file says so.  */
        if (d->hash[k] == 0 || rank0[k] == 0)
          continue;
        heatsim_error ("%s: %s differs from rank 0's file: every rank "
                       "must read the same contents", d->name[k],
                       d->path[k]);
        return HEATSIM_BAD_FILE;
      }
  return HEATSIM_OK;
}

/* Rank 0's hashes of d's parts on every rank, in rank0.  */
static void
share_rank0 (const struct digest *d, uint64_t *rank0)
{
  memcpy (rank0, d->hash, d->n * sizeof *rank0);
  MPI_Bcast (rank0, (int) d->n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

int
agree_across_ranks (const struct config *cfg)
{
  int ranks;
  MPI_Comm_size (MPI_COMM_WORLD, &ranks);
  if (ranks == 1)
    return HEATSIM_OK;
  struct digest d = { .n = 0 };
  uint64_t rank0[MAX_PARTS];
  describe_options (&d, cfg);
  share_rank0 (&d, rank0);
  int status = domain_agree (first_difference (&d, rank0));
  if (status != HEATSIM_OK)
    return status;
  /* The same options: the same inputs named, so the same parts.  */
  const size_t options = d.n;
  describe_inputs (&d, cfg);
  if (d.n == options)
    return HEATSIM_OK;
  share_rank0 (&d, rank0);
  return domain_agree (first_difference (&d, rank0));
}

#else

int
agree_across_ranks (const struct config *cfg)
{
  (void) cfg;
  return HEATSIM_OK;
}

#endif
