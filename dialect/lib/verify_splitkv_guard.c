/*===- verify_splitkv_guard.c - split-KV memory guard (semantics.md) ------===*/
#include "support/splitkv_guard.h"
#include "verify_attention.h"
#include "verify_common.h"

/* The rock.device_mem_bytes of the nearest enclosing builtin.module, or 0. */
static int64_t deviceMemBytes(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p)) {
    if (!rock__isOp(p, "builtin.module"))
      continue;
    int64_t mem = rock__intAttr(p, "rock.device_mem_bytes", 0);
    return mem > 0 ? mem : 0;
  }
  return 0;
}

MlirLogicalResult rock__verifySplitKVGuard(MlirOperation op, int64_t splitKV,
                                           int64_t batch, int64_t seqQ,
                                           int64_t headV, int64_t outBytes) {
  if (splitKV <= 1 || batch == ROCK_DYN || seqQ == ROCK_DYN ||
      headV == ROCK_DYN)
    return mlirLogicalResultSuccess();
  uint64_t extra =
      rock__splitKVExtraBytes(splitKV, batch, seqQ, headV, outBytes);
  uint64_t limit = rock__splitKVLimit(deviceMemBytes(op));
  if (extra <= limit)
    return mlirLogicalResultSuccess();
  char msg[320];
  return rock__verifyFail(op, "%s",
                          rock__splitKVMessage(msg, sizeof msg, extra, limit));
}
