#include <config.h>

#include "material.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"
#include "domain.h"
#include "h5io.h"
#include "input_file.h"
#include "parse.h"
#include "png_io.h"
#include "run_config.h"
#include "schedule.h"
#include "status.h"
#include "sysmem.h"

/* Room-temperature properties: k W/(m K), rho kg/m^3, c_p J/(kg K).  All
   but fr4 from Incropera, DeWitt, Bergman and Lavine, Fundamentals of
   Heat and Mass Transfer, appendix A (tables A.1 to A.6); fr4 from
   typical FR-4 datasheet values (through the board).  man/heatsim.1
   lists them with their sources.  */
static const struct builtin {
  const char *name;
  double conductivity, density, heat_capacity;
} builtins[] = {
  { "copper", 401.0, 8933.0, 385.0 },
  { "aluminium", 237.0, 2702.0, 903.0 },
  { "silicon", 148.0, 2330.0, 712.0 },
  { "steel", 60.5, 7854.0, 434.0 },          /* plain carbon steel */
  { "stainless-steel", 14.9, 7900.0, 477.0 },   /* AISI 304 */
  { "brick", 0.72, 1920.0, 835.0 },          /* common brick */
  { "concrete", 1.4, 2300.0, 880.0 },        /* stone mix */
  { "glass", 1.4, 2500.0, 750.0 },           /* plate glass */
  { "water", 0.613, 997.0, 4179.0 },         /* 300 K */
  { "air", 0.0263, 1.1614, 1007.0 },         /* 300 K, 1 atm */
  { "fr4", 0.3, 1850.0, 1100.0 },            /* datasheets, through-plane */
};

#define BUILTIN_COUNT (sizeof builtins / sizeof builtins[0])

/* KEY of KEY=SPEC, text up to end: #rrggbb or a whole number, maybe
   negative.  */
static bool
parse_key (struct parser *p, const char *text, const char *end,
           struct material_def *def)
{
  const int len = (int) (end - text);
  char *tail;
  errno = 0;
  if (text[0] == '#')
    {
      def->colour = true;
      def->key = len == 7 ? strtoll (text + 1, &tail, 16) : -1;
      if (len == 7 && tail == end && strspn (text + 1, "0123456789abcdef"
                                             "ABCDEF") >= 6)
        return true;
      return parse_fail (p, "--material: key '%.*s' is not a colour "
                         "#rrggbb", len, text);
    }
  def->colour = false;
  def->key = strtoll (text, &tail, 10);
  if (len > 0 && tail == end && errno == 0
      && strchr ("+ \t", text[0]) == NULL)
    return true;
  return parse_fail (p, "--material: key '%.*s' is neither a whole number "
                     "nor a colour #rrggbb", len, text);
}

/* SPEC "k=K,rho=RHO,cp=CP", each once, in any order.  */
static bool
parse_properties (struct parser *p, const char *spec,
                  struct material_def *def)
{
  static const char *const names[3] = { "k", "rho", "cp" };
  double *const values[3] = { &def->conductivity, &def->density,
                              &def->heat_capacity };
  bool seen[3] = { false, false, false };
  for (const char *item = spec;;)
    {
      const char *comma = strchr (item, ',');
      const char *end = comma ? comma : item + strlen (item);
      const char *eq = memchr (item, '=', (size_t) (end - item));
      size_t k = 0;
      while (eq != NULL && k < 3
             && !(strlen (names[k]) == (size_t) (eq - item)
                  && strncmp (item, names[k], (size_t) (eq - item)) == 0))
        ++k;
      if (eq == NULL || k == 3 || seen[k])
        return parse_fail (p, "--material: '%s': '%.*s' is not one of "
                           "k=K, rho=RHO, cp=CP (each once), nor is '%s' "
                           "a built-in material", def->text, (int) (end - item),
                           item, spec);
      seen[k] = true;
      char opt[64];
      snprintf (opt, sizeof opt, "--material %s", def->text);
      if (!parse_positive (p, opt, eq + 1, end, values[k]))
        return false;
      if (comma == NULL)
        break;
      item = comma + 1;
    }
  for (size_t k = 0; k < 3; ++k)
    if (!seen[k])
      return parse_fail (p, "--material: '%s' gives no %s= (SPEC is "
                         "k=K,rho=RHO,cp=CP or a built-in material)",
                         def->text, names[k]);
  /* Each in range, their product may not be (1e200 x 1e200 ran, and
     wrote a capacity of inf into its checkpoints).  */
  const double capacity = def->density * def->heat_capacity;
  if (!(capacity > 0.0) || !isfinite (capacity))
    return parse_fail (p, "--material %s: rho c_p = %g x %g = %g is not a "
                       "positive finite number", def->text, def->density,
                       def->heat_capacity, capacity);
  return true;
}

/* --material KEY=SPEC into def.  */
static bool
parse_def (struct parser *p, const char *text, struct material_def *def)
{
  const char *eq = strchr (text, '=');
  def->text = text;
  if (eq == NULL)
    return parse_fail (p, "--material: '%s' is not KEY=SPEC", text);
  if (!parse_key (p, text, eq, def))
    return false;
  const char *spec = eq + 1;
  for (size_t k = 0; k < BUILTIN_COUNT; ++k)
    if (strcmp (spec, builtins[k].name) == 0)
      {
        def->conductivity = builtins[k].conductivity;
        def->density = builtins[k].density;
        def->heat_capacity = builtins[k].heat_capacity;
        return true;
      }
  if (strchr (spec, '=') == NULL)
    return parse_fail (p, "--material: '%s': unknown built-in material "
                       "'%s' (see heatsim(1) for the list, or give "
                       "k=K,rho=RHO,cp=CP)", text, spec);
  return parse_properties (p, spec, def);
}

bool
material_add_def (struct parser *p, struct material_options *m,
                  const char *text)
{
  struct material_def def;
  if (!parse_def (p, text, &def))
    return false;
  for (size_t k = 0; k < m->defs; ++k)
    if (m->def[k].colour == def.colour && m->def[k].key == def.key)
      {
        m->def[k] = def;
        return true;
      }
  if (m->defs == MATERIALS_MAX)
    return parse_fail (p, "--material: at most %d materials", MATERIALS_MAX);
  m->def[m->defs++] = def;
  return true;
}

/* Whether any option describes the material or a source.  */
static bool
material_given (const struct material_options *m)
{
  return m->conductivity_given || m->density_given || m->heat_capacity_given
         || m->map != NULL || m->defs > 0 || material_options_source (m);
}

/* Whether the options give an SI material (not only sources).  */
static bool
material_si (const struct material_options *m)
{
  return m->conductivity_given || m->density_given || m->heat_capacity_given
         || m->map != NULL;
}

