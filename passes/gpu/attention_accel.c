/*===- attention_accel.c - the GPU attention schedule on tensor cores -----===*
 *
 * rock.gridwise_attention on the tile-product emitters (accel.h) for
 * prefill and multi-token decode (Sq·R >= 16 merged rows), f16 / bf16, and
 * i8 Q/K with f16 / bf16 V (gemm0 on the i8 instruction with i32
 * accumulators; the region, e.g. a dequant, takes the i32 scores, then
 * softmax and P·V run on V's instruction):
 *   - one workgroup per (batch·KV-head group, block of NB = 16·W merged
 *     rows, split); the q x group rows of a KV group are merged rows
 *     n = i·R + r, so one MMA tile packs the group's heads and K/V are read
 *     once per group;
 *   - W warps (waves), each owning 16 merged rows against every key;
 *   - Q staged once in workgroup memory, its A fragments kept in registers;
 *   - per key tile of MB keys: K and V staged in workgroup memory (16-byte
 *     rock.view_loads, so paged views work), S = Q·Kᵀ on the tile products,
 *     the region, scores and masks from passes/attention/ per accumulator
 *     element, the online softmax per row (lane max + xor shuffles over the
 *     lanes that share a row; the row sum kept per lane and reduced at the
 *     end), P written to workgroup memory in V's type and reloaded as A
 *     fragments, O = c·O + P·V on the tile products (V read [key][dv]);
 *   - finalisation, O and LSE stores from passes/attention/.
 * With ROCK_GPU_ACCEL_PREG=1 on NVIDIA, P stays in registers instead (the
 * accumulators of two m16n8 score tiles form the A fragment of a k16 step)
 * and tiles grow to 64 keys; compiled and ptxas-checked, not yet run.
 * rock-gridwise-attention-to-gpu calls rock__gpuAttnAccel first and keeps
 * its SIMT schedule when this one does not apply (other dtypes, Sq·R < 16,
 * no matrix instruction, head dims off the instruction's multiples,
 * workgroup memory); ROCK_GPU_ACCEL=0 turns it off.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"
#include "internal.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAXW = 4,     /* warps per workgroup */
  MB_KEYS = 64, /* keys per tile at most (32 when memory is short) */
  VEC = 8,      /* 16-bit elements per 16-byte access */
  SMEM_MAX = 49152,
  MAXKS = 16,   /* Dqk / k */
  MAXNT = 32,   /* Dv / n, MB / n */
  MAXR = 8,     /* distinct rows per lane */
  SPLIT_T = 264 /* workgroups the internal split aims at */
};

typedef struct AccSched {
  RockAccel ac;  /* P·V: V's type */
  RockAccel acS; /* Q·Kᵀ: Q/K's type (i8 -> i32 or = ac); the same C layout */
  int w, nb, mb, ks, ntS, ntD, nr, nchq, nchv;
  int vecQK; /* Q/K elements per 16-byte access */
  bool pReg; /* P stays in registers as the A operand of P·V */
  char elt[16], eltQK[16];
} AccSched;

/* Workgroup memory of Q, one K and V tile, and P unless it stays in
 * registers. */
static int64_t smemBytes(const RockAttn *a, const AccSched *s, int mb) {
  int64_t qk = (int64_t)(s->nb + mb) * a->Dqk * (16 / s->vecQK);
  return qk + 2 * ((int64_t)mb * a->Dv + (s->pReg ? 0 : (int64_t)s->nb * mb));
}

