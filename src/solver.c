#include <config.h>

#include "solver.h"

#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"
#include "domain.h"
#include "edge_terms.h"
#include "heat_rates.h"
#include "implicit.h"
#include "kernels_tiled.h"
#include "monitor.h"
#include "output.h"
#include "problem.h"
#include "progress.h"
#include "run_config.h"
#include "sampling.h"
#include "schedule.h"
#include "signals.h"
#include "status.h"
#include "tiled_ranks.h"

/* Edge e of the part is an edge of the whole grid that takes heat in:
   convection, or a flux other than the constant 0 (insulated, the plain
   mirror).  */
static bool
heated_edge (const struct config *cfg, const struct domain *d, enum edge e)
{
  const struct edge_condition *bc = &cfg->bc[e];
  return domain_holds_edge (d, e)
         && (bc->kind == BOUNDARY_ROBIN
             || (bc->kind == BOUNDARY_NEUMANN
                 && (bc->value.path != NULL || bc->value.value != 0.0)));
}

/* Edge e of the part is a Dirichlet edge of the whole grid given a
   temperature, which replaces the problem's own edge values.  */
static bool
given_temperature (const struct config *cfg, const struct domain *d,
                   enum edge e)
{
  return cfg->bc[e].kind == BOUNDARY_DIRICHLET && cfg->bc[e].given
         && domain_holds_edge (d, e);
}

/* The halo's boundary rules besides the copies: which edges add heat to
   their mirror (form (a): the constant-coefficient stencil, whose k is
   the uniform conductivity), and which Dirichlet edges follow a
   schedule.  */
static void
boundary_halo (struct solver *s, const struct config *cfg)
{
  struct halo *h = &s->work.stencil.halo;
  const double k = s->material.conductivity_uniform;
  const double spacing[EDGE_COUNT] = { config_dx (cfg), config_dx (cfg),
                                       config_dy (cfg), config_dy (cfg) };
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      h->heat[e] = heated_edge (cfg, s->domain, (enum edge) e);
      h->coef[e] = 2.0 * spacing[e] / k;
      h->scheduled[e] = given_temperature (cfg, s->domain, (enum edge) e)
                        && cfg->bc[e].value.path != NULL;
    }
}

/* The values of the edges, the source schedule and the face cooling at
   time t: what the explicit step from t uses.  */
static void
boundary_at (struct workspace *w, const struct config *cfg, double t)
{
  struct edge_heat *in = &w->stencil.halo.in;
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition *bc = &cfg->bc[e];
      const bool flux = bc->kind == BOUNDARY_NEUMANN;
      const bool robin = bc->kind == BOUNDARY_ROBIN;
      in->flux[e] = flux ? schedule_at (&bc->value, t) : 0.0;
      in->h[e] = robin ? schedule_at (&bc->h, t) : 0.0;
      in->ambient[e] = robin ? schedule_at (&bc->ambient, t) : 0.0;
    }
  struct material_step *ms = &w->material;
  ms->factor = schedule_at (&cfg->source_schedule, t);
  ms->sink = cfg->surface_given
             ? 2.0 * schedule_at (&cfg->surface_h, t) / cfg->thickness : 0.0;
  ms->ambient = cfg->surface_given
                ? schedule_at (&cfg->surface_ambient, t) : 0.0;
}

/* The temperatures of the Dirichlet edges given one, at time t.  */
static void
temperatures_at (double temperature[EDGE_COUNT], const struct config *cfg,
                 double t)
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    temperature[e] = cfg->bc[e].kind == BOUNDARY_DIRICHLET
                     ? schedule_at (&cfg->bc[e].value, t) : 0.0;
}

/* Both fields' halo lines of the Dirichlet edges given a temperature,
   at the start time, on the host: once for good where the temperature
   is constant; a scheduled one is set again after each step.  */
static void
set_given_temperatures (struct solver *s, const struct config *cfg)
{
  struct workspace *w = &s->work;
  bool given[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    given[e] = given_temperature (cfg, s->domain, (enum edge) e);
  temperatures_at (w->stencil.halo.temperature, cfg,
                   config_time (cfg, cfg->start_step));
  halo_set_host (&w->stencil, w->u.data, given, w->stencil.halo.temperature);
  halo_set_host (&w->stencil, w->unew.data, given,
                 w->stencil.halo.temperature);
}

/* The least and the largest value of the interior of this rank's part
   of f, into range (min, max) as far as they go.  */
static void
part_range (const struct field *f, double range[2])
{
  for (size_t j = 1; f->data != NULL && j <= f->ny; ++j)
    for (size_t i = 1; i <= f->nx; ++i)
      {
        range[0] = fmin (range[0], f->data[field_index (f, i, j)]);
        range[1] = fmax (range[1], f->data[field_index (f, i, j)]);
      }
}

/* Whether k or rho c_p varies over the whole grid: a part may be
   uniform where the grid is not.  Every rank must call it.  */
static bool
material_varies (const struct solver *s)
{
  const struct field *const f[2] = { &s->material.conductivity,
                                     &s->material.capacity };
  bool varies = false;
  for (int k = 0; k < 2; ++k)
    {
      double range[2] = { HUGE_VAL, -HUGE_VAL };
      part_range (f[k], range);
      varies |= domain_max (s->domain, range[1])
                > domain_min (s->domain, range[0]);
    }
  return varies;
}

/* What a run has that Jacobi sweeps cannot take: up to five kinds, each
   with the options that gave it.  */
struct misfits {
  size_t n;
  char item[5][576];
};

/* Add "what (names)" where names is not empty.  */
static void
add_misfit (struct misfits *m, const char *what, const char *names)
{
  if (names[0] != '\0')
    snprintf (m->item[m->n++], sizeof m->item[0], "%s (%s)", what, names);
}

/* Append name (and file, where not NULL) to a list separated by ", ".  */
static void
list_name (char *names, size_t size, const char *name, const char *file)
{
  const size_t used = strlen (names);
  snprintf (names + used, size - used, "%s%s%s%s", used > 0 ? ", " : "",
            name, file != NULL ? " " : "", file != NULL ? file : "");
}

/* The edges of a heat flux (flux) or convection edge, as "--bc EDGE"
   names into names.  */
static void
edge_names (const struct config *cfg, bool flux, char *names, size_t size)
{
  names[0] = '\0';
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition *b = &cfg->bc[e];
      char name[16];
      snprintf (name, sizeof name, "--bc %s", edge_name ((enum edge) e));
      if (flux ? b->kind == BOUNDARY_NEUMANN
                 && (b->value.path != NULL || b->value.value != 0.0)
               : b->kind == BOUNDARY_ROBIN)
        list_name (names, size, name, NULL);
    }
}

