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
  int Ql, KT, Vl, Sa, St, Ot, Mt, Lt, Last, Low, Ct, Qb, Pb, KP, VP, Kb;
  char mQb[64], mPb[64], mQl[64], mKT[64], mVl[64], mSa[64], mSt[64], mOt[64],
      mRow[64], mIdx[64], mKP[64], mVP[64], mKb[64];
  const char *acc; /* "f32" or "i32" */
} RockCpuBufs;

/* The loop state the fused decode loops need (ids of the generated code). */
typedef struct RockCpuFused {
  int c0, c1;       /* index constants 0 and 1 */
  int nRows, nCols; /* real merged rows of the block, keys of the tile */
  int j0, gBlk;     /* first key of the tile, the KV batch of the block */
  bool dotK, dotV;  /* vdpbf16ps in gemm0 / gemm1 */
  bool narrowRegs;  /* 16 x 256-bit registers (rock.vector_bits 256) */
  bool narrowV;     /* ... and V is 16-bit: 16 columns of O in gemm1 */
  int64_t ahead;    /* keys the software prefetch runs ahead */
} RockCpuFused;

/* The loop state of the packed prefill form (packed_prefill.c,
 * amx_prefill.c). */
typedef struct RockCpuPack {
  int c0, c1;       /* index constants 0 and 1 */
  int nRows, nCols; /* real merged rows of the block, keys of the tile */
  int j0, gBlk;     /* first key of the tile, the KV batch of the block */
  int ktv;          /* the [Bkv, Dqk, Sk] view of key-major K, else -1 */
  bool biasQ;       /* i8 on vpdpbusd: Q is held as u8 q + 128 (b->Kb) */
} RockCpuPack;

/* The packed form's element groups: the E = 32 / bits values of one
 * 32-bit lane of a dot product (bf16: 2, vdpbf16ps / tdpbf16ps; i8: 4,
 * vpdpbusd / tdpbssd) are adjacent in the packed K; rock__cpuPackGroup(a)
 * is K's E. */
int rock__cpuPackGroup(const RockAttn *a);
/* E copies of buf[idx .. idx + E) (E values of type elt; a 2-D memref of
 * type mt) over 16 E lanes: one 32-bit broadcast (E = 1: of a scalar). */
int rock__cpuBcastGroup(RockGen *g, int buf, const char *mt, const char *idx,
                        int E, const char *elt);

/* Packs the tile's K into b->KP ([Dqk/E][E MB]: KP[t][Ej+e] = K[j][Et+e],
 * E = rock__cpuPackGroup) and, with p->biasQ, 128 Σ_d K[j][d] per key into
 * b->Kb; bf16 V into b->VP ([MB/2][2 Dv]: VP[u][2d+e] = V[2u+e][d]);
 * padding keys are zeros. */
void rock__cpuPackK(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p);
void rock__cpuPackV(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p);
/* The packed form's gemm0 (scores into b->Sa from b->Qb and b->KP) and
 * gemm1 (O = c O + P V into b->Ot from the rescale factors b->Ct and, for
 * bf16 V, b->Pb and b->VP, else the f32 P in b->St and V in b->Vl), by
 * register blocks (NB a multiple of 8, MB and Dv of 32) of vdpbf16ps
 * (bf16), vpdpbusd (i8 gemm0) or f32 FMAs (gemm1 of other V) ... */
void rock__cpuPackedGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuPack *p);
void rock__cpuPackedGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuPack *p);
/* ... or by AMX tiles (amx_prefill.c; NB a multiple of 32, MB of 32, Dqk of
 * 16 E, Dv of 32; gemm1 for bf16 V only). */
void rock__cpuAmxGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                       const RockCpuPack *p);
void rock__cpuAmxGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                       const RockCpuPack *p);

/* One merged row's scores of a key tile (no pre-softmax region;
 * tile_scores.c): S[r][0..MB) scaled into the exp2 domain, masked only when
 * some key of the tile is, stored to b->St; returns their maximum (f32). */
