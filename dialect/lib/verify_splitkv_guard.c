/*===- verify_splitkv_guard.c - split-KV memory guard (semantics.md) ------===*/
#include "verify_attention.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"

#include <errno.h>
#include <stdlib.h>

#define GIB ((uint64_t)1 << 30)
#define DEFAULT_LIMIT ((uint64_t)1610612736) /* 1.5 GiB */

/* Parses a positive decimal integer (digits only, no sign, no spaces, no
 * overflow). Returns 0 when `s` is null or not such a number. */
static uint64_t parsePositive(const char *s) {
  if (!s || !*s)
    return 0;
  uint64_t v = 0;
  for (const char *p = s; *p; ++p) {
    if (*p < '0' || *p > '9')
      return 0;
    uint64_t d = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - d) / 10)
      return 0;
    v = v * 10 + d;
  }
  return v;
}

/* The rock.device_mem_bytes of the nearest enclosing builtin.module, or 0. */
static uint64_t deviceMemBytes(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p)) {
    if (!rock__verifyOpIs(p, "builtin.module"))
      continue;
    int64_t mem = rock__verifyIntAttr(p, "rock.device_mem_bytes", 0);
    return mem > 0 ? (uint64_t)mem : 0;
  }
  return 0;
}

static uint64_t guardLimit(MlirOperation op) {
  uint64_t v = parsePositive(getenv("ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES"));
  if (v)
    return v;
  v = parsePositive(getenv("ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES"));
  if (v)
    return v;
  uint64_t mem = deviceMemBytes(op);
  if (mem) {
    uint64_t l = mem / 8;
    if (l < GIB)
      l = GIB;
    if (l > 8 * GIB)
      l = 8 * GIB;
    return l;
  }
  return DEFAULT_LIMIT;
}

/* a * b, saturating at UINT64_MAX. */
static uint64_t mulSat(uint64_t a, uint64_t b) {
  if (a && b > UINT64_MAX / a)
    return UINT64_MAX;
  return a * b;
}

static uint64_t addSat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

MlirLogicalResult rock__verifySplitKVGuard(MlirOperation op, int64_t splitKV,
                                           int64_t batch, int64_t seqQ,
                                           int64_t headV, int64_t outBytes) {
  if (splitKV <= 1 || batch == ROCK_DYN || seqQ == ROCK_DYN ||
      headV == ROCK_DYN || batch < 0 || seqQ < 0 || headV < 0)
    return mlirLogicalResultSuccess();
  uint64_t rows = mulSat((uint64_t)batch, (uint64_t)seqQ);
  uint64_t perSplit =
      addSat(mulSat(mulSat(rows, (uint64_t)headV), (uint64_t)outBytes),
             mulSat(rows, 4));
  uint64_t extra = mulSat((uint64_t)(splitKV - 1), perSplit);
  uint64_t limit = guardLimit(op);
  if (extra <= limit)
    return mlirLogicalResultSuccess();
  return rock__verifyFail(
      op,
      "splitKV requires %llu bytes of extra output/LSE storage, which "
      "exceeds the limit (%llu bytes). Lower splitKV or reduce sequence "
      "sizes. Override this guard with ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES.",
      (unsigned long long)extra, (unsigned long long)limit);
}
