/*===- ir_text.c - IR-from-text inlining, collecting ops ------------------===*/
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===--- inlining a parsed function body ----------------------------------===*/

/* Gives `op`, and the arguments of the blocks of its regions, the location
 * in `userData` (a MlirLocation *). */
static MlirWalkResult setLoc(MlirOperation op, void *userData) {
  MlirLocation loc = *(const MlirLocation *)userData;
  mlirOperationSetLocation(op, loc);
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (intptr_t i = 0; i < mlirBlockGetNumArguments(b); ++i)
        mlirBlockArgumentSetLocation(mlirBlockGetArgument(b, i), loc);
  return MlirWalkResultAdvance;
}

void rock__debugDump(MlirOperation op, const char *kind, const char *text) {
  MlirAttribute a = rock__nearestAttr(op, "rock.debug_text");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return;
  MlirStringRef v = mlirStringAttrGetValue(a);
  for (size_t i = 0; i < v.length;) {
    size_t j = i;
    while (j < v.length && v.data[j] != ',')
      ++j;
    size_t n = j - i;
    if ((n == strlen(kind) && !strncmp(v.data + i, kind, n)) ||
        (n == 3 && !strncmp(v.data + i, "all", 3))) {
      fprintf(stderr, "%s\n", text);
      return;
    }
    i = j + 1;
  }
}

bool rock__inlineFuncText(MlirOperation anchor, const char *text,
                          intptr_t nArgs, const MlirValue *args,
                          intptr_t nResults, MlirValue *results) {
  MlirContext ctx = mlirOperationGetContext(anchor);
  MlirLocation loc = mlirOperationGetLocation(anchor);
  MlirModule mod =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(mod)) {
    mlirEmitError(loc, "rock internal error: generated IR does not parse");
    rock__debugDump(anchor, "unparsed", text);
    return false;
  }
  MlirBlock modBody = mlirModuleGetBody(mod);
  MlirOperation func = mlirBlockGetFirstOperation(modBody);
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockGetNumArguments(body) != nArgs) {
    mlirEmitError(loc, "rock internal error: generated IR has wrong arity");
    mlirModuleDestroy(mod);
    return false;
  }
  for (intptr_t i = 0; i < nArgs; ++i)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, i), args[i]);
  /* The last op, not mlirBlockGetTerminator: across rock's shared objects
   * the IsTerminator trait of some ops is not recognised, so that call can
   * return null. */
  MlirOperation term = rock__blockLastOp(body);
  if (mlirOperationGetNumOperands(term) != nResults) {
    mlirEmitError(loc, "rock internal error: generated IR has wrong results");
    mlirModuleDestroy(mod);
    return false;
  }
  for (intptr_t i = 0; i < nResults; ++i)
    results[i] = mlirOperationGetOperand(term, i);
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op) && !mlirOperationEqual(op, term)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    /* The parsed ops point into `text` ("-":line:col), which is gone after
     * the call: they take the location of the op they lower instead. */
    mlirOperationWalk(op, setLoc, &loc, MlirWalkPreOrder);
    mlirOperationMoveBefore(op, anchor);
    op = next;
  }
  mlirModuleDestroy(mod);
  return true;
}

/*===--- small queries ----------------------------------------------------===*/

typedef struct Collect {
  const char *name;
  MlirOperation *ops;
  intptr_t n, cap;
} Collect;

static MlirWalkResult collectCb(MlirOperation op, void *ud) {
  Collect *c = ud;
  if (rock__isOp(op, c->name)) {
    if (c->n == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 16;
      c->ops = realloc(c->ops, (size_t)c->cap * sizeof(MlirOperation));
      if (!c->ops)
        abort();
    }
    c->ops[c->n++] = op;
  }
  return MlirWalkResultAdvance;
}

MlirOperation *rock__collectOps(MlirOperation root, const char *name,
                                intptr_t *n) {
  Collect c = {name, NULL, 0, 0};
  mlirOperationWalk(root, collectCb, &c, MlirWalkPreOrder);
  *n = c.n;
  return c.ops;
}

void rock__lowerEach(MlirOperation root, const char *name,
                     bool (*lowerOne)(MlirOperation, MlirExternalPass),
                     MlirExternalPass pass) {
  intptr_t n = 0;
  MlirOperation *ops = rock__collectOps(root, name, &n);
  for (intptr_t i = 0; i < n; ++i)
    if (!lowerOne(ops[i], pass))
      break;
  free(ops);
}
