/*===- softmax.c - scores, masks, online softmax and finalisation --------===*
 *
 * The target-neutral arithmetic of docs/semantics.md §5.6 (see attention.h):
 * each rule is written once here and called by every lowering; the target only
 * chooses the exp2 / log2 spelling (RockAttnTarget).
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"

#include <stdio.h>

/* `i1` or `vector<w x i1>, T` for an arith.select on values of type `ty`. */
static void selTy(char *buf, size_t n, const char *ty, int w) {
  if (w > 1)
    snprintf(buf, n, "vector<%dxi1>, %s", w, ty);
  else
    snprintf(buf, n, "%s", ty);
}

int rock__attnScore(RockGen *g, const RockAttn *a, int v, MlirType t, int w) {
  return rock__genConv(g, rock__genConv(g, v, t, a->sm, w), a->sm, a->f32, w);
}

int rock__attnMaskedValue(RockGen *g, const RockAttn *a, int w) {
  int masked = a->softmax ? rock__genConst(g, ROCK_NINF, "f32")
                          : rock__genConst(g, "0.0", "f32");
  return rock__genBcast(g, masked, w, "f32");
}

/* xv, or mv where `pred` (cmpi) holds for jv against the index `bound`. */
static int maskWhere(RockGen *g, const char *pred, int xv, int jv, int bound,
                     int mv, int w) {
  char tf[64], ti[64], cf[160];
  rock__typeStrS(tf, sizeof tf, "f32", w);
  rock__typeStrS(ti, sizeof ti, "index", w);
  selTy(cf, sizeof cf, tf, w);
  int c = rock__genBin(g, pred, jv, rock__genBcast(g, bound, w, "index"), ti);
  return rock__genSelect(g, c, mv, xv, cf);
}

int rock__attnMaskPad(RockGen *g, const RockAttn *a, int xv, int jv, int mv,
                      int w) {
  return maskWhere(g, "arith.cmpi sge,", xv, jv, rock__genIndex(g, a->Sk), mv,
                   w);
}

int rock__attnMaskLast(RockGen *g, int xv, int jv, int last, int mv, int w) {
  return maskWhere(g, "arith.cmpi sgt,", xv, jv, last, mv, w);
}

int rock__attnMaskLow(RockGen *g, int xv, int jv, int low, int mv, int w) {
  return maskWhere(g, "arith.cmpi slt,", xv, jv, low, mv, w);
}

int rock__attnTileUnmasked(RockGen *g, const RockAttn *a, int j0, int64_t mb,
                           int minLast, int maxLow, int one) {
  bool tail = a->Sk % mb != 0;
  if (!tail && !a->dynamic && !a->hasLow)
    return -1;
  int jEnd = rock__genBin(g, "arith.addi", j0, rock__genIndex(g, mb), "index");
  int conds[3], nc = 0;
  if (tail)
    conds[nc++] = rock__genBin(g, "arith.cmpi sle,", jEnd,
                               rock__genIndex(g, a->Sk), "index");
  if (a->dynamic)
    conds[nc++] = rock__genBin(
        g, "arith.cmpi sle,", jEnd,
        rock__genBin(g, "arith.addi", minLast,
                     one >= 0 ? one : rock__genIndex(g, 1), "index"),
        "index");
  if (a->hasLow)
    conds[nc++] = rock__genBin(g, "arith.cmpi sge,", j0, maxLow, "index");
  int full = conds[0];
  for (int i = 1; i < nc; ++i)
    full = rock__genBin(g, "arith.andi", full, conds[i], "i1");
  return full;
}

/* The maximum's units (one rule for P, the rescales, the merges and the
 * LSE). Where P is rounded to 16 bits before P·V, the running maximum is
 * kept in the exp2 domain, m = max · log2 e: a tile's maximum enters it as
 * one rounded product (rounding is monotonic, so the maximum of the
 * products is the product of the maximum), and P = exp2(fma(x, log2 e, −m))
 * is one FMA and one exp2 a score, rounded once before the exp2. The
 * products' rounding (up to |m| · 2^-24) scales a row's P, its sum and its
 * LSE (taken from m) by one factor, which the division by the sum cancels;
 * against P's own rounding to 16 bits (2^-9, 2^-11) the FMA's is nothing.
 * f32 P keeps the maximum in the scores' units and takes the difference
 * first, P = exp2((x − m) · log2 e): exact for the scores near the maximum
 * (its P is exactly 1), the accuracy f32 asks for at one more instruction. */
