/*===- transform_derive.c - the affine map a transform list computes ------===*/
#include "Rock/RockAttrsC.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/BuiltinAttributes.h"

#include <stdlib.h>
#include <string.h>

static int64_t at(MlirAttribute a, intptr_t i) {
  return mlirDenseI64ArrayGetElement(a, i);
}

MlirAffineMap rockTransformMapDeriveAffineMap(MlirContext ctx,
                                              MlirAttribute ops,
                                              intptr_t nUpper,
                                              intptr_t nLower) {
  MlirAffineMap null = {NULL};
  if (!mlirAttributeIsAArray(ops))
    return null;
  MlirAffineExpr *res = calloc((size_t)(nLower ? nLower : 1), sizeof *res);
  MlirAffineExpr zero = mlirAffineConstantExprGet(ctx, 0);
  for (intptr_t i = 0; i < nLower; ++i)
    res[i] = zero;
  intptr_t nOps = mlirArrayAttrGetNumElements(ops);
  for (intptr_t o = 0; o < nOps; ++o) {
    MlirAttribute t = mlirArrayAttrGetElement(ops, o);
    if (!rockAttributeIsATransform(t))
      continue;
    MlirAttribute p = rockTransformAttrGetParams(t);
    MlirAttribute ud = rockTransformAttrGetUpperDims(t);
    MlirAttribute ld = rockTransformAttrGetLowerDims(t);
    intptr_t np = mlirDenseArrayGetNumElements(p);
    intptr_t nu = mlirDenseArrayGetNumElements(ud);
    intptr_t nl = mlirDenseArrayGetNumElements(ld);
#define UP(k)                                                                  \
  (at(ud, k) >= 0 && at(ud, k) < nUpper ? mlirAffineDimExprGet(ctx, at(ud, k)) \
                                        : zero)
#define SET(k, e)                                                              \
  do {                                                                         \
    if ((k) < nl && at(ld, k) >= 0 && at(ld, k) < nLower)                      \
      res[at(ld, k)] = (e);                                                    \
  } while (0)
#define CST(v) mlirAffineConstantExprGet(ctx, (v))
    switch (rockTransformAttrGetKind(t)) {
    case ROCK_TRANSFORM_PASS_THROUGH:
      for (intptr_t k = 0; k < nu; ++k)
        SET(k, UP(k));
      break;
    case ROCK_TRANSFORM_PAD:
      for (intptr_t k = 0; k < nu && 2 * k < np; ++k)
        SET(k, mlirAffineAddExprGet(UP(k), CST(-at(p, 2 * k))));
      break;
    case ROCK_TRANSFORM_SLICE:
      for (intptr_t k = 0; k < nu && 2 * k < np; ++k)
        SET(k, mlirAffineAddExprGet(UP(k), CST(at(p, 2 * k))));
      break;
    case ROCK_TRANSFORM_EMBED: {
      MlirAffineExpr e = zero;
      for (intptr_t k = 0; k < nu && k < np; ++k)
        e = mlirAffineAddExprGet(e, mlirAffineMulExprGet(UP(k), CST(at(p, k))));
      SET(0, e);
      break;
    }
    case ROCK_TRANSFORM_UNMERGE: {
      MlirAffineExpr e = zero;
      for (intptr_t k = 0; k < nu && k < np; ++k)
        e = mlirAffineAddExprGet(mlirAffineMulExprGet(e, CST(at(p, k))), UP(k));
      SET(0, e);
      break;
    }
    case ROCK_TRANSFORM_MERGE: {
      int64_t stride = 1;
      for (intptr_t k = nl - 1; k >= 0; --k) {
        MlirAffineExpr e = UP(0);
        if (stride != 1)
          e = mlirAffineFloorDivExprGet(e, CST(stride));
        if (k > 0 && k < np)
          e = mlirAffineModExprGet(e, CST(at(p, k)));
        SET(k, e);
        if (k < np)
          stride *= at(p, k);
      }
      break;
    }
    case ROCK_TRANSFORM_ADD_DIM:
      break;
    case ROCK_TRANSFORM_BROADCAST:
      for (intptr_t k = 0; k < nu && k < np; ++k)
        SET(k,
            at(p, k) == 1 ? zero : mlirAffineModExprGet(UP(k), CST(at(p, k))));
      break;
    case ROCK_TRANSFORM_CONST_DIM:
      for (intptr_t k = 0; k < nl && 2 * k < np; ++k)
        SET(k, CST(at(p, 2 * k)));
      break;
    }
#undef UP
#undef SET
#undef CST
  }
  MlirAffineMap m = mlirAffineMapGet(ctx, nUpper, 0, nLower, res);
  free(res);
  return m;
}
