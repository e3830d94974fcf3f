/*===- attention_to_gridwise.c - rock-attention-to-gridwise ---------------===*
 *
 * Rewrites every rock.attention (memref form) into rock.gridwise_attention
 * over the canonical views of docs/internals.md:
 *   queries [B, Sq, Dqk], keys [Bkv, Sk, Dqk], values [Bkv, Sk, Dv],
 *   elementwise inputs [B, Sq, Sk], currentSeqLen / prefixOffset [B],
 *   out [B*S, Sq, Dv], lse [B*S, Sq].
 * Transposed operands get a PassThrough reorder (a rock.transform on top of
 * whatever view chain they already have, paged chains included); a [1]
 * prefixOffset gets a Broadcast to [B]. keyAddresses / valueAddresses name
 * the same view as keys / values (docs/semantics.md §6) and are dropped: the
 * gridwise op reaches the rock.deref through keys / values themselves.
 *
 * Tiling comes from the perf_config attribute (support/perf_config.h), else
 * from the heuristic in chooseTiling. The perf_config's rock fields (its
 * schedule knobs, docs/tuning.md) become the knobs' attributes on the
 * gridwise op (putKnobs): the one place a perf_config is mapped onto the
 * schedule knobs, which the lowerings read from there as from a module
 * attribute (the op's own value wins). Split-KV partials are written as rocMLIR
 * does; the combine is a separate rock.attention_combine (rock-gen emits it
 * in its own function), so none is added here.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Dialect.h"
#include "rock-c/Ops.h"
#include "rock-c/Passes.h"
#include "rock-c/TransformMap.h"
#include "support/perf_config.h"

#include <stdlib.h>

/* rock.attention's operand segments. */
enum { A_Q, A_K, A_V, A_INS, A_CSL, A_PO, A_KA, A_VA, A_OUT, A_LSE, A_NUM };

enum {
  DEFAULT_BLOCK = 32,
  MAX_DECODE_NB = 64,
  LONG_SK = 512,
  MAX_PREFILL_NB = 512,
  MIN_ROW_BLOCKS = 8,
  DECODE_LONG_SK = 1024,
  DECODE_MB = 128,
  /* The packed bf16 prefill form's keys per tile (Sk >= DECODE_LONG_SK). */
  PACKED_MB = 128,
  /* The fused decode loops of rock-lower-gridwise-attention need NB to be
   * a multiple of their 4 rows (FUSE_ROWS there). */
  MIN_DECODE_NB = 4
};

typedef struct Att {
  MlirOperation op;
  MlirContext ctx;
  MlirLocation loc;
  intptr_t start[A_NUM], size[A_NUM];
} Att;

static MlirValue operand(const Att *a, int seg, intptr_t i) {
  return mlirOperationGetOperand(a->op, a->start[seg] + i);
}

/* Reads operandSegmentSizes; false when it is missing or malformed. */
static bool readSegments(Att *a) {
  MlirAttribute seg = rock__attr(a->op, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != A_NUM)
    return false;
  intptr_t pos = 0;
  for (int i = 0; i < A_NUM; ++i) {
    a->start[i] = pos;
    a->size[i] = mlirDenseI32ArrayGetElement(seg, i);
    pos += a->size[i];
  }
  return pos == mlirOperationGetNumOperands(a->op);
}

/* Static shape of a ranked memref value into dims (at most 3); false for
 * anything dynamic or of another rank. */
static bool staticShape(MlirValue v, intptr_t rank, int64_t *dims) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAMemRef(t) || mlirShapedTypeGetRank(t) != rank ||
      !mlirShapedTypeHasStaticShape(t))
    return false;
  for (intptr_t i = 0; i < rank; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return true;
}

/* True when `v` is a rock.deref result, possibly under rock.transforms. */
static bool endsInDeref(MlirValue v) {
  for (int depth = 0; depth < 1024 && mlirValueIsAOpResult(v); ++depth) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (rock__isOp(def, "rock.deref"))
      return true;
    if (!rock__isOp(def, "rock.transform"))
      return false;
    v = mlirOperationGetOperand(def, 0);
  }
  return false;
}

/* True when `v` is a rock.transform whose map has these bounds and the
 * affine map (d0, ...) -> results; `*src` is then its input. */
