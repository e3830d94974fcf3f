/*===- attention_accel_kernel.c - the tensor-core schedule's kernel -------===*
 *
 * The kernel of the tensor-core attention schedule (attention_accel.h,
 * planned by attention_accel.c): rock__tcGenerate drives the stages below
 * over one AccGen: the launch and its workgroup memory views, the rows'
 * set-up and the block's key range, the first K tile in flight, Q staged
 * and its fragments, then per key tile the staging at its top, S = Q·Kᵀ
 * and the scores, the masks, the online softmax, O = c·O + P·V with the
 * staging between and after, and the finalisation (O, LSE, the fused
 * merge of the split).
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_accel.h"
#include "gpu/fused_combine.h"

#include <stdio.h>
#include <string.h>

/* The distinct row (0..nr-1) of accumulator element e. */
static int rowOf(const AccSched *s, int e) {
  return s->ac.kind == ROCK_ACCEL_MMA_SYNC ? e / 2 : e;
}

static int shuffleXor(RockGen *g, const AccSched *s, int v, int off) {
  char lit[16];
  snprintf(lit, sizeof lit, "%d", off);
  snprintf(lit + 8, 8, "%d", s->ac.wave);
  int o = rock__genConst(g, lit, "i32"), w = rock__genConst(g, lit + 8, "i32");
  int sh = rock__genFresh(g), ok = rock__genFresh(g);
  rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : f32",
                sh, ok, v, o, w);
  return sh;
}

/* Reduces `v` (max or add) over the lanes that share its row. */
static int rowReduce(RockGen *g, const AccSched *s, int v, const char *op) {
  int lanes = s->ac.kind == ROCK_ACCEL_MMA_SYNC ? 4 : 16;
  for (int off = 1; off < lanes; off *= 2)
    v = rock__genBin(g, op, v, shuffleXor(g, s, v, off), "f32");
  return v;
}

/* The tile products of one warp on instruction `ac` against a tile of `nt`
 * n-columns: acc[t] (+)= A_k · B(col t·n, k) over k < nk; B from `mem`
 * (`mt`) stored [col][k] when kContig, else [k][col], with ldmatrix when
 * `ldm`; A fragment k is af[k]. */
static void tileProducts(RockGen *g, const RockAccel *ac, bool ldm,
                         const int *af, int nk, int mem, const char *mt,
                         bool kContig, bool swz, int lane, int nt, int *acc) {
  for (int k = 0; k < nk; ++k) {
    int k0 = rock__genIndex(g, k * ac->k);
    if (ldm) {
      for (int t = 0; t < nt; t += 2) {
        int b[2];
        rock__accelLdmB2(g, ac, mem, mt, kContig, swz,
                         rock__genIndex(g, t * ac->n), k0, lane, b);
        for (int h = 0; h < 2; ++h)
          acc[t + h] = rock__accelMma(g, ac, af[k], b[h], acc[t + h]);
      }
      continue;
    }
    for (int t = 0; t < nt; ++t)
      acc[t] = rock__accelMma(g, ac, af[k],
                              rock__accelLoadB(g, ac, mem, mt, kContig,
                                               rock__genIndex(g, t * ac->n), k0,
                                               lane),
                              acc[t]);
  }
}

/* S = Q·Kᵀ of the warpgroup on wgmma (s->wgS): Dqk / 16 products of
 * m64 n MB k16 from the staged Q [64][Dqk] and K [MB][Dqk]; warp w's share
 * of the accumulator, cut by 4, is its tiles of acS (same layout). */
static void gemm0Wgmma(RockGen *g, const AccSched *s, int sQ, const char *mQ,
                       int sK, const char *mK, int *sacc) {
  const RockAccel *acW = &s->acW;
  int c0 = rock__genIndex(g, 0);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int acc = rock__accelZero(g, acW);
  for (int k = 0; k < s->ks; ++k) {
    int ck = rock__genIndex(g, k * acW->k);
    int da = rock__accelWgmmaDesc(g, acW, sQ, mQ,
                                  rock__accelWgmmaIndex(g, s->nb, c0, ck));
    int db = rock__accelWgmmaDesc(g, acW, sK, mK,
                                  rock__accelWgmmaIndex(g, s->mb, c0, ck));
    acc = rock__accelMma(g, acW, da, db, acc);
  }
  rock__accelWgmmaEnd(g);
  for (int jt = 0; jt < s->ntS; ++jt) {
    sacc[jt] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract_strided_slice %%v%d {offsets = [%d], "
                  "sizes = [%d], strides = [1]} : vector<%dxf32> to "
                  "vector<%dxf32>",
                  sacc[jt], acc, jt * s->acS.cElems, s->acS.cElems, acW->cElems,
                  s->acS.cElems);
  }
}

