/* The problem catalogue: each problem gives the initial field, the
   boundary values in the halo and, where one is known, the exact
   solution.  */
#ifndef HEATSIM_PROBLEM_H
#define HEATSIM_PROBLEM_H

#include "field.h"

struct config;
struct domain;
struct halo;

/* A separable solution u(i, j, t) = amplitude (t) * profile (x, i) *
   profile (y, j): its nx x ny values cost nx + ny profile evaluations and
   one amplitude, where per-cell functions would cost nx ny of each.  */
enum axis { AXIS_X, AXIS_Y };
struct separable {
  double (*amplitude) (const struct config *cfg, double t);   /* 1 at t = 0 */
  double (*profile) (const struct config *cfg, enum axis axis, size_t k);
};

struct problem {
  const char *name;
  const char *summary;
  bool from_file;          /* the initial field comes from --init FILE */
  /* A separable problem gives its initial field (t = 0) and exact solution
     this way; the others cell by cell below.  */
  const struct separable *separable;
  /* Initial value of cell (i, j), halo included (0 <= i <= nx + 1).  */
  double (*initial) (const struct config *cfg, size_t i, size_t j);
  /* Exact value of interior cell (i, j) at time t, or NULL if none is
     known; valid only where has_exact says so.  */
  double (*exact) (const struct config *cfg, size_t i, size_t j, double t);
  bool (*has_exact) (const struct config *cfg);
};

/* All problems, NULL-terminated; the first is the default of a run
   without a material (problem_default).  */
extern const struct problem *const heatsim_problems[];
const struct problem *problem_find (const char *name);

/* The problem of a run that names none (and has no --init or --restart):
   mms, or uniform where a material, a source or --initial-temperature
   is given (material_check_options has run), so that a material run
   starts from its own temperature, not the mms sine.  */
const struct problem *problem_default (const struct config *c);

/* Distance between the computed field and the exact solution.  */
struct error_norms {
  double l2;         /* sqrt(sum over interior cells of (u - exact)^2) */
  double relative;   /* l2 / sqrt(sum of exact^2) */
  double max;        /* largest |u - exact| */
};

/* Fill u (interior and halo) with the initial condition of cfg, with the
   --edges values, if given, in the halo.  Not for the file problem.
   False when memory for the profiles of a separable problem is short.  */
bool problem_init (const struct config *cfg, struct field *u);

/* Put the --edges values, if given, into the halo of u.  */
void problem_set_edges (const struct config *cfg, struct field *u);

/* Whether cfg's problem has an exact solution under cfg's boundaries.  */
bool problem_has_exact (const struct config *cfg);

/* Compare u, this rank's part of the field, with the exact solution at
   time t (problem_has_exact), over all ranks.  False when memory for the
   profiles of a separable problem is short.  */
bool problem_error (const struct config *cfg, const struct domain *d,
                    const struct field *u, double t, struct error_norms *e);

/* The halo refresh that cfg's boundary kind needs before each step, on
   an nx x ny field (every edge; an MPI run then gives the edges inside
   the whole grid to the exchange).  */
void problem_halo (const struct config *cfg, size_t nx, size_t ny,
                   struct halo *h);

#endif
