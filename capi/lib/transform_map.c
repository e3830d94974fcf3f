/*===- transform_map.c - deriving and building transform maps -------------===*/
#include "rock-c/TransformMap.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/BuiltinAttributes.h"

#include <stdlib.h>
#include <string.h>

static MlirAttribute names(MlirContext ctx, intptr_t n, const char *const *s) {
  MlirAttribute *a = malloc(sizeof(MlirAttribute) * (size_t)(n ? n : 1));
  for (intptr_t i = 0; i < n; ++i)
    a[i] = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(s[i]));
  MlirAttribute r = mlirArrayAttrGet(ctx, n, a);
  free(a);
  return r;
}

MlirAttribute rockTransformAttrCreate(MlirContext ctx, RockTransformKind kind,
                                      intptr_t nParams, const int64_t *params,
                                      intptr_t nUpper,
                                      const char *const *upperNames,
                                      const int64_t *upperDims, intptr_t nLower,
                                      const char *const *lowerNames,
                                      const int64_t *lowerDims) {
  return rockTransformAttrGet(ctx, kind,
                              mlirDenseI64ArrayGet(ctx, nParams, params),
                              names(ctx, nUpper, upperNames),
                              mlirDenseI64ArrayGet(ctx, nUpper, upperDims),
                              names(ctx, nLower, lowerNames),
                              mlirDenseI64ArrayGet(ctx, nLower, lowerDims));
}

MlirAttribute rockTransformMapAttrCreate(
    MlirContext ctx, intptr_t nOps, const MlirAttribute *ops, intptr_t nUpper,
    const int64_t *upperBounds, intptr_t nLower, const int64_t *lowerBounds) {
  MlirAttribute opsAttr = mlirArrayAttrGet(ctx, nOps, ops);
  MlirAffineMap m =
      rockTransformMapDeriveAffineMap(ctx, opsAttr, nUpper, nLower);
  return rockTransformMapAttrGet(
      ctx, mlirAffineMapAttrGet(m), opsAttr,
      mlirDenseI64ArrayGet(ctx, nUpper, upperBounds),
      mlirDenseI64ArrayGet(ctx, nLower, lowerBounds));
}