/* The first option of the material or the sources given, for
   messages.  */
static const char *
material_option (const struct material_options *m)
{
  return m->from_checkpoint ? "restart"
         : m->conductivity_given ? "conductivity"
         : m->density_given ? "density"
         : m->heat_capacity_given ? "heat-capacity"
         : m->map != NULL ? "material-map"
         : m->source_given ? "source"
         : m->source_map != NULL ? "source-map" : "source-rect";
}

const char *
material_si_option (const struct material_options *m)
{
  return material_si (m) ? material_option (m) : NULL;
}

bool
material_check_options (struct parser *p, struct config *c)
{
  struct material_options *m = &c->material;
  const bool si = material_si (m);
  const char *const si_name = material_option (m);
  m->given = material_given (m);
  if (si && c->given.alpha)
    return parse_fail (p, "--alpha: not with --%s (alpha = k / (rho c_p) "
                       "follows from the material)", si_name);
  if (c->restart != NULL && m->initial_temperature_given)
    return parse_fail (p, "--initial-temperature: not with --restart (the "
                       "checkpoint gives the field)");
  if (m->initial_temperature_given && c->init != NULL)
    return parse_fail (p, "--initial-temperature: not with --init (the "
                       "file gives the initial field)");
  if (m->defs > 0 && m->map == NULL)
    return parse_fail (p, "--material: only with --material-map (its "
                       "keys are the map's values)");
  if (m->source_range_given && m->source_map == NULL)
    return parse_fail (p, "--source-range: only with a PNG --source-map");
  /* Without a map that could give the rest, all three or none.  */
  if (m->map == NULL && (m->conductivity_given || m->density_given
                         || m->heat_capacity_given)
      && !(m->conductivity_given && m->density_given
           && m->heat_capacity_given))
    return parse_fail (p, "--%s: needs --%s too (a uniform material is "
                       "--conductivity, --density and --heat-capacity; or "
                       "give a --material-map)", si_name,
                       !m->conductivity_given ? "conductivity"
                       : !m->density_given ? "density" : "heat-capacity");
  /* As a --material's (parse_def): each in range, their product may
     not be.  */
  const double capacity = m->density * m->heat_capacity;
  if (m->density_given && m->heat_capacity_given
      && !(capacity > 0.0 && isfinite (capacity)))
    return parse_fail (p, "--density, --heat-capacity: rho c_p = %g x %g = "
                       "%g is not a positive finite number", m->density,
                       m->heat_capacity, capacity);
  if (si && !c->given.temperature_unit)
    c->unit = TEMPERATURE_KELVIN;
  if (si && c->unit == TEMPERATURE_NONE)
    return parse_fail (p, "--%s: an SI material needs a --temperature-unit",
                       si_name);
  return true;
}

/* The material and the sources of the whole grid as the options and files
   give them: per node of the nx x ny interior where data is not NULL
   (the halo is unused), else uniform.  */
struct whole {
  struct field conductivity, capacity, source;
  double conductivity_uniform, capacity_uniform;
};

static void
whole_free (struct whole *w)
{
  field_free (&w->conductivity);
  field_free (&w->capacity);
  field_free (&w->source);
}

/* The option that names a map in messages: a checkpoint's datasets
   are --restart's, not the options the first run was given.  */
static const char *
map_option (const struct material_options *m, const char *option)
{
  return m->from_checkpoint ? "--restart" : option;
}

/* Where a map sets the grid: the first map read without --grid (or a
   file that fixes it) takes the grid's size; the others must match.  */
struct grid_rule {
  bool fixed;
  const char *by;        /* what fixed it, for the message */
};

static bool
fit_grid (struct parser *p, struct config *c, struct grid_rule *g,
          const char *opt, const char *path, size_t nx, size_t ny)
{
  if (!g->fixed)
    {
      c->nx = nx;
      c->ny = ny;
      g->fixed = true;
      g->by = path;
      return true;
    }
  return (nx == c->nx && ny == c->ny)
         || parse_fail (p, "%s: %s is %zux%zu but the grid is %zux%zu "
                        "(%s)", opt, path, nx, ny, c->nx, c->ny, g->by);
}

/* Where the grid is fixed (--grid, --init, --restart or a map read
   before), a map of another size is refused from its PNG header or its
   datasets' shapes, before any value is read (a 120 kB PNG of 10000^2
   pixels took 2.4 GB and 9.5 s to be refused once decoded).  kind: 1
   HDF5 (datasets, count of them, those absent passed over), 0 PNG.  */
static bool
header_fits_grid (struct parser *p, struct config *c, struct grid_rule *g,
                  const char *opt, const char *path, int kind,
                  const char *const *datasets, size_t count)
{
  if (!g->fixed)
    return true;
  char msg[256];
  size_t nx, ny;
  if (kind == 0)
    return (png_map_size (path, &nx, &ny, msg, sizeof msg)
            || parse_fail_file (p, "%s: %s: %s", opt, path, msg))
           && fit_grid (p, c, g, opt, path, nx, ny);
  for (size_t k = 0; k < count; ++k)
    {
      bool absent;
      const bool integers = strcmp (datasets[k], "material") == 0;
      if (!h5_map_shape (path, datasets[k], integers, &nx, &ny, &absent, msg,
                         sizeof msg))
        return parse_fail_file (p, "%s: %s: %s", opt, path, msg);
      if (!absent && !fit_grid (p, c, g, opt, path, nx, ny))
        return false;
    }
  return true;
}

/* The first node of the map f (read from path by opt) whose value is not
   positive and finite, or is subnormal (which the options' numbers may
   not be either, parse_real).  Nodes are named as the file's (i, j).  */
static bool
check_positive (struct parser *p, const char *opt, const char *path,
                const char *what, const struct field *f)
{
  for (size_t j = 1; j <= f->ny; ++j)
    for (size_t i = 1; i <= f->nx; ++i)
      {
        const double v = f->data[field_index (f, i, j)];
        if (!(v > 0.0 && isfinite (v)))
          return parse_fail (p, "%s: %s: %s at cell (%zu, %zu) is %g; it "
                             "must be positive and finite", opt, path, what,
                             i - 1, j - 1, v);
        if (v < DBL_MIN)
          return parse_fail (p, "%s: %s: %s at cell (%zu, %zu) is %g; it "
                             "must be positive and finite, at least %g",
                             opt, path, what, i - 1, j - 1, v, DBL_MIN);
      }
  return true;
}