static bool isView(MlirValue v, intptr_t nUp, const int64_t *up, intptr_t nLow,
                   const int64_t *low, MlirAffineExpr *results,
                   MlirValue *src) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!rock__isOp(def, "rock.transform"))
    return false;
  MlirAttribute map = rock__attr(def, "transform");
  if (mlirAttributeIsNull(map) || !rockAttributeIsATransformMap(map))
    return false;
  MlirAttribute ub = rockTransformMapAttrGetUpperBounds(map);
  MlirAttribute lb = rockTransformMapAttrGetLowerBounds(map);
  if (mlirDenseArrayGetNumElements(ub) != nUp ||
      mlirDenseArrayGetNumElements(lb) != nLow)
    return false;
  for (intptr_t i = 0; i < nUp; ++i)
    if (mlirDenseI64ArrayGetElement(ub, i) != up[i])
      return false;
  for (intptr_t i = 0; i < nLow; ++i)
    if (mlirDenseI64ArrayGetElement(lb, i) != low[i])
      return false;
  MlirAffineMap want =
      mlirAffineMapGet(mlirAttributeGetContext(map), nUp, 0, nLow, results);
  MlirAttribute have = rockTransformMapAttrGetMap(map);
  if (!mlirAttributeIsAAffineMap(have) ||
      !mlirAffineMapEqual(mlirAffineMapAttrGetValue(have), want))
    return false;
  *src = mlirOperationGetOperand(def, 0);
  return true;
}

/* Recognises the head broadcast rocmlir-gen puts on K / V (a [Bkv, x, y]
 * view made [Bkv*R, x, y] by AddDim, Broadcast{1} and Merge{Bkv, R}: batch b
 * reads K/V head b / R) and returns its source with *r = R, so the op keeps
 * its grouped-query form; false (nothing changed) for any other view. */
static bool peelHeadBroadcast(MlirContext ctx, MlirValue v, const int64_t *sh,
                              int64_t hq, MlirValue *src, int64_t *r) {
  for (int64_t R = 2; R <= hq && R <= sh[0]; ++R) {
    if (sh[0] % R != 0 || hq % R != 0)
      continue;
    int64_t a = sh[0] / R;
    MlirAffineExpr d[4];
    for (int i = 0; i < 4; ++i)
      d[i] = mlirAffineDimExprGet(ctx, i);
    MlirAffineExpr cR = mlirAffineConstantExprGet(ctx, R);
    MlirAffineExpr top[4] = {mlirAffineFloorDivExprGet(d[0], cR),
                             mlirAffineModExprGet(d[0], cR), d[1], d[2]};
    MlirAffineExpr mid[4] = {d[0], mlirAffineConstantExprGet(ctx, 0), d[2],
                             d[3]};
    MlirAffineExpr bot[3] = {d[0], d[2], d[3]};
    int64_t upTop[3] = {sh[0], sh[1], sh[2]};
    int64_t br[4] = {a, R, sh[1], sh[2]}, b1[4] = {a, 1, sh[1], sh[2]};
    int64_t base[3] = {a, sh[1], sh[2]};
    MlirValue x, y, z;
    if (isView(v, 3, upTop, 4, br, top, &x) &&
        isView(x, 4, br, 4, b1, mid, &y) &&
        isView(y, 4, b1, 3, base, bot, &z)) {
      *src = z;
      *r = R;
      return true;
    }
  }
  return false;
}

/*===----------------------------------------------------------------------===
 * Views
 *===----------------------------------------------------------------------===*/

/* Inserts `%r = rock.transform %in by map : ... to memref<upper x elt>`
 * before the attention op and returns %r. */
static MlirValue makeView(const Att *a, MlirValue in, MlirAttribute map,
                          intptr_t rank, const int64_t *upper) {
  MlirType inT = mlirValueGetType(in);
  MlirType outT =
      mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(inT), rank,
                                  upper, mlirMemRefTypeGetMemorySpace(inT));
  MlirOperation t = rockTransformOpCreate(a->loc, in, map, outT);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(a->op), a->op, t);
  return mlirOperationGetResult(t, 0);
}

/* View of a rank-3 `in` (shape `lower`) with its last two dims swapped:
 * upper [d0, d2, d1]. `names` names the upper dims. */
static MlirValue swapLastTwo(const Att *a, MlirValue in, const int64_t *lower,
                             const char *const names[3]) {
  const int64_t upDims[3] = {0, 1, 2}, lowDims[3] = {0, 2, 1};
  const int64_t upper[3] = {lower[0], lower[2], lower[1]};
  MlirAttribute t =
      rockTransformAttrCreate(a->ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 3,
                              names, upDims, 3, names, lowDims);
  MlirAttribute map =
      rockTransformMapAttrCreate(a->ctx, 1, &t, 3, upper, 3, lower);
  return makeView(a, in, map, 3, upper);
}

