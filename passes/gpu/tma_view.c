/*===- tma_view.c - dense views a tensor map can describe -----------------===*
 *
 * tma_view.h says what. The proof evaluates the chain's affine maps (the
 * transform_map's own, upper to lower) at the origin and at the three unit
 * points of the view: with no Pad (whose out-of-range coordinates read a
 * pad value, not memory) and no floordiv, ceildiv or mod anywhere (so every
 * map is linear, Merge and Broadcast excluded), the offset of (g, n, d) is
 * exactly the origin's plus the unit points' differences times g, n, d.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/tma_view.h"
#include "rock-c/Dialect.h"
#include "support/ir.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <string.h>

enum { MAX_MAPS = 64, MAX_RANK = 16 };

/* The value of `e` at dims `p` (rank n); false for a division, a
 * remainder, a symbol or a dim out of range. */
static bool evalExpr(MlirAffineExpr e, const int64_t *p, intptr_t n,
                     int64_t *out) {
  if (mlirAffineExprIsAConstant(e)) {
    *out = mlirAffineConstantExprGetValue(e);
    return true;
  }
  if (mlirAffineExprIsADim(e)) {
    intptr_t d = mlirAffineDimExprGetPosition(e);
    if (d < 0 || d >= n)
      return false;
    *out = p[d];
    return true;
  }
  if (!mlirAffineExprIsAAdd(e) && !mlirAffineExprIsAMul(e))
    return false;
  int64_t l, r;
  if (!evalExpr(mlirAffineBinaryOpExprGetLHS(e), p, n, &l) ||
      !evalExpr(mlirAffineBinaryOpExprGetRHS(e), p, n, &r))
    return false;
  *out = mlirAffineExprIsAAdd(e) ? l + r : l * r;
  return true;
}

/* Pushes point p (rank *n) through transform map `tm`; false when the map
 * has a Pad or a non-linear result. */
static bool applyMap(MlirAttribute tm, int64_t *p, intptr_t *n) {
  MlirAttribute ops = rockTransformMapAttrGetOps(tm);
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(ops); ++i)
    if (rockTransformAttrGetKind(mlirArrayAttrGetElement(ops, i)) ==
        ROCK_TRANSFORM_PAD)
      return false;
  MlirAttribute ma = rockTransformMapAttrGetMap(tm);
  if (mlirAttributeIsNull(ma) || !mlirAttributeIsAAffineMap(ma))
    return false;
  MlirAffineMap m = mlirAffineMapAttrGetValue(ma);
  intptr_t nr = mlirAffineMapGetNumResults(m);
  if (mlirAffineMapGetNumDims(m) != *n || nr > MAX_RANK ||
      mlirAffineMapGetNumSymbols(m) != 0)
    return false;
  int64_t low[MAX_RANK];
  for (intptr_t r = 0; r < nr; ++r)
    if (!evalExpr(mlirAffineMapGetResult(m, r), p, *n, &low[r]))
      return false;
  memcpy(p, low, (size_t)nr * sizeof *p);
  *n = nr;
  return true;
}

/* The element offset of view point p through the chain `maps` (upper
 * first) into memref type `t` (row-major). */
static bool offsetOf(const MlirAttribute *maps, int nMaps, MlirType t,
                     const int64_t *p0, int64_t *off) {
  int64_t p[MAX_RANK];
  intptr_t n = 3;
  memcpy(p, p0, 3 * sizeof *p);
  for (int m = 0; m < nMaps; ++m)
    if (!applyMap(maps[m], p, &n))
      return false;
  if (n != mlirShapedTypeGetRank(t))
    return false;
  *off = 0;
  for (intptr_t d = 0; d < n; ++d)
    *off = *off * mlirShapedTypeGetDimSize(t, d) + p[d];
  return true;
}

