//===- combine.h - host split-KV combine (docs/semantics.md) ------*- C -*-===//
//
// Merges per-split partial outputs and LSEs into the final attention, in f32,
// as rock.attention_combine does. rock-run uses it only when the module has
// no @rock_attention_combine.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_COMBINE_H
#define ROCK_RUNTIME_COMBINE_H

#include "buffer.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Combines `outPartial` (`[B*S, Sq, Dv]`, or `[B*S, Dv, Sq]` with
/// `transposed`; any float type) and `lsePartial` (`[B*S, Sq]` f32) into
/// `out` (`[B, Sq, Dv]` resp. `[B, Dv, Sq]`, rounded to its type) and, if not
/// NULL, `lse` (`[B, Sq]` f32). Per row: M = max_s lse_s; M == -inf gives
/// O = 0, LSE = -inf; else w_s = exp(lse_s - M), splits with w_s == 0 are
/// skipped (their O_s is never read), O = sum w_s O_s / sum w_s,
/// LSE = M + ln sum w_s. All arithmetic in f32. Buffers are borrowed and must
/// have the sizes above.
void rockCombineSplits(const RockBuffer *outPartial,
                       const RockBuffer *lsePartial, int64_t b, int64_t s,
                       int64_t sq, int64_t dv, bool transposed, RockBuffer *out,
                       RockBuffer *lse);

#ifdef __cplusplus
}
#endif

#endif
