/*===- attention_tiles.c - x86 tile pieces of the CPU attention ----------===*
 *
 * See cpu_attention.h.
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"

#include <stdio.h>
#include <stdlib.h>

/* `%r = vector.shuffle %x, %y [mask] : ty, ty`; frees mask. */
static int shuffle(RockGen *g, int x, int y, RockStr *mask, const char *ty) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : %s, %s", r, x, y,
                mask->data, ty, ty);
  rock__strFree(mask);
  return r;
}

/* exp2(d) for f32 d <= 0 (scalar or vector<W>), written in arith so that it
 * vectorises (math.exp2 becomes one libm call per lane): d = n + f with
 * n = roundeven(d), |f| <= 1/2, 2^f = 1 + f*P(f) (Cephes exp2f, relative
 * error about 1.4e-7), 2^n built in the exponent bits. d <= -127 (and −inf)
 * gives exactly 0; NaN propagates. */
int rock__cpuExp2Poly(RockGen *g, int d, int w) {
  static const char *const coef[6] = {"1.5353362e-04", "1.3398874e-03",
                                      "9.6184373e-03", "5.5503324e-02",
                                      "2.4022648e-01", "6.9314720e-01"};
  char ty[64], ity[64], cty[160];
  rock__typeStrS(ty, sizeof ty, "f32", w);
  rock__typeStrS(ity, sizeof ity, "i32", w);
  int c = rock__genBin(g, "arith.maximumf", d,
                       rock__genSplat(g, "-127.0", "f32", w), ty);
  int n = rock__genFresh(g);
  rock__genLine(g, "%%v%d = math.roundeven %%v%d : %s", n, c, ty);
  int f = rock__genBin(g, "arith.subf", c, n, ty);
  int p = rock__genSplat(g, coef[0], "f32", w);
  for (int k = 1; k < 6; ++k)
    p = rock__genBinF(g, "arith.addf", rock__genBinF(g, "arith.mulf", p, f, ty),
                      rock__genSplat(g, coef[k], "f32", w), ty);
  p = rock__genBinF(g, "arith.addf", rock__genBinF(g, "arith.mulf", p, f, ty),
                    rock__genSplat(g, "1.0", "f32", w), ty);
  int ni = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.fptosi %%v%d : %s to %s", ni, n, ty, ity);
  int e = rock__genBin(g, "arith.addi", ni, rock__genSplat(g, "127", "i32", w),
                       ity);
  e = rock__genBin(g, "arith.shli", e, rock__genSplat(g, "23", "i32", w), ity);
  int ef = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.bitcast %%v%d : %s to %s", ef, e, ity, ty);
  int r = rock__genBinF(g, "arith.mulf", p, ef, ty);
  int isNan = rock__genBin(g, "arith.cmpf uno,", d, d, ty);
  if (w > 1)
    snprintf(cty, sizeof cty, "vector<%dxi1>, %s", w, ty);
  else
    snprintf(cty, sizeof cty, "%s", ty);
  return rock__genSelect(g, isNan, d, r, cty);
}
/* The key visited at step `j` of a fused decode loop over a tile of `nCols`
 * keys: a full tile (nCols == MB) is walked in ROCK_CPU_KEY_STREAMS interleaved
 * streams, j -> (j % ROCK_CPU_KEY_STREAMS) * (MB / ROCK_CPU_KEY_STREAMS) + j /
 * ROCK_CPU_KEY_STREAMS, so that consecutive steps read ROCK_CPU_KEY_STREAMS
 * distant key ranges (different KV pages, which the hardware prefetchers follow
 * independently) and more cache misses are in flight; a partial tile is walked
 * in order. */
int rock__cpuKeyOrder(RockGen *g, int j, int nCols, int64_t MB) {
  if (MB % ROCK_CPU_KEY_STREAMS != 0)
    return j;
  int cK = rock__genIndex(g, ROCK_CPU_KEY_STREAMS);
  int full =
      rock__genBin(g, "arith.cmpi eq,", nCols, rock__genIndex(g, MB), "index");
  int lane = rock__genBin(g, "arith.remui", j, cK, "index");
  int base =
      rock__genBin(g, "arith.muli", lane,
                   rock__genIndex(g, MB / ROCK_CPU_KEY_STREAMS), "index");
  int step = rock__genBin(g, "arith.divui", j, cK, "index");
  int jp = rock__genBin(g, "arith.addi", base, step, "index");
  return rock__genSelect(g, full, jp, j, "index");
}

