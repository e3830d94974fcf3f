/*===- tile_scores.c - one row's scores of a key tile, masked only where needed
 *
 * The scores step of the CPU schedule (lower_gridwise_attention.c).
 * Without a pre-softmax region: per merged row, the tile's scores in
 * vectors along the keys, scaled into the exp2 domain (rock__attnScore),
 * stored to the score tile, and their maximum. The masks (padding keys past
 * Sk, keys past the row's last key, keys before its window start:
 * semantics.md §5.6) are applied in a copy of the loop that runs only when
 * some key of the tile is masked for this row; a tile inside every bound
 * (most tiles of a long prefill) takes the loop without the index vectors
 * and compares. With a region: the region's ops per 16 keys on vectors
 * where they are all elementwise arith / math (rock__attnRegionVectorizable),
 * else and for the tail per key; stored without a running maximum (no value
 * crosses the loop's iterations), the maximum in vectors over the stored row
 * after it.
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"

#include <stdio.h>

/* The largest of the w lanes of `res` (type tf), an f32. */
static int maxOfLanes(RockGen *g, int res, int w, const char *tf) {
  if (w == 1)
    return res;
  int red = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.reduction <maxnumf>, %%v%d : %s into f32",
                red, res, tf);
  return red;
}

/* The loop over the tile's segments (masked when `masked`); returns the
 * maximum (f32). */
static int scoreLoops(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                      const RockCpuScores *s, bool masked, int last, int low) {
  char ib[128];
  int tileMax = rock__genConst(g, ROCK_NINF, "f32");
  for (int k = 0; k < s->nSeg; ++k) {
    int w = s->seg[k].w;
    char tf[64], ti[64];
    rock__typeStrS(tf, sizeof tf, "f32", w);
    rock__typeStrS(ti, sizeof ti, "index", w);
    int j, mx;
    int res =
        rock__genForIter(g, rock__genIndex(g, s->seg[k].lo),
                         rock__genIndex(g, s->seg[k].hi), rock__genIndex(g, w),
                         rock__genSplat(g, ROCK_NINF, "f32", w), tf, &j, &mx);
    rock__idx2(ib, sizeof ib, s->r, j);
    int sacc = rock__genLoad(g, b->Sa, b->mSa, ib, w, b->acc);
    int xv = rock__attnScore(g, a, sacc, a->acc, w);
    if (masked) {
      int jj = rock__genBin(g, "arith.addi", s->j0, j, "index");
      int jv = rock__genBcast(g, jj, w, "index");
      if (w > 1) {
        int step = rock__genFresh(g);
        rock__genLine(g, "%%v%d = vector.step : %s", step, ti);
        jv = rock__genBin(g, "arith.addi", jv, step, ti);
      }
      int mv = rock__attnMaskedValue(g, a, w);
      xv = rock__attnMaskPad(g, a, xv, jv, mv, w);
      if (a->dynamic)
        xv = rock__attnMaskLast(g, xv, jv, last, mv, w);
      if (a->hasLow)
        xv = rock__attnMaskLow(g, xv, jv, low, mv, w);
    }
    rock__genStore(g, xv, b->St, b->mSt, ib, w, "f32");
    int nm = rock__genBin(g, "arith.maxnumf", mx, xv, tf);
    rock__genYieldEnd(g, nm, tf);
    int red = maxOfLanes(g, res, w, tf);
    tileMax = rock__genBin(g, "arith.maxnumf", tileMax, red, "f32");
  }
  return tileMax;
}

/* True (an i1 id) when some key of the tile is masked for the row: the tile
 * is partial (padding keys), ends past the row's last key or starts before
 * its window. */
static int needsMasks(RockGen *g, const RockAttn *a, const RockCpuScores *s,
                      int last, int low) {
  int need = rock__genBin(g, "arith.cmpi ult,", s->nCols,
                          rock__genIndex(g, a->MB), "index");
  if (a->dynamic) {
    int end = rock__genBin(g, "arith.addi", s->j0, rock__genIndex(g, a->MB - 1),
                           "index");
    need = rock__genBin(g, "arith.ori", need,
                        rock__genBin(g, "arith.cmpi sgt,", end, last, "index"),
                        "i1");
  }
  if (a->hasLow)
    need = rock__genBin(g, "arith.ori", need,
                        rock__genBin(g, "arith.cmpi slt,", s->j0, low, "index"),
                        "i1");
  return need;
}

/* Row s->r's key limits: its last key (KV-cache lengths) and its first
 * (a window), -1 where the problem has none. */
