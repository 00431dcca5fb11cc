#include <config.h>

#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "edge_terms.h"
#include "host_isa.h"
#include "provenance.h"
#include "run_config.h"
#include "status.h"
#include "strategy.h"

/* Cell updates per second of the solve, and the effective bandwidth: one
   read and one write of a double per cell update.  */
static double
updates_per_second (const struct config *cfg, const struct run_result *r)
{
  double updates = (double) cfg->nx * (double) cfg->ny * (double) r->steps;
  return r->solve > 0.0 ? updates / r->solve : 0.0;
}

static double
bandwidth_gb_s (const struct config *cfg, const struct run_result *r)
{
  return 1e-9 * (double) r->bytes_per_update * updates_per_second (cfg, r);
}

/* The same of the fastest pass (NaN where none ran): like the copy's
   figure beside it, a best of its runs, free of the outputs, checks and
   boundary updates between passes that the mean pays.  */
static double
best_bandwidth_gb_s (const struct config *cfg, const struct run_result *r)
{
  const double cells = (double) cfg->nx * (double) cfg->ny;
  return r->best_pass > 0.0
         ? 1e-9 * (double) r->bytes_per_update * cells / r->best_pass
         : NAN;
}

/* Bytes of one padded grid of cfg (its size was checked before the run).  */
static size_t
grid_bytes (const struct config *cfg)
{
  size_t bytes = 0;
  field_bytes (cfg->nx, cfg->ny, &bytes);
  return bytes;
}

static void
describe_placement (char *buf, size_t len, const struct config *cfg,
                    const struct placement *w)
{
  if (w->on_device)
    snprintf (buf, len, "offload device %d of %d (device code: %s)",
              w->device, w->num_devices, HEATSIM_OFFLOAD_ARCH);
  else if (cfg->strategy->offload)
    snprintf (buf, len, "host, %d threads (FALLBACK: target regions ran on "
              "the host; no offload device %d)", w->threads, w->device);
  else
    snprintf (buf, len, "host, %d threads", w->threads);
}

/* Mean factor by which a V-cycle shrank the residual norm.  */
static double
reduction_per_cycle (const struct run_result *r)
{
  return r->cycles > 0 ? pow (r->residual_final / r->residual_initial,
                              1.0 / (double) r->cycles) : NAN;
}

static double
cycles_per_step (const struct run_result *r)
{
  return r->steps > 0 ? (double) r->cycles / (double) r->steps : NAN;
}

static bool
implicit_scheme (const struct config *cfg)
{
  return !cfg->steady && cfg->scheme != SCHEME_EXPLICIT;
}

const char *
report_iterations (const struct config *cfg)
{
  return edge_terms_operator (cfg) ? "PCG iterations" : "V-cycles";
}

static void
print_steady (FILE *out, const struct config *cfg, const struct run_result *r)
{
  const bool varying = edge_terms_operator (cfg);
  /* A run that starts converged (a restart of a steady state) takes no
     iteration, and has no reduction per iteration.  */
  char reduction[32] = "-";
  if (r->cycles > 0)
    snprintf (reduction, sizeof reduction, "%.3g", reduction_per_cycle (r));
  if (cfg->solver == SOLVER_MULTIGRID)
    fprintf (out,
             "  steady state  %s by multigrid after %zu %s (%u levels),"
             " mean residual reduction %s per %s\n"
             "  residual      %E, initially %E (--rtol %g, round-off floor "
             "%E)\n",
             r->converged ? "reached" : "NOT reached", r->cycles,
             report_iterations (cfg), r->levels,
             reduction, varying ? "iteration" : "cycle",
             r->residual_final, r->residual_initial,
             cfg->rtol, r->residual_floor);
  else
    /* The change per sweep says nothing of the distance to the steady
       state: say what was checked, and the residual beside it.  */
    fprintf (out,
             "  Jacobi        largest change per sweep %E %s --tol %g after "
             "%zu sweeps (checked every %zu)\n"
             "  residual      %E, %.3g of the initial %E\n",
             r->residual, r->converged ? "<=" : ">", cfg->tol, r->steps,
             cfg->residual_every, r->residual_final,
             r->residual_final / r->residual_initial, r->residual_initial);
  fputs (varying ? "                (residual: l2 norm over the interior of "
                   "q + div (k grad u), finite volumes)\n"
         : edge_terms_geometric_source (cfg)
         ? "                (residual: l2 norm over the interior of "
           "q + k times the 5-point Laplacian of u)\n"
         : "                (residual: l2 norm over the interior of "
           "the 5-point Laplacian of u)\n", out);
}