/* The key rock__cpuKeyOrder visits at step t of a full tile, as a number. */
static int64_t keyAt(int64_t t, int64_t MB) {
  return (t % ROCK_CPU_KEY_STREAMS) * (MB / ROCK_CPU_KEY_STREAMS) +
         t / ROCK_CPU_KEY_STREAMS;
}

void rock__cpuKeyOrderRows(RockGen *g, int buf, const char *mt, int nRows,
                           int nCols, int64_t MB) {
  if (MB % ROCK_CPU_KEY_STREAMS != 0)
    return;
  char ib[128], tv[64];
  snprintf(tv, sizeof tv, "vector<%lldxbf16>", (long long)MB);
  int full =
      rock__genBin(g, "arith.cmpi eq,", nCols, rock__genIndex(g, MB), "index");
  rock__genLine(g, "scf.if %%v%d {", full);
  g->depth++;
  int c0 = rock__genIndex(g, 0);
  int r = rock__genFor(g, c0, nRows, rock__genIndex(g, 1));
  rock__idx2(ib, sizeof ib, r, c0);
  int v = rock__genLoad(g, buf, mt, ib, (int)MB, "bf16");
  RockStr m = {0};
  for (int64_t t = 0; t < MB; ++t)
    rock__strAppendf(&m, "%s%lld", t ? ", " : "", (long long)keyAt(t, MB));
  rock__genStore(g, shuffle(g, v, v, &m, tv), buf, mt, ib, (int)MB, "bf16");
  rock__genEnd(g);
  rock__genEnd(g);
}

int rock__cpuWiden(RockGen *g, int v, MlirType from, MlirType to, int w) {
  if (!mlirTypeIsABF16(from) || !mlirTypeIsAF32(to))
    return rock__genConv(g, v, from, to, w);
  int c16 = rock__genConst(g, "16", "i32");
  char vc[64];
  snprintf(vc, sizeof vc, "vector<%dxi32>", w);
  int sh = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.broadcast %%v%d : i32 to %s", sh, c16, vc);
  int bits = rock__genFresh(g), z = rock__genFresh(g), r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = arith.bitcast %%v%d : vector<%dxbf16> to "
                "vector<%dxi16>",
                bits, v, w, w);
  rock__genLine(g, "%%v%d = arith.extui %%v%d : vector<%dxi16> to %s", z, bits,
                w, vc);
  int hi = rock__genBin(g, "arith.shli", z, sh, vc);
  rock__genLine(g, "%%v%d = arith.bitcast %%v%d : %s to vector<%dxf32>", r, hi,
                vc, w);
  return r;
}

/* Software prefetch of the fused decode loops: one rock.view_prefetch of
 * the 64-byte lines of row `jj` + `ahead` (the same key of the tile
 * rock.cpu_prefetch_tiles ahead, by default the next one; clamped to the last
 * key so the page table is never read out of bounds) of K
 * (`isV` false) or V, columns [d0, d0 + n) where d0 is the SSA index `d0`
 * (or 0 when d0 < 0). gemm0 prefetches the next tile's K rows, gemm1 the
 * next tile's V columns it is reading, so that requests flow during the
 * whole tile rather than in bursts. Decode streams scattered KV pages
 * (16 tokens = 4-8 KiB each) that the hardware prefetchers only pick up
 * after a few misses per page (bench/RESULTS.md measures the effect; a unit
 * attribute rock.no_prefetch on the op or an ancestor, e.g. set by rock-run
 * --no-prefetch, turns it off). */
