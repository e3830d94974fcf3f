/*===- packed_prefill.c - the bf16 prefill form on pair-packed tiles -------===*
 *
 * The CPU's bf16 prefill form (lower_gridwise_attention.c, docs/cpu.md):
 * per key tile K and V are packed once into local tiles in which the two
 * bf16 values that one f32 lane of a dot product sums are adjacent (the
 * "VNNI" layout of AVX512-BF16 and of AMX's B operand):
 *
 *   KP[t][2j + e] = K[j][2t + e]     ([Dqk/2][2 MB]: key pairs along d)
 *   VP[u][2d + e] = V[2u + e][d]     ([MB/2][2 Dv]: value pairs along keys)
 *
 * and the two gemms run on those, with Q (bf16, [NB][Dqk]) and P (bf16,
 * [NB][MB]) as the row operands: here as vdpbf16ps register blocks (each
 * instruction multiplies one broadcast (Q or P) pair with 16 packed pairs and
 * adds both products to 16 f32 lanes), in amx_prefill.c as AMX tiles.
 * Padding keys of a partial tile are packed as zeros.
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"

#include <stdio.h>

/* Register blocks of the vdpbf16ps gemms: ACCS accumulators of the 32
 * registers, as 4 rows x 4 vectors of 16 columns (or 8 x 2 where the
 * columns are a multiple of 32 only), plus 4-8 operand registers. */
#define ACCS 16
#define MAX_ROWS 8

/* Stores the interleave of x and y (two vector<32xbf16>: lanes x0 y0 x1 y1
 * ...) as 64 packed values at buf[row][col .. col + 64). */
static void storePairs(RockGen *g, int buf, const char *mt, int row, int col,
                       int x, int y) {
  char ib[128];
  for (int h = 0; h < 2; ++h) {
    int il = rock__cpuInterleave16(g, x, y, 16 * h);
    int c =
        h ? rock__genBin(g, "arith.addi", col, rock__genIndex(g, 32), "index")
          : col;
    rock__idx2(ib, sizeof ib, row, c);
    rock__genStore(g, il, buf, mt, ib, 32, "bf16");
  }
}

/* K [.., Dqk, Sk] in memory (ktv: the [Bkv, Dqk, Sk] view): rows 2t and
 * 2t + 1 of d interleaved, 32 keys per load; a key tail one by one. */
static void packKeyMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuPack *p) {
  char ib[128], mkt[128];
  snprintf(mkt, sizeof mkt, "memref<%lldx%lldx%lldxbf16>", (long long)a->Bkv,
           (long long)a->Dqk, (long long)a->Sk);
  int c0 = p->c0, c1 = p->c1, c2 = rock__genIndex(g, 2),
      c32 = rock__genIndex(g, 32);
  int full = rock__genBin(
      g, "arith.muli", rock__genBin(g, "arith.divui", p->nCols, c32, "index"),
      c32, "index");
  int t = rock__genFor(g, c0, rock__genIndex(g, a->Dqk / 2), c1);
  int d0 = rock__genBin(g, "arith.muli", t, c2, "index");
  int d1 = rock__genBin(g, "arith.addi", d0, c1, "index");
  int jb = rock__genFor(g, c0, full, c32);
  int jj = rock__genBin(g, "arith.addi", p->j0, jb, "index");
  int xy[2];
  for (int e = 0; e < 2; ++e) {
    xy[e] = rock__genFresh(g);
    rock__idx3(ib, sizeof ib, p->gBlk, e ? d1 : d0, jj);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> vector<32xbf16>",
                  xy[e], p->ktv, ib, mkt);
  }
  storePairs(g, b->KP, b->mKP, t,
             rock__genBin(g, "arith.muli", jb, c2, "index"), xy[0], xy[1]);
  rock__genEnd(g);
  int j = rock__genFor(g, full, p->nCols, c1);
  jj = rock__genBin(g, "arith.addi", p->j0, j, "index");
  int j2 = rock__genBin(g, "arith.muli", j, c2, "index");
  for (int e = 0; e < 2; ++e) {
    int x = rock__genFresh(g);
    rock__idx3(ib, sizeof ib, p->gBlk, e ? d1 : d0, jj);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> bf16", x, p->ktv,
                  ib, mkt);
    rock__idx2(ib, sizeof ib, t,
               e ? rock__genBin(g, "arith.addi", j2, c1, "index") : j2);
    rock__genStore(g, x, b->KP, b->mKP, ib, 1, "bf16");
  }
  rock__genEnd(g);
  rock__genEnd(g);
}