/* What a run has that Jacobi sweeps cannot take, each with the options
   that gave it, into text as "A, B or C": the user must see which
   option to drop (face cooling was missing from a fixed list).  Every
   rank must call it.  */
static void
jacobi_misfits (const struct solver *s, const struct config *cfg,
                char *text, size_t size)
{
  const struct material_options *m = &cfg->material;
  struct misfits list = { .n = 0 };
  char names[512] = "";
  if (s->material.variable && material_varies (s))
    list_name (names, sizeof names, m->from_checkpoint ? "--restart"
               : "--material-map", m->map);
  add_misfit (&list, "variable material", names);
  names[0] = '\0';
  if (m->source_map != NULL)
    list_name (names, sizeof names, m->from_checkpoint ? "--restart"
               : "--source-map", m->source_map);
  if (m->source_given)
    list_name (names, sizeof names, "--source", NULL);
  if (m->rects > 0)
    list_name (names, sizeof names, "--source-rect", NULL);
  if (cfg->source_schedule.path != NULL)
    list_name (names, sizeof names, "--source-schedule", NULL);
  add_misfit (&list, "source", names);
  edge_names (cfg, true, names, sizeof names);
  add_misfit (&list, "heat flux edge", names);
  edge_names (cfg, false, names, sizeof names);
  add_misfit (&list, "convection edge", names);
  add_misfit (&list, "face cooling",
              cfg->surface_given ? "--surface-convection" : "");
  snprintf (text, size, "%s", list.n > 0 ? "" : "variable material");
  for (size_t k = 0; k < list.n; ++k)
    {
      const size_t used = strlen (text);
      snprintf (text + used, size - used, "%s%s",
                k == 0 ? "" : k + 1 == list.n ? " or " : ", ", list.item[k]);
    }
}

/* Whether the explicit step of cfg's material is the constant stencil
   plus a rise (config_uniform_source).  Then it sets the stencil's rise
   to dt q / (rho c_p): 16 bytes a cell rather than the variable step's
   48, and the edges keep form (a).  */
static bool
uniform_source_step (struct solver *s, const struct config *cfg)
{
  if (!config_uniform_source (cfg) || cfg->steady
      || cfg->scheme != SCHEME_EXPLICIT)
    return false;
  const struct field *q = &s->material.source;
  /* dt / (rho c_p) first, as the variable step's gain: dt q alone may
     overflow where the rise does not.  */
  s->work.stencil.rise = cfg->dt / s->material.capacity_uniform
                         * q->data[field_index (q, 1, 1)];
  return true;
}

/* The explicit step of a variable material, whose arrays the strategy
   places beside the fields, for an explicit time-dependent run; the
   implicit schemes and the steady state solve their own way.  In every
   scheme a variable material's halo is the plain mirror (form (a), the
   mirror plus 2 h / k times the edge's heat, has no k where k varies),
   but for the explicit steps of a uniform source, which are the
   constant stencil's.  Returns 0 or a heatsim_status.  */
static int
prepare_material_step (struct solver *s, const struct config *cfg)
{
  struct workspace *w = &s->work;
  /* Jacobi sweeps are the constant stencil's: without the operator's
     edge terms a convection edge diverges and a flux never balances.  */
  if (cfg->steady && cfg->solver == SOLVER_JACOBI
      && (s->material.variable || edge_terms_needed (cfg)))
    {
      char misfits[3072];
      jacobi_misfits (s, cfg, misfits, sizeof misfits);
      heatsim_error ("--solver jacobi: Jacobi sweeps take no %s; use "
                     "--solver multigrid", misfits);
      return HEATSIM_USAGE;
    }
  if (!s->material.variable || uniform_source_step (s, cfg))
    return HEATSIM_OK;
  /* The edges' heat goes to their nodes (form (b)), not into the halo.  */
  bool heated[EDGE_COUNT];
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      heated[e] = w->stencil.halo.heat[e];
      w->stencil.halo.heat[e] = false;
    }
  if (cfg->steady || cfg->scheme != SCHEME_EXPLICIT)
    return HEATSIM_OK;
  bool edge_node[EDGE_COUNT];
  domain_edge_nodes (s->domain, cfg, edge_node);
  if (!material_step_build (&w->material, &s->material, config_dx (cfg),
                            config_dy (cfg), cfg->dt, edge_node))
    {
      heatsim_error ("cannot allocate the material's operator for a "
                     "%zu x %zu grid", w->u.nx, w->u.ny);
      return HEATSIM_NO_MEMORY;
    }
  w->variable = true;
  w->material.cooled = cfg->surface_given;
  for (int e = 0; e < EDGE_COUNT; ++e)
    w->material.heated[e] = heated[e];
  return HEATSIM_OK;
}