/* View of a [1] vector broadcast to [n]. */
static MlirValue broadcast1(const Att *a, MlirValue in, int64_t n) {
  const char *const names[1] = {"b"};
  const int64_t dims[1] = {0}, one[1] = {1}, upper[1] = {n};
  MlirAttribute t = rockTransformAttrCreate(
      a->ctx, ROCK_TRANSFORM_BROADCAST, 1, one, 1, names, dims, 1, names, dims);
  MlirAttribute map =
      rockTransformMapAttrCreate(a->ctx, 1, &t, 1, upper, 1, one);
  return makeView(a, in, map, 1, upper);
}

/*===----------------------------------------------------------------------===
 * Tiling
 *===----------------------------------------------------------------------===*/

static int64_t nextPow2(int64_t v) {
  int64_t p = 1;
  while (p < v && p <= INT64_MAX / 2) /* no overflow for any v */
    p *= 2;
  return p;
}

/* True when the CPU would run `op` in its packed prefill form, as far as
 * the tiling is concerned: bf16 Q, K and V with the `dot` GemmFeature or
 * rock.amx, or i8 Q and K with rock.vnni or rock.amx (docs/cpu.md). */
static bool elementsAre(MlirValue q, MlirValue k, MlirValue v, bool i8) {
  MlirValue vals[3] = {q, k, v};
  for (int i = 0; i < (i8 ? 2 : 3); ++i) {
    MlirType t = mlirValueGetType(vals[i]);
    if (!mlirTypeIsAShaped(t))
      return false;
    MlirType e = mlirShapedTypeGetElementType(t);
    if (i8 ? !mlirTypeIsAInteger(e) || mlirIntegerTypeGetWidth(e) != 8
           : !mlirTypeIsABF16(e))
      return false;
  }
  return true;
}

static bool packedForm(MlirOperation op, MlirValue q, MlirValue k,
                       MlirValue v) {
  bool amx = !mlirAttributeIsNull(rock__nearestAttr(op, "rock.amx"));
  if (elementsAre(q, k, v, true))
    return amx || !mlirAttributeIsNull(rock__nearestAttr(op, "rock.vnni"));
  if (!elementsAre(q, k, v, false))
    return false;
  MlirAttribute f = rock__attr(op, "features");
  bool dot = !mlirAttributeIsNull(f) && rockGemmFeaturesAttrGetValue(f) > 0 &&
             (rockGemmFeaturesAttrGetValue(f) & ROCK_GEMM_FEATURE_DOT) != 0;
  return dot || amx;
}

/* Chooses MB (keys per tile) and NB (merged query rows per tile).
 * perf_config wins where it gives a usable value (an invalid attn:v3 string
 * is an error). Otherwise the heuristic:
 *  - NB: when the problem has few merged rows (Sq*R <= 64, decode-like),
 *    the next power of two >= Sq*R, at least 4, so that one tile covers
 *    every row and the fused decode loops apply (they need NB % 4 == 0;
 *    an MHA decode row, Sq*R = 1, with NB 1 took the unfused loops, ~10x
 *    slower with a dense [Bkv, D, Sk] K: bench/RESULTS.md, run E);
 *    otherwise the largest power of two <= Sq*R / 8 (8 row blocks per KV
 *    head at least, for the cores and for causal tile skipping), clamped
 *    to [32, 512]: the per-key-tile work that does not scale with the rows
 *    (the K transposition, the loop overhead) is amortised over NB rows; on
 *    the 2-core AVX-512 machine f32 prefill Hq 32 / Hkv 8, d 128, S 1024
 *    runs at ~62 GFLOP/s with NB 32, ~155 with 256, ~174 with 512;
 *  - MB: 32; 64 once Sk >= 512, halving the per-tile overhead of the online
 *    softmax (rescaling, the loop itself) on long key sequences; decode-like
 *    problems (Sq*R <= 64) take 128 once Sk >= 1024: the fused decode loops
 *    walk a full tile in 8 interleaved key streams (one 16-token page each),
 *    which keeps more cache misses in flight on paged KV (f32 paged decode
 *    B 1, L 64k on 2 cores: ~28 ms with MB 64, ~21 ms with 128). bf16
 *    (and i8) prefill that the CPU runs in its packed form (`packed`:
 *    packedForm; docs/cpu.md) takes 128
 *    once Sk >= 1024: the per-row work of a tile that does not scale with
 *    its keys (the softmax's reductions and rescale, O's rescale, the gemm
 *    blocks' loads and stores of their accumulators) is amortised over
 *    twice the keys (Hq 32 / Hkv 8, d 128, S 1024 and 4096 on the 2-core
 *    AVX512-BF16 machine, under load: 7-15 % faster than 64, in every one of
 *    3 interleaved rounds; the f32 transposed form is ~20 % slower with
 *    128, so it keeps 64).
 * Returns false after reporting an error. */
