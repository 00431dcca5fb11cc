#include <config.h>

#include "xdmf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "diagnostics.h"
#include "status.h"


int
xdmf_add (struct xdmf_index *x, const struct xdmf_entry *e)
{
  if (x->count == x->capacity)
    {
      const size_t cap = x->capacity ? 2 * x->capacity : 16;
      struct xdmf_entry *more = realloc (x->entry, cap * sizeof *more);
      if (more == NULL)
        {
          heatsim_error ("out of memory for the checkpoint index");
          return HEATSIM_NO_MEMORY;
        }
      x->entry = more;
      x->capacity = cap;
    }
  char *copy = strdup (e->name);
  if (copy == NULL)
    {
      heatsim_error ("out of memory for the checkpoint index");
      return HEATSIM_NO_MEMORY;
    }
  x->entry[x->count] = *e;
  x->entry[x->count++].name = copy;
  return HEATSIM_OK;
}

/* The XML entities put_xml_text writes, and their characters.  */
static const struct {
  const char *entity;
  char c;
} xml_entities[] = {
  { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
  { "&apos;", '\'' },
};

/* Undo put_xml_text on the n bytes at s, into buf (len bytes).  False if
   it does not fit or holds an entity put_xml_text does not write.  */
static bool
xml_unescape (const char *s, size_t n, char *buf, size_t len)
{
  size_t out = 0;
  for (size_t k = 0; k < n; ++out)
    {
      if (out + 1 >= len)
        return false;
      if (s[k] != '&')
        {
          buf[out] = s[k++];
          continue;
        }
      size_t e = 0;
      const size_t count = sizeof xml_entities / sizeof xml_entities[0];
      while (e < count
             && strncmp (s + k, xml_entities[e].entity,
                         strlen (xml_entities[e].entity)) != 0)
        ++e;
      if (e == count || k + strlen (xml_entities[e].entity) > n)
        return false;
      buf[out] = xml_entities[e].c;
      k += strlen (xml_entities[e].entity);
    }
  buf[out] = '\0';
  return true;
}

/* The contents of the regular file at path, NUL-terminated, or NULL
   with errno set.  Free it.  */
static char *
read_text (const char *path)
{
  struct stat st;
  if (stat (path, &st) != 0)
    return NULL;
  if (!S_ISREG (st.st_mode))
    {
      errno = EINVAL;          /* a FIFO would block the run */
      return NULL;
    }
  FILE *fp = fopen (path, "r");
  if (fp == NULL)
    return NULL;
  char *text = NULL;
  size_t size = 0, used = 0;
  bool ok = true;
  for (;;)
    {
      if (used + 1 >= size)
        {
          const size_t bigger = size ? 2 * size : 65536;
          char *more = realloc (text, bigger);
          if (more == NULL)
            {
              ok = false;
              errno = ENOMEM;
              break;
            }
          text = more;
          size = bigger;
        }
      const size_t got = fread (text + used, 1, size - used - 1, fp);
      used += got;
      if (got == 0)
        break;
    }
  if (ferror (fp))
    ok = false;
  const int e = errno;
  fclose (fp);
  if (!ok)
    {
      free (text);
      errno = e;
      return NULL;
    }
  text[used] = '\0';
  return text;
}

/* Whether name is a regular file in dir.  */
static bool
file_exists (const char *dir, const char *name)
{
  char path[4096];
  struct stat st;
  return strchr (name, '/') == NULL
         && (size_t) snprintf (path, sizeof path, "%s/%s", dir, name)
            < sizeof path
         && stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/* Take over the entries of an index that xdmf_write wrote (in text) for
   steps and times before those this run starts at whose files are still
   in the output directory: a run continued there must not lose its first
   part.  Later ones are dropped, as this run writes them anew.  */
static int
index_keep (struct xdmf_index *x, const char *dir, size_t before,
            double before_time, xdmf_describe *describe, const char *text)
{
  static const char grid[] = "<Grid Name=\"step ";
  static const char open[] = "Format=\"HDF\">";
  static const char close[] = ":/field</DataItem>";
  int status = HEATSIM_OK;
  const char *p = text;
  while (status == HEATSIM_OK && (p = strstr (p, grid)) != NULL)
    {
      p += strlen (grid);
      char *end;
      const unsigned long long step = strtoull (p, &end, 10);
      const char *data = strstr (end, open);
      const char *stop = data ? strstr (data, close) : NULL;
      if (stop == NULL)
        break;
      data += strlen (open);
      char name[4096];
      if (*p >= '0' && *p <= '9' && *end == '"' && step < before
          && (x->count == 0 || step > x->entry[x->count - 1].step)
          && xml_unescape (data, (size_t) (stop - data), name, sizeof name)
          && file_exists (dir, name))
        {
          struct xdmf_entry e = { .step = (size_t) step, .name = name };
          if (describe (dir, &e) && e.time < before_time
              && (x->count == 0 || e.time > x->entry[x->count - 1].time))
            status = xdmf_add (x, &e);
        }
      p = stop;
    }
  return status;
}

int
xdmf_load (struct xdmf_index *x, const char *dir, size_t step, double time,
           xdmf_describe *describe)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, XDMF_NAME);
  char *text = read_text (path);
  if (text == NULL)
    {
      if (errno != ENOENT)
        heatsim_error ("warning: %s: cannot read the index of the earlier "
                       "checkpoints (%s); the new one starts at step %zu",
                       path, strerror (errno), step);
      return HEATSIM_OK;
    }
  const int status = index_keep (x, dir, step, time, describe, text);
  free (text);
  return status;
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

/* One checkpoint of the XDMF index as a uniform grid of the temporal
   collection.  The field is a 3-D mesh one node thick in z, because
   ParaView's readers put a 2DCoRectMesh in the YZ plane (where the
   default camera, looking down z, sees nothing), and XDMF lists
   dimensions, origin and spacing slowest first: z, y, x.  /field[j][i] is
   the node at x = x1 + i dx, y = y1 + j dy, z = 0: ORIGIN_DXDYDZ gives
   0 y1 x1, then the spacing.  */
static void
put_grid (FILE *fp, const struct xdmf_entry *e)
{
  fprintf (fp,
           "   <Grid Name=\"step %zu\" GridType=\"Uniform\">\n"
           "    <Time Value=\"%.17g\"/>\n"
           "    <Topology TopologyType=\"3DCoRectMesh\" "
           "Dimensions=\"1 %zu %zu\"/>\n"
           "    <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
           "     <DataItem Dimensions=\"3\" NumberType=\"Float\" "
           "Precision=\"8\" Format=\"XML\">0 %.17g %.17g</DataItem>\n"
           "     <DataItem Dimensions=\"3\" NumberType=\"Float\" "
           "Precision=\"8\" Format=\"XML\">%.17g %.17g %.17g</DataItem>\n"
           "    </Geometry>\n"
           "    <Attribute Name=\"u\" AttributeType=\"Scalar\" "
           "Center=\"Node\">\n"
           "     <DataItem Dimensions=\"1 %zu %zu\" NumberType=\"Float\" "
           "Precision=\"8\" Format=\"HDF\">",
           e->step, e->time, e->ny, e->nx, e->y1, e->x1,
           /* One layer: the z spacing is never used; dx keeps it sane.  */
           e->dx, e->dy, e->dx, e->ny, e->nx);
  put_xml_text (fp, e->name);
  fputs (":/field</DataItem>\n    </Attribute>\n", fp);
  static const char *const sets[] = { "conductivity",
                                      "volumetric_heat_capacity", "source" };
  for (size_t k = 0; k < sizeof sets / sizeof *sets; ++k)
    if (k < 2 ? e->material : e->source)
      {
        fprintf (fp, "    <Attribute Name=\"%s\" AttributeType=\"Scalar\" "
                 "Center=\"Node\">\n"
                 "     <DataItem Dimensions=\"1 %zu %zu\" "
                 "NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">",
                 sets[k], e->ny, e->nx);
        put_xml_text (fp, e->name);
        fprintf (fp, ":/%s</DataItem>\n    </Attribute>\n", sets[k]);
      }
  fputs ("   </Grid>\n", fp);
}

int
xdmf_write (const struct xdmf_index *x, const char *dir)
{
  char path[4096], tmp[4096];
  snprintf (path, sizeof path, "%s/%s", dir, XDMF_NAME);
  FILE *fp = atomic_fopen (path, tmp, sizeof tmp);
  if (fp == NULL)
    {
      heatsim_error ("%s: cannot create: %s", path, strerror (errno));
      return HEATSIM_WRITE_FAILED;
    }
  fprintf (fp, "<?xml version=\"1.0\" ?>\n"
           "<!-- heatsim %s checkpoints; /field[j][i] is the node at "
           "(x, y, z) = (x0 + i dx, y0 + j dy, 0), each grid's Geometry giving "
           "0 y0 x0 and its spacing -->\n<Xdmf Version=\"3.0\">\n"
           " <Domain>\n"
           "  <Grid Name=\"heatsim\" GridType=\"Collection\" "
           "CollectionType=\"Temporal\">\n", PACKAGE_VERSION);
  for (size_t k = 0; k < x->count; ++k)
    put_grid (fp, &x->entry[k]);
  fprintf (fp, "  </Grid>\n </Domain>\n</Xdmf>\n");
  if (atomic_fclose (fp, !ferror (fp), tmp, path))
    return HEATSIM_OK;
  heatsim_error ("%s: cannot write: %s", path, strerror (errno));
  return HEATSIM_WRITE_FAILED;
}

void
xdmf_free (struct xdmf_index *x)
{
  for (size_t k = 0; k < x->count; ++k)
    free (x->entry[k].name);
  free (x->entry);
  *x = (struct xdmf_index) { .entry = NULL };
}