int
solver_init (struct solver *s, const struct config *cfg, int device,
             struct domain *d, struct field *initial)
{
  *s = (struct solver) { .strategy = cfg->strategy, .domain = d };
  struct workspace *w = &s->work;
  w->device = device;
  const double dx = config_dx (cfg), dy = config_dy (cfg);
  const double rx = cfg->alpha * cfg->dt / (dx * dx);
  const double ry = cfg->alpha * cfg->dt / (dy * dy);
  const size_t nx = d->local_nx, ny = d->local_ny;
  if (s->strategy->offload && !kernel_fits (nx, ny))
    {
      heatsim_error ("a %zu x %zu grid is too long or too tall for the "
                     "target kernels' 32-bit indices", nx, ny);
      return HEATSIM_TOO_LARGE;
    }
  w->stencil = (struct stencil) {
    .nx = nx, .ny = ny, .stride = nx + 2,
    .rx = rx, .ry = ry,
    /* Steady sweeps are Jacobi: the centre weight is exactly zero.  */
    .rc = cfg->steady ? 0.0 : 1.0 - 2.0 * (rx + ry),
    .form = cfg->kernel,
  };
  problem_halo (cfg, nx, ny, &w->stencil.halo);
  domain_halo (d, &w->stencil.halo);
  const int built = material_build (&s->material, cfg, d);
  if (built != HEATSIM_OK)
    return built;
  const bool from_file = initial->data != NULL;
  bool ok = from_file ? domain_take (d, initial, &w->u)
            : field_alloc (&w->u, nx, ny);
  ok = ok && field_alloc (&w->unew, nx, ny);
  if (ok && domain_exchanges (d))
    {
      w->strips = halo_strips_length (&w->stencil);
      w->send = malloc (2 * w->strips * sizeof *w->send);
      w->recv = w->send + w->strips;
      ok = w->send != NULL;
      w->strips_on_device = ok && s->strategy->resident && domain_gpu_aware ()
                            && !target_runs_on_host (device);
    }
  if (!ok)
    {
      heatsim_error ("cannot allocate two %zu x %zu grids", nx, ny);
      solver_free (s);
      return HEATSIM_NO_MEMORY;
    }
  w->u.x0 = w->unew.x0 = d->x0;
  w->u.y0 = w->unew.y0 = d->y0;
  if (from_file)
    problem_set_edges (cfg, &w->u);
  else if (!problem_init (cfg, &w->u))
    {
      heatsim_error ("out of memory while setting up the initial field");
      solver_free (s);
      return HEATSIM_NO_MEMORY;
    }
  /* The kernel writes only the interior; both fields carry the boundary.  */
  field_copy (&w->unew, &w->u);
  boundary_halo (s, cfg);
  set_given_temperatures (s, cfg);
  const int prepared = prepare_material_step (s, cfg);
  if (prepared != HEATSIM_OK)
    solver_free (s);
  else
    boundary_at (w, cfg, config_time (cfg, cfg->start_step));
  return prepared;
}

/* The cells of r, u -> unew, by the variable material's step where the
   run has one (no residual: its runs are time-dependent), else by the
   constant stencil.  */
static double
update (const struct strategy *st, struct workspace *w, struct rect r,
        bool residual)
{
  if (!w->variable)
    return st->update (w, r, residual);
  st->update_material (w, r);
  return 0.0;
}

static double
update_frame (const struct strategy *st, struct workspace *w, bool residual)
{
  if (!w->variable)
    return st->update_frame (w, residual);
  st->update_frame_material (w);
  return 0.0;
}

/* After the update of every cell: face cooling and the heat of the flux
   and convection edges into their nodes, where the variable step takes
   them (form (b)).  */
static void
update_terms (const struct strategy *st, struct workspace *w)
{
  if (w->variable && material_step_terms (&w->material))
    st->terms_material (w);
}

/* Send u's edge lines to the neighbours and post the receives of
   theirs (halo_end completes it).  */
static void
halo_begin (struct solver *s)
{
  struct workspace *w = &s->work;
  s->strategy->pack (w);
  double *send = w->send, *recv = w->recv;
  if (w->strips_on_device)
    {
      send = device_address (send, w->device);
      recv = device_address (recv, w->device);
    }
  domain_exchange_begin (s->domain, send, recv);
}

/* The neighbours' lines into u's halo, then the copies: a part one line
   thin mirrors the line its neighbour sends.  */
static void
halo_end (struct solver *s)
{
  struct workspace *w = &s->work;
  domain_exchange_end (s->domain);
  s->strategy->unpack (w);
  if (w->stencil.halo.refresh)
    s->strategy->refresh_halo (w);
}

/* u's halo for its own step, as an explicit step from it fills it, for
   a checkpoint's /boundary: a step leaves the halo of the field before
   it (the fields swap).  The step after fills it again alike (and
   implicit steps their own way: implicit.c, fill_halo).  Every rank
   calls it together.  */
static void
fill_halo_at (struct solver *s, const struct config *cfg, size_t step)
{
  struct workspace *w = &s->work;
  boundary_at (w, cfg, config_time (cfg, step));
  if (w->send != NULL)
    {
      halo_begin (s);
      halo_end (s);
    }
  else if (w->stencil.halo.refresh)
    s->strategy->refresh_halo (w);
}

/* One step, u -> unew, returning the largest change of a cell of this
   rank when residual.  With neighbours, the halo lines travel while the
   cells that do not need them are computed; the cells next to the halo
   follow once they have arrived.  */
static double
step (struct solver *s, bool residual, double *exchange_seconds)
{
  const struct strategy *st = s->strategy;
  struct workspace *w = &s->work;
  const struct stencil *c = &w->stencil;
  if (w->send == NULL)
    {
      if (c->halo.refresh)
        st->refresh_halo (w);
      const double change = update (st, w, stencil_interior (c), residual);
      update_terms (st, w);
      return change;
    }

  double t0 = omp_get_wtime ();
  halo_begin (s);
  double t1 = omp_get_wtime ();
  double change = 0.0;
  if (c->nx > 2 && c->ny > 2)
    change = update (st, w, (struct rect) { 2, c->nx - 1, 2, c->ny - 1 },
                     residual);
  double t2 = omp_get_wtime ();
  halo_end (s);
  *exchange_seconds += t1 - t0 + omp_get_wtime () - t2;
  change = fmax (change, update_frame (st, w, residual));
  update_terms (st, w);
  return change;
}

