/*===- fused_decode.c - the fused decode form's gemm0 and gemm1 ------------===*
 *
 * The two loops of the CPU's fused decode form (lower_gridwise_attention.c):
 * K and V are read straight from their (paged) views, each element once per
 * key tile, for ROCK_CPU_FUSE_ROWS merged rows per load, with the
 * accumulators in vector registers blocked for rock.vector_bits.
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"

#include <stdio.h>

/* Rows of K or V of at most this many bytes are read by one view access per
 * key (one page-table lookup; the vectors are slices of it in registers),
 * with the loop over d unrolled; longer rows by one access per vector. */
#define ROW_LOAD_BYTES 512

/* `w` lanes of row `jj` of K (isV false) or V from column `col` (an index
 * id; `cst` its value): a slice of `row` (the whole row from column `base`,
 * or -1: a view access of its own). */
static int rowSlice(RockGen *g, const RockAttn *a, bool isV, int gBlk, int jj,
                    int row, int64_t rowLen, int64_t cst, int col, int w) {
  MlirType t = isV ? a->tv : a->tk;
  char ib[128], ts[64], tr[64];
  rock__typeStr(ts, sizeof ts, t, w);
  if (row < 0) {
    rock__idx3(ib, sizeof ib, gBlk, jj, col);
    int r = rock__genFresh(g);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", r,
                  isV ? a->v : a->k, ib, isV ? a->mv : a->mk, ts);
    return r;
  }
  rock__typeStr(tr, sizeof tr, t, (int)rowLen);
  /* bf16 rows are sliced as i16: LLVM 22 legalises a bf16 slice of a long
   * vector for AVX2 from scalar loads (vpinsrw), an i16 slice as loads. */
  bool asInt = mlirTypeIsABF16(t);
  int src = row;
  if (asInt) {
    src = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.bitcast %%v%d : %s to vector<%lldxi16>",
                  src, row, tr, (long long)rowLen);
    snprintf(tr, sizeof tr, "vector<%lldxi16>", (long long)rowLen);
  }
  char tsl[64];
  if (asInt)
    snprintf(tsl, sizeof tsl, "vector<%dxi16>", w);
  else
    snprintf(tsl, sizeof tsl, "%s", ts);
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = vector.extract_strided_slice %%v%d {offsets = [%lld], "
                "sizes = [%d], strides = [1]} : %s to %s",
                r, src, (long long)cst, w, tr, tsl);
  if (asInt) {
    int b = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.bitcast %%v%d : vector<%dxi16> to %s", b, r,
                  w, ts);
    r = b;
  }
  return r;
}

/* The whole row of K / V at [gBlk, jj, col] as vector<n x elt>, or -1 when
 * it is longer than ROW_LOAD_BYTES. */
static int rowLoad(RockGen *g, const RockAttn *a, bool isV, int gBlk, int jj,
                   int col, int64_t n) {
  MlirType t = isV ? a->tv : a->tk;
  if (n * ((rock__bitWidth(t) + 7) / 8) > ROW_LOAD_BYTES)
    return -1;
  char ib[128];
  rock__idx3(ib, sizeof ib, gBlk, jj, col);
  return rock__genViewLoad(g, isV ? a->v : a->k, isV ? a->mv : a->mk, ib, t,
                           (int)n);
}

/* What one d step of gemm0 needs. */
typedef struct Gemm0Step {
  const RockAttn *a;
  const RockCpuBufs *b;
  const RockCpuFused *f;
  const int *rows;
  int jj, row, nu;
  const int *qreg; /* dotK: Q[r_h][32 c ..] as qreg[h * (Dqk / 32) + c], or
                      NULL (loaded per key) */
} Gemm0Step;

/* One step of gemm0 at d = `d` (index id; `cst` its value when the row is
 * in registers): nacc[nu h + u] = args[..] + Q[r_h][d + ...] · K[jj][d +
 * ...] (the product alone where args[..] is -1). */
