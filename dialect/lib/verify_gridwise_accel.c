/*===- verify_gridwise_accel.c - rock.gridwise_attention_accel ------------===*
 *
 * Rules 1-5 of rock.gridwise_attention_accel in docs/dialect.md, in
 * rocMLIR's order and with its words where it has the rule; rock's context
 * follows them. The op is parse-only in rock: these rules keep what rock
 * reads well formed, they do not make it lowerable.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockAttrsC.h"
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"

enum { SEG_CSL = 4, SEG_PO = 5, SEG_LSE = 9, NUM_SEGS = 10 };

/* Rule 2: one of the accel parameter attributes, required fields positive. */
static MlirLogicalResult verifyParams(MlirOperation op, const char *name,
                                      RockAccelParams *p) {
  MlirAttribute a = rock__attr(op, name);
  if (mlirAttributeIsNull(a) || !rockAccelParamsAttrRead(a, p))
    return rock__verifyFail(op,
                            "%s must be #rock.xdlops_gemm_derived_params, "
                            "#rock.xdlops_gemm_params, #rock.mfma_gemm_params, "
                            "#rock.wmma_gemm_params or #rock.accel_gemm_params",
                            name);
  const int64_t v[6] = {p->kpackPerBlock, p->mPerBlock, p->nPerBlock,
                        p->kpack,         p->mPerWave,  p->nPerWave};
  static const char *const fields[6] = {"kpackPerBlock", "mPerBlock",
                                        "nPerBlock",     "kpack",
                                        "mPerWave",      "nPerWave"};
  for (int i = 0; i < 6; ++i)
    if (v[i] <= 0)
      return rock__verifyFail(op, "%s %s (%lld) must be positive", name,
                              fields[i], (long long)v[i]);
  return mlirLogicalResultSuccess();
}

/* Rule 3: what only attention (enableSoftmax) may use. */
static MlirLogicalResult verifyNoSoftmax(MlirOperation op,
                                         const intptr_t *size) {
  if (size[SEG_LSE])
    return rock__verifyFail(op, "LSE only works for attention.");
  if (rock__intAttr(op, "splitKV", 1) != 1)
    return rock__verifyFail(op, "split-kv is implemented for attention only.");
  if (rock__hasAttr(op, "softmaxType"))
    return rock__verifyFail(op,
                            "Setting softmax type only works for attention.");
  if (size[SEG_CSL])
    return rock__verifyFail(op, "currentSeqLen only works for attention.");
  if (size[SEG_PO])
    return rock__verifyFail(op, "prefixOffset only works for attention.");
  if (rock__hasAttr(op, "causal"))
    return rock__verifyFail(op, "causal only works for attention.");
  return mlirLogicalResultSuccess();
}

/* Rule 5: an empty region, or one that ends in rock.yield. */
static MlirLogicalResult verifyRegion(MlirOperation op) {
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(blk))
    return mlirLogicalResultSuccess();
  if (!rock__isOp(rock__blockLastOp(blk), "rock.yield"))
    return rock__verifyFail(op, "preSoftmaxOps must end in rock.yield");
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rockGridwiseAttentionAccelOpVerify(MlirOperation op) {
  intptr_t start[NUM_SEGS], size[NUM_SEGS];
  if (!rock__verifySegments(op, NUM_SEGS, start, size))
    return mlirLogicalResultFailure();
  bool softmax = rock__boolAttr(op, "enableSoftmax", true);
  MlirAttribute sm = rock__attr(op, "storeMethod");
  if (softmax && !mlirAttributeIsNull(sm) &&
      rockStoreMethodAttrGetValue(sm) != 0)
    return rock__verifyFail(op,
                            "Only set store method is supported for attention. "
                            "(storeMethod = %s)",
                            rock__storeMethodName(sm));
  RockAccelParams p0, p1;
  if (mlirLogicalResultIsFailure(verifyParams(op, "params0", &p0)) ||
      mlirLogicalResultIsFailure(verifyParams(op, "params1", &p1)))
    return mlirLogicalResultFailure();
  if (p0.nPerBlock % p0.kpack != 0)
    return rock__verifyFail(op,
                            "NPerBlock should be divisible by kpack. (params0 "
                            "nPerBlock = %lld, kpack = %lld)",
                            (long long)p0.nPerBlock, (long long)p0.kpack);
  if (!softmax && mlirLogicalResultIsFailure(verifyNoSoftmax(op, size)))
    return mlirLogicalResultFailure();
  if (size[SEG_PO] && !rock__hasAttr(op, "causal"))
    return rock__verifyFail(op, "%s", ROCK_PREFIX_NEEDS_CAUSAL);
  return verifyRegion(op);
}
