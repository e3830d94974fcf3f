//===- host_features.h - CPU features of the JIT host -------------*- C -*-===//
//
// rock-run compiles for the machine it runs on. The GemmFeatures of rock's
// attention ops tell the lowering which instructions it may use; on the CPU
// `dot` means x86 AVX512-BF16 dot products (vdpbf16ps), the counterpart of
// the GPU dot instructions the bit names in rocMLIR.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_HOST_FEATURES_H
#define ROCK_RUNTIME_HOST_FEATURES_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// True when code generated for `cpu` may use the LLVM x86 feature
/// `feature` (both borrowed; e.g. "avx512f", "amx-bf16"): for NULL, when the
/// host CPU has it (LLVM's host detection); for an LLVM CPU name, when LLVM's
/// feature set of that CPU has it.
bool rockCpuHasFeature(const char *cpu, const char *feature);

/// True when code generated for `cpu` may use AVX512-BF16 (vdpbf16ps):
/// for NULL, when the host CPU executes it; for an LLVM CPU name (borrowed),
/// when LLVM's feature set of that CPU has it (the generic x86-64 levels
/// have not).
bool rockCpuHasBf16Dot(const char *cpu);

/// Walks `module` (borrowed) and, when `enable` and code for `cpu` (NULL:
/// the host; see rockCpuHasBf16Dot) may use AVX512-BF16, adds `dot` to the
/// `features` of every rock.attention and rock.gridwise_attention. Fails,
/// writing a message into `err` (errSize bytes, caller-owned), when an op
/// already asks for `dot` and that CPU cannot execute it; the module is then
/// left unchanged.
bool rockHostFeaturesApply(MlirModule module, bool enable, const char *cpu,
                           char *err, size_t errSize);

/// Asks Linux, once per process, for the AMX tile data state
/// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)), which a process
/// must hold before its first tile instruction; returns whether it was
/// granted (later calls return the first answer).
bool rockAmxPermit(void);

/// True when code generated for `cpu` (NULL: the host) may use AMX-BF16 and
/// AMX-INT8 tiles: the features, and on a host that has AMX the permission
/// (rockAmxPermit, requested here). A named AMX CPU on a host without AMX
/// gives true: the code is generated (and faults if run).
bool rockCpuHasAmx(const char *cpu);

/// True when code generated for `cpu` may use AVX512-VNNI (vpdpbusd; the
/// peak probe's i8 ceiling).
bool rockCpuHasVnni(const char *cpu);

/// Sets the module's unit attributes `rock.amx` and `rock.vnni` (module
/// borrowed) when `enable` and code for `cpu` may use AMX tiles,
/// respectively AVX512-VNNI (rock-lower-gridwise-attention then uses them:
/// see docs/cpu.md). Fails, writing into `err` (errSize bytes,
/// caller-owned), when the module already has one and the CPU lacks it.
bool rockCpuMatrixApply(MlirModule module, bool enable, const char *cpu,
                        char *err, size_t errSize);

/// The width in bits of the widest vector registers code for `cpu` (NULL:
/// the host; else an LLVM CPU name, borrowed) may use: 512 with AVX-512F,
/// else 256.
int rockCpuVectorBits(const char *cpu);

/// Sets the module attribute `rock.vector_bits` (i64) of `module`
/// (borrowed) to rockCpuVectorBits(cpu), unless the module already has one;
/// rock-lower-gridwise-attention blocks its CPU loops for that many bits.
/// Returns the value the module ends up with.
int64_t rockCpuVectorBitsApply(MlirModule module, const char *cpu);

#ifdef __cplusplus
}
#endif

#endif
