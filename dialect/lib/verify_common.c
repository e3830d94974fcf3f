/*===- verify_common.c - helpers shared by the C op verifiers -------------===*/
#include "verify_common.h"
#include "Rock/RockAttrsC.h"
#include "support/region_form.h"

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

/* True when shaped types `a` and `b` have the same rank and dims. */
static bool sameShape(MlirType a, MlirType b) {
  RockShape sa, sb;
  if (!rock__verifyShapeOf(a, &sa) || !rock__verifyShapeOf(b, &sb) ||
      sa.rank != sb.rank)
    return false;
  for (intptr_t i = 0; i < sa.rank; ++i)
    if (sa.dims[i] != sb.dims[i])
      return false;
  return true;
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
    rock__verifyFail(op, "pre-second-GEMM region must contain a single block "
                         "(preSoftmaxBody has more than one)");
    return false;
  }
  RockRegionForm f;
  if (!rock__regionForm(first, nInputs, &f, b1, sizeof b1)) {
    rock__verifyFail(op, "%s", b1);
    return false;
  }
  for (intptr_t i = 0; i < nInputs; ++i) {
    MlirType it = mlirValueGetType(inputs[i]);
    if (!mlirTypeIsAShaped(it))
      continue;
    MlirType elt = mlirShapedTypeGetElementType(it);
    if (!mlirTypeEqual(f.argType[i + 1], elt)) {
      rock__verifyFail(op,
                       "preSoftmaxBody argument %ld type (%s) must equal the "
                       "element type of elementwise input %ld (%s)",
                       (long)(i + 1),
                       rock__typeToBuf(f.argType[i + 1], b1, sizeof b1),
                       (long)i, rock__typeToBuf(elt, b2, sizeof b2));
      return false;
    }
    MlirType at = mlirValueGetType(mlirBlockGetArgument(first, i + 1));
    if (f.linalg && !sameShape(at, it)) {
      rock__verifyFail(op,
                       "preSoftmaxBody argument %ld (%s) must have the shape "
                       "of elementwise input %ld (%s)",
                       (long)(i + 1), rock__typeToBuf(at, b1, sizeof b1),
                       (long)i, rock__typeToBuf(it, b2, sizeof b2));
      return false;
    }
  }
  if (f.linalg) {
    MlirType qk = mlirValueGetType(mlirBlockGetArgument(first, 0));
    MlirType out = mlirValueGetType(mlirBlockGetArgument(first, nInputs + 1));
    if (!sameShape(qk, out)) {
      rock__verifyFail(op,
                       "preSoftmaxBody output argument (%s) must have the "
                       "shape of the score argument (%s)",
                       rock__typeToBuf(out, b1, sizeof b1),
                       rock__typeToBuf(qk, b2, sizeof b2));
      return false;
    }
  }
  if (!mlirTypeIsAFloat(f.yieldType)) {
    rock__verifyFail(op, "preSoftmaxBody must yield a float value (got %s)",
                     rock__typeToBuf(f.yieldType, b1, sizeof b1));
    return false;
  }
  return true;
}
