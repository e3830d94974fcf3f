/*===- verify_attention.c - rock.attention verifier (docs/dialect.md) ------===*
 *
 * Rules 1-11 of rock.attention in docs/dialect.md, checked in order; the first
 * broken rule reports. Dynamic dims are treated as matching anything.
 *
 *===----------------------------------------------------------------------===*/
#include "verify_attention.h"
#include "Rock/RockAttrsC.h"
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

/* Operand segments of rock.attention, in operandSegmentSizes order. */
enum {
  SEG_Q,
  SEG_K,
  SEG_V,
  SEG_INS,
  SEG_CSL,
  SEG_PO,
  SEG_KA,
  SEG_VA,
  SEG_OUT,
  SEG_LSE,
  NUM_SEGS
};

/* Logical sizes, already un-transposed. */
typedef struct Dims {
  int64_t batchQ, seqQ, headQK; /* queries */
  int64_t batchK, headK, seqK;  /* keys */
  int64_t batchV, seqV, headV;  /* values */
  int64_t batchO, seqO, headO;  /* out */
} Dims;

typedef struct Attn {
  MlirOperation op;
  intptr_t start[NUM_SEGS], size[NUM_SEGS];
  RockShape q, k, v, out;
  int64_t splitKV, headsQ, headsKV;
  Dims d;
} Attn;

static MlirValue operand(const Attn *a, int seg, intptr_t i) {
  return mlirOperationGetOperand(a->op, a->start[seg] + i);
}

static bool has(const Attn *a, int seg) { return a->size[seg] > 0; }

/* Product of two dims, ROCK_DYN if either is dynamic. */
static int64_t mulDims(int64_t a, int64_t b) {
  return a == ROCK_DYN || b == ROCK_DYN ? ROCK_DYN : a * b;
}

static const char *eltStr(const RockShape *s, char *buf, size_t n) {
  return rock__typeToBuf(s->elt, buf, n);
}

/* Rule 1-3: split-KV/LSE, store method, prefix offset. Where rocMLIR has the
 * same rule, its words come first (rocMLIR's own tests match them) and rock's
 * context follows. */
static MlirLogicalResult verifyFlags(const Attn *a) {
  if (a->splitKV != 1 && !has(a, SEG_LSE))
    return rock__verifyFail(a->op,
                            "Flash decoding needs LSE output (splitKV = %lld)",
                            (long long)a->splitKV);
  if (a->splitKV <= 0)
    return rock__verifyFail(
        a->op, "Negative or zero split-kv does not make sense (splitKV = %lld)",
        (long long)a->splitKV);
  MlirAttribute sm = rock__attr(a->op, "storeMethod");
  if (!mlirAttributeIsNull(sm) && rockStoreMethodAttrGetValue(sm) != 0)
    return rock__verifyFail(a->op,
                            "Only set store method is supported for attention. "
                            "(storeMethod = %s)",
                            rock__storeMethodName(sm));
  if (has(a, SEG_PO) && !rock__hasAttr(a->op, "causal"))
    return rock__verifyFail(a->op, "%s", ROCK_PREFIX_NEEDS_CAUSAL);
  return mlirLogicalResultSuccess();
}

/* Rule 4: head counts. */
static MlirLogicalResult verifyHeads(const Attn *a) {
  if (a->headsQ <= 0)
    return rock__verifyFail(a->op, "numHeadsQ must be positive (got %lld)",
                            (long long)a->headsQ);
  if (a->headsKV <= 0)
    return rock__verifyFail(a->op, "numHeadsKV must be positive (got %lld)",
                            (long long)a->headsKV);
  if (a->headsQ % a->headsKV != 0)
    return rock__verifyFail(
        a->op, "numHeadsQ is not divisible by numHeadsKV (%lld vs %lld)",
        (long long)a->headsQ, (long long)a->headsKV);
  return mlirLogicalResultSuccess();
}