/* The material and the sources, where options give them (issue 23).  */
static void
print_material (FILE *out, const struct config *cfg)
{
  const struct material_options *m = &cfg->material;
  if (material_options_uniform (m))
    fprintf (out, "  material      k %g W/(m K), rho %g kg/m^3, c_p %g "
             "J/(kg K)\n", m->conductivity, m->density, m->heat_capacity);
  else if (m->map != NULL)
    fprintf (out, "  material      map %s, largest k/(rho c_p) %g\n", m->map,
             m->diffusivity_max);
  if (material_options_source (m))
    fprintf (out, "  sources       %s%g uniform, map %s, %zu rectangles\n",
             cfg->unit == TEMPERATURE_NONE ? "" : "W/m^3: ", m->source,
             m->source_map ? m->source_map : "none", m->rects);
}

static void
print_run (FILE *out, const struct config *cfg, const struct run_result *r)
{
  print_material (out, cfg);
  if (cfg->steady)
    {
      print_steady (out, cfg, r);
      return;
    }
  /* The terms the number holds beside the diffusion (check_stability's
     wording).  */
  const char *terms = config_stability_terms (cfg);
  char with[96] = "";
  if (terms != NULL)
    snprintf (with, sizeof with, " + dt/2 times the rate of %s", terms);
  fprintf (out,
           "  physics       alpha %g, dt %E, %zu steps to t = %g\n"
           "  stability     %s%s = %g (explicit limit %g)\n",
           cfg->alpha, cfg->dt, cfg->steps, cfg->end_time,
           config_stability_by_faces (cfg)
           ? "dt/2 * largest rate of a node through its faces"
           : "alpha*dt*(1/dx^2+1/dy^2)", with,
           config_stability (cfg), STABILITY_LIMIT);
  if (implicit_scheme (cfg))
    fprintf (out,
             "  multigrid     %s per step: mean %.2f, max %zu (--rtol "
             "%g, %u levels)\n",
             report_iterations (cfg), cycles_per_step (r), r->cycles_max, cfg->rtol, r->levels);
}

/* What the run solved with, for the report's title.  */
static const char *
method_name (const struct config *cfg)
{
  const bool varying = edge_terms_operator (cfg);
  if (cfg->steady)
    return cfg->solver != SOLVER_MULTIGRID
           ? "steady state by Jacobi sweeps, 5-point stencil"
           : varying ? "steady state by black box multigrid and CG, "
                       "finite volumes"
                     : "steady state by multigrid, 5-point stencil";
  switch (cfg->scheme)
    {
    case SCHEME_BACKWARD_EULER:
      return varying ? "backward Euler finite volumes, black box multigrid"
                     : "backward Euler 5-point stencil, multigrid";
    case SCHEME_CRANK_NICOLSON:
      return varying ? "Crank-Nicolson finite volumes, black box multigrid"
                     : "Crank-Nicolson 5-point stencil, multigrid";
    default:
      return cfg->material.variable ? "explicit finite volumes"
                     : "explicit 5-point stencil";
    }
}

/* Whether r's heat budget is noise: a steady state whose field is
   uniform to 1e-8 of its largest value, which nothing drives, so that
   its edge rates are what the solver's last bits leave (1 to 3 of the
   largest of them apart).  Or, where no source heats it, uniform to
   1e-8 of the initial field's largest value: the steady state of edges
   at 0 is 0, and what the solver leaves of an initial field of 1 (1e-12
   of it at the default --rtol, less with a smaller one) all flows out,
   so that its rates add up to 4 of the largest whatever the tolerance;
   relative to themselves they would never read converged.  A source
   keeps to the final field's own scale: with one, a field far below
   the initial one is no sign of convergence.  */
