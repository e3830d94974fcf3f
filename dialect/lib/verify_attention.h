/*===- verify_attention.h - rock.attention verifier internals -----*- C -*-===*
 *
 * Internal to dialect/lib (C only): pieces of the rock.attention verifier
 * that live in their own files.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_VERIFY_ATTENTION_H
#define ROCK_VERIFY_ATTENTION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

/* docs/semantics.md §5.7: checks the extra bytes that split-KV partial outputs
 * and LSE need against the limit (env overrides, rock.device_mem_bytes,
 * 1.5 GiB). `batch`, `seqQ`, `headV` are the un-split query batch, query
 * length and V head dim; `outBytes` the out element size. */
MlirLogicalResult rock__verifySplitKVGuard(MlirOperation op, int64_t splitKV,
                                           int64_t batch, int64_t seqQ,
                                           int64_t headV, int64_t outBytes);

/* docs/user-guide.md §2.5: checks the op's perf_config string, if any. */
MlirLogicalResult rock__verifyAttentionPerfConfig(MlirOperation op);

#endif