/* The key loop's barrier: the workgroup's, or with key warps (s->kw > 1,
 * each warp on its own K / V slot and tiles) the warp's. */
static void loopSync(AccGen *c) {
  if (c->s->kw > 1)
    rock__genLine(c->g, "nvvm.bar.warp.sync %%v%d : i32",
                  rock__genConst(c->g, "-1", "i32"));
  else
    rock__genLine(c->g, "gpu.barrier");
}

/* Key warps (s->kw > 1): Q, and warp kwarp's K and V slots of the one
 * buffer (kStage / vStage bytes apart). */
static void keyWarpViews(AccGen *c) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int cw = rock__genIndex(g, s->ac.wave);
  int w = rock__genBin(g, "arith.divui", c->tx, cw, "index");
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", c->sQ,
                c->sB, rock__genIndex(g, s->qOff), c->mB, c->mQ);
  c->sK = rock__tcSlotView(c, c->mK, s->kOff, s->kStage, w);
  c->sV = rock__tcSlotView(c, c->mV, s->vOff, s->vStage, w);
}

/* The workgroup memory types, the constants the stages share and the
 * launch: one buffer viewed as Q, K, V with ldmatrix; else Q, K, V and P's
 * buffer unless P stays in registers. */
static void launch(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const char *wg_ = "#gpu.address_space<workgroup>";
  snprintf(c->mQ, sizeof c->mQ, "memref<%dx%lldx%s, %s>", s->nb,
           (long long)s->pq, s->eltQK, wg_);
  snprintf(c->mK, sizeof c->mK, "memref<%lldx%lldx%s, %s>",
           (long long)(s->kT ? a->Dqk : s->mb), (long long)s->pk, s->eltQK,
           wg_);
  snprintf(c->mV, sizeof c->mV, "memref<%dx%lldx%s, %s>", s->mb,
           (long long)s->pv, s->elt, wg_);
  snprintf(c->mP, sizeof c->mP, "memref<%dx%dx%s, %s>", s->nb, s->mb, s->elt,
           wg_);
  rock__typeStrS(c->vt, sizeof c->vt, "f32", s->ac.cElems);
  rock__typeStrS(c->vtS, sizeof c->vtS, s->acS.acc, s->acS.cElems);
  int c1 = c->c1 = rock__genIndex(g, 1);
  c->nThreads = s->w * s->kw * s->ac.wave;
  c->ninf = rock__genConst(g, ROCK_NINF, "f32");
  c->zf = rock__genConst(g, "0.0", "f32");
  int v[12];
  for (int i = 0; i < 12; ++i)
    v[i] = rock__genFresh(g);
  c->sQ = rock__genFresh(g);
  c->sK = rock__genFresh(g);
  c->sV = rock__genFresh(g);
  c->sP = rock__genFresh(g);
  c->sB = rock__genFresh(g);
  snprintf(c->mB, sizeof c->mB, "memref<%lldxi8, %s>", (long long)s->bytes,
           wg_);
  rock__genLine(
      g,
      "gpu.launch blocks(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, %%v%d = "
      "%%v%d, %%v%d = %%v%d) threads(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, "
      "%%v%d = %%v%d, %%v%d = %%v%d) workgroup(",
      v[0], v[1], v[2], v[3], rock__genIndex(g, a->grid), v[4], c1, v[5], c1,
      v[6], v[7], v[8], v[9], rock__genIndex(g, c->nThreads), v[10], c1, v[11],
      c1);
  if (s->ldm)
    rock__strAppendf(&g->body, "%%v%d : %s) {\n", c->sB, c->mB);
  else
    rock__strAppendf(&g->body, "%%v%d : %s, %%v%d : %s, %%v%d : %s%s", c->sQ,
                     c->mQ, c->sK, c->mK, c->sV, c->mV, s->pReg ? ") {\n" : "");
  if (!s->ldm && !s->pReg)
    rock__strAppendf(&g->body, ", %%v%d : %s) {\n", c->sP, c->mP);
  g->depth++;
  rock__attnPdlTrigger(g, a);
  c->bx = v[0], c->tx = v[6];
}

/* The views of the one buffer, the K^T pair slot, the key-major K and page
 * pointer views, and the lane's warp and rows. */
