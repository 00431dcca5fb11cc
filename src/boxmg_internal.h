/* The hierarchy of the black box multigrid (boxmg.h) and the passes the
   V-cycle is made of.  Every level is a padded grid like a field:
   (ny + 2) rows of stride = nx + 2, interior nodes 1 .. nx, 1 .. ny.  */
#ifndef HEATSIM_BOXMG_INTERNAL_H
#define HEATSIM_BOXMG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "boxmg.h"

/* Levels above this many nodes run their passes on several threads.  */
enum { BOXMG_PARALLEL_NODES = 8192 };

/* Where the passes of a solve run (opt->placement of boxmg_solve) and
   what they cost.  Every pass is a host loop and a target loop over the
   same rows calling the same per-row functions, which take each sum in
   the same order: every placement gives bitwise the same numbers on one
   processor.  Target loops have no map clause: they find the hierarchy
   entered by boxmg_enter.  launches counts the passes of every
   placement alike; bytes only what a device placement moves.  */
struct boxmg_exec {
  bool device;                 /* MG_MAP or MG_RESIDENT */
  int dev;                     /* the OpenMP device */
  unsigned long launches;
  unsigned long long to_device, from_device;
};

/* How a level's Gauss-Seidel relaxes: node by node in four colours,
   or whole lines in two (zebra: the lines of one parity, then the
   other's), rows where the level's binding (negative) x couplings
   outweigh its y ones by more than BOXMG_LINE_RATIO, columns where the
   y ones do.  Cells far
   from square couple strongly along their short side, and a point
   smoother leaves error that is smooth only along the other axis,
   which no coarser level sees; a line solve removes it (the Galerkin
   levels keep the anisotropy, so each level chooses).  Lines never run
   along a periodic axis (its ring is no tridiagonal system): such a
   level relaxes by points where that axis is the strong one; lines
   across one wrap its halo lines after each parity, as the point
   smoother does after each colour.  The ratio is where a line sweep,
   dearer than a point sweep, starts to pay: cells of dx/dy = 2
   (bench/RESULTS.md).  */
enum boxmg_smoother { BOXMG_POINTS, BOXMG_ROWS, BOXMG_COLUMNS };
enum { BOXMG_LINE_RATIO = 4 };

/* The matrix of a level, symmetric, row P:
     (A u)_P = c u_P + w u_W + w[E] u_E + s u_S + s[N] u_N
               + sw u_SW + sw[NE] u_NE + se u_SE + se[NW] u_NW,
   each entry stored once, at the node east, north, north-east or
   north-west of its pair.  The finest level is 5-point (sw, se NULL).
   The halo columns and rows hold the couplings of the edge nodes to the
   Dirichlet nodes (finest level; 0 on coarse levels, whose corrections
   vanish on the edge).
   On a periodic axis node n's neighbour beyond it is node 1: the halo
   line beyond an end holds a copy of the opposite end's line, of every
   array (boxmg_wrap), so that each pass reads the ring's neighbours
   where it reads a Dirichlet node's value otherwise.  The matrix entries
   of both copies are one coupling, stored at the node as everywhere.  A
   periodic axis is coarsened only where its node count is even and at
   least 4 (coarse node I is fine node 2I, and fine node 1 lies between
   coarse nodes n / 2 and 1).  */
struct boxmg_level {
  size_t nx, ny, stride;
  bool periodic_x, periodic_y;
  enum boxmg_smoother smoother;
  double *c, *w, *s, *sw, *se;
  /* Points: 1 / c, which the smoother multiplies.  Lines: the inverse
     pivots of each line's tridiagonal factor (forward elimination along
     the line, from its first node).  */
  double *inverse;
  /* Interpolation from the next coarser level: fine node (i, j) lies in
     the coarse cell whose lower-left coarse node is (i / 2, j / 2); its
     value is sum over q of p[q] times the coarse node (i / 2 + q % 2,
     j / 2 + q / 2).  Zero at the halo and towards coarse halo nodes.
     NULL on the coarsest level.  */
  double *p[4];
  double *u, *f, *r;      /* correction, right-hand side, residual (u, f
                             are the solver's z and r on the finest) */
  /* The slowest modes of the V-cycle from this level (boxmg_deflate.c):
     deflate_count vectors of the level's padded shape, A-orthonormal,
     one after another, in an allocation of their own (on the device
     where the level's block is: boxmg_enter); NULL where none were
     kept.  */
  double *deflate;
  size_t deflate_count;
  double *row_sum;        /* partial sums: ny on the finest level,
                             BOXMG_DEFLATE_MAX ny on those with room
                             for deflation */
  void *block;            /* one allocation for all of the above */
  size_t bytes;           /* of block */
};

