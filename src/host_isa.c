#include <config.h>

#include "host_isa.h"

#include <stdio.h>
#include <string.h>

static const struct host_kernels paths[HOST_ISA_COUNT] = {
  [HOST_ISA_BASELINE] = HOST_ISA_KERNELS (baseline),
#ifdef HEATSIM_HOST_DISPATCH
  [HOST_ISA_AVX2] = HOST_ISA_KERNELS (avx2),
  [HOST_ISA_AVX512] = HOST_ISA_KERNELS (avx512),
#endif
};

static const char *const isa_names[HOST_ISA_COUNT] = {
  [HOST_ISA_BASELINE] = "baseline", [HOST_ISA_AVX2] = "avx2",
  [HOST_ISA_AVX512] = "avx512",
};

static const char *const kernel_names[HOST_KERNEL_COUNT] = {
  [HOST_KERNEL_EXPLICIT] = "explicit",
  [HOST_KERNEL_TILED] = "explicit_tiled", [HOST_KERNEL_MATERIAL] = "material",
  [HOST_KERNEL_SMOOTH] = "mg_smooth",
  [HOST_KERNEL_RESIDUAL] = "mg_residual", [HOST_KERNEL_NORMS] = "mg_norms",
  [HOST_KERNEL_TRANSFER] = "mg_transfer", [HOST_KERNEL_BAND] = "boxmg_band",
  [HOST_KERNEL_PASSES] = "boxmg_passes",
};

/* The widest path worth taking per kernel, measured (bench/RESULTS.md,
   2026-11-25: 2-vCPU AMD EPYC with AVX-512, clang 19, the default -O2
   build): a kernel runs the widest path the processor has up to this
   one.  AVX2 was the fastest for every kernel there: the AVX-512 path
   (512-bit vectors) took more processor time than AVX2 for the
   explicit, material, multigrid and Crank-Nicolson runs alike, and
   the baseline most of all: these loops are memory-bound, and 512-bit
   vectors bring them no more bandwidth (why they cost more processor
   time was not analysed).  The multigrid kernels were timed
   together (the steady plate, the implicit steps): one entry each, so
   that a finer measurement can change one.  */
static const enum host_isa preferred[HOST_KERNEL_COUNT] = {
  [HOST_KERNEL_EXPLICIT] = HOST_ISA_AVX2,
  [HOST_KERNEL_TILED] = HOST_ISA_AVX2,
  [HOST_KERNEL_MATERIAL] = HOST_ISA_AVX2,
  [HOST_KERNEL_SMOOTH] = HOST_ISA_AVX2,
  [HOST_KERNEL_RESIDUAL] = HOST_ISA_AVX2,
  [HOST_KERNEL_NORMS] = HOST_ISA_AVX2,
  [HOST_KERNEL_TRANSFER] = HOST_ISA_AVX2,
  [HOST_KERNEL_BAND] = HOST_ISA_AVX2,
  [HOST_KERNEL_PASSES] = HOST_ISA_AVX2,
};

/* The path of each kernel: written by host_isa_init alone, once, before
   any kernel runs (zero: baseline until then).  */
static enum host_isa chosen[HOST_KERNEL_COUNT];

/* The processor's features.  An offload build compiles this file for the
   device too, where the builtins that ask the processor do not exist
   (the device pass never runs it).  */
#if defined HEATSIM_HOST_DISPATCH && !defined __NVPTX__ && !defined __AMDGPU__
# define ASK_PROCESSOR 1
#endif

bool
host_isa_available (enum host_isa isa)
{
#ifdef ASK_PROCESSOR
  __builtin_cpu_init ();
  switch (isa)
    {
    case HOST_ISA_AVX2:
      return __builtin_cpu_supports ("avx2");
    case HOST_ISA_AVX512:
      return __builtin_cpu_supports ("avx512f")
             && __builtin_cpu_supports ("avx512vl")
             && __builtin_cpu_supports ("avx512dq");
    default:
      return isa == HOST_ISA_BASELINE;
    }
#else
  return isa == HOST_ISA_BASELINE;
#endif
}

/* The widest path available up to want.  */
static enum host_isa
widest_up_to (enum host_isa want)
{
  enum host_isa isa = want;
  while (isa != HOST_ISA_BASELINE && !host_isa_available (isa))
    --isa;
  return isa;
}

bool
host_isa_init (const char *request, char *err, size_t size)
{
  if (request == NULL || request[0] == '\0' || strcmp (request, "auto") == 0)
    {
      for (int k = 0; k < HOST_KERNEL_COUNT; ++k)
        chosen[k] = widest_up_to (preferred[k]);
      return true;
    }
  int isa = 0;
  while (isa < HOST_ISA_COUNT && strcmp (request, isa_names[isa]) != 0)
    ++isa;
  if (isa == HOST_ISA_COUNT)
    {
      snprintf (err, size, "%s=%s: not a path (auto, baseline, avx2 or "
                "avx512)", HOST_ISA_ENV, request);
      return false;
    }
  if (!host_isa_available ((enum host_isa) isa))
    {
#ifdef HEATSIM_HOST_DISPATCH
      snprintf (err, size, "%s=%s: this processor lacks %s", HOST_ISA_ENV,
                request, isa == HOST_ISA_AVX2 ? "AVX2"
                : "AVX-512 (F, VL and DQ)");
#else
      snprintf (err, size, "%s=%s: this heatsim is built with the baseline "
                "path only", HOST_ISA_ENV, request);
#endif
      return false;
    }
  for (int k = 0; k < HOST_KERNEL_COUNT; ++k)
    chosen[k] = (enum host_isa) isa;
  return true;
}

const struct host_kernels *
host_kernels (enum host_kernel k)
{
  return &paths[chosen[k]];
}

enum host_isa
host_isa_of (enum host_kernel k)
{
  return chosen[k];
}

const char *
host_isa_name (enum host_isa isa)
{
  return isa_names[isa];
}

const char *
host_kernel_name (enum host_kernel k)
{
  return kernel_names[k];
}