/* K [.., Sk, Dqk] in memory: each key's row of d is already in pairs; the
 * 32-bit pairs are scattered to their rows of KP. */
static void packDimMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuPack *p) {
  char ib[128];
  int c2 = rock__genIndex(g, 2);
  int j = rock__genFor(g, p->c0, p->nCols, p->c1);
  int jj = rock__genBin(g, "arith.addi", p->j0, j, "index");
  int j2 = rock__genBin(g, "arith.muli", j, c2, "index");
  for (int64_t c = 0; c < a->Dqk; c += 32) {
    rock__idx3(ib, sizeof ib, p->gBlk, jj, rock__genIndex(g, c));
    int x = rock__genViewLoad(g, a->k, a->mk, ib, a->tk, 32);
    for (int l = 0; l < 16; ++l) {
      int pr = rock__genFresh(g);
      rock__genLine(g,
                    "%%v%d = vector.extract_strided_slice %%v%d {offsets = "
                    "[%d], sizes = [2], strides = [1]} : vector<32xbf16> to "
                    "vector<2xbf16>",
                    pr, x, 2 * l);
      rock__idx2(ib, sizeof ib, rock__genIndex(g, c / 2 + l), j2);
      rock__genStore(g, pr, b->KP, b->mKP, ib, 2, "bf16");
    }
  }
  rock__genEnd(g);
}

void rock__cpuPackK(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p) {
  if (p->ktv >= 0)
    packKeyMajor(g, a, b, p);
  else
    packDimMajor(g, a, b, p);
  /* Padding keys of a partial tile: zero pairs (their scores are masked;
   * zeros keep them finite). */
  char ib[128];
  int c2 = rock__genIndex(g, 2);
  int j = rock__genFor(g, p->nCols, rock__genIndex(g, a->MB), p->c1);
  int t = rock__genFor(g, p->c0, rock__genIndex(g, a->Dqk / 2), p->c1);
  rock__idx2(ib, sizeof ib, t, rock__genBin(g, "arith.muli", j, c2, "index"));
  rock__genStore(g, rock__genZero(g, "bf16", 2), b->KP, b->mKP, ib, 2, "bf16");
  rock__genEnd(g);
  rock__genEnd(g);
}