static bool
check_finite (struct parser *p, const char *opt, const char *path,
              const char *what, const struct field *f)
{
  for (size_t j = 1; j <= f->ny; ++j)
    for (size_t i = 1; i <= f->nx; ++i)
      {
        const double v = f->data[field_index (f, i, j)];
        if (!isfinite (v))
          return parse_fail (p, "%s: %s: %s at cell (%zu, %zu) is %g; it "
                             "must be finite", opt, path, what, i - 1, j - 1,
                             v);
        if (v != 0.0 && fabs (v) < DBL_MIN)
          return parse_fail (p, "%s: %s: %s at cell (%zu, %zu) is %g; it "
                             "must be finite, and 0 or of magnitude at "
                             "least %g", opt, path, what, i - 1, j - 1, v,
                             DBL_MIN);
      }
  return true;
}

/* Read dataset of the HDF5 file path into f (no data where absent).  */
static bool
read_dataset (struct parser *p, const char *opt, const char *path,
              const char *dataset, struct field *f)
{
  char msg[256];
  bool absent;
  return h5_read_grid (path, dataset, f, &absent, msg, sizeof msg)
         || parse_fail_file (p, "%s: %s: %s", opt, path, msg);
}

/* The keys of a material map: key[(j - 1) * nx + i - 1] is node (i, j)'s
   (an HDF5 'material' dataset's layout), as --material writes them.  */
struct key_map {
  size_t nx, ny;
  int64_t *key;
};

/* The --material definition of a map's value.  */
static const struct material_def *
find_def (const struct material_options *m, bool colour, long long key)
{
  for (size_t k = 0; k < m->defs; ++k)
    if (m->def[k].colour == colour && m->def[k].key == key)
      return &m->def[k];
  return NULL;
}

/* The map of keys (HDF5 'material' values, or a PNG's colours or gray
   levels) into conductivity and capacity.  Keys are compared as the
   integers they are: through a double, 2^53 + 1 was 2^53's material.  */
static bool
apply_keys (struct parser *p, const struct material_options *m,
            const char *path, const struct key_map *keys, bool colour,
            bool top_down, struct whole *w)
{
  const size_t nx = keys->nx, ny = keys->ny;
  if (!field_alloc (&w->conductivity, nx, ny)
      || !field_alloc (&w->capacity, nx, ny))
    return parse_fail (p, "--material-map: %s: out of memory for a %zux%zu "
                       "map", path, nx, ny);
  const struct material_def *def = NULL;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const long long key = keys->key[(j - 1) * nx + i - 1];
        /* Maps are made of regions: the last definition found is
           nearly always the next one.  */
        if (def == NULL || def->key != key)
          def = find_def (m, colour, key);
        if (def == NULL && colour)
          return parse_fail (p, "--material-map: %s: pixel (%zu, %zu) has "
                             "colour #%06llx, which no --material defines",
                             path, i - 1, ny - j, key);
        if (def == NULL && top_down)
          return parse_fail (p, "--material-map: %s: pixel (%zu, %zu) has "
                             "gray level %lld, which no --material defines",
                             path, i - 1, ny - j, key);
        if (def == NULL)
          return parse_fail (p, "--material-map: %s: cell (%zu, %zu) has "
                             "material %lld, which no --material defines",
                             path, i - 1, j - 1, key);
        w->conductivity.data[field_index (&w->conductivity, i, j)]
          = def->conductivity;
        w->capacity.data[field_index (&w->capacity, i, j)]
          = def->density * def->heat_capacity;
      }
  return true;
}

/* The keys of the integers k of a 'material' dataset, in place: an
   unsigned one beyond what a --material key (long long) can be is
   refused by name rather than wrapped onto another key.  */
static bool
keys_of_integers (struct parser *p, const char *path, struct h5_integers *k,
                  struct key_map *keys)
{
  /* int64_t, the signed type of uint64_t, may share its storage.  */
  *keys = (struct key_map) { k->nx, k->ny, (int64_t *) k->value };
  for (size_t n = 0; n < k->nx * k->ny; ++n)
    {
      const uint64_t v = k->value[n];
      if (!k->is_signed && v > (uint64_t) LLONG_MAX)
        return parse_fail (p, "--material-map: %s: cell (%zu, %zu) has "
                           "material %" PRIu64 ", beyond the keys "
                           "--material can name (%lld to %lld)", path,
                           n % k->nx, n / k->nx, v, LLONG_MIN, LLONG_MAX);
      /* A signed value's bits are its int64_t; an unsigned one below
         2^63 is the same number.  */
      int64_t key;
      memcpy (&key, &k->value[n], sizeof key);
      keys->key[n] = key;
    }
  return true;
}

/* The first of the uniform material's options given, or NULL: with a
   map of keys, which gives every cell's material, each would be
   ignored.  */
static const char *
uniform_option (const struct material_options *m)
{
  return m->conductivity_given ? "conductivity"
         : m->density_given ? "density"
         : m->heat_capacity_given ? "heat-capacity" : NULL;
}

/* An HDF5 material map: 'conductivity' and 'volumetric_heat_capacity',
   either of which the options may give instead, or 'material'.  */