static void setUp(AccGen *c) {
  RockGen *g = c->g;
  RockAttn *a = c->a;
  const AccSched *s = c->s;
  if (s->kw > 1) {
    keyWarpViews(c);
  } else if (s->ldm) {
    const int ids[3] = {c->sQ, c->sK, c->sV};
    const int64_t offs[3] = {s->qOff, s->kOff, s->vOff};
    const char *tys[3] = {c->mQ, c->mK, c->mV};
    for (int i = 0; i < 3; ++i)
      rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", ids[i],
                    c->sB, rock__genIndex(g, offs[i]), c->mB, tys[i]);
  }
  c->sK0 = c->sK, c->sK1 = -1; /* K^T pairs: the two slots */
  if (s->kPair)
    c->sK1 = rock__tcKSlot(c, rock__genIndex(g, 1));
  c->ktv = s->kT ? rock__attnKeyMajorK(g, a, c->mkt, sizeof c->mkt) : -1;
  memset(&c->ahead, 0, sizeof c->ahead);
  if (s->pgK)
    c->ahead.pk = rock__gpuPagePtrView(g, &s->pvK, a->extraId[s->xK],
                                       c->ahead.mk, sizeof c->ahead.mk);
  if (s->pgV)
    c->ahead.pv = rock__gpuPagePtrView(g, &s->pvV, a->extraId[s->xV],
                                       c->ahead.mv, sizeof c->ahead.mv);
  int cw = rock__genIndex(g, s->ac.wave);
  c->lane = rock__genBin(g, "arith.remui", c->tx, cw, "index");
  c->warp = rock__genBin(g, "arith.divui", c->tx, cw, "index");
  c->ktx = c->tx, c->kThreads = c->nThreads, c->kwarp = -1;
  if (s->kw > 1) /* key warps: one warp's rows, each copying its own tiles */
    c->kwarp = c->warp, c->warp = rock__genIndex(g, 0), c->ktx = c->lane,
    c->kThreads = s->ac.wave;
  c->row0 =
      rock__genBin(g, "arith.muli", c->warp, rock__genIndex(g, 16), "index");
  c->cR = rock__genIndex(g, a->R);
  c->wg = rock__attnWorkgroup(g, a, c->bx);
  c->lastRow = rock__genBin(g, "arith.subi", c->wg.nRows, c->c1, "index");
}

/* The block's key range (uniform): every row of the block; with ldmatrix,
 * also the keys every row of the block sees (minLast, maxLow): tiles
 * inside them need no masks. */
static void blockKeys(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  c->eff = c->lowKey = c->minLast = c->maxLow = -1;
  if (a->dynamic) {
    c->eff = rock__genIndex(g, -1);
    c->lowKey = rock__genIndex(g, a->Sk);
    c->minLast = rock__genIndex(g, a->Sk);
    c->maxLow = rock__genIndex(g, 0);
    for (int r = 0; r < s->nb; ++r) {
      int rc = rock__genBin(g, "arith.minui", rock__genIndex(g, r), c->lastRow,
                            "index");
      RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, rc, c->wg.bq0, c->cR);
      int last = rock__attnRowLast(g, a, x);
      c->eff = rock__attnBlockLast(g, c->eff, last);
      if (s->ldm)
        c->minLast = rock__genBin(g, "arith.minsi", c->minLast, last, "index");
      if (a->hasLow) {
        int low = rock__attnRowLow(g, a, x);
        c->lowKey = rock__attnBlockLow(g, c->lowKey, low);
        if (s->ldm)
          c->maxLow = rock__genBin(g, "arith.maxsi", c->maxLow, low, "index");
      }
    }
  }
  rock__attnTileRange(g, a, c->wg.split, c->eff, c->lowKey, &c->start, &c->end);
  /* key warps: warp w's tiles start + w, start + w + kw, ... */
  c->step = s->kw > 1 ? rock__genIndex(g, s->kw) : c->c1;
  if (s->kw > 1)
    c->start = rock__genBin(g, "arith.addi", c->start, c->kwarp, "index");
}

/* Q [NB][Dqk] into workgroup memory (rows past the block's clamped), then
 * (after the barrier) its A fragments (not with wgmma, which reads Q from
 * workgroup memory). */