void rock__cpuPrefetchRow(RockGen *g, const RockAttn *a, bool isV, int gBlk,
                          int jj, int64_t ahead, int d0, int64_t n) {
  if (!mlirAttributeIsNull(rock__nearestAttr(a->op, "rock.no_prefetch")))
    return;
  int at = rock__genBin(g, "arith.addi", jj, rock__genIndex(g, ahead), "index");
  int nxt =
      rock__genBin(g, "arith.minui", at, rock__genIndex(g, a->Sk - 1), "index");
  MlirType t = isV ? a->tv : a->tk;
  int64_t bytes = (rock__bitWidth(t) + 7) / 8;
  int64_t lines = (n * (bytes ? bytes : 1) + 63) / 64;
  char ib[128];
  /* One view access for the row's lines (one page-table lookup). */
  rock__idx3(ib, sizeof ib, gBlk, nxt, d0 < 0 ? rock__genIndex(g, 0) : d0);
  rock__genLine(g, "rock.view_prefetch %%v%d[%s] {lines = %lld : i32} : %s",
                isV ? a->v : a->k, ib, (long long)lines, isV ? a->mv : a->mk);
}

/* Adds lanes [lo, lo + n) and [hi, hi + n) of each of x and y (vector<W>)
 * pairwise: the first half of the result comes from x, the second from y,
 * in blocks of n lanes: result block k = x/y block (2k) + block (2k + 1). */
static int foldPairs(RockGen *g, int x, int y, int W, int n) {
  RockStr m[2] = {{0}, {0}};
  int cnt = 0;
  for (int src = 0; src < 2; ++src)
    for (int blk = 0; blk < W / (2 * n); ++blk)
      for (int l = 0; l < n; ++l, ++cnt)
        for (int k = 0; k < 2; ++k)
          rock__strAppendf(&m[k], "%s%d", cnt ? ", " : "",
                           src * W + (2 * blk + k) * n + l);
  int sh[2];
  for (int k = 0; k < 2; ++k) {
    sh[k] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<%dxf32>, "
                  "vector<%dxf32>",
                  sh[k], x, y, m[k].data, W, W);
    rock__strFree(&m[k]);
  }
  char ty[32];
  snprintf(ty, sizeof ty, "vector<%dxf32>", W);
  return rock__genBinF(g, "arith.addf", sh[0], sh[1], ty);
}

/* The four horizontal sums of v[0..3] (vector<16xf32>) as one
 * vector<4xf32>, by a shuffle-and-add tree (12 ops instead of 4 separate
 * reductions of ~8 each). */
int rock__cpuReduce4(RockGen *g, const int v[4]) {
  /* [v0: 8 partial sums | v1: 8], [v2: 8 | v3: 8] */
  int a = foldPairs(g, v[0], v[1], 16, 8);
  int b = foldPairs(g, v[2], v[3], 16, 8);
  /* [v0: 4 | v1: 4 | v2: 4 | v3: 4] */
  int c = foldPairs(g, a, b, 16, 4);
  /* 8 lanes [v0: 2 | v1: 2 | v2: 2 | v3: 2]: fold blocks of 2 within c. */
  RockStr m[2] = {{0}, {0}};
  for (int l = 0; l < 8; ++l)
    for (int k = 0; k < 2; ++k)
      rock__strAppendf(&m[k], "%s%d", l ? ", " : "",
                       (l / 2) * 4 + k * 2 + l % 2);
  int sh[2];
  for (int k = 0; k < 2; ++k) {
    sh[k] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<16xf32>, "
                  "vector<16xf32>",
                  sh[k], c, c, m[k].data);
    rock__strFree(&m[k]);
  }
  int d = rock__genBinF(g, "arith.addf", sh[0], sh[1], "vector<8xf32>");
  int e0 = rock__genFresh(g), e1 = rock__genFresh(g);
  rock__genLine(
      g,
      "%%v%d = vector.shuffle %%v%d, %%v%d [0, 2, 4, 6] : vector<8xf32>, "
      "vector<8xf32>",
      e0, d, d);
  rock__genLine(
      g,
      "%%v%d = vector.shuffle %%v%d, %%v%d [1, 3, 5, 7] : vector<8xf32>, "
      "vector<8xf32>",
      e1, d, d);
  return rock__genBinF(g, "arith.addf", e0, e1, "vector<4xf32>");
}

