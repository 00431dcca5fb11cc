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

#include "diagnostics.h"
#include "domain.h"
#include "fnv1a.h"
#include "options.h"
#include "run_config.h"

/* More than the parts that describe_options and describe_inputs add
   (see part).  */
#define MAX_PARTS 256

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

/* Begin the part called name: what is mixed next goes into its hash.
   Past MAX_PARTS (over twice the options there are) it goes into the
   last part: still compared, named less precisely.  */
static void
part (struct digest *d, const char *name)
{
  if (d->n == MAX_PARTS)
    return;
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

/* NULL differs from every string; "" too, by the count before it.  */
static void
mix_text (struct digest *d, const char *s)
{
  mix_count (d, s == NULL ? UINT64_MAX : strlen (s));
  if (s != NULL)
    mix (d, s, strlen (s));
}

/* Options whose values every rank keeps to itself: its own device, and
   what only rank 0 prints.  */
static const char *const rank_local[] = {
  "device", "require-device", "quiet", "progress-every", "json"
};

/* Options that name an input file: its contents are compared
   (describe_inputs), not its name, which a node-local copy may change.  */
static const char *const input_options[] = {
  "init", "restart", "material-map", "source-map", "source-schedule"
};

static bool
listed (const char *name, const char *const *list, size_t n)
{
  for (size_t k = 0; k < n; ++k)
    if (strcmp (name, list[k]) == 0)
      return true;
  return false;
}

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* The settings every rank must share, one part per option of the
   table (options.h), in its order: the values given, as given (every
   value of a repeatable option in turn), or none.  Driven by the table,
   so an option added to it is compared without a line here.  An input
   option counts as given or not; its file is compared later.  */
static void
describe_options (struct digest *d, const struct config *c)
{
  for (unsigned k = 0; k < options_count (); ++k)
    {
      const char *name = options_long_name (k);
      if (listed (name, rank_local, COUNT (rank_local)))
        continue;
      const bool input = listed (name, input_options, COUNT (input_options));
      part (d, name);
      for (size_t i = 0; i < c->setting_count; ++i)
        if (c->settings[i].option == k)
          mix_text (d, input ? "" : c->settings[i].value);
    }
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

/* The file of a value given as @FILE (--bc, --surface-convection): its
   name is compared with the option's text, its contents here.  */
static void
describe_schedule (struct digest *d, const char *name,
                   const struct schedule *s)
{
  if (s->path == NULL)
    return;
  part (d, name);
  d->path[d->n - 1] = s->path;
  d->hash[d->n - 1] = file_hash (s->path);
}

/* The input files given, in the table's order, so that the parts of
   ranks given the same options line up; then the schedule files of the
   edges and the face cooling.  */
static void
describe_inputs (struct digest *d, const struct config *c)
{
  for (unsigned k = 0; k < options_count (); ++k)
    if (listed (options_long_name (k), input_options, COUNT (input_options)))
      for (size_t i = 0; i < c->setting_count; ++i)
        if (c->settings[i].option == k && c->settings[i].value != NULL)
          {
            part (d, options_long_name (k));
            d->path[d->n - 1] = c->settings[i].value;
            d->hash[d->n - 1] = file_hash (c->settings[i].value);
          }
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      describe_schedule (d, "bc", &c->bc[e].value);
      describe_schedule (d, "bc", &c->bc[e].h);
      describe_schedule (d, "bc", &c->bc[e].ambient);
    }
  describe_schedule (d, "surface-convection", &c->surface_h);
  describe_schedule (d, "surface-convection", &c->surface_ambient);
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
            heatsim_error ("--%s differs from rank 0's: every rank must be "
                           "given the same options", d->name[k]);
            return HEATSIM_USAGE;
          }
        /* Unreadable here or on rank 0: loading the file says so.  */
        if (d->hash[k] == 0 || rank0[k] == 0)
          continue;
        heatsim_error ("--%s: %s differs from rank 0's file: every rank "
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
  if (domain_world_size () == 1)
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