/* Reads one rank-3 operand. rocMLIR also takes rank 2 (one batch) when Q
 * and out agree, and words out's rank against Q's: rock leads with those
 * words where they apply (docs/rocmlir-compat.md). */
static MlirLogicalResult rank3(const Attn *a, int seg, const char *name,
                               RockShape *s) {
  MlirType t = mlirValueGetType(operand(a, seg, 0));
  if (!rock__verifyShapeOf(t, s) || s->rank != 3) {
    if (seg == SEG_OUT && s->rank != a->q.rank)
      return rock__verifyFail(a->op,
                              "Number of dimensions do not match (Q and "
                              "Output): out must be rank 3 (got rank %ld)",
                              (long)s->rank);
    return rock__verifyFail(a->op, "%s must be rank 3 (got rank %ld)", name,
                            (long)s->rank);
  }
  return mlirLogicalResultSuccess();
}

static void computeDims(Attn *a) {
  bool qT = rock__hasAttr(a->op, "qTransposed");
  bool kT = rock__hasAttr(a->op, "kTransposed");
  bool vT = rock__hasAttr(a->op, "vTransposed");
  bool oT = rock__hasAttr(a->op, "oTransposed");
  Dims *d = &a->d;
  d->batchQ = a->q.dims[0];
  d->seqQ = a->q.dims[qT ? 2 : 1];
  d->headQK = a->q.dims[qT ? 1 : 2];
  d->batchK = a->k.dims[0];
  d->seqK = a->k.dims[kT ? 1 : 2];
  d->headK = a->k.dims[kT ? 2 : 1];
  d->batchV = a->v.dims[0];
  d->seqV = a->v.dims[vT ? 2 : 1];
  d->headV = a->v.dims[vT ? 1 : 2];
  d->batchO = a->out.dims[0];
  d->seqO = a->out.dims[oT ? 2 : 1];
  d->headO = a->out.dims[oT ? 1 : 2];
}

#define LL(x) ((long long)(x))

/* Rule 5: shapes. */
static MlirLogicalResult verifyShapes(Attn *a) {
  if (mlirLogicalResultIsFailure(rank3(a, SEG_Q, "queries", &a->q)) ||
      mlirLogicalResultIsFailure(rank3(a, SEG_K, "keys", &a->k)) ||
      mlirLogicalResultIsFailure(rank3(a, SEG_V, "values", &a->v)) ||
      mlirLogicalResultIsFailure(rank3(a, SEG_OUT, "out", &a->out)))
    return mlirLogicalResultFailure();
  computeDims(a);
  const Dims *d = &a->d;
  int64_t r = a->headsQ / a->headsKV;
  if (rock__verifyDimsDiffer(mulDims(d->batchK, r), d->batchQ))
    return rock__verifyFail(
        a->op,
        "Batch dimensions do not match: keys batch (%lld) times "
        "numHeadsQ/numHeadsKV (%lld) must equal queries batch (%lld)",
        LL(d->batchK), LL(r), LL(d->batchQ));
  if (rock__verifyDimsDiffer(d->batchV, d->batchK))
    return rock__verifyFail(a->op,
                            "Batch dimensions do not match: values batch "
                            "(%lld) must equal keys batch (%lld)",
                            LL(d->batchV), LL(d->batchK));
  if (rock__verifyDimsDiffer(d->headK, d->headQK))
    return rock__verifyFail(
        a->op,
        "reduction dimensions of first gemm do not match: keys head dim "
        "(%lld) must equal queries head dim (%lld)",
        LL(d->headK), LL(d->headQK));
  if (rock__verifyDimsDiffer(d->seqV, d->seqK))
    return rock__verifyFail(
        a->op,
        "reduction dimensions of second gemm do not match: values sequence "
        "length (%lld) must equal keys sequence length (%lld)",
        LL(d->seqV), LL(d->seqK));
  if (d->batchO != ROCK_DYN && d->batchO % a->splitKV != 0)
    return rock__verifyFail(a->op,
                            "Batch size must be divisible by splitKV: out "
                            "batch (%lld), splitKV (%lld)",
                            LL(d->batchO), LL(a->splitKV));
  if (d->batchO != ROCK_DYN &&
      rock__verifyDimsDiffer(d->batchO / a->splitKV, d->batchQ))
    return rock__verifyFail(
        a->op,
        "Batch dimensions do not match (Q and Output): out batch (%lld) "
        "divided by splitKV (%lld) must equal queries batch (%lld)",
        LL(d->batchO), LL(a->splitKV), LL(d->batchQ));
  if (rock__verifyDimsDiffer(d->seqO, d->seqQ))
    return rock__verifyFail(
        a->op,
        "Sequence length does not match (Q and Output): out sequence length "
        "(%lld) must equal queries sequence length (%lld)",
        LL(d->seqO), LL(d->seqQ));
  if (rock__verifyDimsDiffer(d->headO, d->headV))
    return rock__verifyFail(
        a->op,
        "Head dimensions do not match (V and Output): out head dim (%lld) "
        "must equal values head dim (%lld)",
        LL(d->headO), LL(d->headV));
  int64_t want[3] = {d->batchQ, d->seqQ, d->seqK};
  for (intptr_t i = 0; i < a->size[SEG_INS]; ++i) {
    RockShape s;
    char got[128], exp[128];
    if (!rock__verifyShapeOf(mlirValueGetType(operand(a, SEG_INS, i)), &s) ||
        s.rank != 3)
      return rock__verifyFail(
          a->op, "elementwise input %ld must be rank 3 (got rank %ld)", (long)i,
          (long)s.rank);
    for (int k = 0; k < 3; ++k)
      if (rock__verifyDimsDiffer(s.dims[k], want[k]))
        return rock__verifyFail(
            a->op,
            "elementwise input %ld shape (%s) must be [batch, "
            "seqQ, seqK] (%s)",
            (long)i, rock__verifyShapeStr(s.dims, 3, got, sizeof got),
            rock__verifyShapeStr(want, 3, exp, sizeof exp));
  }
  return mlirLogicalResultSuccess();
}

