/*===- attention.h - the target-neutral attention algorithm -------*- C -*-===//
 *
 * What both lowerings of rock.gridwise_attention share (the CPU one in
 * passes/cpu/, the GPU one in passes/gpu/): a small MLIR-text emitter, the
 * op's description, and the emitters of every rule of the algorithm
 * (docs/semantics.md §5): the workgroup index decomposition, the per-split
 * key-tile range with its per-row limits, the masks, the online softmax in the
 * exp2 domain with its −inf guard, the finalisation with its 0/0 guard and the
 * LSE, and the pre-softmax region slot. A target supplies the schedule (loops,
 * tiles, where state lives) and its exp2 / log2 spellings (RockAttnTarget).
 *
 * Every emitter appends text to a RockGen and returns the SSA id (%vN) of
 * its result; ids are plain ints, types are passed as printed strings or
 * MlirTypes. Nothing here owns IR: the text is parsed and inlined by the
 * caller (rock__inlineFuncText).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_ATTENTION_H
#define ROCK_PASSES_ATTENTION_H

#include "internal.h"
#include "support/region_form.h"

#define ROCK_FM "fastmath<reassoc,contract>"
#define ROCK_NINF "0xFF800000"

/*===----------------------------------------------------------------------===
 * Text emitter (gen.c)
 *===----------------------------------------------------------------------===*/

typedef struct RockGenConst {
  char key[48];
  int id;
} RockGenConst;

/* A function body under construction. Zero-initialise, set `next` to the
 * number of function arguments (ids 0..n-1) and `depth` to 1; free `body`,
 * `consts` (rock__strFree) and `cs` (free) when done. */
typedef struct RockGen {
  RockStr body;   /* the function body, after the constants */
  RockStr consts; /* constants, emitted at the top */
  int next;       /* next fresh %vN */
  int depth;      /* indentation */
  RockGenConst *cs;
  int nCs, capCs;
  int64_t heapBytes; /* bytes of memref.alloc emitted (scratch.c) */
} RockGen;

