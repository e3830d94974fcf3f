//===- Dialect.h - the rock dialect's C API -----------------------*- C -*-===//
//
// The rock dialect handle, and creation / inspection of rock attributes
// (#rock.transform, #rock.transform_map, GemmFeatures, StoreMethod), which
// the dialect itself declares in Rock/RockAttrsC.h (its verifiers use them
// too) and which this header re-exports.
//
// All attributes are uniqued in, and owned by, their MlirContext: handles
// returned here are borrowed and live as long as the context.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_DIALECT_H
#define ROCK_C_DIALECT_H

#include "Rock/RockAttrsC.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The rock dialect handle: mlirGetDialectHandle__rock__(). Use with
/// mlirDialectHandleInsertDialect / mlirDialectHandleLoadDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Rock, rock);

#ifdef __cplusplus
}
#endif

#endif