void rock__cpuPackV(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p) {
  char ib[128];
  int c1 = p->c1, c2 = rock__genIndex(g, 2);
  /* Pairs [0, ceil(nCols / 2)); the second key of an odd last pair is a
   * zero row. */
  int nPairs = rock__genBin(
      g, "arith.divui", rock__genBin(g, "arith.addi", p->nCols, c1, "index"),
      c2, "index");
  int u = rock__genFor(g, p->c0, nPairs, c1);
  int k0 = rock__genBin(g, "arith.addi", p->j0,
                        rock__genBin(g, "arith.muli", u, c2, "index"), "index");
  int k1 = rock__genBin(g, "arith.addi", k0, c1, "index");
  int last = rock__genBin(g, "arith.addi", p->j0, p->nCols, "index");
  int has1 = rock__genBin(g, "arith.cmpi ult,", k1, last, "index");
  /* The clamped key keeps the load in bounds; the select zeroes it. */
  int k1c = rock__genSelect(g, has1, k1, k0, "index");
  int zero = rock__genZero(g, "bf16", 32);
  for (int64_t c = 0; c < a->Dv; c += 32) {
    int col = rock__genIndex(g, c);
    rock__idx3(ib, sizeof ib, p->gBlk, k0, col);
    int x = rock__genViewLoad(g, a->v, a->mv, ib, a->tv, 32);
    rock__idx3(ib, sizeof ib, p->gBlk, k1c, col);
    int y = rock__genSelect(g, has1,
                            rock__genViewLoad(g, a->v, a->mv, ib, a->tv, 32),
                            zero, "vector<32xbf16>");
    storePairs(g, b->VP, b->mVP, u, rock__genIndex(g, 2 * c), x, y);
  }
  rock__genEnd(g);
  /* The pairs past them are zeros (the AMX gemm1 reads the whole tile). */
  u = rock__genFor(g, nPairs, rock__genIndex(g, a->MB / 2), c1);
  for (int64_t c = 0; c < 2 * a->Dv; c += 32) {
    rock__idx2(ib, sizeof ib, u, rock__genIndex(g, c));
    rock__genStore(g, zero, b->VP, b->mVP, ib, 32, "bf16");
  }
  rock__genEnd(g);
}

/* Vectors of 16 columns per register block for `cols` columns. */
static int blockVecs(int64_t cols) { return cols % 64 == 0 ? 4 : 2; }

/* C[r][n..n+16*nv) (+)= Σ_t pair(A[r][2t..2t+1]) · B[t][2n..] for the
 * ACCS / nv rows[]: the accumulators start at init[] and are returned in
 * res[]; `nt` pair steps, B columns of vector v at 2 * (n + 16 v). */
static void dotBlock(RockGen *g, int A, const char *mA, int B, const char *mB,
                     const int *rows, int nv, int n, int nt, const int *init,
                     int *res) {
  char ib[128];
  int t, args[ACCS], nacc[ACCS], nr = ACCS / nv;
  int c0 = rock__genIndex(g, 0), c2 = rock__genIndex(g, 2);
  rock__genForMulti(g, c0, nt, rock__genIndex(g, 1), ACCS, init,
                    "vector<16xf32>", &t, args, res);
  int t2 = rock__genBin(g, "arith.muli", t, c2, "index");
  int n2 = rock__genBin(g, "arith.muli", n, c2, "index");
  int bv[4];
  for (int v = 0; v < nv; ++v) {
    int col = v ? rock__genBin(g, "arith.addi", n2, rock__genIndex(g, 32 * v),
                               "index")
                : n2;
    rock__idx2(ib, sizeof ib, t, col);
    bv[v] = rock__genLoad(g, B, mB, ib, 32, "bf16");
  }
  for (int h = 0; h < nr; ++h) {
    rock__idx2(ib, sizeof ib, rows[h], t2);
    int ap = rock__cpuBcastPair(g, A, mA, ib);
    for (int v = 0; v < nv; ++v)
      nacc[h * nv + v] = rock__cpuDotBf16(g, args[h * nv + v], ap, bv[v]);
  }
  rock__genYieldMultiEnd(g, ACCS, nacc, "vector<16xf32>");
}

/* The keys of the tile that a group of rows[0..nr) needs: nCols, or
 * with per-row limits (KV cache, causal) up to the group's last visible key:
 * min(nCols, max(0, max_h Last[rows[h]] - j0 + 1)). The keys past it are
 * masked for every row of the group (their P is 0), so the gemms skip them:
 * on the diagonal tiles of a causal prefill, about half. */
static int groupKeys(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                     const RockCpuPack *p, const int *rows, int nr) {
  if (!a->dynamic)
    return p->nCols;
  int last = -1;
  for (int h = 0; h < nr; ++h) {
    int l = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", l, b->Last,
                  rows[h], b->mIdx);
    last = h ? rock__genBin(g, "arith.maxsi", last, l, "index") : l;
  }
  int n = rock__genBin(g, "arith.subi",
                       rock__genBin(g, "arith.addi", last, p->c1, "index"),
                       p->j0, "index");
  n = rock__genBin(g, "arith.maxsi", n, p->c0, "index");
  return rock__genBin(g, "arith.minsi", n, p->nCols, "index");
}

