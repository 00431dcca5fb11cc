/* The host kernels whose speed depends on the vector width, built in one
   binary for several x86-64 instruction sets (configure's host
   dispatch): each variant file (Makefile.am's host_isa_sources) is
   compiled once per path with -DHOST_ISA=NAME, which gives its kernels
   the names HOST_ISA_NAME (kernel) = kernel_NAME, and the flags of that
   path plus -ffp-contract=off, so that no path fuses a multiply and an
   add the others do not: every path does the same arithmetic per cell.

   The path of each kernel is chosen once, by host_isa_init, from what
   the processor has and what measured fastest (host_isa.c), or forced
   for all kernels by the environment (HOST_ISA_ENV).  The choice is the
   process's, not a run's: the kernels are reached from deep inside the
   time loop and the multigrid cycle, and a choice that cannot change
   after start-up is the same for every caller.  */
#ifndef HEATSIM_HOST_ISA_H
#define HEATSIM_HOST_ISA_H

#include <stdbool.h>
#include <stddef.h>

/* The environment variable that forces a path on every kernel.  */
#define HOST_ISA_ENV "HEATSIM_HOST_ISA"

/* The instruction sets, from the narrowest: baseline x86-64 (SSE2), AVX2,
   AVX-512 (F, VL, DQ).  Without host dispatch (configure
   --disable-host-dispatch, or a host other than x86_64), baseline only.  */
enum host_isa { HOST_ISA_BASELINE, HOST_ISA_AVX2, HOST_ISA_AVX512,
                HOST_ISA_COUNT };

/* The kernels whose path is chosen, each a group of loops of one shape:
   the explicit constant-coefficient update (whole field and frame, with
   and without the largest change), the rows of the temporally blocked
   steps, constant- and variable-coefficient (kernels_tiled.h: in cache,
   so bound by arithmetic rather than memory), the variable-coefficient
   update,
   the multigrid smoothers (red-black, both colours in one pass,
   weighted Jacobi), the multigrid residual and its norms, and the
   multigrid transfers (the residual restricted in the same pass, the
   correction prolonged), the black box multigrid's coarsest-level
   band substitutions, and its host passes (the wavefront of
   boxmg_host.h).  */
enum host_kernel { HOST_KERNEL_EXPLICIT, HOST_KERNEL_TILED,
                   HOST_KERNEL_MATERIAL,
                   HOST_KERNEL_SMOOTH, HOST_KERNEL_RESIDUAL,
                   HOST_KERNEL_NORMS, HOST_KERNEL_TRANSFER,
                   HOST_KERNEL_BAND, HOST_KERNEL_PASSES, HOST_KERNEL_COUNT };

struct shares;
struct boxmg_pipeline;

/* u -> unew on cells i0..i1 x j0..j1 (kernels.h); the residual forms
   return the largest |unew - u|.  */
typedef void heat_update_fn (size_t i0, size_t i1, size_t j0, size_t j1,
                             size_t stride, double rx, double ry, double rc,
                             double rise, const double *restrict u,
                             double *restrict unew);
typedef double heat_update_residual_fn (size_t i0, size_t i1, size_t j0,
                                        size_t j1, size_t stride, double rx,
                                        double ry, double rc, double rise,
                                        const double *restrict u,
                                        double *restrict unew);
/* n cells of a row, out[0..n-1], from the rows below, mid and above,
   each pointing at its first cell's column (mid[-1] and mid[n] are the
   neighbours left and right).  */
typedef void heat_row_fn (size_t n, double rx, double ry, double rc,
                          double rise, const double *restrict below,
                          const double *restrict mid,
                          const double *restrict above,
                          double *restrict out);
/* The same on the frame of nx x ny interior cells.  */
typedef void heat_frame_fn (size_t nx, size_t ny, size_t stride, double rx,
                            double ry, double rc, double rise,
                            const double *restrict u,
                            double *restrict unew);
typedef double heat_frame_residual_fn (size_t nx, size_t ny, size_t stride,
                                       double rx, double ry, double rc,
                                       double rise, const double *restrict u,
                                       double *restrict unew);
/* The variable-coefficient step (kernels_material.h) on a rectangle and
   on the frame.  */
typedef void material_update_fn (size_t i0, size_t i1, size_t j0, size_t j1,
                                 size_t stride, const double *restrict wx,
                                 const double *restrict wy,
                                 const double *restrict gain,
                                 const double *restrict rise, double factor,
                                 const double *restrict u,
                                 double *restrict unew);
