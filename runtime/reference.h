//===- reference.h - independent f64 reference attention ----------*- C -*-===//
//
// docs/semantics.md §2-§4 and docs/user-guide.md §3.3, written from the
// docs alone: it shares no code with the compiler's lowering. Inputs are the
// buffers the kernel reads (any element type, widened exactly to f64); the
// result is the final (combined) attention in canonical layout.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_REFERENCE_H
#define ROCK_RUNTIME_REFERENCE_H

#include "buffer.h"
#include "paged.h"
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The input buffers of one problem, all borrowed. Layouts are the kernel's:
/// Q `[B, Sq, Dqk]` (transQ: `[B, Dqk, Sq]`), K `[Bkv, Dqk, Sk]` (transK:
/// `[Bkv, Sk, Dqk]`), V `[Bkv, Sk, Dv]` (transV: `[Bkv, Dv, Sk]`), scale and
/// bias `[B, Sq, Sk]`. With `kvHeadMajor` (paged problems) K and V are the
/// logical caches `[Bkv, Sk, D]` whatever the trans flags say. `quantBias`,
/// `quantScale` (i8 only, one element each), `scale` and `bias` may be NULL.
/// With `kCache` / `vCache` (paged problems; may be NULL) K / V are read
/// from the page pools through the caches' permutations and `k` / `v` are
/// not used (may be NULL): no logical copy of the cache needs to exist.
typedef struct RockAttnInputs {
  const RockBuffer *q, *k, *v;
  const RockBuffer *quantBias, *quantScale, *scale, *bias;
  bool kvHeadMajor;
  const RockPagedCache *kCache, *vCache;
} RockAttnInputs;

/// Returns the last visible key of query row `i` of query batch `bq`
/// (docs/semantics.md §3, with the clamps), or a negative value when the row is
/// fully masked. The sliding window is not applied here.
int64_t rockReferenceLastKey(const RockAttnProblem *p, int64_t bq, int64_t i);

/// Returns true if key `j` is visible to row `i` of batch `bq`: `j` at most
/// the last key, at least `min(Sk - 1, currentSeqLen) - W` with a sliding
/// window and at least `i + prefixOffset - L` with a causal look-back `L`.
bool rockReferenceIsVisible(const RockAttnProblem *p, int64_t bq, int64_t i,
                            int64_t j);

/// Computes the attention output `out` (`[B, Sq, Dv]`, caller-allocated,
/// B*Sq*Dv doubles) and, if `lse` is not NULL, the natural-log LSE `[B, Sq]`.
/// Fully masked rows give O = 0 and LSE = -inf; a row with a NaN score
/// gives NaN (never 0), and infinite inputs give whatever f64 arithmetic
/// gives (often NaN): callers must treat a non-finite result as "inputs out
/// of range". With `p->strict` the scores are rounded where the kernel
/// rounds them (docs/semantics.md §2.2) and P where it meets V (§5.6 step
/// 5); with `p->roundNarrow` only those roundings to f16 and bf16. Borrows all
/// arguments; returns false if a scratch allocation fails. Streams K and V
/// in chunks of keys (scratch per thread is a few MiB of scores, never a
/// copy of K or V). Runs on up to one thread per CPU (env
/// ROCK_REFERENCE_THREADS caps it), splitting (KV head, row block) items;
/// the result does not depend on the thread count.
bool rockReferenceAttention(const RockAttnProblem *p, const RockAttnInputs *in,
                            double *out, double *lse);

#ifdef __cplusplus
}
#endif

#endif