typedef struct RockCpuScores {
  int r, j0, nCols;   /* the row, the tile's first key and real key count */
  const RockSeg *seg; /* the segments of [0, MB) */
  int nSeg;
} RockCpuScores;
int rock__cpuTileScores(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                        const RockCpuScores *s);
/* The same with the pre-softmax region, for the merged row x (tile_scores.c).
 */
int rock__cpuRegionScores(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuScores *s, RockRowIdx x);
/* The maximum (f32) of row r of b->St over the segments seg[0..nSeg). */
int rock__cpuRowMax(RockGen *g, const RockCpuBufs *b, int r, const RockSeg *seg,
                    int nSeg);

/* The fused decode form's gemm0 (scores into b->Sa) and gemm1 (O += P V
 * into b->Ot) for one key tile (fused_decode.c). */
void rock__cpuFusedGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuFused *f);
void rock__cpuFusedGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuFused *f);

/* exp2(d) for f32 d <= 0 as a vectorisable arith polynomial (see
 * attention_tiles.c); the CPU's RockAttnTarget::exp2. */
int rock__cpuExp2Poly(RockGen *g, int d, int w);
/* The key visited at step `j` of a fused decode loop over a tile of `nCols`
 * keys (interleaved streams for a full tile). */
int rock__cpuKeyOrder(RockGen *g, int j, int nCols, int64_t MB);
/* Rows [0, nRows) of the bf16 [NB][MB] buffer `buf` (type mt), written in
 * key order, rearranged into rock__cpuKeyOrder's visiting order when the
 * tile is full (one shuffle per row). */
void rock__cpuKeyOrderRows(RockGen *g, int buf, const char *mt, int nRows,
                           int nCols, int64_t MB);
/* `v` (vector<w x from>) widened to `to`; bf16 -> f32 as the bit shift it
 * is, on integers (exact; LLVM 22 scalarises half of a 16-lane bf16 fpext
 * sliced from a longer vector on AVX2 hosts), else rock__genConv. */
int rock__cpuWiden(RockGen *g, int v, MlirType from, MlirType to, int w);
/* Software prefetch of row `jj` + `ahead` of K (isV false) or V, columns
 * [d0, d0 + n) (d0 < 0: from 0). */
void rock__cpuPrefetchRow(RockGen *g, const RockAttn *a, bool isV, int gBlk,
                          int jj, int64_t ahead, int d0, int64_t n);
/* The four horizontal sums of v[0..3] (vector<16xf32>) as a vector<4xf32>. */
int rock__cpuReduce4(RockGen *g, const int v[4]);
/* acc + pairwise bf16 products: vdpbf16ps on vector<32xbf16> operands. */
int rock__cpuDotBf16(RockGen *g, int acc, int x, int y);
/* The starting accumulators of a gemm1 register block: init[h nv + v] =
 * Ct[rows[h]] * Ot[rows[h]][cols[v] .. + 16) for h < nr, v < nv. */
void rock__cpuScaledO(RockGen *g, const RockCpuBufs *b, const int *rows, int nr,
                      const int *cols, int nv, int *init);
/* acc + Σ of the four u8 x s8 products of each 32-bit lane of x (u8) and
 * y (s8): vpdpbusd on vector<64xi8> operands into vector<16xi32>. */
int rock__cpuDotU8S8(RockGen *g, int acc, int x, int y);
/* f32 %v (vector<w>, w a multiple of 16) to bf16 by vcvtneps2bf16 (round to
 * nearest even; AVX512-BF16). */
int rock__cpuCvtBf16(RockGen *g, int v, int w);
/* Lanes x[o], y[o], ..., x[o+15], y[o+15] of two vector<32xbf16>. */
int rock__cpuInterleave16(RockGen *g, int x, int y, int o);
/* gemm0 of the fused form for key-major K (`ktv`: a [Bkv, Dqk, Sk] view). */
void rock__cpuGemm0KeyMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                            int ktv, int gBlk, int j0, int nCols, int nRows);

#endif
