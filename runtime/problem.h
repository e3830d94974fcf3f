//===- problem.h - an attention problem as rock-run sees it -------*- C -*-===//
//
// The problem sizes, layouts and masks of one attention kernel (the
// `rock.harness` dictionary, docs/semantics.md, docs/user-guide.md §2.3 and
// §3), and the derived buffer sizes and element types of the kernel arguments.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_PROBLEM_H
#define ROCK_RUNTIME_PROBLEM_H

#include "buffer.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Most elements any one buffer of a run may hold (Q, K, V, out, scores;
/// 2^40, so that f64 byte counts fit comfortably in 64 bits).
#define ROCK_MAX_BUFFER_ELEMENTS (INT64_C(1) << 40)

/// Most G values a currentSeqLen / prefixOffset list may hold.
#define ROCK_MAX_G_LIST 4096

/// One attention problem. Plain data; lists are stored inline.
typedef struct RockAttnProblem {
  RockDType dtype; ///< `t`: Q/K element type (f32, f16, bf16, i8)
  int64_t g, numHeadsQ, numHeadsKV, seqLenQ, seqLenK, headDimQK, headDimV;
  int64_t splitKV;
  bool causal, returnLse, withScale, withBias;
  bool transQ, transK, transV, transO;
  bool transBias; ///< the bias is stored [B, Sk, Sq]
  bool paged;
  int64_t numPages, pageSize; ///< pages per batch, elements per page
  int64_t numCurrentSeqLen;   ///< 0 when absent; else G values stored
  int64_t currentSeqLen[ROCK_MAX_G_LIST];
  int64_t numPrefixOffset; ///< 0 when absent; else G values stored
  int64_t prefixOffset[ROCK_MAX_G_LIST];
  int64_t slidingWindow;  ///< < 0 when absent
  int64_t causalLookBack; ///< band of a causal row, < 0 when absent
  RockDType softmaxType;
  /// `region_dtype`: the type the pre-softmax region computes in; when
  /// absent (modules older than the key) the value type.
  bool hasRegionType;
  RockDType regionType;
  bool strict; ///< verifier mlir-strict: the reference rounds like the kernel
  /// verifier mlir: as `strict`, but only the roundings to f16 / bf16
  bool roundNarrow;
} RockAttnProblem;

/// Fills `p` with the defaults of rock-gen (f32, 1 head, split 1, no masks);
/// sizes are set to -1 (unset).
void rockAttnProblemInit(RockAttnProblem *p);

/// Returns NULL if `p` is consistent (positive sizes, Hq % Hkv == 0, lists of
/// G values, paged geometry P*ps == Hkv*Sk*D with Dqk == Dv, every buffer
/// at most ROCK_MAX_BUFFER_ELEMENTS elements), else a static one-line
/// message. `p` is borrowed.
const char *rockAttnProblemCheck(const RockAttnProblem *p);

/// Derived sizes: B = G*Hq, Bkv = G*Hkv. Every size getter below returns -1
/// when the product overflows int64_t (never for a problem that passed
/// rockAttnProblemCheck).
int64_t rockAttnProblemGetB(const RockAttnProblem *p);
int64_t rockAttnProblemGetBkv(const RockAttnProblem *p);

/// Element type of V, out, scale and bias (f16 for i8 problems, else `t`).
RockDType rockAttnProblemGetValueType(const RockAttnProblem *p);

/// The type the pre-softmax region computes in: `regionType`, or the value
/// type when the harness did not say.
RockDType rockAttnProblemGetRegionType(const RockAttnProblem *p);

/// Element count of the logical Q, K, V, scale/bias, partial out and partial
/// LSE buffers (the kernel's out/LSE include the split factor), and of the
/// final (combined) out `[B, Sq, Dv]` and LSE `[B, Sq]`.
int64_t rockAttnProblemGetQSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetKSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetVSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetScoreSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetOutSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetLseSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetPartialOutSize(const RockAttnProblem *p);
int64_t rockAttnProblemGetPartialLseSize(const RockAttnProblem *p);

#ifdef __cplusplus
}
#endif

#endif