/* The residual norm of the discrete steady equations of u (current on
   the host), over all ranks, as the report and --monitor give it: for
   multigrid the norm its V-cycles measure (the last solve's while u is
   the field it left), so that the two are one computation; for Jacobi
   laplace_residual_norm's.  Not finite where u's residual leaves the
   range of double.  */
static double
steady_residual (struct solver *s, const struct config *cfg)
{
  if (cfg->solver != SOLVER_MULTIGRID)
    return laplace_residual_norm (&s->work.stencil, s->domain,
                                  config_dx (cfg), config_dy (cfg),
                                  &s->work.u);
  if (isnan (s->residual))
    s->residual = implicit_steady_norm (&s->multigrid, &s->work.u);
  return s->residual;
}

/* The --monitor row of step, if due (change: the sweep's largest
   change, or negative), and, where a checkpoint of step follows
   (checkpoint), every row so far flushed to disk.  */
static int
write_row (struct solver *s, const struct config *cfg, size_t step,
           bool last, bool checkpoint, double change)
{
  if (s->monitor == NULL)
    return HEATSIM_OK;
  int status = HEATSIM_OK;
  if (monitor_due (s->monitor, cfg, step, last))
    {
      const double residual = cfg->steady ? steady_residual (s, cfg) : -1.0;
      status = monitor_write (s->monitor, cfg, s->domain, &s->material,
                              &s->work.u, step, last, change, residual);
    }
  const int synced = checkpoint ? monitor_sync (s->monitor) : HEATSIM_OK;
  return status != HEATSIM_OK ? status : synced;
}

/* Bring the newest field, u, to the host (a no-op where it lives there)
   and write what is due after step: a --monitor row (with change, the
   sweep's largest change, or negative), output files, probes and
   profiles.  The time counts as output time.

   The row comes before the files, and reaches the disk before a
   checkpoint: a checkpoint on disk always has its row, which a restart
   from it keeps.  A row written after it was lost to a kill (or a crash
   of the machine) between the two, and the restart wrote it again
   without what only the run before knew: the stored heat's rate over
   the step before step, Jacobi's largest change of the sweep.  A row
   without its checkpoint does no harm: a restart from an earlier
   checkpoint drops the rows after that one and writes them again,
   bitwise the same, once.  Both writes are made whatever the other
   gave: every rank takes part in each.  */
static int
write_output (struct solver *s, const struct config *cfg,
              struct output *out, size_t step, bool last, bool files,
              double change)
{
  double t0 = omp_get_wtime ();
  const bool checkpoint = files && output_checkpoint_due (out, step, last);
  if (checkpoint)
    fill_halo_at (s, cfg, step);
  s->strategy->fetch (&s->work);
  int status = write_row (s, cfg, step, last, checkpoint, change);
  const int written = files ? output_write (out, s->domain, &s->work.u,
                                            step, last)
                      : HEATSIM_OK;
  status = status != HEATSIM_OK ? status : written;
  if (s->sampling != NULL && sampling_due (cfg, step, last))
    {
      const int sampled = sampling_write (s->sampling, cfg, s->domain,
                                          &s->work.u, step, last);
      status = status != HEATSIM_OK ? status : sampled;
    }
  s->output_seconds += omp_get_wtime () - t0;
  return status;
}

/* The state the run starts from is the first of its outputs: a series
   of snapshots or checkpoints begins at step 0, and a restarted one goes
   on from the step it left off.  */
static int
write_first (struct solver *s, const struct config *cfg, struct output *out)
{
  double t0 = omp_get_wtime ();
  if (cfg->checkpoint_every != 0)
    fill_halo_at (s, cfg, cfg->start_step);
  s->strategy->fetch (&s->work);
  int status = domain_agree (output_write_first (out, s->domain,
                                                 &s->work.u));
  s->output_seconds += omp_get_wtime () - t0;
  return status;
}

/* After step n of this run: check that the field is still finite (every
   nan_check_every steps, and always before it is written, so a checkpoint
   never holds NaN), write what is due, and stop if a signal asked to.  */
static int
after_step (struct solver *s, const struct config *cfg, struct output *out,
            size_t n, bool last, double change)
{
  const size_t step = cfg->start_step + n;
  /* Every rank stops after the same step, whichever got the signal.  */
  const int sig = domain_signal (s->domain, signals_pending ());
  last = last || sig != 0;
  /* n = 0: no step was taken (a multigrid run that starts converged);
     write_first wrote the files of this state.  */
  const bool files = n > 0 && output_due (out, step, last);
  const bool writes = files || (s->monitor != NULL
                                && monitor_due (s->monitor, cfg, step, last))
                      || (s->sampling != NULL
                          && sampling_due (cfg, step, last));
  if ((n % cfg->nan_check_every == 0 || last || writes)
      && domain_count (s->domain, s->strategy->count_nonfinite (&s->work)) > 0)
    {
      heatsim_error ("the field holds NaN or infinite values after step %zu "
                     "(checked every %zu steps)%s", step, cfg->nan_check_every,
                     config_stability (cfg) > STABILITY_LIMIT && !cfg->steady
                     ? ": the time step is unstable (--force)" : "");
      return HEATSIM_NOT_FINITE;
    }
  int status = HEATSIM_OK;
  if (writes)
    status = domain_agree (write_output (s, cfg, out, step, last, files,
                                         change));
  if (status == HEATSIM_OK && sig != 0)
    {
      heatsim_error ("%s: stopped after step %zu%s", strsignal (sig), step,
                     cfg->checkpoint_every ? "; checkpoint written" : "");
      status = HEATSIM_INTERRUPTED + sig;
    }
  return status;
}