/* Rule 6: currentSeqLen and prefixOffset. rocMLIR checks currentSeqLen's
 * rank and length (its words lead those messages); prefixOffset is rock's. */
static MlirLogicalResult verifyI32Vector(const Attn *a, int seg,
                                         const char *name, bool allowOne) {
  if (!has(a, seg))
    return mlirLogicalResultSuccess();
  RockShape s;
  char b[128], up[96] = "";
  if (!allowOne)
    snprintf(up, sizeof up, "Number of dimensions is not one (%s): ", name);
  if (!rock__verifyShapeOf(mlirValueGetType(operand(a, seg, 0)), &s) ||
      s.rank != 1)
    return rock__verifyFail(a->op, "%s%s must be rank 1 (got rank %ld)", up,
                            name, (long)s.rank);
  if (!rock__verifyIsInt(s.elt, 32))
    return rock__verifyFail(a->op, "%s element type must be i32 (got %s)", name,
                            eltStr(&s, b, sizeof b));
  int64_t n = s.dims[0], bq = a->d.batchQ;
  if (allowOne && n == 1)
    return mlirLogicalResultSuccess();
  if (!allowOne)
    snprintf(up, sizeof up,
             "Batch dimensions do not match (%s and Output): ", name);
  if (rock__verifyDimsDiffer(n, bq))
    return rock__verifyFail(
        a->op, "%s%s length (%lld) must %sequal queries batch (%lld)", up, name,
        LL(n), allowOne ? "be 1 or " : "", LL(bq));
  return mlirLogicalResultSuccess();
}

