/* What every build of the domain layer shares: which edges trade halo
   lines with another rank.  The MPI implementation is in domain_mpi.c,
   the single-process one in domain_serial.c.  */
#include <config.h>

#include "domain.h"

#include "kernels.h"
#include "run_config.h"

bool
domain_trades (const struct domain *d, enum edge e)
{
  return d->neighbour[e] >= 0 && d->neighbour[e] != d->rank;
}

bool
domain_holds_edge (const struct domain *d, enum edge e)
{
  switch (e)
    {
    case EDGE_LEFT:
      return d->x0 == 0;
    case EDGE_RIGHT:
      return d->x0 + d->local_nx == d->nx;
    case EDGE_BOTTOM:
      return d->y0 == 0;
    default:
      return d->y0 + d->local_ny == d->ny;
    }
}

void
domain_edge_nodes (const struct domain *d, const struct config *c,
                   bool edge_node[EDGE_COUNT])
{
  for (enum edge e = 0; e < EDGE_COUNT; ++e)
    edge_node[e] = config_edge_node (c, e) && domain_holds_edge (d, e);
}

bool
domain_exchanges (const struct domain *d)
{
  for (enum edge e = 0; e < EDGE_COUNT; ++e)
    if (domain_trades (d, e))
      return true;
  return false;
}

void
domain_halo (const struct domain *d, struct halo *h)
{
  h->refresh = false;
  for (enum edge e = 0; e < EDGE_COUNT; ++e)
    {
      h->exchange[e] = domain_trades (d, e);
      h->copy[e] = h->copy[e] && !h->exchange[e];
      h->refresh = h->refresh || h->copy[e];
    }
}
