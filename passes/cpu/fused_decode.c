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

/* gemm0, ROCK_CPU_FUSE_ROWS rows per K load: S[r][j] = Σ_d Q[r][d] * K[j][d],
 * one or two 16-lane partial sums per row, reduced once per key. */
void rock__cpuFusedGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuFused *f) {
  int64_t MB = a->MB, Dqk = a->Dqk;
  int c0 = f->c0, c1 = f->c1, nRows = f->nRows, nCols = f->nCols, j0 = f->j0,
      gBlk = f->gBlk;
  bool dotK = f->dotK, narrowRegs = f->narrowRegs;
  char ib[128];
  /* gemm0, ROCK_CPU_FUSE_ROWS rows per K load: S[r][j] = Σ_d Q[r][d] *
   * K[j][d], two 16-lane partial sums per row, reduced once per key. */
  int rg = rock__genFor(g, c0, nRows, rock__genIndex(g, ROCK_CPU_FUSE_ROWS));
  int rows[ROCK_CPU_FUSE_ROWS];
  rows[0] = rg;
  for (int h = 1; h < ROCK_CPU_FUSE_ROWS; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
  int j = rock__cpuKeyOrder(g, rock__genFor(g, c0, nCols, c1), nCols, MB);
  int jj = rock__genBin(g, "arith.addi", j0, j, "index");
  rock__cpuPrefetchRow(g, a, false, gBlk, jj, -1, Dqk);
  enum { NA = 2 * ROCK_CPU_FUSE_ROWS };
  int init[NA], args[NA], res[NA], nacc[NA], d;
  int nu = narrowRegs ? 1 : 2, na = nu * ROCK_CPU_FUSE_ROWS;
  for (int i = 0; i < NA; ++i)
    init[i] = rock__genZero(g, "f32", 16);
  rock__genForMulti(g, c0, rock__genIndex(g, Dqk),
                    rock__genIndex(g, dotK ? 64 : 16 * nu), na, init,
                    "vector<16xf32>", &d, args, res);
  for (int u = 0; dotK && u < 2; ++u) {
    int dd =
        u ? rock__genBin(g, "arith.addi", d, rock__genIndex(g, 32), "index")
          : d;
    int kb = rock__genFresh(g);
    rock__idx3(ib, sizeof ib, gBlk, jj, dd);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> vector<32xbf16>",
                  kb, a->k, ib, a->mk);
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
      rock__idx2(ib, sizeof ib, rows[h], dd);
      int qb = rock__genLoad(g, b->Qb, b->mQb, ib, 32, "bf16");
      nacc[nu * h + u] = rock__cpuDotBf16(g, args[nu * h + u], qb, kb);
    }
  }
  for (int u = 0; !dotK && u < nu; ++u) {
    int dd =
        u ? rock__genBin(g, "arith.addi", d, rock__genIndex(g, 16), "index")
          : d;
    rock__idx3(ib, sizeof ib, gBlk, jj, dd);
    int ld = rock__genViewLoad(g, a->k, a->mk, ib, a->tk, 16);
    int kv = rock__genConv(g, ld, a->tk, a->acc, 16);
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
      rock__idx2(ib, sizeof ib, rows[h], dd);
      int qv = rock__genLoad(g, b->Ql, b->mQl, ib, 16, "f32");
      int p = rock__genBinF(g, "arith.mulf", qv, kv, "vector<16xf32>");
      nacc[nu * h + u] =
          rock__genBinF(g, "arith.addf", args[nu * h + u], p, "vector<16xf32>");
    }
  }
  rock__genYieldMultiEnd(g, na, nacc, "vector<16xf32>");
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

/* gemm1, ROCK_CPU_FUSE_ROWS rows per V load, DC columns of O in registers:
 * O[r][d] = c[r] * O[r][d] + Σ_j P[r][j] * V[j][d]. */
void rock__cpuFusedGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuFused *f) {
  MlirType f32 = a->f32;
  int64_t MB = a->MB, Dv = a->Dv;
  int c0 = f->c0, c1 = f->c1, nRows = f->nRows, nCols = f->nCols, j0 = f->j0,
      gBlk = f->gBlk;
  bool dotV = f->dotV, narrowV = f->narrowV;
  char ib[128];
  /* gemm1, ROCK_CPU_FUSE_ROWS rows per V load, DC columns of O in
   * registers: O[r][d] = c[r] * O[r][d] + Σ_j P[r][j] * V[j][d]. */
  int DC = narrowV        ? 16
           : Dv % 64 == 0 ? 64
           : Dv % 32 == 0 ? 32
                          : 16,
      NS = DC / 16;
  int rg = rock__genFor(g, c0, nRows, rock__genIndex(g, ROCK_CPU_FUSE_ROWS));
  int rows[ROCK_CPU_FUSE_ROWS];
  rows[0] = rg;
  for (int h = 1; h < ROCK_CPU_FUSE_ROWS; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
  int dc = rock__genFor(g, c0, rock__genIndex(g, Dv), rock__genIndex(g, DC));
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
  if (dotV) {
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
      rock__cpuPrefetchRow(g, a, true, gBlk, jjk, dc, DC);
      for (int hf = 0; hf < 2; ++hf) {
        vr[k][hf] = rock__genFresh(g);
        int col = hf ? rock__genBin(g, "arith.addi", dc, rock__genIndex(g, 32),
                                    "index")
                     : dc;
        rock__idx3(ib, sizeof ib, gBlk, jjk, col);
        rock__genLine(
            g, "%%v%d = rock.view_load %%v%d[%s] : %s -> vector<32xbf16>",
            vr[k][hf], a->v, ib, a->mv);
      }
    }
    for (int q = 0; q < 4; ++q)
      il[q] =
          rock__cpuInterleave16(g, vr[0][q / 2], vr[1][q / 2], (q % 2) * 16);
    for (int h = 0; h < ROCK_CPU_FUSE_ROWS; ++h) {
      rock__idx2(ib, sizeof ib, rows[h], t2);
      int pp = rock__genLoad(g, b->Pb, b->mPb, ib, 2, "bf16");
      RockStr m = {0};
      for (int l = 0; l < 32; ++l)
        rock__strAppendf(&m, "%s%d", l ? ", " : "", l % 2);
      int pv = rock__genFresh(g);
      rock__genLine(
          g,
          "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<2xbf16>, "
          "vector<2xbf16>",
          pv, pp, pp, m.data);
      rock__strFree(&m);
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
  rock__cpuPrefetchRow(g, a, true, gBlk, jj, dc, DC);
  int vv[4], pb[ROCK_CPU_FUSE_ROWS];
  for (int s = 0; s < NS; ++s) {
    rock__idx3(ib, sizeof ib, gBlk, jj, cols[s]);
    int ld = rock__genViewLoad(g, a->v, a->mv, ib, a->tv, 16);
    vv[s] = rock__genConv(g, ld, a->tv, f32, 16);
  }
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
  rock__genEnd(g);
  rock__genEnd(g);
}