static void stageQ(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  int i = rock__genFor(g, c->tx, rock__genIndex(g, (int64_t)s->nb * s->nchq),
                       rock__genIndex(g, c->nThreads));
  int r, d;
  rock__tcRowChunk(g, s->wgS, i, s->nchq, s->vecQK, &r, &d);
  int rc = rock__genBin(g, "arith.minui", r, c->lastRow, "index");
  RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, rc, c->wg.bq0, c->cR);
  char ty[32], ib[160];
  rock__typeStr(ty, sizeof ty, a->tq, s->vecQK);
  rock__idx3(ib, sizeof ib, x.bq, x.i, d);
  int q = rock__tcLoadChunk(g, a->q, ib, a->mq, ty);
  int i0, i1;
  rock__tcChunkAt(g, s->swzQ, s->wgS, s->nb, s->pq, r, d, &i0, &i1);
  rock__tcStoreChunk(g, q, c->sQ, c->mQ, ty, i0, i1, false);
  rock__genEnd(g);

  if (s->wgS)
    rock__accelWgmmaProxyFence(g);
  rock__genLine(g, "gpu.barrier");
  const RockAccel *acS = &s->acS;
  for (int k = 0; k < (s->wgS ? 0 : s->ks); ++k)
    c->qf[k] = s->ldmS
                   ? rock__accelLdmA(g, acS, c->sQ, c->mQ, s->swzQ, c->row0,
                                     rock__genIndex(g, k * acS->k), c->lane)
                   : rock__accelLoadA(g, acS, c->sQ, c->mQ, true, c->row0,
                                      rock__genIndex(g, k * acS->k), c->lane);
}

/* This lane's rows: warp row, indices, key limits; the accumulator
 * columns. */
static void laneRows(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  for (int e = 0; e < s->ac.cElems; ++e) {
    int r, col;
    rock__accelAccCoord(g, &s->ac, c->lane, e, &r, &col);
    c->col[e] = col;
    int ri = rowOf(s, e);
    if (e != 0 && rowOf(s, e - 1) == ri)
      continue;
    c->wrow[ri] = rock__genBin(g, "arith.addi", c->row0, r, "index");
    int rc = rock__genBin(g, "arith.minui", c->wrow[ri], c->lastRow, "index");
    c->x[ri] = rock__attnRowIdx(g, c->wg.n0, rc, c->wg.bq0, c->cR);
    if (a->dynamic) {
      c->last[ri] = rock__attnRowLast(g, a, c->x[ri]);
      if (a->hasLow)
        c->low[ri] = rock__attnRowLow(g, a, c->x[ri]);
    }
  }
}

/* The key-tile loop over [start, end): state m, l (per row, l per lane),
 * O tiles, and the page-run pointers of V(kt) (V(kt + 1) with s->ovl) and
 * K(kt + 1); opens the loop (c->kt, c->args). */
static void keyLoop(AccGen *c) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int nSt = 0;
  int zv = rock__genZero(g, "f32", s->ac.cElems);
  for (int r = 0; r < s->nr; ++r)
    c->init[nSt] = c->ninf, c->tys[nSt++] = "f32";
  for (int r = 0; r < s->nr; ++r)
    c->init[nSt] = c->zf, c->tys[nSt++] = "f32";
  for (int d = 0; d < s->ntD; ++d)
    c->init[nSt] = zv, c->tys[nSt++] = c->vt;
  c->pgV0 = nSt, c->pgK0 = nSt + (s->pgV ? s->plV.nRuns : 0);
  if (s->pgV)
    rock__tcPagePtrs(c, true, s->ovl ? rock__tcAhead(c, c->start, 1) : c->start,
                     c->init + c->pgV0);
  if (s->pgK)
    rock__tcPagePtrs(c, false, rock__tcAhead(c, c->start, 1),
                     c->init + c->pgK0);
  for (; nSt < c->pgK0 + (s->pgK ? s->plK.nRuns : 0); ++nSt)
    c->tys[nSt] = "i64";
  c->nSt = nSt;
  rock__genForTyped(g, c->start, c->end, c->step, nSt, c->init, c->tys, &c->kt,
                    c->args, c->res);
}

/* The staging at the top of tile kt: the ring's slot; with the overlap
 * K(kt) landed; with the two-buffer staging K(kt) landed and V(kt)
 * issued; through registers (no ldmatrix) K and V of the tile staged. */
