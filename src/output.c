#include <config.h>

#include "output.h"

#include <ctype.h>
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "domain.h"
#include "h5io.h"
#include "options.h"
#include "report.h"
#include "solver.h"
#include "status.h"
#include "strategy.h"

#define XDMF_NAME "heatsim.xmf"

/* Where the step conversion of a valid pattern starts and its width.  */
static const char *
find_conversion (const char *pattern, int *width)
{
  const char *conv = NULL;
  for (const char *p = pattern; *p; ++p)
    {
      if (*p == '/')
        return NULL;
      if (*p != '%')
        continue;
      if (p[1] == '%')
        {
          ++p;
          continue;
        }
      if (conv != NULL)
        return NULL;                   /* a second conversion */
      const char *q = p + 1;
      int w = 0;
      while (isdigit ((unsigned char) *q) && w <= 20)
        w = 10 * w + (*q++ - '0');
      if (*q != 'd' || w > 20)
        return NULL;
      conv = p;
      *width = w;
      p = q;
    }
  return conv;
}

bool
output_pattern_ok (const char *pattern)
{
  int width;
  return find_conversion (pattern, &width) != NULL;
}

/* Append text[0..n) to buf with '%%' turned into '%'.  */
static bool
append_literal (char **out, char *end, const char *text, size_t n)
{
  for (size_t k = 0; k < n; ++k)
    {
      if (text[k] == '%')
        ++k;                           /* '%%' */
      if (*out + 1 >= end)
        return false;
      *(*out)++ = text[k];
    }
  return true;
}

bool
output_name (char *buf, size_t len, const char *dir, const char *pattern,
             size_t step)
{
  int width = 0;
  const char *conv = find_conversion (pattern, &width);
  int n = snprintf (buf, len, "%s/", dir);
  if (conv == NULL || n < 0 || (size_t) n >= len)
    return false;
  char *out = buf + n, *end = buf + len;
  if (!append_literal (&out, end, pattern, (size_t) (conv - pattern)))
    return false;
  n = snprintf (out, (size_t) (end - out), "%0*zu", width, step);
  if (n < 0 || n >= end - out)
    return false;
  out += n;
  const char *rest = strchr (conv, 'd') + 1;
  if (!append_literal (&out, end, rest, strlen (rest)))
    return false;
  *out = '\0';
  return true;
}

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

int
output_open (struct output *o, const struct config *cfg,
             const struct domain *d, const struct field *initial)
{
  *o = (struct output) { .cfg = cfg };
  o->png = (struct png_style) { .colormap = cfg->colormap,
                                .depth = cfg->png_depth,
                                .lo = cfg->range[0], .hi = cfg->range[1] };
  if (!cfg->range_given)
    {
      full_range (initial, &o->png.lo, &o->png.hi);
      o->png.lo = domain_min (d, o->png.lo);
      o->png.hi = domain_max (d, o->png.hi);
      if (!(o->png.hi > o->png.lo))
        o->png.hi = o->png.lo + 1.0;
    }
  if (cfg->png_every == 0 && cfg->checkpoint_every == 0)
    return HEATSIM_OK;
  if (!make_directories (cfg->output_dir))
    {
      heatsim_error ("--output-dir: cannot create '%s': %s", cfg->output_dir,
                     strerror (errno));
      return HEATSIM_USAGE;
    }
  return HEATSIM_OK;
}

static bool
due (size_t every, size_t step, bool last)
{
  return every != 0 && (last || step % every == 0);
}

bool
output_due (const struct output *o, size_t step, bool last)
{
  return due (o->cfg->png_every, step, last)
         || due (o->cfg->checkpoint_every, step, last);
}

/* Write s to fp as XML text: checkpoint names may hold any character
   but '/'.  */
static void
put_xml_text (FILE *fp, const char *s)
{
  for (; *s != '\0'; ++s)
    switch (*s)
      {
      case '&': fputs ("&amp;", fp); break;
      case '<': fputs ("&lt;", fp); break;
      case '>': fputs ("&gt;", fp); break;
      case '"': fputs ("&quot;", fp); break;
      case '\'': fputs ("&apos;", fp); break;
      default: putc (*s, fp); break;
      }
}