/* acc + Σ pairs a[2i]*b[2i] + a[2i+1]*b[2i+1]: vdpbf16ps on
 * vector<32xbf16> operands into vector<16xf32>. */
int rock__cpuDotBf16(RockGen *g, int acc, int x, int y) {
  int r = rock__genFresh(g);
  rock__genLine(
      g,
      "%%v%d = llvm.call_intrinsic \"llvm.x86.avx512bf16.dpbf16ps.512\"("
      "%%v%d, %%v%d, %%v%d) : (vector<16xf32>, vector<32xbf16>, "
      "vector<32xbf16>) -> vector<16xf32>",
      r, acc, x, y);
  return r;
}

void rock__cpuScaledO(RockGen *g, const RockCpuBufs *b, const int *rows, int nr,
                      const int *cols, int nv, int *init) {
  char ib[128];
  for (int h = 0; h < nr; ++h) {
    int cv = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", cv, b->Ct,
                  rows[h], b->mRow);
    int cb = rock__genBcast(g, cv, 16, "f32");
    for (int v = 0; v < nv; ++v) {
      rock__idx2(ib, sizeof ib, rows[h], cols[v]);
      int o = rock__genLoad(g, b->Ot, b->mOt, ib, 16, "f32");
      init[h * nv + v] =
          rock__genBinF(g, "arith.mulf", o, cb, "vector<16xf32>");
    }
  }
}

int rock__cpuBcastGroup(RockGen *g, int buf, const char *mt, const char *idx,
                        int E, const char *elt) {
  int pp = rock__genLoad(g, buf, mt, idx, E, elt);
  if (E == 1)
    return rock__genBcast(g, pp, 16, elt);
  RockStr m = {0};
  for (int l = 0; l < 16 * E; ++l)
    rock__strAppendf(&m, "%s%d", l ? ", " : "", l % E);
  char ty[32];
  snprintf(ty, sizeof ty, "vector<%dx%s>", E, elt);
  return shuffle(g, pp, pp, &m, ty);
}

int rock__cpuDotU8S8(RockGen *g, int acc, int x, int y) {
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.call_intrinsic \"llvm.x86.avx512.vpdpbusd.512\"("
                "%%v%d, %%v%d, %%v%d) : (vector<16xi32>, vector<64xi8>, "
                "vector<64xi8>) -> vector<16xi32>",
                r, acc, x, y);
  return r;
}

/* vcvtneps2bf16 per 16 lanes; the halves of a wider vector joined by
 * shuffles. */
int rock__cpuCvtBf16(RockGen *g, int v, int w) {
  int parts[8], n = w / 16;
  for (int k = 0; k < n; ++k) {
    int x = v;
    if (n > 1) {
      x = rock__genFresh(g);
      rock__genLine(g,
                    "%%v%d = vector.extract_strided_slice %%v%d {offsets = "
                    "[%d], sizes = [16], strides = [1]} : vector<%dxf32> to "
                    "vector<16xf32>",
                    x, v, 16 * k, w);
    }
    parts[k] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = llvm.call_intrinsic "
                  "\"llvm.x86.avx512bf16.cvtneps2bf16.512\"(%%v%d) : "
                  "(vector<16xf32>) -> vector<16xbf16>",
                  parts[k], x);
  }
  /* Join pairwise: 16 + 16 -> 32, ... */
  for (int width = 16; n > 1; width *= 2, n /= 2)
    for (int k = 0; k < n / 2; ++k) {
      RockStr m = {0};
      for (int l = 0; l < 2 * width; ++l)
        rock__strAppendf(&m, "%s%d", l ? ", " : "", l);
      char ty[32];
      snprintf(ty, sizeof ty, "vector<%dxbf16>", width);
      parts[k] = shuffle(g, parts[2 * k], parts[2 * k + 1], &m, ty);
    }
  return parts[0];
}

/* Lanes x[o], y[o], x[o+1], y[o+1], ..., x[o+15], y[o+15] of two
 * vector<32xbf16>. */