static void tileTop(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  (void)rock__attnTileCols(g, a, c->kt, &c->j0);
  if (s->kPair)
    c->sK = rock__tcKSlot(c, rock__tcRingIndex(g, 2, c->kt, c->start));
  if (s->st) {
    rock__tcRingTop(c);
  } else if (s->ovl) {
    /* K(kt) has landed (V(kt) may still be in flight). */
    rock__genLine(g, "nvvm.cp.async.wait.group 1");
    loopSync(c);
    if (s->l2Ahead)
      rock__tcPrefetchTile(c, rock__genBin(g, "arith.addi", c->kt,
                                           rock__genIndex(g, s->l2Ahead),
                                           "index"));
  } else if (s->ldm) {
    /* K(kt) has landed and every warp is past P·V of the last tile: V(kt)
     * streams in during Q·Kᵀ. */
    rock__genLine(g, "nvvm.cp.async.wait.group 0");
    if (s->wgS)
      rock__accelWgmmaProxyFence(g);
    loopSync(c);
    if (s->pgV)
      rock__tcPageStage(c, true, c->args + c->pgV0, c->sV, c->mV);
    else
      rock__tcStageKeys(c, a->v, a->mv, a->tv, VEC, c->j0, s->nchv, c->sV,
                        c->mV, s->swzV, false, true);
    rock__genLine(g, "nvvm.cp.async.commit.group");
    if (s->pgV)
      rock__tcPagePtrs(c, true, rock__tcAhead(c, c->kt, 1), c->next + c->pgV0);
    if (s->l2Ahead)
      rock__tcPrefetchTile(c, rock__genBin(g, "arith.addi", c->kt,
                                           rock__genIndex(g, s->l2Ahead),
                                           "index"));
  } else {
    rock__genLine(g, "gpu.barrier");
    rock__tcStageK(c, c->j0, c->sK, c->mK, false);
    rock__tcStageKeys(c, a->v, a->mv, a->tv, VEC, c->j0, s->nchv, c->sV, c->mV,
                      false, false, false);
    rock__genLine(g, "gpu.barrier");
  }
}

/* S = Q·Kᵀ (with the overlap, K(kt + 1) issued once every warp has read
 * K(kt)), then the scores of every accumulator element (the region's on
 * the raw score when there is one). */
static void scores(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const RockAccel *ac = &s->ac, *acS = &s->acS;
  c->mv = rock__attnMaskedValue(g, a, 1);
  for (int jt = 0; jt < s->ntS; ++jt)
    c->sacc[jt] = rock__accelZero(g, acS);
  if (s->wgS)
    gemm0Wgmma(g, s, c->sQ, c->mQ, c->sK, c->mK, c->sacc);
  else
    tileProducts(g, acS, s->ldmS, c->qf, s->ks, c->sK, c->mK, !s->kT, s->swzK,
                 c->lane, s->ntS, c->sacc);
  c->more = -1;
  if (s->ovl) {
    /* Every warp has read K(kt): K(kt + 1) streams in from here on. */
    loopSync(c);
    c->more = rock__genBin(g, "arith.cmpi ult,", rock__tcAhead(c, c->kt, 1),
                           c->end, "index");
    rock__tcNextK(c, c->more, c->sK);
  }
  for (int jt = 0; jt < s->ntS; ++jt) {
    int acc = c->sacc[jt];
    for (int e = 0; e < ac->cElems; ++e) {
      int ri = rowOf(s, e);
      int sc = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", sc, acc,
                    e, acS->acc, c->vtS);
      int jj = rock__genBin(g, "arith.addi", c->j0,
                            rock__genBin(g, "arith.addi",
                                         rock__genIndex(g, jt * ac->n),
                                         c->col[e], "index"),
                            "index");
      int xv;
      if (!mlirBlockIsNull(a->rblock)) {
        int jc = rock__genBin(g, "arith.minui", jj,
                              rock__genIndex(g, a->Sk - 1), "index");
        MlirType yt;
        int y = rock__attnRegion(g, a, sc, c->x[ri], jc, &yt);
        xv = rock__attnScore(g, a, y, yt, 1);
      } else {
        xv = rock__attnScore(g, a, sc, a->acc, 1);
      }
      c->xs[jt][e] = xv;
      c->jjs[jt][e] = jj;
    }
  }
}

/* With ldmatrix, whether tile kt needs no masks (an i1: no key tail, not
 * past any row's last key, not before any row's window); -1 when every
 * tile takes them. */
static int fullTile(AccGen *c) {
  if (!c->s->ldm)
    return -1;
  return rock__attnTileUnmasked(c->g, c->a, c->j0, c->s->mb, c->minLast,
                                c->maxLow, c->c1);
}

/* The scores of the tile as a list (`%vA, %vB, ...`) into *l. */
static void scoreList(const AccGen *c, RockStr *l) {
  int ce = c->s->ac.cElems;
  for (int i = 0; i < c->s->ntS * ce; ++i)
    rock__strAppendf(l, "%s%%v%d", i ? ", " : "", c->xs[i / ce][i % ce]);
}