/* The coarsest level's matrix as a band Cholesky factor.  Unknowns are
   numbered along the shorter axis first, so the band is that axis's
   length + 1.  A periodic axis is numbered folded (1, n, 2, n - 1, ...),
   so that the ring's neighbours lie at most 2 apart: the band is then
   twice the faster axis's length where the slower axis is periodic, + 2
   where the faster one is, and the numbering runs along the axis whose
   band is the narrower.  A singular matrix (constant null space) is factored
   without its last unknown, which the solve pins to 0 before it removes
   the solution's mean.
   Split (the slower axis not periodic and at least
   BOXMG_SPLIT_LINES long): the slower axis's middle line is a separator,
   numbered last, the lines before it (half 0) in order and those after
   it (half 1) backwards, so that each half's line beside the separator
   is its last.  The halves do not couple: each has a band factor of its
   own (factored and solved at once, a thread each), and couples to the
   separator through its last line only, so that L_h^-1 of that
   coupling (reach[h]) lies in the last line too.  The separator's
   unknowns are solved with the factor of the Schur complement
   S = A_ss - sum over h of reach[h]^T reach[h] (singular: without the
   separator's last node, the matrix's last, which is pinned).  */
enum { BOXMG_SPLIT_LINES = 8 };
struct boxmg_coarse {
  size_t n;               /* unknowns */
  size_t band;            /* lower bandwidth */
  bool x_first;           /* numbering runs along x first */
  bool fold_x, fold_y;    /* periodic axes, numbered folded */
  bool singular;
  bool split;
  size_t line;            /* nodes of a line along the faster axis */
  size_t half[2];         /* split: each half's unknowns */
  double *factor;         /* n rows of band + 1: row i, column i - d at
                             i (band + 1) + d */
  double *rhs;            /* n */
  double *reach[2];       /* split, line x line each: row r the half's
                             last line's node r, column c the separator's
                             node c */
  double *schur;          /* split: the lower factor of S, a band of
                             line - 1 (line rows of line) */
};

struct boxmg_solver {
  size_t levels;
  struct boxmg_level *level;   /* levels of them, 0 the finest */
  struct boxmg_coarse coarse;
  bool singular;               /* c0 = 0 and floating */
  bool floating;               /* no Dirichlet face and no sink (c0 > 0
                                  or not) */
  double c0;
  double *capacity;            /* rho c_p of each finest node (padded) */
  double *mass;                /* c0 rho c_p + c1 sink of each finest
                                  node: the diagonal less the faces */
  double *pcg_p, *pcg_q;       /* the search direction and A p */
  void *block;
  size_t bytes;                /* of block */
  /* The hierarchy (level blocks and block) is on device dev: entered at
     the first MG_RESIDENT solve and kept until boxmg_destroy; a MG_MAP
     solve enters it and leaves it again.  */
  bool resident;
  int device;
  struct boxmg_exec x;         /* the solve under way */
  /* A solve that spent its iterations keeps its state (r, z, p above and
     these), so that the next solve of the same u and f goes on where it
     stopped: NULL where there is none.  */
  const double *resume_u, *resume_f;
  double resume_rz, resume_norm, resume_floor, resume_heat;
  /* The power of two by which the solve under way (or the one that goes
     on) scales u and f (boxmg_cycle.c: field_scale).  */
  double scale;
};

/* A(k, k + dx + dy stride) of level l, |dx|, |dy| <= 1 (set-up and the
   coarsest factor: not for the passes).  */
