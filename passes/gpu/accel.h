/*===- accel.h - tile products on matrix instructions ----------------------===*
 *
 * Target-keyed emitters of one warp's (wave's) tile product
 *   C[m x n] += A[m x k] * B[k x n]
 * on the target's matrix instruction, in rock's text style (RockGen):
 *   - NVIDIA sm_80+: mma.sync m16n8k16 f16 / bf16 -> f32, m16n8k32 s8 -> s32
 *     (nvvm.mma.sync; bf16 and s8 operands packed in i32);
 *   - AMD gfx908/90a/94x/950: MFMA 16x16x16 f16 / bf16 -> f32, i8 -> i32
 *     16x16x32 (gfx94x/950) or 16x16x16 (gfx908/90a) (amdgpu.mfma, wave64);
 *   - AMD gfx12: WMMA 16x16x16 f16 / bf16 -> f32, i8 -> i32 (amdgpu.wmma,
 *     wave32);
 *   - NVIDIA sm_90a, on request (rock__accelSelectWarpgroup): wgmma
 *     m64nNk16 f16 / bf16 -> f32 for one warpgroup of 4 warps, A and B read
 *     from workgroup memory through matrix descriptors (accel_wgmma.c).
 * A fragment (one lane's share of an operand) is one vector value; the
 * accumulator is vector<cElems x f32|i32>. Schedules ask for fragments of a
 * tile held in a 2-D memref (workgroup memory or global), element (r, k) at
 * [r, k] ("k-contiguous", e.g. Q [rows][d], K [keys][d]) or at [k, r] (e.g.
 * V [keys][dv] as the B operand of P·V), and find which (row, col) of C an
 * accumulator element holds with rock__accelAccCoord.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_ACCEL_H
#define ROCK_PASSES_GPU_ACCEL_H

#include "attention/attention.h"
#include "rock-c/GpuTarget.h"

typedef struct RockAccel {
  RockGpuAccel kind;
  char elt[8]; /* operand element type: f16, bf16, i8 */
  char acc[4]; /* accumulator element type: f32, i32 */
  int m, n, k; /* one instruction's shape */
  int wave;    /* lanes that execute it together */
  int aElems;  /* A elements per lane */
  int bElems;  /* B elements per lane */
  int cElems;  /* accumulator elements per lane */
  int run;     /* contiguous k elements per fragment access */
} RockAccel;

/* Picks the instruction for operand type `elt` ("f16", "bf16", "i8") on
 * target `t` (borrowed). Returns false when the target has none for it. */
bool rock__accelSelect(const RockGpuTarget *t, const char *elt, RockAccel *out);

/* sm_90a only (t->chip "sm_90a", f16 / bf16): the warpgroup instruction
 * m64 x n x k16 with n a multiple of 8 in 8..256 (the schedule's choice).
 * rock__accelSelect keeps giving mma.sync there, so schedules written for
 * per-warp register fragments are unaffected. Returns false otherwise. */
bool rock__accelSelectWarpgroup(const RockGpuTarget *t, const char *elt, int n,
                                RockAccel *out);

/* A zero accumulator. */
int rock__accelZero(RockGen *g, const RockAccel *ac);

/* The A fragment (rows row0.., k k0..) of the tile in `mem` (type `memTy`,
 * rank 2), `kContig` as above; `lane` is the index lane id (0..wave-1). */
int rock__accelLoadA(RockGen *g, const RockAccel *ac, int mem,
                     const char *memTy, bool kContig, int row0, int k0,
                     int lane);
/* The B fragment (columns col0.., k k0..); the tile is stored [col][k] when
 * `kContig`, else [k][col]. */
int rock__accelLoadB(RockGen *g, const RockAccel *ac, int mem,
                     const char *memTy, bool kContig, int col0, int k0,
                     int lane);

/* NVIDIA mma.sync with 16-bit operands: fragments with ldmatrix from
 * workgroup memory (`mem`, rank 2, `memTy`), rows swizzled as
 * rock__accelSwizzle says when `swz`. */
bool rock__accelHasLdmatrix(const RockAccel *ac);
/* The column where logical 16-byte chunk column `c` (an index id, a
 * multiple of 8 16-bit elements) of row `r` sits: c itself without `swz`,
 * else chunk (c / 8) xor (r % 8), so the 8 rows an ldmatrix reads, and the
 * 8 chunks a quarter warp stores, fall into distinct banks. `swz` needs
 * rows of a multiple of 8 chunks (rock__accelSwizzleFits). */
int rock__accelSwizzle(RockGen *g, bool swz, int r, int c);
bool rock__accelSwizzleFits(int64_t rowElems);
/* The A fragment (rows row0..row0+15, k k0..k0+15; k-contiguous) with
 * one ldmatrix.x4. */
int rock__accelLdmA(RockGen *g, const RockAccel *ac, int mem, const char *memTy,
                    bool swz, int row0, int k0, int lane);
/* The B fragments of columns col0..col0+7 (out[0]) and col0+8..col0+15
 * (out[1]) at k k0..k0+15 with one ldmatrix.x4: the tile stored [col][k]
 * when `kContig`, else [k][col] (ldmatrix .trans). */
