/*===- schedule.c - workgroups, rows and key ranges of the attention -----===*
 *
 * The target-neutral index arithmetic of docs/semantics.md §5.2-§5.4: which
 * workgroup does what, which keys each merged row sees, which key tiles a split
 * visits (see attention.h).
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"

#include <stdio.h>

RockAttnWg rock__attnWorkgroup(RockGen *g, const RockAttn *a, int bid0) {
  RockAttnWg w;
  int cR = rock__genIndex(g, a->R), cS = rock__genIndex(g, a->S);
  int cNB = rock__genIndex(g, a->NB), cSqR = rock__genIndex(g, a->Sq * a->R);
  int cNNB = rock__genIndex(g, a->nNBlk);
  int bid = bid0;
  if (a->reverse)
    bid = rock__genBin(g, "arith.subi", rock__genIndex(g, a->grid - 1), bid0,
                       "index");
  /* bid = (gBlk * nNBlk + nBlk) * S + split */
  w.split = rock__genBin(g, "arith.remui", bid, cS, "index");
  int t = rock__genBin(g, "arith.divui", bid, cS, "index");
  w.nBlk = rock__genBin(g, "arith.remui", t, cNNB, "index");
  w.gBlk = rock__genBin(g, "arith.divui", t, cNNB, "index");
  w.n0 = rock__genBin(g, "arith.muli", w.nBlk, cNB, "index");
  int remRows = rock__genBin(g, "arith.subi", cSqR, w.n0, "index");
  w.nRows = rock__genBin(g, "arith.minui", remRows, cNB, "index");
  w.bq0 = rock__genBin(g, "arith.muli", w.gBlk, cR, "index");
  return w;
}

RockRowIdx rock__attnRowIdx(RockGen *g, int n0, int r, int bq0, int cR) {
  RockRowIdx x;
  int n = rock__genBin(g, "arith.addi", n0, r, "index");
  x.i = rock__genBin(g, "arith.divui", n, cR, "index");
  int rr = rock__genBin(g, "arith.remui", n, cR, "index");
  x.bq = rock__genBin(g, "arith.addi", bq0, rr, "index");
  return x;
}

/* An i32 element of a per-query-head view, as an index. */
static int loadIndex(RockGen *g, int view, const char *mt, int bq) {
  int v32 = rock__genFresh(g);
  rock__genLine(g, "%%v%d = rock.view_load %%v%d[%%v%d] : %s -> i32", v32, view,
                bq, mt);
  int vi = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : i32 to index", vi, v32);
  return vi;
}

/* The KV-cache bound of row `x`: Sk - 1 clamped by currentSeqLen[bq]. */
static int kvLast(RockGen *g, const RockAttn *a, RockRowIdx x) {
  int last = rock__genIndex(g, a->Sk - 1);
  if (a->hasCsl)
    last = rock__genBin(g, "arith.minsi", last,
                        loadIndex(g, a->csl, a->mc, x.bq), "index");
  return last;
}

/* The causal bound of row `x`: i (+ prefixOffset[bq]). */
static int causalLast(RockGen *g, const RockAttn *a, RockRowIdx x) {
  if (!a->hasPo)
    return x.i;
  return rock__genBin(g, "arith.addi", x.i, loadIndex(g, a->po, a->mp, x.bq),
                      "index");
}

int rock__attnRowLast(RockGen *g, const RockAttn *a, RockRowIdx x) {
  int last = kvLast(g, a, x);
  if (a->causal)
    last = rock__genBin(g, "arith.minsi", last, causalLast(g, a, x), "index");
  return last;
}

int rock__attnRowLow(RockGen *g, const RockAttn *a, RockRowIdx x) {
  int low = -1;
  if (a->hasWindow)
    low = rock__genBin(g, "arith.subi", kvLast(g, a, x),
                       rock__genIndex(g, a->window), "index");
  if (a->hasBand) {
    int b = rock__genBin(g, "arith.subi", causalLast(g, a, x),
                         rock__genIndex(g, a->band), "index");
    low = low < 0 ? b : rock__genBin(g, "arith.maxsi", low, b, "index");
  }
  return low;
}

int rock__attnBlockLast(RockGen *g, int acc, int last) {
  return rock__genBin(g, "arith.maxsi", acc, last, "index");
}

int rock__attnBlockLow(RockGen *g, int acc, int low) {
  int low0 = rock__genBin(g, "arith.maxsi", low, rock__genIndex(g, 0), "index");
  return rock__genBin(g, "arith.minsi", acc, low0, "index");
}

void rock__attnTileRange(RockGen *g, const RockAttn *a, int split, int eff,
                         int lowKey, int *start, int *end) {
  int c0 = rock__genIndex(g, 0), cMB = rock__genIndex(g, a->MB);
  int cS = rock__genIndex(g, a->S);
  int nEnd, iters;
  if (a->dynamic) {
    int neg = rock__genBin(g, "arith.cmpi slt,", eff, c0, "index");
    int ea = rock__genBin(g, "arith.addi", eff, cMB, "index");
    int eb = rock__genBin(g, "arith.divsi", ea, cMB, "index");
    nEnd = rock__genSelect(g, neg, c0, eb, "index");
    iters = rock__genBin(g, "arith.ceildivui", nEnd, cS, "index");
  } else {
    int64_t nMB = (a->Sk + a->MB - 1) / a->MB;
    nEnd = rock__genIndex(g, nMB);
    iters = rock__genIndex(g, (nMB + a->S - 1) / a->S);
  }
  int st = rock__genBin(g, "arith.muli", split, iters, "index");
  int next = rock__genBin(g, "arith.addi", st, iters, "index");
  *end = rock__genBin(g, "arith.minui", nEnd, next, "index");
  if (a->hasLow) {
    int lt = rock__genBin(g, "arith.divui", lowKey, cMB, "index");
    st = rock__genBin(g, "arith.maxui", st, lt, "index");
  }
  *start = st;
}

int rock__attnTileCols(RockGen *g, const RockAttn *a, int kt, int *j0) {
  int cMB = rock__genIndex(g, a->MB);
  *j0 = rock__genBin(g, "arith.muli", kt, cMB, "index");
  int skr =
      rock__genBin(g, "arith.subi", rock__genIndex(g, a->Sk), *j0, "index");
  return rock__genBin(g, "arith.minui", skr, cMB, "index");
}

int rock__attnOutRow(RockGen *g, const RockAttn *a, int bq, int split) {
  int ob0 = rock__genBin(g, "arith.muli", bq, rock__genIndex(g, a->S), "index");
  return rock__genBin(g, "arith.addi", ob0, split, "index");
}
