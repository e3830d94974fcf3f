/*===- lower.c - replacing one rock.gridwise_attention by generated text ---===*
 *
 * The part of a lowering that does not depend on the target (see
 * attention.h): the internal split's scratch partials, the function text
 * around the target's body, its inlining, the combine of the partials, and
 * the region's slots.
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rock__attnLower(MlirOperation op, MlirExternalPass pass, RockAttn *a,
                     int64_t P, bool gpu, RockAttnGenerate generate,
                     const void *ctx) {
  RockGen g;
  memset(&g, 0, sizeof g);
  /* Arguments take ids 0..nArgs-1. */
  int nArgs = 4 + a->nElem + a->hasCsl + a->hasPo + a->hasLse;
  int outArg = a->out;
  bool userLse = a->hasLse;
  g.next = nArgs;
  g.depth = 1;
  /* Internal split: P partitions write f32 partial outputs and f64 partial
   * LSEs (rock__attnLse) to scratch buffers, combined into out / lse below. */
  int64_t B = a->Bkv * a->R;
  char msO[128], msL[128];
  if (P > 1) {
    snprintf(msO, sizeof msO, "memref<%lldx%lldx%lldxf32>", (long long)(B * P),
             (long long)a->Sq, (long long)a->Dv);
    snprintf(msL, sizeof msL, "memref<%lldx%lldxf64>", (long long)(B * P),
             (long long)a->Sq);
    a->out = rock__genAlloc(&g, msO, true);
    a->lse = rock__genAlloc(&g, msL, true);
    snprintf(a->mo, sizeof a->mo, "%s", msO);
    snprintf(a->ml, sizeof a->ml, "%s", msL);
    a->to = a->f32;
    a->tl = mlirF64TypeGet(mlirTypeGetContext(a->f32));
    a->hasLse = true;
    a->S = P;
    a->grid *= P;
  }
  bool fits = generate(&g, a, ctx);

  RockStr text = {0};
  rock__strAppend(&text, "func.func @body(");
  MlirValue args[6 + ROCK_ATTN_MAX_ELEM];
  for (int i = 0; i < nArgs; ++i) {
    args[i] = mlirOperationGetOperand(op, i);
    rock__strAppendf(&text, "%s%%v%d: ", i ? ", " : "", i);
    rock__strAppendType(&text, mlirValueGetType(args[i]));
  }
  if (P > 1)
    rock__strAppendf(&text, ") -> (%s, %s) {\n", msO, msL);
  else
    rock__strAppend(&text, ") {\n");
  rock__strAppend(&text, g.consts.data ? g.consts.data : "");
  rock__strAppend(&text, g.body.data ? g.body.data : "");
  if (P > 1)
    rock__strAppendf(&text, "  return %%v%d, %%v%d : %s, %s\n}\n", a->out,
                     a->lse, msO, msL);
  else
    rock__strAppend(&text, "  return\n}\n");
  rock__debugDump("ROCK_DEBUG_GRIDWISE_TEXT", text.data);
  MlirValue part[2];
  bool ok = fits && rock__inlineFuncText(op, text.data, nArgs, args,
                                         P > 1 ? 2 : 0, part);
  rock__strFree(&text);
  rock__strFree(&g.body);
  rock__strFree(&g.consts);
  free(g.cs);
  if (ok && P > 1) {
    MlirValue cargs[4] = {part[0], part[1], args[outArg], args[outArg + 1]};
    ok = rock__inlineCombine(op, B, a->Sq, a->Dv, P, false, userLse ? 4 : 3,
                             cargs, gpu);
    RockStr fr = {0};
    rock__strAppendf(&fr,
                     "func.func @free(%%o: %s, %%l: %s) {\n"
                     "  memref.dealloc %%o : %s\n"
                     "  memref.dealloc %%l : %s\n"
                     "  return\n}\n",
                     msO, msL, msO, msL);
    ok = ok && rock__inlineFuncText(op, fr.data, 2, part, 0, NULL);
    rock__strFree(&fr);
  }
  if (!ok) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  if (!mlirBlockIsNull(a->rblock) &&
      !rock__attnFillSlots(mlirOperationGetParentOperation(op), &a->rform)) {
    rock__passFail(pass, op, "rock internal error: region slot not found");
    return false;
  }
  mlirOperationDestroy(op);
  return true;
}