static bool
read_h5_material (struct parser *p, const struct material_options *m,
                  const char *path, struct whole *w, size_t *nx, size_t *ny)
{
  const char *const opt = map_option (m, "--material-map");
  struct h5_integers integers;
  char msg[256];
  bool absent;
  /* The keys, then k and rho c_p.  */
  if (!h5_read_integers (path, "material", 3, &integers, &absent, msg,
                         sizeof msg))
    return parse_fail_file (p, "%s: %s: %s", opt, path, msg);
  if (!absent)
    {
      struct key_map keys;
      struct field k = { 0 }, cap = { 0 };
      bool ok = read_dataset (p, opt, path, "conductivity", &k)
                && read_dataset (p, opt, path, "volumetric_heat_capacity",
                                 &cap);
      if (ok && (k.data != NULL || cap.data != NULL))
        ok = parse_fail (p, "%s: %s has both a 'material' dataset and '%s': "
                         "give one or the other", opt, path, k.data != NULL
                         ? "conductivity" : "volumetric_heat_capacity");
      field_free (&k);
      field_free (&cap);
      ok = ok && (uniform_option (m) == NULL
                  || parse_fail (p, "--%s: %s gives every cell's material "
                                 "(its 'material' dataset)",
                                 uniform_option (m), path));
      ok = ok && keys_of_integers (p, path, &integers, &keys)
           && apply_keys (p, m, path, &keys, false, false, w);
      *nx = integers.nx;
      *ny = integers.ny;
      free (integers.value);
      return ok;
    }
  /* A definition no cell can use is a likely mistake: the map meant
     was another, or a 'material' dataset is missing.  */
  if (m->defs > 0)
    return parse_fail (p, "--material: %s has no 'material' dataset, so "
                       "no keys for --material to define (a map of "
                       "'conductivity' and 'volumetric_heat_capacity' "
                       "takes none)", path);
  if (!read_dataset (p, opt, path, "conductivity", &w->conductivity)
      || !read_dataset (p, opt, path, "volumetric_heat_capacity",
                        &w->capacity))
    return false;
  const struct field *k = &w->conductivity, *cap = &w->capacity;
  if (k->data == NULL && cap->data == NULL)
    return parse_fail (p, "%s: %s has none of the datasets 'conductivity', "
                       "'volumetric_heat_capacity' and 'material'", opt, path);
  if (k->data != NULL && cap->data != NULL
      && (k->nx != cap->nx || k->ny != cap->ny))
    return parse_fail (p, "%s: %s: 'conductivity' is %zux%zu but "
                       "'volumetric_heat_capacity' %zux%zu", opt, path,
                       k->nx, k->ny, cap->nx, cap->ny);
  if (k->data != NULL && m->conductivity_given)
    return parse_fail (p, "--conductivity: %s gives the conductivity (its "
                       "dataset 'conductivity')", path);
  if (k->data == NULL && !m->conductivity_given)
    return parse_fail (p, "%s: %s has no dataset 'conductivity': give "
                       "--conductivity", opt, path);
  if (cap->data != NULL && (m->density_given || m->heat_capacity_given))
    return parse_fail (p, "--%s: %s gives rho c_p (its dataset "
                       "'volumetric_heat_capacity')", m->density_given
                       ? "density" : "heat-capacity", path);
  if (cap->data == NULL && !(m->density_given && m->heat_capacity_given))
    return parse_fail (p, "%s: %s has no dataset 'volumetric_heat_capacity':"
                       " give --density and --heat-capacity", opt, path);
  const struct field *any = k->data != NULL ? k : cap;
  *nx = any->nx;
  *ny = any->ny;
  return (k->data == NULL
          || check_positive (p, opt, path, "conductivity", k))
         && (cap->data == NULL
             || check_positive (p, opt, path, "volumetric_heat_capacity",
                                cap));
}

/* Which kind of file path is: 1 HDF5, 0 PNG, -1 neither (message).
   Its kind is checked before it is opened: a FIFO would block the run
   forever, and a directory is no file of either format.  */
static int
file_kind (struct parser *p, const char *opt, const char *path)
{
  const char *unfit = input_path_unfit (path);
  if (unfit != NULL)
    {
      parse_fail_file (p, "%s: %s: %s", opt, path, unfit);
      return -1;
    }
  switch (h5_is_hdf5 (path))
    {
    case 1:
      return 1;
    case 0:
      if (png_is_png (path))
        return 0;
      parse_fail_file (p, "%s: %s: neither an HDF5 file nor a PNG image",
                       opt, path);
      return -1;
    default:
      parse_fail_file (p, "%s: %s: cannot open: %s", opt, path,
                       strerror (errno));
      return -1;
    }
}

/* A PNG material map: every pixel's colour (#rrggbb) or gray level is a
   --material key; row 0 is the top of the grid (y up, as --init).  */
static bool
read_png_material (struct parser *p, const struct material_options *m,
                   const char *path, struct whole *w, size_t *nx, size_t *ny)
{
  if (uniform_option (m) != NULL)
    return parse_fail (p, "--%s: %s gives every cell's material (a PNG "
                       "map: each pixel's --material)", uniform_option (m),
                       path);
  struct field pixels = { 0 };
  bool colour;
  char msg[256];
  /* The pixels and their keys, then the keys, k and rho c_p.  */
  if (!png_read_keys (path, 3, &pixels, &colour, msg, sizeof msg))
    return parse_fail_file (p, "--material-map: %s: %s", path, msg);
  *nx = pixels.nx;
  *ny = pixels.ny;
  struct key_map keys = { pixels.nx, pixels.ny,
                          malloc (pixels.nx * pixels.ny
                                  * sizeof *keys.key) };
  /* Colours and gray levels are small whole numbers, exact in a double.  */
  for (size_t j = 1; keys.key != NULL && j <= keys.ny; ++j)
    for (size_t i = 1; i <= keys.nx; ++i)
      keys.key[(j - 1) * keys.nx + i - 1]
        = (int64_t) pixels.data[field_index (&pixels, i, j)];
  field_free (&pixels);
  const bool ok = keys.key != NULL
                  ? apply_keys (p, m, path, &keys, colour, true, w)
                  : parse_fail (p, "--material-map: %s: out of memory for "
                                "a %zux%zu map", path, *nx, *ny);
  free (keys.key);
  return ok;
}

static bool
read_material_map (struct parser *p, struct config *c, struct grid_rule *g,
                   struct whole *w)
{
  const char *path = c->material.map;
  const char *const opt = map_option (&c->material, "--material-map");
  size_t nx = 0, ny = 0;
  const int kind = file_kind (p, opt, path);
  static const char *const datasets[] = { "material", "conductivity",
                                          "volumetric_heat_capacity" };
  if (kind < 0 || !header_fits_grid (p, c, g, opt, path, kind, datasets, 3))
    return false;
  const bool ok = kind == 1
                  ? read_h5_material (p, &c->material, path, w, &nx, &ny)
                  : read_png_material (p, &c->material, path, w, &nx, &ny);
  return ok && fit_grid (p, c, g, opt, path, nx, ny);
}

/* A source map: HDF5 dataset 'source', or a gray PNG whose levels map
   linearly onto --source-range.  Into q (allocated, zero).  */
static bool
read_source_map (struct parser *p, struct config *c, struct grid_rule *g,
                 struct field *q)
{
  const struct material_options *m = &c->material;
  const char *const opt = map_option (m, "--source-map");
  const char *path = m->source_map;
  const int kind = file_kind (p, opt, path);
  struct field f = { 0 };
  bool ok = kind >= 0;
  if (kind == 1 && m->source_range_given)
    return parse_fail (p, "--source-range: only for a PNG --source-map; %s "
                       "is an HDF5 file", path);
  if (kind == 0 && !m->source_range_given)
    return parse_fail (p, "%s: %s is a PNG image: give --source-range LO,HI "
                       "(the sources of gray 0 and of white)", opt, path);
  static const char *const datasets[] = { "source" };
  if (kind >= 0 && !header_fits_grid (p, c, g, opt, path, kind, datasets, 1))
    return false;
  if (kind == 1)
    {
      ok = read_dataset (p, opt, path, "source", &f);
      if (ok && f.data == NULL)
        ok = parse_fail (p, "%s: %s has no dataset 'source'", opt, path);
      ok = ok && check_finite (p, opt, path, "source", &f);
    }
  else if (kind == 0)
    {
      char msg[256];
      /* The map and the sum of the sources.  */
      ok = png_read_gray (path, m->source_range[0], m->source_range[1], 2,
                          &f, msg, sizeof msg)
           || parse_fail_file (p, "%s: %s: %s", opt, path, msg);
    }
  ok = ok && fit_grid (p, c, g, opt, path, f.nx, f.ny);
  if (ok && q->data == NULL && !field_alloc (q, c->nx, c->ny))
    ok = parse_fail (p, "%s: out of memory", opt);
  for (size_t j = 1; ok && j <= f.ny; ++j)
    for (size_t i = 1; i <= f.nx; ++i)
      q->data[field_index (q, i, j)] += f.data[field_index (&f, i, j)];
  field_free (&f);
  return ok;
}