static bool
budget_noise (const struct config *cfg, const struct run_report *r)
{
  const double largest = fmax (fabs (r->max), fabs (r->min));
  const double scale = r->budget.source == 0.0
                       ? fmax (largest, r->largest_initial) : largest;
  return cfg->steady && r->max - r->min <= 1e-8 * scale;
}

double
report_imbalance_relative (const struct config *cfg,
                           const struct run_report *r)
{
  if (budget_noise (cfg, r))
    return 0.0;
  return heat_budget_relative (&r->budget,
                               heat_rounding_rate (r->heat_magnitude,
                                                   cfg->nx * cfg->ny,
                                                   cfg->steady ? 0.0
                                                   : cfg->dt));
}

/* A sum of the text report in %E with digits after the point, or
   "overflow" where it went beyond double's range (the JSON's null): a
   field near the top of the range has a finite mean but an infinite
   total, and INF - INF printed as -NAN.  */
struct text_number {
  char text[48];
};

static struct text_number
text_number (int digits, double v)
{
  struct text_number n;
  if (isfinite (v))
    snprintf (n.text, sizeof n.text, "%.*E", digits, v);
  else
    snprintf (n.text, sizeof n.text, "overflow");
  return n;
}

/* The heat balance of the final field: what flows in through each
   edge, the sources' power, the face cooling's loss, and the stored
   heat's rate of change that they must add up to, to rounding.  */
static void
print_budget (FILE *out, const struct heat_budget *b, double relative)
{
  fprintf (out,
           "  heat rates    left %s  right %s  bottom %s  top %s\n"
           "  net rate      %s (through the edges, into the domain)\n"
           "  source power  %s\n"
           "  face cooling  %s (lost through the plate's faces)\n"
           "  heat balance  %s (net rate + source power - face cooling; 0 "
           "at a steady state)\n",
           text_number (6, b->rate[EDGE_LEFT]).text,
           text_number (6, b->rate[EDGE_RIGHT]).text,
           text_number (6, b->rate[EDGE_BOTTOM]).text,
           text_number (6, b->rate[EDGE_TOP]).text,
           text_number (6, heat_budget_net (b)).text,
           text_number (6, b->source).text,
           text_number (6, b->face_cooling).text,
           text_number (6, heat_budget_balance (b)).text);
  /* A run stopped before its last step has no stored rate to close
     the balance with.  */
  if (isnan (b->stored))
    return;
  const double imbalance = heat_budget_imbalance (b);
  fprintf (out,
           "  stored heat   %E per unit time (its change in the last step "
           "/ dt; 0 at a steady state)\n"
           "  imbalance     %E (heat balance - stored heat), %.2E of the "
           "largest term\n", b->stored, imbalance, relative);
}

/* A condition's value: its number, or @FILE for a schedule.  */
static void
print_value (FILE *out, const struct schedule *s)
{
  if (s->path != NULL)
    fprintf (out, "@%s", s->path);
  else
    fprintf (out, "%g", s->value);
}

/* The edges' conditions (issue 24), where an option gave any:
   "left temperature 100, right convection 10 W/(m^2 K) to 20, ...".  */