/* Before step n + 1 of a time-dependent run, the total heat where the
   stored heat's rate over that step is wanted: by the report if it is
   the last of two or more, by a --monitor row due after it.  */
static void
note_heat (struct solver *s, const struct config *cfg, size_t n,
           struct run_result *r)
{
  const bool last = n + 1 == cfg->steps;
  const size_t step = cfg->start_step + n;
  const bool row = s->monitor != NULL
                   && monitor_wants_heat (s->monitor, cfg, step, last);
  if (!row && !(last && n > 0))
    return;
  double t0 = omp_get_wtime ();
  s->strategy->fetch (&s->work);
  const double heat = total_heat (s->domain, cfg, &s->material, &s->work.u);
  if (row)
    monitor_note_heat (s->monitor, step, heat);
  if (last)
    r->heat_before_last = heat;
  s->output_seconds += omp_get_wtime () - t0;
}

/* Steps fused per pass when --tile-steps is auto and the run can fuse
   them: measured on the build machine (bench/RESULTS.md).  */
enum { AUTO_TILE_STEPS = 16 };

/* Whether the heat an edge takes in follows a schedule: boundary_at
   changes it from step to step (into the halo, or a variable
   material's into its nodes), which a fused pass cannot follow.  Asked
   of every edge of the whole grid, so that every MPI rank answers
   alike.  */
static bool
edge_heat_varies (const struct config *cfg)
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition *bc = &cfg->bc[e];
      if ((bc->kind == BOUNDARY_NEUMANN || bc->kind == BOUNDARY_ROBIN)
          && (schedule_varies (&bc->value) || schedule_varies (&bc->h)
              || schedule_varies (&bc->ambient)))
        return true;
    }
  return false;
}

/* Whether an edge of the whole grid is given a temperature that follows
   a schedule (set after each step: boundary_halo), every rank alike.  */
static bool
edge_temperature_varies (const struct config *cfg)
{
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (cfg->bc[e].kind == BOUNDARY_DIRICHLET && cfg->bc[e].given
        && cfg->bc[e].value.path != NULL)
      return true;
  return false;
}

/* Why a fused pass cannot follow the run's values in time, or NULL: an
   edge's heat or temperature, a variable material's source factor or
   face cooling that follows a schedule.  Asked of the configuration,
   so that every MPI rank answers alike.  */
static const char *
schedule_refusal (const struct config *cfg, const struct workspace *w)
{
  if (edge_heat_varies (cfg))
    return "an edge's heat follows a schedule";
  if (edge_temperature_varies (cfg))
    return "an edge temperature follows a schedule";
  if (w->variable && schedule_varies (&cfg->source_schedule))
    return "the source follows a schedule";
  if (w->variable && cfg->surface_given
      && (schedule_varies (&cfg->surface_h)
          || schedule_varies (&cfg->surface_ambient)))
    return "face cooling follows a schedule";
  return NULL;
}

/* The steps this run fuses per pass over the field (temporal blocking,
   kernels_tiled.h): --tile-steps where every fused step is exactly a
   plain one, else 1 with *refusal saying why.  Decided once per run.  */
static size_t
tile_steps (const struct solver *s, const struct config *cfg,
            const char **refusal)
{
  const struct workspace *w = &s->work;
  size_t steps = cfg->tile_steps == 0 ? AUTO_TILE_STEPS : cfg->tile_steps;
  const bool split = domain_exchanges (s->domain);
  if (cfg->tile_steps == 1)
    *refusal = "--tile-steps 1";
  else if (s->strategy->offload)
    *refusal = "the kernels run in target regions";
  else
    *refusal = schedule_refusal (cfg, w);
  if (*refusal != NULL)
    return 1;
  if (!split)
    *refusal = tiled_refusal (&w->stencil);
  else if (cfg->tile_steps == 0 && !w->variable)
    /* The constant stencil measured slower fused than plain on 2 ranks
       (bench/RESULTS.md): widening the parts costs what fusing gains.
       A varying material's step, six arrays a cell, gains.  */
    *refusal = "--tile-steps auto on several MPI ranks of a constant "
               "material (give a number)";
  else
    {
      /* Every rank decides alike (its part's refusal depends only on
         what all parts share), and the passes' ends, which are
         collective, fall on the same steps.  */
      const size_t limit = tiled_ranks_limit (s->domain);
      steps = steps < limit ? steps : limit;
      *refusal = tiled_ranks_refusal (&w->stencil, (unsigned) steps);
    }
  return *refusal != NULL ? 1 : steps;
}

/* Whether the time loop must stop after step n (< cfg->steps) of the
   run, as after_step and note_heat would act there: to look for NaN,
   to write, or to note the heat before the next step.  */
static bool
due_after (const struct solver *s, const struct config *cfg,
           const struct output *out, size_t n)
{
  const size_t step = cfg->start_step + n;
  const bool next_last = n + 1 == cfg->steps;
  return n % cfg->nan_check_every == 0 || next_last
         || output_due (out, step, false)
         || (s->monitor != NULL
             && (monitor_due (s->monitor, cfg, step, false)
                 || monitor_wants_heat (s->monitor, cfg, step, next_last)))
         || (s->sampling != NULL && sampling_due (cfg, step, false));
}

/* The steps from step n to fuse into one pass, at most limit: the pass
   ends at the first step after which something is due.  */
static size_t
steps_until_due (const struct solver *s, const struct config *cfg,
                 const struct output *out, size_t n, size_t limit)
{
  size_t steps = 1;
  while (steps < limit && n + steps < cfg->steps
         && !due_after (s, cfg, out, n + steps))
    ++steps;
  return steps;
}

/* How many steps a pass fuses, and what passes need: rings for the
   part, or a part widened by its neighbours' cells where halos trade.  */
