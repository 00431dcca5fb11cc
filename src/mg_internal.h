/* What the files of the multigrid solver share (multigrid.h is its public
   interface): the levels, the solver, where kernels run, and the
   functions one file calls in another, by file.  */
#ifndef HEATSIM_MG_INTERNAL_H
#define HEATSIM_MG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "multigrid.h"

/* The coarsest level: at most this many unknowns, solved by a dense
   inverse (a level that cannot be coarsened has 3 x 3 or fewer).  */
enum { DENSE_MAX = 64 };

/* A coarse level of a split hierarchy stays split while every rank keeps
   at least this many of its unknowns along each split axis; below, the
   levels are whole on every rank (a few cells per rank would cost a
   message per sweep for next to no work).  */
enum { SPLIT_MIN = 4 };

/* Loops over fewer cells run on one thread: on the coarse levels a fork
   and join of the team costs more than the work.  */
enum { PARALLEL_MIN = 1 << 14 };

/* The share of a full control volume that the nodes of a part's outer
   lines own: 1/2 where the line lies on a zero-flux edge of the whole
   grid (its nodes' boxes end there), else 1.  A problem without a
   Dirichlet edge keeps the sum of its unknowns weighted by their shares
   (the sums of a level without f).  */
struct shares {
  double left, right, bottom, top;
};

struct level {
  size_t nx, ny, stride;
  struct shares shares;         /* of the finest level; 1 on the others */
  /* In a hierarchy split over MPI ranks (mg_create_part): whether this
     level is this rank's part of the whole level, and that part's place
     in it, unknowns x0 + 1 .. x0 + nx (0 for a whole level).  */
  bool split;
  size_t x0, y0;
  /* The nodes restricted to from the next finer level, and prolonged
     from to it: wnx x wny from (wx0 + 1, wy0 + 1) of this level's arrays
     (all of them but below the last split level, whose rank computes
     the nodes of its own part only).  */
  size_t wx0, wy0, wnx, wny;
  double *u, *f, *r;            /* u is the caller's on the finest level */
  bool zero_f;                  /* f is 0 (the finest level of a solve
                                   without f): the host kernels skip it */
  double *axm, *axp;            /* c1 times the x weights, nx + 2 */
  double *aym, *ayp;            /* c1 times the y weights, ny + 2 */
  /* Transfers from the next finer level (not on the finest): restriction
     to coarse node ic gathers fine nodes rxi[3 ic .. 3 ic + 2] with weights
     rxw; prolongation to fine node i reads coarse pxi[i] (weight pxw[i]) and
     pxi[i] + 1 (1 - pxw[i]).  */
  size_t *rxi, *ryi, *pxi, *pyi;
  double *rxw, *ryw, *pxw, *pyw;
  double *inverse;              /* coarsest only: A^-1, (nx ny)^2 doubles */
  double *part;                 /* finest only: the partial sums of norms */
  void *block;                  /* everything above, one allocation */
  size_t bytes;                 /* of block */
};

struct mg_solver {
  size_t count;                 /* levels */
  const struct domain *domain;  /* the ranks of a split hierarchy, or NULL */
  double volume;                /* unknowns of the whole finest level,
                                   each counted by its share (struct
                                   shares) */
  double c0;
  bool singular;                /* c0 = 0 and no Dirichlet edge */
  bool closed;                  /* no Dirichlet edge: the sum of A u is
                                   c0 times u's */
  enum boundary_kind kind[EDGE_COUNT];
  bool resident;                /* the blocks are on device (MG_RESIDENT) */
  int device;
  /* Host scratch: three rows of the widest level for each of up to
     row_threads threads (restrict_host, prolong_host).  */
  double *rows;
  size_t row_threads, row_width;
  struct level level[MG_MAX_LEVELS];
};

/* ------------------------------------------------------------- kernels

   Every kernel exists as a host loop (parallel for, serial below
   PARALLEL_MIN cells) and as a target loop with no map clause, which
   finds its arrays in the device data environment: the hierarchy entered
   by level_enter (MG_RESIDENT) or the sections a MG_MAP dispatcher maps
   around it.  Both loops call the same cell functions, declared for the
   device, or (restriction, prolongation, norms) the host splits or
   reorders the loops the way a CPU prefers but computes each value by
   the same operations in the same order: every placement gives bitwise
   the same numbers on one processor.  No kernel reduces with an OpenMP
   reduction, whose order depends on the threads and teams (see the
   norms below).  Target loops count in 32 bits
   (valid_solve keeps a device solve's finest grid below INT_MAX cells);
   cell functions take a pointer to their cell and a stride, as heat_cell
   does in kernels.c.  */

/* Rows summed by one partial sum of a norm: a band of rows per column,
   so that neighbouring device threads read neighbouring addresses.  */
enum { NORM_BAND = 32 };

/* Where the kernels of one solve run, and what they cost: launches
   counts target regions (host loops for MG_HOST, one per kernel the same
   way, so the counts of all placements agree), bytes the explicit
   transfers of this solve (all placements count what MG_MAP and
   MG_RESIDENT would move; MG_HOST moves nothing).  */