static inline double
boxmg_entry (const struct boxmg_level *l, size_t k, int dx, int dy)
{
  const size_t st = l->stride;
  if (dy == 0)
    return dx == 0 ? l->c[k] : dx < 0 ? l->w[k] : l->w[k + 1];
  if (dx == 0)
    return dy < 0 ? l->s[k] : l->s[k + st];
  if (l->sw == NULL)
    return 0.0;
  if (dx == dy)
    return dy < 0 ? l->sw[k] : l->sw[k + st + 1];
  return dy < 0 ? l->se[k] : l->se[k + st - 1];
}

/* Setup (boxmg_setup.c).  */
bool boxmg_level_alloc (struct boxmg_level *l, size_t nx, size_t ny,
                        bool nine_point, bool coarsest, bool finest);
void boxmg_level_free (struct boxmg_level *l);
void boxmg_interpolation (struct boxmg_level *fine);
void boxmg_galerkin (const struct boxmg_level *fine,
                     struct boxmg_level *coarse);

/* The halo lines of a's periodic axes from the opposite ends' lines,
   on the host (set-up) or where x's passes run; the corners too where
   both are periodic.  Nothing where no axis is periodic.  */
void boxmg_wrap_host (const struct boxmg_level *l, double *a);
void boxmg_wrap (struct boxmg_exec *x, const struct boxmg_level *l,
                 double *a);

/* The hierarchy on x's device, and off it (boxmg_relax.c).  */
void boxmg_enter (struct boxmg_solver *bm);
void boxmg_leave (struct boxmg_solver *bm, bool keep_state);
/* Whether p is on device already (a build without device code, or the
   host fallback: yes, nothing moves).  */
bool boxmg_present (const void *p, int device);

/* The coarsest level (boxmg_coarse.c).  The lower bandwidth of the
   factor of an nx x ny level, and whether it numbers along x first.  */
size_t boxmg_coarse_band (size_t nx, size_t ny, bool periodic_x,
                          bool periodic_y, bool *x_first);
/* The doubles boxmg_coarse_factor allocates for an nx x ny level
   (SIZE_MAX where that overflows).  */
size_t boxmg_coarse_doubles (size_t nx, size_t ny, bool periodic_x,
                             bool periodic_y);
enum mg_status boxmg_coarse_factor (struct boxmg_coarse *cs,
                                    const struct boxmg_level *l,
                                    bool singular);
void boxmg_coarse_solve (const struct boxmg_coarse *cs,
                         struct boxmg_level *l);
void boxmg_coarse_free (struct boxmg_coarse *cs);

/* Deflation (boxmg_deflate.c): a few modes that a level's V-cycle
   hardly reduces, found by BOXMG_LANCZOS_STEPS steps of conjugate
   gradients on that level at set-up, up to BOXMG_DEFLATE_MAX of them
   whose Ritz values lie below BOXMG_DEFLATE_BELOW.  */
enum { BOXMG_DEFLATE_MAX = 6, BOXMG_LANCZOS_STEPS = 12 };
#define BOXMG_DEFLATE_BELOW 0.3
enum mg_status boxmg_deflation (struct boxmg_solver *bm);
/* The doubles of its scratch in a hierarchy of that many levels, level
   1 of that many padded cells (0 below three levels, which search
   nothing; SIZE_MAX where they overflow), and the bytes of a level's
   kept vectors.  */
size_t boxmg_deflation_scratch (size_t levels, size_t cells);
size_t boxmg_deflation_bytes (const struct boxmg_level *l);
/* The V-cycle from level l (boxmg_cycle.c): level l's u = its
   approximation of A^-1 level l's f.  */
void boxmg_vcycle (struct boxmg_solver *bm, size_t l, double *row_sum);

/* Smoothing sweeps before and after the coarse correction, equal so that
   the cycle is symmetric (bench/RESULTS.md).  */
enum { BOXMG_SWEEPS = 2 };

/* The V-cycle's passes over a level (boxmg_relax.c), the sweeps
   Gauss-Seidel's four colours in order (forward) or in the reverse
   order (backward).  Whatever writes a level's u or r leaves its
   periodic halo lines wrapped, as the transfers read them.
   Down: u = 0, BOXMG_SWEEPS forward sweeps, r = f - A u, coarse->f =
   P^T r.  Up: u += P coarse->u, BOXMG_SWEEPS backward sweeps, and
   where row_sum is not NULL each row's f . u there (PCG's r . z, for
   boxmg_row_total).  */