/* The masks (key tail, past the row's last key, before its window); with
 * ldmatrix only on the tiles that need them (fullTile: an scf.if that
 * yields the scores unmasked on the others). */
static void masks(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const RockAccel *ac = &s->ac;
  int full = fullTile(c);
  int nx = s->ntS * ac->cElems, res0 = g->next;
  RockStr rl = {0}, tl = {0}, yl = {0};
  if (full >= 0) {
    for (int i = 0; i < nx; ++i) {
      rock__strAppendf(&rl, "%s%%v%d", i ? ", " : "", rock__genFresh(g));
      rock__strAppendf(&tl, "%sf32", i ? ", " : "");
    }
    scoreList(c, &yl);
    rock__genLine(g, "%s = scf.if %%v%d -> (%s) {", rl.data, full, tl.data);
    rock__genLine(g, "  scf.yield %s : %s", yl.data, tl.data);
    rock__genLine(g, "} else {");
    g->depth++;
  }
  for (int jt = 0; jt < s->ntS; ++jt)
    for (int e = 0; e < ac->cElems; ++e) {
      int ri = rowOf(s, e), xv = c->xs[jt][e], jj = c->jjs[jt][e];
      xv = rock__attnMaskPad(g, a, xv, jj, c->mv, 1);
      if (a->dynamic)
        xv = rock__attnMaskLast(g, xv, jj, c->last[ri], c->mv, 1);
      if (a->hasLow)
        xv = rock__attnMaskLow(g, xv, jj, c->low[ri], c->mv, 1);
      c->xs[jt][e] = xv;
    }
  if (full >= 0) {
    rock__strFree(&yl);
    scoreList(c, &yl);
    rock__genLine(g, "scf.yield %s : %s", yl.data, tl.data);
    g->depth--;
    rock__genLine(g, "}");
    for (int i = 0; i < nx; ++i)
      c->xs[i / ac->cElems][i % ac->cElems] = res0 + i;
  }
  rock__strFree(&rl);
  rock__strFree(&tl);
  rock__strFree(&yl);
}

/* The online softmax per row (m, l into the next state, the rescale
 * factors c->cr); P (c->pr rounded, c->pu not) of every element; P into
 * workgroup memory in V's type unless it stays in registers. */
static void softmax(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const RockAccel *ac = &s->ac;
  const int *mOld = c->args, *lOld = c->args + s->nr;
  int *mNext = c->next, *lNext = c->next + s->nr;
  for (int r = 0; r < s->nr; ++r) {
    c->cr[r] = -1;
    mNext[r] = mOld[r];
    lNext[r] = lOld[r];
  }
  if (a->softmax) {
    for (int r = 0; r < s->nr; ++r) {
      int tileMax = c->ninf;
      for (int jt = 0; jt < s->ntS; ++jt)
        for (int e = 0; e < ac->cElems; ++e)
          if (rowOf(s, e) == r)
            tileMax =
                rock__genBin(g, "arith.maxnumf", tileMax, c->xs[jt][e], "f32");
      tileMax = rowReduce(g, s, tileMax, "arith.maxnumf");
      int mSafe;
      c->cr[r] = rock__attnRescale(g, a, mOld[r], tileMax, &mNext[r], &mSafe);
      int rowSum = c->zf;
      for (int jt = 0; jt < s->ntS; ++jt)
        for (int e = 0; e < ac->cElems; ++e)
          if (rowOf(s, e) == r) {
            int p = rock__attnProb(g, a, c->xs[jt][e], mSafe, 1, &c->pr[jt][e]);
            c->pu[jt][e] = p;
            rowSum = rock__genBin(g, "arith.addf", rowSum, p, "f32");
          }
      lNext[r] = rock__attnRowSum(g, c->cr[r], lOld[r], rowSum);
    }
  } else {
    for (int jt = 0; jt < s->ntS; ++jt)
      for (int e = 0; e < ac->cElems; ++e) {
        c->pr[jt][e] = rock__attnProbPlain(g, a, c->xs[jt][e], 1);
        c->pu[jt][e] = c->xs[jt][e];
      }
  }
  for (int jt = 0; jt < s->ntS && !s->pReg; ++jt)
    for (int e = 0; e < ac->cElems; ++e) {
      int p = rock__genConv(g, c->pr[jt][e], a->f32, a->tv, 1);
      int r = c->wrow[rowOf(s, e)];
      int col = rock__genBin(g, "arith.addi", c->col[e],
                             rock__genIndex(g, jt * ac->n), "index");
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", p, c->sP,
                    r, col, c->mP);
    }
  if (!s->pReg)
    rock__genLine(g, "gpu.barrier");
}

