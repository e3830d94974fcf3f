//===- Target.h - what LLVM knows about CPU targets ---------------*- C -*-===//
//
// Queries of LLVM's x86 CPU table, for tools that generate code for a CPU
// other than the host (rock-run --cpu).
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_TARGET_H
#define ROCK_C_TARGET_H

#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// True when `cpu` (borrowed; need not be NUL-terminated) names a 64-bit x86
/// CPU or x86-64 level that LLVM can generate code for ("x86-64-v3",
/// "znver4", ...).
MLIR_CAPI_EXPORTED bool rockX86CpuIsKnown(MlirStringRef cpu);

/// True when LLVM's feature set of the x86 CPU `cpu` includes `feature`
/// (both borrowed), e.g. "avx512bf16". False for an unknown CPU.
MLIR_CAPI_EXPORTED bool rockX86CpuHasFeature(MlirStringRef cpu,
                                             MlirStringRef feature);

/// True when the host CPU (as LLVM's host feature detection sees it: CPUID,
/// and for register state the OS must save, XCR0) has the LLVM feature
/// `feature` (borrowed), e.g. "avx512bf16" or "amx-bf16". Whether Linux lets
/// the process use AMX tiles is a separate request (rockAmxPermit, runtime).
MLIR_CAPI_EXPORTED bool rockX86HostHasFeature(MlirStringRef feature);

#ifdef __cplusplus
}
#endif

#endif
