/*===- lower_gridwise_attention.c - rock-lower-gridwise-attention --------===*
 *
 * Replaces every rock.gridwise_attention by loops (docs/semantics.md §5):
 * an scf.parallel over the workgroups of §5.2, a per-split key-tile range
 * (§5.3, §5.4), the online softmax in the exp2 domain with the −inf guard
 * (§5.6) and the per-split finalisation (§5.6). Operands are views: every
 * access to them is a rock.view_load / rock.view_store, resolved later by
 * rock-lower-views.
 *
 * Per workgroup (gBlk, nBlk, split) the generated code
 *   1. copies its real query rows into a local accumulator-typed tile
 *      Q[NB][Dqk] and, for masked problems, computes each row's last visible
 *      key (§3) and the block's key range;
 *   2. per key tile, copies K once, transposed, into KT[Dqk][MB] and V once
 *      into V[MB][Dv] (f32), shared by all NB merged rows (all R query heads
 *      of the KV group); gemm0 as broadcast(Q[r][d]) * KT[d][j..j+W]
 *      (contiguous in j, two rows per K load); then per row the
 *      pre-softmax region (cloned in), log2e, masks, the online softmax
 *      (P = exp2 as a vectorisable arith polynomial) and
 *      O[r][d..d+W] = c*O + Σ_j P[j] * V[j][d..d+W] (contiguous in d).
 *      Workgroups of at most 16 real rows (decode) keep K as [MB][Dqk] and
 *      compute each score as a dot product along d instead; with float
 *      accumulation they use the fused form: no local K / V tiles, gemm0
 *      and gemm1 read K and V straight from their views, 4 merged rows per
 *      load (each K / V element is read once per tile), the per-row
 *      rescale factors kept in a [NB] buffer between the two;
 *   3. normalises and stores O and LSE.
 * Inner loops use vectors of up to 32 (gemm1: 64) lanes with narrower and
 * scalar tails, and fastmath<reassoc,contract> on the f32 accumulations.
 * Local tiles are heap-allocated per workgroup (see generate()).
 *
 * Internal split: with splitKV 1 and an i64 `rock.num_threads` T on the op
 * or an ancestor (rock-run sets it; absent, nothing changes) and gridSize <
 * T, the keys are cut into P partitions (smallest power of two with
 * gridSize*P >= T, halved until each keeps 2 key tiles; none if P < 2): the
 * loop runs as a split-KV of P into f32 scratch partials, merged into out /
 * lse by rock__inlineCombine (lower_combine.c). See docs/internals.md.
 *
 * The CPU schedule of rock.gridwise_attention; every rule of the algorithm
 * (ranges, masks, softmax, finalisation, region slot) comes from the
 * target-neutral emitters of passes/attention/ (attention.h); the x86 tile
 * pieces are in attention_tiles.c.
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Workgroups with at most this many real rows use the dot-product gemm0. */
#define DOT_FORM_MAX_ROWS 16

/*===--- the CPU's transcendental functions -------------------------------===*/

/* The rescale factors exp2((m_old - m_new) log2 e) (arguments <= 0, −inf
 * or NaN) by the same polynomial as P: inline, where math.exp2 is a libm
 * call per row and key tile. */
static int exp2Scalar(RockGen *g, int x) { return rock__cpuExp2Poly(g, x, 1); }

static int log2Scalar(RockGen *g, int x) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = math.log2 %%v%d : f32", r, x);
  return r;
}

static const RockAttnTarget cpuTarget = {exp2Scalar, rock__cpuExp2Poly,
                                         log2Scalar, NULL};

/*===--- the generated function -------------------------------------------===*/

/* Creates the function's common constants first, in one fixed order, so
 * that the constant block of the text does not depend on which emitter asks
 * for a constant first. */
static void commonConstants(RockGen *g, const RockAttn *a) {
  const int64_t idx[] = {0,     1,     a->R,         a->S,     a->NB,
                         a->MB, a->Sk, a->Sq * a->R, a->nNBlk, a->grid};
  for (size_t i = 0; i < sizeof idx / sizeof *idx; ++i)
    rock__genIndex(g, idx[i]);
  static const char *const f[] = {ROCK_NINF, "0.0", "1.0", "1.44269504",
                                  "0.69314718"};
  for (size_t i = 0; i < sizeof f / sizeof *f; ++i)
    rock__genConst(g, f[i], "f32");
}

/* Zeroes row `r` of the 2-D buffer `buf` (type mt, element elt) over the
 * segments seg[0..n). */
static void zeroRow(RockGen *g, int buf, const char *mt, int r,
                    const RockSeg *seg, int n, const char *elt) {
  char ib[128];
  for (int s = 0; s < n; ++s) {
    int d =
        rock__genFor(g, rock__genIndex(g, seg[s].lo),
                     rock__genIndex(g, seg[s].hi), rock__genIndex(g, seg[s].w));
    rock__idx2(ib, sizeof ib, r, d);
    rock__genStore(g, rock__genZero(g, elt, seg[s].w), buf, mt, ib, seg[s].w,
                   elt);
    rock__genEnd(g);
  }
}

/* What the CPU body needs besides the op's description: the machine's
 * attributes and the fused decode's switches (docs/cpu.md). */
