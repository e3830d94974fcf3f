//===- jit.h - JIT execution of lowered modules -------------------*- C -*-===//
//
// A thin wrapper over mlir-c/ExecutionEngine.h: creates an engine with
// libomp loaded, and calls `llvm.emit_c_interface` functions whose arguments
// are all rank-1 memrefs, passing RockBuffers as memref descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_JIT_H
#define ROCK_RUNTIME_JIT_H

#include "buffer.h"

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The libomp the CPU pipeline's OpenMP runtime calls need.
#define ROCK_JIT_LIBOMP "/usr/lib/llvm-22/lib/libomp.so"

/// Returns a new execution engine for `module` (borrowed; it must already be
/// in the LLVM dialect, and the context must have the LLVM translations
/// registered), optimised at -O3 with libomp loaded. The caller owns the
/// engine and destroys it with mlirExecutionEngineDestroy. Returns a null
/// engine (check with mlirExecutionEngineIsNull) on failure; MLIR may have
/// emitted diagnostics.
MlirExecutionEngine rockJitCreate(MlirModule module);

/// Calls `_mlir_ciface_<name>` with `n` rank-1 memref arguments viewing
/// `args[0..n)` (borrowed; each buffer is passed whole, offset 0, stride 1).
/// Returns false if the function is not found. At most 64 arguments.
bool rockJitInvoke(MlirExecutionEngine jit, const char *name,
                   RockBuffer *const *args, int n);

#ifdef __cplusplus
}
#endif

#endif