void rock__accelLdmB2(RockGen *g, const RockAccel *ac, int mem,
                      const char *memTy, bool kContig, bool swz, int col0,
                      int k0, int lane, int out[2]);

/* acc + A * B for fragments a, b and accumulator c; returns the new one.
 * For wgmma, a and b are the i64 descriptors of rock__accelWgmmaDesc and the
 * caller brackets the products with rock__accelWgmmaBegin / ...End. */
int rock__accelMma(RockGen *g, const RockAccel *ac, int a, int b, int c);

/* Sets *row / *col (index values) to the position in the m x n tile of
 * accumulator element `e` (0..cElems-1) of lane `lane`. */
void rock__accelAccCoord(RockGen *g, const RockAccel *ac, int lane, int e,
                         int *row, int *col);

/* wgmma operands (accel_wgmma.c) are not register fragments (LoadA / LoadB
 * do not apply): the schedule stages each operand K-major in workgroup
 * memory, a 1-D memref of `rows` x kTile elements (rows a multiple of 8,
 * kTile a multiple of 16), element (r, k) at rock__accelWgmmaIndex, and the
 * instruction reads rows r0 .. r0 + m - 1 (A) or n (B) at k0 .. k0 + 15 from
 * the descriptor for element offset rock__accelWgmmaIndex(r0, k0).
 * Index: the element offset (index value) of (r, k) (index values). */
int rock__accelWgmmaIndex(RockGen *g, int rows, int r, int k);
/* The i64 matrix descriptor of the operand starting at element offset `off`
 * (index value) of the staged memref `mem` (type `memTy`). */
int rock__accelWgmmaDesc(RockGen *g, const RockAccel *ac, int mem,
                         const char *memTy, int off);
/* Begin: after every thread's stores to the staged operands, makes them
 * visible to the tensor cores' async proxy (fence.proxy.async, barrier,
 * wgmma.fence). End: commits the issued products and waits for them, so
 * the accumulators can be read. */
void rock__accelWgmmaBegin(RockGen *g);
void rock__accelWgmmaEnd(RockGen *g);
/* Begin's first part alone (fence.proxy.async.shared::cta), for schedules
 * with their own barriers (then `nvvm.wgmma.fence.aligned` after them). */
void rock__accelWgmmaProxyFence(RockGen *g);

/* Asynchronous warpgroup products as PTX inline asm (accel_wgmma.c), for
 * schedules that keep several in flight (nvvm.wgmma.mma_async takes A only
 * as a descriptor and always accumulates). One m64 n k16 product of `ac`:
 * A from registers (aRegs: 4 i32 ids, two packed 16-bit elements each, per
 * warp the mma.sync m16n8k16 A layout) or, when aRegs is NULL, from the
 * descriptor aDesc; B from the descriptor bDesc, MN-major (transposed:
 * n contiguous) with `transB`, else K-major; accumulating into the
 * accumulator struct `d`, or into zero when d < 0. Returns the new
 * accumulator, an !llvm.struct of ac->cElems f32 that must not be read
 * before the wgmma.wait.group covering it. The caller emits
 * nvvm.wgmma.fence.aligned before the first product after the registers
 * were written, and the commit / wait. */
int rock__accelWgmmaIssue(RockGen *g, const RockAccel *ac, const int *aRegs,
                          int aDesc, int bDesc, bool transB, int d);
/* The accumulator struct `d` as vector<cElems x f32> (element e: the
 * rock__accelAccCoord layout), read through an empty side-effecting asm so
 * that nothing uses it before the wait emitted before this call. */
int rock__accelWgmmaVector(RockGen *g, const RockAccel *ac, int d);
/* Keeps the i32 registers regs[0..n-1] (A fragments of products in
 * flight) live up to this point, after the wait that retires their
 * products, so that nothing new is written into them earlier. */
void rock__accelWgmmaHold(RockGen *g, const int *regs, int n);
/* The i32 values regs[0..n-1] redefined here (out[0..n-1]) by an empty
 * side-effecting asm: emitted before a wgmma.fence, it gives the A
 * fragments of the products after it their own registers, so that no copy
 * lands between the products. */
void rock__accelWgmmaPin(RockGen *g, const int *regs, int n, int *out);
/* vector<cElems x f32> `v` as an accumulator struct. */
int rock__accelWgmmaStruct(RockGen *g, const RockAccel *ac, int v);
/* The descriptor (no swizzle) of the operand starting at the first element
 * of the 16-byte aligned workgroup memref `mem` (`memTy`), with leading /
 * stride dimension byte offsets lbo / sbo; DescAdd moves one `bytes` (a
 * multiple of 16) further. */
int rock__accelWgmmaDescAt(RockGen *g, int mem, const char *memTy, int64_t lbo,
                           int64_t sbo);
int rock__accelWgmmaDescAdd(RockGen *g, int desc, int64_t bytes);

/* NVIDIA's emitters (accel_nv.c, accel_wgmma.c) and AMD's (accel_amd.c),
 * for accel.c. */
int rock__accelMmaNv(RockGen *g, const RockAccel *ac, int a, int b, int c);
int rock__accelMmaWgmma(RockGen *g, const RockAccel *ac, int a, int b, int c);
int rock__accelMmaAmd(RockGen *g, const RockAccel *ac, int a, int b, int c);

#endif
