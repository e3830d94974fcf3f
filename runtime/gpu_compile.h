//===- gpu_compile.h - a GPU module to a kernel bundle ------------*- C -*-===//
//
// rock-run's compile step for GPU modules (module attribute mhal.arch or
// rock.arch = "sm_*"): runs rock-gpu-pipeline (or, for a module already in
// gpu.launch form, the upstream tail from kernel outlining to gpu.binary) and
// reads the result into a RockBundle: the gpu.binary objects, and for
// @rock_attention and @rock_attention_combine their argument types,
// memref.alloc scratch and gpu.launch_func ops with the kernel-parameter
// mapping read from the launch operands (outlining orders parameters by first
// use).
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_GPU_COMPILE_H
#define ROCK_RUNTIME_GPU_COMPILE_H

#include "bundle.h"

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Copies the module's mhal.arch (or rock.arch) into `arch` (archSize bytes)
/// and returns true when it names an NVIDIA target ("sm_..."). `module` is
/// borrowed.
bool rockGpuModuleGetArch(MlirModule module, char *arch, size_t archSize);

/// The upstream tail used for modules already in gpu.launch form, for `arch`
/// (e.g. "sm_90"); written into `buf` (size bytes).
void rockGpuTailPipelineText(const char *arch, char *buf, size_t size);

/// Lowers `module` (borrowed, modified in place) to gpu.binary form and fills
/// the objects and functions of `b` (caller-owned; its harness and arch are
/// left alone; free with rockBundleDestroy). The context must have all
/// dialects, passes and LLVM translations registered. Returns false with a
/// one-line message in `err` (errSize bytes); MLIR diagnostics go to the
/// context's handler.
bool rockGpuCompile(MlirModule module, const char *arch, RockBundle *b,
                    char *err, size_t errSize);

/// rockGpuCompile with `cubin`: the objects are cubins from ptxas
/// (rock-gpu-cubin-pipeline; the CUDA toolkit must be installed) instead of
/// PTX, so that the runner loads them without a JIT step (rock-tune's
/// bundles).
bool rockGpuCompileAs(MlirModule module, const char *arch, bool cubin,
                      RockBundle *b, char *err, size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