/* O = c·O into the next state (the rows' rescale factors as one vector),
 * then the staging before P·V: with the overlap V(kt) landed; with the
 * two-buffer staging V(kt) landed and K(kt + 1) issued (K^T pairs: every
 * second tile K(kt + 1), K(kt + 2)). */
static void rescaleO(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const int *oOld = c->args + 2 * s->nr;
  int *oNext = c->next + 2 * s->nr;
  int cv = -1;
  if (a->softmax) {
    RockStr list = {0};
    for (int e = 0; e < s->ac.cElems; ++e)
      rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", c->cr[rowOf(s, e)]);
    cv = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.from_elements %s : %s", cv, list.data,
                  c->vt);
    rock__strFree(&list);
  }
  for (int d = 0; d < s->ntD; ++d)
    oNext[d] =
        cv >= 0 ? rock__genBinF(g, "arith.mulf", oOld[d], cv, c->vt) : oOld[d];
  if (s->ovl) {
    /* V(kt) has landed (K(kt + 1) may still be in flight). */
    rock__genLine(g, "nvvm.cp.async.wait.group 1");
    loopSync(c);
  } else if (s->ldm && !s->st) {
    /* V(kt) has landed and every warp is past Q·Kᵀ: K(kt + 1) streams in
     * during P·V. */
    rock__genLine(g, "nvvm.cp.async.wait.group 0");
    loopSync(c);
    int more = rock__genBin(g, "arith.cmpi ult,", rock__tcAhead(c, c->kt, 1),
                            c->end, "index");
    if (s->kPair) /* every second tile: K(kt + 1), K(kt + 2) */
      more = rock__genBin(g, "arith.andi", more,
                          rock__genBin(g, "arith.cmpi eq,",
                                       rock__tcRingIndex(g, 2, c->kt, c->start),
                                       c->c1, "index"),
                          "i1");
    c->more = more;
    rock__tcNextK(c, more, c->sK0);
  }
}

/* A fragment kk of P·V with P in registers: S tiles 2kk and 2kk + 1 in
 * accumulator order (accel.c), converted in pairs (cvt.rn.bf16x2 /
 * f16x2). */
static int pFragment(AccGen *c, int kk) {
  RockGen *g = c->g;
  const RockAccel *ac = &c->s->ac;
  int pair[4];
  for (int h = 0; h < 2; ++h)
    for (int e = 0; e < ac->cElems; e += 2) {
      int v2 = rock__genFresh(g);
      rock__genLine(g,
                    "%%v%d = vector.from_elements %%v%d, %%v%d : "
                    "vector<2xf32>",
                    v2, c->pu[2 * kk + h][e], c->pu[2 * kk + h][e + 1]);
      pair[2 * h + e / 2] = rock__genConv(g, v2, c->a->f32, c->a->tv, 2);
    }
  int lo = rock__genFresh(g), hi = rock__genFresh(g);
  const char *sh = "%%v%d = vector.shuffle %%v%d, %%v%d [0, 1, 2, 3] : "
                   "vector<2x%s>, vector<2x%s>";
  rock__genLine(g, sh, lo, pair[0], pair[1], ac->elt, ac->elt);
  rock__genLine(g, sh, hi, pair[2], pair[3], ac->elt, ac->elt);
  int pa = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = vector.shuffle %%v%d, %%v%d [0, 1, 2, 3, 4, 5, "
                "6, 7] : vector<4x%s>, vector<4x%s>",
                pa, lo, hi, ac->elt, ac->elt);
  return pa;
}

/* O += P·V (P's fragments from registers or from workgroup memory), then
 * with the overlap V(kt + 1) issued once every warp has read V(kt); the
 * loop's yield. */
static void pv(AccGen *c) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  const RockAccel *ac = &s->ac;
  int pa[MAXNT];
  for (int kk = 0; kk < s->mb / ac->k; ++kk)
    pa[kk] = s->pReg ? pFragment(c, kk)
                     : rock__accelLoadA(g, ac, c->sP, c->mP, true, c->row0,
                                        rock__genIndex(g, kk * ac->k), c->lane);
  tileProducts(g, ac, s->ldm, pa, s->mb / ac->k, c->sV, c->mV, false, s->swzV,
               c->lane, s->ntD, c->next + 2 * s->nr);
  if (s->ovl) {
    /* Every warp has read V(kt): V(kt + 1) streams in from here on. */
    loopSync(c);
    rock__genLine(g, "scf.if %%v%d {", c->more);
    g->depth++;
    rock__tcStageV(c, rock__tcAhead(c, c->kt, 1), c->args + c->pgV0);
    g->depth--;
    rock__genLine(g, "}");
    rock__genLine(g, "nvvm.cp.async.commit.group");
    if (s->pgV)
      rock__tcPagePtrs(c, true, rock__tcAhead(c, c->kt, 2), c->next + c->pgV0);
  }
  rock__genYieldTypedEnd(g, c->nSt, c->next, c->tys);
}