int rock__genFresh(RockGen *g);
/* Appends one indented line. */
void rock__genLine(RockGen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A constant `lit : type`, emitted once at the top of the function. */
int rock__genConst(RockGen *g, const char *lit, const char *type);
int rock__genIndex(RockGen *g, int64_t v);
/* `%r = op %a, %b : ty` */
int rock__genBin(RockGen *g, const char *op, int a, int b, const char *ty);
/* `%r = op %a, %b fastmath<reassoc,contract> : ty` */
int rock__genBinF(RockGen *g, const char *op, int a, int b, const char *ty);
int rock__genSelect(RockGen *g, int c, int a, int b, const char *ty);
/* x * y + acc as one fused multiply-add, rounded once (llvm.intr.fma; f32
 * scalar or vector type `ty`). */
int rock__genFma(RockGen *g, int x, int y, int acc, const char *ty);
/* acc + x * y in float (fastmath) or integer arithmetic of type `ty`. */
int rock__genMacc(RockGen *g, bool fl, int acc, int x, int y, const char *ty);
/* Opens `scf.for %iv = lo to hi step st {`; returns the induction var. */
int rock__genFor(RockGen *g, int lo, int hi, int st);
/* Closes a region opened by one of the rock__genFor* (or any `{`). */
void rock__genEnd(RockGen *g);
/* Opens a one-iter_arg loop `%res = scf.for %iv = lo to hi step st
 * iter_args(%acc = init) -> (ty) {`; sets *iv and *acc, returns %res. */
int rock__genForIter(RockGen *g, int lo, int hi, int st, int init,
                     const char *ty, int *iv, int *acc);
void rock__genYieldEnd(RockGen *g, int v, const char *ty);
/* Opens `%r0, ..., %rN-1 = scf.for %iv = lo to hi step st iter_args(%a_i =
 * init[i]) -> (ty, ...) {` (all iter_args of type `ty`); sets *iv, args[]
 * and res[]. */
void rock__genForMulti(RockGen *g, int lo, int hi, int st, int n,
                       const int *init, const char *ty, int *iv, int *args,
                       int *res);
/* `scf.yield %v_0, ... : ty, ...` and closes the loop. */
void rock__genYieldMultiEnd(RockGen *g, int n, const int *v, const char *ty);
/* The same with one type per iter_arg (tys[i], borrowed); n <= 64 for the
 * one-type forms. */
void rock__genForTyped(RockGen *g, int lo, int hi, int st, int n,
                       const int *init, const char *const *tys, int *iv,
                       int *args, int *res);
void rock__genYieldTypedEnd(RockGen *g, int n, const int *v,
                            const char *const *tys);

/* Prints `t` (scalar) or `vector<W x t>` into buf. */
void rock__typeStr(char *buf, size_t n, MlirType t, int w);
void rock__typeStrS(char *buf, size_t n, const char *elt, int w);
bool rock__isFloat(MlirType t);
unsigned rock__bitWidth(MlirType t);
/* %ld = rock.view_load %view[idx] : mview -> elt (w == 1) or vector<w x
 * elt>; returns ld. */
int rock__genViewLoad(RockGen *g, int view, const char *mview, const char *idx,
                      MlirType elt, int w);
/* Converts %v (scalar or vector<W>) from `from` to `to`; returns the id. */
int rock__genConv(RockGen *g, int v, MlirType from, MlirType to, int w);
/* Rounds an f32 value (scalar or vector<W>) through `t` when t is a 16-bit
 * float (f16/bf16). */
int rock__genRoundW(RockGen *g, int v, MlirType t, int w);
int rock__genRound(RockGen *g, int v, MlirType t);

/* Splits [0, e) into segments of vector width 64 (only when asked), 32, 8
 * and 1, in that order. */
typedef struct RockSeg {
  int64_t lo, hi;
  int w;
} RockSeg;
int rock__segmentsMax(int64_t e, RockSeg out[4], int maxW);
int rock__segments(int64_t e, RockSeg out[4]);
/* The largest view access width (8, 4 or 1) dividing `e`. */
int rock__viewWidth(int64_t e);

int rock__genLoad(RockGen *g, int buf, const char *mt, const char *idx, int w,
                  const char *elt);
void rock__genStore(RockGen *g, int val, int buf, const char *mt,
                    const char *idx, int w, const char *elt);
int rock__genBcast(RockGen *g, int v, int w, const char *elt);
/* Zero of `elt` (f32 / i32) as scalar or vector. */
int rock__genZero(RockGen *g, const char *elt, int w);
/* The constant `lit` of element type `elt`, splat to vector<W> when W > 1. */
int rock__genSplat(RockGen *g, const char *lit, const char *elt, int w);
void rock__idx2(char *buf, size_t n, int a, int b);
void rock__idx3(char *buf, size_t n, int a, int b, int c);
/* `memref.alloc()` (heap) or `memref.alloca()` of type `mt`, 64-aligned. */
int rock__genAlloc(RockGen *g, const char *mt, bool heap);

/*===----------------------------------------------------------------------===
 * The op's description (op.c)
 *===----------------------------------------------------------------------===*/

enum { ROCK_ATTN_MAX_ELEM = 8, ROCK_ATTN_MAX_EXTRA = 2 };

/* How a target spells the transcendental functions of the softmax. */
typedef struct RockAttnTarget {
  /* exp2 of the f32 scalar %x (the rescale factor exp2(m_old - m_new)). */
  int (*exp2Scalar)(RockGen *g, int x);
  /* exp2 of %x <= 0 (f32 scalar, or vector<w> when w > 1): P; −inf must
   * give 0 and NaN must propagate. */
  int (*exp2)(RockGen *g, int x, int w);
  /* log2 of the f32 scalar %x > 0 (the LSE). */
  int (*log2)(RockGen *g, int x);
  /* exp2 of the f32 scalar %x, as exp2 (−inf gives 0, NaN propagates),
   * computed on the FMA pipe by a polynomial of degree `deg` (3 or 4)
   * instead of the special-function unit; NULL where a target has none. */
  int (*exp2Fma)(RockGen *g, int x, int deg);
} RockAttnTarget;

typedef struct RockAttn {
  MlirOperation op;
  const RockAttnTarget *tgt; /* set by the lowering before emitting */
  /* operand ids in the generated function */
  int q, k, v, e[ROCK_ATTN_MAX_ELEM], csl, po, out, lse;
  int nElem;
  bool hasCsl, hasPo, hasLse;
  char mq[128], mk[128], mv[128], me[ROCK_ATTN_MAX_ELEM][128], mc[128], mp[128],
      mo[128], ml[128];
  MlirType tq, tk, tv, te[ROCK_ATTN_MAX_ELEM], tc, tp, to, tl, sm, acc, f32;
  int64_t Bkv, R, Sq, Sk, Dqk, Dv, S, MB, NB, nNBlk, grid, window, band;
  /* hasLow: a sliding window (window) or a causal look-back (band) gives the
   * rows a first key */
  bool causal, reverse, softmax, hasWindow, hasBand, hasLow, dynamic;
  bool dot;       /* features has `dot`: x86 AVX512-BF16 dot products allowed */
  bool kKeyMajor; /* K's memory has unit stride along keys, not along d */
  bool kvPaged;   /* K or V reaches memory through a rock.deref (paged) */
  /* Values a schedule passes into the generated function besides the op's
   * operands (borrowed; they must dominate the op, e.g. a page table):
   * set extra / nExtra before rock__attnLower, which gives them the ids
   * extraId[i] (after the operands) before the body is generated. */
  MlirValue extra[ROCK_ATTN_MAX_EXTRA];
  int nExtra, extraId[ROCK_ATTN_MAX_EXTRA];
  /* A combine fused into the body (GPU): set `fused`, fusedCnt and fusedUp
   * before rock__attnLower. With an internal split (P > 1) it then
   * allocates fusedCnt arrival counters per KV group and row block (cnt,
   * type mcnt; scratch marked rock.zero_init, which the body must leave at
   * zero) and fusedUp more partial rows per query row (after the B·P of the
   * splits) instead of launching the combine, and the body merges the
   * partials into the op's out / lse (ids fOut / fLse, fLse -1 without one;
   * types fmo / fml, element types fto / ftl). Without a split `fused` is
   * cleared. */
  bool fused;
  /* The split's kernel and its combine launch are a programmatic dependent
   * pair (rock__gpuPdl; set by rock__attnLower for an internal split merged
   * by a second launch): the generator calls rock__attnPdlTrigger first
   * thing in its gpu.launch body. */
  bool pdl;
  int64_t fusedCnt, fusedUp;
  int fusedFan; /* the fused merge's fan-in (rock.gpu_fused_fan) */
  int cnt, fOut, fLse;
  char mcnt[64], fmo[128], fml[128];
  MlirType fto, ftl;
  /* region (either form, support/region_form.h) */
  MlirBlock rblock; /* the block cloned per score; null when empty */
  MlirType rArg0, rYield;
  MlirType rArgs[ROCK_ATTN_MAX_ELEM + 1];
  RockRegionForm rform;
} RockAttn;

/* Fills `a` from the rock.gridwise_attention `op` (borrowed); returns false
 * after reporting through `pass`. Operand ids are 0.. in operand order. */
bool rock__attnAnalyse(MlirOperation op, MlirExternalPass pass, RockAttn *a);

/* The K view as [Bkv, Dqk, Sk] (a rock.transform swapping keys and d), for
 * loads along the keys when a->kKeyMajor; writes its memref type into mt
 * (size n) and returns its id. */
int rock__attnKeyMajorK(RockGen *g, const RockAttn *a, char *mt, size_t n);

/* The positive i64 attribute `name` on `op` or its nearest ancestor
 * carrying one; `dflt` when none does (then nothing depends on the
 * machine). Machine and schedule knobs: rock-run sets rock.num_threads (the
 * thread count the CPU kernel runs on) and rock.vector_bits (256 for
 * AVX2-only CPUs, 512 with AVX-512) on the module; the GPU lowering reads
 * rock.gpu_lanes_min, rock.gpu_keys_per_group and rock.gpu_pipeline_stages
 * (docs/gpu.md). */
int64_t rock__attnMachineAttr(MlirOperation op, const char *name, int64_t dflt);

/* Internal key partitions P for an op without a user split, for a machine
 * that runs `T` workgroups at once: the smallest power of two with
 * gridSize*P >= T, halved until each partition keeps `minTiles` key tiles;
 * 1 (no split) when the op has a split, no softmax, a non-float output or a
 * non-f32 LSE, when gridSize >= T, or when fewer than 2 partitions remain.
 * A knob rock.internal_split on the op or an ancestor replaces the rule
 * (rock__attnForcedSplit). */
int64_t rock__attnInternalSplit(const RockAttn *a, int64_t T, int64_t minTiles);

/* The internal split a perf_config's split field asks for (the knob
 * rock.internal_split = N on the op or an ancestor, docs/tuning.md):
 * min(N, key tiles) partitions, fewer when their f32 partials would take
 * more than 1 GiB, 1 when `a` cannot be split; 0 when no knob is set. The
 * one reader of the knob: a lowering with its own split rule asks this
 * first. */
int64_t rock__attnForcedSplit(const RockAttn *a);

/* A target's body emitter: appends the code of the whole kernel for `a`
 * (operand ids as analysed; out / lse may be scratch partials) to `g`;
 * returns false after reporting a failure (e.g. scratch that does not fit). */
typedef bool (*RockAttnGenerate)(RockGen *g, RockAttn *a, const void *ctx);

/* Replaces `op` (analysed into `a`, a->tgt set) by the text `generate`
 * emits (lower.c): with P > 1 internal partitions, into f32 scratch
 * partials (memref.alloc) merged into out / lse by rock__inlineCombine (a
 * GPU launch when `gpu`) and freed; then fills the region's slots and
 * erases `op`. Returns false after signalling `pass` failure. */
bool rock__attnLower(MlirOperation op, MlirExternalPass pass, RockAttn *a,
                     int64_t P, bool gpu, RockAttnGenerate generate,
                     const void *ctx);

/* With a->pdl, `nvvm.griddepcontrol launch_dependents`: the combine's grid
 * may be scheduled now (it waits for this grid's completion itself). A
 * generator calls it right after its gpu.launch line (lower.c). */
void rock__attnPdlTrigger(RockGen *g, const RockAttn *a);

/*===----------------------------------------------------------------------===
 * Workgroups, rows and key ranges (schedule.c)
 *===----------------------------------------------------------------------===*/

/* Workgroup `bid0` (an index id) decomposed as
 * bid = (gBlk * nNBlk + nBlk) * S + split (bid reversed with reverseGrid);
 * its merged rows are [n0, n0 + nRows) of the KV group's Sq*R, with query
 * batch·head bq0 + r % R for merged row n0 + r. */
typedef struct RockAttnWg {
  int split, nBlk, gBlk, n0, nRows, bq0;
} RockAttnWg;
RockAttnWg rock__attnWorkgroup(RockGen *g, const RockAttn *a, int bid0);

/* Row indices of merged row n0 + r: i = n / R, bq = bq0 + n % R. */
typedef struct RockRowIdx {
  int i, bq;
} RockRowIdx;
RockRowIdx rock__attnRowIdx(RockGen *g, int n0, int r, int bq0, int cR);

/* The last key row `x` sees (dynamic problems, semantics.md §3): Sk - 1 clamped
 * by currentSeqLen[bq] and, when causal, by i (+ prefixOffset[bq]). */
int rock__attnRowLast(RockGen *g, const RockAttn *a, RockRowIdx x);
/* The first key row `x` sees (semantics.md §3; may be negative): the larger
 * of the sliding window's min(Sk - 1, currentSeqLen[bq]) - window and the
 * causal look-back's i (+ prefixOffset[bq]) - band. Needs a->hasLow. */
int rock__attnRowLow(RockGen *g, const RockAttn *a, RockRowIdx x);
/* Folds a row into the block's range: the largest last key (start from
 * -1) and the smallest window start clamped at 0 (start from Sk). */
int rock__attnBlockLast(RockGen *g, int acc, int last);
int rock__attnBlockLow(RockGen *g, int acc, int low);
/* This split's key tiles [*start, *end) (semantics.md §5.3, §5.4): ceil-div of
 * the tiles (up to the block's last key `eff` when dynamic, -1 = none) over S,
 * the end clamped, the start raised to the window's first tile (`lowKey`). */
void rock__attnTileRange(RockGen *g, const RockAttn *a, int split, int eff,
                         int lowKey, int *start, int *end);
/* First key *j0 of tile `kt`; returns its real key count min(Sk - j0, MB). */
int rock__attnTileCols(RockGen *g, const RockAttn *a, int kt, int *j0);
/* Row of the out / lse views that row bq of split `split` writes. */
int rock__attnOutRow(RockGen *g, const RockAttn *a, int bq, int split);

/*===----------------------------------------------------------------------===
 * Scores, masks, online softmax, finalisation (softmax.c)
 *===----------------------------------------------------------------------===*/

/* A score %v of type `t` (scalar or vector<w>) rounded through the softmax
 * type, as f32. Scores and the masks stay in the scores' own (natural-log)
 * units. The running maximum m is in the exp2 domain (times log2 e) where P
 * is rounded to 16 bits, and P = exp2(fma(x, log2 e, −m)); with f32 P it
 * stays in the scores' units and P = exp2((x − m) · log2 e), so that the
 * maximum's P is exactly 1 (softmax.c, expDomain: one rule for P, the
 * rescales, the merges and the LSE, which only ever see m through these
 * functions). */
int rock__attnScore(RockGen *g, const RockAttn *a, int v, MlirType t, int w);
/* The value a masked score takes (−inf with softmax, else 0), splat to w. */
int rock__attnMaskedValue(RockGen *g, const RockAttn *a, int w);
/* Masks of semantics.md §5.6 on score %xv for keys %jv (index or vector<w x
 * index>), selecting %mv (rock__attnMaskedValue): padding keys (jv >= Sk), keys
 * past the row's last key %last, keys before its window start %low. */
int rock__attnMaskPad(RockGen *g, const RockAttn *a, int xv, int jv, int mv,
                      int w);
int rock__attnMaskLast(RockGen *g, int xv, int jv, int last, int mv, int w);
int rock__attnMaskLow(RockGen *g, int xv, int jv, int low, int mv, int w);
/* Whether the key tile [j0, j0 + mb) needs no mask for any row of a block
 * (i1 id): inside the keys (no padding tail), up to the block's smallest
 * last key %minLast (KV-cache lengths, causal), at or past its largest
 * window start %maxLow; -1 when no such bound exists (every tile is
 * unmasked, none needs the test). `one`: an index constant 1 id, or -1 to
 * make one. */
int rock__attnTileUnmasked(RockGen *g, const RockAttn *a, int j0, int64_t mb,
                           int minLast, int maxLow, int one);
/* The online-softmax step with the −inf guard (semantics.md §5.6): m_new =
 * maxnumf(m_old, tileMax) (`tileMax`: the tile's largest score as
 * rock__attnScore gives it); m_safe = 0 when m_new = −inf, else m_new;
 * returns c = e^(m_old − m_safe). m, tileMax: see rock__attnScore. */
int rock__attnRescale(RockGen *g, const RockAttn *a, int mOld, int tileMax,
                      int *mNew, int *mSafe);
/* The lazy step: the maximum moves only where the tile's exceeds it by
 * more than 8 ln 2 (8 in the exp2 domain, so P <= 2^8); elsewhere
 * m_new = m_old and the factor is exactly 1, which a schedule may skip
 * multiplying by (where no row of a warp moved). *moved: the i1 of that
 * test. The −inf guard as in rock__attnRescale (m_old = −inf always
 * moves unless the tile is −inf too). O / l and the LSE do not depend on
 * the maximum used, only on its consistency. */
int rock__attnRescaleLazy(RockGen *g, const RockAttn *a, int mOld, int tileMax,
                          int *mNew, int *mSafe, int *moved);
/* P = e^(x − m_safe) (scalar or vector<w>; the form: rock__attnScore);
 * *pr = P rounded through V's
 * type (what gemm1 multiplies); the row sum takes P unrounded. Without
 * softmax, rock__attnProbPlain gives P = x rounded through V's type. */
int rock__attnProb(RockGen *g, const RockAttn *a, int xv, int mSafe, int w,
                   int *pr);
/* rock__attnProb of one f32 score with the exp2 on the FMA pipe
 * (a->tgt->exp2Fma): where P is rounded to bf16 a cubic (relative error
 * 1.0e-4 against bf16's 2^-9), to f16 a quartic (2.9e-6 against 2^-11);
 * f32 P keeps a->tgt->exp2. */
int rock__attnProbFma(RockGen *g, const RockAttn *a, int xv, int mSafe,
                      int *pr);
int rock__attnProbPlain(RockGen *g, const RockAttn *a, int xv, int w);
/* l_new = c * l_old + rowSum. */
int rock__attnRowSum(RockGen *g, int c, int lOld, int rowSum);
/* Merges two partial softmax states (m1, l1) and (m2, l2) of one row (the
 * per-split merge, with the −inf guard): *m = max, *c1 /
 * *c2 = the factors their O accumulators are scaled by before adding;
 * returns l = c1 * l1 + c2 * l2. Without softmax: c1 = c2 = 1, l = l1. */
int rock__attnMergeStates(RockGen *g, const RockAttn *a, int m1, int l1, int m2,
                          int l2, int *m, int *c1, int *c2);
/* Finalisation (semantics.md §5.6): *lz = (l == 0); returns the divisor
 * rock__attnFinalO takes (l itself). */
int rock__attnFinalGuard(RockGen *g, int l, int *lz);
/* O (f32, scalar or vector<w>) / l (`inv`, from rock__attnFinalGuard), 0
 * when l == 0 (softmax only), converted to out's element type. */
int rock__attnFinalO(RockGen *g, const RockAttn *a, int o, int lz, int inv,
                     int w);
/* LSE = m + ln l (in the form that matches m's units), −inf when l == 0, in
 * lse's element type (in f64 when that is f64: the internal split's partials).
 */
int rock__attnLse(RockGen *g, const RockAttn *a, int l, int m, int lz);
/* Under `scf.if cond`: that LSE (rock__attnLse) stored to lse[ob, row]
 * (the GPU schedules' one lane a row). */
void rock__attnStoreLse(RockGen *g, const RockAttn *a, int cond, int l, int m,
                        int lz, int ob, int row);

/*===----------------------------------------------------------------------===
 * The pre-softmax region (region.c)
 *===----------------------------------------------------------------------===*/

/* The region's value for score %sacc (accumulator type) of row x at key
 * %jj: the elementwise inputs are read at [bq, i, jj] and a placeholder
 * tagged rock.region_slot stands for the region; sets *yt to the yielded
 * type. */
int rock__attnRegion(RockGen *g, const RockAttn *a, int sacc, RockRowIdx x,
                     int jj, MlirType *yt);
/* The same for the w consecutive keys %jj .. %jj + w - 1 (w > 1: %sacc is a
 * vector<w> of accumulators, the inputs are read as vectors along the keys,
 * and the slot's operands and result are vectors: rock__attnFillSlots
 * clones the region's ops elementwise over them, which needs
 * rock__attnRegionVectorizable). */
int rock__attnRegionW(RockGen *g, const RockAttn *a, int sacc, RockRowIdx x,
                      int jj, int w, MlirType *yt);
/* True when the op has a region whose ops are all scalar arith / math ops
 * on integers and floats (elementwise: they apply lane by lane to
 * vectors). */
bool rock__attnRegionVectorizable(const RockAttn *a);
/* Replaces every placeholder under `root` by clones of the ops of the
 * region `f` describes (either form); false when there is none. A
 * placeholder of vector<w> operands gets the ops with vector<w> results,
 * scalar operands (constants, values from outside the region) broadcast. */
bool rock__attnFillSlots(MlirOperation root, const RockRegionForm *f);

#endif