struct exec {
  enum mg_placement where;
  int device;
  unsigned long launches;
  unsigned long long to_device, from_device;
  size_t at;                        /* the level the kernels work on */
  const struct mg_solver *mg;       /* MG_HOST: its rows, where they
                                       suffice for the threads, else NULL */
  unsigned level[MG_MAX_LEVELS];    /* launches on each level */
};

static inline void
count_launches (struct exec *x, unsigned n)
{
  x->launches += n;
  x->level[x->at] += n;
}

/* Source lines of the halo of each edge: the interior line copied into
   it, 0 for a Dirichlet edge, whose halo stays.  corners: fill the
   corners of a doubly periodic grid too (prolongation reads them).  */
struct halo_src {
  ptrdiff_t left, right, bottom, top;
  bool corners;
};

/* Bands of a norm's partial sums, and the doubles of those sums: two
   quantities per column and band, then two per column.  */
static inline size_t
norm_bands (size_t ny)
{
  return (ny + NORM_BAND - 1) / NORM_BAND;
}

static inline size_t
norm_scratch (size_t nx, size_t ny)
{
  return 2 * nx * (norm_bands (ny) + 1);
}

/* The arrays a MG_MAP kernel maps, each described once: map_in maps
   them to the device before the kernel and map_out back after it, and
   both count the bytes from the same list.  An array the device holds
   already moves nothing (as with a map clause) but counts alike, so
   every placement reports what MG_MAP moves.  */
enum map_way {
  MAP_TO,          /* read by the kernel: copied in */
  MAP_TOFROM,      /* written: copied in and back */
  MAP_ALLOC        /* scratch on the device: neither */
};

struct mapped {
  const void *p;
  size_t bytes;
  enum map_way way;
};

#define MAPPED_COUNT(a) (sizeof (a) / sizeof (a)[0])

/* The level's right-hand side for the host kernels: NULL where it is zero.
   solve () then still fills level->f with +0.0 (0.0 + -0.0 is +0.0), so
   the device kernels, which read it, and the host ones, which take
   NULL as 0.0, form the same sums bit for bit.  */
static inline const double *
host_f (const struct level *level)
{
  return level->zero_f ? NULL : level->f;
}

/* ---- rows of the host kernels.  Most columns of a level have the same
   x weights (all of an evenly spaced finest level with Dirichlet ends;
   all but a few where an odd interval count left one unmerged, and by
   zero-flux ends, on the others).  A row runs over those in registers,
   the others from the arrays: the same operations in the same order, so
   the same bits, but with two loads fewer per cell and, in the smoother,
   a division per run instead of per cell.  On the host these loops wait
   on loads and divisions, not on memory.  */

enum { RUNS_MAX = 8 };

/* Shorter stretches are left to the table-driven loops: a vector loop
   over so few nodes costs more than it saves.  */
enum { RUN_MIN = 4 };

/* The columns 1 .. nx of a level as runs first[k] .. last[k], of the
   weights xm, xp (even[k]) or of the arrays.  */
struct row_runs {
  size_t count;
  size_t first[RUNS_MAX], last[RUNS_MAX];
  bool even[RUNS_MAX];
  double xm, xp;
};

/* Runs first[k] .. last[k] of the nodes of a level along x where a
   transfer's tables follow a pattern that a loop can spell out: loops
   that index through the tables do not vectorise profitably.  */
struct regular_runs {
  size_t count;
  size_t first[RUNS_MAX], last[RUNS_MAX];
};

/* ------------------------------------------------------------ one axis */

/* One axis of one level while the hierarchy is built.  */
struct axis {
  size_t n, intervals;   /* counts of unknowns, intervals */
  bool periodic, neumann_lo, neumann_hi;
  double h;              /* the finest level's spacing */
  double length;         /* x[intervals] - x[0], which coarsening keeps */
  double *x;             /* intervals + 1 point positions in units of h: whole
                            and half numbers, exact, so that evenly
                            spaced points give exactly even weights */
  double *g;             /* a conductance per interval */
  double *d;             /* n + 2 lumped volumes, 1 .. n */
};

/* The transfer tables between fine axis f and coarse axis c.  */
struct transfer {
  size_t *pi, *ri;       /* f->n + 2 and 3 (c->n + 2) entries */
  double *pw, *rw;
};

/* This rank's part of one axis of a level: unknowns first + 1 .. first
   + n of the whole axis, which is split among ranks or (whole) not.  */
struct span {
  size_t first, n;
  bool split;
};

/* mg_level.c: axes, transfer tables, level allocation.  */
void
axis_free (struct axis *a);
bool
axis_fine (struct axis *a, size_t n, double h, enum boundary_kind lo,
           enum boundary_kind hi);
/* The counts, ends and length of axis_fine's axis, or of axis_coarsen's
   c, without their arrays (x, g, d NULL): what the choice of the levels
   reads, so that a hierarchy can be replayed without allocating it.  */
struct axis
axis_fine_counts (size_t n, double h, enum boundary_kind lo,
                  enum boundary_kind hi);
