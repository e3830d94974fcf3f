/*===- amx_prefill.c - the packed bf16 prefill gemms on AMX tiles -------===*
 *
 * The gemms of the packed prefill form (packed_prefill.c) on a CPU with
 * AMX (module attribute rock.amx, docs/cpu.md), in the amx dialect:
 * tdpbf16ps (bf16) or tdpbssd (i8 Q·Kᵀ, s8 x s8 into i32: exact, Q as it
 * is) on 16 x 16 accumulator tiles, A tiles of 16 rows x 64 bytes (Q or P,
 * row-major) and B tiles of 16 group rows x 16 columns (the packed KP / VP
 * tiles are already in AMX's B layout). i8 attention's gemm1 (f16 V) has
 * no AMX form on AMX-BF16 / AMX-INT8 CPUs and stays in vectors. A block of 2 x
 * 2 accumulator tiles (32 rows x 32 columns) uses all 8 tile registers: 4
 * accumulators, 2 A, 2 B; the reduction dimension is unrolled (Dqk / 32
 * steps in gemm0, MB / 32 in gemm1), so no tile value crosses a loop
 * boundary. Rows are processed in blocks of 32 over [0, nRows) rounded up
 * (NB % 32 == 0; rows past nRows have zero Q and P and are never stored).
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"

#include <stdio.h>

/* The tile types and multiply of one element kind. */
typedef struct TileKind {
  int E; /* values per 32-bit group: bf16 2, i8 4 */
  const char *ta, *tc, *mul;
} TileKind;

static const TileKind tileBf16 = {2, "!amx.tile<16x32xbf16>",
                                  "!amx.tile<16x16xf32>", "amx.tile_mulf"},
                      tileI8 = {4, "!amx.tile<16x64xi8>",
                                "!amx.tile<16x16xi32>", "amx.tile_muli"};

static int tileLoad(RockGen *g, int buf, const char *mt, int row, int col,
                    const char *tt) {
  char ib[128];
  rock__idx2(ib, sizeof ib, row, col);
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = amx.tile_load %%v%d[%s] : %s into %s", r, buf, ib,
                mt, tt);
  return r;
}

static void tileStore(RockGen *g, int v, int buf, const char *mt, int row,
                      int col, const char *tc) {
  char ib[128];
  rock__idx2(ib, sizeof ib, row, col);
  rock__genLine(g, "amx.tile_store %%v%d[%s], %%v%d : %s, %s", buf, ib, v, mt,
                tc);
}

static int plus(RockGen *g, int x, int64_t k) {
  return k ? rock__genBin(g, "arith.addi", x, rock__genIndex(g, k), "index")
           : x;
}

/* A 2 x 2 block of accumulator tiles at C[r0..r0+32)[n0..n0+32) (n0 in C's
 * columns): acc[i][j] += Σ_k A[r0 + 16 i][16 E k ..] · B[16 k ..][E n0 +
 * 16 E j ..] for k < nk, the accumulators starting from C (loadC) or
 * zero. */
typedef struct TileOperands {
  int A, B, C;
  const char *mA, *mB, *mC;
  const TileKind *k;
} TileOperands;

static void tileBlock(RockGen *g, const TileOperands *o, int r0, int n0,
                      int64_t nk, bool loadC) {
  const TileKind *k = o->k;
  int acc[2][2],
      nE = rock__genBin(g, "arith.muli", n0, rock__genIndex(g, k->E), "index");
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      if (loadC) {
        acc[i][j] = tileLoad(g, o->C, o->mC, plus(g, r0, 16 * i),
                             plus(g, n0, 16 * j), k->tc);
      } else {
        acc[i][j] = rock__genFresh(g);
        rock__genLine(g, "%%v%d = amx.tile_zero : %s", acc[i][j], k->tc);
      }
    }
  for (int64_t s = 0; s < nk; ++s) {
    int at[2], bt[2];
    for (int i = 0; i < 2; ++i)
      at[i] = tileLoad(g, o->A, o->mA, plus(g, r0, 16 * i),
                       rock__genIndex(g, 16 * k->E * s), k->ta);
    for (int j = 0; j < 2; ++j)
      bt[j] = tileLoad(g, o->B, o->mB, rock__genIndex(g, 16 * s),
                       plus(g, nE, 16 * k->E * j), k->ta);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        int r = rock__genFresh(g);
        rock__genLine(g, "%%v%d = %s %%v%d, %%v%d, %%v%d : %s, %s, %s", r,
                      k->mul, at[i], bt[j], acc[i][j], k->ta, k->ta, k->tc);
        acc[i][j] = r;
      }
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      tileStore(g, acc[i][j], o->C, o->mC, plus(g, r0, 16 * i),
                plus(g, n0, 16 * j), k->tc);
}

/* Blocks of 32 rows x 32 columns over [0, nRows) x [0, nCols). */
static void tileGemm(RockGen *g, const TileOperands *o, int nRows,
                     int64_t nCols, int64_t nk, bool loadC) {
  int c0 = rock__genIndex(g, 0), c32 = rock__genIndex(g, 32);
  int r0 = rock__genFor(g, c0, nRows, c32);
  int n0 = rock__genFor(g, c0, rock__genIndex(g, nCols), c32);
  tileBlock(g, o, r0, n0, nk, loadC);
  rock__genEnd(g);
  rock__genEnd(g);
}

void rock__cpuAmxGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                       const RockCpuPack *p) {
  const TileKind *k = rock__cpuPackGroup(a) == 2 ? &tileBf16 : &tileI8;
  TileOperands o = {b->Qb, b->KP, b->Sa, b->mQb, b->mKP, b->mSa, k};
  tileGemm(g, &o, p->nRows, a->MB, a->Dqk / (16 * k->E), false);
}

void rock__cpuAmxGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                       const RockCpuPack *p) {
  /* O *= c per row in vectors first: the tiles then accumulate onto it. */
  char ib[128];
  int c0 = p->c0;
  int r = rock__genFor(g, c0, rock__genIndex(g, a->NB), p->c1);
  int cv = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", cv, b->Ct, r,
                b->mRow);
  int cb = rock__genBcast(g, cv, 16, "f32");
  int d = rock__genFor(g, c0, rock__genIndex(g, a->Dv), rock__genIndex(g, 16));
  rock__idx2(ib, sizeof ib, r, d);
  int o = rock__genLoad(g, b->Ot, b->mOt, ib, 16, "f32");
  rock__genStore(g, rock__genBinF(g, "arith.mulf", o, cb, "vector<16xf32>"),
                 b->Ot, b->mOt, ib, 16, "f32");
  rock__genEnd(g);
  rock__genEnd(g);
  TileOperands t = {b->Pb, b->VP, b->Ot, b->mPb, b->mVP, b->mOt, &tileBf16};
  tileGemm(g, &t, p->nRows, a->Dv, a->MB / 32, true);
}