typedef struct CpuCtx {
  MlirExternalPass pass;
  MlirOperation op;
  int64_t vectorBits;    /* rock.vector_bits */
  int decodeDot;         /* rock.cpu_decode_dot: vdpbf16ps in fused decode */
  int64_t prefetchTiles; /* rock.cpu_prefetch_tiles: key tiles ahead */
} CpuCtx;

static void generate(RockGen *g, RockAttn *a, const CpuCtx *cx) {
  int64_t vecBits = cx->vectorBits;
  MlirType f32 = a->f32;
  RockCpuBufs b;
  b.acc = rock__isFloat(a->acc) ? "f32" : "i32";
  int64_t NB = a->NB, MB = a->MB, Dqk = a->Dqk, Dv = a->Dv;
  snprintf(b.mQl, sizeof b.mQl, "memref<%lldx%lldx%s>", (long long)NB,
           (long long)Dqk, b.acc);
  /* gemm0 form: with few merged rows per workgroup (decode) the K tile is
   * kept as [MB][Dqk] and each score is a dot product along d (K is copied
   * with contiguous vector stores); otherwise K is transposed once per tile
   * into [Dqk][MB] and shared by many rows, which then need no reductions. */
  int64_t rowsPerBlock = NB < a->Sq * a->R ? NB : a->Sq * a->R;
  bool dotForm = rowsPerBlock <= DOT_FORM_MAX_ROWS;
  /* Fused decode form (float accumulation, NB a multiple of
   * ROCK_CPU_FUSE_ROWS): K and V are read straight from their views, each
   * element once per tile, by gemm0 and gemm1 computing ROCK_CPU_FUSE_ROWS
   * merged rows at a time (every query head of a KV group shares one K / V
   * load); no local K / V tiles. Row groups cover [0, nRows) rounded up to
   * ROCK_CPU_FUSE_ROWS (< NB); rows past nRows run on zeroed Q rows and are
   * never stored. */
  bool fused = dotForm && rock__isFloat(a->acc) &&
               NB % ROCK_CPU_FUSE_ROWS == 0 && Dqk % 32 == 0 && Dv % 16 == 0;
  /* With the `dot` feature and bf16 operands the fused loops use
   * vdpbf16ps (two bf16 products summed into each f32 lane, exact products,
   * f32 accumulation): gemm0 on bf16 Q and K, gemm1 on bf16 V and P (P is
   * already rounded through V's type), two keys per instruction; module
   * attribute rock.cpu_decode_dot = false keeps the f32 FMA loops there (an
   * ablation: the choice is measured in docs/cpu.md). */
  bool dot = a->dot && cx->decodeDot == 1;
  bool dotK = fused && dot && mlirTypeIsABF16(a->tq) &&
              mlirTypeIsABF16(a->tk) && Dqk % 64 == 0 && !a->kKeyMajor;
  /* K stored [.., Dqk, Sk] (rocMLIR's default dense layout): the fused
   * gemm0 loads 16 consecutive keys per vector from a [Bkv, Dqk, Sk] view
   * and broadcasts Q[r][d], instead of gathering along d. */
  bool keyMajor = fused && a->kKeyMajor;
  bool dotV = fused && dot && mlirTypeIsABF16(a->tv) && Dv % 64 == 0;
  /* Register blocking of the fused loops for the CPU's vector registers
   * (rock.vector_bits): with 32 x 512 bits, gemm0 keeps two 16-lane partial
   * sums per row and gemm1 64 columns of O per row (16 accumulators). With
   * 16 x 256 bits (AVX2) gemm0 keeps one partial sum per row, and gemm1 on
   * 16-bit V, whose conversions need registers too, 16 columns (4
   * accumulators of two registers each); f32 V keeps 64 columns, which beat
   * 16 and 32 (fewer passes over the tile; measured on x86-64-v3 code,
   * f32 decode L=16k: 3.0 vs 3.9 / 3.7 ms; bf16: 1.85 vs 2.26 ms). */
  bool narrowRegs = vecBits <= 256 && !dotK && !dotV;
  /* bf16 prefill (the transposed form's problems) with AVX512-BF16 or AMX:
   * K and V packed per tile into the pair layout of both, the gemms as
   * vdpbf16ps register blocks or AMX tiles (packed_prefill.c,
   * amx_prefill.c, docs/cpu.md). */
  bool amx = !mlirAttributeIsNull(rock__nearestAttr(a->op, "rock.amx"));
  bool packedBf16 = mlirTypeIsABF16(a->tq) && mlirTypeIsABF16(a->tk) &&
                    mlirTypeIsABF16(a->tv) && Dqk % 32 == 0 &&
                    ((amx && NB % 32 == 0) || (a->dot && NB % 8 == 0));
  /* i8 prefill likewise, with i8 Q·Kᵀ on vpdpbusd (rock.vnni: AVX512-VNNI)
   * or tdpbssd (rock.amx) and gemm1 as f32 FMA blocks on V widened once per
   * tile (docs/cpu.md). */
  bool vnni = !mlirAttributeIsNull(rock__nearestAttr(a->op, "rock.vnni"));
  bool packedI8 = !rock__isFloat(a->acc) && mlirTypeIsAInteger(a->tq) &&
                  mlirIntegerTypeGetWidth(a->tq) == 8 &&
                  mlirTypeIsAInteger(a->tk) &&
                  mlirIntegerTypeGetWidth(a->tk) == 8 && Dqk % 64 == 0 &&
                  ((amx && NB % 32 == 0) || (vnni && NB % 8 == 0));
  bool packed = !dotForm && a->softmax && (packedBf16 || packedI8) &&
                Dv % 32 == 0 && MB % 32 == 0;
  packedI8 = packed && packedI8;
  bool useAmx = packed && amx && NB % 32 == 0;
  /* vpdpbusd multiplies u8 by s8: Q is held as u8 q + 128 (docs/cpu.md). */
  bool biasQ = packedI8 && !useAmx;
  const char *qbElt = packedI8 ? "i8" : "bf16";
  bool narrowV = narrowRegs && !mlirTypeIsAF32(a->tv);
  if (dotForm)
    snprintf(b.mKT, sizeof b.mKT, "memref<%lldx%lldx%s>", (long long)MB,
             (long long)Dqk, b.acc);
  else
    snprintf(b.mKT, sizeof b.mKT, "memref<%lldx%lldx%s>", (long long)Dqk,
             (long long)MB, b.acc);
  snprintf(b.mVl, sizeof b.mVl, "memref<%lldx%lldxf32>", (long long)MB,
           (long long)Dv);
  snprintf(b.mSa, sizeof b.mSa, "memref<%lldx%lldx%s>", (long long)NB,
           (long long)MB, b.acc);
  snprintf(b.mSt, sizeof b.mSt, "memref<%lldx%lldxf32>", (long long)NB,
           (long long)MB);
  snprintf(b.mOt, sizeof b.mOt, "memref<%lldx%lldxf32>", (long long)NB,
           (long long)Dv);
  snprintf(b.mRow, sizeof b.mRow, "memref<%lldxf32>", (long long)NB);
  snprintf(b.mIdx, sizeof b.mIdx, "memref<%lldxindex>", (long long)NB);
  /* Allocas in an scf.parallel body become dynamic allocas inside the
   * OpenMP loop, and convert-scf-to-openmp wraps the body in a
   * memref.alloca_scope that must be inlined (canonicalize does so only
   * without allocas) before convert-scf-to-cf: the per-workgroup state is
   * therefore heap-allocated, one malloc per buffer per workgroup. */
  const bool heap = true;

  commonConstants(g, a);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  int cR = rock__genIndex(g, a->R), cNB = rock__genIndex(g, NB);
  int cMB = rock__genIndex(g, MB), cGrid = rock__genIndex(g, a->grid);
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int one = rock__genConst(g, "1.0", "f32");
  char ib[128];

  int ktv = -1;
  if (keyMajor || (packed && a->kKeyMajor)) {
    char mkt[128];
    ktv = rock__attnKeyMajorK(g, a, mkt, sizeof mkt);
  }
  int bid0 = rock__genFresh(g);
  rock__genLine(g, "scf.parallel (%%v%d) = (%%v%d) to (%%v%d) step (%%v%d) {",
                bid0, c0, cGrid, c1);
  g->depth++;
  RockAttnWg wg = rock__attnWorkgroup(g, a, bid0);
  int split = wg.split, gBlk = wg.gBlk, n0 = wg.n0, nRows = wg.nRows;
  int bq0 = wg.bq0;

  b.Ql = rock__genAlloc(g, b.mQl, heap);
  b.KT = fused || packed ? -1 : rock__genAlloc(g, b.mKT, heap);
  b.Vl = fused || (packed && !packedI8) ? -1 : rock__genAlloc(g, b.mVl, heap);
  b.St = rock__genAlloc(g, b.mSt, heap);
  b.Sa = rock__isFloat(a->acc) ? b.St : rock__genAlloc(g, b.mSa, heap);
  b.Ot = rock__genAlloc(g, b.mOt, heap);
  b.Mt = rock__genAlloc(g, b.mRow, heap);
  b.Lt = rock__genAlloc(g, b.mRow, heap);
  b.Last = a->dynamic ? rock__genAlloc(g, b.mIdx, heap) : -1;
  b.Low = a->hasLow ? rock__genAlloc(g, b.mIdx, heap) : -1;
  b.Ct = fused || packed ? rock__genAlloc(g, b.mRow, heap) : -1;
  snprintf(b.mQb, sizeof b.mQb, "memref<%lldx%lldx%s>", (long long)NB,
           (long long)Dqk, qbElt);
  b.Qb = dotK || packed ? rock__genAlloc(g, b.mQb, heap) : -1;
  snprintf(b.mPb, sizeof b.mPb, "memref<%lldx%lldxbf16>", (long long)NB,
           (long long)MB);
  b.Pb = dotV || (packed && !packedI8) ? rock__genAlloc(g, b.mPb, heap) : -1;
  int kE = packedI8 ? 4 : 2;
  snprintf(b.mKP, sizeof b.mKP, "memref<%lldx%lldx%s>", (long long)Dqk / kE,
           (long long)MB * kE, qbElt);
  snprintf(b.mVP, sizeof b.mVP, "memref<%lldx%lldxbf16>", (long long)MB / 2,
           (long long)Dv * 2);
  b.KP = packed ? rock__genAlloc(g, b.mKP, heap) : -1;
  b.VP = packed && !packedI8 ? rock__genAlloc(g, b.mVP, heap) : -1;
  snprintf(b.mKb, sizeof b.mKb, "memref<%lldxi32>", (long long)MB);
  b.Kb = biasQ ? rock__genAlloc(g, b.mKb, heap) : -1;

  RockSeg segDv[4], segMB[4], segDqk[4], segDv1[4];
  int nSegDv = rock__segments(Dv, segDv), nSegMB = rock__segments(MB, segMB);
  int nSegDqk = rock__segments(Dqk, segDqk);
  /* gemm1 accumulates 64 lanes at a time: enough independent FMA chains. */
  int nSegDv1 = rock__segmentsMax(Dv, segDv1, 64);
  /* The transposed gemm0 computes two rows at a time (twice the FMA chains
   * per K load); with an even NB the partner of the last real row is a
   * zeroed row of the Q tile. */
  bool pairRows = !dotForm && !packed && NB % 2 == 0;

  /* Initial state: m = −inf, l = 0, O = 0 (semantics.md §5.5, §5.6). */
  {
    int r = rock__genFor(g, c0, cNB, c1);
    rock__idx2(ib, sizeof ib, r, r);
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", ninf, b.Mt, r,
                  b.mRow);
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", zf, b.Lt, r,
                  b.mRow);
    /* Rows past nRows see no key (the packed gemms' key bound). */
    if (b.Last >= 0)
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s",
                    rock__genIndex(g, -1), b.Last, r, b.mIdx);
    if (fused || packed)
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", zf, b.Ct, r,
                    b.mRow);
    zeroRow(g, b.Ot, b.mOt, r, segDv, nSegDv, "f32");
    if (pairRows || fused || packed)
      zeroRow(g, b.Ql, b.mQl, r, segDqk, nSegDqk, b.acc);
    if (dotK || packed)
      zeroRow(g, b.Qb, b.mQb, r, segDqk, nSegDqk, qbElt);
    /* P rows past nRows (computed by the packed gemm1, never stored). */
    if (packed)
      zeroRow(g, packedI8 ? b.St : b.Pb, packedI8 ? b.mSt : b.mPb, r, segMB,
              nSegMB, packedI8 ? "f32" : "bf16");
    rock__genEnd(g);
  }

  /* Q rows to the local tile; last visible key per row (semantics.md §3) and
   * the block's maximum (eff) and minimum window start (lowKey) (§5.4). */
  int eff = -1, lowKey = -1;
  {
    int r, effAcc = -1, lowAcc = -1, effRes = -1, lowRes = -1;
    if (a->dynamic) {
      effRes = rock__genFresh(g);
      r = rock__genFresh(g);
      effAcc = rock__genFresh(g);
      if (a->hasLow) {
        lowRes = rock__genFresh(g);
        lowAcc = rock__genFresh(g);
        rock__genLine(
            g,
            "%%v%d, %%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
            "iter_args(%%v%d = %%v%d, %%v%d = %%v%d) -> (index, index) {",
            effRes, lowRes, r, c0, nRows, c1, effAcc, rock__genIndex(g, -1),
            lowAcc, rock__genIndex(g, a->Sk));
      } else {
        rock__genLine(g,
                      "%%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
                      "iter_args(%%v%d = %%v%d) -> (index) {",
                      effRes, r, c0, nRows, c1, effAcc, rock__genIndex(g, -1));
      }
      g->depth++;
    } else {
      r = rock__genFor(g, c0, nRows, c1);
    }
    RockRowIdx x = rock__attnRowIdx(g, n0, r, bq0, cR);
    int wq = rock__viewWidth(Dqk);
    {
      int d =
          rock__genFor(g, c0, rock__genIndex(g, Dqk), rock__genIndex(g, wq));
      rock__idx3(ib, sizeof ib, x.bq, x.i, d);
      int ld = rock__genViewLoad(g, a->q, a->mq, ib, a->tq, wq);
      int cv = rock__genConv(g, ld, a->tq, a->acc, wq);
      rock__idx2(ib, sizeof ib, r, d);
      rock__genStore(g, cv, b.Ql, b.mQl, ib, wq, b.acc);
      if (biasQ) { /* u8 q + 128: the sign bit flipped */
        char ti8[32];
        rock__typeStrS(ti8, sizeof ti8, "i8", wq);
        ld = rock__genBin(g, "arith.xori", ld,
                          rock__genSplat(g, "-128", "i8", wq), ti8);
      }
      if (dotK || packed)
        rock__genStore(g, ld, b.Qb, b.mQb, ib, wq, qbElt);
      rock__genEnd(g);
    }
    if (a->dynamic) {
      int last = rock__attnRowLast(g, a, x);
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", last, b.Last, r,
                    b.mIdx);
      int effN = rock__attnBlockLast(g, effAcc, last);
      if (a->hasLow) {
        int low = rock__attnRowLow(g, a, x);
        rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", low, b.Low, r,
                      b.mIdx);
        int lowN = rock__attnBlockLow(g, lowAcc, low);
        rock__genLine(g, "scf.yield %%v%d, %%v%d : index, index", effN, lowN);
      } else {
        rock__genLine(g, "scf.yield %%v%d : index", effN);
      }
      rock__genEnd(g);
      eff = effRes;
      lowKey = lowRes;
    } else {
      rock__genEnd(g);
    }
  }

  /* Key-tile range of this split (semantics.md §5.3, §5.4). */
  int start, end;
  rock__attnTileRange(g, a, split, eff, lowKey, &start, &end);

  /* The key-tile loop; an empty range leaves the initial state (semantics.md
   * §5.5). */
  {
    int kt = rock__genFor(g, start, end, c1);
    int j0;
    int nCols = rock__attnTileCols(g, a, kt, &j0);
    RockCpuPack pk = {c0,   c1, nRows, nCols, j0, gBlk, a->kKeyMajor ? ktv : -1,
                      biasQ};
    if (fused) {
      /* K and V are read by the fused gemm0 / gemm1 below. */
    } else if (packed) {
      rock__cpuPackK(g, a, &b, &pk);
      if (!packedI8)
        rock__cpuPackV(g, a, &b, &pk);
    } else if (dotForm) {
      /* K tile [MB][Dqk] in the accumulator type. */
      int j = rock__genFor(g, c0, nCols, c1);
      int jj = rock__genBin(g, "arith.addi", j0, j, "index");
      int wk = rock__viewWidth(Dqk);
      int d =
          rock__genFor(g, c0, rock__genIndex(g, Dqk), rock__genIndex(g, wk));
      rock__idx3(ib, sizeof ib, gBlk, jj, d);
      int ld = rock__genViewLoad(g, a->k, a->mk, ib, a->tk, wk);
      int cv = rock__genConv(g, ld, a->tk, a->acc, wk);
      rock__idx2(ib, sizeof ib, j, d);
      rock__genStore(g, cv, b.KT, b.mKT, ib, wk, b.acc);
      rock__genEnd(g);
      rock__genEnd(g);
    } else {
      /* K tile, transposed, in the accumulator type; padding keys are 0. */
      int j = rock__genFor(g, c0, nCols, c1);
      int jj = rock__genBin(g, "arith.addi", j0, j, "index");
      int wk = rock__viewWidth(Dqk);
      int d =
          rock__genFor(g, c0, rock__genIndex(g, Dqk), rock__genIndex(g, wk));
      char ta[64];
      rock__typeStr(ta, sizeof ta, a->acc, wk);
      rock__idx3(ib, sizeof ib, gBlk, jj, d);
      int ld = rock__genViewLoad(g, a->k, a->mk, ib, a->tk, wk);
      int cv = rock__genConv(g, ld, a->tk, a->acc, wk);
      if (wk == 1) {
        rock__idx2(ib, sizeof ib, d, j);
        rock__genStore(g, cv, b.KT, b.mKT, ib, 1, b.acc);
      } else {
        for (int l = 0; l < wk; ++l) {
          int e = rock__genFresh(g);
          rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", e,
                        cv, l, b.acc, ta);
          int dd =
              rock__genBin(g, "arith.addi", d, rock__genIndex(g, l), "index");
          rock__idx2(ib, sizeof ib, dd, j);
          rock__genStore(g, e, b.KT, b.mKT, ib, 1, b.acc);
        }
      }
      rock__genEnd(g);
      rock__genEnd(g);
      j = rock__genFor(g, nCols, cMB, c1);
      d = rock__genFor(g, c0, rock__genIndex(g, Dqk), c1);
      rock__idx2(ib, sizeof ib, d, j);
      rock__genStore(g, rock__genZero(g, b.acc, 1), b.KT, b.mKT, ib, 1, b.acc);
      rock__genEnd(g);
      rock__genEnd(g);
    }
    /* V tile in f32. */
    if (!fused && (!packed || packedI8)) {
      int j = rock__genFor(g, c0, nCols, c1);
      int jj = rock__genBin(g, "arith.addi", j0, j, "index");
      int wv = rock__viewWidth(Dv);
      int d = rock__genFor(g, c0, rock__genIndex(g, Dv), rock__genIndex(g, wv));
      rock__idx3(ib, sizeof ib, gBlk, jj, d);
      int ld = rock__genViewLoad(g, a->v, a->mv, ib, a->tv, wv);
      int cv = rock__genConv(g, ld, a->tv, f32, wv);
      rock__idx2(ib, sizeof ib, j, d);
      rock__genStore(g, cv, b.Vl, b.mVl, ib, wv, "f32");
      rock__genEnd(g);
      rock__genEnd(g);
    }
    if (pairRows) {
      /* gemm0 for rows rp, rp + 1: S[r][j] = Σ_d Q[r][d] * KT[d][j]. */
      int rp = rock__genFor(g, c0, nRows, rock__genIndex(g, 2));
      int rp1 = rock__genBin(g, "arith.addi", rp, c1, "index");
      for (int s = 0; s < nSegMB; ++s) {
        int w = segMB[s].w;
        char ta[64];
        rock__typeStrS(ta, sizeof ta, b.acc, w);
        int jc =
            rock__genFor(g, rock__genIndex(g, segMB[s].lo),
                         rock__genIndex(g, segMB[s].hi), rock__genIndex(g, w));
        int res0 = rock__genFresh(g), res1 = rock__genFresh(g),
            d = rock__genFresh(g), a0 = rock__genFresh(g),
            a1 = rock__genFresh(g), z = rock__genZero(g, b.acc, w);
        rock__genLine(
            g,
            "%%v%d, %%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
            "iter_args(%%v%d = %%v%d, %%v%d = %%v%d) -> (%s, %s) {",
            res0, res1, d, c0, rock__genIndex(g, Dqk), c1, a0, z, a1, z, ta,
            ta);
        g->depth++;
        rock__idx2(ib, sizeof ib, d, jc);
        int kv = rock__genLoad(g, b.KT, b.mKT, ib, w, b.acc);
        int acc[2] = {a0, a1}, rows[2] = {rp, rp1}, nacc[2];
        for (int h = 0; h < 2; ++h) {
          rock__idx2(ib, sizeof ib, rows[h], d);
          int qb = rock__genBcast(
              g, rock__genLoad(g, b.Ql, b.mQl, ib, 1, b.acc), w, b.acc);
          nacc[h] = rock__genMacc(g, rock__isFloat(a->acc), acc[h], qb, kv, ta);
        }
        rock__genLine(g, "scf.yield %%v%d, %%v%d : %s, %s", nacc[0], nacc[1],
                      ta, ta);
        rock__genEnd(g);
        rock__idx2(ib, sizeof ib, rp, jc);
        rock__genStore(g, res0, b.Sa, b.mSa, ib, w, b.acc);
        rock__idx2(ib, sizeof ib, rp1, jc);
        rock__genStore(g, res1, b.Sa, b.mSa, ib, w, b.acc);
        rock__genEnd(g);
      }
      rock__genEnd(g);
    }
    if (keyMajor)
      rock__cpuGemm0KeyMajor(g, a, &b, ktv, gBlk, j0, nCols, nRows);
    if (packed && useAmx)
      rock__cpuAmxGemm0(g, a, &b, &pk);
    else if (packed)
      rock__cpuPackedGemm0(g, a, &b, &pk);
    /* The fused loops' state for this tile (gemm0 here, gemm1 below). */
    RockCpuFused fz = {c0,
                       c1,
                       nRows,
                       nCols,
                       j0,
                       gBlk,
                       dotK,
                       dotV,
                       narrowRegs,
                       narrowV,
                       cx->prefetchTiles * MB};
    if (fused && !keyMajor)
      rock__cpuFusedGemm0(g, a, &b, &fz);
    /* Per merged row. */
    int r = rock__genFor(g, c0, nRows, c1);
    RockRowIdx x = rock__attnRowIdx(g, n0, r, bq0, cR);
    if (dotForm && !fused) {
      /* gemm0: S[r][j] = Σ_d Q[r][d] * K[j][d], vectors along d. */
      int j = rock__genFor(g, c0, nCols, c1);
      int total = -1;
      for (int s = 0; s < nSegDqk; ++s) {
        int w = segDqk[s].w;
        char ta[64];
        rock__typeStrS(ta, sizeof ta, b.acc, w);
        int d, accv;
        int res = rock__genForIter(
            g, rock__genIndex(g, segDqk[s].lo), rock__genIndex(g, segDqk[s].hi),
            rock__genIndex(g, w), rock__genZero(g, b.acc, w), ta, &d, &accv);
        rock__idx2(ib, sizeof ib, r, d);
        int qv = rock__genLoad(g, b.Ql, b.mQl, ib, w, b.acc);
        rock__idx2(ib, sizeof ib, j, d);
        int kv = rock__genLoad(g, b.KT, b.mKT, ib, w, b.acc);
        int nacc = rock__genMacc(g, rock__isFloat(a->acc), accv, qv, kv, ta);
        rock__genYieldEnd(g, nacc, ta);
        int red = res;
        if (w > 1) {
          red = rock__genFresh(g);
          rock__genLine(
              g, "%%v%d = vector.reduction <add>, %%v%d%s : %s into %s", red,
              res, rock__isFloat(a->acc) ? " " ROCK_FM : "", ta, b.acc);
        }
        if (total < 0)
          total = red;
        else if (rock__isFloat(a->acc))
          total = rock__genBinF(g, "arith.addf", total, red, b.acc);
        else
          total = rock__genBin(g, "arith.addi", total, red, b.acc);
      }
      rock__idx2(ib, sizeof ib, r, j);
      rock__genStore(g, total, b.Sa, b.mSa, ib, 1, b.acc);
      rock__genEnd(g);
    }
    for (int s = 0; !dotForm && !pairRows && !packed && s < nSegMB; ++s) {
      int w = segMB[s].w;
      char ta[64];
      rock__typeStrS(ta, sizeof ta, b.acc, w);
      int jc =
          rock__genFor(g, rock__genIndex(g, segMB[s].lo),
                       rock__genIndex(g, segMB[s].hi), rock__genIndex(g, w));
      int d, accv;
      int res = rock__genForIter(g, c0, rock__genIndex(g, Dqk), c1,
                                 rock__genZero(g, b.acc, w), ta, &d, &accv);
      rock__idx2(ib, sizeof ib, r, d);
      int qs = rock__genLoad(g, b.Ql, b.mQl, ib, 1, b.acc);
      int qb = rock__genBcast(g, qs, w, b.acc);
      rock__idx2(ib, sizeof ib, d, jc);
      int kv = rock__genLoad(g, b.KT, b.mKT, ib, w, b.acc);
      int nacc = rock__genMacc(g, rock__isFloat(a->acc), accv, qb, kv, ta);
      rock__genYieldEnd(g, nacc, ta);
      rock__idx2(ib, sizeof ib, r, jc);
      rock__genStore(g, res, b.Sa, b.mSa, ib, w, b.acc);
      rock__genEnd(g);
    }
    /* Scores: region, log2e, masks; tile maximum. */
    int tileMax;
    if (mlirBlockIsNull(a->rblock)) {
      /* No region: the whole tile in vectors along j; padding keys
       * (j >= Sk, semantics.md §5.6 step 2) and masked keys select −inf,
       * in tiles that have any (tile_scores.c). */
      RockCpuScores sc = {r, j0, nCols, segMB, nSegMB};
      tileMax = rock__cpuTileScores(g, a, &b, &sc);
    } else {
      /* The region per key (tile_scores.c). */
      RockCpuScores sc = {r, j0, nCols, segMB, nSegMB};
      tileMax = rock__cpuRegionScores(g, a, &b, &sc, x);
    }
    /* Online softmax with the −inf guard (semantics.md §5.6). */
    int c = one;
    if (a->softmax) {
      int mOld = rock__genFresh(g);
      rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", mOld, b.Mt, r,
                    b.mRow);
      int mNew, mSafe;
      c = rock__attnRescale(g, a, mOld, tileMax, &mNew, &mSafe);
      /* P = exp2(x − m_safe) over the whole tile, vectors along j. */
      int rowSum = zf;
      for (int s = 0; s < nSegMB; ++s) {
        int w = segMB[s].w;
        char tf[64];
        rock__typeStrS(tf, sizeof tf, "f32", w);
        int j, sum;
        /* Lane sums in the loop, one horizontal sum after it. */
        int res = rock__genForIter(
            g, rock__genIndex(g, segMB[s].lo), rock__genIndex(g, segMB[s].hi),
            rock__genIndex(g, w), rock__genZero(g, "f32", w), tf, &j, &sum);
        rock__idx2(ib, sizeof ib, r, j);
        int xv = rock__genLoad(g, b.St, b.mSt, ib, w, "f32");
        int pr, p = rock__attnProb(g, a, xv, mSafe, w, &pr);
        if (!packed || packedI8)
          rock__genStore(g, pr, b.St, b.mSt, ib, w, "f32");
        if ((packed && !packedI8) ||
            dotV) /* P in bf16 for the packed / dot gemm1 */
          rock__genStore(g,
                         a->dot && w % 16 == 0
                             ? rock__cpuCvtBf16(g, p, w)
                             : rock__genConv(g, p, f32, a->tv, w),
                         b.Pb, b.mPb, ib, w, "bf16");
        rock__genYieldEnd(g, rock__genBinF(g, "arith.addf", sum, p, tf), tf);
        int ps = res;
        if (w > 1) {
          ps = rock__genFresh(g);
          rock__genLine(g,
                        "%%v%d = vector.reduction <add>, %%v%d " ROCK_FM
                        " : %s into f32",
                        ps, res, tf);
        }
        rowSum = rock__genBinF(g, "arith.addf", rowSum, ps, "f32");
      }
      int lOld = rock__genFresh(g);
      rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", lOld, b.Lt, r,
                    b.mRow);
      int lNew = rock__attnRowSum(g, c, lOld, rowSum);
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", lNew, b.Lt, r,
                    b.mRow);
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", mNew, b.Mt, r,
                    b.mRow);
    } else {
      int j = rock__genFor(g, c0, nCols, c1);
      rock__idx2(ib, sizeof ib, r, j);
      int xv = rock__genLoad(g, b.St, b.mSt, ib, 1, "f32");
      rock__genStore(g, rock__attnProbPlain(g, a, xv, 1), b.St, b.mSt, ib, 1,
                     "f32");
      rock__genEnd(g);
    }
    if (fused || packed)
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", c, b.Ct, r,
                    b.mRow);
    /* gemm1: O[r][d] = c * O[r][d] + Σ_j P[r][j] * V[j][d], along d. */
    for (int s = 0; !fused && !packed && s < nSegDv1; ++s) {
      int w = segDv1[s].w;
      char tf[64];
      rock__typeStrS(tf, sizeof tf, "f32", w);
      int d =
          rock__genFor(g, rock__genIndex(g, segDv1[s].lo),
                       rock__genIndex(g, segDv1[s].hi), rock__genIndex(g, w));
      rock__idx2(ib, sizeof ib, r, d);
      int o = rock__genLoad(g, b.Ot, b.mOt, ib, w, "f32");
      if (a->softmax)
        o = rock__genBinF(g, "arith.mulf", o, rock__genBcast(g, c, w, "f32"),
                          tf);
      int j, accv;
      int res = rock__genForIter(g, c0, nCols, c1, o, tf, &j, &accv);
      rock__idx2(ib, sizeof ib, r, j);
      int p = rock__genLoad(g, b.St, b.mSt, ib, 1, "f32");
      int pb = rock__genBcast(g, p, w, "f32");
      rock__idx2(ib, sizeof ib, j, d);
      int vv = rock__genLoad(g, b.Vl, b.mVl, ib, w, "f32");
      int pv = rock__genBinF(g, "arith.mulf", pb, vv, tf);
      int nacc = rock__genBinF(g, "arith.addf", accv, pv, tf);
      rock__genYieldEnd(g, nacc, tf);
      rock__idx2(ib, sizeof ib, r, d);
      rock__genStore(g, res, b.Ot, b.mOt, ib, w, "f32");
      rock__genEnd(g);
    }
    rock__genEnd(g); /* rows */
    /* P in bf16 in gemm1's visiting order, so that each key pair's two
     * probabilities are one 32-bit broadcast there. */
    if (dotV)
      rock__cpuKeyOrderRows(g, b.Pb, b.mPb, nRows, nCols, MB);
    if (fused)
      rock__cpuFusedGemm1(g, a, &b, &fz);
    if (packed && useAmx && !packedI8)
      rock__cpuAmxGemm1(g, a, &b, &pk);
    else if (packed)
      rock__cpuPackedGemm1(g, a, &b, &pk);
    rock__genEnd(g); /* key tiles */
  }

  /* Finalisation (semantics.md §5.6): O / l with the 0/0 guard, LSE, stores. */
  {
    int r = rock__genFor(g, c0, nRows, c1);
    RockRowIdx x = rock__attnRowIdx(g, n0, r, bq0, cR);
    int ob = rock__attnOutRow(g, a, x.bq, split);
    int l = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", l, b.Lt, r,
                  b.mRow);
    int lz, inv = rock__attnFinalGuard(g, l, &lz);
    int wo = rock__viewWidth(Dv);
    char to[64];
    rock__typeStr(to, sizeof to, a->to, wo);
    int d = rock__genFor(g, c0, rock__genIndex(g, Dv), rock__genIndex(g, wo));
    rock__idx2(ib, sizeof ib, r, d);
    int o = rock__genLoad(g, b.Ot, b.mOt, ib, wo, "f32");
    int oc = rock__attnFinalO(g, a, o, lz, inv, wo);
    rock__idx3(ib, sizeof ib, ob, x.i, d);
    rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", oc, a->out,
                  ib, to, a->mo);
    rock__genEnd(g);
    if (a->hasLse && a->softmax) {
      int m = rock__genFresh(g);
      rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", m, b.Mt, r,
                    b.mRow);
      int lc = rock__attnLse(g, a, l, m, lz);
      char tl[64];
      rock__typeStr(tl, sizeof tl, a->tl, 1);
      rock__idx2(ib, sizeof ib, ob, x.i);
      rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lc, a->lse,
                    ib, tl, a->ml);
    }
    rock__genEnd(g);
  }
  if (heap) {
    int bufs[] = {b.Ql, b.KT, b.Vl, b.St, b.Ot, b.Mt, b.Lt};
    const char *mts[] = {b.mQl, b.mKT, b.mVl, b.mSt, b.mOt, b.mRow, b.mRow};
    for (int i = 0; i < 7; ++i)
      if (bufs[i] >= 0)
        rock__genLine(g, "memref.dealloc %%v%d : %s", bufs[i], mts[i]);
    if (b.Sa != b.St)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Sa, b.mSa);
    if (b.Last >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Last, b.mIdx);
    if (b.Low >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Low, b.mIdx);
    if (b.Ct >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Ct, b.mRow);
    if (b.Qb >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Qb, b.mQb);
    if (b.Pb >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Pb, b.mPb);
    if (b.KP >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.KP, b.mKP);
    if (b.VP >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.VP, b.mVP);
    if (b.Kb >= 0)
      rock__genLine(g, "memref.dealloc %%v%d : %s", b.Kb, b.mKb);
  }
  g->depth--;
  rock__genLine(g, "}");
}