static void gemm0Step(RockGen *g, const Gemm0Step *s, int d, int64_t cst,
                      const int *args, int *nacc) {
  const RockAttn *a = s->a;
  const RockCpuBufs *b = s->b;
  int nu = s->nu, w = s->f->dotK ? 32 : 16;
  char ib[128];
  for (int u = 0; u < (s->f->dotK ? 2 : nu); ++u) {
    int dd =
        u ? rock__genBin(g, "arith.addi", d, rock__genIndex(g, w * u), "index")
          : d;
    int kl = rowSlice(g, a, false, s->f->gBlk, s->jj, s->row, a->Dqk,
                      cst + w * u, dd, w);
    int kv = s->f->dotK ? kl : rock__cpuWiden(g, kl, a->tk, a->acc, 16);
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
      rock__idx2(ib, sizeof ib, s->rows[h], dd);
      int k = s->f->dotK && nu == 1 ? h : nu * h + u;
      if (s->f->dotK) {
        int qb = s->qreg ? s->qreg[h * (a->Dqk / 32) + (cst + w * u) / 32]
                         : rock__genLoad(g, b->Qb, b->mQb, ib, 32, "bf16");
        /* One accumulator per row (nu 1): the second chunk adds to the
         * first's result. */
        nacc[k] = rock__cpuDotBf16(g, nu == 1 && u ? nacc[k] : args[k], qb, kv);
      } else {
        int qv = rock__genLoad(g, b->Ql, b->mQl, ib, 16, "f32");
        int p = rock__genBinF(g, "arith.mulf", qv, kv, "vector<16xf32>");
        nacc[k] = args[k] < 0 ? p /* the first step of an unrolled row */
                              : rock__genBinF(g, "arith.addf", args[k], p,
                                              "vector<16xf32>");
      }
    }
  }
}

/* gemm0, ROCK_CPU_FUSE_ROWS rows per K load: S[r][j] = Σ_d Q[r][d] * K[j][d],
 * one or two 16-lane partial sums per row (two bf16 dot products with
 * `dotK`), reduced once per key. */
void rock__cpuFusedGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuFused *f) {
  int64_t MB = a->MB, Dqk = a->Dqk;
  int c0 = f->c0, c1 = f->c1, nRows = f->nRows, nCols = f->nCols, j0 = f->j0,
      gBlk = f->gBlk;
  char ib[128];
  int rg = rock__genFor(g, c0, nRows, rock__genIndex(g, ROCK_CPU_FUSE_ROWS));
  int rows[ROCK_CPU_FUSE_ROWS];
  rows[0] = rg;
  for (int h = 1; h < ROCK_CPU_FUSE_ROWS; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
  /* The dot form with d <= 128: Q's rows are loaded once per row group and
   * held in registers (d 128: 16 of the 32 vector registers, beside one
   * accumulator per row and the K row's four), instead of 16 loads per key;
   * measured on Zen 4, bf16 B 2 L 2k in cache 0.28 against 0.32 ms, above
   * L3 0.86-0.87 of the paired read probe against 0.81-0.83
   * (docs/cpu.md). */
  int qreg[ROCK_CPU_FUSE_ROWS * 4];
  /* (The K row is in registers too: the steps index qreg by constant.) */
  bool holdQ = f->dotK && Dqk <= 128 && Dqk * 2 <= ROW_LOAD_BYTES;
  for (int h = 0; holdQ && h < ROCK_CPU_FUSE_ROWS; ++h)
    for (int64_t c = 0; c < Dqk / 32; ++c) {
      rock__idx2(ib, sizeof ib, rows[h], rock__genIndex(g, 32 * c));
      qreg[h * (Dqk / 32) + c] =
          rock__genLoad(g, b->Qb, b->mQb, ib, 32, "bf16");
    }
  int j = rock__cpuKeyOrder(g, rock__genFor(g, c0, nCols, c1), nCols, MB);
  int jj = rock__genBin(g, "arith.addi", j0, j, "index");
  rock__cpuPrefetchRow(g, a, false, gBlk, jj, f->ahead, -1, Dqk);
  enum { NA = 2 * ROCK_CPU_FUSE_ROWS };
  int init[NA], args[NA], res[NA], nacc[NA], d;
  int nu = f->narrowRegs ? 1 : 2, na = nu * ROCK_CPU_FUSE_ROWS;
  int64_t step = f->dotK ? 64 : 16 * nu;
  for (int i = 0; i < NA; ++i)
    init[i] = rock__genZero(g, "f32", 16);
  if (holdQ)
    nu = 1, na = ROCK_CPU_FUSE_ROWS;
  Gemm0Step st = {a,  b,
                  f,  rows,
                  jj, rowLoad(g, a, false, gBlk, jj, c0, Dqk),
                  nu, holdQ ? qreg : NULL};
  if (st.row >= 0) {
    /* The row in registers, the d loop unrolled. */
    for (int i = 0; i < na; ++i)
      res[i] = f->dotK ? init[i] : -1;
    for (int64_t dc = 0; dc < Dqk; dc += step) {
      gemm0Step(g, &st, rock__genIndex(g, dc), dc, res, nacc);
      for (int i = 0; i < na; ++i)
        res[i] = nacc[i];
    }
  } else {
    rock__genForMulti(g, c0, rock__genIndex(g, Dqk), rock__genIndex(g, step),
                      na, init, "vector<16xf32>", &d, args, res);
    gemm0Step(g, &st, d, 0, args, nacc);
    rock__genYieldMultiEnd(g, na, nacc, "vector<16xf32>");
  }
  int sums[ROCK_CPU_FUSE_ROWS];
  for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h)
    sums[h] = nu == 1 ? res[h]
                      : rock__genBinF(g, "arith.addf", res[2 * h],
                                      res[2 * h + 1], "vector<16xf32>");
  int red = rock__cpuReduce4(g, sums);
  for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
    int e = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract %%v%d[%d] : f32 from vector<4xf32>",
                  e, red, h);
    rock__idx2(ib, sizeof ib, rows[h], j);
    rock__genStore(g, e, b->Sa, b->mSa, ib, 1, "f32");
  }
  rock__genEnd(g);
  rock__genEnd(g);
}

