/*===- verify_views.c - rock.view_load / view_store / view_prefetch --------===*
 *
 * One index per source dim; the scalar or rank-1 vector element type is the
 * view's; a vector access on a paged view (a chain ending in rock.deref)
 * needs pages whose size is a multiple of min(vectorLength, 128 / elemBits)
 * (docs/semantics.md §6's paging rule: no 128-bit piece straddles a page).
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define LL(x) ((long long)(x))

/* Checks `valueType` (result of a load, value of a store) against the view
 * `view` accessed with `nIdx` indices. `what` names the value. */
static MlirLogicalResult verifyAccess(MlirOperation op, MlirValue view,
                                      intptr_t nIdx, MlirType valueType,
                                      const char *what) {
  RockShape s;
  char b1[128];
  if (!rock__verifyShapeOf(mlirValueGetType(view), &s))
    return rock__verifyFail(op, "view must be a ranked memref");
  if (nIdx != s.rank)
    return rock__verifyFail(
        op, "%ld indices given for a rank-%ld view (must be %ld)", (long)nIdx,
        (long)s.rank, (long)s.rank);
  MlirType elt = valueType;
  int64_t vecLen = 0;
  if (mlirTypeIsAVector(valueType)) {
    intptr_t vr = mlirShapedTypeGetRank(valueType);
    if (vr != 1)
      return rock__verifyFail(op, "%s vector must be rank 1 (got rank %ld)",
                              what, (long)vr);
    if (mlirShapedTypeIsDynamicDim(valueType, 0) ||
        mlirVectorTypeIsScalable(valueType))
      return rock__verifyFail(op, "%s vector must have a fixed length", what);
    vecLen = mlirShapedTypeGetDimSize(valueType, 0);
    elt = mlirShapedTypeGetElementType(valueType);
  }
  if (mlirLogicalResultIsFailure(
          rock__verifySameElt(op, what, elt, "the view", s.elt)))
    return mlirLogicalResultFailure();
  if (vecLen > 1) {
    MlirOperation deref = rock__verifyDerefUnder(view);
    unsigned bits = rock__verifyEltBits(elt);
    /* The paging rule of docs/semantics.md §6 for the 128-bit pieces of the
     * vector; rock-lower-views splits wider vectors at 128-bit granules. */
    int64_t granule = bits && bits <= 128 ? (int64_t)(128 / bits) : 1;
    int64_t need = vecLen < granule ? vecLen : granule;
    if (!mlirOperationIsNull(deref)) {
      RockShape d;
      MlirType dt = mlirValueGetType(mlirOperationGetResult(deref, 0));
      if (rock__verifyShapeOf(dt, &d) && d.rank > 0) {
        int64_t page = d.dims[d.rank - 1];
        if (page != ROCK_DYN && page > 0 && page % need != 0)
          return rock__verifyFail(
              op,
              "page size (%lld) of the rock.deref this view reads must be a "
              "multiple of %lld for a vector of %lld x %s",
              LL(page), LL(need), LL(vecLen),
              rock__typeToBuf(elt, b1, sizeof b1));
      }
    }
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rockViewLoadOpVerify(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  return verifyAccess(op, mlirOperationGetOperand(op, 0), n - 1, rt, "result");
}

MlirLogicalResult rockViewStoreOpVerify(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  return verifyAccess(op, mlirOperationGetOperand(op, 1), n - 2, vt, "value");
}

MlirLogicalResult rockViewPrefetchOpVerify(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue view = mlirOperationGetOperand(op, 0);
  RockShape s;
  if (!rock__verifyShapeOf(mlirValueGetType(view), &s))
    return rock__verifyFail(op, "view must be a ranked memref");
  MlirLogicalResult r = verifyAccess(op, view, n - 1, s.elt, "prefetched");
  if (mlirLogicalResultIsFailure(r))
    return r;
  MlirAttribute loc = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("locality"));
  int64_t l = mlirAttributeIsNull(loc) ? 2 : mlirIntegerAttrGetValueInt(loc);
  if (l < 0 || l > 3)
    return rock__verifyFail(op, "locality must be in [0, 3] (got %lld)", LL(l));
  MlirAttribute ln = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("lines"));
  int64_t lines = mlirAttributeIsNull(ln) ? 1 : mlirIntegerAttrGetValueInt(ln);
  if (lines < 1 || lines > ROCK_PREFETCH_MAX_LINES)
    return rock__verifyFail(op, "lines must be in [1, %d] (got %lld)",
                            ROCK_PREFETCH_MAX_LINES, LL(lines));
  return mlirLogicalResultSuccess();
}
