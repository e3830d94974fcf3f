//===- TransformMap.h - building #rock.transform_map from C -------*- C -*-===//
//
// Convenience builders over rock-c/Dialect.h that take plain C arrays
// (rockTransformMapDeriveAffineMap, which they use, is in Rock/RockAttrsC.h).
// Returned attributes and maps are owned by the context (borrowed handles).
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_TRANSFORMMAP_H
#define ROCK_C_TRANSFORMMAP_H

#include "mlir-c/AffineMap.h"
#include "rock-c/Dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the #rock.transform of `kind` built from plain arrays: `params`
/// (nParams), upper names/dims (nUpper each) and lower names/dims (nLower
/// each). Names are NUL-terminated and copied. Performs no checks.
MLIR_CAPI_EXPORTED MlirAttribute rockTransformAttrCreate(
    MlirContext ctx, RockTransformKind kind, intptr_t nParams,
    const int64_t *params, intptr_t nUpper, const char *const *upperNames,
    const int64_t *upperDims, intptr_t nLower, const char *const *lowerNames,
    const int64_t *lowerDims);

/// Returns the #rock.transform_map with transforms `ops` (nOps borrowed
/// #rock.transform handles) and the given bounds, its affine map derived with
/// rockTransformMapDeriveAffineMap. Bounds are copied. Performs no checks.
MLIR_CAPI_EXPORTED MlirAttribute rockTransformMapAttrCreate(
    MlirContext ctx, intptr_t nOps, const MlirAttribute *ops, intptr_t nUpper,
    const int64_t *upperBounds, intptr_t nLower, const int64_t *lowerBounds);

#ifdef __cplusplus
}
#endif

#endif