static bool expDomain(const RockAttn *a) { return rock__bitWidth(a->tv) < 32; }

static int log2e(RockGen *g) { return rock__genConst(g, "1.44269504", "f32"); }

/* A tile's maximum (scores' units) in the maximum's units. */
static int toDomain(RockGen *g, const RockAttn *a, int x) {
  return expDomain(a) ? rock__genBin(g, "arith.mulf", x, log2e(g), "f32") : x;
}

/* e^(x − y) of two maxima in the maximum's units. */
static int expDiff(RockGen *g, const RockAttn *a, int x, int y) {
  int d = rock__genBin(g, "arith.subf", x, y, "f32");
  if (!expDomain(a))
    d = rock__genBin(g, "arith.mulf", d, log2e(g), "f32");
  return a->tgt->exp2Scalar(g, d);
}

/* *mNew = max(mOld, mTile) of two maxima in the maximum's units, *mSafe = 0
 * where that is −inf (the guard); returns e^(mOld − *mSafe). */
static int advance(RockGen *g, const RockAttn *a, int mOld, int mTile,
                   int *mNew, int *mSafe) {
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  *mNew = rock__genBin(g, "arith.maxnumf", mOld, mTile, "f32");
  int isNinf = rock__genBin(g, "arith.cmpf oeq,", *mNew, ninf, "f32");
  *mSafe = rock__genSelect(g, isNinf, zf, *mNew, "f32");
  return expDiff(g, a, mOld, *mSafe);
}

int rock__attnRescale(RockGen *g, const RockAttn *a, int mOld, int tileMax,
                      int *mNew, int *mSafe) {
  return advance(g, a, mOld, toDomain(g, a, tileMax), mNew, mSafe);
}

int rock__attnRescaleLazy(RockGen *g, const RockAttn *a, int mOld, int tileMax,
                          int *mNew, int *mSafe, int *moved) {
  int mt = toDomain(g, a, tileMax);
  /* tau in the maximum's units: 8 in the exp2 domain, 8 ln 2 in the
   * scores' */
  int tau = rock__genConst(g, expDomain(a) ? "8.0" : "5.54517744", "f32");
  int lim = rock__genBin(g, "arith.addf", mOld, tau, "f32");
  *moved = rock__genBin(g, "arith.cmpf ogt,", mt, lim, "f32");
  return advance(g, a, mOld, rock__genSelect(g, *moved, mt, mOld, "f32"), mNew,
                 mSafe);
}

/* The exp2 argument of P for score(s) xv (rock__attnProb's forms). */
static int probArg(RockGen *g, const RockAttn *a, int xv, int mSafe, int w) {
  char tf[64];
  rock__typeStrS(tf, sizeof tf, "f32", w);
  int l2 = rock__genBcast(g, log2e(g), w, "f32");
  if (expDomain(a)) {
    int nms = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.negf %%v%d : f32", nms, mSafe);
    return rock__genFma(g, xv, l2, rock__genBcast(g, nms, w, "f32"), tf);
  }
  int d =
      rock__genBin(g, "arith.subf", xv, rock__genBcast(g, mSafe, w, "f32"), tf);
  return rock__genBin(g, "arith.mulf", d, l2, tf);
}

int rock__attnProb(RockGen *g, const RockAttn *a, int xv, int mSafe, int w,
                   int *pr) {
  int p = a->tgt->exp2(g, probArg(g, a, xv, mSafe, w), w);
  *pr = rock__genRoundW(g, p, a->tv, w);
  return p;
}

int rock__attnProbFma(RockGen *g, const RockAttn *a, int xv, int mSafe,
                      int *pr) {
  if (!expDomain(a) || !a->tgt->exp2Fma)
    return rock__attnProb(g, a, xv, mSafe, 1, pr);
  int p = a->tgt->exp2Fma(g, probArg(g, a, xv, mSafe, 1),
                          mlirTypeIsABF16(a->tv) ? 3 : 4);
  *pr = rock__genRound(g, p, a->tv);
  return p;
}

