/*===- attention_wgmma_stage.c - Q, K, V into the wgmma operand layouts --===*
 *
 * The copies of the sm_90a prefill schedule (attention_wgmma.h): every
 * thread of the workgroup copies 16-byte chunks of a tile with a
 * rock.view_load and a vector.store marked rock.async_copy (cp.async, also
 * through paged views; rock-gpu-async-copy). A tile's chunk (line L, chunk
 * column cc) sits at the WgTile layout's offset; consecutive threads take
 * consecutive lines of one chunk column, so 8 of them fill one core matrix
 * (128 contiguous bytes, no bank conflict) and a warp reads 64 contiguous
 * bytes of each of 8 global lines.
 *   Q   K-major, n = row, k = d:   line = row, chunks along d
 *   K   K-major, n = key, k = d:   line = key, chunks along d
 *   Kᵀ  MN-major, n = key, k = d:  line = d, chunks along keys (K stored
 *       [d][keys], rocMLIR's default layout; the keys are a multiple of 8)
 *   V   MN-major, n = dv, k = key: line = key, chunks along dv
 * Rows past the block read its last row, keys past Sk the last key (or
 * chunk): the masks give them no weight. With the 128-byte swizzle
 * (WgTile.sw) the 8 lines of a chunk column land in 8 distinct chunks of
 * their 128-byte lines: still no bank conflict.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"

#include <stdio.h>

enum { VEC = 8 }; /* 16-bit elements per 16-byte chunk */

typedef enum Src { SRC_Q, SRC_K, SRC_KT, SRC_V } Src;

int rock__wgTileView(RockGen *g, WgCtx *c, const WgTile *t, int st) {
  int off = rock__genIndex(g, t->off);
  if (st >= 0)
    off = rock__genBin(
        g, "arith.addi", off,
        rock__genBin(g, "arith.muli", st, rock__genIndex(g, t->step), "index"),
        "index");
  if (c->pad >= 0)
    off = rock__genBin(g, "arith.addi", off, c->pad, "index");
  int v = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", v, c->buf,
                off, c->mBuf, t->mt);
  return v;
}

int rock__wgTileDesc(RockGen *g, WgCtx *c, const WgTile *t, int st) {
  if (!t->sw)
    return rock__accelWgmmaDescAt(g, rock__wgTileView(g, c, t, st), t->mt, 128,
                                  256);
  /* From the aligned buffer's address field plus constants (the window is
   * below 256 KiB: no carry out of the field). */
  char lit[32];
  snprintf(lit, sizeof lit, "%lld", (long long)(t->off >> 4));
  int d = rock__genBin(g, "arith.addi", c->addr16,
                       rock__genConst(g, lit, "i64"), "i64");
  if (st >= 0) {
    int s64 = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", s64, st);
    snprintf(lit, sizeof lit, "%lld", (long long)(t->step >> 4));
    d = rock__genBin(g, "arith.addi", d,
                     rock__genBin(g, "arith.muli", s64,
                                  rock__genConst(g, lit, "i64"), "i64"),
                     "i64");
  }
  int64_t lbo = t->mn ? 128LL * t->kk : 16, sbo = 1024;
  snprintf(lit, sizeof lit, "%lld",
           (long long)((lbo >> 4) << 16 | (sbo >> 4) << 32 | 1LL << 62));
  return rock__genBin(g, "arith.ori", d, rock__genConst(g, lit, "i64"), "i64");
}

int64_t rock__wgSlab(const WgTile *t, int s) {
  if (!t->sw)
    return (int64_t)s * 32 * t->nn;
  if (t->mn)
    return (int64_t)s * 2048;
  return (int64_t)(s / 4) * 128 * t->nn + (s % 4) * 32;
}

int64_t rock__wgLines(const WgTile *t, int n0) {
  return t->sw ? (int64_t)n0 * 128 : (int64_t)(n0 / 8) * 256;
}

/* Element offset of chunk (n, k) of a swizzled tile (WgTile.sw): the
 * contiguous coordinate `along` (a multiple of 8) on line `line`. */