int rock__cpuInterleave16(RockGen *g, int x, int y, int o) {
  RockStr m = {0};
  for (int l = 0; l < 16; ++l)
    rock__strAppendf(&m, "%s%d, %d", l ? ", " : "", o + l, 32 + o + l);
  return shuffle(g, x, y, &m, "vector<32xbf16>");
}

/* gemm0 of the fused form when K is key-major in memory: per row group
 * and block of 64 keys, S[r][j..j+64] = Σ_d Q[r][d] * K[d][j..j+64] with
 * four vector loads of K per d (256 contiguous bytes of each d row) shared
 * by the ROCK_CPU_FUSE_ROWS rows; then blocks of 16 keys, then single keys.
 * `ktv` is the [Bkv, Dqk, Sk] view of K. */
void rock__cpuGemm0KeyMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                            int ktv, int gBlk, int j0, int nCols, int nRows) {
  char ib[128], mkt[128], tk[64], tk1[32];
  rock__typeStr(tk1, sizeof tk1, a->tk, 1);
  snprintf(mkt, sizeof mkt, "memref<%lldx%lldx%lldx%s>", (long long)a->Bkv,
           (long long)a->Dqk, (long long)a->Sk, tk1);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  int rg = rock__genFor(g, c0, nRows, rock__genIndex(g, ROCK_CPU_FUSE_ROWS));
  int rows[ROCK_CPU_FUSE_ROWS];
  rows[0] = rg;
  for (int h = 1; h < ROCK_CPU_FUSE_ROWS; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
  /* Key blocks: 4 x 16 lanes, 1 x 16 lanes, single keys. */
  static const int nvs[3] = {4, 1, 1}, ws[3] = {16, 16, 1};
  int lo = c0;
  for (int k = 0; k < 3; ++k) {
    int nv = nvs[k], w = ws[k], blk = nv * w;
    int cB = rock__genIndex(g, blk);
    int hi =
        blk == 1
            ? nCols
            : rock__genBin(g, "arith.muli",
                           rock__genBin(g, "arith.divui", nCols, cB, "index"),
                           cB, "index");
    const char *vt = w == 16 ? "vector<16xf32>" : "f32";
    int j = rock__genFor(g, lo, hi, cB);
    enum { NA = ROCK_CPU_FUSE_ROWS * 4 };
    int n = ROCK_CPU_FUSE_ROWS * nv;
    int init[NA], args[NA], res[NA], nacc[NA], d, jv[4];
    for (int i = 0; i < n; ++i)
      init[i] = rock__genZero(g, "f32", w);
    for (int v = 0; v < nv; ++v)
      jv[v] = v ? rock__genBin(g, "arith.addi", j, rock__genIndex(g, v * w),
                               "index")
                : j;
    rock__genForMulti(g, c0, rock__genIndex(g, a->Dqk), c1, n, init, vt, &d,
                      args, res);
    rock__typeStr(tk, sizeof tk, a->tk, w);
    int kv[4];
    for (int v = 0; v < nv; ++v) {
      int ld = rock__genFresh(g);
      rock__idx3(ib, sizeof ib, gBlk, d,
                 rock__genBin(g, "arith.addi", j0, jv[v], "index"));
      rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, ktv,
                    ib, mkt, tk);
      kv[v] = rock__genConv(g, ld, a->tk, a->acc, w);
    }
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
      rock__idx2(ib, sizeof ib, rows[h], d);
      int q = rock__genBcast(g, rock__genLoad(g, b->Ql, b->mQl, ib, 1, "f32"),
                             w, "f32");
      for (int v = 0; v < nv; ++v)
        nacc[h * nv + v] =
            rock__genBinF(g, "arith.addf", args[h * nv + v],
                          rock__genBinF(g, "arith.mulf", q, kv[v], vt), vt);
    }
    rock__genYieldMultiEnd(g, n, nacc, vt);
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h)
      for (int v = 0; v < nv; ++v) {
        rock__idx2(ib, sizeof ib, rows[h], jv[v]);
        rock__genStore(g, res[h * nv + v], b->Sa, b->mSa, ib, w, "f32");
      }
    rock__genEnd(g);
    lo = hi;
  }
  rock__genEnd(g);
}
