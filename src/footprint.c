/* The arrays each kind of run allocates, in padded grids of this rank's
   part (G) unless said otherwise, read from their allocators:
     every run: u, unew (solver.c): 2 G;
     a varying material (material.c, material_build): k and rho c_p, and
       the source where one is given: 2 or 3 G;
     its explicit step (kernels_material.c, material_step_build): the
       operator's wx, wy, capacity, source and the step's gain, rise: 6 G;
     fused explicit steps on several ranks (tiled_ranks.c): two parts
       widened by tile_steps + 1 lines each side, and a varying
       material's wx, wy, gain and rise on them: 2 or 6 widened G;
     an implicit step: the last step's field (implicit.c): 1 G;
     the constant-coefficient multigrid (mg_level.c, level_alloc): f, r on
       the finest level, u, f, r on each coarser one, a quarter or half
       the size of the one above, and each level's transfer tables
       (mg_footprint replays the levels: on a grid 1 node across the
       tables outweigh the grids);
     the black box multigrid (implicit.c, material_init; boxmg_setup.c):
       the operator (4 G), edge_terms' sink and heat (2 G), a steady run's
       right-hand side (1 G), and on the whole grid its levels: the finest
       9 arrays and the solver's 6, each coarser one 13 (8 the coarsest)
       and, between the finest and the coarsest, up to 6 deflation
       vectors (boxmg_deflate.c), the set-up's scratch for finding them
       (23 grids of level 1, freed after it), and the coarsest level's
       band factor (up to 64 MiB where a
       periodic axis stops the coarsening: boxmg_footprint counts them
       all as boxmg_create allocates them); split over ranks, every rank also holds the whole grid's u and f
       and, while the hierarchy is built, four whole operator arrays;
     LLVM's x86_64 host plugin keeps an offloading strategy's device
       copies in host memory: u, unew, the explicit step's wx, wy, gain and
       rise, and a resident multigrid's levels.
   Other arrays of a row or a column and halo strips are small beside
   these and left out;
   so are the whole-grid maps read while the material is set up, freed
   before the fields are allocated.  */
#include <config.h>

#include "footprint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "boxmg.h"
#include "edge_terms.h"
#include "field.h"
#include "strategy.h"
#include "sysmem.h"

/* *total += count grids of nx x ny, saturating at SIZE_MAX.  */
static void
add_grids (size_t *total, size_t count, size_t nx, size_t ny)
{
  size_t bytes;
  if (*total == SIZE_MAX)
    return;
  if (!field_bytes (nx, ny, &bytes)
      || (count > 0 && bytes > (SIZE_MAX - *total) / count))
    *total = SIZE_MAX;
  else
    *total += count * bytes;
}

/* *total += bytes, saturating at SIZE_MAX.  */
static void
add_bytes (size_t *total, size_t bytes)
{
  *total = bytes > SIZE_MAX - *total ? SIZE_MAX : *total + bytes;
}

/* The black box hierarchy of the whole grid, counted by boxmg_setup.c
   as it allocates it (its periodic axes coarsen only while even): the
   levels and the solver's arrays, and the coarsest level's band factor
   unless only the levels (a device's copies).  A factor beyond
   BOXMG_FACTOR_LIMIT is refused with its own message before anything
   is built (implicit.c, check_rings): left out here, so that the
   memory check does not refuse it first for a reason that hides the
   cure.  */
static void
add_boxmg (size_t *total, const struct config *cfg, bool factor_too)
{
  const bool px = config_periodic (cfg, EDGE_LEFT);
  const bool py = config_periodic (cfg, EDGE_BOTTOM);
  size_t factor, cnx, cny;
  add_bytes (total, boxmg_footprint (cfg->nx, cfg->ny, px, py, 0, &factor));
  if (factor_too
      && boxmg_coarsest_factor (cfg->nx, cfg->ny, px, py, &cnx, &cny)
         <= BOXMG_FACTOR_LIMIT)
    add_bytes (total, factor);
}

/* The geometric multigrid's hierarchy of a part of nx x ny, counted by
   mg_setup.c as it would allocate it (mg_footprint; of a split grid,
   the part's own hierarchy, which the split one's levels are close
   to).  */
static void
add_levels (size_t *total, const struct config *cfg, size_t nx, size_t ny)
{
  const struct mg_boundary bc = edge_terms_mg_boundary (cfg);
  add_bytes (total, mg_footprint (nx, ny, config_dx (cfg), config_dy (cfg),
                                  &bc));
}

/* Append part to the list of what was counted.  */
static void
counted (struct footprint *f, const char *part)
{
  const size_t used = strlen (f->counted);
  snprintf (f->counted + used, sizeof f->counted - used, "%s%s",
            used > 0 ? ", " : "", part);
}

/* Whether an offloading strategy's device copies live in host memory:
   the device code is LLVM's x86_64 host plugin only.  */
static bool
copies_in_host_memory (const struct config *cfg)
{
#if defined HEATSIM_OFFLOAD && !defined HEATSIM_OFFLOAD_GPU
  return cfg->strategy != NULL && cfg->strategy->offload;
#else
  (void) cfg;
  return false;
#endif
}

