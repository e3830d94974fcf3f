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

int rock__attnRegion(RockGen *g, const RockAttn *a, int sacc, RockRowIdx x,
                     int jj, MlirType *yt) {
  char ib[128];
  int args[ROCK_ATTN_MAX_ELEM + 1];
  args[0] = rock__genConv(g, sacc, a->acc, a->rArg0, 1);
  for (int e = 0; e < a->nElem; ++e) {
    rock__idx3(ib, sizeof ib, x.bq, x.i, jj);
    int ld = rock__genViewLoad(g, a->e[e], a->me[e], ib, a->te[e], 1);
    args[e + 1] = rock__genConv(g, ld, a->te[e], a->rArgs[e + 1], 1);
  }
  RockStr s = {0};
  for (int e = 0; e <= a->nElem; ++e)
    rock__strAppendf(&s, "%s%%v%d", e ? ", " : "", args[e]);
  rock__strAppend(&s, " : ");
  for (int e = 0; e <= a->nElem; ++e) {
    if (e)
      rock__strAppend(&s, ", ");
    rock__strAppendType(&s, a->rArgs[e]);
  }
  rock__strAppend(&s, " to ");
  rock__strAppendType(&s, a->rYield);
  int y = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = builtin.unrealized_conversion_cast %s "
                "{rock.region_slot}",
                y, s.data);
  rock__strFree(&s);
  *yt = a->rYield;
  return y;
}
