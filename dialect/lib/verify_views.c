/*===- verify_views.c - rock.view_load / rock.view_store verifiers --------===*
 *
 * One index per source dim; the scalar or rank-1 vector element type is the
 * view's; a vector access on a paged view (a chain ending in rock.deref) must
 * not straddle a page: pageSize % vectorLength == 0.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinTypes.h"

#define LL(x) ((long long)(x))

/* Checks `valueType` (result of a load, value of a store) against the view
 * `view` accessed with `nIdx` indices. `what` names the value. */
static MlirLogicalResult verifyAccess(MlirOperation op, MlirValue view,
                                      intptr_t nIdx, MlirType valueType,
                                      const char *what) {
  RockShape s;
  char b1[128], b2[128];
  if (!rock__verifyShapeOf(mlirValueGetType(view), &s))
    return rock__verifyFail(op, "view must be a ranked memref");
  if (nIdx != s.rank)
    return rock__verifyFail(op, "%ld indices given for a rank-%ld view (must be %ld)",
                      (long)nIdx, (long)s.rank, (long)s.rank);
  MlirType elt = valueType;
  int64_t vecLen = 0;
  if (mlirTypeIsAVector(valueType)) {
    intptr_t vr = mlirShapedTypeGetRank(valueType);
    if (vr != 1)
      return rock__verifyFail(op, "%s vector must be rank 1 (got rank %ld)", what,
                        (long)vr);
    if (mlirShapedTypeIsDynamicDim(valueType, 0) ||
        mlirVectorTypeIsScalable(valueType))
      return rock__verifyFail(op, "%s vector must have a fixed length", what);
    vecLen = mlirShapedTypeGetDimSize(valueType, 0);
    elt = mlirShapedTypeGetElementType(valueType);
  }
  if (!mlirTypeEqual(elt, s.elt))
    return rock__verifyFail(op,
                      "%s element type (%s) must equal the view element type "
                      "(%s)",
                      what, rock__verifyTypeStr(elt, b1, sizeof b1),
                      rock__verifyTypeStr(s.elt, b2, sizeof b2));
  if (vecLen > 1) {
    MlirOperation deref = rock__verifyDerefUnder(view);
    if (!mlirOperationIsNull(deref)) {
      RockShape d;
      MlirType dt = mlirValueGetType(mlirOperationGetResult(deref, 0));
      if (rock__verifyShapeOf(dt, &d) && d.rank > 0) {
        int64_t page = d.dims[d.rank - 1];
        if (page != ROCK_DYN && page > 0 && page % vecLen != 0)
          return rock__verifyFail(op,
                            "vector length (%lld) must divide the page size "
                            "(%lld) of the rock.deref this view reads",
                            LL(vecLen), LL(page));
      }
    }
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rockViewLoadOpVerify(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  return verifyAccess(op, mlirOperationGetOperand(op, 0), n - 1, rt,
                      "result");
}

MlirLogicalResult rockViewStoreOpVerify(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  return verifyAccess(op, mlirOperationGetOperand(op, 1), n - 2, vt, "value");
}
