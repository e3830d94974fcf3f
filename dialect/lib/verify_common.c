/*===- verify_common.c - helpers shared by the C op verifiers -------------===*/
#include "verify_common.h"
#include "Rock/RockAttrsC.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

MlirLogicalResult rock__verifyFail(MlirOperation op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return mlirLogicalResultFailure();
}

const char *rock__storeMethodName(MlirAttribute storeMethod) {
  static const char *const names[3] = {"set", "atomic_add", "atomic_max"};
  int32_t v = rockStoreMethodAttrGetValue(storeMethod);
  return v >= 0 && v < 3 ? names[v] : "?";
}

MlirLogicalResult rock__verifySameElt(MlirOperation op, const char *a,
                                      MlirType ta, const char *b, MlirType tb) {
  if (mlirTypeEqual(ta, tb))
    return mlirLogicalResultSuccess();
  char b1[128], b2[128];
  return rock__verifyFail(op,
                          "%s element type (%s) must equal %s element "
                          "type (%s)",
                          a, rock__typeToBuf(ta, b1, sizeof b1), b,
                          rock__typeToBuf(tb, b2, sizeof b2));
}

const char *rock__verifyShapeStr(const int64_t *dims, intptr_t rank, char *buf,
                                 size_t size) {
  size_t len = 0;
  if (size)
    buf[0] = '\0';
  for (intptr_t i = 0; i < rank && len < size; ++i) {
    int n;
    if (dims[i] == ROCK_DYN)
      n = snprintf(buf + len, size - len, "%s?", i ? "x" : "");
    else
      n = snprintf(buf + len, size - len, "%s%lld", i ? "x" : "",
                   (long long)dims[i]);
    if (n < 0)
      break;
    len += (size_t)n;
  }
  return buf;
}

bool rock__verifyShapeOf(MlirType t, RockShape *s) {
  memset(s, 0, sizeof *s);
  s->type = t;
  if (mlirTypeIsNull(t) || !mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t))
    return false;
  s->elt = mlirShapedTypeGetElementType(t);
  s->rank = mlirShapedTypeGetRank(t);
  if (s->rank > ROCK_MAX_RANK)
    return false;
  for (intptr_t i = 0; i < s->rank; ++i)
    s->dims[i] = mlirShapedTypeIsDynamicDim(t, i)
                     ? ROCK_DYN
                     : mlirShapedTypeGetDimSize(t, i);
  return true;
}

unsigned rock__verifyEltBits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAFloat(t))
    return mlirFloatTypeGetWidth(t);
  return 0;
}

bool rock__verifyIsInt(MlirType t, unsigned width) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == width;
}

bool rock__verifyIsAttnFloat(MlirType t) {
  return mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t);
}

bool rock__verifyIsAttnInput(MlirType t) {
  return rock__verifyIsAttnFloat(t) || rock__verifyIsInt(t, 8);
}

bool rock__verifySegments(MlirOperation op, intptr_t n, intptr_t *start,
                          intptr_t *size) {
  MlirAttribute a = rock__attr(op, "operandSegmentSizes");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI32Array(a) ||
      mlirDenseArrayGetNumElements(a) != n) {
    rock__verifyFail(
        op, "operandSegmentSizes must be an array of %ld i32 values", (long)n);
    return false;
  }
  intptr_t at = 0;
  for (intptr_t i = 0; i < n; ++i) {
    int32_t v = mlirDenseI32ArrayGetElement(a, i);
    if (v < 0) {
      rock__verifyFail(op, "operandSegmentSizes entry %ld is negative (%d)",
                       (long)i, (int)v);
      return false;
    }
    start[i] = at;
    size[i] = v;
    at += v;
  }
  if (at != mlirOperationGetNumOperands(op)) {
    rock__verifyFail(
        op,
        "operandSegmentSizes total (%ld) must equal the operand count "
        "(%ld)",
        (long)at, (long)mlirOperationGetNumOperands(op));
    return false;
  }
  return true;
}

MlirOperation rock__verifyDefiningOpNamed(MlirValue v, const char *name) {
  MlirOperation null = {NULL};
  if (!mlirValueIsAOpResult(v))
    return null;
  MlirOperation def = mlirOpResultGetOwner(v);
  return rock__isOp(def, name) ? def : null;
}

MlirOperation rock__verifyDerefUnder(MlirValue v) {
  MlirOperation null = {NULL};
  /* Bounded walk: a verified chain is acyclic, but stay safe on bad IR. */
  for (int steps = 0; steps < 4096; ++steps) {
    if (!mlirValueIsAOpResult(v))
      return null;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (rock__isOp(def, "rock.deref"))
      return def;
    if (!rock__isOp(def, "rock.transform") ||
        mlirOperationGetNumOperands(def) < 1)
      return null;
    v = mlirOperationGetOperand(def, 0);
  }
  return null;
}

bool rock__verifyPreSoftmaxRegion(MlirOperation op, const MlirValue *inputs,
                                  intptr_t nInputs) {
  char b1[256], b2[256];
  if (mlirOperationGetNumRegions(op) < 1)
    return true;
  MlirRegion r = mlirOperationGetRegion(op, 0);
  MlirBlock first = mlirRegionGetFirstBlock(r);
  if (mlirBlockIsNull(first)) {
    if (nInputs > 0) {
      rock__verifyFail(
          op,
          "%ld elementwise inputs need a preSoftmaxBody region with "
          "%ld block arguments",
          (long)nInputs, (long)(nInputs + 1));
      return false;
    }
    return true;
  }
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(first))) {
    rock__verifyFail(op, "preSoftmaxBody must have exactly one block");
    return false;
  }
  intptr_t nArgs = mlirBlockGetNumArguments(first);
  if (nArgs != nInputs + 1) {
    rock__verifyFail(op,
                     "preSoftmaxBody has %ld block arguments but must have %ld "
                     "(1 + %ld elementwise inputs)",
                     (long)nArgs, (long)(nInputs + 1), (long)nInputs);
    return false;
  }
  for (intptr_t i = 0; i < nInputs; ++i) {
    MlirType at = mlirValueGetType(mlirBlockGetArgument(first, i + 1));
    MlirType it = mlirValueGetType(inputs[i]);
    if (!mlirTypeIsAShaped(it))
      continue;
    MlirType elt = mlirShapedTypeGetElementType(it);
    if (!mlirTypeEqual(at, elt)) {
      rock__verifyFail(op,
                       "preSoftmaxBody argument %ld type (%s) must equal the "
                       "element type of elementwise input %ld (%s)",
                       (long)(i + 1), rock__typeToBuf(at, b1, sizeof b1),
                       (long)i, rock__typeToBuf(elt, b2, sizeof b2));
      return false;
    }
  }
  /* The last op, not mlirBlockGetTerminator: that returns null in some
   * regions of ops without a terminator-holding trait. */
  MlirOperation term = rock__blockLastOp(first);
  if (!rock__isOp(term, "rock.yield")) {
    rock__verifyFail(op, "preSoftmaxBody must end in rock.yield");
    return false;
  }
  intptr_t nYield = mlirOperationGetNumOperands(term);
  if (nYield != 1) {
    rock__verifyFail(op,
                     "preSoftmaxBody rock.yield must yield one value (got %ld)",
                     (long)nYield);
    return false;
  }
  MlirType yt = mlirValueGetType(mlirOperationGetOperand(term, 0));
  if (!mlirTypeIsAFloat(yt)) {
    rock__verifyFail(op, "preSoftmaxBody must yield a float value (got %s)",
                     rock__typeToBuf(yt, b1, sizeof b1));
    return false;
  }
  return true;
}
