/*===- attention_wgmma_tile.c - one key tile on warpgroup MMA -------------===*
 *
 * The per-tile stages of the sm_90a prefill schedule (attention_wgmma.h).
 * A warpgroup owns 64 merged rows; its accumulators (S = Q·Kᵀ of m64 n mb,
 * O of m64 n Dv) give lane l of warp w (of the warpgroup) rows
 * 16w + (l % 32) / 4 + 8h, h = (e / 2) % 2, at column 8 (e / 4) + 2 (l % 4)
 * + e % 2 (rock__accelAccCoord): two rows per lane, each shared by the 4
 * lanes of a quad. The algorithm is passes/attention/'s, element by
 * element: the region, the score in the softmax type, the masks (only on
 * tiles that need them), the scaling by log2 e, the online softmax with its
 * -inf guard, P rounded to V's type, the finalisation and the LSE. P goes
 * from the S accumulator straight into P·V's A registers: the elements of
 * n8 blocks 2kk and 2kk + 1 are, in pairs, the four A registers of k16
 * step kk (the mma.sync A layout per warp).
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"

#include <stdio.h>

void rock__wgRows(RockGen *g, WgCtx *c) {
  RockAttn *a = c->a;
  int c4 = rock__genIndex(g, 4), c32 = rock__genIndex(g, 32);
  int wl = rock__genBin(g, "arith.remui", c->lane, c32, "index");
  c->col2t = rock__genBin(g, "arith.muli",
                          rock__genBin(g, "arith.remui", wl, c4, "index"),
                          rock__genIndex(g, 2), "index");
  int base = rock__genBin(
      g, "arith.addi",
      rock__genBin(g, "arith.muli", c->wgi, rock__genIndex(g, WG_ROWS),
                   "index"),
      rock__genBin(
          g, "arith.addi",
          rock__genBin(g, "arith.muli",
                       rock__genBin(g, "arith.divui", c->lane, c32, "index"),
                       rock__genIndex(g, 16), "index"),
          rock__genBin(g, "arith.divui", wl, c4, "index"), "index"),
      "index");
  for (int h = 0; h < 2; ++h) {
    c->row[h] =
        rock__genBin(g, "arith.addi", base, rock__genIndex(g, 8 * h), "index");
    int rc = rock__genBin(g, "arith.minui", c->row[h], c->lastRow, "index");
    c->x[h] = rock__attnRowIdx(g, c->wg.n0, rc, c->wg.bq0, c->cR);
    if (a->dynamic)
      c->last[h] = rock__attnRowLast(g, a, c->x[h]);
    if (a->hasLow)
      c->low[h] = rock__attnRowLow(g, a, c->x[h]);
  }
}

void rock__wgScoresDescs(RockGen *g, WgCtx *c, int st, WgDescs *d) {
  int kd = rock__wgTileDesc(g, c, &c->k, st);
  d->n = (int)(c->a->Dqk / 16);
  for (int s = 0; s < d->n; ++s) {
    d->a[s] = rock__accelWgmmaDescAdd(g, c->qDesc, rock__wgSlab(&c->q, s));
    d->b[s] = rock__accelWgmmaDescAdd(g, kd, rock__wgSlab(&c->k, s));
  }
}

int rock__wgScores(RockGen *g, WgCtx *c, const WgDescs *d) {
  int acc = -1;
  for (int s = 0; s < d->n; ++s)
    acc =
        rock__accelWgmmaIssue(g, &c->acS, NULL, d->a[s], d->b[s], c->k.mn, acc);
  rock__genLine(g, "nvvm.wgmma.commit.group.sync.aligned");
  return acc;
}

void rock__wgPVDescs(RockGen *g, WgCtx *c, int st, WgDescs *d) {
  int vd = rock__wgTileDesc(g, c, &c->v, st);
  d->n = c->mb / 16;
  for (int kk = 0; kk < d->n; ++kk)
    d->b[kk] = rock__accelWgmmaDescAdd(g, vd, rock__wgSlab(&c->v, kk));
}

int rock__wgPV(RockGen *g, WgCtx *c, const WgDescs *d, const int *pa, int o) {
  for (int kk = 0; kk < d->n; ++kk)
    o = rock__accelWgmmaIssue(g, &c->acO, pa + 4 * kk, -1, d->b[kk], true, o);
  rock__genLine(g, "nvvm.wgmma.commit.group.sync.aligned");
  return o;
}

/* The row (0 / 1) and column (index id) of accumulator element e. */
static int rowOf(int e) { return (e / 2) % 2; }
static int colOf(RockGen *g, const WgCtx *c, int e) {
  return rock__genBin(g, "arith.addi", c->col2t,
                      rock__genIndex(g, 8 * (e / 4) + e % 2), "index");
}

