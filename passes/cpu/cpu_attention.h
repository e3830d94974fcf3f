/*===- cpu_attention.h - the CPU tile forms of the attention -------*- C
 *-*-===//
 *
 * Pieces of the CPU schedule of rock.gridwise_attention (lower_gridwise_
 * attention.c) that are specific to x86 vector code: the vectorisable exp2,
 * the fused decode loops' key order and software prefetch, the horizontal
 * reductions, the AVX512-BF16 dot products and the key-major gemm0.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_CPU_ATTENTION_H
#define ROCK_PASSES_CPU_ATTENTION_H

#include "attention/attention.h"

/* Merged rows per register block of the fused decode form. */
#define ROCK_CPU_FUSE_ROWS 4
/* Interleaved key streams of the fused decode loops (see keyOrder). */
#define ROCK_CPU_KEY_STREAMS 8

/* The per-workgroup local buffers of the CPU schedule (ids, -1 when not
 * allocated) and their printed types. */
typedef struct RockCpuBufs {
  int Ql, KT, Vl, Sa, St, Ot, Mt, Lt, Last, Low, Ct, Qb, Pb;
  char mQb[64], mPb[64], mQl[64], mKT[64], mVl[64], mSa[64], mSt[64], mOt[64],
      mRow[64], mIdx[64];
  const char *acc; /* "f32" or "i32" */
} RockCpuBufs;

/* exp2(d) for f32 d <= 0 as a vectorisable arith polynomial (see
 * attention_tiles.c); the CPU's RockAttnTarget::exp2. */
int rock__cpuExp2Poly(RockGen *g, int d, int w);
/* The key visited at step `j` of a fused decode loop over a tile of `nCols`
 * keys (interleaved streams for a full tile). */
int rock__cpuKeyOrder(RockGen *g, int j, int nCols, int64_t MB);
/* Software prefetch of row `jj` + MB of K (isV false) or V, columns
 * [d0, d0 + n) (d0 < 0: from 0). */
void rock__cpuPrefetchRow(RockGen *g, const RockAttn *a, bool isV, int gBlk,
                          int jj, int d0, int64_t n);
/* The four horizontal sums of v[0..3] (vector<16xf32>) as a vector<4xf32>. */
int rock__cpuReduce4(RockGen *g, const int v[4]);
/* acc + pairwise bf16 products: vdpbf16ps on vector<32xbf16> operands. */
int rock__cpuDotBf16(RockGen *g, int acc, int x, int y);
/* Lanes x[o], y[o], ..., x[o+15], y[o+15] of two vector<32xbf16>. */
int rock__cpuInterleave16(RockGen *g, int x, int y, int o);
/* gemm0 of the fused form for key-major K (`ktv`: a [Bkv, Dqk, Sk] view). */
void rock__cpuGemm0KeyMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                            int ktv, int gBlk, int j0, int nCols, int nRows);

#endif
