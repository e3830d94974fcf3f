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

/// True when this CPU executes AVX512-BF16 (vdpbf16ps).
bool rockHostHasBf16Dot(void);

/// Walks `module` (borrowed) and, when `enable` and the host has
/// AVX512-BF16, adds `dot` to the `features` of every rock.attention and
/// rock.gridwise_attention. Fails, writing a message into `err` (errSize
/// bytes, caller-owned), when an op already asks for `dot` and the host
/// cannot execute it; the module is then left unchanged.
bool rockHostFeaturesApply(MlirModule module, bool enable, char *err,
                           size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
