/* The domain layer of a build without MPI: one process computes the
   whole grid, and every collective operation is the identity.  */
#include <config.h>

#include "domain.h"

const char *
domain_build (void)
{
  return "no (configure --with-mpi)";
}


bool
domain_gpu_aware (void)
{
  return false;
}

void
domain_start (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
}

void
domain_stop (void)
{
}

int
domain_world_rank (void)
{
  return 0;
}

int
domain_world_size (void)
{
  return 1;
}

bool
domain_split (struct domain *d, size_t nx, size_t ny,
              const bool periodic[2], char *err, size_t errlen)
{
  (void) err;
  (void) errlen;
  *d = (struct domain) { .ranks = 1, .dims = { 1, 1 }, .nx = nx, .ny = ny,
                         .local_nx = nx, .local_ny = ny };
  for (int e = 0; e < EDGE_COUNT; ++e)
    d->neighbour[e] = periodic[e / 2] ? 0 : -1;
  return true;
}

void
domain_exchange_begin (struct domain *d, double *send, double *recv)
{
  (void) d;
  (void) send;
  (void) recv;
}

void
domain_exchange_end (struct domain *d)
{
  (void) d;
}

void
domain_trade_halo (const struct domain *d, double *u, size_t nx, size_t ny,
                   size_t stride, int axis)
{
  (void) d;
  (void) u;
  (void) nx;
  (void) ny;
  (void) stride;
  (void) axis;
}

void
domain_trade_strips (const struct domain *d, double *u, size_t nx,
                     size_t ny, size_t stride, size_t depth, int axis)
{
  (void) d;
  (void) u;
  (void) nx;
  (void) ny;
  (void) stride;
  (void) depth;
  (void) axis;
}

void
domain_sum_exact (const struct domain *d, double *v, size_t n)
{
  (void) d;
  (void) v;
  (void) n;
}

void
domain_sum_ordered (const struct domain *d, double *v, size_t n)
{
  (void) d;
  (void) v;
  (void) n;
}

int
domain_agree (int status)
{
  return status;
}

void
domain_share (const struct domain *d, char *buf, size_t len)
{
  (void) d;
  (void) buf;
  (void) len;
}

void
domain_broadcast (const struct domain *d, double *v, size_t n)
{
  (void) d;
  (void) v;
  (void) n;
}

double domain_sum (const struct domain *d, double v) { (void) d; return v; }
double domain_max (const struct domain *d, double v) { (void) d; return v; }
double domain_min (const struct domain *d, double v) { (void) d; return v; }
size_t domain_count (const struct domain *d, size_t v) { (void) d; return v; }
uint64_t domain_hash (const struct domain *d, uint64_t v) { (void) d; return v; }
int domain_signal (const struct domain *d, int sig) { (void) d; return sig; }

size_t
domain_node_total (const struct domain *d, size_t v, int *ranks)
{
  (void) d;
  *ranks = 1;
  return v;
}

bool
domain_gather (const struct domain *d, const struct field *part,
               struct field *whole)
{
  (void) d;
  *whole = *part;
  return true;
}

bool
domain_take (const struct domain *d, struct field *whole, struct field *part)
{
  (void) d;
  *part = *whole;
  whole->data = NULL;
  return true;
}

void
domain_release (const struct domain *d, struct field *whole)
{
  (void) d;
  (void) whole;
}