/* One pass of gemm1 over the tile: columns [dc, dc + DC) of O for the
 * rows `rows`, DC / 16 accumulators per row; the software prefetch takes
 * the same columns of the V rows ahead. */
static void gemm1Pass(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                      const RockCpuFused *f, const int *rows, int dc, int DC) {
  MlirType f32 = a->f32;
  int64_t MB = a->MB;
  int c0 = f->c0, c1 = f->c1, nCols = f->nCols, j0 = f->j0, gBlk = f->gBlk;
  int NS = DC / 16;
  char ib[128];
  enum { NA = ROCK_CPU_FUSE_ROWS * 4 };
  int init[NA], args[NA], res[NA], nacc[NA], cols[4], cbs[ROCK_CPU_FUSE_ROWS];
  for (int s = 0; s < NS; ++s)
    cols[s] = s ? rock__genBin(g, "arith.addi", dc, rock__genIndex(g, 16 * s),
                               "index")
                : dc;
  for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
    int cv = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", cv, b->Ct,
                  rows[h], b->mRow);
    cbs[h] = rock__genBcast(g, cv, 16, "f32");
    /* The tile's sum starts from 0 and meets c * O once after the loop
     * (blocked summation: the rounding error grows with the keys of a tile
     * plus the number of tiles, not with every key of the row). */
    for (int s = 0; s < NS; ++s)
      init[h * NS + s] = rock__genZero(g, "f32", 16);
  }
  int n = ROCK_CPU_FUSE_ROWS * NS, j, lo = c0;
  if (f->dotV) {
    /* Key pairs (2t, 2t + 1) by vdpbf16ps: the V rows interleaved
     * lane by lane against (P[2t], P[2t + 1]) repeated; an odd last key
     * goes through the f32 loop below. */
    int np =
        rock__genBin(g, "arith.divui", nCols, rock__genIndex(g, 2), "index");
    int t, pargs[NA], pres[NA];
    rock__genForMulti(g, c0, np, c1, n, init, "vector<16xf32>", &t, pargs,
                      pres);
    int t2 = rock__genBin(g, "arith.muli", t, rock__genIndex(g, 2), "index");
    int jk[2] = {
        rock__cpuKeyOrder(g, t2, nCols, MB),
        rock__cpuKeyOrder(g, rock__genBin(g, "arith.addi", t2, c1, "index"),
                          nCols, MB)};
    int vr[2][2], il[4];
    for (int k = 0; k < 2; ++k) {
      int jjk = rock__genBin(g, "arith.addi", j0, jk[k], "index");
      rock__cpuPrefetchRow(g, a, true, gBlk, jjk, f->ahead, dc, DC);
      int row = rowLoad(g, a, true, gBlk, jjk, dc, DC);
      for (int hf = 0; hf < 2; ++hf) {
        int col = hf ? rock__genBin(g, "arith.addi", dc, rock__genIndex(g, 32),
                                    "index")
                     : dc;
        vr[k][hf] = rowSlice(g, a, true, gBlk, jjk, row, DC, 32 * hf, col, 32);
      }
    }
    for (int q = 0; q < 4; ++q)
      il[q] =
          rock__cpuInterleave16(g, vr[0][q / 2], vr[1][q / 2], (q % 2) * 16);
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
      rock__idx2(ib, sizeof ib, rows[h], t2);
      int pv = rock__cpuBcastGroup(g, b->Pb, b->mPb, ib, 2, "bf16");
      for (int q = 0; q < NS; ++q)
        nacc[h * NS + q] = rock__cpuDotBf16(g, pargs[h * NS + q], pv, il[q]);
    }
    rock__genYieldMultiEnd(g, n, nacc, "vector<16xf32>");
    for (int i = 0; i < n; ++i)
      init[i] = pres[i];
    lo = rock__genBin(g, "arith.muli", np, rock__genIndex(g, 2), "index");
  }
  rock__genForMulti(g, lo, nCols, c1, n, init, "vector<16xf32>", &j, args, res);
  j = rock__cpuKeyOrder(g, j, nCols, MB);
  int jj = rock__genBin(g, "arith.addi", j0, j, "index");
  rock__cpuPrefetchRow(g, a, true, gBlk, jj, f->ahead, dc, DC);
  int vv[4], pb[ROCK_CPU_FUSE_ROWS];
  int row = rowLoad(g, a, true, gBlk, jj, dc, DC);
  for (int s = 0; s < NS; ++s)
    vv[s] = rock__cpuWiden(
        g, rowSlice(g, a, true, gBlk, jj, row, DC, 16 * s, cols[s], 16), a->tv,
        f32, 16);
  for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
    rock__idx2(ib, sizeof ib, rows[h], j);
    pb[h] = rock__genBcast(g, rock__genLoad(g, b->St, b->mSt, ib, 1, "f32"), 16,
                           "f32");
    for (int s = 0; s < NS; ++s) {
      int pv = rock__genBinF(g, "arith.mulf", pb[h], vv[s], "vector<16xf32>");
      nacc[h * NS + s] = rock__genBinF(g, "arith.addf", args[h * NS + s], pv,
                                       "vector<16xf32>");
    }
  }
  rock__genYieldMultiEnd(g, n, nacc, "vector<16xf32>");
  for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h)
    for (int s = 0; s < NS; ++s) {
      rock__idx2(ib, sizeof ib, rows[h], cols[s]);
      int o = rock__genLoad(g, b->Ot, b->mOt, ib, 16, "f32");
      int on = rock__genFma(g, o, cbs[h], res[h * NS + s], "vector<16xf32>");
      rock__genStore(g, on, b->Ot, b->mOt, ib, 16, "f32");
    }
}

