/*===- verify_splitkv_guard.c - split-KV memory guard (semantics.md) ------===*/
#include "support/splitkv_guard.h"
#include "verify_attention.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"

/* The rock.device_mem_bytes of the nearest enclosing builtin.module, or 0. */
static uint64_t deviceMemBytes(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p)) {
    if (!rock__isOp(p, "builtin.module"))
      continue;
    int64_t mem = rock__intAttr(p, "rock.device_mem_bytes", 0);
    return mem > 0 ? (uint64_t)mem : 0;
  }
  return 0;
}

MlirLogicalResult rock__verifySplitKVGuard(MlirOperation op, int64_t splitKV,
                                           int64_t batch, int64_t seqQ,
                                           int64_t headV, int64_t outBytes) {
  if (splitKV <= 1 || batch == ROCK_DYN || seqQ == ROCK_DYN ||
      headV == ROCK_DYN || batch < 0 || seqQ < 0 || headV < 0)
    return mlirLogicalResultSuccess();
  uint64_t extra =
      rockSplitKVExtraBytes((uint64_t)splitKV, (uint64_t)batch, (uint64_t)seqQ,
                            (uint64_t)headV, (uint64_t)outBytes);
  uint64_t limit = rockSplitKVLimit(deviceMemBytes(op));
  if (extra <= limit)
    return mlirLogicalResultSuccess();
  char msg[320];
  return rock__verifyFail(op, "%s",
                          rockSplitKVMessage(msg, sizeof msg, extra, limit));
}