static void
print_conditions (FILE *out, const struct config *cfg)
{
  bool given = false;
  for (int e = 0; e < EDGE_COUNT; ++e)
    given = given || cfg->bc[e].given;
  if (!given)
    return;
  const bool si = cfg->unit != TEMPERATURE_NONE;
  fputs ("  edges        ", out);
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition *b = &cfg->bc[e];
      const char *kind = edge_kind_name (b);
      fprintf (out, "%s %s %s", e ? "," : "", edge_name ((enum edge) e),
               kind);
      if (b->kind == BOUNDARY_DIRICHLET && !b->given)
        fputs (" (the problem's)", out);
      else if (b->kind == BOUNDARY_DIRICHLET
               || (b->kind == BOUNDARY_NEUMANN && strcmp (kind, "flux") == 0))
        {
          putc (' ', out);
          print_value (out, &b->value);
          if (si && b->kind == BOUNDARY_NEUMANN)
            fputs (" W/m^2", out);
        }
      else if (b->kind == BOUNDARY_ROBIN)
        {
          putc (' ', out);
          print_value (out, &b->h);
          fputs (si ? " W/(m^2 K) to " : " to ", out);
          print_value (out, &b->ambient);
        }
    }
  putc ('\n', out);
}

void
report_print (FILE *out, const struct config *cfg, const struct run_report *r)
{
  char where[160];
  describe_placement (where, sizeof where, cfg, &r->where);
  const struct run_result *run = &r->run;
  fprintf (out,
           "heatsim %s: 2-D heat equation, %s\n"
           "  problem       %s, %s boundaries\n"
           "  grid          %zu x %zu cells, domain %g x %g, dx %E, dy %E\n",
           PACKAGE_VERSION, method_name (cfg), cfg->problem->name,
           config_boundary_summary (cfg),
           cfg->nx, cfg->ny, cfg->lx, cfg->ly, config_dx (cfg),
           config_dy (cfg));
  if (cfg->unit == TEMPERATURE_NONE)
    fputs ("  units         none (nondimensional)\n", out);
  else
    fprintf (out, "  units         SI: lengths in m, times in s, alpha in "
             "m^2/s, temperatures in %s\n", temperature_unit_name (cfg->unit));
  print_conditions (out, cfg);
  print_run (out, cfg, run);
  fprintf (out, "  strategy      %s", cfg->strategy->name);
  if (r->where.automatic)
    fprintf (out, " (auto: %s)", r->where.reason);
  if (cfg->strategy->offload)
    fprintf (out, ", kernel form %s", kernel_form_name (cfg->kernel));
  if (run->tile_steps > 1)
    fprintf (out, ", up to %zu steps fused per pass", run->tile_steps);
  fprintf (out,
           "\n"
           "  ran on        %s\n", where);
  if (r->ranks > 1)
    fprintf (out, "  MPI ranks     %d (%d x %d), halo exchange %.6f s of "
             "the solve\n", r->ranks, r->dims[0], r->dims[1],
             run->exchange);
  fputs ("Results\n", out);
  if (r->has_exact)
    fprintf (out,
             "  L2 error      %E (sqrt of the sum over cells of (u - exact)^2)\n"
             "  rel. error    %E\n"
             "  max error     %E\n",
             r->error.l2, r->error.relative, r->error.max);
  else
    fprintf (out, "  error         no exact solution for this problem\n");
  fprintf (out,
           "  total heat    %s (initially %s)\n"
           "  range         %E to %E\n"
           "  peak          %E at (%g, %g)\n"
           "  mean          %E\n",
           text_number (15, r->heat).text,
           text_number (15, r->heat_initial).text, r->min, r->max,
           r->peak.value, r->peak.x, r->peak.y, r->peak.mean);
  print_budget (out, &r->budget, report_imbalance_relative (cfg, r));
  fprintf (out,
           "  checksum      %016" PRIx64 "\n"
           "Timing (s)\n"
           "  setup %.6f  transfer in %.6f  solve %.6f  output %.6f (%zu "
           "files%s)  transfer out %.6f  total %.6f\n",
           r->checksum, run->setup, run->transfer_in, run->solve,
           run->output, run->files,
           cfg->monitor != NULL ? ", --monitor rows" : "",
           run->transfer_out, run->total);
  /* A V-cycle is no single update of each cell: give the cost per
     unknown instead of an update rate.  */
  if (config_uses_multigrid (cfg))
    fprintf (out, "  %.4g ns of solve per unknown\n",
             1e9 * run->solve / ((double) cfg->nx * (double) cfg->ny));
  else
    fprintf (out, "  %.4g cell updates/s, %.2f GB/s effective (%zu bytes per "
             "update)\n", updates_per_second (cfg, run),
             bandwidth_gb_s (cfg, run), run->bytes_per_update);
  const double best = best_bandwidth_gb_s (cfg, run);
  if (cfg->bench && isfinite (best))
    fprintf (out, "  fastest pass %.2f GB/s effective, %.1f %% of the copy "
             "bandwidth (each the best of its runs)\n", best,
             100.0 * best / run->copy_gb_s);
  /* A multigrid run has no stencil bandwidth to set beside them.  */
  if (cfg->bench && !config_uses_multigrid (cfg))
    fprintf (out, "  copy bandwidth %.2f GB/s where the kernels ran: the "
             "stencil reaches %.1f %% of it\n"
             "  memcpy bandwidth %.2f GB/s (omp_target_memcpy of a field; "
             "memcpy for host): %.1f %%\n",
             run->copy_gb_s,
             100.0 * bandwidth_gb_s (cfg, run) / run->copy_gb_s,
             run->memcpy_gb_s,
             100.0 * bandwidth_gb_s (cfg, run) / run->memcpy_gb_s);
  else if (cfg->bench)
    fprintf (out, "  copy bandwidth %.2f GB/s where the kernels ran\n"
             "  memcpy bandwidth %.2f GB/s (omp_target_memcpy of a field; "
             "memcpy for host)\n", run->copy_gb_s, run->memcpy_gb_s);
  if (cfg->bench)
    fprintf (out, "  peak host memory %.1f MiB for two grids of %.1f MiB "
             "each\n", (double) r->peak_memory / 1048576.0,
             (double) grid_bytes (cfg) / 1048576.0);
}