/* Reduces `v` over the quad of lanes sharing its row. */
static int quadReduce(RockGen *g, int v, const char *op) {
  int w = rock__genConst(g, "32", "i32");
  for (int off = 1; off < 4; off *= 2) {
    char lit[8];
    snprintf(lit, sizeof lit, "%d", off);
    int sh = rock__genFresh(g), ok = rock__genFresh(g);
    rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : f32",
                  sh, ok, v, rock__genConst(g, lit, "i32"), w);
    v = rock__genBin(g, op, v, sh, "f32");
  }
  return v;
}

/* Whether the tile at key j0 needs no mask (i1 id), or -1 when no tile
 * does (passes/attention/'s rule). */
static int fullTile(RockGen *g, const WgCtx *c, int j0) {
  return rock__attnTileUnmasked(g, c->a, j0, c->mb, c->minLast, c->maxLow, -1);
}

/* The scores of `sv` at keys j0 + column: region, raw score, masks (in an
 * scf.if branch taken only when the tile needs them), scaling. */
static void scores(RockGen *g, const WgCtx *c, int sv, int j0, int *xs) {
  const RockAttn *a = c->a;
  int n = c->acS.cElems, jj[WG_MAX_ACC];
  for (int e = 0; e < n; ++e) {
    int sc = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract %%v%d[%d] : f32 from vector<%dxf32>",
                  sc, sv, e, n);
    jj[e] = rock__genBin(g, "arith.addi", j0, colOf(g, c, e), "index");
    if (!mlirBlockIsNull(a->rblock)) {
      int jc = rock__genBin(g, "arith.minui", jj[e],
                            rock__genIndex(g, a->Sk - 1), "index");
      MlirType yt;
      int y = rock__attnRegion(g, a, sc, c->x[rowOf(e)], jc, &yt);
      xs[e] = rock__attnScore(g, a, y, yt, 1);
    } else {
      xs[e] = rock__attnScore(g, a, sc, a->acc, 1);
    }
  }
  int full = fullTile(g, c, j0), res0 = g->next;
  RockStr rl = {0}, tl = {0}, yl = {0};
  if (full >= 0) {
    for (int e = 0; e < n; ++e) {
      rock__strAppendf(&rl, "%s%%v%d", e ? ", " : "", rock__genFresh(g));
      rock__strAppendf(&tl, "%sf32", e ? ", " : "");
      rock__strAppendf(&yl, "%s%%v%d", e ? ", " : "", xs[e]);
    }
    rock__genLine(g, "%s = scf.if %%v%d -> (%s) {", rl.data, full, tl.data);
    rock__genLine(g, "  scf.yield %s : %s", yl.data, tl.data);
    rock__genLine(g, "} else {");
    g->depth++;
  }
  int mv = rock__attnMaskedValue(g, a, 1);
  for (int e = 0; e < n; ++e) {
    int h = rowOf(e);
    xs[e] = rock__attnMaskPad(g, a, xs[e], jj[e], mv, 1);
    if (a->dynamic)
      xs[e] = rock__attnMaskLast(g, xs[e], jj[e], c->last[h], mv, 1);
    if (a->hasLow)
      xs[e] = rock__attnMaskLow(g, xs[e], jj[e], c->low[h], mv, 1);
  }
  if (full >= 0) {
    rock__strFree(&yl);
    for (int e = 0; e < n; ++e)
      rock__strAppendf(&yl, "%s%%v%d", e ? ", " : "", xs[e]);
    rock__genLine(g, "scf.yield %s : %s", yl.data, tl.data);
    g->depth--;
    rock__genLine(g, "}");
    for (int e = 0; e < n; ++e)
      xs[e] = res0 + e;
  }
  rock__strFree(&rl);
  rock__strFree(&tl);
  rock__strFree(&yl);
}

/* Two f32 values of P as one i32 of two V-type elements. */
static int pack2(RockGen *g, const RockAttn *a, int lo, int hi) {
  int v2 = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.from_elements %%v%d, %%v%d : vector<2xf32>",
                v2, lo, hi);
  int h = rock__genConv(g, v2, a->f32, a->tv, 2);
  char ty[32];
  rock__typeStr(ty, sizeof ty, a->tv, 2);
  int b = rock__genFresh(g), r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.bitcast %%v%d : %s to vector<1xi32>", b, h,
                ty);
  rock__genLine(g, "%%v%d = vector.extract %%v%d[0] : i32 from vector<1xi32>",
                r, b);
  return r;
}

