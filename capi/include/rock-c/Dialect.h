//===- Dialect.h - the rock dialect's C API ------------------------*- C -*-===//
//
// The rock dialect handle, and creation / inspection of rock attributes
// (#rock.transform, #rock.transform_map, GemmFeatures, StoreMethod).
//
// All attributes are uniqued in, and owned by, their MlirContext: handles
// returned here are borrowed and live as long as the context.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_DIALECT_H
#define ROCK_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The rock dialect handle: mlirGetDialectHandle__rock__(). Use with
/// mlirDialectHandleInsertDialect / mlirDialectHandleLoadDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Rock, rock);

/// Transform kinds; the values are those of rocMLIR's TransformType.
typedef enum RockTransformKind {
  ROCK_TRANSFORM_PASS_THROUGH = 0,
  ROCK_TRANSFORM_PAD = 1,
  ROCK_TRANSFORM_SLICE = 2,
  ROCK_TRANSFORM_EMBED = 3,
  ROCK_TRANSFORM_UNMERGE = 4,
  ROCK_TRANSFORM_MERGE = 5,
  ROCK_TRANSFORM_ADD_DIM = 7,
  ROCK_TRANSFORM_BROADCAST = 8,
  ROCK_TRANSFORM_CONST_DIM = 9,
} RockTransformKind;

//===----------------------------------------------------------------------===//
// #rock.transform
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a #rock.transform.
MLIR_CAPI_EXPORTED bool rockAttributeIsATransform(MlirAttribute attr);

/// Returns the #rock.transform of `kind` with the given parameters
/// (DenseI64ArrayAttr), upper/lower names (ArrayAttr of StringAttr) and
/// upper/lower dims (DenseI64ArrayAttr). Borrows every argument. No checks are
/// made here: the rock.transform verifier checks the invariants.
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGet(
    MlirContext ctx, RockTransformKind kind, MlirAttribute params,
    MlirAttribute upperNames, MlirAttribute upperDims,
    MlirAttribute lowerNames, MlirAttribute lowerDims);

/// Accessors of a #rock.transform; the result is borrowed from the context.
MLIR_CAPI_EXPORTED RockTransformKind rockTransformAttrGetKind(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetParams(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetUpperNames(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetUpperDims(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetLowerNames(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetLowerDims(MlirAttribute t);

/// Returns the name of `kind` ("PassThrough", ...), a static string, or
/// "unknown".
MLIR_CAPI_EXPORTED const char *rockTransformKindGetName(RockTransformKind kind);

//===----------------------------------------------------------------------===//
// #rock.transform_map
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a #rock.transform_map.
MLIR_CAPI_EXPORTED bool rockAttributeIsATransformMap(MlirAttribute attr);

/// Returns the #rock.transform_map with the given affine map (AffineMapAttr),
/// transforms (ArrayAttr of #rock.transform) and bounds (DenseI64ArrayAttr).
/// Borrows every argument; performs no checks.
MLIR_CAPI_EXPORTED MlirAttribute rockTransformMapAttrGet(
    MlirContext ctx, MlirAttribute map, MlirAttribute ops,
    MlirAttribute upperBounds, MlirAttribute lowerBounds);

/// Accessors of a #rock.transform_map; the result is borrowed.
MLIR_CAPI_EXPORTED MlirAttribute rockTransformMapAttrGetMap(MlirAttribute m);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformMapAttrGetOps(MlirAttribute m);
MLIR_CAPI_EXPORTED MlirAttribute
rockTransformMapAttrGetUpperBounds(MlirAttribute m);
MLIR_CAPI_EXPORTED MlirAttribute
rockTransformMapAttrGetLowerBounds(MlirAttribute m);

//===----------------------------------------------------------------------===//
// Enum attributes
//===----------------------------------------------------------------------===//

/// Returns #rock<GemmFeatures ...> for the bit set `bits` (mfma = 1, dot = 2,
/// atomic_add = 4, atomic_fmax_f32 = 8, wmma = 16, ...). Borrowed.
MLIR_CAPI_EXPORTED MlirAttribute rockGemmFeaturesAttrGet(MlirContext ctx,
                                                         uint32_t bits);
/// Returns the bit set of a #rock<GemmFeatures ...> attribute, or -1 if
/// `attr` is not one.
MLIR_CAPI_EXPORTED int64_t rockGemmFeaturesAttrGetValue(MlirAttribute attr);
/// Returns #rock<StoreMethod set|atomic_add|atomic_max> for 0, 1, 2. Borrowed.
MLIR_CAPI_EXPORTED MlirAttribute rockStoreMethodAttrGet(MlirContext ctx,
                                                        uint32_t method);
/// Returns the StoreMethod value of `attr`, or -1 if it is not one.
MLIR_CAPI_EXPORTED int32_t rockStoreMethodAttrGetValue(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif
