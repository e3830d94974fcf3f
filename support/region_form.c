/*===- region_form.c - the two forms of the pre-softmax region ------------===*/
#include "region_form.h"
#include "ir.h"
#include "str.h"

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return false;
}

static const char *opName(MlirOperation op, char *buf, size_t n) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, n, "%.*s", (int)s.length, s.data);
  return buf;
}

/* The index of `v` among the arguments of `blk`, or -1. */
static intptr_t argIndex(MlirBlock blk, MlirValue v) {
  if (!mlirValueIsABlockArgument(v) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(v), blk))
    return -1;
  return mlirBlockArgumentGetArgNumber(v);
}

/* rocMLIR's rule: the block ends in rock.yield (`term` may be null). */
static bool yieldTerminated(MlirOperation term, char *err, size_t n) {
  char name[64];
  if (rock__isOp(term, "rock.yield"))
    return true;
  return fail(err, n,
              "pre-second-GEMM body must be terminated by a rock.yield "
              "(preSoftmaxBody ends in %s)",
              mlirOperationIsNull(term) ? "nothing"
                                        : opName(term, name, sizeof name));
}

static bool scalarForm(MlirBlock blk, intptr_t nInputs, RockRegionForm *f,
                       char *err, size_t n) {
  intptr_t nArgs = mlirBlockGetNumArguments(blk);
  if (nArgs == 0)
    return fail(err, n,
                "pre-second-GEMM body must have at least one block argument "
                "(preSoftmaxBody takes the score and %ld elementwise inputs)",
                (long)nInputs);
  if (nArgs != nInputs + 1)
    return fail(err, n,
                "preSoftmaxBody has %ld block arguments but must have %ld "
                "(1 + %ld elementwise inputs), or %ld memrefs in rocMLIR's "
                "linalg form",
                (long)nArgs, (long)(nInputs + 1), (long)nInputs,
                (long)(nInputs + 2));
  MlirOperation term = rock__blockLastOp(blk);
  if (!yieldTerminated(term, err, n))
    return false;
  intptr_t nYield = mlirOperationGetNumOperands(term);
  if (nYield != 1)
    return fail(err, n,
                "pre-second-GEMM body must yield exactly one value "
                "(preSoftmaxBody's rock.yield yields %ld; only rocMLIR's "
                "linalg form, on memrefs, yields none)",
                (long)nYield);
  f->body = blk;
  f->yield = term;
  f->nArgs = nArgs;
  for (intptr_t i = 0; i < nArgs; ++i) {
    f->slot[i] = i;
    f->argType[i] = mlirValueGetType(mlirBlockGetArgument(blk, i));
  }
  f->yieldType = mlirValueGetType(mlirOperationGetOperand(term, 0));
  return true;
}

/* Identity indexing maps and parallel iterators only: the score of element
 * (b, i, j) reads element (b, i, j) of every input. */
static bool genericMaps(MlirOperation g, char *err, size_t n) {
  MlirAttribute maps = rock__attr(g, "indexing_maps");
  MlirAttribute its = rock__attr(g, "iterator_types");
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirAttributeIsNull(its) || !mlirAttributeIsAArray(its))
    return fail(err, n, "preSoftmaxBody linalg.generic lacks its maps");
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(maps); ++i) {
    MlirAttribute m = mlirArrayAttrGetElement(maps, i);
    if (!mlirAttributeIsAAffineMap(m) ||
        !mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(m)))
      return fail(err, n,
                  "preSoftmaxBody linalg.generic indexing map %ld must be the "
                  "identity (rock reads element (b, i, j) of every input)",
                  (long)i);
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(its); ++i) {
    RockStr s = {0};
    rock__strAppendAttr(&s, mlirArrayAttrGetElement(its, i));
    bool par = s.data && strstr(s.data, "parallel");
    rock__strFree(&s);
    if (!par)
      return fail(err, n,
                  "preSoftmaxBody linalg.generic iterator %ld must be parallel",
                  (long)i);
  }
  return true;
}

/* The linalg.generic's body: values for its inputs, the output element
 * unused, linalg.yield of one value. */
static bool genericBody(MlirOperation g, MlirBlock blk, intptr_t nIns,
                        RockRegionForm *f, char *err, size_t n) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  if (mlirBlockIsNull(body) || mlirBlockGetNumArguments(body) != nIns + 1)
    return fail(err, n,
                "preSoftmaxBody linalg.generic body must take one value per "
                "input and the output element");
  MlirValue outElt = mlirBlockGetArgument(body, nIns);
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(outElt)))
    return fail(err, n,
                "preSoftmaxBody linalg.generic must not read its output "
                "element (the score is computed from the inputs)");
  MlirOperation y = rock__blockLastOp(body);
  if (!rock__isOp(y, "linalg.yield") || mlirOperationGetNumOperands(y) != 1)
    return fail(err, n,
                "preSoftmaxBody linalg.generic must end in linalg.yield of "
                "one value");
  f->body = body;
  f->yield = y;
  f->nArgs = nIns;
  for (intptr_t i = 0; i < nIns; ++i)
    f->slot[i] = argIndex(blk, mlirOperationGetOperand(g, i));
  f->yieldType = mlirValueGetType(mlirOperationGetOperand(y, 0));
  return true;
}