/*===--- the pass ---------------------------------------------------------===*/

/* The CPU body; false (reported) when its per-workgroup scratch does not
 * fit. */
static bool generateCpu(RockGen *g, RockAttn *a, const void *ctx) {
  const CpuCtx *c = ctx;
  g->heapBytes = 0; /* count the per-workgroup allocations only */
  generate(g, a, c);
  return rock__recordWorkgroupScratch(c->pass, c->op, g->heapBytes);
}

static bool lowerOne(MlirOperation op, MlirExternalPass pass) {
  RockAttn a;
  if (!rock__attnAnalyse(op, pass, &a))
    return false;
  if (rock__attnMachineAttr(op, "rock.num_threads", 0) > ROCK_MAX_NUM_THREADS) {
    rock__passFail(pass, op, "rock.num_threads must be at most %d",
                   ROCK_MAX_NUM_THREADS);
    return false;
  }
  a.tgt = &cpuTarget;
  CpuCtx ctx = {pass, op, rock__attnMachineAttr(op, "rock.vector_bits", 512),
                rock__gpuSwitch(op, pass, "rock.cpu_decode_dot", 1, 0, 1),
                rock__gpuSwitch(op, pass, "rock.cpu_prefetch_tiles", 1, 1, 8)};
  if (ctx.decodeDot < 0 || ctx.prefetchTiles < 0)
    return false;
  int64_t P = rock__attnInternalSplit(
      &a, rock__attnMachineAttr(op, "rock.num_threads", 0), 2);
  return rock__attnLower(op, pass, &a, P, false, generateCpu, &ctx);
}

static void run(MlirOperation root, MlirExternalPass pass) {
  rock__lowerEach(root, "rock.gridwise_attention", lowerOne, pass);
}

static const RockPassDef def = {
    "RockLowerGridwiseAttention", "rock-lower-gridwise-attention",
    "lower rock.gridwise_attention to split-KV online-softmax loops", "", run};

MlirPass rockLowerGridwiseAttentionPassCreate(void) {
  return rock__passCreate(&def);
}
void rockLowerGridwiseAttentionPassRegister(void) { rock__passRegister(&def); }