/* Whether position v (a node's, spacing h) lies in [lo, hi]: within
   1e-9 of a spacing of a bound counts as on it, as a probe's position
   does (probes.c), since a node's position is rounded (0.1 * 7 is
   0.7000000000000001).  */
static bool
inside (double v, double lo, double hi, double h)
{
  return v >= lo - 1e-9 * h && v <= hi + 1e-9 * h;
}

/* The options that add up to the source of a cell, into text: the
   map's (where it gives the cell a source), --source, --source-rect
   (where a rectangle holds the cell).  */
static void
source_options (const struct material_options *m, bool mapped, bool rect,
                char *text, size_t size)
{
  const bool given = m->source != 0.0;
  snprintf (text, size, "%s%s%s%s%s%s%s",
            mapped ? map_option (m, "--source-map") : "",
            mapped ? " " : "", mapped ? m->source_map : "",
            mapped && given ? ", " : "", given ? "--source" : "",
            rect && (mapped || given) ? ", " : "",
            rect ? "--source-rect" : "");
}

/* --source and --source-rect: a node (i, j) of the whole grid, at
   config_x (i), config_y (j), inside [X0, X1] x [Y0, Y1] gets Q.  A
   rectangle off the domain (lengths in mm for m) is refused; one
   between two nodes heats nothing, as a coarse grid of a small heater
   may (source_power says so).  Every node's sum, a map's too, must be
   finite, and so must its product with the largest factor of
   --source-schedule.  */
static bool
add_sources (struct parser *p, const struct config *c, struct field *q)
{
  const struct material_options *m = &c->material;
  const double dx = config_dx (c), dy = config_dy (c);
  /* The schedule's factor of largest magnitude, over the whole file:
     a run reaches q f (t) for every f of the file up to its end time,
     and a restart continues the same schedule.  */
  double factor_time = NAN;
  const double factor
    = c->source_schedule.path != NULL
      ? schedule_extreme (&c->source_schedule, &factor_time) : 1.0;
  for (size_t r = 0; r < m->rects; ++r)
    {
      const double *b = m->rect[r];
      if (!(b[1] >= -1e-9 * dx && b[0] <= c->lx + 1e-9 * dx
            && b[3] >= -1e-9 * dy && b[2] <= c->ly + 1e-9 * dy))
        {
          /* In the digits that read back as each: %g made 1.0000001
             a 1, on the domain's edge.  */
          char t[7][32];
          const double v[7] = { b[0], b[1], b[2], b[3], b[4], c->lx, c->ly };
          for (int k = 0; k < 7; ++k)
            format_real (t[k], sizeof t[k], v[k]);
          return parse_fail (p, "--source-rect: %s,%s,%s,%s,%s lies off the "
                             "domain, [0, %s] x [0, %s]", t[0], t[1], t[2],
                             t[3], t[4], t[5], t[6]);
        }
    }
  size_t need, avail;
  /* The grid itself was checked (derive.c): need is a count.  */
  if (q->data == NULL
      && !grids_fit_in_memory (1, c->nx, c->ny, &need, &avail))
    return parse_fail (p, "--%s: the sources of a %zux%zu grid need %zu "
                       "bytes; only %zu are available",
                       m->source_given ? "source" : "source-rect", c->nx,
                       c->ny, need, avail);
  if (q->data == NULL && !field_alloc (q, c->nx, c->ny))
    return parse_fail (p, "--%s: out of memory",
                       m->source_given ? "source" : "source-rect");
  for (size_t j = 1; j <= c->ny; ++j)
    for (size_t i = 1; i <= c->nx; ++i)
      {
        const double x = config_x (c, i), y = config_y (c, j);
        double s = m->source;
        bool rect = false;
        for (size_t r = 0; r < m->rects; ++r)
          {
            const double *b = m->rect[r];
            if (inside (x, b[0], b[1], dx) && inside (y, b[2], b[3], dy))
              {
                s += b[4];
                rect |= b[4] != 0.0;
              }
          }
        double *cell = &q->data[field_index (q, i, j)];
        const bool mapped = *cell != 0.0;
        *cell += s;
        /* Each source is finite, their sum need not be: the run would
           stop at its first step with a field that is not.  Nor need
           their product with the schedule's factor: a steady or
           implicit run stopped (status 5) with a residual that was not
           finite, an explicit one reported a source power INF.  */
        if (!isfinite (*cell) || !isfinite (*cell * factor))
          {
            char what[4200];
            source_options (m, mapped, rect, what, sizeof what);
            if (!isfinite (*cell))
              return parse_fail (p, "%s: the heat sources of cell (%zu, "
                                 "%zu) add up to a sum that is not finite",
                                 what, i - 1, j - 1);
            return parse_fail (p, "%s, --source-schedule %s: the heat "
                               "source of cell (%zu, %zu), %g, times the "
                               "schedule's largest factor %g (at t = %g) "
                               "is not finite", what,
                               c->source_schedule.path, i - 1, j - 1, *cell,
                               factor, factor_time);
          }
      }
  return true;
}

/* Read every map of c into w: the grid takes the first map's size where
   no --grid (or file) fixes it.  */
static bool
read_whole (struct parser *p, struct config *c, struct whole *w)
{
  const struct material_options *m = &c->material;
  struct grid_rule g = {
    .fixed = c->given.grid || c->init != NULL || c->restart != NULL,
    .by = c->given.grid ? "--grid" : c->init != NULL ? c->init : c->restart,
  };
  *w = (struct whole) {
    .conductivity_uniform = m->conductivity,
    .capacity_uniform = m->density * m->heat_capacity,
  };
  /* Nondimensional: k = alpha, rho c_p = 1.  */
  if (!(m->conductivity_given || m->map != NULL))
    {
      w->conductivity_uniform = c->alpha;
      w->capacity_uniform = 1.0;
    }
  const bool ok = (m->map == NULL || read_material_map (p, c, &g, w))
                  && (m->source_map == NULL
                      || read_source_map (p, c, &g, &w->source))
                  && (!material_options_source (m)
                      || add_sources (p, c, &w->source));
  if (!ok)
    whole_free (w);
  return ok;
}