static void rowLimits(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                      const RockCpuScores *s, int *last, int *low) {
  if (a->dynamic) {
    *last = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", *last, b->Last,
                  s->r, b->mIdx);
  }
  if (a->hasLow) {
    *low = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", *low, b->Low,
                  s->r, b->mIdx);
  }
}

int rock__cpuTileScores(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                        const RockCpuScores *s) {
  int last = -1, low = -1;
  rowLimits(g, a, b, s, &last, &low);
  int need = needsMasks(g, a, s, last, low);
  int res = rock__genFresh(g);
  rock__genLine(g, "%%v%d = scf.if %%v%d -> (f32) {", res, need);
  g->depth++;
  rock__genLine(g, "scf.yield %%v%d : f32",
                scoreLoops(g, a, b, s, true, last, low));
  g->depth--;
  rock__genLine(g, "} else {");
  g->depth++;
  rock__genLine(g, "scf.yield %%v%d : f32",
                scoreLoops(g, a, b, s, false, last, low));
  rock__genEnd(g);
  return res;
}

int rock__cpuRowMax(RockGen *g, const RockCpuBufs *b, int r, const RockSeg *seg,
                    int nSeg) {
  char ib[128];
  int m = rock__genConst(g, ROCK_NINF, "f32");
  for (int k = 0; k < nSeg; ++k) {
    int w = seg[k].w, j, mx;
    char tf[64];
    rock__typeStrS(tf, sizeof tf, "f32", w);
    int res =
        rock__genForIter(g, rock__genIndex(g, seg[k].lo),
                         rock__genIndex(g, seg[k].hi), rock__genIndex(g, w),
                         rock__genSplat(g, ROCK_NINF, "f32", w), tf, &j, &mx);
    rock__idx2(ib, sizeof ib, r, j);
    int x = rock__genLoad(g, b->St, b->mSt, ib, w, "f32");
    rock__genYieldEnd(g, rock__genBin(g, "arith.maxnumf", mx, x, tf), tf);
    int red = maxOfLanes(g, res, w, tf);
    m = rock__genBin(g, "arith.maxnumf", m, red, "f32");
  }
  return m;
}

/* Scores of keys [lo, hi) of row s->r, w at a time, through the region. */
static void regionLoop(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                       const RockCpuScores *s, RockRowIdx x, int lo, int hi,
                       int w, int last, int low) {
  char ib[128], ti[64];
  rock__typeStrS(ti, sizeof ti, "index", w);
  int j = rock__genFor(g, lo, hi, rock__genIndex(g, w));
  rock__idx2(ib, sizeof ib, s->r, j);
  int sacc = rock__genLoad(g, b->Sa, b->mSa, ib, w, b->acc);
  int jj = rock__genBin(g, "arith.addi", s->j0, j, "index");
  MlirType yt;
  int y = rock__attnRegionW(g, a, sacc, x, jj, w, &yt);
  int xv = rock__attnScore(g, a, y, yt, w);
  int mv = rock__attnMaskedValue(g, a, w);
  int jv = rock__genBcast(g, jj, w, "index");
  if (w > 1 && (a->dynamic || a->hasLow)) {
    int step = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.step : %s", step, ti);
    jv = rock__genBin(g, "arith.addi", jv, step, ti);
  }
  /* KV cache, causal and prefix limits are folded into Last[r]. */
  if (a->dynamic)
    xv = rock__attnMaskLast(g, xv, jv, last, mv, w);
  if (a->hasLow)
    xv = rock__attnMaskLow(g, xv, jv, low, mv, w);
  rock__genStore(g, xv, b->St, b->mSt, ib, w, "f32");
  rock__genEnd(g);
}

int rock__cpuRegionScores(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuScores *s, RockRowIdx x) {
  char ib[128];
  int last = -1, low = -1;
  rowLimits(g, a, b, s, &last, &low);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1), tail = c0;
  if (rock__attnRegionVectorizable(a)) {
    int c16 = rock__genIndex(g, 16);
    tail = rock__genBin(g, "arith.muli",
                        rock__genBin(g, "arith.divui", s->nCols, c16, "index"),
                        c16, "index");
    regionLoop(g, a, b, s, x, c0, tail, 16, last, low);
  }
  regionLoop(g, a, b, s, x, tail, s->nCols, 1, last, low);
  /* Padding keys (j >= Sk) score −inf (semantics.md §5.6 step 2). */
  int jp = rock__genFor(g, s->nCols, rock__genIndex(g, a->MB), c1);
  rock__idx2(ib, sizeof ib, s->r, jp);
  rock__genStore(g, rock__attnMaskedValue(g, a, 1), b->St, b->mSt, ib, 1,
                 "f32");
  rock__genEnd(g);
  return rock__cpuRowMax(g, b, s->r, s->seg, s->nSeg);
}