/* A JSON number, or null for "not applicable" and for an infinite or
   NaN value, which JSON cannot write.  */
static void
json_number (FILE *out, const char *name, bool known, double v)
{
  /* + 0.0: -0 prints as 0, as in the monitor's rows.  */
  if (known && isfinite (v))
    fprintf (out, "\"%s\": %.17g, ", name, v + 0.0);
  else
    fprintf (out, "\"%s\": null, ", name);
}

/* A fraction of the copy bandwidth to 6 digits (--bench only, else
   null), then end.  */
static void
json_fraction (FILE *out, const char *name, bool bench, double v,
               const char *end)
{
  if (bench && isfinite (v))
    fprintf (out, "\"%s\": %.6g%s", name, v, end);
  else
    fprintf (out, "\"%s\": null%s", name, end);
}

/* Bytes in the well-formed UTF-8 sequence at s (RFC 3629: no overlong
   forms, no surrogates, nothing past U+10FFFF), or 0 if there is none.  */
static size_t
utf8_length (const unsigned char *s)
{
  const unsigned c = s[0];
  size_t n;
  unsigned lo = 0x80, hi = 0xBF;     /* range of the second byte */
  if (c < 0x80)
    return 1;
  else if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    {
      n = 3;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    }
  else if (c >= 0xF0 && c <= 0xF4)
    {
      n = 4;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    }
  else
    return 0;
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (size_t k = 2; k < n; ++k)
    if (s[k] < 0x80 || s[k] > 0xBF)
      return 0;
  return n;
}

/* s as a JSON string, or null.  Messages and the command line hold the
   user's text (file names, arguments): quotes, backslashes and control
   characters are escaped, and a byte that is not UTF-8 becomes U+FFFD,
   so that every JSON parser reads the object.  */
static void
json_string (FILE *out, const char *s)
{
  if (s == NULL)
    {
      fputs ("null", out);
      return;
    }
  putc ('"', out);
  for (const unsigned char *c = (const unsigned char *) s; *c != '\0';)
    {
      const size_t n = utf8_length (c);
      if (n == 0)
        fputs ("\\ufffd", out);
      else if (*c == '"' || *c == '\\')
        fprintf (out, "\\%c", *c);
      else if (*c < 0x20 || *c == 0x7F)
        fprintf (out, "\\u%04x", *c);
      else
        fwrite (c, 1, n, out);
      c += n == 0 ? 1 : n;
    }
  putc ('"', out);
}