/* Whether every node of f holds the same value (into *v).  */
static bool
uniform (const struct field *f, double *v)
{
  const double first = f->data[field_index (f, 1, 1)];
  for (size_t j = 1; j <= f->ny; ++j)
    for (size_t i = 1; i <= f->nx; ++i)
      if (f->data[field_index (f, i, j)] != first)
        return false;
  *v = first;
  return true;
}

/* A map whose nodes all hold one value is that uniform value: the
   constant-coefficient kernels then run.  */
static void
collapse_uniform (struct field *f, double *v)
{
  if (f->data != NULL && uniform (f, v))
    field_free (f);
}

/* The largest k / (rho c_p) of the nodes of part (rows and columns 1 ..
   nx, ny of its fields).  */
static double
largest_diffusivity (const struct field *k, const struct field *cap,
                     double k_uniform, double cap_uniform, size_t nx,
                     size_t ny)
{
  double largest = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const double kv = k->data ? k->data[field_index (k, i, j)] : k_uniform;
        const double cv = cap->data ? cap->data[field_index (cap, i, j)]
                          : cap_uniform;
        largest = fmax (largest, kv / cv);
      }
  return largest;
}

/* The node whose conductivity the face beyond node i (1 .. n) of an
   axis on side step (-1 or 1) takes as its other side (operator.h's faces): the
   neighbour; beyond an end, the opposite end's node on a periodic axis,
   the node itself towards a Dirichlet edge (the material's halo holds
   the edge node's own value), and towards an edge of edge nodes the
   node on its other side: the half box's balance is that of a full box
   with its mirror image beyond the edge.  */
static size_t
beyond (size_t i, int step, size_t n, enum boundary_kind kind)
{
  const bool end = step < 0 ? i == 1 : i == n;
  if (!end)
    return step < 0 ? i - 1 : i + 1;
  if (kind == BOUNDARY_PERIODIC)
    return step < 0 ? n : 1;
  if (boundary_has_edge_node (kind) && n >= 2)
    return step < 0 ? i + 1 : i - 1;
  return i;
}

/* The diffusivity whose limit alpha dt (1/dx^2 + 1/dy^2) <= 1/2 keeps
   the own weight of every node of a varying conductivity k (a whole-grid
   map) non-negative: half the largest rate of decay of a node, its
   faces' conductances over its rho c_p,
     ((G_W + G_E) / dx^2 + (G_S + G_N) / dy^2) / rho c_p,
   over (1/dx^2 + 1/dy^2).  A face's harmonic mean reaches twice the k
   of its weaker node, so this exceeds the largest k / (rho c_p) where a
   node of low rho c_p borders nodes that conduct better (a node of k =
   rho c_p = 1 among nodes of k = rho c_p = 100: 1.98).  0 where dx or
   dy is not finite (check_axes refuses such a grid).  */
static double
largest_face_diffusivity (const struct field *k, const struct field *cap,
                          double cap_uniform, const struct config *c)
{
  const double dx = config_dx (c), dy = config_dy (c);
  const double ax = 1.0 / (dx * dx), ay = 1.0 / (dy * dy);
  if (!isfinite (ax) || !isfinite (ay) || !(ax + ay > 0.0))
    return 0.0;
  const size_t nx = k->nx, ny = k->ny;
  double largest = 0.0;
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const double kp = k->data[field_index (k, i, j)];
        const double kw = k->data[field_index (k, beyond (i, -1, nx,
                                  c->bc[EDGE_LEFT].kind), j)];
        const double ke = k->data[field_index (k, beyond (i, 1, nx,
                                  c->bc[EDGE_RIGHT].kind), j)];
        const double ks = k->data[field_index (k, i, beyond (j, -1, ny,
                                  c->bc[EDGE_BOTTOM].kind))];
        const double kn = k->data[field_index (k, i, beyond (j, 1, ny,
                                  c->bc[EDGE_TOP].kind))];
        const double rate = (heat_face_conductance (kw, kp)
                             + heat_face_conductance (kp, ke)) * ax
                            + (heat_face_conductance (ks, kp)
                               + heat_face_conductance (kp, kn)) * ay;
        const double cv = cap->data ? cap->data[field_index (cap, i, j)]
                          : cap_uniform;
        largest = fmax (largest, rate / cv);
      }
  return largest / (2.0 * (ax + ay));
}

/* The smallest and largest value of the nodes of a whole-grid map, or
   the uniform one.  */
static void
value_range (const struct field *f, double uniform, double *lo, double *hi)
{
  if (f->data == NULL)
    *lo = *hi = uniform;
  else
    field_range (f, lo, hi);
}

/* The value of node (i, j) of a whole-grid map, or the uniform one.  */
static double
value_at (const struct field *f, double uniform, size_t i, size_t j)
{
  return f->data != NULL ? f->data[field_index (f, i, j)] : uniform;
}

/* Refuse the material of w, whose largest k / (rho c_p) is alpha,
   beyond double's range (0, infinite or NaN): the uniform values (a
   map's, where all its cells are alike), or the first node of a map
   where k / (rho c_p) is alpha, named as the file's cell (i, j).  */
static bool
refuse_diffusivity (struct parser *p, const struct config *c,
                    const struct whole *w, double alpha)
{
  const struct material_options *m = &c->material;
  const struct field *k = &w->conductivity, *cap = &w->capacity;
  if (k->data == NULL && cap->data == NULL && m->map != NULL)
    return parse_fail (p, "%s: %s: k / (rho c_p) = %g / %g (every cell) is "
                       "%g, beyond the range of double",
                       map_option (m, "--material-map"), m->map,
                       w->conductivity_uniform, w->capacity_uniform, alpha);
  if (k->data == NULL && cap->data == NULL)
    return parse_fail (p, "--%s: k / (rho c_p) = %g / %g is %g, beyond the "
                       "range of double", material_option (m),
                       w->conductivity_uniform, w->capacity_uniform, alpha);
  /* A PNG's pixel as the image names it, row 0 at the top (as
     apply_keys); an HDF5 map's cell as its dataset's.  */
  const bool png = m->map != NULL && png_is_png (m->map);
  for (size_t j = 1; j <= c->ny; ++j)
    for (size_t i = 1; i <= c->nx; ++i)
      {
        const double kv = value_at (k, w->conductivity_uniform, i, j);
        const double cv = value_at (cap, w->capacity_uniform, i, j);
        const double ratio = kv / cv;
        if (ratio == alpha || isnan (ratio))
          return parse_fail (p, "%s: %s: k / (rho c_p) at %s (%zu, %zu) "
                             "is %g (k %g, rho c_p %g), beyond the range "
                             "of double", map_option (m, "--material-map"),
                             m->map, png ? "pixel" : "cell", i - 1,
                             png ? c->ny - j : j - 1, ratio, kv, cv);
      }
  return parse_fail (p, "--%s: k / (rho c_p) = %g is out of range",
                     material_option (m), alpha);
}