struct fusing {
  size_t steps;            /* at most, per pass; 1: none */
  const char *refusal;     /* why none, or NULL */
  struct tiled_scratch tiles;
  struct tiled_ranks wide;
};

/* steps (2 or more) steps, u -> unew, in one pass over the field.  */
static void
fused_steps (struct solver *s, size_t steps, struct fusing *f,
             double *exchange_seconds)
{
  struct workspace *w = &s->work;
  if (domain_exchanges (s->domain))
    {
      tiled_ranks_steps (&f->wide, s->domain, &w->stencil,
                         w->variable ? &w->material : NULL, w->u.data,
                         w->unew.data, (unsigned) steps, exchange_seconds);
      return;
    }
  if (w->stencil.halo.refresh)
    s->strategy->refresh_halo (w);
  heat_steps_tiled (&w->stencil, w->variable ? &w->material : NULL,
                    w->u.data, w->unew.data, (unsigned) steps, &f->tiles);
}

/* The steps an explicit run fuses per pass, and their memory, taken
   and touched now: set-up, as the fields' is, not solve time (the
   first touch of a widened part's pages costs more than a pass).  */
static int
fusing_prepare (struct solver *s, const struct config *cfg)
{
  struct fusing *f = calloc (1, sizeof *f);
  if (f == NULL)
    {
      heatsim_error ("--tile-steps: out of memory");
      return HEATSIM_NO_MEMORY;
    }
  s->fusing = f;
  f->steps = tile_steps (s, cfg, &f->refusal);
  if (f->steps < 2)
    return HEATSIM_OK;
  const struct workspace *w = &s->work;
  return domain_exchanges (s->domain)
         ? (int) tiled_ranks_alloc (&f->wide, s->domain, &w->stencil,
                                    w->variable ? &w->material : NULL,
                                    (unsigned) f->steps)
         : (int) tiled_alloc (&f->tiles, &w->stencil, (unsigned) f->steps);
}

static void
fusing_free (struct solver *s)
{
  if (s->fusing == NULL)
    return;
  tiled_free (&s->fusing->tiles);
  tiled_ranks_free (&s->fusing->wide);
  free (s->fusing);
  s->fusing = NULL;
}

/* A time-dependent run: cfg->steps steps, fused in passes of up to
   tile_steps where that is exact.  */
static int
run_steps (struct solver *s, const struct config *cfg, struct output *out,
           struct run_result *r)
{
  struct workspace *w = &s->work;
  r->tile_steps = s->fusing->steps;
  r->tile_refusal = s->fusing->refusal;
  int status = HEATSIM_OK;
  struct progress progress;
  progress_start (&progress, !cfg->quiet, cfg->progress_every, cfg->steps);
  bool scheduled = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    scheduled = scheduled || w->stencil.halo.scheduled[e];
  size_t n = 0;
  while (n < cfg->steps && status == HEATSIM_OK)
    {
      note_heat (s, cfg, n, r);
      /* The step from t_n takes the values at t_n (constant over a
         fused pass: tile_steps).  */
      boundary_at (w, cfg, config_time (cfg, cfg->start_step + n));
      const size_t steps = steps_until_due (s, cfg, out, n, r->tile_steps);
      const double t0 = omp_get_wtime ();
      if (steps > 1)
        fused_steps (s, steps, s->fusing, &r->exchange);
      else
        step (s, false, &r->exchange);
      const double pass = (omp_get_wtime () - t0) / (double) steps;
      if (n == 0 || pass < r->best_pass)
        r->best_pass = pass;
      field_swap (&w->u, &w->unew);
      n += steps;
      /* The newest field's scheduled edges hold their temperatures at
         its time: the next step starts from them, and outputs and heat
         rates see them.  */
      if (scheduled)
        {
          temperatures_at (w->stencil.halo.temperature, cfg,
                           config_time (cfg, cfg->start_step + n));
          s->strategy->set_halo (w);
        }
      status = after_step (s, cfg, out, n, n == cfg->steps, -1.0);
      progress_update (&progress, n,
                       config_time (cfg, cfg->start_step + n), -1.0);
    }
  progress_finish (&progress);
  r->steps = n;
  return status;
}

/* A steady-state run: sweeps until the largest change of a cell is at most
   tol.  The change is computed (fused into the sweep) and read by the host
   only every residual_every sweeps, so most sweeps cost no round trip;
   also for a --monitor row, but only the residual_every sweeps decide
   when to stop, as without it.  */
static int
run_to_steady_state (struct solver *s, const struct config *cfg,
                     struct output *out, struct run_result *r)
{
  struct progress progress;
  int status = HEATSIM_OK;
  progress_start (&progress, !cfg->quiet, cfg->progress_every,
                  cfg->max_steps);
  r->converged = false;
  r->residual = -1.0;
  size_t n = 0;
  while (n < cfg->max_steps && !r->converged && status == HEATSIM_OK)
    {
      ++n;
      /* Sweeps are counted from the start of the simulation, so that a
         restarted run checks on the same sweeps as an uninterrupted one.  */
      const bool check = (cfg->start_step + n) % cfg->residual_every == 0
                         || n == cfg->max_steps;
      const bool row = s->monitor != NULL
                       && monitor_due (s->monitor, cfg, cfg->start_step + n,
                                       false);
      double change = -1.0;
      if (check || row)
        change = domain_max (s->domain, step (s, true, &r->exchange));
      else
        step (s, false, &r->exchange);
      if (check)
        {
          r->residual = change;
          r->converged = r->residual <= cfg->tol;
        }
      field_swap (&s->work.u, &s->work.unew);
      status = after_step (s, cfg, out, n, r->converged || n == cfg->max_steps,
                           change);
      progress_update (&progress, n, -1.0, r->residual);
    }
  progress_finish (&progress);
  r->steps = n;
  return status;
}

