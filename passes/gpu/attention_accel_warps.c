/*===- attention_accel_warps.c - key warps on one partition ---------------===*
 *
 * rock.gpu_accel_key_warps (attention_accel.h, s->kw > 1; docs/gpu.md
 * "Decode"): the kw warps of a workgroup share one warp's rows and one
 * partition's key tiles, warp w taking tiles start + w (mod kw) into its
 * own K / V slot with its own online-softmax state (m, l, O). After the key
 * loop the warps' states meet in workgroup memory and warp 0 merges them
 * with the split's rule (rock__attnMergeStates: the max of m, each state
 * scaled by exp(m_w - M), l and O summed; a warp without keys has m = -inf,
 * l = 0 and weight 0), then stores the rows as the one warp did.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_accel.h"

#include <stdio.h>

/* Index ((a·n + b)·m + c)·k + d as an index value (a, c SSA ids; b, d
 * constants). */
static int stateIndex(RockGen *g, int a, int64_t n, int64_t b, int64_t m, int c,
                      int64_t k) {
  int r = rock__genBin(
      g, "arith.addi",
      rock__genBin(g, "arith.muli", a, rock__genIndex(g, n), "index"),
      rock__genIndex(g, b), "index");
  r = rock__genBin(
      g, "arith.addi",
      rock__genBin(g, "arith.muli", r, rock__genIndex(g, m), "index"), c,
      "index");
  return rock__genBin(g, "arith.muli", r, rock__genIndex(g, k), "index");
}

/* Where slot `slot`'s (an index) O tile d (vector of cElems f32) and its
 * scalar k (m of row r: k = r, l: nr + r) lie in the f32 view: O as
 * [slot][ntD][lanes][cElems], then the scalars as [slot][2·nr][lanes]. */
static int oAt(AccGen *c, int slot, int d) {
  const AccSched *s = c->s;
  return stateIndex(c->g, slot, s->ntD, d, s->ac.wave, c->lane, s->ac.cElems);
}

static int scalarAt(AccGen *c, int slot, int k) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int64_t base = (int64_t)(s->kw - 1) * s->ntD * s->ac.wave * s->ac.cElems;
  return rock__genBin(g, "arith.addi", rock__genIndex(g, base),
                      stateIndex(g, slot, 2 * s->nr, k, s->ac.wave, c->lane, 1),
                      "index");
}

/* Warps 1 .. kw - 1 store their state into slot kwarp - 1 of `st`. */
static void storeStates(AccGen *c, int st, const char *mt) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int other = rock__genBin(g, "arith.cmpi ne,", c->kwarp, rock__genIndex(g, 0),
                           "index");
  rock__genLine(g, "scf.if %%v%d {", other);
  g->depth++;
  int slot = rock__genBin(g, "arith.subi", c->kwarp, c->c1, "index");
  for (int d = 0; d < s->ntD; ++d)
    rock__genLine(g, "vector.store %%v%d, %%v%d[%%v%d] : %s, %s",
                  c->res[2 * s->nr + d], st, oAt(c, slot, d), mt, c->vt);
  for (int k = 0; k < 2 * s->nr; ++k)
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", c->res[k], st,
                  scalarAt(c, slot, k), mt);
  g->depth--;
  rock__genLine(g, "}");
}

/* Warp 0: slot `w - 1`'s state merged into c->res. */
static void mergeSlot(AccGen *c, int st, const char *mt, int w) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int slot = rock__genIndex(g, w - 1), f1[MAXR], f2[MAXR];
  for (int r = 0; r < s->nr; ++r) {
    int v[2];
    for (int h = 0; h < 2; ++h) {
      v[h] = rock__genFresh(g);
      rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", v[h], st,
                    scalarAt(c, slot, h * s->nr + r), mt);
    }
    int m;
    c->res[s->nr + r] = rock__attnMergeStates(
        g, c->a, c->res[r], c->res[s->nr + r], v[0], v[1], &m, &f1[r], &f2[r]);
    c->res[r] = m;
  }
  int cv[2];
  for (int h = 0; h < 2; ++h) {
    RockStr list = {0};
    for (int e = 0; e < s->ac.cElems; ++e) /* mma.sync: row e / 2 */
      rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", (h ? f2 : f1)[e / 2]);
    cv[h] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.from_elements %s : %s", cv[h], list.data,
                  c->vt);
    rock__strFree(&list);
  }
  for (int d = 0; d < s->ntD; ++d) {
    int o = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.load %%v%d[%%v%d] : %s, %s", o, st,
                  oAt(c, slot, d), mt, c->vt);
    int *acc = &c->res[2 * s->nr + d];
    *acc = rock__genBinF(
        g, "arith.addf", rock__genBinF(g, "arith.mulf", *acc, cv[0], c->vt),
        rock__genBinF(g, "arith.mulf", o, cv[1], c->vt), c->vt);
  }
}

void rock__tcMergeWarps(AccGen *c) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  /* every warp is past its key loop and its copies (the state slots lie
   * over the K / V slots) */
  rock__genLine(g, "nvvm.cp.async.wait.group 0");
  rock__genLine(g, "gpu.barrier");
  char mt[96];
  snprintf(mt, sizeof mt, "memref<%lldxf32, #gpu.address_space<workgroup>>",
           (long long)(s->bytes / 4));
  int st = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", st, c->sB,
                rock__genIndex(g, 0), c->mB, mt);
  storeStates(c, st, mt);
  rock__genLine(g, "gpu.barrier");
  rock__genLine(g, "scf.if %%v%d {",
                rock__genBin(g, "arith.cmpi eq,", c->kwarp,
                             rock__genIndex(g, 0), "index"));
  g->depth++;
  for (int w = 1; w < s->kw; ++w)
    mergeSlot(c, st, mt, w);
}
