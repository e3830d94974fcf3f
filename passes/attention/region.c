/*===- region.c - the pre-softmax region slot -----------------------------===*
 *
 * The op's region (scale, bias, masks of the user's graph) is inlined by
 * cloning: the generated text holds a placeholder
 * builtin.unrealized_conversion_cast tagged `rock.region_slot` whose
 * operands are the region's arguments; rock__attnFillSlots (op.c) clones
 * the region's ops in front of each placeholder and replaces its result by
 * the yielded value.
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"

#include <string.h>

int rock__attnRegion(RockGen *g, const RockAttn *a, int sacc, RockRowIdx x,
                     int jj, MlirType *yt) {
  return rock__attnRegionW(g, a, sacc, x, jj, 1, yt);
}

int rock__attnRegionW(RockGen *g, const RockAttn *a, int sacc, RockRowIdx x,
                      int jj, int w, MlirType *yt) {
  char ib[128];
  int args[ROCK_ATTN_MAX_ELEM + 1];
  args[0] = rock__genConv(g, sacc, a->acc, a->rArg0, w);
  for (int e = 0; e < a->nElem; ++e) {
    rock__idx3(ib, sizeof ib, x.bq, x.i, jj);
    int ld = rock__genViewLoad(g, a->e[e], a->me[e], ib, a->te[e], w);
    args[e + 1] = rock__genConv(g, ld, a->te[e], a->rArgs[e + 1], w);
  }
  RockStr s = {0};
  for (int e = 0; e <= a->nElem; ++e)
    rock__strAppendf(&s, "%s%%v%d", e ? ", " : "", args[e]);
  rock__strAppend(&s, " : ");
  char t[64];
  for (int e = 0; e <= a->nElem; ++e) {
    rock__typeStr(t, sizeof t, a->rArgs[e], w);
    rock__strAppendf(&s, "%s%s", e ? ", " : "", t);
  }
  rock__typeStr(t, sizeof t, a->rYield, w);
  rock__strAppendf(&s, " to %s", t);
  int y = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = builtin.unrealized_conversion_cast %s "
                "{rock.region_slot}",
                y, s.data);
  rock__strFree(&s);
  *yt = a->rYield;
  return y;
}

/* True when `n` (an op name) starts with `prefix`. */
static bool named(MlirStringRef n, const char *prefix) {
  size_t k = strlen(prefix);
  return n.length >= k && !strncmp(n.data, prefix, k);
}

bool rock__attnRegionVectorizable(const RockAttn *a) {
  if (mlirBlockIsNull(a->rblock))
    return false;
  const RockRegionForm *f = &a->rform;
  for (MlirOperation o = mlirBlockGetFirstOperation(f->body);
       !mlirOperationEqual(o, f->yield); o = mlirOperationGetNextInBlock(o)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
    if (!(named(n, "arith.") || named(n, "math.")) ||
        mlirOperationGetNumRegions(o) != 0)
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumResults(o); ++i) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(o, i));
      if (!(mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t)))
        return false;
    }
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirType t = mlirValueGetType(mlirOperationGetOperand(o, i));
      if (!(mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t)))
        return false;
    }
  }
  return true;
}