/* The footprint of a part of nx x ny of ranks, variable, step and
   boxmg saying whether the material varies, whether its explicit steps
   are the variable step (not the constant stencil and a uniform
   source's rise) and whether the multigrid is the black box one (which
   the maps decide).  */
static struct footprint
footprint_of (const struct config *cfg, size_t nx, size_t ny, int ranks,
              bool variable, bool step, bool boxmg)
{
  const bool multigrid = config_uses_multigrid (cfg);
  const bool copies = copies_in_host_memory (cfg);
  struct footprint f = {
    .kind = !multigrid ? (cfg->steady ? "a steady Jacobi run"
                          : "an explicit run")
            : boxmg ? (cfg->steady ? "a steady black box multigrid run"
                       : "an implicit black box multigrid run")
            : cfg->steady ? "a steady multigrid run"
            : "an implicit multigrid run",
  };
  add_grids (&f.bytes, 2, nx, ny);
  counted (&f, "fields");
  if (variable)
    {
      add_grids (&f.bytes, material_options_source (&cfg->material) ? 3 : 2,
                 nx, ny);
      counted (&f, "material");
    }
  /* The variable step's arrays: wx, wy, gain, rise and the two volume
     fractions' (counted as whole grids).  */
  const bool step_arrays = step && !multigrid && !cfg->steady;
  if (step_arrays)
    {
      add_grids (&f.bytes, 6, nx, ny);
      counted (&f, "material step");
    }
  if (!multigrid && !cfg->steady && ranks > 1 && cfg->tile_steps > 1)
    {
      /* Fused steps on several ranks: two parts widened by the
         neighbours' lines (tiled_ranks.h), at most tile_steps + 1 deep
         on each side, and a varying material's step on them: wx, wy,
         gain and rise.  */
      const size_t reach = 2 * ((size_t) cfg->tile_steps + 1);
      add_grids (&f.bytes, 2 + (step_arrays ? 4 : 0), nx + reach,
                 ny + reach);
      counted (&f, step_arrays ? "widened parts and material step"
                   : "widened parts");
    }
  if (multigrid && !cfg->steady)
    add_grids (&f.bytes, 1, nx, ny);
  if (boxmg)
    {
      add_grids (&f.bytes, 6 + (cfg->steady ? 1 : 0), nx, ny);
      if (ranks > 1)
        add_grids (&f.bytes, 6, cfg->nx, cfg->ny);
      add_boxmg (&f.bytes, cfg, true);
      counted (&f, ranks > 1 ? "operator, whole grid, levels"
                   : "operator, levels");
    }
  else if (multigrid && variable)
    {
      /* A uniform material's source (edge_terms_geometric_source):
         its right-hand side beside the levels.  */
      add_grids (&f.bytes, 1, nx, ny);
      add_levels (&f.bytes, cfg, nx, ny);
      counted (&f, "source, levels");
    }
  else if (multigrid)
    {
      add_levels (&f.bytes, cfg, nx, ny);
      counted (&f, "levels");
    }
  if (copies)
    {
      add_grids (&f.bytes, 2 + (step_arrays ? 4 : 0), nx, ny);
      if (boxmg && ranks == 1 && cfg->strategy->multigrid == MG_RESIDENT)
        add_boxmg (&f.bytes, cfg, false);
      else if (multigrid && ranks == 1
               && cfg->strategy->multigrid == MG_RESIDENT)
        add_levels (&f.bytes, cfg, nx, ny);
      counted (&f, "device copies");
    }
  return f;
}

struct footprint
run_footprint (const struct config *cfg, const struct domain *d)
{
  return footprint_of (cfg, d->local_nx, d->local_ny, d->ranks,
                       cfg->material.variable,
                       config_variable_step (cfg),
                       config_uses_multigrid (cfg)
                       && edge_terms_operator (cfg));
}

struct footprint
least_footprint (const struct config *cfg)
{
  /* As if every map were uniform, the source's too: the variable step
     only for its terms.  */
  struct footprint f = footprint_of (cfg, cfg->nx, cfg->ny, 1,
                                     config_varies_before_maps (cfg),
                                     config_step_terms (cfg),
                                     config_uses_multigrid (cfg)
                                     && edge_terms_operator_least (cfg));
  f.least = true;
  return f;
}

bool
footprint_fits (const struct footprint *need, size_t nx, size_t ny,
                char *err, size_t errlen)
{
  size_t available;
  if (fits_in_memory (need->bytes, &available))
    return true;
  const double gib = 1024.0 * 1024.0 * 1024.0;
  if (need->bytes == SIZE_MAX)
    snprintf (err, errlen, "--grid: %zux%zu needs more bytes than memory "
              "can hold for %s (%s)", nx, ny, need->kind, need->counted);
  else if (need->node_ranks > 1)
    snprintf (err, errlen, "--grid: %zux%zu: the parts of the %d ranks on "
              "this node need %.2f GiB together for %s (%s); only %.2f GiB "
              "are available", nx, ny, need->node_ranks,
              (double) need->bytes / gib, need->kind, need->counted,
              (double) available / gib);
  else
    snprintf (err, errlen, "--grid: %zux%zu needs %s%.2f GiB for %s (%s); "
              "only %.2f GiB are available", nx, ny,
              need->least ? "at least " : "", (double) need->bytes / gib,
              need->kind, need->counted, (double) available / gib);
  return false;
}
