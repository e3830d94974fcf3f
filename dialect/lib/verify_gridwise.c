/*===- verify_gridwise.c - rock.gridwise_attention verifier ---------------===*
 *
 * Canonical shapes (docs/internals.md): queries [B, Sq, Dqk], keys
 * [Bkv, Sk, Dqk], values [Bkv, Sk, Dv], elementwise inputs [B, Sq, Sk],
 * currentSeqLen / prefixOffset [B] i32, out [B*S, Sq, Dv], lse [B*S, Sq] f32,
 * with B = Bkv * numRepeatsGQA; the tiling attributes agree with them.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define LL(x) ((long long)(x))

enum { G_Q, G_K, G_V, G_INS, G_CSL, G_PO, G_OUT, G_LSE, G_NUM };

typedef struct Grid {
  MlirOperation op;
  intptr_t start[G_NUM], size[G_NUM];
} Grid;

static MlirValue gOperand(const Grid *g, int seg, intptr_t i) {
  return mlirOperationGetOperand(g->op, g->start[seg] + i);
}

static MlirLogicalResult positive(MlirOperation op, const char *name,
                                  int64_t v) {
  if (v <= 0)
    return rock__verifyFail(op, "%s (%lld) must be positive", name, LL(v));
  return mlirLogicalResultSuccess();
}

/* Checks operand `seg` #i against `want` (rank n); `elt` if non-null. */
static MlirLogicalResult expectShape(const Grid *g, int seg, intptr_t i,
                                     const char *name, const int64_t *want,
                                     intptr_t n, const char *desc,
                                     RockShape *s) {
  char b1[128], b2[128];
  if (!rock__verifyShapeOf(mlirValueGetType(gOperand(g, seg, i)), s) ||
      s->rank != n)
    return rock__verifyFail(g->op, "%s must be rank %ld (got rank %ld)", name,
                            (long)n, (long)s->rank);
  for (intptr_t k = 0; k < n; ++k)
    if (rock__verifyDimsDiffer(s->dims[k], want[k]))
      return rock__verifyFail(g->op, "%s shape (%s) must be %s (%s)", name,
                              rock__verifyShapeStr(s->dims, n, b1, sizeof b1),
                              desc,
                              rock__verifyShapeStr(want, n, b2, sizeof b2));
  return mlirLogicalResultSuccess();
}

static int64_t mulD(int64_t a, int64_t b) {
  return a == ROCK_DYN || b == ROCK_DYN ? ROCK_DYN : a * b;
}

