/* The domain layer of an MPI build (configure --with-mpi): a Cartesian
   split of the grid over the ranks, nonblocking halo exchange, and the
   collective operations that make the ranks behave as one program.  */
#include <config.h>

#include "domain.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostics.h"

/* Cells start .. start + len - 1 (0-based) of n split into p blocks, for
   block c: the first n % p blocks have one cell more.  */
static void
block (size_t n, int p, int c, size_t *len, size_t *start)
{
  const size_t q = n / (size_t) p, extra = n % (size_t) p, k = (size_t) c;
  *len = q + (k < extra);
  *start = k * q + (k < extra ? k : extra);
}

/* The halo lines of each edge in the strips buffer (see kernels.h).  */
static void
strip (const struct domain *d, int edge, size_t *offset, size_t *len)
{
  const size_t nx = d->local_nx, ny = d->local_ny;
  const size_t offsets[EDGE_COUNT] = { 0, ny, 2 * ny, 2 * ny + nx };
  *offset = offsets[edge];
  *len = edge == EDGE_LEFT || edge == EDGE_RIGHT ? ny : nx;
}

bool
domain_take (const struct domain *d, struct field *whole, struct field *part)
{
  if (d->ranks == 1)
    {
      *part = *whole;
      whole->data = NULL;
      return true;
    }
  if (!field_alloc (part, d->local_nx, d->local_ny))
    return false;
  part->x0 = d->x0;
  part->y0 = d->y0;
  for (size_t j = 0; j <= d->local_ny + 1; ++j)
    memcpy (&part->data[field_index (part, 0, j)],
            &whole->data[field_index (whole, d->x0, d->y0 + j)],
            part->stride * sizeof (double));
  field_free (whole);
  return true;
}

/* Copy a part at (x0, y0) of size nx x ny into whole: its interior, and
   its halo cells that lie on the whole grid's outer ring beside its own
   rows or columns (the corners of a part's halo are not kept up to date,
   and would overwrite a neighbour's boundary values).  */
static void
place (struct field *whole, const double *part, size_t nx, size_t ny,
       size_t x0, size_t y0)
{
  const size_t stride = nx + 2;
  for (size_t j = 0; j <= ny + 1; ++j)
    for (size_t i = 0; i <= nx + 1; ++i)
      {
        const size_t gi = x0 + i, gj = y0 + j;
        const bool interior = i >= 1 && i <= nx && j >= 1 && j <= ny;
        const bool outer = (gi == 0 || gj == 0 || gi == whole->nx + 1
                            || gj == whole->ny + 1)
                           && ((i >= 1 && i <= nx) || (j >= 1 && j <= ny));
        if (interior || outer)
          whole->data[field_index (whole, gi, gj)] = part[j * stride + i];
      }
}

const char *
domain_build (void)
{
  return "yes (domain decomposition; launch with mpirun)";
}


bool
domain_gpu_aware (void)
{
  /* Open MPI says at build time whether it may be CUDA-aware, and at run
     time whether it is.  */
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support () == 1;
#else
  return false;
#endif
}

/* Whether a process manager (mpiexec, mpirun, srun, hydra) started this
   process: each sets one of these.  Started by hand, the process would be
   an MPI singleton, one rank, whose MPI_Init costs Open MPI a daemon
   (about a second); it runs as the serial build does instead.  */
static bool
launched (void)
{
  static const char *const names[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                       "PMI_RANK", "PMI_SIZE", "PMI_FD" };
  for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k)
    if (getenv (names[k]) != NULL)
      return true;
  return false;
}

/* Whether MPI_Init ran (domain_start).  */
static bool
started (void)
{
  int up = 0;
  MPI_Initialized (&up);
  return up;
}

void
domain_start (int *argc, char ***argv)
{
  if (launched ())
    MPI_Init (argc, argv);
}

void
domain_stop (void)
{
  if (started ())
    MPI_Finalize ();
}

int
domain_world_rank (void)
{
  int rank = 0;
  if (started ())
    MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  return rank;
}

int
domain_world_size (void)
{
  int ranks = 1;
  if (started ())
    MPI_Comm_size (MPI_COMM_WORLD, &ranks);
  return ranks;
}

/* px x py = ranks with px <= nx and py <= ny: MPI_Dims_create's balanced
   answer when it fits (more ranks along y, whose lines are contiguous),
   else the fitting factorization with the shortest halo lines.  */
