/*===- lower_views.c - rock-lower-views -----------------------------------===*
 *
 * Resolves every rock.view_load / rock.view_store / rock.view_prefetch
 * through the rock.transform chain of its view down to a ranked memref
 * (memref.load / memref.store, vector.load / vector.store, memref.prefetch)
 * or to a rock.deref (a load of the i64 page pointer, llvm.inttoptr,
 * llvm.getelementptr, llvm.load / llvm.store / llvm.intr.prefetch), then
 * erases the rock.transform and rock.deref ops left without uses.
 *
 * The code for one access is printed as a func.func and inlined in front of
 * the view op with rock__inlineFuncText. Index math is arith on index; the
 * validity of a coordinate (the AND of every Pad condition along the chain)
 * guards the memory access with scf.if.
 *
 * A vector access (vector<N x elt>) covers upper coordinates (..., in + t),
 * t < N. It is first lowered "wide": every coordinate is tracked as
 * base + k*t together with a known divisor of its base, so that the index
 * math runs once per vector. Wide lowering succeeds when the lanes provably
 * stay inside one Merge / Broadcast digit, share one Pad validity and end up
 * contiguous in the innermost memref dimension (or inside one page of a
 * rock.deref). Otherwise the access is split into N scalar accesses, each
 * with its own index math and validity, joined by vector.from_elements.
 *
 * This file holds the pass and the lowering of one view op; the pieces are
 * in passes/views/ (views.h).
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "rock-c/Passes.h"
#include "views/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum ViewKind { VIEW_LOAD, VIEW_STORE, VIEW_PREFETCH } ViewKind;
static const char *const viewOpNames[] = {"rock.view_load", "rock.view_store",
                                          "rock.view_prefetch"};

static bool lowerViewOp(MlirExternalPass pass, MlirOperation op,
                        ViewKind kind) {
  Access a;
  memset(&a, 0, sizeof(a));
  a.op = op;
  bool isStore = kind == VIEW_STORE;
  a.isStore = isStore;
  a.isPrefetch = kind == VIEW_PREFETCH;
  const char *opName = viewOpNames[kind];
  intptr_t first = isStore ? 2 : 1;
  MlirValue src = mlirOperationGetOperand(op, isStore ? 1 : 0);
  a.nIdx = mlirOperationGetNumOperands(op) - first;
  if (!rock__lvResolveChain(pass, op, src, &a.ch))
    return false;
  MlirType srcTy = mlirValueGetType(src);
  if (!mlirTypeIsAMemRef(srcTy)) {
    rock__passFail(pass, op, "%s needs a ranked view", opName);
    return false;
  }
  intptr_t rank = mlirShapedTypeGetRank(srcTy);
  if (a.nIdx != rank) {
    rock__passFail(pass, op, "%s expects %d indices for a rank-%d view, got %d",
                   opName, (int)rank, (int)rank, (int)a.nIdx);
    return false;
  }
  if (rank > MAX_RANK) {
    rock__passFail(pass, op, "%s view rank exceeds %d", opName, MAX_RANK);
    return false;
  }
  a.elt = mlirShapedTypeGetElementType(srcTy);
  a.valType = isStore        ? mlirValueGetType(mlirOperationGetOperand(op, 0))
              : a.isPrefetch ? a.elt
                             : mlirValueGetType(mlirOperationGetResult(op, 0));
  if (a.isPrefetch) {
    MlirAttribute loc = rock__attr(op, "locality");
    a.locality =
        mlirAttributeIsNull(loc) ? 2 : (int)mlirIntegerAttrGetValueInt(loc);
  }
  a.align = rock__intAttr(op, "rock.align", 0);
  a.n = 1;
  a.step = 1;
  bool typeOk = mlirTypeEqual(a.valType, a.elt);
  if (mlirTypeIsAVector(a.valType) && mlirShapedTypeGetRank(a.valType) == 1 &&
      mlirShapedTypeHasStaticShape(a.valType) &&
      mlirTypeEqual(mlirShapedTypeGetElementType(a.valType), a.elt)) {
    typeOk = rank >= 1;
    a.n = mlirShapedTypeGetDimSize(a.valType, 0);
  }
  if (!typeOk) {
    rock__passFail(pass, op,
                   "%s value must be the view's element type or a 1-D vector "
                   "of it",
                   opName);
    return false;
  }
  if (a.isPrefetch && rank >= 1) {
    /* `lines` 64-byte lines: the lanes they cover, one line per step. */
    int64_t lines = rock__intAttr(op, "lines", 1);
    unsigned bits = mlirTypeIsAFloat(a.elt)     ? mlirFloatTypeGetWidth(a.elt)
                    : mlirTypeIsAInteger(a.elt) ? mlirIntegerTypeGetWidth(a.elt)
                                                : 8;
    int64_t bytes = bits < 8 ? 1 : bits / 8;
    a.step = bytes < 64 ? 64 / bytes : 1;
    a.n = lines > 1 ? lines * a.step : 1;
  }
  if (a.ch.paged) {
    MlirType pe = mlirShapedTypeGetElementType(a.ch.pageType);
    if (!mlirTypeEqual(pe, a.elt)) {
      rock__passFail(pass, op, "%s element type differs from its rock.deref",
                     opName);
      return false;
    }
  }
  MlirAttribute pad = rock__attr(op, "padValue");
  if (!mlirAttributeIsNull(pad) && mlirAttributeIsAFloat(pad))
    a.pad = mlirFloatAttrGetValueDouble(pad);
  MlirValue args[2 + MAX_RANK];
  intptr_t nArgs = 0;
  args[nArgs++] = a.ch.base;
  for (intptr_t i = 0; i < a.nIdx; ++i) {
    MlirValue v = mlirOperationGetOperand(op, first + i);
    args[nArgs++] = v;
    a.idx[i] = rock__lvAnalyzeIndex(v, 0);
    if (!a.idx[i].isCst)
      snprintf(a.idx[i].name, NAME_LEN, "%%i%d", (int)i);
  }
  if (isStore)
    args[nArgs++] = mlirOperationGetOperand(op, 0);

  RockStr text = {0};
  if (!rock__lvBuildText(&a, true, &text)) {
    rock__strFree(&text);
    rock__lvBuildText(&a, false, &text);
  }
  rock__debugDump(op, "views", text.data);
  MlirValue result;
  bool hasRes = kind == VIEW_LOAD;
  bool ok =
      rock__inlineFuncText(op, text.data, nArgs, args, hasRes ? 1 : 0, &result);
  rock__strFree(&text);
  if (!ok) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  if (hasRes)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), result);
  mlirOperationDestroy(op);
  return true;
}

