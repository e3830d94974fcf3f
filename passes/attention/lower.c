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
  /* A second launch merges the partials: on sm_90+ with rock.gpu_pdl it may
   * start while this kernel runs (docs/gpu.md "Programmatic dependent
   * launch"). */
  int pdl = gpu ? rock__gpuPdl(op, pass) : 0;
  if (pdl < 0)
    return false;
  a->pdl = pdl == 1 && P > 1 && !a->fused;
  RockGen g;
  memset(&g, 0, sizeof g);
  /* Arguments take ids 0..nArgs-1. */
  int nOps = 4 + a->nElem + a->hasCsl + a->hasPo + a->hasLse;
  int nArgs = nOps + a->nExtra;
  for (int i = 0; i < a->nExtra; ++i)
    a->extraId[i] = nOps + i;
  int outArg = a->out;
  bool userLse = a->hasLse;
  g.next = nArgs;
  g.depth = 1;
  /* Internal split: P partitions write f32 partial outputs and f64 partial
   * LSEs (rock__attnLse) to scratch buffers, combined into out / lse below. */
  int64_t B = a->Bkv * a->R;
  char msO[128], msL[128];
  if (P > 1) {
    int64_t rows = B * P + (a->fused ? B * a->fusedUp : 0);
    snprintf(msO, sizeof msO, "memref<%lldx%lldx%lldxf32>", (long long)rows,
             (long long)a->Sq, (long long)a->Dv);
    snprintf(msL, sizeof msL, "memref<%lldx%lldxf64>", (long long)rows,
             (long long)a->Sq);
    a->out = rock__genAlloc(&g, msO, true);
    a->lse = rock__genAlloc(&g, msL, true);
    if (a->fused) {
      a->fOut = outArg, a->fLse = userLse ? outArg + 1 : -1;
      snprintf(a->fmo, sizeof a->fmo, "%s", a->mo);
      snprintf(a->fml, sizeof a->fml, "%s", a->ml);
      a->fto = a->to, a->ftl = a->tl;
      snprintf(a->mcnt, sizeof a->mcnt, "memref<%lldxi32>",
               (long long)(a->Bkv * a->nNBlk * a->fusedCnt));
      a->cnt = rock__genFresh(&g);
      rock__genLine(&g,
                    "%%v%d = memref.alloc() {alignment = 64 : i64, "
                    "rock.zero_init} : %s",
                    a->cnt, a->mcnt);
    }
    snprintf(a->mo, sizeof a->mo, "%s", msO);
    snprintf(a->ml, sizeof a->ml, "%s", msL);
    a->to = a->f32;
    a->tl = mlirF64TypeGet(mlirTypeGetContext(a->f32));
    a->hasLse = true;
    a->S = P;
    a->grid *= P;
  } else {
    a->fused = false;
  }
  bool fits = generate(&g, a, ctx);

  RockStr text = {0};
  rock__strAppend(&text, "func.func @body(");
  MlirValue args[6 + ROCK_ATTN_MAX_ELEM + ROCK_ATTN_MAX_EXTRA];
  for (int i = 0; i < nArgs; ++i) {
    args[i] = i < nOps ? mlirOperationGetOperand(op, i) : a->extra[i - nOps];
    rock__strAppendf(&text, "%s%%v%d: ", i ? ", " : "", i);
    rock__strAppendType(&text, mlirValueGetType(args[i]));
  }
  if (P > 1 && a->fused)
    rock__strAppendf(&text, ") -> (%s, %s, %s) {\n", msO, msL, a->mcnt);
  else if (P > 1)
    rock__strAppendf(&text, ") -> (%s, %s) {\n", msO, msL);
  else
    rock__strAppend(&text, ") {\n");
  rock__strAppend(&text, g.consts.data ? g.consts.data : "");
  rock__strAppend(&text, g.body.data ? g.body.data : "");
  if (P > 1 && a->fused)
    rock__strAppendf(&text, "  return %%v%d, %%v%d, %%v%d : %s, %s, %s\n}\n",
                     a->out, a->lse, a->cnt, msO, msL, a->mcnt);
  else if (P > 1)
    rock__strAppendf(&text, "  return %%v%d, %%v%d : %s, %s\n}\n", a->out,
                     a->lse, msO, msL);
  else
    rock__strAppend(&text, "  return\n}\n");
  rock__debugDump(op, "gridwise", text.data);
  MlirValue part[3];
  bool ok = fits && rock__inlineFuncText(op, text.data, nArgs, args,
                                         P > 1 ? 2 + a->fused : 0, part);
  rock__strFree(&text);
  rock__strFree(&g.body);
  rock__strFree(&g.consts);
  free(g.cs);
  if (ok && P > 1) {
    MlirValue cargs[4] = {part[0], part[1], args[outArg], args[outArg + 1]};
    if (!a->fused)
      ok = rock__inlineCombine(op, B, a->Sq, a->Dv, P, false, userLse ? 4 : 3,
                               cargs, gpu, a->pdl);
    RockStr fr = {0};
    rock__strAppendf(&fr,
                     "func.func @free(%%o: %s, %%l: %s%s%s) {\n"
                     "  memref.dealloc %%o : %s\n"
                     "  memref.dealloc %%l : %s\n",
                     msO, msL, a->fused ? ", %c: " : "",
                     a->fused ? a->mcnt : "", msO, msL);
    if (a->fused)
      rock__strAppendf(&fr, "  memref.dealloc %%c : %s\n", a->mcnt);
    rock__strAppend(&fr, "  return\n}\n");
    ok = ok &&
         rock__inlineFuncText(op, fr.data, a->fused ? 3 : 2, part, 0, NULL);
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

void rock__attnPdlTrigger(RockGen *g, const RockAttn *a) {
  if (a->pdl)
    rock__genLine(g, "nvvm.griddepcontrol launch_dependents");
}
