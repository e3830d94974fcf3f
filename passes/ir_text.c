/*===- ir_text.c - strings, IR-from-text inlining, small IR queries -------===*/
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===--- strings -----------------------------------------------------------===*/

static void reserve(RockStr *s, size_t extra) {
  if (s->len + extra + 1 <= s->cap)
    return;
  size_t cap = s->cap ? s->cap : 256;
  while (cap < s->len + extra + 1)
    cap *= 2;
  char *d = realloc(s->data, cap);
  if (!d) {
    fprintf(stderr, "rock: out of memory\n");
    abort();
  }
  s->data = d;
  s->cap = cap;
}

void rock__strAppendN(RockStr *s, const char *text, size_t n);
void rock__strAppendN(RockStr *s, const char *text, size_t n) {
  reserve(s, n);
  memcpy(s->data + s->len, text, n);
  s->len += n;
  s->data[s->len] = 0;
}

void rock__strAppend(RockStr *s, const char *text) {
  rock__strAppendN(s, text, strlen(text));
}

void rock__strAppendv(RockStr *s, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    return;
  reserve(s, (size_t)n);
  vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
  s->len += (size_t)n;
}

void rock__strAppendf(RockStr *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rock__strAppendv(s, fmt, ap);
  va_end(ap);
}

void rock__strCallback(MlirStringRef ref, void *userData) {
  rock__strAppendN((RockStr *)userData, ref.data, ref.length);
}

void rock__strAppendType(RockStr *s, MlirType t) {
  mlirTypePrint(t, rock__strCallback, s);
}

void rock__strAppendAttr(RockStr *s, MlirAttribute a) {
  mlirAttributePrint(a, rock__strCallback, s);
}

void rock__strFree(RockStr *s) {
  free(s->data);
  s->data = NULL;
  s->len = s->cap = 0;
}

/*===--- inlining a parsed function body -----------------------------------===*/

static MlirWalkResult setLoc(MlirOperation op, void *ud) {
  mlirOperationSetLocation(op, *(const MlirLocation *)ud);
  return MlirWalkResultAdvance;
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
    if (getenv("ROCK_DEBUG_TEXT"))
      fprintf(stderr, "%s\n", text);
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
    /* Every generated op, nested ones included, gets the anchor's location
     * (not the position in the generated text). */
    mlirOperationWalk(op, setLoc, &loc, MlirWalkPreOrder);
    mlirOperationMoveBefore(op, anchor);
    op = next;
  }
  mlirModuleDestroy(mod);
  return true;
}

/*===--- small queries -----------------------------------------------------===*/

MlirOperation rock__blockLastOp(MlirBlock block) {
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op) &&
         !mlirOperationIsNull(mlirOperationGetNextInBlock(op)))
    op = mlirOperationGetNextInBlock(op);
  return op;
}

MlirAttribute rock__attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

int64_t rock__intAttr(MlirOperation op, const char *name, int64_t dflt) {
  MlirAttribute a = rock__attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return dflt;
  return mlirIntegerAttrGetValueInt(a);
}

bool rock__flagAttr(MlirOperation op, const char *name) {
  MlirAttribute a = rock__attr(op, name);
  if (mlirAttributeIsNull(a))
    return false;
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a);
  return true;
}

bool rock__isOp(MlirOperation op, const char *name) {
  MlirIdentifier id = mlirOperationGetName(op);
  MlirStringRef s = mlirIdentifierStr(id);
  return strlen(name) == s.length && memcmp(s.data, name, s.length) == 0;
}

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
