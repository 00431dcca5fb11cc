#include <config.h>

#include "operator.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "material.h"

/* The value of a per-node coefficient at cell c of the padded part, or
   its uniform value where the material keeps none per node.  */
static double
node_value (const struct field *f, double uniform, size_t c)
{
  return f->data != NULL ? f->data[c] : uniform;
}

/* The share of a full control volume along an axis of n nodes that node
   k owns: half for an edge node (edge_lo, edge_hi: the part's first or
   last line is one).  */
static double
fraction (size_t k, size_t n, bool edge_lo, bool edge_hi)
{
  return (k == 1 && edge_lo) || (k == n && edge_hi) ? 0.5 : 1.0;
}

/* wx of rows 1..ny, columns 0..nx: a face on an edge of edge nodes is
   shut (conductance 0), and the faces of a row of edge nodes are half as
   long as the others.  */
static void
east_faces (struct heat_operator *op, const struct material *m, double dx,
            const bool edge_node[EDGE_COUNT])
{
  const size_t nx = op->nx, ny = op->ny, stride = op->stride;
  const double k = m->conductivity_uniform;
  for (size_t j = 1; j <= ny; ++j)
    {
      const double scale = fraction (j, ny, edge_node[EDGE_BOTTOM],
                                     edge_node[EDGE_TOP]) / (dx * dx);
      for (size_t i = 0; i <= nx; ++i)
        {
          const size_t c = j * stride + i;
          const bool shut = (i == 0 && edge_node[EDGE_LEFT])
                            || (i == nx && edge_node[EDGE_RIGHT]);
          const double west = node_value (&m->conductivity, k, c);
          const double east = node_value (&m->conductivity, k, c + 1);
          op->wx[c] = shut ? 0.0
                      : heat_face_conductance (west, east) * scale;
        }
    }
}

/* wy of rows 0..ny, columns 1..nx, likewise.  */
static void
north_faces (struct heat_operator *op, const struct material *m, double dy,
             const bool edge_node[EDGE_COUNT])
{
  const size_t nx = op->nx, ny = op->ny, stride = op->stride;
  const double k = m->conductivity_uniform;
  for (size_t j = 0; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t c = j * stride + i;
        const bool shut = (j == 0 && edge_node[EDGE_BOTTOM])
                          || (j == ny && edge_node[EDGE_TOP]);
        const double scale = fraction (i, nx, edge_node[EDGE_LEFT],
                                       edge_node[EDGE_RIGHT]) / (dy * dy);
        const double south = node_value (&m->conductivity, k, c);
        const double north = node_value (&m->conductivity, k, c + stride);
        op->wy[c] = shut ? 0.0 : heat_face_conductance (south, north) * scale;
      }
}

/* The part's size: that of the first per-node field the material
   holds (where all are uniform, the size the material gives them).  */
static const struct field *
part_shape (const struct material *m)
{
  if (m->conductivity.data != NULL)
    return &m->conductivity;
  return m->capacity.data != NULL || m->source.data == NULL ? &m->capacity
         : &m->source;
}

bool
heat_operator_build (struct heat_operator *op, const struct material *m,
                     double dx, double dy,
                     const bool edge_node[EDGE_COUNT])
{
  const size_t nx = part_shape (m)->nx, ny = part_shape (m)->ny;
  size_t bytes;
  *op = (struct heat_operator) { .nx = nx, .ny = ny, .stride = nx + 2 };
  if (!field_bytes (nx, ny, &bytes) || bytes > SIZE_MAX / 4)
    return false;
  double *block = field_block (4 * bytes);
  if (block == NULL)
    return false;
  /* Entries no face or node uses (corners, the halo) stay 0.  */
  memset (block, 0, 4 * bytes);
  const size_t n = bytes / sizeof *block;
  *op = (struct heat_operator) {
    .nx = nx, .ny = ny, .stride = nx + 2, .block = block,
    .wx = block, .wy = block + n, .capacity = block + 2 * n,
    .source = block + 3 * n,
  };
  east_faces (op, m, dx, edge_node);
  north_faces (op, m, dy, edge_node);
  for (size_t j = 1; j <= ny; ++j)
    for (size_t i = 1; i <= nx; ++i)
      {
        const size_t c = j * op->stride + i;
        const double share
          = fraction (i, nx, edge_node[EDGE_LEFT], edge_node[EDGE_RIGHT])
            * fraction (j, ny, edge_node[EDGE_BOTTOM], edge_node[EDGE_TOP]);
        op->capacity[c]
          = share * node_value (&m->capacity, m->capacity_uniform, c);
        op->source[c] = share * node_value (&m->source, 0.0, c);
      }
  return true;
}

void
heat_operator_free (struct heat_operator *op)
{
  free (op->block);
  *op = (struct heat_operator) { 0 };
}
