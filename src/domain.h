/* Domain decomposition: which part of the whole grid this process
   computes, who its neighbours are, and the collective operations that
   make many processes behave as one.  Without MPI (configure --with-mpi)
   or on one rank the subdomain is the whole grid and every operation here
   is the identity, so the rest of heatsim is written once for both.  */
#ifndef HEATSIM_DOMAIN_H
#define HEATSIM_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef HEATSIM_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>     /* Open MPI: MPIX_Query_cuda_support */
#endif
#endif

#include "field.h"

struct domain {
  int rank, ranks;
  int dims[2];               /* ranks along x and y */
  int coords[2];             /* this rank's place in that grid of ranks */
  size_t nx, ny;             /* interior cells of the whole grid */
  size_t local_nx, local_ny; /* interior cells of this subdomain */
  size_t x0, y0;             /* its cell (i, j) is (x0 + i, y0 + j) */
  int neighbour[EDGE_COUNT]; /* rank across each edge, -1 at the grid's edge */
  int node_rank;             /* rank among the ranks on this node */
#ifdef HEATSIM_MPI
  MPI_Comm comm;             /* the Cartesian communicator */
  MPI_Request requests[2 * EDGE_COUNT];
  int pending;
#endif
};

/* What this build offers, for --version: "yes (...)" or "no (...)".  */
const char *domain_build (void);

/* MPI_Init and MPI_Finalize, where MPI is built in and a process manager
   (mpiexec, srun) started heatsim; started by hand, an MPI build runs as
   one process without MPI, as the serial build does.  */
void domain_start (int *argc, char ***argv);
void domain_stop (void);

/* This process's rank among all (0 without MPI): only rank 0 prints.  */
int domain_world_rank (void);

/* How many ranks there are in all (1 without MPI).  */
int domain_world_size (void);

/* Split an nx x ny grid over all ranks, periodic along x (periodic[0])
   and along y (periodic[1]) each or not.  False, with a message in err
   naming the rank count and the grid, when the ranks cannot share the
   grid (every rank needs a cell).  */
bool domain_split (struct domain *d, size_t nx, size_t ny,
                   const bool periodic[2], char *err, size_t errlen);

/* Whether MPI can send from and receive into GPU memory (CUDA-aware).  */
bool domain_gpu_aware (void);

/* Whether edge e of this subdomain trades halo lines with another rank,
   and whether any edge does.  */
bool domain_trades (const struct domain *d, enum edge e);

/* Whether this rank's part lies on edge e of the whole grid (every rank
   holds every edge of a grid it does not split).  */
bool domain_holds_edge (const struct domain *d, enum edge e);

/* edge_node[e]: edge e of this rank's part is an edge of the whole grid
   whose outer line is made of edge nodes (config_edge_node).  */
struct config;
void domain_edge_nodes (const struct domain *d, const struct config *c,
                        bool edge_node[EDGE_COUNT]);
bool domain_exchanges (const struct domain *d);

/* Give the edges inside the whole grid to the exchange.  */
struct halo;
void domain_halo (const struct domain *d, struct halo *h);

/* Send the packed edge lines (send) to the neighbours and receive theirs
   into recv (layout of halo_pack_host); end waits for both.  */
void domain_exchange_begin (struct domain *d, double *send, double *recv);
void domain_exchange_end (struct domain *d);

/* Trade one axis of the halo ring of a host array of nx x ny interior
   cells and row length stride with the neighbours across the edges that
   trade (domain_trades): axis 0 the left and right columns (rows 1 ..
   ny), axis 1 the bottom and top rows whole (columns 0 .. nx + 1).
   Trading axis 0 first and axis 1 second fills the corners with the
   diagonal neighbours' cells.  Blocking; every rank calls it for the
   arrays of the same level, whose parts line up along rows and columns
   of ranks.  Without MPI (or on one rank) nothing trades.  */
void domain_trade_halo (const struct domain *d, double *u, size_t nx,
                        size_t ny, size_t stride, int axis);

/* Trade strips depth lines deep along one axis of a host array of nx x
   ny cells (halo ring included: lines 0 .. nx + 1 or 0 .. ny + 1) and
   row length stride, with the neighbours across the edges that trade:
   lines 0 .. depth - 1 receive the low neighbour's lines n + 2 - 2 depth
   .. n + 1 - depth (n its nx or ny), and the high end's last depth lines
   the high neighbour's lines depth .. 2 depth - 1, where n + 2 - 2 depth
   >= depth on every rank.  Axis 0 trades columns whole (rows 0 .. ny +
   1), axis 1 rows whole (columns 0 .. nx + 1), so that trading axis 0
   first and axis 1 second fills the corners with the diagonal
   neighbours' cells.  domain_trade_halo's lines for depth 1, the halo
   rows of axis 0 besides.  Blocking; without MPI (or on one rank)
   nothing trades.  */
void domain_trade_strips (const struct domain *d, double *u, size_t nx,
                          size_t ny, size_t stride, size_t depth, int axis);

/* Every rank (of the world: this works before the split) learns the
   largest status any rank had.  The message of the
   first rank that failed is the one printed (see heatsim_error), so a
   failure on some ranks ends all of them with one message; every rank
   then holds that message (heatsim_error_message).  */
int domain_agree (int status);

/* Rank 0's text (len bytes at most) in buf on every rank.  */
void domain_share (const struct domain *d, char *buf, size_t len);

/* v[0 .. n-1] summed over the ranks, element by element, in place.
   domain_sum_exact: for sums where at most one rank adds a value other
   than 0, which any order gives exactly.  domain_sum_ordered: summed once
   and sent to every rank, so that all ranks hold bitwise the same sums
   whatever algorithm the MPI library uses (a norm that decides when to
   stop must be the same everywhere).  */
void domain_sum_exact (const struct domain *d, double *v, size_t n);
void domain_sum_ordered (const struct domain *d, double *v, size_t n);

/* Rank 0's v[0 .. n-1] on every rank.  */
void domain_broadcast (const struct domain *d, double *v, size_t n);

/* Reductions over all ranks.  */
double domain_sum (const struct domain *d, double v);
double domain_max (const struct domain *d, double v);
double domain_min (const struct domain *d, double v);
size_t domain_count (const struct domain *d, size_t v);
uint64_t domain_hash (const struct domain *d, uint64_t v);
int domain_signal (const struct domain *d, int sig);

/* v summed over the ranks of this rank's node (those that share its
   memory), saturating at SIZE_MAX, and in *ranks how many they are.
   Every rank must call it.  */
size_t domain_node_total (const struct domain *d, size_t v, int *ranks);

/* This rank's subdomain, halo included, out of the whole padded field,
   which is freed (on one rank, taken over).  False when memory for the
   part is short.  */
bool domain_take (const struct domain *d, struct field *whole,
                  struct field *part);

/* The whole field, interior and the outer halo ring, assembled on rank 0
   from every rank's part (meaningless elsewhere); on one rank, whole is
   part itself, not a copy.  False, on every rank, when rank 0 has no
   memory for it.  Release whole with domain_release.  */
bool domain_gather (const struct domain *d, const struct field *part,
                    struct field *whole);
void domain_release (const struct domain *d, struct field *whole);

#endif