struct axis
axis_coarse_counts (const struct axis *f, bool merge);
bool
axis_can_coarsen (const struct axis *a);
double
axis_mean_spacing (const struct axis *a);
/* The sum of the shares (struct shares) of the unknowns of a finest
   axis.  */
double
axis_volume (const struct axis *a);
bool
axis_coarsen (const struct axis *f, bool merge, struct axis *c,
              struct transfer t, size_t *point);
void
axis_weights (const struct axis *a, double c1, struct span p, double *am,
              double *ap);
struct span
coarse_span (const struct axis *f, const struct axis *c, const size_t *point,
             struct span p);
bool
level_alloc (struct level *level, size_t nx, size_t ny, size_t fnx, size_t fny,
             bool finest, bool coarsest);
/* The bytes level_alloc allocates for the same arguments; false where
   they would overflow.  */
bool
level_bytes (size_t nx, size_t ny, size_t fnx, size_t fny, bool finest,
             bool coarsest, size_t *bytes);
bool
transfer_alloc (struct transfer *t, size_t fine_n, size_t coarse_n);
void
local_tables (const struct axis *f, const struct axis *c, const size_t *point,
              const struct transfer *t, struct span fp, struct span cp,
              size_t *pi, double *pw, size_t *ri, double *rw);
void
transfer_free (struct transfer *t);
size_t
axis_coarse_unknowns (const struct axis *a, bool merge);
bool
level_invert (struct level *level, double c0, bool closed,
              const struct axis *ax, const struct axis *ay);

/* mg_host.c: host loops (the others: mg_host_vector.c, through
   host_kernels).  */
void
halo_host (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
           double *u);
void
coarsest_host (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
               double *restrict u, const double *restrict f,
               double *restrict r, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0,
               const double *restrict inverse);
void
totals_host (size_t nx, size_t nb, double *restrict part, double out[2]);
void
set_host (size_t nx, size_t ny, size_t stride, double *restrict dst,
          const double *restrict src, double shift);
void
shift_host (size_t nx, size_t ny, size_t stride, double *u, double shift);

/* mg_device.c: target loops.  */
void
halo_target (const struct halo_src *h, size_t nx, size_t ny, size_t stride,
             double *u, int device);
void
smooth_target (int nx, int ny, int stride, double *restrict u,
               const double *restrict f, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0, double omega,
               int color, int device);
void
residual_target (int nx, int ny, int stride, const double *restrict u,
                 const double *restrict f, double *restrict r,
                 const double *restrict axm, const double *restrict axp,
                 const double *restrict aym, const double *restrict ayp,
                 double c0, int device);
void
jacobi_target (int nx, int ny, int stride, double *restrict u,
               const double *restrict r, const double *restrict axm,
               const double *restrict axp, const double *restrict aym,
               const double *restrict ayp, double c0, double omega,
               int device);
void
coarsest_target (const struct halo_src *h, int nx, int ny, int stride,
                 double *restrict u, const double *restrict f,
                 double *restrict r, const double *restrict axm,
                 const double *restrict axp, const double *restrict aym,
                 const double *restrict ayp, double c0,
                 const double *restrict inverse, int device);
void
bands_target (int nx, int ny, int stride, const double *restrict u,
              const double *restrict f, const double *restrict axm,
              const double *restrict axp, const double *restrict aym,
              const double *restrict ayp, double c0, double sr, double sm,
              struct shares shares, double *restrict part, int device);
void
totals_target (int nx, int nb, double *restrict part, double out[2],
               int device);
void
set_target (int nx, int ny, int stride, double *restrict dst,
            const double *restrict src, double shift, int device);
void
shift_target (int nx, int ny, int stride, double *u, double shift, int device);

/* mg_kernels.c: the kernels, placed.  */
void
map_in (struct exec *x, const struct mapped *a, size_t n);
void
map_out (struct exec *x, const struct mapped *a, size_t n);
void
k_halo (struct exec *x, const struct halo_src *h, size_t nx, size_t ny,
        size_t stride, double *u);
void
k_sweep (struct exec *x, const struct level *level, double c0, double omega,
         unsigned color);
void
k_smooth (struct exec *x, const struct level *level, double c0, double omega,
          unsigned color);
void
k_residual (struct exec *x, const struct level *level, double c0);
void
k_jacobi (struct exec *x, const struct level *level, double c0, double omega);
void
k_coarsest (struct exec *x, const struct halo_src *h,
            const struct level *level, double c0);
void
k_sums (struct exec *x, const struct level *level, const double *u,
        const double *f, double c0, const double sq[2], double *part,
        double out[2]);
void
k_set (struct exec *x, const struct level *level, double *dst,
       const double *src, double shift);
void
k_shift (struct exec *x, const struct level *level, double *u, double shift);
bool
present (const void *p, int device);
void
hierarchy_leave (struct mg_solver *mg);
void
hierarchy_enter (struct mg_solver *mg, struct exec *x);

/* mg_transfer.c: restriction and prolongation.  */
void
k_restrict (struct exec *x, const struct mg_solver *mg,
            const struct level *fine, const struct level *coarse);
void
k_prolong (struct exec *x, const struct level *fine,
           const struct level *coarse);

#endif