void rock__wgSoftmax(RockGen *g, WgCtx *c, int sv, int j0, const int *mOld,
                     const int *lOld, int *mNew, int *lNew, int *cr, int *pa) {
  const RockAttn *a = c->a;
  int n = c->acS.cElems, xs[WG_MAX_ACC], pu[WG_MAX_ACC];
  scores(g, c, sv, j0, xs);
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int nth = 0; /* the scores' count, for rock.gpu_wgmma_exp2_fma */
  for (int h = 0; h < 2; ++h) {
    mNew[h] = mOld[h], lNew[h] = lOld[h], cr[h] = -1;
    if (!a->softmax) {
      for (int e = 0; e < n; ++e)
        if (rowOf(e) == h)
          pu[e] = xs[e];
      continue;
    }
    int tileMax = ninf;
    for (int e = 0; e < n; ++e)
      if (rowOf(e) == h)
        tileMax = rock__genBin(g, "arith.maxnumf", tileMax, xs[e], "f32");
    tileMax = quadReduce(g, tileMax, "arith.maxnumf");
    int mSafe;
    cr[h] = c->lazy
                ? rock__attnRescaleLazy(g, a, mOld[h], tileMax, &mNew[h],
                                        &mSafe, &c->moved[h])
                : rock__attnRescale(g, a, mOld[h], tileMax, &mNew[h], &mSafe);
    int rowSum = zf;
    for (int e = 0; e < n; ++e)
      if (rowOf(e) == h) {
        int pr;
        pu[e] = c->exp2Fma && ++nth % c->exp2Fma == 0
                    ? rock__attnProbFma(g, a, xs[e], mSafe, &pr)
                    : rock__attnProb(g, a, xs[e], mSafe, 1, &pr);
        rowSum = rock__genBin(g, "arith.addf", rowSum, pu[e], "f32");
      }
    lNew[h] = rock__attnRowSum(g, cr[h], lOld[h], rowSum);
  }
  for (int kk = 0; kk < c->mb / 16; ++kk)
    for (int q = 0; q < 4; ++q) {
      int e = 4 * (2 * kk + q / 2) + 2 * (q % 2);
      pa[4 * kk + q] = pack2(g, a, pu[e], pu[e + 1]);
    }
}

/* O times the rows' factors cr. Lazy: only where some row of the warp
 * moved its maximum (a warp-uniform branch; the other rows' factors are
 * exactly 1). */
int rock__wgRescale(RockGen *g, WgCtx *c, int o, const int *cr) {
  if (cr[0] < 0)
    return o;
  int n = c->acO.cElems;
  char vt[32];
  rock__typeStrS(vt, sizeof vt, "f32", n);
  int any = -1, res = -1;
  if (c->lazy) {
    int mv = rock__genBin(g, "arith.ori", c->moved[0], c->moved[1], "i1");
    any = rock__genFresh(g);
    rock__genLine(g, "%%v%d = nvvm.vote.sync any %%v%d, %%v%d -> i1", any,
                  rock__genConst(g, "-1", "i32"), mv);
    res = rock__genFresh(g);
    rock__genLine(g, "%%v%d = scf.if %%v%d -> (%s) {", res, any, vt);
    g->depth++;
  }
  RockStr list = {0};
  for (int e = 0; e < n; ++e)
    rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", cr[rowOf(e)]);
  int cv = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.from_elements %s : %s", cv, list.data, vt);
  rock__strFree(&list);
  int r = rock__genBinF(g, "arith.mulf", o, cv, vt);
  if (!c->lazy)
    return r;
  rock__genLine(g, "scf.yield %%v%d : %s", r, vt);
  g->depth--;
  rock__genLine(g, "} else {");
  rock__genLine(g, "  scf.yield %%v%d : %s", o, vt);
  rock__genLine(g, "}");
  return res;
}

void rock__wgFinish(RockGen *g, WgCtx *c, int o, const int *m, const int *l) {
  RockAttn *a = c->a;
  int n = c->acO.cElems;
  char to[32], ib[160], vt[32];
  rock__typeStr(to, sizeof to, a->to, 1);
  rock__typeStrS(vt, sizeof vt, "f32", n);
  int first = rock__genBin(
      g, "arith.cmpi eq,",
      rock__genBin(g, "arith.remui", c->lane, rock__genIndex(g, 4), "index"),
      rock__genIndex(g, 0), "index");
  for (int h = 0; h < 2; ++h) {
    int lh = a->softmax ? quadReduce(g, l[h], "arith.addf") : l[h];
    int real =
        rock__genBin(g, "arith.cmpi ult,", c->row[h], c->wg.nRows, "index");
    rock__genLine(g, "scf.if %%v%d {", real);
    g->depth++;
    int ob = rock__attnOutRow(g, a, c->x[h].bq, c->wg.split);
    int lz, inv = rock__attnFinalGuard(g, lh, &lz);
    for (int e = 0; e < n; ++e) {
      if (rowOf(e) != h)
        continue;
      int oe = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : f32 from %s", oe, o,
                    e, vt);
      int oc = rock__attnFinalO(g, a, oe, lz, inv, 1);
      rock__idx3(ib, sizeof ib, ob, c->x[h].i, colOf(g, c, e));
      rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", oc, a->out,
                    ib, to, a->mo);
    }
    if (a->hasLse && a->softmax)
      rock__attnStoreLse(g, a, first, lh, m[h], lz, ob, c->x[h].i);
    g->depth--;
    rock__genLine(g, "}");
  }
}