/* The name of a status in the JSON report.  */
static const char *
status_name (int status)
{
  switch (status)
    {
    case HEATSIM_OK: return "ok";
    case HEATSIM_USAGE: return "usage_error";
    case HEATSIM_NO_DEVICE: return "no_device";
    case HEATSIM_NOT_CONVERGED: return "not_converged";
    case HEATSIM_NOT_FINITE: return "not_finite";
    case HEATSIM_BAD_FILE: return "bad_file";
    case HEATSIM_TOO_LARGE: return "too_large";
    case HEATSIM_NO_MEMORY: return "no_memory";
    case HEATSIM_WRITE_FAILED: return "write_failed";
    default:
      return status > HEATSIM_INTERRUPTED ? "interrupted" : "failed";
    }
}

/* The keys every JSON object starts with: how the run ended, and where
   the result came from.  No separator after the last.  */
static void
json_head (FILE *out, const struct provenance *p,
           const struct run_outcome *end)
{
  fprintf (out, "{\"schema_version\": %d, \"status\": \"%s\", "
           "\"exit_status\": %d, \"error\": ", REPORT_SCHEMA_VERSION,
           status_name (end->status), end->exit_status);
  json_string (out, end->error);
  fputs (", \"command_line\": ", out);
  json_string (out, p->command_line);
  fputs (", \"case\": ", out);
  json_string (out, p->case_text);
  fputs (", \"version\": \"" PACKAGE_VERSION "\", \"device_code\": ", out);
  json_string (out, p->device_code);
  fputs (", \"mpi\": ", out);
  json_string (out, p->mpi);
}

void
report_json_failure (FILE *out, const struct provenance *p,
                     const struct run_outcome *end)
{
  json_head (out, p, end);
  fputs ("}\n", out);
}

/* "name": a condition's value, a number or "@FILE"; null for the
   problem's own temperatures.  */
static void
json_value (FILE *out, const char *name, const struct schedule *s,
            bool known)
{
  fprintf (out, ", \"%s\": ", name);
  if (!known)
    fputs ("null", out);
  else if (s->path != NULL)
    {
      char text[4100];
      snprintf (text, sizeof text, "@%s", s->path);
      json_string (out, text);
    }
  else
    fprintf (out, "%.17g", s->value + 0.0);
}

/* "bc": each edge's kind and values (issue 24).  */
static void
json_conditions (FILE *out, const struct config *cfg)
{
  fputs ("\"bc\": {", out);
  for (int e = 0; e < EDGE_COUNT; ++e)
    {
      const struct edge_condition *b = &cfg->bc[e];
      fprintf (out, "%s\"%s\": {\"kind\": \"%s\"", e ? ", " : "",
               edge_name ((enum edge) e), edge_kind_name (b));
      if (b->kind == BOUNDARY_DIRICHLET || b->kind == BOUNDARY_NEUMANN)
        json_value (out, "value", &b->value,
                    b->kind != BOUNDARY_DIRICHLET || b->given);
      if (b->kind == BOUNDARY_ROBIN)
        {
          json_value (out, "h", &b->h, true);
          json_value (out, "ambient", &b->ambient, true);
        }
      putc ('}', out);
    }
  fputs ("}, ", out);
}

/* ", "host_isa": {...}": the host path of each kernel (host_isa.h).  */
static void
json_host_isa (FILE *out)
{
  fputs (", \"host_isa\": {", out);
  for (int k = 0; k < HOST_KERNEL_COUNT; ++k)
    fprintf (out, "%s\"%s\": \"%s\"", k > 0 ? ", " : "",
             host_kernel_name ((enum host_kernel) k),
             host_isa_name (host_isa_of ((enum host_kernel) k)));
  fputc ('}', out);
}