/* Rounds the index `n` up to a multiple of `m`. */
static int roundUp(RockGen *g, int n, int64_t m) {
  int cm = rock__genIndex(g, m);
  return rock__genBin(
      g, "arith.muli",
      rock__genBin(
          g, "arith.divui",
          rock__genBin(g, "arith.addi", n, rock__genIndex(g, m - 1), "index"),
          cm, "index"),
      cm, "index");
}

/* Groups of nr rows over [0, nRows) (rounded up: NB % nr == 0); sets
 * rows[]. */
static void rowGroup(RockGen *g, int nRows, int nr, int rows[MAX_ROWS]) {
  int rg = rock__genFor(g, rock__genIndex(g, 0), nRows, rock__genIndex(g, nr));
  rows[0] = rg;
  for (int h = 1; h < nr; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
}

void rock__cpuPackedGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuPack *p) {
  char ib[128];
  int nv = blockVecs(a->MB), nr = ACCS / nv;
  int rows[MAX_ROWS], init[ACCS], res[ACCS];
  rowGroup(g, p->nRows, nr, rows);
  int keys = roundUp(g, groupKeys(g, a, b, p, rows, nr), 16 * nv);
  int n = rock__genFor(g, p->c0, keys, rock__genIndex(g, 16 * nv));
  for (int i = 0; i < ACCS; ++i)
    init[i] = rock__genZero(g, "f32", 16);
  dotBlock(g, b->Qb, b->mQb, b->KP, b->mKP, rows, nv, n,
           rock__genIndex(g, a->Dqk / 2), init, res);
  for (int h = 0; h < nr; ++h)
    for (int v = 0; v < nv; ++v) {
      int col = v ? rock__genBin(g, "arith.addi", n, rock__genIndex(g, 16 * v),
                                 "index")
                  : n;
      rock__idx2(ib, sizeof ib, rows[h], col);
      rock__genStore(g, res[h * nv + v], b->Sa, b->mSa, ib, 16, "f32");
    }
  rock__genEnd(g);
  rock__genEnd(g);
}

void rock__cpuPackedGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuPack *p) {
  char ib[128];
  int nv = blockVecs(a->Dv), nr = ACCS / nv;
  int rows[MAX_ROWS], init[ACCS], res[ACCS], cols[4];
  rowGroup(g, p->nRows, nr, rows);
  /* Key pairs up to the keys the group needs (VP holds ceil(nCols / 2)). */
  int nPairs = rock__genBin(g, "arith.divui",
                            rock__genBin(g, "arith.addi",
                                         groupKeys(g, a, b, p, rows, nr), p->c1,
                                         "index"),
                            rock__genIndex(g, 2), "index");
  int n = rock__genFor(g, p->c0, rock__genIndex(g, a->Dv),
                       rock__genIndex(g, 16 * nv));
  for (int v = 0; v < nv; ++v)
    cols[v] =
        v ? rock__genBin(g, "arith.addi", n, rock__genIndex(g, 16 * v), "index")
          : n;
  rock__cpuScaledO(g, b, rows, nr, cols, nv, init);
  dotBlock(g, b->Pb, b->mPb, b->VP, b->mVP, rows, nv, n, nPairs, init, res);
  for (int h = 0; h < nr; ++h)
    for (int v = 0; v < nv; ++v) {
      rock__idx2(ib, sizeof ib, rows[h], cols[v]);
      rock__genStore(g, res[h * nv + v], b->Ot, b->mOt, ib, 16, "f32");
    }
  rock__genEnd(g);
  rock__genEnd(g);
}