/* Row r's O / l and LSE (on the row's first lane) stored when it is a row
 * of the block; l the row sum over the row's lanes. */
static void finalRow(AccGen *c, int r, int first) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const RockAccel *ac = &s->ac;
  char to[32], ib[160];
  rock__typeStr(to, sizeof to, a->to, 1);
  int l = a->softmax ? rowReduce(g, s, c->res[s->nr + r], "arith.addf")
                     : c->res[s->nr + r];
  int m = c->res[r];
  int real =
      rock__genBin(g, "arith.cmpi ult,", c->wrow[r], c->wg.nRows, "index");
  rock__genLine(g, "scf.if %%v%d {", real);
  g->depth++;
  int ob = rock__attnOutRow(g, a, c->x[r].bq, c->wg.split);
  int lz, inv = rock__attnFinalGuard(g, l, &lz);
  for (int d = 0; d < s->ntD; ++d)
    for (int e = 0; e < ac->cElems; ++e) {
      if (rowOf(s, e) != r)
        continue;
      int o = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : f32 from %s", o,
                    c->res[2 * s->nr + d], e, c->vt);
      int oc = rock__attnFinalO(g, a, o, lz, inv, 1);
      int dc = rock__genBin(g, "arith.addi", c->col[e],
                            rock__genIndex(g, d * ac->n), "index");
      rock__idx3(ib, sizeof ib, ob, c->x[r].i, dc);
      rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", oc, a->out,
                    ib, to, a->mo);
    }
  if (a->hasLse && a->softmax)
    rock__attnStoreLse(g, a, first, l, m, lz, ob, c->x[r].i);
  g->depth--;
  rock__genLine(g, "}");
}

/* Finalise: every row's O and LSE, the split merged in the kernel
 * (a->fused), the end of the launch. */
static void finalise(AccGen *c) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  const RockAccel *ac = &s->ac;
  int first = rock__genBin(
      g, "arith.cmpi eq,",
      rock__genBin(g, "arith.remui", c->lane,
                   rock__genIndex(g, ac->kind == ROCK_ACCEL_MMA_SYNC ? 4 : 16),
                   "index"),
      rock__genIndex(g, 0), "index");
  if (s->kw > 1) /* key warps: merged into warp 0, which stores the rows */
    rock__tcMergeWarps(c);
  for (int r = 0; r < s->nr; ++r)
    finalRow(c, r, first);
  if (s->kw > 1) {
    g->depth--;
    rock__genLine(g, "}");
  }
  if (a->fused) {
    RockFusedCtx fc = {.tx = c->tx,
                       .nThreads = c->nThreads,
                       .wave = ac->wave,
                       .smem = c->sB,
                       .wg = c->wg,
                       .cR = c->cR,
                       .nb = s->nb};
    snprintf(fc.msmem, sizeof fc.msmem, "%s", c->mB);
    rock__gpuFusedCombine(g, a, &fc);
  }
  rock__genLine(g, "gpu.terminator");
  g->depth--;
  rock__genLine(g, "}");
}

bool rock__tcGenerate(RockGen *g, RockAttn *a, const void *ctx) {
  AccGen c = {.g = g, .a = a, .s = ctx};
  const AccSched *s = c.s;
  launch(&c);
  setUp(&c);
  blockKeys(&c);
  /* K of the first tile (and the L2 prefetch of the next ones) in flight
   * before Q is staged when they do not share memory: their loads overlap. */
  bool early = s->ldm && !s->wgS && s->qOff != s->kOff;
  if (early)
    rock__tcKeyPrologue(&c);
  stageQ(&c);
  if (s->ldm && !early) {
    /* K of the first tile in flight while the rows are set up (after every
     * warp has its Q fragments when K lies over Q). */
    if (s->qOff == s->kOff)
      rock__genLine(g, "gpu.barrier");
    rock__tcKeyPrologue(&c);
  }
  laneRows(&c);
  keyLoop(&c);
  tileTop(&c);
  scores(&c);
  masks(&c);
  softmax(&c);
  rescaleO(&c);
  pv(&c);
  finalise(&c);
  return true;
}