static bool
choose_dims (int ranks, size_t nx, size_t ny, int dims[2])
{
  int balanced[2] = { 0, 0 };
  MPI_Dims_create (ranks, 2, balanced);
  if ((size_t) balanced[1] <= nx && (size_t) balanced[0] <= ny)
    {
      dims[0] = balanced[1];
      dims[1] = balanced[0];
      return true;
    }
  double best = -1.0;
  for (int px = 1; px <= ranks; ++px)
    if (ranks % px == 0 && (size_t) px <= nx
        && (size_t) (ranks / px) <= ny)
      {
        const int py = ranks / px;
        const double halo = (double) nx / px + (double) ny / py;
        if (best < 0.0 || halo < best)
          {
            best = halo;
            dims[0] = px;
            dims[1] = py;
          }
      }
  return best >= 0.0;
}

bool
domain_split (struct domain *d, size_t nx, size_t ny,
              const bool periodic[2], char *err, size_t errlen)
{
  if (!started ())
    {
      /* One process, as in the serial build: no communicator.  */
      *d = (struct domain) { .ranks = 1, .dims = { 1, 1 }, .nx = nx,
                             .ny = ny, .local_nx = nx, .local_ny = ny,
                             .comm = MPI_COMM_NULL };
      for (int e = 0; e < EDGE_COUNT; ++e)
        d->neighbour[e] = periodic[e / 2] ? 0 : -1;
      return true;
    }
  *d = (struct domain) { .nx = nx, .ny = ny };
  MPI_Comm_size (MPI_COMM_WORLD, &d->ranks);
  MPI_Comm_rank (MPI_COMM_WORLD, &d->rank);
  if (!choose_dims (d->ranks, nx, ny, d->dims))
    {
      snprintf (err, errlen, "%d MPI ranks cannot share a %zux%zu grid: no "
                "split into px x py ranks has px <= %zu and py <= %zu (every "
                "rank needs at least one cell); use fewer ranks", d->ranks,
                nx, ny, nx, ny);
      return false;
    }
  const int periods[2] = { periodic[0], periodic[1] };
  /* No reordering: rank 0 stays rank 0, the one that prints and writes.  */
  MPI_Cart_create (MPI_COMM_WORLD, 2, d->dims, periods, 0, &d->comm);
  MPI_Cart_coords (d->comm, d->rank, 2, d->coords);
  block (nx, d->dims[0], d->coords[0], &d->local_nx, &d->x0);
  block (ny, d->dims[1], d->coords[1], &d->local_ny, &d->y0);
  MPI_Cart_shift (d->comm, 0, 1, &d->neighbour[EDGE_LEFT],
                  &d->neighbour[EDGE_RIGHT]);
  MPI_Cart_shift (d->comm, 1, 1, &d->neighbour[EDGE_BOTTOM],
                  &d->neighbour[EDGE_TOP]);
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (d->neighbour[e] == MPI_PROC_NULL)
      d->neighbour[e] = -1;
  MPI_Comm node;
  MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, d->rank,
                       MPI_INFO_NULL, &node);
  MPI_Comm_rank (node, &d->node_rank);
  MPI_Comm_free (&node);
  return true;
}

size_t
domain_node_total (const struct domain *d, size_t v, int *ranks)
{
  /* One rank (perhaps without MPI_Init: not launched) has the node's
     memory to itself as far as heatsim knows.  */
  *ranks = 1;
  if (d->ranks == 1)
    return v;
  MPI_Comm node;
  MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, d->rank,
                       MPI_INFO_NULL, &node);
  MPI_Comm_size (node, ranks);
  /* Added as doubles, so that a count saturated at SIZE_MAX stays out
     of reach rather than wrapping; a few bytes' rounding is nothing
     here.  */
  double mine = (double) v, total;
  MPI_Allreduce (&mine, &total, 1, MPI_DOUBLE, MPI_SUM, node);
  MPI_Comm_free (&node);
  return total >= (double) SIZE_MAX ? SIZE_MAX : (size_t) total;
}

void
domain_exchange_begin (struct domain *d, double *send, double *recv)
{
  d->pending = 0;
  for (int e = 0; e < EDGE_COUNT; ++e)
    if (domain_trades (d, e))
      {
        size_t offset, len;
        strip (d, e, &offset, &len);
        /* What arrives at edge e is the neighbour's line at the opposite
           edge (e ^ 1 in enum edge), sent with that edge as its tag.  */
        MPI_Irecv (recv + offset, (int) len, MPI_DOUBLE, d->neighbour[e],
                   e ^ 1, d->comm, &d->requests[d->pending++]);
        MPI_Isend (send + offset, (int) len, MPI_DOUBLE, d->neighbour[e],
                   e, d->comm, &d->requests[d->pending++]);
      }
}