/*===----------------------------------------------------------------------===
 * The pass
 *===----------------------------------------------------------------------===*/

/* Erases rock.transform / rock.deref ops without uses until none is left. */
static void eraseDeadViews(MlirOperation root) {
  static const char *const names[] = {"rock.transform", "rock.deref"};
  bool changed = true;
  while (changed) {
    changed = false;
    for (int k = 0; k < 2; ++k) {
      intptr_t n;
      MlirOperation *ops = rock__collectOps(root, names[k], &n);
      for (intptr_t i = n - 1; i >= 0; --i) {
        MlirValue r = mlirOperationGetResult(ops[i], 0);
        if (mlirOpOperandIsNull(mlirValueGetFirstUse(r))) {
          mlirOperationDestroy(ops[i]);
          changed = true;
        }
      }
      free(ops);
    }
  }
}

/* Runs the rock.transform verifier on every rock.transform under `root`:
 * the well-formedness rules of a transform map live there, once, and the
 * lowering relies on them (the IR may come from a parser that skipped
 * verification). */
static bool verifyTransforms(MlirOperation root, MlirExternalPass pass) {
  intptr_t n;
  MlirOperation *ops = rock__collectOps(root, "rock.transform", &n);
  bool ok = true;
  for (intptr_t i = 0; ok && i < n; ++i)
    ok = mlirLogicalResultIsSuccess(rockTransformOpVerify(ops[i]));
  free(ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
  return ok;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  if (!verifyTransforms(root, pass))
    return;
  bool ok = true;
  for (int k = VIEW_LOAD; k <= VIEW_PREFETCH; ++k) {
    intptr_t n;
    MlirOperation *ops = rock__collectOps(root, viewOpNames[k], &n);
    for (intptr_t i = 0; i < n; ++i)
      ok = lowerViewOp(pass, ops[i], (ViewKind)k) && ok;
    free(ops);
  }
  if (ok)
    eraseDeadViews(root);
}

static const RockPassDef def = {
    "RockLowerViews", "rock-lower-views",
    "resolve rock.view_load/view_store/view_prefetch through rock.transform "
    "chains and "
    "rock.deref into index math and memory accesses",
    "", run};

MlirPass rockLowerViewsPassCreate(void) { return rock__passCreate(&def); }
void rockLowerViewsPassRegister(void) { rock__passRegister(&def); }