static bool applies(MlirOperation op, RockAttn *a, AccSched *s) {
  const char *env = getenv("ROCK_GPU_ACCEL");
  if (env && !strcmp(env, "0"))
    return false;
  RockGpuTarget t;
  MlirExternalPass quiet = {NULL};
  if (!rock__gpuArch(op, quiet, &t))
    return false;
  char tq[16], tk[16], tv[16];
  rock__typeStr(tq, sizeof tq, a->tq, 1);
  rock__typeStr(tk, sizeof tk, a->tk, 1);
  rock__typeStr(tv, sizeof tv, a->tv, 1);
  /* Type pairs: Q = K = V in f16 / bf16, or i8 Q/K with f16 / bf16 V. */
  bool v16 = !strcmp(tv, "f16") || !strcmp(tv, "bf16");
  if (strcmp(tq, tk) || !v16 || (strcmp(tq, tv) && strcmp(tq, "i8")))
    return false;
  if (!rock__accelSelect(&t, tq, &s->acS) ||
      !rock__accelSelect(&t, tv, &s->ac) || s->acS.n != s->ac.n ||
      s->acS.cElems != s->ac.cElems)
    return false;
  snprintf(s->elt, sizeof s->elt, "%s", tv);
  snprintf(s->eltQK, sizeof s->eltQK, "%s", tq);
  s->vecQK = strcmp(tq, "i8") ? VEC : 2 * VEC;
  const RockAccel *ac = &s->ac, *acS = &s->acS;
  int64_t sqr = a->Sq * a->R;
  if (sqr < 16 || a->Dqk % acS->k || a->Dv % ac->n || a->Dqk % s->vecQK ||
      a->Dv % VEC || a->Dqk / acS->k > MAXKS || a->Dv / ac->n > MAXNT)
    return false;
  s->w = (int)((sqr + 15) / 16);
  if (s->w > MAXW)
    s->w = MAXW;
  s->nb = 16 * s->w;
  /* mma.sync: two m16n8 accumulator tiles are the A fragment of a k16 step,
   * so P can stay in registers, and the freed memory takes 64-key tiles.
   * Not yet run on a GPU: opt-in (ROCK_GPU_ACCEL_PREG=1) until it is. */
  const char *preg = getenv("ROCK_GPU_ACCEL_PREG");
  s->pReg = preg && !strcmp(preg, "1") && ac->kind == ROCK_ACCEL_MMA_SYNC &&
            2 * ac->n == ac->k;
  for (s->mb = s->pReg ? MB_KEYS : 32; s->mb > 32; s->mb /= 2)
    if (smemBytes(a, s, s->mb) <= SMEM_MAX)
      break;
  s->ks = (int)(a->Dqk / acS->k);
  s->ntS = s->mb / acS->n;
  s->ntD = (int)(a->Dv / ac->n);
  s->nr = ac->kind == ROCK_ACCEL_MMA_SYNC ? 2 : ac->cElems;
  s->nchq = (int)(a->Dqk / s->vecQK);
  s->nchv = (int)(a->Dv / VEC);
  if (smemBytes(a, s, s->mb) > SMEM_MAX || s->mb % ac->k ||
      s->mb / ac->n > MAXNT)
    return false;
  a->NB = s->nb;
  a->MB = s->mb;
  a->nNBlk = (sqr + a->NB - 1) / a->NB;
  a->grid = a->Bkv * a->nNBlk * a->S;
  return true;
}

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

/* Cooperative copy of `rows` x `nch` 16-byte chunks of `vec` elements of
 * `view` (rows from key j0, clamped to Sk - 1) into `sm` [rows][nch·vec]. */
static void stageKeys(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                      int nThreads, int view, const char *mt, MlirType elt,
                      int vec, int gBlk, int j0, int nch, int sm,
                      const char *smt) {
  int cn = rock__genIndex(g, nch);
  int i = rock__genFor(g, tx, rock__genIndex(g, (int64_t)s->mb * nch),
                       rock__genIndex(g, nThreads));
  int jr = rock__genBin(g, "arith.divui", i, cn, "index");
  int d = rock__genBin(g, "arith.muli",
                       rock__genBin(g, "arith.remui", i, cn, "index"),
                       rock__genIndex(g, vec), "index");
  int j = rock__genBin(g, "arith.minui",
                       rock__genBin(g, "arith.addi", j0, jr, "index"),
                       rock__genIndex(g, a->Sk - 1), "index");
  char ib[128], ty[32];
  rock__idx3(ib, sizeof ib, gBlk, j, d);
  rock__typeStr(ty, sizeof ty, elt, vec);
  int v = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                "%s -> %s",
                v, view, ib, mt, ty);
  rock__genLine(g,
                "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16} "
                ": %s, %s",
                v, sm, jr, d, smt, ty);
  rock__genEnd(g);
}