/* Cycles from step to the next step at which output, a --monitor or a
   --probe row falls due (K of every K steps), at most limit.  */
static size_t
cycles_to_output (const struct config *cfg, size_t step, size_t limit)
{
  const size_t every[] = { cfg->png_every, cfg->checkpoint_every,
                           cfg->monitor != NULL ? cfg->monitor_every : 0,
                           cfg->probes > 0 ? cfg->probe_every : 0 };
  for (size_t k = 0; k < sizeof every / sizeof every[0]; ++k)
    if (every[k] != 0 && every[k] - step % every[k] < limit)
      limit = every[k] - step % every[k];
  return limit;
}

/* A steady run by multigrid (its V-cycles where the strategy places
   them; the field current on the host between solves): V-cycles in
   runs that end where output falls due, until the residual norm has
   fallen by --rtol from the initial one (that of the run a restart
   continues) or reached the round-off floor.  */
static int
run_multigrid_steady (struct solver *s, const struct config *cfg,
                      struct output *out, struct run_result *r)
{
  struct workspace *w = &s->work;
  struct implicit *im = &s->multigrid;
  int status = HEATSIM_OK;
  s->strategy->fetch (w);
  const double now = steady_residual (s, cfg);
  if (!isfinite (now))
    {
      heatsim_error ("--solver multigrid: the residual norm of the first "
                     "field is not finite: its values leave the range of "
                     "double");
      return HEATSIM_NOT_FINITE;
    }
  r->residual_initial = cfg->restart_residual > 0.0 ? cfg->restart_residual
                        : now;
  r->residual_final = now;
  out->initial_residual = r->residual_initial;
  const double target = cfg->rtol * r->residual_initial;
  struct progress progress;
  progress_start (&progress, !cfg->quiet, cfg->progress_every,
                  cfg->max_steps);
  r->converged = false;
  size_t n = 0;
  while (!r->converged && status == HEATSIM_OK)
    {
      size_t chunk = cycles_to_output (cfg, cfg->start_step + n,
                                       cfg->max_steps - n);
      if (chunk > MG_MAX_CYCLES)
        chunk = MG_MAX_CYCLES;
      struct mg_report rep = { 0 };
      const enum mg_status mg = implicit_steady_cycles (im, &w->u,
                                                        (unsigned) chunk,
                                                        target, &rep);
      if (mg != MG_OK && mg != MG_NOT_CONVERGED)
        {
          heatsim_error ("--solver multigrid: the residual norm is not "
                         "finite after %zu V-cycles: the field's values "
                         "leave the range of double", n + rep.cycles);
          status = HEATSIM_NOT_FINITE;
          break;
        }
      if (mg == MG_NOT_CONVERGED && rep.cycles == 0)
        {
          /* Conjugate gradients stopped before their first iteration
             (p . A p not positive): going on would repeat it forever.  */
          heatsim_error ("--solver multigrid: conjugate gradients broke "
                         "down after %zu V-cycles (p . A p not positive): "
                         "the operator is singular to rounding; a weak "
                         "heat sink (small H) or a huge contrast of k "
                         "does this", n);
          status = HEATSIM_NOT_CONVERGED;
          break;
        }
      n += rep.cycles;
      s->residual = rep.final;
      r->converged = mg == MG_OK;
      r->residual_final = rep.final;
      r->residual_floor = rep.floor;
      r->levels = rep.levels;
      const bool last = r->converged || n >= cfg->max_steps;
      status = after_step (s, cfg, out, n, last, -1.0);
      progress_update (&progress, n, -1.0, rep.final);
      if (last)
        break;
    }
  progress_finish (&progress);
  r->steps = r->cycles = n;
  return status;
}

/* A time-dependent run by an implicit scheme: each step solved by
   multigrid where the strategy places it, the right-hand side in unew.  */
static int
run_implicit_steps (struct solver *s, const struct config *cfg,
                    struct output *out, struct run_result *r)
{
  struct workspace *w = &s->work;
  struct implicit *im = &s->multigrid;
  int status = HEATSIM_OK;
  s->strategy->fetch (w);
  r->levels = implicit_levels (im);
  struct progress progress;
  progress_start (&progress, !cfg->quiet, cfg->progress_every, cfg->steps);
  size_t n = 0;
  while (n < cfg->steps && status == HEATSIM_OK)
    {
      note_heat (s, cfg, n, r);
      struct mg_report rep = { 0 };
      const enum mg_status mg = implicit_step (im, &w->u,
                                                cfg->start_step + n,
                                                &w->unew, &rep);
      /* A failed step leaves the last good field, that of step n: the
         report gives it and the cycles of the steps that led to it.  */
      if (mg != MG_OK)
        {
          const size_t failed = cfg->start_step + n + 1;
          if (mg == MG_NOT_CONVERGED && rep.cycles == 0)
            heatsim_error ("--scheme %s: step %zu: conjugate gradients "
                           "broke down before their first iteration (p . "
                           "A p not positive): the step's operator is "
                           "singular to rounding; take a smaller dt (--dt, "
                           "or more --steps)",
                           time_scheme_name (cfg->scheme), failed);
          else if (mg == MG_NOT_CONVERGED)
            heatsim_error ("--scheme %s: step %zu: multigrid did not reach "
                           "--rtol %g in %u V-cycles (residual %g of %g)",
                           time_scheme_name (cfg->scheme), failed, cfg->rtol,
                           rep.cycles, rep.final, rep.initial);
          else if (mg == MG_SINGULAR || mg == MG_INVALID)
            /* The hierarchy is set up again where a heat transfer
               coefficient changed: the new operator failed.  */
            heatsim_error ("--scheme %s: step %zu: the operator set up for "
                           "the step's heat transfer coefficients is %s: "
                           "take a smaller dt (--dt, or more --steps)",
                           time_scheme_name (cfg->scheme), failed,
                           mg == MG_SINGULAR
                           ? "singular to rounding (rho c_p / dt vanishes "
                             "beside k / dx^2 where nothing ties the level)"
                           : "not positive definite");
          else
            heatsim_error ("--scheme %s: step %zu: the residual norm is not "
                           "finite after %u V-cycles: the field's values "
                           "leave the range of double",
                           time_scheme_name (cfg->scheme), failed,
                           rep.cycles);
          status = mg == MG_NOT_CONVERGED || mg == MG_SINGULAR
                   || mg == MG_INVALID ? HEATSIM_NOT_CONVERGED
                   : HEATSIM_NOT_FINITE;
          break;
        }
      ++n;
      r->cycles += rep.cycles;
      if (rep.cycles > r->cycles_max)
        r->cycles_max = rep.cycles;
      status = after_step (s, cfg, out, n, n == cfg->steps, -1.0);
      progress_update (&progress, n,
                       config_time (cfg, cfg->start_step + n), -1.0);
    }
  progress_finish (&progress);
  r->steps = n;
  return status;
}