static bool chooseTiling(const Att *a, MlirExternalPass pass, int64_t Sk,
                         int64_t rows, bool packed, RockPerfConfig *parsed,
                         int64_t *mb, int64_t *nb) {
  int64_t pm = 0, pn = 0;
  for (int k = 0; k < ROCK_KNOB_COUNT; ++k)
    parsed->knob[k] = -1;
  MlirAttribute pc = rock__attr(a->op, "perf_config");
  if (!mlirAttributeIsNull(pc) && mlirAttributeIsAString(pc)) {
    MlirStringRef s = mlirStringAttrGetValue(pc);
    char err[512];
    if (!rockPerfConfigParse(s.data, s.length, parsed, err, sizeof err)) {
      rock__passFail(pass, a->op, "%s", err);
      return false;
    }
    pm = parsed->mPerBlock;
    pn = parsed->nPerBlock;
  }
  *mb = pm                                              ? pm
        : rows <= MAX_DECODE_NB && Sk >= DECODE_LONG_SK ? DECODE_MB
        : packed && Sk >= DECODE_LONG_SK                ? PACKED_MB
        : Sk >= LONG_SK                                 ? 2 * DEFAULT_BLOCK
                                                        : DEFAULT_BLOCK;
  int64_t prefillNb = DEFAULT_BLOCK;
  while (prefillNb < MAX_PREFILL_NB && 2 * prefillNb * MIN_ROW_BLOCKS <= rows)
    prefillNb *= 2;
  int64_t decodeNb =
      nextPow2(rows) < MIN_DECODE_NB ? MIN_DECODE_NB : nextPow2(rows);
  *nb = pn ? pn : (rows <= MAX_DECODE_NB ? decodeNb : prefillNb);
  return true;
}

/*===----------------------------------------------------------------------===
 * The rewrite
 *===----------------------------------------------------------------------===*/

typedef struct Attrs {
  MlirNamedAttribute v[20 + ROCK_KNOB_COUNT];
  intptr_t n;
} Attrs;

static void put(Attrs *as, MlirContext ctx, const char *name,
                MlirAttribute val) {
  as->v[as->n++] = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), val);
}

static MlirAttribute i32(MlirContext ctx, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), v);
}

static MlirAttribute i64(MlirContext ctx, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
}

/* The perf_config's rock fields as their knobs' attributes (a bool or an
 * i64, rockPerfKnobs): the lowerings read each knob from the op or its
 * nearest ancestor, so a perf_config wins over a module attribute. */
static void putKnobs(Attrs *as, MlirContext ctx, const RockPerfConfig *pc) {
  for (int k = 0; k < ROCK_KNOB_COUNT; ++k) {
    if (pc->knob[k] < 0)
      continue;
    const RockPerfKnobInfo *info = &rockPerfKnobs[k];
    put(as, ctx, info->attr,
        info->boolAttr ? mlirBoolAttrGet(ctx, pc->knob[k] != 0)
                       : i64(ctx, pc->knob[k]));
  }
}