bool
material_derive (struct config *c, char *err, size_t errlen)
{
  struct parser p = { err, errlen, false };
  struct material_options *m = &c->material;
  /* Face cooling and a source schedule are terms of the variable step.  */
  const bool terms = config_step_terms (c);
  m->variable = terms;
  m->source_only = false;
  m->source_uniform = false;
  m->capacity_min = m->capacity_max = 1.0;
  if (!m->given)
    return true;
  struct whole w;
  if (!read_whole (&p, c, &w))
    {
      /* Bad values in a checkpoint make a bad file, as a field's do;
         a map's are the options' fault.  */
      c->file_unusable = p.file || m->from_checkpoint;
      return false;
    }
  collapse_uniform (&w.conductivity, &w.conductivity_uniform);
  collapse_uniform (&w.capacity, &w.capacity_uniform);
  m->variable = w.conductivity.data != NULL || w.capacity.data != NULL
                || w.source.data != NULL || terms;
  m->source_only = w.conductivity.data == NULL && w.capacity.data == NULL
                   && w.source.data != NULL && !terms;
  if (m->source_only)
    {
      double lo, hi;
      field_range (&w.source, &lo, &hi);
      m->source_uniform = lo == hi;
      const double q = field_largest (&w.source);
      m->source_per_k = q / w.conductivity_uniform;
      m->source_per_capacity = q / w.capacity_uniform;
    }
  m->diffusivity_max = largest_diffusivity (&w.conductivity, &w.capacity,
                                            w.conductivity_uniform,
                                            w.capacity_uniform, c->nx,
                                            c->ny);
  value_range (&w.capacity, w.capacity_uniform, &m->capacity_min,
               &m->capacity_max);
  /* Uniform k: every face conducts k, and the limit is k / (rho c_p).  */
  m->diffusivity_stable
    = w.conductivity.data != NULL
      ? fmax (m->diffusivity_max,
              largest_face_diffusivity (&w.conductivity, &w.capacity,
                                        w.capacity_uniform, c))
      : m->diffusivity_max;
  /* Uniform: alpha itself; variable: the explicit limit's diffusivity.  */
  c->alpha = m->diffusivity_max;
  const bool ok = (isfinite (c->alpha) && c->alpha > 0.0)
                  || refuse_diffusivity (&p, c, &w, c->alpha);
  whole_free (&w);
  return ok;
}


/* The option a difference in set k (0 conductivity, 1 rho c_p, 2 the
   source) of a restart's material lies with: a source's with the
   source options where one is given, else the material's first.  */
static const char *
differing_option (const struct material_options *m, size_t k)
{
  if (k == 2 && material_options_source (m))
    return m->source_given ? "source"
           : m->source_map != NULL ? "source-map" : "source-rect";
  return material_option (m);
}

/* The first node where the options' material w differs from the
   checkpoint's (k, cap, q: its datasets).  Without options of an SI
   material, w's k and rho c_p are alpha and 1: the message says so.  */
static bool
same_material (struct parser *p, const struct material_options *m,
               const char *path, const struct whole *w,
               const struct field ck[3], size_t nx, size_t ny)
{
  static const char *const names[3] = { "conductivity",
                                        "volumetric_heat_capacity",
                                        "source" };
  const struct field *mine[3] = { &w->conductivity, &w->capacity,
                                  &w->source };
  const double uniform[3] = { w->conductivity_uniform, w->capacity_uniform,
                              0.0 };
  for (size_t k = 0; k < 3; ++k)
    for (size_t j = 1; j <= ny; ++j)
      for (size_t i = 1; i <= nx; ++i)
        {
          const double a = value_at (mine[k], uniform[k], i, j);
          const double b = value_at (&ck[k], 0.0, i, j);
          /* Only a source given: the material is the one a run
             without material options has, which the user never saw.  */
          if (a != b && k < 2 && !material_si (m))
            return parse_fail (p, "--%s: %s records another material than "
                               "a run without material options has (%s at "
                               "cell (%zu, %zu): recorded %.17g, without "
                               "them %.17g); give the material options of "
                               "the run that wrote it with the source, or "
                               "leave the source options out to continue "
                               "with its own", differing_option (m, k),
                               path, names[k], i - 1, j - 1, b, a);
          if (a != b)
            return parse_fail (p, "--%s: the material differs from that of "
                               "%s (%s at cell (%zu, %zu): %.17g, "
                               "recorded %.17g); leave the material and "
                               "source options out to continue with it",
                               differing_option (m, k), path, names[k],
                               i - 1, j - 1, a, b);
        }
  return true;
}

/* The options' material against a checkpoint's, which has fields (a
   material that varies or a source) or only alpha.  */
static bool
check_restart (struct parser *p, struct config *c,
               const struct checkpoint_meta *meta)
{
  const char *path = c->restart, *opt = material_option (&c->material);
  struct whole w;
  if (!read_whole (p, c, &w))
    return false;
  collapse_uniform (&w.conductivity, &w.conductivity_uniform);
  collapse_uniform (&w.capacity, &w.capacity_uniform);
  /* Sources of 0 (--source 0) are none, as the checkpoint records.  */
  double source;
  if (w.source.data != NULL && uniform (&w.source, &source) && source == 0.0)
    field_free (&w.source);
  const bool varies = w.conductivity.data != NULL || w.capacity.data != NULL
                      || w.source.data != NULL;
  bool ok = true;
  if (!meta->has_material && meta->uniform_given)
    ok = (!varies && w.conductivity_uniform == meta->conductivity
          && w.capacity_uniform == meta->density * meta->heat_capacity)
         || parse_fail (p, "--%s: the material differs from that of %s "
                        "(%s; recorded: k %.17g, rho c_p %.17g); leave "
                        "the material and source options out to continue "
                        "with it", opt, path, varies
                        ? "it varies or has a source"
                        : "another k or rho c_p", meta->conductivity,
                        meta->density * meta->heat_capacity);
  else if (!meta->has_material)
    {
      const double alpha = w.conductivity_uniform / w.capacity_uniform;
      ok = (!varies && alpha == meta->alpha)
           || parse_fail (p, "--%s: the material differs from that of %s "
                          "(%s; recorded: alpha %g without material "
                          "fields); leave the material and source options "
                          "out to continue with it", opt, path, varies
                          ? "it varies or has a source"
                          : "another alpha", meta->alpha);
    }
  else
    {
      static const char *const sets[3] = { "conductivity",
                                           "volumetric_heat_capacity",
                                           "source" };
      struct field ck[3] = { { 0 }, { 0 }, { 0 } };
      struct grid_rule g = { .fixed = true, .by = path };
      ok = header_fits_grid (p, c, &g, "--restart", path, 1, sets, 3);
      for (size_t k = 0; k < 3 && ok; ++k)
        ok = read_dataset (p, "--restart", path, sets[k], &ck[k]);
      ok = ok && same_material (p, &c->material, path, &w, ck, c->nx,
                                c->ny);
      for (size_t k = 0; k < 3; ++k)
        field_free (&ck[k]);
    }
  whole_free (&w);
  return ok;
}