typedef void material_frame_fn (size_t nx, size_t ny, size_t stride,
                                const double *restrict wx,
                                const double *restrict wy,
                                const double *restrict gain,
                                const double *restrict rise, double factor,
                                const double *restrict u,
                                double *restrict unew);
/* n nodes of a row of the variable-coefficient step, out[0..n-1], as
   heat_row_fn's; wx, wy, gain and rise at the first node's place in
   the whole-field arrays, wy_below at the node below's.  */
typedef void material_row_fn (size_t n, const double *restrict wx,
                              const double *restrict wy,
                              const double *restrict wy_below,
                              const double *restrict gain,
                              const double *restrict rise, double factor,
                              const double *restrict below,
                              const double *restrict mid,
                              const double *restrict above,
                              double *restrict out);
/* The multigrid host loops (mg_internal.h says what each does).  */
typedef void mg_smooth_fn (size_t nx, size_t ny, size_t stride,
                           double *restrict u, const double *restrict f,
                           const double *restrict axm,
                           const double *restrict axp,
                           const double *restrict aym,
                           const double *restrict ayp, double c0,
                           double omega, unsigned color);
typedef void mg_residual_fn (size_t nx, size_t ny, size_t stride,
                             const double *restrict u,
                             const double *restrict f, double *restrict r,
                             const double *restrict axm,
                             const double *restrict axp,
                             const double *restrict aym,
                             const double *restrict ayp, double c0);
typedef void mg_jacobi_fn (size_t nx, size_t ny, size_t stride,
                           double *restrict u, const double *restrict r,
                           const double *restrict axm,
                           const double *restrict axp,
                           const double *restrict aym,
                           const double *restrict ayp, double c0,
                           double omega);
typedef void mg_bands_fn (size_t nx, size_t ny, size_t stride,
                          const double *restrict u, const double *restrict f,
                          bool zero_f, const double *restrict axm,
                          const double *restrict axp,
                          const double *restrict aym,
                          const double *restrict ayp, double c0, double sr,
                          double sm, struct shares shares,
                          double *restrict part);

/* The multigrid transfers (mg_transfer_host.c): fc = R (f - A u) and
   uc = 0 on the coarse window, computing each fine residual row once
   into rows (three per thread); the same from a level-sized residual
   r; uf += P uc, rows being a row per thread (per_thread) or one per
   fine row.  */
typedef void mg_restrict_fn (size_t nxc, size_t nyc, size_t coarse_stride,
                             double *restrict fc, double *restrict uc,
                             size_t nx, size_t fine_stride,
                             const double *restrict u,
                             const double *restrict f,
                             const double *restrict axm,
                             const double *restrict axp,
                             const double *restrict aym,
                             const double *restrict ayp, double c0,
                             const size_t *restrict rxi,
                             const double *restrict rxw,
                             const size_t *restrict ryi,
                             const double *restrict ryw, double *rows);
typedef void mg_restrict_stored_fn (size_t nxc, size_t nyc,
                                    size_t coarse_stride,
                                    double *restrict fc, double *restrict uc,
                                    size_t fine_stride,
                                    const double *restrict r,
                                    const size_t *restrict rxi,
                                    const double *restrict rxw,
                                    const size_t *restrict ryi,
                                    const double *restrict ryw);
typedef void mg_prolong_fn (size_t nxf, size_t nyf, size_t fine_stride,
                            double *restrict uf, size_t nxc,
                            size_t coarse_stride, const double *restrict uc,
                            double *restrict rows, bool per_thread,
                            const size_t *restrict pxi,
                            const double *restrict pxw,
                            const size_t *restrict pyi,
                            const double *restrict pyw);

/* x[0 .. m - 1] overwritten by L^-1 x (forward) or L^-T x (backward),
   L a band Cholesky factor of lower bandwidth band, row i holding
   L(i, i - d) at i (band + 1) + d (boxmg_band_host.c).  */
typedef void band_substitution_fn (size_t m, size_t band,
                                   const double *restrict factor,
                                   double *restrict x);

/* The black box multigrid's host wavefront pl on bands threads
   (boxmg_host.c).  */
typedef void boxmg_pipeline_fn (const struct boxmg_pipeline *pl,
                                size_t bands);