/* Lowers one rock.attention; false after reporting an error. */
static bool lowerOne(MlirOperation op, MlirExternalPass pass) {
  Att a = {.op = op,
           .ctx = mlirOperationGetContext(op),
           .loc = mlirOperationGetLocation(op)};
  MlirContext ctx = a.ctx;
  if (rock__flagAttr(op, "preSoftmaxHasSplitKVTransforms")) {
    rock__passFail(pass, op, "preSoftmaxHasSplitKVTransforms is not supported");
    return false;
  }
  if (!readSegments(&a)) {
    rock__passFail(pass, op, "rock.attention has malformed operand segments");
    return false;
  }
  bool qT = rock__flagAttr(op, "qTransposed");
  bool kT = rock__flagAttr(op, "kTransposed");
  bool vT = rock__flagAttr(op, "vTransposed");
  bool oT = rock__flagAttr(op, "oTransposed");
  int64_t q[3], k[3], v[3], o[3];
  if (!staticShape(operand(&a, A_Q, 0), 3, q) ||
      !staticShape(operand(&a, A_K, 0), 3, k) ||
      !staticShape(operand(&a, A_V, 0), 3, v) ||
      !staticShape(operand(&a, A_OUT, 0), 3, o)) {
    rock__passFail(pass, op,
                   "rock-attention-to-gridwise needs static rank-3 queries, "
                   "keys, values and out");
    return false;
  }
  int64_t B = q[0], Sq = qT ? q[2] : q[1];
  int64_t Bkv = k[0], Sk = kT ? k[1] : k[2];
  int64_t S = rock__intAttr(op, "splitKV", 1);
  int64_t hq = rock__intAttr(op, "numHeadsQ", 0);
  int64_t hkv = rock__intAttr(op, "numHeadsKV", 1);
  if (hq <= 0 || hkv <= 0 || hq % hkv != 0 || Bkv * (hq / hkv) != B || S <= 0) {
    rock__passFail(pass, op,
                   "rock.attention heads (%lld, %lld), splitKV (%lld) and "
                   "batches (%lld, %lld) are inconsistent",
                   (long long)hq, (long long)hkv, (long long)S, (long long)B,
                   (long long)Bkv);
    return false;
  }
  /* A head broadcast on both K and V is grouped-query attention: read the
   * un-broadcast views with Hkv / R heads (same values, K/V shared again). */
  MlirValue kIn = operand(&a, A_K, 0), vIn = operand(&a, A_V, 0);
  MlirValue kSrc, vSrc;
  int64_t rk = 0, rv = 0;
  if (peelHeadBroadcast(ctx, kIn, k, hq, &kSrc, &rk) &&
      peelHeadBroadcast(ctx, vIn, v, hq, &vSrc, &rv) && rk == rv &&
      hkv % rk == 0) {
    kIn = kSrc;
    vIn = vSrc;
    k[0] /= rk;
    v[0] /= rk;
    Bkv /= rk;
    hkv /= rk;
  }
  int64_t R = hq / hkv, rows = Sq * R;
  int64_t mb, nb;
  RockPerfConfig perf;
  if (!chooseTiling(&a, pass, Sk, rows,
                    packedForm(op, operand(&a, A_Q, 0), kIn, vIn), &perf, &mb,
                    &nb))
    return false;
  int64_t grid = Bkv * ((rows + nb - 1) / nb) * S;

  MlirValue po = {NULL};
  int64_t poLen = B;
  if (a.size[A_PO]) {
    po = operand(&a, A_PO, 0);
    if (!staticShape(po, 1, &poLen) || (poLen != 1 && poLen != B)) {
      rock__passFail(pass, op, "prefixOffset must be [1] or [B]");
      return false;
    }
  }

  /* Paged mode: keys / values are the views to read (docs/semantics.md §6); the
   * address operands only mark them as paged and must reach a rock.deref. */
  static const char *const addrNames[2] = {"keyAddresses", "valueAddresses"};
  for (int j = 0; j < 2; ++j)
    if (a.size[A_KA + j] && !endsInDeref(operand(&a, A_KA + j, 0))) {
      rock__passFail(pass, op,
                     "%s must be a rock.transform chain ending in rock.deref",
                     addrNames[j]);
      return false;
    }

  /* Canonical views (nothing is created before this point). */
  static const char *const qNames[3] = {"b", "sq", "dqk"};
  static const char *const kNames[3] = {"bkv", "sk", "dqk"};
  static const char *const vNames[3] = {"bkv", "sk", "dv"};
  static const char *const oNames[3] = {"bs", "sq", "dv"};
  MlirValue qv = operand(&a, A_Q, 0), kv = kIn;
  MlirValue vv = vIn, ov = operand(&a, A_OUT, 0);
  if (qT)
    qv = swapLastTwo(&a, qv, q, qNames);
  if (!kT)
    kv = swapLastTwo(&a, kv, k, kNames);
  if (vT)
    vv = swapLastTwo(&a, vv, v, vNames);
  if (oT)
    ov = swapLastTwo(&a, ov, o, oNames);
  if (poLen != B)
    po = broadcast1(&a, po, B);

  /* Operands: queries, keys, values, ins..., csl?, po?, out, lse?. */
  intptr_t nIns = a.size[A_INS];
  intptr_t nOps = 4 + nIns + a.size[A_CSL] + a.size[A_PO] + a.size[A_LSE];
  MlirValue *ops = malloc((size_t)nOps * sizeof(MlirValue));
  if (!ops)
    abort();
  intptr_t n = 0;
  ops[n++] = qv;
  ops[n++] = kv;
  ops[n++] = vv;
  for (intptr_t i = 0; i < nIns; ++i)
    ops[n++] = operand(&a, A_INS, i);
  if (a.size[A_CSL])
    ops[n++] = operand(&a, A_CSL, 0);
  if (a.size[A_PO])
    ops[n++] = po;
  ops[n++] = ov;
  if (a.size[A_LSE])
    ops[n++] = operand(&a, A_LSE, 0);

  Attrs as = {.n = 0};
  const int32_t seg[8] = {1,
                          1,
                          1,
                          (int32_t)nIns,
                          (int32_t)a.size[A_CSL],
                          (int32_t)a.size[A_PO],
                          1,
                          (int32_t)a.size[A_LSE]};
  put(&as, ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 8, seg));
  if (rock__flagAttr(op, "causal"))
    put(&as, ctx, "causal", mlirUnitAttrGet(ctx));
  if (rock__flagAttr(op, "reverseGrid"))
    put(&as, ctx, "reverseGrid", mlirUnitAttrGet(ctx));
  put(&as, ctx, "splitKV", i32(ctx, S));
  put(&as, ctx, "numRepeatsGQA", i32(ctx, R));
  put(&as, ctx, "prePadG0M", i64(ctx, Sk));
  put(&as, ctx, "prePadG0N", i64(ctx, rows));
  put(&as, ctx, "mPerBlock", i32(ctx, mb));
  put(&as, ctx, "nPerBlock", i32(ctx, nb));
  put(&as, ctx, "gridSize", i64(ctx, grid));
  MlirAttribute st = rock__attr(op, "softmaxType");
  if (mlirAttributeIsNull(st))
    st = mlirTypeAttrGet(mlirF32TypeGet(ctx));
  put(&as, ctx, "softmaxType", st);
  put(&as, ctx, "enableSoftmax", mlirBoolAttrGet(ctx, 1));
  MlirAttribute feat = rock__attr(op, "features");
  if (!mlirAttributeIsNull(feat))
    put(&as, ctx, "features", feat);
  /* The GPU tensor-core schedule takes its warps from the wave fields. */
  MlirAttribute pc = rock__attr(op, "perf_config");
  if (!mlirAttributeIsNull(pc))
    put(&as, ctx, "perf_config", pc);
  putKnobs(&as, ctx, &perf);
  static const char *const bounds[] = {"slidingWindowSize", "causalLookBack"};
  for (int i = 0; i < 2; ++i) {
    MlirAttribute b = rock__attr(op, bounds[i]);
    if (!mlirAttributeIsNull(b))
      put(&as, ctx, bounds[i], b);
  }

  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("rock.gridwise_attention"), a.loc);
  mlirOperationStateAddOperands(&state, nOps, ops);
  mlirOperationStateAddAttributes(&state, as.n, as.v);
  MlirRegion region = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation g = mlirOperationCreate(&state);
  free(ops);
  /* The new op owns its region; move the elementwise body into it. */
  mlirRegionTakeBody(mlirOperationGetRegion(g, 0),
                     mlirOperationGetRegion(op, 0));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, g);
  mlirOperationDestroy(op);
  return true;
}

/* rocMLIR's rock.gridwise_attention_accel is parse-only in rock: its
 * operands are laid out for rocMLIR's blockwise pipeline, not rock's
 * (docs/rocmlir-compat.md). Fails at the first one. */
static MlirWalkResult refuseAccel(MlirOperation op, void *ud) {
  if (!rock__isOp(op, "rock.gridwise_attention_accel"))
    return MlirWalkResultAdvance;
  rock__passFail(*(MlirExternalPass *)ud, op,
                 "rock.gridwise_attention_accel is parse-only in rock "
                 "(docs/rocmlir-compat.md): lower the rock.attention it came "
                 "from instead");
  return MlirWalkResultInterrupt;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  rock__lowerEach(root, "rock.attention", lowerOne, pass);
  mlirOperationWalk(root, refuseAccel, &pass, MlirWalkPreOrder);
}

static const RockPassDef def = {
    "RockAttentionToGridwise", "rock-attention-to-gridwise",
    "rewrite rock.attention into rock.gridwise_attention over canonical views",
    "", run};

MlirPass rockAttentionToGridwisePassCreate(void) {
  return rock__passCreate(&def);
}
void rockAttentionToGridwisePassRegister(void) { rock__passRegister(&def); }