int
material_restart (struct config *c, const struct checkpoint_meta *meta)
{
  struct material_options *m = &c->material;
  char err[HEATSIM_MESSAGE_MAX];
  struct parser p = { err, sizeof err, false };
  if (m->given && !check_restart (&p, c, meta))
    {
      heatsim_error ("%s", err);
      return HEATSIM_USAGE;
    }
  /* The checkpoint's fields are the material from now on; a uniform
     material given (the same) stays for the report, and one recorded
     is taken where none is given.  */
  if (meta->has_material)
    *m = (struct material_options) {
      .map = c->restart, .source_map = meta->has_source ? c->restart : NULL,
      .given = true, .from_checkpoint = true,
    };
  else if (meta->uniform_given && !m->given)
    {
      m->conductivity_given = m->density_given = true;
      m->heat_capacity_given = m->given = true;
      m->conductivity = meta->conductivity;
      m->density = meta->density;
      m->heat_capacity = meta->heat_capacity;
      m->from_checkpoint = true;
    }
  return HEATSIM_OK;
}

/* Node local of this rank's part along an axis of n nodes whose edges
   have kinds lo and hi, halo included, as a node of the whole grid:
   beyond a Dirichlet edge the node next to it, beyond edge nodes their
   mirror image (the node beyond them, as the field's halo), on a
   periodic axis the node of the opposite edge.  */
static size_t
whole_index (size_t local, size_t origin, size_t n, enum boundary_kind lo,
             enum boundary_kind hi)
{
  const size_t g = origin + local;       /* 0 .. n + 1 */
  if (g == 0)
    return lo == BOUNDARY_PERIODIC ? n
           : boundary_has_edge_node (lo) && n > 1 ? 2 : 1;
  if (g == n + 1)
    return hi == BOUNDARY_PERIODIC ? 1
           : boundary_has_edge_node (hi) && n > 1 ? n - 1 : n;
  return g;
}

/* This rank's part of a whole-grid map, with its ring.  */
static bool
take_part (const struct field *whole, const struct domain *d,
           const struct config *c, struct field *part)
{
  if (!field_alloc (part, d->local_nx, d->local_ny))
    return false;
  part->x0 = d->x0;
  part->y0 = d->y0;
  for (size_t j = 0; j <= d->local_ny + 1; ++j)
    {
      const size_t gj = whole_index (j, d->y0, d->ny, c->bc[EDGE_BOTTOM].kind,
                                     c->bc[EDGE_TOP].kind);
      for (size_t i = 0; i <= d->local_nx + 1; ++i)
        {
          const size_t gi = whole_index (i, d->x0, d->nx,
                                         c->bc[EDGE_LEFT].kind,
                                         c->bc[EDGE_RIGHT].kind);
          part->data[field_index (part, i, j)]
            = whole->data[field_index (whole, gi, gj)];
        }
    }
  return true;
}

int
material_build (struct material *m, const struct config *cfg,
                const struct domain *d)
{
  *m = (struct material) {
    .conductivity_uniform = cfg->alpha, .capacity_uniform = 1.0,
    .diffusivity_max = cfg->alpha,
  };
  if (!cfg->material.given && !cfg->material.variable)
    return HEATSIM_OK;
  char err[HEATSIM_MESSAGE_MAX];
  struct parser p = { err, sizeof err, false };
  struct whole w;
  /* The grid is settled: reading again cannot change it.  */
  struct config c = *cfg;
  c.given.grid = true;
  if (!read_whole (&p, &c, &w))
    {
      heatsim_error ("%s", err);
      return HEATSIM_BAD_FILE;
    }
  collapse_uniform (&w.conductivity, &w.conductivity_uniform);
  collapse_uniform (&w.capacity, &w.capacity_uniform);
  m->conductivity_uniform = w.conductivity_uniform;
  m->capacity_uniform = w.capacity_uniform;
  m->variable = cfg->material.variable;
  bool ok = true;
  if (m->variable)
    {
      struct field *const wholes[3] = { &w.conductivity, &w.capacity,
                                        &w.source };
      struct field *const parts[3] = { &m->conductivity, &m->capacity,
                                       &m->source };
      const double fill[2] = { w.conductivity_uniform, w.capacity_uniform };
      for (size_t k = 0; ok && k < 3; ++k)
        if (wholes[k]->data != NULL)
          ok = take_part (wholes[k], d, cfg, parts[k]);
        else if (k < 2 && (ok = field_alloc (parts[k], d->local_nx,
                                             d->local_ny)))
          {
            parts[k]->x0 = d->x0;
            parts[k]->y0 = d->y0;
            for (size_t n = 0; n < field_cells (parts[k]); ++n)
              parts[k]->data[n] = fill[k];
          }
    }
  whole_free (&w);
  if (!ok)
    {
      material_free (m);
      heatsim_error ("out of memory for the material of a %zux%zu part",
                     d->local_nx, d->local_ny);
      return HEATSIM_NO_MEMORY;
    }
  m->diffusivity_max = m->variable
                       ? domain_max (d, largest_diffusivity
                                     (&m->conductivity, &m->capacity, 0.0,
                                      1.0, d->local_nx, d->local_ny))
                       : m->conductivity_uniform / m->capacity_uniform;
  return HEATSIM_OK;
}

void
material_free (struct material *m)
{
  field_free (&m->conductivity);
  field_free (&m->capacity);
  field_free (&m->source);
}

bool
material_initial_field (const struct config *cfg, struct field *u)
{
  if (!cfg->material.initial_temperature_given)
    return false;
  for (size_t j = 1; j <= u->ny; ++j)
    for (size_t i = 1; i <= u->nx; ++i)
      u->data[field_index (u, i, j)] = cfg->material.initial_temperature;
  return true;
}