/* Rule 7: lse (rocMLIR's words lead the rank, batch and length rules). */
static MlirLogicalResult verifyLse(const Attn *a) {
  if (!has(a, SEG_LSE))
    return mlirLogicalResultSuccess();
  RockShape s;
  char b[128];
  if (!rock__verifyShapeOf(mlirValueGetType(operand(a, SEG_LSE, 0)), &s) ||
      s.rank != 2)
    return rock__verifyFail(a->op,
                            "Number of dimensions is not two (LSE): lse must "
                            "be rank 2 (got rank %ld)",
                            (long)s.rank);
  /* rocMLIR stores the LSE in the output's float type (rocmlir-gen's f16 /
   * bf16 modules); rock computes it in f32 and rounds it on the store. */
  if (!mlirTypeIsAF32(s.elt) && !mlirTypeIsAF16(s.elt) &&
      !mlirTypeIsABF16(s.elt))
    return rock__verifyFail(
        a->op, "lse element type must be f32, f16 or bf16 (got %s)",
        eltStr(&s, b, sizeof b));
  if (rock__verifyDimsDiffer(s.dims[0], a->d.batchO))
    return rock__verifyFail(a->op,
                            "Batch dimensions do not match (LSE and Output): "
                            "lse batch (%lld) must equal out batch (%lld)",
                            LL(s.dims[0]), LL(a->d.batchO));
  if (rock__verifyDimsDiffer(s.dims[1], a->d.seqQ))
    return rock__verifyFail(
        a->op,
        "SeqLenQ dimensions do not match (LSE and Q): lse sequence length "
        "(%lld) must equal queries sequence length (%lld)",
        LL(s.dims[1]), LL(a->d.seqQ));
  return mlirLogicalResultSuccess();
}

/* keyAddresses / valueAddresses: a rock.deref result (rocmlir-gen's form) or
 * a rock.transform view of one, and keys / values are a view of that same
 * rock.deref. */
static MlirLogicalResult verifyAddresses(const Attn *a, int seg,
                                         const char *name, int ofSeg,
                                         const char *ofName) {
  if (!has(a, seg))
    return mlirLogicalResultSuccess();
  MlirOperation deref = rock__verifyDerefUnder(operand(a, seg, 0));
  if (mlirOperationIsNull(deref))
    return rock__verifyFail(
        a->op, "%s must be a rock.deref result or a rock.transform view of one",
        name);
  MlirOperation of = rock__verifyDerefUnder(operand(a, ofSeg, 0));
  if (mlirOperationIsNull(of) || !mlirOperationEqual(of, deref))
    return rock__verifyFail(
        a->op, "%s must be a rock.transform view of the %s rock.deref", ofName,
        name);
  return mlirLogicalResultSuccess();
}

/* Rule 8: element types. */
static MlirLogicalResult verifyTypes(const Attn *a) {
  char b1[128], b2[128];
  if (!rock__verifyIsAttnInput(a->q.elt))
    return rock__verifyFail(a->op,
                            "queries element type must be f32, f16, bf16 or i8 "
                            "(got %s)",
                            eltStr(&a->q, b1, sizeof b1));
  if (!mlirTypeEqual(a->k.elt, a->q.elt))
    return rock__verifyFail(
        a->op,
        "keys element type (%s) must equal queries element type "
        "(%s)",
        eltStr(&a->k, b1, sizeof b1), eltStr(&a->q, b2, sizeof b2));
  bool i8 = rock__verifyIsInt(a->q.elt, 8);
  const RockShape *vo[2] = {&a->v, &a->out};
  const char *names[2] = {"values", "out"};
  for (int i = 0; i < 2; ++i) {
    if (i8 && !mlirTypeIsAF16(vo[i]->elt))
      return rock__verifyFail(a->op,
                              "%s element type (%s) must be f16 for i8 queries",
                              names[i], eltStr(vo[i], b1, sizeof b1));
    if (!i8 && !mlirTypeEqual(vo[i]->elt, a->q.elt))
      return rock__verifyFail(a->op,
                              "%s element type (%s) must equal queries element "
                              "type (%s)",
                              names[i], eltStr(vo[i], b1, sizeof b1),
                              eltStr(&a->q, b2, sizeof b2));
  }
  if (mlirLogicalResultIsFailure(
          verifyAddresses(a, SEG_KA, "keyAddresses", SEG_K, "keys")) ||
      mlirLogicalResultIsFailure(
          verifyAddresses(a, SEG_VA, "valueAddresses", SEG_V, "values")))
    return mlirLogicalResultFailure();
  MlirAttribute st = rock__attr(a->op, "softmaxType");
  if (!mlirAttributeIsNull(st)) {
    MlirType t = mlirTypeAttrGetValue(st);
    if (!mlirTypeIsAFloat(t))
      return rock__verifyFail(a->op,
                              "softmaxType must be a float type (got %s)",
                              rock__typeToBuf(t, b1, sizeof b1));
  }
  return mlirLogicalResultSuccess();
}