static int swizzledAt(RockGen *g, const WgTile *t, int line, int along) {
  int c8 = rock__genIndex(g, 8), c64 = rock__genIndex(g, 64);
  int chunk = rock__genBin(
      g, "arith.xori",
      rock__genBin(g, "arith.divui",
                   rock__genBin(g, "arith.remui", along, c64, "index"), c8,
                   "index"),
      rock__genBin(g, "arith.remui", line, c8, "index"), "index");
  int terms[3] = {
      rock__genBin(g, "arith.muli",
                   rock__genBin(g, "arith.divui", along, c64, "index"),
                   rock__genIndex(g, 64LL * (t->mn ? t->kk : t->nn)), "index"),
      rock__genBin(g, "arith.muli", line, c64, "index"),
      rock__genBin(g, "arith.muli", chunk, c8, "index")};
  return rock__genBin(
      g, "arith.addi",
      rock__genBin(g, "arith.addi", terms[0], terms[1], "index"), terms[2],
      "index");
}

/* Element offset of chunk (n, k) of tile `t` (index ids; the chunk's own
 * coordinate along the contiguous dimension is a multiple of 8). */
static int layoutAt(RockGen *g, const WgTile *t, int n, int k) {
  if (t->sw)
    return t->mn ? swizzledAt(g, t, k, n) : swizzledAt(g, t, n, k);
  int c8 = rock__genIndex(g, 8), c16 = rock__genIndex(g, 16);
  int kr = rock__genBin(g, "arith.remui", k, c16, "index");
  int line = t->mn ? rock__genBin(g, "arith.remui", k, c8, "index")
                   : rock__genBin(g, "arith.remui", n, c8, "index");
  int terms[4] = {rock__genBin(g, "arith.muli",
                               rock__genBin(g, "arith.divui", k, c16, "index"),
                               rock__genIndex(g, 16 * (int64_t)t->nn), "index"),
                  rock__genBin(g, "arith.muli",
                               rock__genBin(g, "arith.divui", n, c8, "index"),
                               rock__genIndex(g, 128), "index"),
                  rock__genBin(g, "arith.muli",
                               rock__genBin(g, "arith.divui", kr, c8, "index"),
                               rock__genIndex(g, 64), "index"),
                  rock__genBin(g, "arith.muli", line, c8, "index")};
  int off = terms[0];
  for (int i = 1; i < 4; ++i)
    off = rock__genBin(g, "arith.addi", off, terms[i], "index");
  return off;
}

/* The global chunk (line L, chunk column cc) of source `src`. */
static int loadChunk(RockGen *g, WgCtx *c, Src src, int L, int cc, int j0) {
  RockAttn *a = c->a;
  int d8 = rock__genBin(g, "arith.muli", cc, rock__genIndex(g, VEC), "index");
  int view = src == SRC_Q ? a->q : src == SRC_V ? a->v : c->kView;
  const char *mt = src == SRC_Q ? a->mq : src == SRC_V ? a->mv : c->kViewTy;
  MlirType elt = src == SRC_Q ? a->tq : src == SRC_V ? a->tv : a->tk;
  char ib[160], ty[32];
  if (src == SRC_Q) {
    int rc = rock__genBin(g, "arith.minui", L, c->lastRow, "index");
    RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, rc, c->wg.bq0, c->cR);
    rock__idx3(ib, sizeof ib, x.bq, x.i, d8);
  } else if (src == SRC_KT) {
    int j = rock__genBin(g, "arith.minui",
                         rock__genBin(g, "arith.addi", j0, d8, "index"),
                         rock__genIndex(g, a->Sk - VEC), "index");
    rock__idx3(ib, sizeof ib, c->wg.gBlk, L, j);
  } else {
    int j = rock__genBin(g, "arith.minui",
                         rock__genBin(g, "arith.addi", j0, L, "index"),
                         rock__genIndex(g, a->Sk - 1), "index");
    rock__idx3(ib, sizeof ib, c->wg.gBlk, j, d8);
  }
  rock__typeStr(ty, sizeof ty, elt, VEC);
  int v = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                "%s -> %s",
                v, view, ib, mt, ty);
  return v;
}

/* The chunk of thread-order index i: line *L, chunk column *cc. */
static void chunkOf(RockGen *g, int i, int nch, int *L, int *cc) {
  int c8 = rock__genIndex(g, 8), cn = rock__genIndex(g, nch);
  int q = rock__genBin(g, "arith.divui", i, c8, "index");
  *cc = rock__genBin(g, "arith.remui", q, cn, "index");
  *L = rock__genBin(g, "arith.addi",
                    rock__genBin(g, "arith.muli",
                                 rock__genBin(g, "arith.divui", q, cn, "index"),
                                 c8, "index"),
                    rock__genBin(g, "arith.remui", i, c8, "index"), "index");
}