void
report_json (FILE *out, const struct config *cfg, const struct run_report *r,
             const struct run_outcome *end)
{
  const struct run_result *run = &r->run;
  const struct placement *w = &r->where;
  const bool offload = cfg->strategy->offload;
  json_head (out, cfg->provenance, end);
  json_host_isa (out);
  fprintf (out, ", \"problem\": \"%s\", \"boundary\": \"%s\", ",
           cfg->problem->name, config_boundary_summary (cfg));
  json_conditions (out, cfg);
  fprintf (out, "\"nx\": %zu, \"ny\": %zu, ", cfg->nx, cfg->ny);
  json_number (out, "lx", true, cfg->lx);
  json_number (out, "ly", true, cfg->ly);
  json_number (out, "dx", true, config_dx (cfg));
  json_number (out, "dy", true, config_dy (cfg));
  json_number (out, "alpha", true, cfg->alpha);
  const struct material_options *m = &cfg->material;
  const bool uniform = material_options_uniform (m);
  json_number (out, "conductivity", uniform, m->conductivity);
  json_number (out, "density", uniform, m->density);
  json_number (out, "heat_capacity", uniform, m->heat_capacity);
  fputs ("\"material_map\": ", out);
  json_string (out, m->map);
  fputs (", \"source_map\": ", out);
  json_string (out, m->source_map);
  fputs (", ", out);
  json_number (out, "diffusivity_max", true, config_diffusivity_max (cfg));
  if (cfg->unit == TEMPERATURE_NONE)
    fputs ("\"temperature_unit\": null, ", out);
  else
    fprintf (out, "\"temperature_unit\": \"%s\", ",
             temperature_unit_name (cfg->unit));
  json_number (out, "dt", !cfg->steady, cfg->dt);
  json_number (out, "end_time", !cfg->steady, cfg->end_time);
  json_number (out, "stability", !cfg->steady, config_stability (cfg));
  fprintf (out, "\"steady\": %s, \"start_step\": %zu, ",
           cfg->steady ? "true" : "false", cfg->start_step);
  json_number (out, "start_time", !cfg->steady, cfg->start_time);
  fprintf (out, "\"steps\": %zu, ", run->steps);
  const bool jacobi = cfg->steady && cfg->solver == SOLVER_JACOBI;
  const bool multigrid = config_uses_multigrid (cfg);
  const bool implicit = implicit_scheme (cfg);
  json_number (out, "residual", jacobi, run->residual);
  fprintf (out, "\"converged\": %s, ", !cfg->steady ? "null"
           : run->converged ? "true" : "false");
  fprintf (out, "\"solver\": %s%s%s, \"scheme\": %s%s%s, ",
           cfg->steady ? "\"" : "",
           cfg->steady ? steady_solver_name (cfg->solver) : "null",
           cfg->steady ? "\"" : "", cfg->steady ? "" : "\"",
           cfg->steady ? "null" : time_scheme_name (cfg->scheme),
           cfg->steady ? "" : "\"");
  json_number (out, "rtol", multigrid, cfg->rtol);
  json_number (out, "tol", jacobi, cfg->tol);
  json_number (out, "residual_norm_initial", cfg->steady,
               run->residual_initial);
  json_number (out, "residual_norm_final", cfg->steady, run->residual_final);
  json_number (out, "residual_floor", cfg->steady && multigrid,
               run->residual_floor);
  if (multigrid)
    fprintf (out, "\"cycles\": %zu, \"levels\": %u, ", run->cycles,
             run->levels);
  else
    fprintf (out, "\"cycles\": null, \"levels\": null, ");
  json_number (out, "mean_reduction_per_cycle", cfg->steady && multigrid,
               reduction_per_cycle (run));
  json_number (out, "cycles_per_step_mean", implicit, cycles_per_step (run));
  if (implicit)
    fprintf (out, "\"cycles_per_step_max\": %zu, ", run->cycles_max);
  else
    fprintf (out, "\"cycles_per_step_max\": null, ");
  fprintf (out,
           "\"strategy\": \"%s\", \"strategy_auto\": %s, "
           "\"strategy_reason\": %s%s%s, "
           "\"kernel\": %s%s%s, \"on_device\": %s, "
           "\"device\": %d, \"num_devices\": %d, \"host_threads\": %d, "
           "\"offload_arch\": \"%s\", ",
           cfg->strategy->name, w->automatic ? "true" : "false",
           w->automatic ? "\"" : "", w->automatic ? w->reason : "null",
           w->automatic ? "\"" : "", offload ? "\"" : "",
           offload ? kernel_form_name (cfg->kernel) : "null", offload ? "\"" : "",
           w->on_device ? "true" : "false", w->device,
           w->num_devices, w->threads, HEATSIM_OFFLOAD_ARCH);
  fprintf (out, "\"tile_steps\": %zu, \"tile_refusal\": ", run->tile_steps);
  json_string (out, run->tile_refusal);
  fputs (", ", out);
  json_number (out, "l2_error", r->has_exact, r->error.l2);
  json_number (out, "relative_error", r->has_exact, r->error.relative);
  json_number (out, "max_error", r->has_exact, r->error.max);
  json_number (out, "heat_initial", true, r->heat_initial);
  json_number (out, "heat", true, r->heat);
  json_number (out, "min", true, r->min);
  json_number (out, "max", true, r->max);
  json_number (out, "peak", true, r->peak.value);
  json_number (out, "peak_x", true, r->peak.x);
  json_number (out, "peak_y", true, r->peak.y);
  json_number (out, "mean", true, r->peak.mean);
  const struct heat_budget *b = &r->budget;
  json_number (out, "heat_rate_left", true, b->rate[EDGE_LEFT]);
  json_number (out, "heat_rate_right", true, b->rate[EDGE_RIGHT]);
  json_number (out, "heat_rate_bottom", true, b->rate[EDGE_BOTTOM]);
  json_number (out, "heat_rate_top", true, b->rate[EDGE_TOP]);
  json_number (out, "heat_rate_net", true, heat_budget_net (b));
  json_number (out, "source_power", true, b->source);
  json_number (out, "face_cooling", true, b->face_cooling);
  json_number (out, "heat_balance", true, heat_budget_balance (b));
  json_number (out, "stored_heat_rate", true, b->stored);
  json_number (out, "imbalance", true, heat_budget_imbalance (b));
  json_number (out, "imbalance_relative", true,
               report_imbalance_relative (cfg, r));
  fprintf (out,
           "\"checksum\": \"%016" PRIx64 "\", "
           "\"time_setup\": %.9f, \"time_transfer_in\": %.9f, "
           "\"time_solve\": %.9f, \"time_output\": %.9f, \"files\": %zu, "
           "\"time_transfer_out\": %.9f, "
           "\"time_total\": %.9f, ",
           r->checksum, run->setup,
           run->transfer_in, run->solve, run->output, run->files,
           run->transfer_out, run->total);
  json_number (out, "cell_updates_per_s", !multigrid,
               updates_per_second (cfg, run));
  json_number (out, "bandwidth_gb_s", !multigrid, bandwidth_gb_s (cfg, run));
  fprintf (out, "\"peak_memory_bytes\": %zu, \"grid_bytes\": %zu, "
           "\"ranks\": %d, \"ranks_x\": %d, \"ranks_y\": %d, "
           "\"time_exchange\": %.9f, ", r->peak_memory, grid_bytes (cfg),
           r->ranks, r->dims[0], r->dims[1], r->run.exchange);
  json_number (out, "copy_gb_s", cfg->bench, run->copy_gb_s);
  json_number (out, "memcpy_gb_s", cfg->bench, run->memcpy_gb_s);
  json_fraction (out, "copy_fraction", cfg->bench && !multigrid,
                 bandwidth_gb_s (cfg, run) / run->copy_gb_s, ", ");
  const double best = best_bandwidth_gb_s (cfg, run);
  json_number (out, "bandwidth_best_gb_s", !multigrid, best);
  json_fraction (out, "copy_fraction_best", cfg->bench && !multigrid,
                 best / run->copy_gb_s, "}\n");
}