static bool generate(RockGen *g, RockAttn *a, const void *ctx) {
  const AccSched *s = ctx;
  const RockAccel *ac = &s->ac, *acS = &s->acS;
  char mQ[128], mK[128], mV[128], mP[128], ib[160], vt[32], vtS[32];
  const char *wg_ = "#gpu.address_space<workgroup>";
  snprintf(mQ, sizeof mQ, "memref<%dx%lldx%s, %s>", s->nb, (long long)a->Dqk,
           s->eltQK, wg_);
  snprintf(mK, sizeof mK, "memref<%dx%lldx%s, %s>", s->mb, (long long)a->Dqk,
           s->eltQK, wg_);
  snprintf(mV, sizeof mV, "memref<%dx%lldx%s, %s>", s->mb, (long long)a->Dv,
           s->elt, wg_);
  snprintf(mP, sizeof mP, "memref<%dx%dx%s, %s>", s->nb, s->mb, s->elt, wg_);
  rock__typeStrS(vt, sizeof vt, "f32", ac->cElems);
  rock__typeStrS(vtS, sizeof vtS, acS->acc, acS->cElems);
  int c1 = rock__genIndex(g, 1);
  int nThreads = s->w * ac->wave;
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int v[12];
  for (int i = 0; i < 12; ++i)
    v[i] = rock__genFresh(g);
  int sQ = rock__genFresh(g), sK = rock__genFresh(g), sV = rock__genFresh(g),
      sP = rock__genFresh(g);
  rock__genLine(
      g,
      "gpu.launch blocks(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, %%v%d = "
      "%%v%d, %%v%d = %%v%d) threads(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, "
      "%%v%d = %%v%d, %%v%d = %%v%d) workgroup(%%v%d : %s, %%v%d : %s, "
      "%%v%d : %s",
      v[0], v[1], v[2], v[3], rock__genIndex(g, a->grid), v[4], c1, v[5], c1,
      v[6], v[7], v[8], v[9], rock__genIndex(g, nThreads), v[10], c1, v[11], c1,
      sQ, mQ, sK, mK, sV, mV);
  /* (the launch line continues: P's buffer unless P stays in registers) */
  if (s->pReg)
    rock__strAppend(&g->body, ") {\n");
  else
    rock__strAppendf(&g->body, ", %%v%d : %s) {\n", sP, mP);
  g->depth++;
  int bx = v[0], tx = v[6];
  int cw = rock__genIndex(g, ac->wave);
  int lane = rock__genBin(g, "arith.remui", tx, cw, "index");
  int warp = rock__genBin(g, "arith.divui", tx, cw, "index");
  int row0 =
      rock__genBin(g, "arith.muli", warp, rock__genIndex(g, 16), "index");
  int cR = rock__genIndex(g, a->R);
  RockAttnWg wg = rock__attnWorkgroup(g, a, bx);
  int lastRow = rock__genBin(g, "arith.subi", wg.nRows, c1, "index");

  /* Q [NB][Dqk] into workgroup memory (rows past the block's clamped). */
  {
    int cn = rock__genIndex(g, s->nchq);
    int i = rock__genFor(g, tx, rock__genIndex(g, (int64_t)s->nb * s->nchq),
                         rock__genIndex(g, nThreads));
    int r = rock__genBin(g, "arith.divui", i, cn, "index");
    int d = rock__genBin(g, "arith.muli",
                         rock__genBin(g, "arith.remui", i, cn, "index"),
                         rock__genIndex(g, s->vecQK), "index");
    int rc = rock__genBin(g, "arith.minui", r, lastRow, "index");
    RockRowIdx x = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
    char ty[32];
    rock__typeStr(ty, sizeof ty, a->tq, s->vecQK);
    rock__idx3(ib, sizeof ib, x.bq, x.i, d);
    int q = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                  "%s -> %s",
                  q, a->q, ib, a->mq, ty);
    rock__genLine(g,
                  "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16} : "
                  "%s, %s",
                  q, sQ, r, d, mQ, ty);
    rock__genEnd(g);
  }

  /* The block's key range (uniform): every row of the block. */
  int eff = -1, lowKey = -1;
  if (a->dynamic) {
    eff = rock__genIndex(g, -1);
    lowKey = rock__genIndex(g, a->Sk);
    for (int r = 0; r < s->nb; ++r) {
      int rc = rock__genBin(g, "arith.minui", rock__genIndex(g, r), lastRow,
                            "index");
      RockRowIdx x = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
      int last = rock__attnRowLast(g, a, x);
      eff = rock__attnBlockLast(g, eff, last);
      if (a->hasWindow)
        lowKey = rock__attnBlockLow(g, lowKey, rock__attnRowLow(g, a, last));
    }
  }
  int start, end;
  rock__attnTileRange(g, a, wg.split, eff, lowKey, &start, &end);
  rock__genLine(g, "gpu.barrier");
  int qf[MAXKS];
  for (int k = 0; k < s->ks; ++k)
    qf[k] = rock__accelLoadA(g, acS, sQ, mQ, true, row0,
                             rock__genIndex(g, k * acS->k), lane);

  /* This lane's rows: warp row, indices, key limits (S and O tiles share
   * the accumulator layout: applies() checks it). */
  int wrow[MAXR], last[MAXR], low[MAXR], col[MAXR * 2];
  RockRowIdx x[MAXR];
  for (int e = 0; e < ac->cElems; ++e) {
    int r, c;
    rock__accelAccCoord(g, ac, lane, e, &r, &c);
    col[e] = c;
    int ri = rowOf(s, e);
    if (e != 0 && rowOf(s, e - 1) == ri)
      continue;
    wrow[ri] = rock__genBin(g, "arith.addi", row0, r, "index");
    int rc = rock__genBin(g, "arith.minui", wrow[ri], lastRow, "index");
    x[ri] = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
    if (a->dynamic) {
      last[ri] = rock__attnRowLast(g, a, x[ri]);
      if (a->hasWindow)
        low[ri] = rock__attnRowLow(g, a, last[ri]);
    }
  }

  /* The key-tile loop: state m, l (per row, l per lane), O tiles. */
  enum { NST = 2 * MAXR + MAXNT };
  int init[NST], args[NST], res[NST], next[NST];
  const char *tys[NST];
  int nSt = 0;
  int zv = rock__genZero(g, "f32", ac->cElems);
  for (int r = 0; r < s->nr; ++r)
    init[nSt] = ninf, tys[nSt++] = "f32";
  for (int r = 0; r < s->nr; ++r)
    init[nSt] = zf, tys[nSt++] = "f32";
  for (int d = 0; d < s->ntD; ++d)
    init[nSt] = zv, tys[nSt++] = vt;
  int kt;
  rock__genForTyped(g, start, end, c1, nSt, init, tys, &kt, args, res);
  {
    const int *mOld = args, *lOld = args + s->nr, *oOld = args + 2 * s->nr;
    int *mNext = next, *lNext = next + s->nr, *oNext = next + 2 * s->nr;
    int j0;
    (void)rock__attnTileCols(g, a, kt, &j0);
    rock__genLine(g, "gpu.barrier");
    stageKeys(g, a, s, tx, nThreads, a->k, a->mk, a->tk, s->vecQK, wg.gBlk, j0,
              s->nchq, sK, mK);
    stageKeys(g, a, s, tx, nThreads, a->v, a->mv, a->tv, VEC, wg.gBlk, j0,
              s->nchv, sV, mV);
    rock__genLine(g, "gpu.barrier");
    /* S = Q·Kᵀ (accumulators of a->acc's type), then the scores of every
     * accumulator element. */
    int xs[MAXNT][8];
    int mv = rock__attnMaskedValue(g, a, 1);
    for (int jt = 0; jt < s->ntS; ++jt) {
      int acc = rock__accelZero(g, acS);
      for (int k = 0; k < s->ks; ++k)
        acc = rock__accelMma(g, acS, qf[k],
                             rock__accelLoadB(g, acS, sK, mK, true,
                                              rock__genIndex(g, jt * acS->n),
                                              rock__genIndex(g, k * acS->k),
                                              lane),
                             acc);
      for (int e = 0; e < ac->cElems; ++e) {
        int ri = rowOf(s, e);
        int sc = rock__genFresh(g);
        rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", sc,
                      acc, e, acS->acc, vtS);
        int jj = rock__genBin(g, "arith.addi", j0,
                              rock__genBin(g, "arith.addi",
                                           rock__genIndex(g, jt * ac->n),
                                           col[e], "index"),
                              "index");
        int xv;
        if (!mlirBlockIsNull(a->rblock)) {
          int jc = rock__genBin(g, "arith.minui", jj,
                                rock__genIndex(g, a->Sk - 1), "index");
          MlirType yt;
          int y = rock__attnRegion(g, a, sc, x[ri], jc, &yt);
          xv = rock__attnScore(g, a, y, yt, 1);
        } else {
          xv = rock__attnScore(g, a, sc, a->acc, 1);
        }
        xv = rock__attnMaskPad(g, a, xv, jj, mv, 1);
        if (a->dynamic)
          xv = rock__attnMaskLast(g, xv, jj, last[ri], mv, 1);
        if (a->hasWindow)
          xv = rock__attnMaskLow(g, xv, jj, low[ri], mv, 1);
        xs[jt][e] = xv;
      }
    }
    /* The online softmax per row; P into workgroup memory in V's type. */
    int cr[MAXR];
    for (int r = 0; r < s->nr; ++r) {
      cr[r] = -1;
      mNext[r] = mOld[r];
      lNext[r] = lOld[r];
    }
    int pr[MAXNT][8];
    if (a->softmax) {
      for (int r = 0; r < s->nr; ++r) {
        int tileMax = ninf;
        for (int jt = 0; jt < s->ntS; ++jt)
          for (int e = 0; e < ac->cElems; ++e)
            if (rowOf(s, e) == r)
              tileMax =
                  rock__genBin(g, "arith.maxnumf", tileMax, xs[jt][e], "f32");
        tileMax = rowReduce(g, s, tileMax, "arith.maxnumf");
        int mSafe;
        cr[r] = rock__attnRescale(g, a, mOld[r], tileMax, &mNext[r], &mSafe);
        int rowSum = zf;
        for (int jt = 0; jt < s->ntS; ++jt)
          for (int e = 0; e < ac->cElems; ++e)
            if (rowOf(s, e) == r) {
              int p = rock__attnProb(g, a, xs[jt][e], mSafe, 1, &pr[jt][e]);
              rowSum = rock__genBin(g, "arith.addf", rowSum, p, "f32");
            }
        lNext[r] = rock__attnRowSum(g, cr[r], lOld[r], rowSum);
      }
    } else {
      for (int jt = 0; jt < s->ntS; ++jt)
        for (int e = 0; e < ac->cElems; ++e)
          pr[jt][e] = rock__attnProbPlain(g, a, xs[jt][e], 1);
    }
    for (int jt = 0; jt < s->ntS && !s->pReg; ++jt)
      for (int e = 0; e < ac->cElems; ++e) {
        int p = rock__genConv(g, pr[jt][e], a->f32, a->tv, 1);
        int r = wrow[rowOf(s, e)];
        int c = rock__genBin(g, "arith.addi", col[e],
                             rock__genIndex(g, jt * ac->n), "index");
        rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", p, sP,
                      r, c, mP);
      }
    if (!s->pReg)
      rock__genLine(g, "gpu.barrier");
    /* O = c·O + P·V. */
    int cv = -1;
    if (a->softmax) {
      RockStr list = {0};
      for (int e = 0; e < ac->cElems; ++e)
        rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", cr[rowOf(s, e)]);
      cv = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.from_elements %s : %s", cv, list.data,
                    vt);
      rock__strFree(&list);
    }
    for (int d = 0; d < s->ntD; ++d)
      oNext[d] =
          cv >= 0 ? rock__genBinF(g, "arith.mulf", oOld[d], cv, vt) : oOld[d];
    for (int kk = 0; kk < s->mb / ac->k; ++kk) {
      int pa;
      if (s->pReg) {
        /* A = S tiles 2kk and 2kk + 1 in accumulator order (accel.c). */
        RockStr list = {0};
        for (int h = 0; h < 2; ++h)
          for (int e = 0; e < ac->cElems; ++e)
            rock__strAppendf(
                &list, "%s%%v%d", h || e ? ", " : "",
                rock__genConv(g, pr[2 * kk + h][e], a->f32, a->tv, 1));
        pa = rock__genFresh(g);
        rock__genLine(g, "%%v%d = vector.from_elements %s : vector<%dx%s>", pa,
                      list.data, ac->aElems, ac->elt);
        rock__strFree(&list);
      } else {
        pa = rock__accelLoadA(g, ac, sP, mP, true, row0,
                              rock__genIndex(g, kk * ac->k), lane);
      }
      for (int d = 0; d < s->ntD; ++d)
        oNext[d] = rock__accelMma(
            g, ac, pa,
            rock__accelLoadB(g, ac, sV, mV, false, rock__genIndex(g, d * ac->n),
                             rock__genIndex(g, kk * ac->k), lane),
            oNext[d]);
    }
    rock__genYieldTypedEnd(g, nSt, next, tys);
  }

  /* Finalise: the row sums over the row's lanes, O / l, LSE. */
  int first = rock__genBin(
      g, "arith.cmpi eq,",
      rock__genBin(g, "arith.remui", lane,
                   rock__genIndex(g, ac->kind == ROCK_ACCEL_MMA_SYNC ? 4 : 16),
                   "index"),
      rock__genIndex(g, 0), "index");
  char to[32], tl[32];
  rock__typeStr(to, sizeof to, a->to, 1);
  rock__typeStr(tl, sizeof tl, a->tl, 1);
  for (int r = 0; r < s->nr; ++r) {
    int l = a->softmax ? rowReduce(g, s, res[s->nr + r], "arith.addf")
                       : res[s->nr + r];
    int m = res[r];
    int real = rock__genBin(g, "arith.cmpi ult,", wrow[r], wg.nRows, "index");
    rock__genLine(g, "scf.if %%v%d {", real);
    g->depth++;
    int ob = rock__attnOutRow(g, a, x[r].bq, wg.split);
    int lz, inv = rock__attnFinalGuard(g, l, &lz);
    for (int d = 0; d < s->ntD; ++d)
      for (int e = 0; e < ac->cElems; ++e) {
        if (rowOf(s, e) != r)
          continue;
        int o = rock__genFresh(g);
        rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : f32 from %s", o,
                      res[2 * s->nr + d], e, vt);
        int oc = rock__attnFinalO(g, a, o, lz, inv, 1);
        int dc = rock__genBin(g, "arith.addi", col[e],
                              rock__genIndex(g, d * ac->n), "index");
        rock__idx3(ib, sizeof ib, ob, x[r].i, dc);
        rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", oc,
                      a->out, ib, to, a->mo);
      }
    if (a->hasLse && a->softmax) {
      rock__genLine(g, "scf.if %%v%d {", first);
      g->depth++;
      int lc = rock__attnLse(g, a, l, m, lz);
      rock__idx2(ib, sizeof ib, ob, x[r].i);
      rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lc, a->lse,
                    ib, tl, a->ml);
      g->depth--;
      rock__genLine(g, "}");
    }
    g->depth--;
    rock__genLine(g, "}");
  }
  rock__genLine(g, "gpu.terminator");
  g->depth--;
  rock__genLine(g, "}");
  return true;
}

int rock__gpuAttnAccel(MlirOperation op, MlirExternalPass pass, RockAttn *a) {
  AccSched s;
  if (!applies(op, a, &s))
    return -1;
  int64_t P = rock__attnInternalSplit(a, SPLIT_T, 2);
  return rock__attnLower(op, pass, a, P, true, generate, &s) ? 1 : 0;
}