/* The kernels of one path.  */
struct host_kernels {
  heat_update_fn *update;
  heat_update_residual_fn *update_residual;
  heat_frame_fn *frame;
  heat_frame_residual_fn *frame_residual;
  heat_row_fn *row;
  material_update_fn *material_update;
  material_frame_fn *material_frame;
  material_row_fn *material_row;
  mg_smooth_fn *smooth, *sweep;
  mg_residual_fn *residual;
  mg_jacobi_fn *jacobi;
  mg_bands_fn *bands;
  mg_restrict_fn *restriction;
  mg_restrict_stored_fn *restriction_stored;
  mg_prolong_fn *prolongation;
  band_substitution_fn *band_forward, *band_backward;
  boxmg_pipeline_fn *boxmg_pipeline;
};

/* The kernels of path ISA (one token: baseline, avx2, avx512), as the
   variant files define them, and the table of that path.  A new kernel
   file adds its kernels here and to struct host_kernels.  */
#define HOST_ISA_PROTOTYPES(isa)                                          \
  heat_update_fn heat_update_##isa;                                       \
  heat_update_residual_fn heat_update_residual_##isa;                     \
  heat_frame_fn heat_frame_##isa;                                         \
  heat_frame_residual_fn heat_frame_residual_##isa;                       \
  heat_row_fn heat_row_##isa;                                             \
  material_update_fn material_update_##isa;                               \
  material_frame_fn material_frame_##isa;                                 \
  material_row_fn material_row_##isa;                                     \
  mg_smooth_fn mg_smooth_##isa, mg_sweep_##isa;                           \
  mg_residual_fn mg_residual_##isa;                                       \
  mg_jacobi_fn mg_jacobi_##isa;                                           \
  mg_bands_fn mg_bands_##isa;                                             \
  mg_restrict_fn mg_restrict_##isa;                                       \
  mg_restrict_stored_fn mg_restrict_stored_##isa;                         \
  mg_prolong_fn mg_prolong_##isa;                                         \
  band_substitution_fn band_forward_##isa, band_backward_##isa;          \
  boxmg_pipeline_fn boxmg_pipeline_##isa
#define HOST_ISA_KERNELS(isa)                                             \
  { .update = heat_update_##isa,                                          \
    .update_residual = heat_update_residual_##isa,                        \
    .frame = heat_frame_##isa,                                            \
    .frame_residual = heat_frame_residual_##isa,                          \
    .row = heat_row_##isa,                                                \
    .material_update = material_update_##isa,                             \
    .material_frame = material_frame_##isa,                               \
    .material_row = material_row_##isa,                                   \
    .smooth = mg_smooth_##isa, .sweep = mg_sweep_##isa,                   \
    .residual = mg_residual_##isa, .jacobi = mg_jacobi_##isa,             \
    .bands = mg_bands_##isa, .restriction = mg_restrict_##isa,            \
    .restriction_stored = mg_restrict_stored_##isa,                       \
    .prolongation = mg_prolong_##isa,                                     \
    .band_forward = band_forward_##isa,                                   \
    .band_backward = band_backward_##isa,                                 \
    .boxmg_pipeline = boxmg_pipeline_##isa }

HOST_ISA_PROTOTYPES (baseline);
#ifdef HEATSIM_HOST_DISPATCH
HOST_ISA_PROTOTYPES (avx2);
HOST_ISA_PROTOTYPES (avx512);
#endif

/* In a variant file: the name of its kernel F on its path.  */
#define HOST_ISA_PASTE(f, isa) f##_##isa
#define HOST_ISA_EXPAND(f, isa) HOST_ISA_PASTE (f, isa)
#define HOST_ISA_NAME(f) HOST_ISA_EXPAND (f, HOST_ISA)

/* Choose each kernel's path: request NULL or "auto", the measured choice
   among the paths this processor has; "baseline", "avx2" or "avx512",
   that path for every kernel.  False, with a message in err, for a name
   that is none of these or a path the processor (or the build) lacks:
   nothing is chosen then.  Called once, from main, before any kernel
   runs; until then every kernel runs its baseline path.  */
bool host_isa_init (const char *request, char *err, size_t size);

/* The kernels of the path chosen for kernel k.  */
const struct host_kernels *host_kernels (enum host_kernel k);

/* The path chosen for kernel k, and the names of paths and kernels (as
   --version and the JSON report print them).  */
enum host_isa host_isa_of (enum host_kernel k);
const char *host_isa_name (enum host_isa isa);
const char *host_kernel_name (enum host_kernel k);

/* Whether this processor and this build have path isa.  */
bool host_isa_available (enum host_isa isa);

#endif
