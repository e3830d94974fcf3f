/*===- chain.c - rock-lower-views: view chains, index analysis ------------===*/
#include "views/views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===
 * View chains
 *===----------------------------------------------------------------------===*/

/* Follows rock.transform ops from `v` down; stores their maps (upper to
 * lower) and the first value not defined by a rock.transform in `end`. */
static bool walkTransforms(MlirExternalPass pass, MlirOperation user,
                           MlirValue v, MlirAttribute *maps, int *n,
                           MlirValue *end) {
  *n = 0;
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!rock__isOp(def, "rock.transform"))
      break;
    if (*n == MAX_CHAIN) {
      rock__passFail(pass, user, "view chain is longer than %d transforms",
                     MAX_CHAIN);
      return false;
    }
    /* run() has verified every rock.transform (verifyTransforms). */
    maps[(*n)++] = rock__attr(def, "transform");
    v = mlirOperationGetOperand(def, 0);
  }
  *end = v;
  return true;
}

/* True when `v` may end a chain: a ranked memref not produced by a rock op
 * (a block argument, an allocation, a subview...). */
static bool isPlainMemref(MlirValue v) {
  if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
    return false;
  if (!mlirValueIsAOpResult(v))
    return true;
  MlirStringRef name =
      mlirIdentifierStr(mlirOperationGetName(mlirOpResultGetOwner(v)));
  return !(name.length > 5 && memcmp(name.data, "rock.", 5) == 0);
}

bool rock__lvResolveChain(MlirExternalPass pass, MlirOperation user,
                          MlirValue src, Chain *ch) {
  memset(ch, 0, sizeof(*ch));
  MlirValue end;
  if (!walkTransforms(pass, user, src, ch->maps, &ch->nMaps, &end))
    return false;
  if (mlirValueIsAOpResult(end) &&
      rock__isOp(mlirOpResultGetOwner(end), "rock.deref")) {
    MlirOperation deref = mlirOpResultGetOwner(end);
    MlirValue ptrs = mlirOperationGetOperand(deref, 0);
    MlirType pt = mlirValueGetType(ptrs), rt = mlirValueGetType(end);
    if (!mlirTypeIsAMemRef(pt) || !mlirTypeIsAMemRef(rt)) {
      rock__passFail(pass, deref, "rock.deref needs ranked memrefs");
      return false;
    }
    MlirType pe = mlirShapedTypeGetElementType(pt);
    if (!mlirTypeIsAInteger(pe) || mlirIntegerTypeGetWidth(pe) != 64) {
      RockStr s = {0};
      rock__strAppendType(&s, pe);
      rock__passFail(pass, deref, "rock.deref pointers must be i64, got %s",
                     s.data);
      rock__strFree(&s);
      return false;
    }
    intptr_t pr = mlirShapedTypeGetRank(pt), rr = mlirShapedTypeGetRank(rt);
    bool shapeOk = rr >= 1 && mlirShapedTypeHasStaticShape(rt) &&
                   (pr == rr || pr == rr - 1);
    for (intptr_t i = 0; shapeOk && i < rr - 1; ++i)
      shapeOk =
          mlirShapedTypeGetDimSize(pt, i) == mlirShapedTypeGetDimSize(rt, i);
    if (shapeOk && pr == rr)
      shapeOk = mlirShapedTypeGetDimSize(pt, pr - 1) == 1;
    if (!shapeOk) {
      rock__passFail(pass, deref,
                     "rock.deref pointer shape must be the result shape with "
                     "the page dim replaced by 1 or dropped");
      return false;
    }
    ch->paged = true;
    ch->pageType = rt;
    if (!walkTransforms(pass, user, ptrs, ch->ptrMaps, &ch->nPtrMaps, &end))
      return false;
    if (!isPlainMemref(end)) {
      rock__passFail(pass, deref,
                     "page table chain of rock.deref must end in a ranked "
                     "memref");
      return false;
    }
  } else if (!isPlainMemref(end)) {
    rock__passFail(pass, user,
                   "view chain must end in a ranked memref or rock.deref");
    return false;
  }
  ch->base = end;
  return true;
}

/*===----------------------------------------------------------------------===
 * Index alignment of the incoming coordinates
 *===----------------------------------------------------------------------===*/

/* Returns what is known about index value `v`: a constant, or a divisor of
 * it (from constants, addi/subi/muli, and scf.for / scf.parallel induction
 * variables with aligned bounds and steps). */
Val rock__lvAnalyzeIndex(MlirValue v, int depth) {
  Val r;
  memset(&r, 0, sizeof(r));
  r.align = 1;
  if (depth > 8)
    return r;
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (rock__isOp(def, "arith.constant")) {
      MlirAttribute a = rock__attr(def, "value");
      if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
        return rock__lvCst(mlirIntegerAttrGetValueInt(a));
      return r;
    }
    bool isAdd = rock__isOp(def, "arith.addi") || rock__isOp(def, "arith.subi");
    bool isMul = rock__isOp(def, "arith.muli");
    if (isAdd || isMul) {
      Val a = rock__lvAnalyzeIndex(mlirOperationGetOperand(def, 0), depth + 1);
      Val b = rock__lvAnalyzeIndex(mlirOperationGetOperand(def, 1), depth + 1);
      if (isMul) {
        if (a.isCst && b.isCst)
          return rock__lvCst(a.cst * b.cst);
        int64_t m;
        if (!__builtin_mul_overflow(a.align, b.align, &m))
          r.align = m;
        return r;
      }
      r.align = rock__lvGcd(a.align, b.align);
      return r;
    }
    return r;
  }
  MlirBlock blk = mlirBlockArgumentGetOwner(v);
  MlirOperation parent = mlirBlockGetParentOperation(blk);
  if (mlirOperationIsNull(parent))
    return r;
  intptr_t arg = mlirBlockArgumentGetArgNumber(v);
  intptr_t lb = -1, step = -1;
  if (rock__isOp(parent, "scf.for") && arg == 0) {
    lb = 0;
    step = 2;
  } else if (rock__isOp(parent, "scf.parallel")) {
    intptr_t n = mlirBlockGetNumArguments(blk);
    if (arg < n && mlirOperationGetNumOperands(parent) >= 3 * n) {
      lb = arg;
      step = 2 * n + arg;
    }
  }
  if (lb >= 0) {
    Val a =
        rock__lvAnalyzeIndex(mlirOperationGetOperand(parent, lb), depth + 1);
    Val b =
        rock__lvAnalyzeIndex(mlirOperationGetOperand(parent, step), depth + 1);
    r.align = rock__lvGcd(a.align, b.align);
    if (r.align == 0)
      r.align = 1;
  }
  return r;
}
