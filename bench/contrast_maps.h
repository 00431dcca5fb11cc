/* The conductivity maps of issue 23's robustness figures: k jumps between
   1 (low) and a contrast c (high) on nx x ny nodes of heatsim's vertex
   grid.  Node (i, j) sits at ((i + 1) / (nx + 1), (j + 1) / (ny + 1)) of
   the unit square; every node has one k, so each interface between
   materials lies on the faces between nodes, where heatsim's harmonic-mean
   conductances put it.

     layered        layers in x, CONTRAST_BLOCK nodes thick, alternating
                    low (first) and high
     checkerboard   CONTRAST_BLOCK x CONTRAST_BLOCK node blocks, low at
                    the origin
     disks          CONTRAST_DISK_COUNT disks of high k in a low matrix;
                    centres uniform on the unit square, radii uniform in
                    [0.015, 0.03) of the side (15 to 31 nodes at 1023^2),
                    overlaps allowed; drawn from SplitMix64 seeded with
                    CONTRAST_DISK_SEED, so every size shows the same disks
     disks-inverse  the same disks, low, in a high matrix  */
#ifndef HEATSIM_BENCH_CONTRAST_MAPS_H
#define HEATSIM_BENCH_CONTRAST_MAPS_H

#include <stddef.h>
#include <stdint.h>

enum contrast_kind {
  CONTRAST_LAYERED,
  CONTRAST_CHECKERBOARD,
  CONTRAST_DISKS,
  CONTRAST_DISKS_INVERSE,
  CONTRAST_KIND_COUNT
};

#define CONTRAST_BLOCK 32
#define CONTRAST_DISK_COUNT 150
#define CONTRAST_DISK_SEED UINT64_C (20261125)

/* The name of kind (as the command line spells it).  */
const char *contrast_kind_name (enum contrast_kind kind);

/* The kind named name; CONTRAST_KIND_COUNT when there is none.  */
enum contrast_kind contrast_kind_parse (const char *name);

/* k of kind with high value contrast (low 1) at each of ny rows of nx
   nodes, row-major (y first).  */
void contrast_map_fill (enum contrast_kind kind, size_t nx, size_t ny,
                        double contrast, double *restrict k);

#endif