int rock__gpuTmaArgOf(MlirValue v) {
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!rock__isOp(def, "rock.transform"))
      return -1;
    v = mlirOperationGetOperand(def, 0);
  }
  MlirBlock owner = mlirBlockArgumentGetOwner(v);
  MlirOperation fn = mlirBlockGetParentOperation(owner);
  if (!rock__isOp(fn, "func.func") ||
      !mlirBlockEqual(owner,
                      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
    return -1;
  return (int)mlirBlockArgumentGetArgNumber(v);
}

bool rock__gpuTmaView(MlirValue view, RockTmaView *tv) {
  memset(tv, 0, sizeof *tv);
  MlirType vt = mlirValueGetType(view);
  if (!mlirTypeIsAMemRef(vt) || mlirShapedTypeGetRank(vt) != 3 ||
      !mlirShapedTypeHasStaticShape(vt))
    return false;
  MlirAttribute maps[MAX_MAPS];
  int nMaps = 0;
  MlirValue v = view;
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!rock__isOp(def, "rock.transform") || nMaps == MAX_MAPS)
      return false;
    maps[nMaps] = rock__attr(def, "transform");
    if (mlirAttributeIsNull(maps[nMaps++]))
      return false;
    v = mlirOperationGetOperand(def, 0);
  }
  MlirBlock owner = mlirBlockArgumentGetOwner(v);
  MlirOperation fn = mlirBlockGetParentOperation(owner);
  MlirType bt = mlirValueGetType(v);
  if (!rock__isOp(fn, "func.func") ||
      !mlirBlockEqual(owner,
                      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))) ||
      !mlirTypeIsAMemRef(bt) || !mlirShapedTypeHasStaticShape(bt) ||
      !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(bt)))
    return false;
  const int64_t pts[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  int64_t off[4];
  for (int i = 0; i < 4; ++i)
    if (!offsetOf(maps, nMaps, bt, pts[i], &off[i]))
      return false;
  tv->arg = (int)mlirBlockArgumentGetArgNumber(v);
  tv->offset = off[0];
  for (int d = 0; d < 3; ++d) {
    tv->stride[d] = off[d + 1] - off[0];
    tv->dims[d] = mlirShapedTypeGetDimSize(vt, d);
  }
  MlirType et = mlirShapedTypeGetElementType(vt);
  tv->eltBytes = mlirTypeIsAInteger(et) ? mlirIntegerTypeGetWidth(et) / 8
                 : mlirTypeIsAF32(et)   ? 4
                                        : 2;
  return tv->offset >= 0;
}

bool rock__gpuTmaMapAttr(const RockTmaView *tv, const int order[3],
                         const int64_t box[3], const char *dtype, char *buf,
                         size_t n) {
  const int64_t e = tv->eltBytes;
  int64_t s1 = tv->stride[order[1]] * e, s2 = tv->stride[order[2]] * e;
  if (tv->stride[order[0]] != 1 || (tv->offset * e) % 16 || s1 <= 0 ||
      s2 <= 0 || s1 % 16 || s2 % 16 || box[0] * e > 128)
    return false;
  for (int i = 0; i < 3; ++i)
    if (box[i] < 1 || box[i] > 256 || tv->dims[order[i]] >= (1LL << 32))
      return false;
  int w = snprintf(
      buf, n,
      "{arg = %d : i64, dtype = \"%s\", offset = %lld : i64, dims = "
      "array<i64: %lld, %lld, %lld>, strides = array<i64: %lld, %lld>, box = "
      "array<i64: %lld, %lld, %lld>, swizzle = 128 : i64%s}",
      tv->arg, dtype, (long long)tv->offset, (long long)tv->dims[order[0]],
      (long long)tv->dims[order[1]], (long long)tv->dims[order[2]],
      (long long)s1, (long long)s2, (long long)box[0], (long long)box[1],
      (long long)box[2], tv->pool ? ", pool = 1 : i64" : "");
  return w > 0 && (size_t)w < n;
}
