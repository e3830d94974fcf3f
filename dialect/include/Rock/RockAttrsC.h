//===- RockAttrsC.h - C accessors of rock's attributes -----------*- C -*-===//
//
// Creation and inspection of #rock.transform, #rock.transform_map,
// GemmFeatures and StoreMethod from C, and the derivation of a transform
// map's affine map. Part of the dialect (its C verifiers use them);
// rock-c/Dialect.h and rock-c/TransformMap.h re-export them as the public C
// API.
//
// All attributes are uniqued in, and owned by, their MlirContext: handles
// returned here are borrowed and live as long as the context.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_ROCKATTRSC_H
#define ROCK_ROCKATTRSC_H

#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    MlirAttribute upperNames, MlirAttribute upperDims, MlirAttribute lowerNames,
    MlirAttribute lowerDims);

/// Accessors of a #rock.transform; the result is borrowed from the context.
MLIR_CAPI_EXPORTED RockTransformKind rockTransformAttrGetKind(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetParams(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute
rockTransformAttrGetUpperNames(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrGetUpperDims(MlirAttribute t);
MLIR_CAPI_EXPORTED MlirAttribute
rockTransformAttrGetLowerNames(MlirAttribute t);
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
MLIR_CAPI_EXPORTED MlirAttribute
rockTransformMapAttrGet(MlirContext ctx, MlirAttribute map, MlirAttribute ops,
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

/// GemmFeatures bits (the values of the ODS enum).
typedef enum RockGemmFeature {
  ROCK_GEMM_FEATURE_MFMA = 1 << 0,
  ROCK_GEMM_FEATURE_DOT = 1 << 1,
  ROCK_GEMM_FEATURE_ATOMIC_ADD = 1 << 2,
  ROCK_GEMM_FEATURE_ATOMIC_FMAX_F32 = 1 << 3,
  ROCK_GEMM_FEATURE_WMMA = 1 << 4,
  ROCK_GEMM_FEATURE_ATOMIC_ADD_F16 = 1 << 5,
  ROCK_GEMM_FEATURE_ATOMIC_ADD_BF16 = 1 << 6,
  ROCK_GEMM_FEATURE_DIRECT_TO_LDS_32B = 1 << 7,
  ROCK_GEMM_FEATURE_DIRECT_TO_LDS_128B = 1 << 8,
} RockGemmFeature;

/// Returns #rock<GemmFeatures ...> for the bit set `bits` (RockGemmFeature
/// values or'ed together). Borrowed.
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

//===----------------------------------------------------------------------===//
// rocMLIR's accelerator tuning parameters
//===----------------------------------------------------------------------===//

/// The fields of one of rocMLIR's accelerator tuning parameter attributes
/// (#rock.xdlops_gemm_derived_params, #rock.xdlops_gemm_params,
/// #rock.mfma_gemm_params, #rock.wmma_gemm_params, #rock.accel_gemm_params).
typedef struct RockAccelParams {
  const char *mnemonic; ///< e.g. "xdlops_gemm_derived_params" (static)
  int64_t kpackPerBlock, mPerBlock, nPerBlock, kpack, mPerWave, nPerWave;
  int64_t mnPerXdl, splitKFactor, scheduleVersion, outputSwizzle, wavesPerEU,
      gridGroupSize;
  bool forceUnroll;
} RockAccelParams;

/// Fills `*p` from `attr` and returns true when it is one of those
/// attributes; false (and `*p` untouched) otherwise. Borrows `attr`.
MLIR_CAPI_EXPORTED bool rockAccelParamsAttrRead(MlirAttribute attr,
                                                RockAccelParams *p);

//===----------------------------------------------------------------------===//
// Deriving a transform map's affine map
//===----------------------------------------------------------------------===//

/// Derives the affine map (nUpper dims -> nLower results) that the
/// transforms in `ops` (an ArrayAttr of #rock.transform) describe, per
/// docs/semantics.md §7. Lower dims no transform writes map to 0; dims out
/// of range are ignored (the verifier reports them). Returns a null map if
/// `ops` is not an ArrayAttr. The map is owned by the context.
MLIR_CAPI_EXPORTED MlirAffineMap rockTransformMapDeriveAffineMap(
    MlirContext ctx, MlirAttribute ops, intptr_t nUpper, intptr_t nLower);

#ifdef __cplusplus
}
#endif

#endif