int rock__attnProbPlain(RockGen *g, const RockAttn *a, int xv, int w) {
  return rock__genRoundW(g, xv, a->tv, w);
}

int rock__attnRowSum(RockGen *g, int c, int lOld, int rowSum) {
  int cl = rock__genBin(g, "arith.mulf", c, lOld, "f32");
  return rock__genBin(g, "arith.addf", cl, rowSum, "f32");
}

int rock__attnMergeStates(RockGen *g, const RockAttn *a, int m1, int l1, int m2,
                          int l2, int *m, int *c1, int *c2) {
  if (!a->softmax) {
    *m = m1;
    *c1 = *c2 = rock__genConst(g, "1.0", "f32");
    return l1;
  }
  int mSafe;
  *c1 = advance(g, a, m1, m2, m, &mSafe);
  *c2 = expDiff(g, a, m2, mSafe);
  int l2s = rock__genBin(g, "arith.mulf", *c2, l2, "f32");
  return rock__attnRowSum(g, *c1, l1, l2s);
}

int rock__attnFinalGuard(RockGen *g, int l, int *lz) {
  int zf = rock__genConst(g, "0.0", "f32");
  *lz = rock__genBin(g, "arith.cmpf oeq,", l, zf, "f32");
  return l;
}

int rock__attnFinalO(RockGen *g, const RockAttn *a, int o, int lz, int inv,
                     int w) {
  if (a->softmax) {
    char tf[64], st[80];
    rock__typeStrS(tf, sizeof tf, "f32", w);
    /* A division, not a multiplication by 1 / l: one rounding. */
    int sc =
        rock__genBin(g, "arith.divf", o, rock__genBcast(g, inv, w, "f32"), tf);
    if (w > 1)
      snprintf(st, sizeof st, "i1, %s", tf);
    else
      snprintf(st, sizeof st, "f32");
    o = rock__genSelect(g, lz, rock__genZero(g, "f32", w), sc, st);
  }
  return rock__genConv(g, o, a->f32, a->to, w);
}

/* m + ln l of m and lg = log2 l, in type `ty` (f32 or f64): (m + lg) ln 2
 * with m in the exp2 domain (its rounding cancels against the sum's),
 * m + lg ln 2 in the scores' units. */
static int lseOf(RockGen *g, const RockAttn *a, int m, int lg, int ln2,
                 const char *ty) {
  if (expDomain(a))
    return rock__genBin(g, "arith.mulf",
                        rock__genBin(g, "arith.addf", m, lg, ty), ln2, ty);
  return rock__genBin(g, "arith.addf", m,
                      rock__genBin(g, "arith.mulf", lg, ln2, ty), ty);
}

int rock__attnLse(RockGen *g, const RockAttn *a, int l, int m, int lz) {
  int lg = a->tgt->log2(g, l);
  if (mlirTypeIsAF64(a->tl)) {
    /* An f64 LSE (the internal split's scratch): the sum is not rounded to
     * f32, so the combine's weights keep f32 accuracy however large |lse|
     * is. */
    int ninf = rock__genConst(g, "0xFFF0000000000000", "f64");
    int ln2 = rock__genConst(g, "0.69314718055994531", "f64");
    int r = lseOf(g, a, rock__genConv(g, m, a->f32, a->tl, 1),
                  rock__genConv(g, lg, a->f32, a->tl, 1), ln2, "f64");
    return rock__genSelect(g, lz, ninf, r, "f64");
  }
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int ln2 = rock__genConst(g, "0.69314718", "f32");
  int lse = rock__genSelect(g, lz, ninf, lseOf(g, a, m, lg, ln2, "f32"), "f32");
  return rock__genConv(g, lse, a->f32, a->tl, 1);
}

void rock__attnStoreLse(RockGen *g, const RockAttn *a, int cond, int l, int m,
                        int lz, int ob, int row) {
  char tl[32], ib[160];
  rock__typeStr(tl, sizeof tl, a->tl, 1);
  rock__genLine(g, "scf.if %%v%d {", cond);
  g->depth++;
  int lc = rock__attnLse(g, a, l, m, lz);
  rock__idx2(ib, sizeof ib, ob, row);
  rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lc, a->lse, ib,
                tl, a->ml);
  g->depth--;
  rock__genLine(g, "}");
}
