//===- jit.h - JIT execution of lowered modules -------------------*- C -*-===//
//
// A thin wrapper over mlir-c/ExecutionEngine.h: creates an engine with
// libomp loaded and the narrow-float conversion builtins resolved from
// rock's runtime, optionally generates code for a CPU other than the host
// (to prove that kernels run on lower x86-64 levels), reports the JIT's own
// error text, and calls `llvm.emit_c_interface` functions whose arguments
// are all rank-1 memrefs, passing RockBuffers as memref descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_JIT_H
#define ROCK_RUNTIME_JIT_H

#include "buffer.h"

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The libomp the CPU pipeline's OpenMP runtime calls need.
#define ROCK_JIT_LIBOMP "/usr/lib/llvm-22/lib/libomp.so"

/// The environment variable naming the CPU the JIT generates code for when
/// no CPU is given explicitly (an LLVM CPU name such as "x86-64-v3").
#define ROCK_JIT_CPU_ENV "ROCK_JIT_CPU"

/// Returns the CPU to generate code for: `cpu` when it is non-null and
/// non-empty, else the value of ROCK_JIT_CPU when set and non-empty, else
/// NULL (the host CPU with all its features). The result is `cpu` or a
/// pointer into the environment (borrowed; valid until the environment
/// changes).
const char *rockJitTargetCpu(const char *cpu);

/// Returns a new execution engine for `module` (borrowed; it must already be
/// in the LLVM dialect, and the context must have the LLVM translations
/// registered), optimised at -O3 with libomp loaded and the f16/bf16
/// conversion builtins that LLVM may call (`__truncsfbf2`, `__extendhfsf2`,
/// ...) bound to rock's runtime. When `cpu` (borrowed; an LLVM x86-64 CPU
/// name, see rockJitTargetCpu) is non-null, code is generated for that CPU
/// instead of the host: every llvm.func of `module` gets `target_cpu = cpu`
/// and an empty `target_features`, so that no host feature beyond what `cpu`
/// implies is used, in OpenMP outlined bodies too (the module is modified).
/// Validate `cpu` first (rockX86CpuIsKnown): LLVM aborts on some unknown
/// names. The caller owns the engine and destroys it with
/// mlirExecutionEngineDestroy. Returns a null engine (check with
/// mlirExecutionEngineIsNull) on failure; MLIR may have emitted diagnostics.
MlirExecutionEngine rockJitCreate(MlirModule module, const char *cpu);

/// Returns a new context (owned by the caller: mlirContextDestroy) that
/// knows every upstream dialect and rock's, with the LLVM translations
/// registered; also registers every upstream pass and rock's, globally
/// (idempotent). What parsing, lowering and JIT-compiling rock kernels needs.
MlirContext rockJitContextCreate(void);

/// Parses `text` (borrowed, NUL-terminated) in `ctx` (borrowed; it must
/// have the dialects, rock's passes and the LLVM translations registered),
/// lowers it with rock-cpu-pipeline and returns rockJitCreate's engine for
/// the CPU rockJitTargetCpu(NULL) names (the parsed module is destroyed).
/// The caller owns the engine. On failure returns a null engine and writes
/// "parse failed" / "lowering failed" / "no JIT" into `err` (errSize bytes,
/// caller-owned); MLIR may have emitted diagnostics. Tests use it; rock-run
/// lowers and JITs in steps of its own to time them.
MlirExecutionEngine rockJitCompileText(MlirContext ctx, const char *text,
                                       char *err, size_t errSize);

/// Looks up `_mlir_ciface_<name>`, which makes the JIT generate the code.
/// On failure returns false and writes into `err` (errSize bytes,
/// caller-owned) the JIT's own message (e.g. "JIT session error: Symbols not
/// found: [ foo ]"), or "no function _mlir_ciface_<name>" when LLVM said
/// nothing. LLVM's messages are captured from stderr during the lookup; on
/// success any message it printed (a warning) is written back to stderr,
/// except that an unrecognized processor is an error.
bool rockJitLookup(MlirExecutionEngine jit, const char *name, char *err,
                   size_t errSize);

/// Calls `_mlir_ciface_<name>` with `n` rank-1 memref arguments, argument
/// i viewing `sizes[i]` elements at `data[i]` (borrowed; offset 0, stride
/// 1). Returns false if the function is not found. At most 64 arguments.
bool rockJitInvokeData(MlirExecutionEngine jit, const char *name,
                       void *const *data, const int64_t *sizes, int n);

/// Calls `_mlir_ciface_<name>` with `n` rank-1 memref arguments viewing
/// `args[0..n)` (borrowed; each buffer is passed whole, offset 0, stride 1).
/// Returns false if the function is not found. At most 64 arguments.
bool rockJitInvoke(MlirExecutionEngine jit, const char *name,
                   RockBuffer *const *args, int n);

#ifdef __cplusplus
}
#endif

#endif