/* gemm1, ROCK_CPU_FUSE_ROWS rows per V load, DC columns of O in registers:
 * O[r][d] = c[r] * O[r][d] + Σ_j P[r][j] * V[j][d]. */
void rock__cpuFusedGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuFused *f) {
  int64_t Dv = a->Dv;
  int c0 = f->c0;
  int DC = f->narrowV ? 16 : Dv % 64 == 0 ? 64 : Dv % 32 == 0 ? 32 : 16;
  int rg = rock__genFor(g, c0, f->nRows, rock__genIndex(g, ROCK_CPU_FUSE_ROWS));
  int rows[ROCK_CPU_FUSE_ROWS];
  rows[0] = rg;
  for (int h = 1; h < ROCK_CPU_FUSE_ROWS; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
  /* Each pass prefetches its own columns of the V rows ahead: the
   * prefetches spread over both passes. (All of a row's lines in the first
   * pass and none in the second was slower on Zen 4: 0.82 against 0.86 of
   * the paired read probe, bf16 B 16 L 16k; the memory idles in the second
   * pass.) */
  int dc = rock__genFor(g, c0, rock__genIndex(g, Dv), rock__genIndex(g, DC));
  gemm1Pass(g, a, b, f, rows, dc, DC);
  rock__genEnd(g);
  rock__genEnd(g);
}