/* The generic's output: the region's last argument, or an alloc that a
 * memref.copy then writes to it. */
static bool genericOut(MlirBlock blk, MlirValue out, MlirOperation copy,
                       char *err, size_t n) {
  intptr_t last = mlirBlockGetNumArguments(blk) - 1;
  if (argIndex(blk, out) == last)
    return true;
  if (!mlirValueIsAOpResult(out) ||
      !rock__isOp(mlirOpResultGetOwner(out), "memref.alloc") ||
      mlirOperationIsNull(copy) ||
      !mlirValueEqual(mlirOperationGetOperand(copy, 0), out) ||
      argIndex(blk, mlirOperationGetOperand(copy, 1)) != last)
    return fail(err, n,
                "preSoftmaxBody linalg.generic must write the region's last "
                "argument, directly or through a memref.alloc copied into it");
  return true;
}

static bool linalgForm(MlirBlock blk, intptr_t nInputs, RockRegionForm *f,
                       char *err, size_t n) {
  intptr_t nArgs = mlirBlockGetNumArguments(blk);
  MlirOperation term = rock__blockLastOp(blk);
  if (!yieldTerminated(term, err, n))
    return false;
  if (mlirOperationGetNumOperands(term))
    return fail(err, n,
                "preSoftmaxBody in the linalg form must end in rock.yield "
                "without operands");
  MlirOperation g = {NULL}, copy = {NULL};
  char name[64];
  for (MlirOperation o = mlirBlockGetFirstOperation(blk);
       !mlirOperationEqual(o, term); o = mlirOperationGetNextInBlock(o)) {
    if (rock__isOp(o, "memref.alloc"))
      continue;
    if (rock__isOp(o, "linalg.generic") && mlirOperationIsNull(g)) {
      g = o;
      continue;
    }
    if (rock__isOp(o, "memref.copy") && mlirOperationIsNull(copy)) {
      copy = o;
      continue;
    }
    return fail(err, n,
                "preSoftmaxBody in the linalg form takes memref.alloc, one "
                "linalg.generic and one memref.copy (got %s)",
                opName(o, name, sizeof name));
  }
  if (mlirOperationIsNull(g))
    return fail(err, n,
                "preSoftmaxBody in the linalg form needs a "
                "linalg.generic");
  MlirAttribute seg = rock__attr(g, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 2 ||
      mlirDenseI32ArrayGetElement(seg, 1) != 1)
    return fail(err, n, "preSoftmaxBody linalg.generic must have one output");
  intptr_t nIns = mlirDenseI32ArrayGetElement(seg, 0);
  if (nIns > ROCK_REGION_MAX_ARGS - 1)
    return fail(err, n, "preSoftmaxBody linalg.generic has too many inputs");
  for (intptr_t i = 0; i < nIns; ++i) {
    intptr_t a = argIndex(blk, mlirOperationGetOperand(g, i));
    if (a < 0 || a == nArgs - 1)
      return fail(err, n,
                  "preSoftmaxBody linalg.generic input %ld must be one of the "
                  "region's first %ld arguments (the score and the "
                  "elementwise inputs)",
                  (long)i, (long)(nInputs + 1));
  }
  if (!genericOut(blk, mlirOperationGetOperand(g, nIns), copy, err, n) ||
      !genericMaps(g, err, n) || !genericBody(g, blk, nIns, f, err, n))
    return false;
  f->linalg = true;
  f->generic = g;
  for (intptr_t j = 0; j <= nInputs; ++j)
    f->argType[j] = mlirShapedTypeGetElementType(
        mlirValueGetType(mlirBlockGetArgument(blk, j)));
  return true;
}

static bool allMemrefs(MlirBlock blk) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(blk); ++i)
    if (!mlirTypeIsAMemRef(mlirValueGetType(mlirBlockGetArgument(blk, i))))
      return false;
  return true;
}

bool rock__regionForm(MlirBlock blk, intptr_t nInputs, RockRegionForm *f,
                      char *err, size_t errSize) {
  memset(f, 0, sizeof *f);
  if (nInputs + 2 > ROCK_REGION_MAX_ARGS)
    return fail(err, errSize,
                "preSoftmaxBody: at most %d elementwise inputs are supported",
                ROCK_REGION_MAX_ARGS - 2);
  if (mlirBlockGetNumArguments(blk) == nInputs + 2 && allMemrefs(blk))
    return linalgForm(blk, nInputs, f, err, errSize);
  return scalarForm(blk, nInputs, f, err, errSize);
}