MlirLogicalResult rockGridwiseAttentionOpVerify(MlirOperation op) {
  Grid g = {.op = op};
  char b1[128];
  if (!rock__verifySegments(op, G_NUM, g.start, g.size))
    return mlirLogicalResultFailure();
  int64_t S = rock__intAttr(op, "splitKV", 0);
  int64_t R = rock__intAttr(op, "numRepeatsGQA", 0);
  int64_t mpb = rock__intAttr(op, "mPerBlock", 0);
  int64_t npb = rock__intAttr(op, "nPerBlock", 0);
  if (mlirLogicalResultIsFailure(positive(op, "splitKV", S)) ||
      mlirLogicalResultIsFailure(positive(op, "numRepeatsGQA", R)) ||
      mlirLogicalResultIsFailure(positive(op, "mPerBlock", mpb)) ||
      mlirLogicalResultIsFailure(positive(op, "nPerBlock", npb)))
    return mlirLogicalResultFailure();

  RockShape q, k, v, s;
  if (!rock__verifyShapeOf(mlirValueGetType(gOperand(&g, G_Q, 0)), &q) ||
      q.rank != 3)
    return rock__verifyFail(op, "queries must be rank 3 (got rank %ld)",
                            (long)q.rank);
  if (!rock__verifyShapeOf(mlirValueGetType(gOperand(&g, G_K, 0)), &k) ||
      k.rank != 3)
    return rock__verifyFail(op, "keys must be rank 3 (got rank %ld)",
                            (long)k.rank);
  int64_t B = q.dims[0], Sq = q.dims[1], Dqk = q.dims[2];
  int64_t Bkv = k.dims[0], Sk = k.dims[1];
  if (rock__verifyDimsDiffer(mulD(Bkv, R), B))
    return rock__verifyFail(op,
                            "keys batch (%lld) times numRepeatsGQA (%lld) must "
                            "equal queries batch (%lld)",
                            LL(Bkv), LL(R), LL(B));
  if (rock__verifyDimsDiffer(k.dims[2], Dqk))
    return rock__verifyFail(
        op, "keys head dim (%lld) must equal queries head dim (%lld)",
        LL(k.dims[2]), LL(Dqk));
  if (!rock__verifyShapeOf(mlirValueGetType(gOperand(&g, G_V, 0)), &v) ||
      v.rank != 3)
    return rock__verifyFail(op, "values must be rank 3 (got rank %ld)",
                            (long)v.rank);
  int64_t Dv = v.dims[2];
  int64_t wantV[3] = {Bkv, Sk, Dv};
  int64_t wantIn[3] = {B, Sq, Sk};
  int64_t wantVec[1] = {B};
  int64_t wantOut[3] = {mulD(B, S), Sq, Dv};
  int64_t wantLse[2] = {mulD(B, S), Sq};
  if (mlirLogicalResultIsFailure(
          expectShape(&g, G_V, 0, "values", wantV, 3, "[Bkv, Sk, Dv]", &s)))
    return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < g.size[G_INS]; ++i)
    if (mlirLogicalResultIsFailure(expectShape(
            &g, G_INS, i, "elementwise input", wantIn, 3, "[B, Sq, Sk]", &s)))
      return mlirLogicalResultFailure();
  const int vecSegs[2] = {G_CSL, G_PO};
  const char *vecNames[2] = {"currentSeqLen", "prefixOffset"};
  for (int j = 0; j < 2; ++j) {
    if (!g.size[vecSegs[j]])
      continue;
    if (mlirLogicalResultIsFailure(
            expectShape(&g, vecSegs[j], 0, vecNames[j], wantVec, 1, "[B]", &s)))
      return mlirLogicalResultFailure();
    if (!rock__verifyIsInt(s.elt, 32))
      return rock__verifyFail(op, "%s element type must be i32 (got %s)",
                              vecNames[j],
                              rock__typeToBuf(s.elt, b1, sizeof b1));
  }
  if (mlirLogicalResultIsFailure(expectShape(&g, G_OUT, 0, "out", wantOut, 3,
                                             "[B*splitKV, Sq, Dv]", &s)))
    return mlirLogicalResultFailure();
  if (g.size[G_LSE]) {
    if (mlirLogicalResultIsFailure(expectShape(&g, G_LSE, 0, "lse", wantLse, 2,
                                               "[B*splitKV, Sq]", &s)))
      return mlirLogicalResultFailure();
    if (!mlirTypeIsAF32(s.elt) && !mlirTypeIsAF16(s.elt) &&
        !mlirTypeIsABF16(s.elt))
      return rock__verifyFail(
          op, "lse element type must be f32, f16 or bf16 (got %s)",
          rock__typeToBuf(s.elt, b1, sizeof b1));
  }
  /* Element types the lowering implements; anything else (index, f64,
   * i32...) is refused here, at the user's op, not as unparsable IR later. */
  if (!rock__verifyIsAttnInput(q.elt))
    return rock__verifyFail(op,
                            "queries element type must be f32, f16, bf16 or i8 "
                            "(got %s)",
                            rock__typeToBuf(q.elt, b1, sizeof b1));
  if (!mlirTypeEqual(k.elt, q.elt))
    return rock__verifyFail(op, "keys and queries must share an element type");
  MlirType vElt =
      mlirShapedTypeGetElementType(mlirValueGetType(gOperand(&g, G_V, 0)));
  MlirType oElt =
      mlirShapedTypeGetElementType(mlirValueGetType(gOperand(&g, G_OUT, 0)));
  if (!rock__verifyIsAttnFloat(vElt))
    return rock__verifyFail(op,
                            "values element type must be f32, f16 or bf16 "
                            "(got %s)",
                            rock__typeToBuf(vElt, b1, sizeof b1));
  if (!rock__verifyIsAttnFloat(oElt))
    return rock__verifyFail(op,
                            "out element type must be f32, f16 or bf16 (got "
                            "%s)",
                            rock__typeToBuf(oElt, b1, sizeof b1));

  int64_t m = rock__intAttr(op, "prePadG0M", -1);
  int64_t n = rock__intAttr(op, "prePadG0N", -1);
  if (Sk != ROCK_DYN && m != Sk)
    return rock__verifyFail(
        op, "prePadG0M (%lld) must equal keys length Sk (%lld)", LL(m), LL(Sk));
  if (Sq != ROCK_DYN && n != Sq * R)
    return rock__verifyFail(op,
                            "prePadG0N (%lld) must equal Sq (%lld) times "
                            "numRepeatsGQA (%lld)",
                            LL(n), LL(Sq), LL(R));
  if (Bkv != ROCK_DYN && Sq != ROCK_DYN) {
    int64_t want = Bkv * ((Sq * R + npb - 1) / npb) * S;
    int64_t grid = rock__intAttr(op, "gridSize", -1);
    if (grid != want)
      return rock__verifyFail(
          op,
          "gridSize (%lld) must equal Bkv * ceil(Sq*R / "
          "nPerBlock) * splitKV = %lld * ceil(%lld / %lld) * "
          "%lld = %lld",
          LL(grid), LL(Bkv), LL(Sq * R), LL(npb), LL(S), LL(want));
  }
  MlirAttribute st = rock__attr(op, "softmaxType");
  if (mlirAttributeIsNull(st) || !mlirAttributeIsAType(st) ||
      !mlirTypeIsAFloat(mlirTypeAttrGetValue(st)))
    return rock__verifyFail(op, "softmaxType must be a float type");
  if (rock__hasAttr(op, "slidingWindowSize") &&
      mlirLogicalResultIsFailure(positive(
          op, "slidingWindowSize", rock__intAttr(op, "slidingWindowSize", 0))))
    return mlirLogicalResultFailure();
  if (rock__hasAttr(op, "causalLookBack")) {
    if (mlirLogicalResultIsFailure(positive(
            op, "causalLookBack", rock__intAttr(op, "causalLookBack", 0))))
      return mlirLogicalResultFailure();
    if (!rock__hasAttr(op, "causal"))
      return rock__verifyFail(op, "causalLookBack requires causal");
  }
  MlirValue ins[64];
  if (g.size[G_INS] > 64)
    return rock__verifyFail(op, "at most 64 elementwise inputs are supported");
  for (intptr_t i = 0; i < g.size[G_INS]; ++i)
    ins[i] = gOperand(&g, G_INS, i);
  if (!rock__verifyPreSoftmaxRegion(op, ins, g.size[G_INS]))
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}