enum { COPY_REPEATS = 10 };

/* Each timing spans at least this long: a small field copies in less
   than one tick of the clock, which measured 0 s (and 0 GB/s).  */
static const double COPY_SPAN_SECONDS = 1e-4;

/* The bandwidth of copy, best of COPY_REPEATS timings of whole-field
   copies.  */
static double
best_copy (struct workspace *w, void (*copy) (struct workspace *))
{
  double best = HUGE_VAL;
  for (int k = 0; k < COPY_REPEATS; ++k)
    {
      const double t0 = omp_get_wtime ();
      double elapsed;
      size_t copies = 0;
      do
        {
          copy (w);
          ++copies;
          elapsed = omp_get_wtime () - t0;
        }
      while (elapsed < COPY_SPAN_SECONDS);
      best = fmin (best, elapsed / (double) copies);
    }
  return 2.0 * sizeof (double) * (double) field_cells (&w->u) / best * 1e-9;
}

/* The copy bandwidth where the kernels run, by a kernel of the stencil's
   shape and by the runtime's memcpy: the roofline of a stencil that reads
   and writes each cell once.  The fields are mapped around the measurement
   for map (for resident they already are: no transfer), not at all for
   host.  */
static void
copy_bandwidth (struct solver *s, struct run_result *r)
{
  struct workspace *w = &s->work;
  double *u = w->u.data, *unew = w->unew.data;
  const size_t n = field_cells (&w->u);
#pragma omp target data map(to: u[0:n]) map(alloc: unew[0:n]) \
  device(w->device) if(s->strategy->offload)
  {
    r->copy_gb_s = best_copy (w, s->strategy->copy);
    r->memcpy_gb_s = best_copy (w, s->strategy->runtime_copy);
  }
}

int
solver_run (struct solver *s, const struct config *cfg, struct output *out,
            struct run_result *r)
{
  double t0 = omp_get_wtime ();
  s->strategy->enter (&s->work);
  double t1 = omp_get_wtime ();
  r->residual_initial = r->residual_final = r->residual_floor = NAN;
  s->residual = NAN;
  r->levels = 0;
  r->cycles = r->cycles_max = 0;
  r->tile_steps = 1;
  r->tile_refusal = "only explicit time steps fuse";
  r->best_pass = 0.0;
  /* The first outputs, rows and profile: the initial field.  */
  int status = write_first (s, cfg, out);
  if (status == HEATSIM_OK && ((s->monitor != NULL && s->monitor->on)
                               || (s->sampling != NULL
                                   && sampling_due (cfg, cfg->start_step,
                                                    false))))
    status = domain_agree (write_output (s, cfg, out, cfg->start_step, false,
                                         false, -1.0));
  if (status != HEATSIM_OK)
    ;
  else if (cfg->steady && cfg->solver == SOLVER_MULTIGRID)
    status = run_multigrid_steady (s, cfg, out, r);
  else if (cfg->steady)
    {
      r->residual_initial = steady_residual (s, cfg);
      status = run_to_steady_state (s, cfg, out, r);
      s->strategy->fetch (&s->work);
      r->residual_final = steady_residual (s, cfg);
    }
  else if (cfg->scheme != SCHEME_EXPLICIT)
    status = run_implicit_steps (s, cfg, out, r);
  else
    status = run_steps (s, cfg, out, r);
  double t2 = omp_get_wtime ();
  /* unew is scratch after the last step: the copy may overwrite it.  */
  r->copy_gb_s = r->memcpy_gb_s = 0.0;
  r->bytes_per_update = s->work.variable ? MATERIAL_STEP_BYTES
                        : 2 * sizeof (double);
  if (cfg->bench && status == HEATSIM_OK)
    copy_bandwidth (s, r);
  s->strategy->leave (&s->work);
  double t3 = omp_get_wtime ();

  r->transfer_in = t1 - t0;
  r->output = s->output_seconds;
  r->files = out->files;
  r->solve = t2 - t1 - r->output;
  r->transfer_out = t3 - t2;
  return status;
}

int
solver_prepare (struct solver *s, const struct config *cfg)
{
  if (!cfg->steady && cfg->scheme == SCHEME_EXPLICIT)
    return fusing_prepare (s, cfg);
  if (!config_uses_multigrid (cfg))
    return HEATSIM_OK;
  return implicit_init (&s->multigrid, cfg, &s->work.stencil, s->domain,
                        &s->material, s->strategy->multigrid,
                        s->work.device);
}

void
solver_free (struct solver *s)
{
  implicit_free (&s->multigrid);
  fusing_free (s);
  material_free (&s->material);
  material_step_free (&s->work.material);
  s->work.variable = false;
  field_free (&s->work.u);
  field_free (&s->work.unew);
  free (s->work.send);
  s->work.send = s->work.recv = NULL;
}