static void storeChunk(RockGen *g, const WgCtx *c, const WgTile *t, int v,
                       int dst, int off) {
  char ty[32];
  rock__typeStrS(ty, sizeof ty, c->elt, VEC);
  rock__genLine(
      g,
      "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16, "
      "rock.async_copy} : %s, %s",
      v, dst,
      rock__genBin(g, "arith.divui", off, rock__genIndex(g, 8), "index"),
      rock__genIndex(g, 0), t->mt, ty);
}

/* Copies `lines` x `nch` chunks of `src` into tile `t` viewed as `dst`.
 * When every thread keeps its chunk column from one round to the next and
 * the rounds move by whole 8-line groups (16-line along a k16 slab for
 * MN-major tiles), round r's line and offset are round 0's plus r times a
 * constant (no per-round values stay live across the key loop). */
static void copyTile(RockGen *g, WgCtx *c, Src src, const WgTile *t, int dst,
                     int lines, int nch, int j0) {
  int64_t total = (int64_t)lines * nch;
  /* (a loop, not unrolled, for the producer warpgroup: few registers) */
  if (total % c->cpN || c->ws) {
    int i = rock__genFor(g, c->cpTx, rock__genIndex(g, total),
                         rock__genIndex(g, c->cpN));
    int L, cc;
    chunkOf(g, i, nch, &L, &cc);
    int d8 = rock__genBin(g, "arith.muli", cc, rock__genIndex(g, 8), "index");
    int v = loadChunk(g, c, src, L, cc, j0);
    storeChunk(g, c, t, v, dst,
               t->mn ? layoutAt(g, t, d8, L) : layoutAt(g, t, L, d8));
    rock__genEnd(g);
    return;
  }
  int reps = (int)(total / c->cpN), dL = c->cpN / nch;
  bool linear = c->cpN % (8 * nch) == 0 && dL % (t->mn && !t->sw ? 16 : 8) == 0;
  int64_t dOff = t->sw   ? (int64_t)dL * 64
                 : t->mn ? (int64_t)(dL / 16) * 16 * t->nn
                         : (int64_t)dL * 16;
  int L0, cc0, off0 = -1;
  for (int rep = 0; rep < reps; ++rep) {
    int L, cc, off;
    if (linear && rep > 0) {
      L = rock__genBin(g, "arith.addi", L0,
                       rock__genIndex(g, (int64_t)rep * dL), "index");
      cc = cc0;
      off = rock__genBin(g, "arith.addi", off0, rock__genIndex(g, rep * dOff),
                         "index");
    } else {
      chunkOf(g,
              rock__genBin(g, "arith.addi", c->cpTx,
                           rock__genIndex(g, (int64_t)rep * c->cpN), "index"),
              nch, &L, &cc);
      int d8 = rock__genBin(g, "arith.muli", cc, rock__genIndex(g, 8), "index");
      off = t->mn ? layoutAt(g, t, d8, L) : layoutAt(g, t, L, d8);
      L0 = L, cc0 = cc, off0 = off;
    }
    storeChunk(g, c, t, loadChunk(g, c, src, L, cc, j0), dst, off);
  }
}

void rock__wgStageQ(RockGen *g, WgCtx *c) {
  int dst = rock__wgTileView(g, c, &c->q, c->qBuf);
  copyTile(g, c, SRC_Q, &c->q, dst, c->nb, (int)(c->a->Dqk / VEC), -1);
}

void rock__wgStageK(RockGen *g, WgCtx *c, int j0, int st) {
  const RockAttn *a = c->a;
  int dk = rock__wgTileView(g, c, &c->k, st);
  if (c->k.mn)
    copyTile(g, c, SRC_KT, &c->k, dk, (int)a->Dqk, c->mb / VEC, j0);
  else
    copyTile(g, c, SRC_K, &c->k, dk, c->mb, (int)(a->Dqk / VEC), j0);
}

void rock__wgStageV(RockGen *g, WgCtx *c, int j0, int st) {
  int dv = rock__wgTileView(g, c, &c->v, st);
  copyTile(g, c, SRC_V, &c->v, dv, c->mb, (int)(c->a->Dv / VEC), j0);
}
