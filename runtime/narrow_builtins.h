//===- narrow_builtins.h - f16/bf16 conversion builtins for the JIT -*- C -*-=//
//
// On CPUs without the conversion instructions (no F16C, no AVX512-BF16),
// LLVM's x86 backend lowers f16/bf16 conversions to calls of compiler-rt's
// soft-float builtins (`__truncsfbf2`, `__extendhfsf2`, ...). The JIT cannot
// resolve those from any library the process loads, so rock provides them,
// computed by the same round-to-nearest-even routine as the host buffers.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_NARROW_BUILTINS_H
#define ROCK_RUNTIME_NARROW_BUILTINS_H

#ifdef __cplusplus
extern "C" {
#endif

/// One builtin: its symbol name and the address of rock's implementation.
typedef struct RockNarrowBuiltin {
  const char *name;
  void *address;
} RockNarrowBuiltin;

/// Returns the builtins, a static table ended by an entry with a null name
/// (borrowed; valid for the life of the process).
const RockNarrowBuiltin *rockNarrowBuiltins(void);

#ifdef __cplusplus
}
#endif

#endif