/* Rewrite the XDMF index of the checkpoints written so far.  */
static bool
write_xdmf (const struct output *o)
{
  const struct config *c = o->cfg;
  char path[4096], tmp[4096];
  snprintf (path, sizeof path, "%s/%s", c->output_dir, XDMF_NAME);
  FILE *fp = atomic_fopen (path, tmp, sizeof tmp);
  if (fp == NULL)
    {
      heatsim_error ("%s: cannot create: %s", path, strerror (errno));
      return false;
    }
  fprintf (fp, "<?xml version=\"1.0\" ?>\n"
           "<!-- heatsim %s checkpoints; cell (i,j) at (x,y) = (i dx, j dy) "
           "-->\n<Xdmf Version=\"3.0\">\n <Domain>\n"
           "  <Grid Name=\"heatsim\" GridType=\"Collection\" "
           "CollectionType=\"Temporal\">\n", PACKAGE_VERSION);
  for (size_t k = 0; k < o->ncheckpoints; ++k)
    {
      char file[4096];
      output_name (file, sizeof file, ".", c->checkpoint_name,
                   o->checkpoints[k]);
      fprintf (fp,
               "   <Grid Name=\"step %zu\" GridType=\"Uniform\">\n"
               "    <Time Value=\"%.17g\"/>\n"
               "    <Topology TopologyType=\"2DCoRectMesh\" "
               "Dimensions=\"%zu %zu\"/>\n"
               "    <Geometry GeometryType=\"ORIGIN_DXDY\">\n"
               "     <DataItem Dimensions=\"2\" NumberType=\"Float\" "
               "Precision=\"8\" Format=\"XML\">%.17g %.17g</DataItem>\n"
               "     <DataItem Dimensions=\"2\" NumberType=\"Float\" "
               "Precision=\"8\" Format=\"XML\">%.17g %.17g</DataItem>\n"
               "    </Geometry>\n"
               "    <Attribute Name=\"u\" AttributeType=\"Scalar\" "
               "Center=\"Node\">\n"
               "     <DataItem Dimensions=\"%zu %zu\" NumberType=\"Float\" "
               "Precision=\"8\" Format=\"HDF\">",
               o->checkpoints[k], (double) o->checkpoints[k] * c->dt, c->ny,
               c->nx, config_dy (c), config_dx (c), config_dy (c),
               config_dx (c), c->ny, c->nx);
      put_xml_text (fp, file + 2);
      fputs (":/field</DataItem>\n    </Attribute>\n   </Grid>\n", fp);
    }
  fprintf (fp, "  </Grid>\n </Domain>\n</Xdmf>\n");
  if (atomic_fclose (fp, !ferror (fp), tmp, path))
    return true;
  heatsim_error ("%s: cannot write: %s", path, strerror (errno));
  return false;
}

/* A checkpoint, written by all ranks together into one file.  */
static bool
write_checkpoint (struct output *o, const struct domain *d,
                  const struct field *u, size_t step)
{
  const struct config *c = o->cfg;
  char path[4096];
  if (!output_name (path, sizeof path, c->output_dir, c->checkpoint_name,
                    step))
    {
      heatsim_error ("--checkpoint-name: file name too long");
      return false;
    }
  struct checkpoint_meta m = {
    .step = step, .time = (double) step * c->dt, .dt = c->dt,
    .alpha = c->alpha, .nx = c->nx, .ny = c->ny, .lx = c->lx, .ly = c->ly,
    .steady = c->steady,
  };
  snprintf (m.problem, sizeof m.problem, "%s", c->problem->name);
  snprintf (m.boundary, sizeof m.boundary, "%s", boundary_name (c->boundary));
  if (!h5_write_checkpoint (path, d, u, &m, c->compress))
    return false;
  if (o->ncheckpoints == o->capacity)
    {
      size_t cap = o->capacity ? 2 * o->capacity : 16;
      size_t *more = realloc (o->checkpoints, cap * sizeof *more);
      if (more == NULL)
        {
          heatsim_error ("out of memory for the checkpoint index");
          return false;
        }
      o->checkpoints = more;
      o->capacity = cap;
    }
  o->checkpoints[o->ncheckpoints++] = step;
  ++o->files;
  return d->rank != 0 || write_xdmf (o);
}

/* A snapshot of the whole field, assembled on rank 0, which writes it.  */
static bool
write_png (struct output *o, const struct domain *d, const struct field *u,
           size_t step)
{
  const struct config *c = o->cfg;
  char path[4096];
  if (!output_name (path, sizeof path, c->output_dir, c->png_name, step))
    {
      heatsim_error ("--png-name: file name too long");
      return false;
    }
  struct png_meta m = { .step = step, .time = (double) step * c->dt,
                        .problem = c->problem->name };
  ++o->files;
  struct field whole;
  if (!domain_gather (d, u, &whole))
    {
      heatsim_error ("%s: no memory to assemble the whole field", path);
      return false;
    }
  bool ok = d->rank != 0 || png_write_field (path, &whole, &o->png, &m);
  domain_release (d, &whole);
  return ok;
}

int
output_step (struct output *o, struct solver *s, size_t step, bool last)
{
  const struct config *c = o->cfg;
  bool png = due (c->png_every, step, last);
  bool checkpoint = due (c->checkpoint_every, step, last);
  if (!png && !checkpoint)
    return HEATSIM_OK;
  double t0 = omp_get_wtime ();
  s->strategy->fetch (s);          /* s->u: the grid with the newest step */
  /* Every rank takes part in both writes, even after a failure of the
     first on some rank: they are collective.  */
  bool ok = !png || write_png (o, s->domain, &s->u, step);
  ok = (!checkpoint || write_checkpoint (o, s->domain, &s->u, step)) && ok;
  o->seconds += omp_get_wtime () - t0;
  return ok ? HEATSIM_OK : HEATSIM_FAILURE;
}

void
output_close (struct output *o)
{
  free (o->checkpoints);
  o->checkpoints = NULL;
}