void boxmg_down (struct boxmg_exec *x, struct boxmg_level *fine,
                 const struct boxmg_level *coarse);
void boxmg_up (struct boxmg_exec *x, struct boxmg_level *fine,
               const struct boxmg_level *coarse, double *row_sum);
/* The sum of l's row_sum, the rows in order (fetched from a device).  */
double boxmg_row_total (struct boxmg_exec *x, const struct boxmg_level *l);
/* The coarsest level's f to the host, and its u back (device
   placements: the band Cholesky solve runs on the host).  */
void boxmg_coarse_fetch (struct boxmg_exec *x, struct boxmg_level *l);
void boxmg_coarse_return (struct boxmg_exec *x, struct boxmg_level *l);

/* Finest-level vector passes for PCG, each sum in a fixed order.  */
/* r = f_scale f - A u (u's halo read) in flows (boxmg_flows5), mass
   the diagonal c0 rho c_p, f NULL for 0; returns ||r||^2.  */
double boxmg_true_residual (struct boxmg_exec *x, struct boxmg_level *l,
                            const double *mass, const double *u,
                            const double *f, double f_scale, double *r);
/* The l2 norm of the magnitudes of the residual's terms
   (boxmg_terms5), f times f_scale.  */
double boxmg_floor (struct boxmg_exec *x, struct boxmg_level *l,
                    const double *mass, const double *u, const double *f,
                    double f_scale);
/* q = A p (p's halo lines 0 or wrapped), on any level; returns
   p . q.  */
double boxmg_apply (struct boxmg_exec *x, struct boxmg_level *l,
                    const double *p, double *q);
/* u += alpha p, r -= alpha q; returns ||r||^2.  */
double boxmg_update (struct boxmg_exec *x, struct boxmg_level *l,
                     double alpha, const double *p, const double *q,
                     double *u, double *r);
/* p = z + beta p.  */
void boxmg_direction (struct boxmg_exec *x, struct boxmg_level *l,
                      double beta, const double *z, double *p);
/* p = z + beta p (its periodic halo lines wrapped), q = A p; returns
   p . q.  */
double boxmg_search (struct boxmg_exec *x, struct boxmg_level *l,
                     double beta, const double *z, double *p, double *q);
/* The deflation of a level's V-cycle: part[a] = Z_a . f for its
   deflate_count vectors, in one pass whose row sums come from a device
   at once; then u += sum over a of part[a] Z_a over the padded array
   (the vectors' halo lines are wrapped or 0, as u's must be), in one
   pass.  */
void boxmg_deflate_parts (struct boxmg_exec *x, struct boxmg_level *l,
                          double *part);
void boxmg_deflate_add (struct boxmg_exec *x, struct boxmg_level *l,
                        const double *part);
/* a . b over the interior; sum of w a (w NULL for 1).  */
double boxmg_dot (struct boxmg_exec *x, struct boxmg_level *l,
                  const double *a, const double *b);
double boxmg_weighted_sum (struct boxmg_exec *x, struct boxmg_level *l,
                           const double *w, const double *a);
/* a += shift over the interior.  */
void boxmg_shift (struct boxmg_exec *x, struct boxmg_level *l, double shift,
                  double *a);
/* The largest |a| over the interior (0 for none; NaNs passed over).  */
double boxmg_magnitude (struct boxmg_exec *x, struct boxmg_level *l,
                        const double *a);
/* The sum of scale a over the interior, in boxmg_weighted_sum's order
   (w NULL): scale a power of two, scale times that sum bit for bit
   wherever it is finite.  */
double boxmg_scaled_sum (struct boxmg_exec *x, struct boxmg_level *l,
                         double scale, const double *a);
/* a *= scale over the padded array, halo lines too.  */
void boxmg_scale (struct boxmg_exec *x, struct boxmg_level *l, double scale,
                  double *a);

#endif