void
domain_exchange_end (struct domain *d)
{
  if (d->pending == 0)
    return;
  MPI_Waitall (d->pending, d->requests, MPI_STATUSES_IGNORE);
  d->pending = 0;
}

/* The rank across edge e, or MPI_PROC_NULL where e does not trade.  */
static int
partner (const struct domain *d, enum edge e)
{
  return domain_trades (d, e) ? d->neighbour[e] : MPI_PROC_NULL;
}

/* Trade one axis's lines, each of type line (committed and freed
   here): send_lo to the neighbour across the low edge, whose line comes
   back into recv_hi from the one across the high edge, and the other
   way round.  */
static void
trade_axis (const struct domain *d, int axis, MPI_Datatype line,
            double *send_lo, double *send_hi, double *recv_lo,
            double *recv_hi)
{
  const enum edge lo = axis == 0 ? EDGE_LEFT : EDGE_BOTTOM;
  const enum edge hi = axis == 0 ? EDGE_RIGHT : EDGE_TOP;
  MPI_Type_commit (&line);
  MPI_Sendrecv (send_lo, 1, line, partner (d, lo), 0, recv_hi, 1, line,
                partner (d, hi), 0, d->comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv (send_hi, 1, line, partner (d, hi), 1, recv_lo, 1, line,
                partner (d, lo), 1, d->comm, MPI_STATUS_IGNORE);
  MPI_Type_free (&line);
}

/* Whether either edge of axis trades with another rank.  */
static bool
axis_trades (const struct domain *d, int axis)
{
  const enum edge lo = axis == 0 ? EDGE_LEFT : EDGE_BOTTOM;
  const enum edge hi = axis == 0 ? EDGE_RIGHT : EDGE_TOP;
  return domain_trades (d, lo) || domain_trades (d, hi);
}

void
domain_trade_halo (const struct domain *d, double *u, size_t nx, size_t ny,
                   size_t stride, int axis)
{
  if (!axis_trades (d, axis))
    return;
  /* A column is ny cells stride apart from row 1; a row, nx + 2 cells.  */
  MPI_Datatype line;
  if (axis == 0)
    {
      MPI_Type_vector ((int) ny, 1, (int) stride, MPI_DOUBLE, &line);
      trade_axis (d, axis, line, u + stride + 1, u + stride + nx,
                  u + stride, u + stride + nx + 1);
    }
  else
    {
      MPI_Type_contiguous ((int) (nx + 2), MPI_DOUBLE, &line);
      trade_axis (d, axis, line, u + stride, u + ny * stride, u,
                  u + (ny + 1) * stride);
    }
}

void
domain_trade_strips (const struct domain *d, double *u, size_t nx,
                     size_t ny, size_t stride, size_t depth, int axis)
{
  if (!axis_trades (d, axis))
    return;
  /* Lines depth .. 2 depth - 1 go low, the last depth lines but depth
     high; a line of axis 0 is a column of ny + 2 cells stride apart,
     of axis 1 a row of nx + 2.  */
  const size_t n = axis == 0 ? nx : ny;
  const size_t step = axis == 0 ? 1 : stride;
  MPI_Datatype strip;
  if (axis == 0)
    MPI_Type_vector ((int) (ny + 2), (int) depth, (int) stride, MPI_DOUBLE,
                     &strip);
  else
    MPI_Type_vector ((int) depth, (int) (nx + 2), (int) stride, MPI_DOUBLE,
                     &strip);
  trade_axis (d, axis, strip, u + depth * step,
              u + (n + 2 - 2 * depth) * step, u,
              u + (n + 2 - depth) * step);
}

void
domain_sum_exact (const struct domain *d, double *v, size_t n)
{
  if (d->ranks == 1)
    return;
  MPI_Allreduce (MPI_IN_PLACE, v, (int) n, MPI_DOUBLE, MPI_SUM, d->comm);
}

void
domain_sum_ordered (const struct domain *d, double *v, size_t n)
{
  if (d->ranks == 1)
    return;
  /* Summed once, on rank 0, and sent to all.  */
  MPI_Reduce (d->rank == 0 ? MPI_IN_PLACE : v, v, (int) n, MPI_DOUBLE,
              MPI_SUM, 0, d->comm);
  MPI_Bcast (v, (int) n, MPI_DOUBLE, 0, d->comm);
}

int
domain_agree (int status)
{
  if (!started ())
    return status;
  int rank;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  struct { int status, rank; } mine = { status, rank }, worst;
  MPI_Allreduce (&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  if (worst.status == 0)
    return 0;
  /* The rank that failed first prints its message, and sends it to the
     others, so that rank 0 can put it in a JSON report.  */
  char text[HEATSIM_MESSAGE_MAX] = "";
  if (worst.rank == rank)
    {
      heatsim_error_flush ();
      snprintf (text, sizeof text, "%s", heatsim_error_message ());
    }
  MPI_Bcast (text, (int) sizeof text, MPI_CHAR, worst.rank, MPI_COMM_WORLD);
  if (worst.rank != rank)
    heatsim_error_adopt (text);
  return worst.status;
}

void
domain_share (const struct domain *d, char *buf, size_t len)
{
  if (d->ranks == 1)
    return;
  MPI_Bcast (buf, (int) len, MPI_CHAR, 0, d->comm);
}

/* v becomes its reduction with op over the ranks of d.  */
static void
reduce (const struct domain *d, void *v, MPI_Datatype type, MPI_Op op)
{
  if (d->ranks == 1)
    return;
  MPI_Allreduce (MPI_IN_PLACE, v, 1, type, op, d->comm);
}

double
domain_sum (const struct domain *d, double v)
{
  reduce (d, &v, MPI_DOUBLE, MPI_SUM);
  return v;
}

double
domain_max (const struct domain *d, double v)
{
  reduce (d, &v, MPI_DOUBLE, MPI_MAX);
  return v;
}

double
domain_min (const struct domain *d, double v)
{
  reduce (d, &v, MPI_DOUBLE, MPI_MIN);
  return v;
}

size_t
domain_count (const struct domain *d, size_t v)
{
  unsigned long long n = v;
  reduce (d, &n, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
  return (size_t) n;
}

uint64_t
domain_hash (const struct domain *d, uint64_t v)
{
  reduce (d, &v, MPI_UINT64_T, MPI_SUM);   /* modulo 2^64, as the hash adds */
  return v;
}

int
domain_signal (const struct domain *d, int sig)
{
  reduce (d, &sig, MPI_INT, MPI_MAX);
  return sig;
}

void
domain_broadcast (const struct domain *d, double *v, size_t n)
{
  if (d->ranks == 1)
    return;
  /* MPI counts are int.  */
  for (size_t done = 0; done < n;)
    {
      const size_t count = n - done < INT_MAX ? n - done : INT_MAX;
      MPI_Bcast (v + done, (int) count, MPI_DOUBLE, 0, d->comm);
      done += count;
    }
}

bool
domain_gather (const struct domain *d, const struct field *part,
               struct field *whole)
{
  if (d->ranks == 1)
    {
      *whole = *part;
      return true;
    }
  *whole = (struct field) { .data = NULL };
  /* Rank 0 takes the whole field and room for the largest part (the
     first block in each direction) before any part travels.  */
  size_t nx, ny, x0, y0;
  block (d->nx, d->dims[0], 0, &nx, &x0);
  block (d->ny, d->dims[1], 0, &ny, &y0);
  double *buf = NULL;
  int ok = 1;
  if (d->rank == 0)
    {
      buf = malloc ((nx + 2) * (ny + 2) * sizeof *buf);
      ok = buf != NULL && field_alloc (whole, d->nx, d->ny);
    }
  MPI_Bcast (&ok, 1, MPI_INT, 0, d->comm);
  if (!ok)
    {
      if (d->rank == 0)
        field_free (whole);
      free (buf);
      return false;
    }
  if (d->rank != 0)
    MPI_Send (part->data, (int) field_cells (part), MPI_DOUBLE, 0, 0,
              d->comm);
  else
    {
      place (whole, part->data, part->nx, part->ny, part->x0, part->y0);
      for (int r = 1; r < d->ranks; ++r)
        {
          int c[2];
          MPI_Cart_coords (d->comm, r, 2, c);
          block (d->nx, d->dims[0], c[0], &nx, &x0);
          block (d->ny, d->dims[1], c[1], &ny, &y0);
          MPI_Recv (buf, (int) ((nx + 2) * (ny + 2)), MPI_DOUBLE, r, 0,
                    d->comm, MPI_STATUS_IGNORE);
          place (whole, buf, nx, ny, x0, y0);
        }
    }
  free (buf);
  return true;
}

void
domain_release (const struct domain *d, struct field *whole)
{
  if (d->ranks > 1)
    field_free (whole);
}