/* Rule 9: region, firstGemmIndices, slidingWindowSize, causalLookBack. */
static MlirLogicalResult verifyRegion(const Attn *a) {
  MlirAttribute fgi = rock__attr(a->op, "firstGemmIndices");
  if (!mlirAttributeIsNull(fgi) && (!mlirAttributeIsADenseI64Array(fgi) ||
                                    mlirDenseArrayGetNumElements(fgi) != 1 ||
                                    mlirDenseI64ArrayGetElement(fgi, 0) != 0))
    return rock__verifyFail(a->op, "unsupported firstGemmIndices");
  MlirValue ins[64];
  intptr_t n = a->size[SEG_INS];
  if (n > 64)
    return rock__verifyFail(a->op,
                            "at most 64 elementwise inputs are supported");
  for (intptr_t i = 0; i < n; ++i)
    ins[i] = operand(a, SEG_INS, i);
  if (!rock__verifyPreSoftmaxRegion(a->op, ins, n))
    return mlirLogicalResultFailure();
  if (rock__hasAttr(a->op, "slidingWindowSize")) {
    int64_t w = rock__intAttr(a->op, "slidingWindowSize", 0);
    if (w <= 0)
      return rock__verifyFail(
          a->op, "slidingWindowSize (%lld) must be positive", LL(w));
  }
  if (rock__hasAttr(a->op, "causalLookBack")) {
    int64_t l = rock__intAttr(a->op, "causalLookBack", 0);
    if (l <= 0)
      return rock__verifyFail(a->op, "causalLookBack (%lld) must be positive",
                              LL(l));
    if (!rock__hasAttr(a->op, "causal"))
      return rock__verifyFail(a->op, "causalLookBack requires causal");
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rockAttentionOpVerify(MlirOperation op) {
  Attn a;
  a.op = op;
  if (!rock__verifySegments(op, NUM_SEGS, a.start, a.size))
    return mlirLogicalResultFailure();
  a.splitKV = rock__intAttr(op, "splitKV", 1);
  a.headsQ = rock__intAttr(op, "numHeadsQ", 0);
  a.headsKV = rock__intAttr(op, "numHeadsKV", 1);
  if (mlirLogicalResultIsFailure(verifyFlags(&a)) ||
      mlirLogicalResultIsFailure(verifyHeads(&a)) ||
      mlirLogicalResultIsFailure(verifyShapes(&a)) ||
      mlirLogicalResultIsFailure(
          verifyI32Vector(&a, SEG_CSL, "currentSeqLen", false)) ||
      mlirLogicalResultIsFailure(
          verifyI32Vector(&a, SEG_PO, "prefixOffset", true)) ||
      mlirLogicalResultIsFailure(verifyLse(&a)) ||
      mlirLogicalResultIsFailure(verifyTypes(&a)) ||
      mlirLogicalResultIsFailure(verifyRegion(&a)))
    return mlirLogicalResultFailure();
  int64_t outBytes = (int64_t)(rock__verifyEltBits(a.out.elt) + 7) / 8;
  if (mlirLogicalResultIsFailure(rock__verifySplitKVGuard(
          op, a.splitKV, a.d.batchQ, a.d.seqQ, a.d.headV, outBytes)))
    return mlirLogicalResultFailure();
  return rock__verifyAttentionPerfConfig(op);
}
