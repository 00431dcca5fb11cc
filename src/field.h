/* The padded grid: (ny + 2) rows of (nx + 2) doubles, row-major.  The ring
   of cells around the nx x ny interior is the halo: it holds boundary
   values, so the stencil reads its four neighbours without a branch.  */
#ifndef HEATSIM_FIELD_H
#define HEATSIM_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The four edges of a grid (or of a subdomain), in the order --edges takes
   their values.  An edge and its opposite differ in the lowest bit.  */
enum edge { EDGE_LEFT, EDGE_RIGHT, EDGE_BOTTOM, EDGE_TOP, EDGE_COUNT };

/* The kind of an edge's condition (--bc EDGE=KIND:...).  A Dirichlet
   edge's nodes are the halo's, which hold its temperature; for every
   other kind the edge's nodes are unknowns of the grid (half a control
   volume), whose halo holds their mirror image (the line beyond them)
   plus the heat the edge takes in.  An axis is periodic on both of its
   edges or on neither.  */
enum boundary_kind {
  BOUNDARY_DIRICHLET,      /* temperature:T, fixed values */
  BOUNDARY_NEUMANN,        /* flux:Q, heat flux into the domain
                              (insulated: Q = 0) */
  BOUNDARY_PERIODIC,       /* the halo holds the opposite interior edge */
  BOUNDARY_ROBIN           /* convection:H,TINF, -k dT/dn = H (T - TINF) */
};

struct field {
  size_t nx, ny;    /* interior cells */
  size_t stride;    /* nx + 2: distance between vertically adjacent cells */
  double *data;     /* (ny + 2) * stride values, halo included */
  size_t x0, y0;    /* cell (i, j) is cell (x0 + i, y0 + j) of the whole
                       grid: 0 but in a subdomain of an MPI run */
};

/* Index of cell (i, j), where 0 and nx+1 (0 and ny+1) are halo cells.  */
static inline size_t
field_index (const struct field *f, size_t i, size_t j)
{
  return j * f->stride + i;
}

/* Number of doubles in the padded grid.  */
static inline size_t
field_cells (const struct field *f)
{
  return f->stride * (f->ny + 2);
}

/* Bytes of one padded nx x ny grid; false if that overflows size_t.  */
bool field_bytes (size_t nx, size_t ny, size_t *bytes);

/* bytes of memory for a field-sized array, cache-line aligned, large ones
   on huge pages where the kernel has them; NULL if there is no memory.
   free() releases it.  */
void *field_block (size_t bytes);

/* Allocate a zeroed grid (x0 = y0 = 0); false when memory is short.  */
bool field_alloc (struct field *f, size_t nx, size_t ny);
void field_free (struct field *f);

/* Exchange two grids of the same shape (the pointer swap of the time loop).  */
void field_swap (struct field *a, struct field *b);

/* Copy every cell, halo included, of src into dst of the same shape.  */
void field_copy (struct field *dst, const struct field *src);

/* Smallest and largest interior value.  */
void field_range (const struct field *f, double *min, double *max);

/* The largest magnitude of f's interior values (a NaN left out, as
   field_range leaves it).  */
double field_largest (const struct field *f);

/* Sum of the interior cells.  */
double field_sum (const struct field *f);

/* Sum of the interior cells, each weighted by the share of a full
   control volume it owns: 1/2 on a line of edge nodes (edge_node[e]: the
   outer line at edge e is one), 1/4 at a corner of two.  Without edge
   nodes, bitwise field_sum.  */
double field_volume_sum (const struct field *f,
                         const bool edge_node[EDGE_COUNT]);

/* field_volume_sum of the cells times scale, a power of two, or of
   their magnitudes where magnitude (what the rounding of the sum is
   relative to, for a field of both signs): each term is then the
   unscaled one times scale exactly, and so is the sum, unless a term
   falls below the normal range (a cell under DBL_MIN / scale: the bits
   it loses lie far below the sum's rounding where scale brings the
   largest cell near 1).  It keeps a sum of cells near DBL_MAX from
   overflowing (total_heat).  Scale 1, not magnitude: bitwise
   field_volume_sum.  */
double field_volume_sum_scaled (const struct field *f,
                                const bool edge_node[EDGE_COUNT],
                                double scale, bool magnitude);

/* Hash of the interior's bit patterns and their places in the whole grid:
   equal fields, equal hashes.  Lets a user or a test see bitwise agreement
   without dumping the field.  A sum of per-cell hashes modulo 2^64, so the
   hashes of the subdomains of an MPI run add up to the whole field's.  */
uint64_t field_checksum (const struct field *f);

#endif
