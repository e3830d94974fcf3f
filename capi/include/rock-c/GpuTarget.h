//===- GpuTarget.h - GPU target names (--arch, mhal.arch) --------*- C -*-===//
//
// One parser for the GPU target strings rock accepts, shared by rock-gen
// (validation), the GPU pipeline (#nvvm.target / #rocdl.target, chipset
// options, serialisation) and the tile-product emitters (which instructions
// exist):
//   - NVIDIA: sm_<digits>[a]                      e.g. sm_90, sm_90a, sm_80
//   - AMD, rocMLIR's spellings: gfx<id>[:feat±]*  e.g. gfx942, gfx90a, gfx1201,
//     gfx942:sramecc+:xnack-, and the full target id with the triple,
//     amdgcn-amd-amdhsa:gfx942:sramecc+:xnack-  (features: sramecc, xnack).
//
// No function here keeps a pointer it was given beyond the call.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_GPUTARGET_H
#define ROCK_C_GPUTARGET_H

#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum RockGpuVendor {
  ROCK_GPU_NONE = 0, ///< not a GPU name (cpu, a host CPU, empty)
  ROCK_GPU_NVIDIA = 1,
  ROCK_GPU_AMD = 2,
} RockGpuVendor;

/// The matrix (tile-product) instructions a target has.
typedef enum RockGpuAccel {
  ROCK_ACCEL_NONE = 0,     ///< SIMT only
  ROCK_ACCEL_MMA_SYNC = 1, ///< NVIDIA sm_80+: mma.sync m16n8k16 / m16n8k32
  ROCK_ACCEL_MFMA = 2,     ///< AMD gfx908/gfx90a/gfx94x/gfx950 (wave64)
  ROCK_ACCEL_WMMA12 = 3,   ///< AMD gfx12 (wave32 WMMA, gfx12 operand layout)
  ROCK_ACCEL_WGMMA = 4,    ///< NVIDIA sm_90a warpgroup MMA; a target's `accel`
                           ///< stays MMA_SYNC (schedules ask for it by name)
} RockGpuAccel;

typedef struct RockGpuTarget {
  RockGpuVendor vendor;
  char chip[16];      ///< "sm_90", "gfx942"
  char features[64];  ///< LLVM form for #rocdl.target: "+sramecc,-xnack"; ""
  char targetId[96];  ///< AMD target id: "amdgcn-amd-amdhsa--gfx942" or
                      ///< "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"; ""
  int smVersion;      ///< NVIDIA: 90 for sm_90 / sm_90a; 0 for AMD
  int gfxMajor;       ///< AMD: 9 for gfx942, 12 for gfx1201; 0 for NVIDIA
  int waveSize;       ///< 32 (NVIDIA, AMD gfx10+) or 64 (AMD gfx9)
  RockGpuAccel accel; ///< the tile-product family of the chip
  int numCu; ///< SMs / CUs of the chip's largest part (sm_90: 132, H100 /
             ///< H200; gfx942: 304, MI300X), the default of rock-gen
             ///< -num_cu (module attribute rock.num_cu); 64 when not known
} RockGpuTarget;

/// Parses `arch` (NUL-terminated, borrowed) into `*out`. Returns true for a
/// valid GPU name and for any non-GPU name (then out->vendor is
/// ROCK_GPU_NONE); returns false, with a one-line reason in `err` (size
/// `errSize`, may be 0), for a malformed GPU name: "sm_9x", "gfx", an unknown
/// feature or a feature without +/-.
MLIR_CAPI_EXPORTED bool rockGpuTargetParse(const char *arch, RockGpuTarget *out,
                                           char *err, size_t errSize);

#ifdef __cplusplus
}
#endif

#endif // ROCK_C_GPUTARGET_H
