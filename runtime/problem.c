//===- problem.c - attention problem sizes -------------------------------===//
#include "problem.h"

#include "rock-c/Sizes.h"

#include <string.h>

void rockAttnProblemInit(RockAttnProblem *p) {
  memset(p, 0, sizeof *p);
  p->dtype = ROCK_DTYPE_F32;
  p->g = 1;
  p->numHeadsQ = p->numHeadsKV = 1;
  p->seqLenQ = p->seqLenK = p->headDimQK = p->headDimV = -1;
  p->splitKV = 1;
  p->slidingWindow = -1;
  p->causalLookBack = -1;
  p->softmaxType = ROCK_DTYPE_F32;
}

/* Every buffer of the run, the reference's included, must hold at most
 * ROCK_MAX_BUFFER_ELEMENTS elements; products are checked, never wrapped. */
static const char *checkSizes(const RockAttnProblem *p) {
  static const struct {
    int64_t (*size)(const RockAttnProblem *);
    const char *msg;
  } bufs[] = {
      {rockAttnProblemGetQSize,
       "problem too large: Q (g*num_heads_q*seq_len_q*head_dim_qk elements) "
       "exceeds 2^40 elements"},
      {rockAttnProblemGetKSize,
       "problem too large: K (g*num_heads_kv*seq_len_k*head_dim_qk elements) "
       "exceeds 2^40 elements"},
      {rockAttnProblemGetVSize,
       "problem too large: V (g*num_heads_kv*seq_len_k*head_dim_v elements) "
       "exceeds 2^40 elements"},
      {rockAttnProblemGetPartialOutSize,
       "problem too large: out (g*num_heads_q*split_kv*seq_len_q*head_dim_v "
       "elements) exceeds 2^40 elements"},
      {rockAttnProblemGetScoreSize,
       "problem too large: the scores (g*num_heads_q*seq_len_q*seq_len_k "
       "elements) exceed 2^40 elements"},
  };
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i) {
    int64_t n = bufs[i].size(p);
    if (n < 0 || n > ROCK_MAX_BUFFER_ELEMENTS)
      return bufs[i].msg;
  }
  return NULL;
}

const char *rockAttnProblemCheck(const RockAttnProblem *p) {
  if (p->dtype != ROCK_DTYPE_F32 && p->dtype != ROCK_DTYPE_F16 &&
      p->dtype != ROCK_DTYPE_BF16 && p->dtype != ROCK_DTYPE_I8)
    return "element type must be f32, f16, bf16 or i8";
  if (p->g <= 0 || p->numHeadsQ <= 0 || p->numHeadsKV <= 0 || p->seqLenQ <= 0 ||
      p->seqLenK <= 0 || p->headDimQK <= 0 || p->headDimV <= 0)
    return "problem sizes must be positive";
  if (p->numHeadsQ % p->numHeadsKV != 0)
    return "num_heads_q must be a multiple of num_heads_kv";
  if (p->splitKV <= 0)
    return "split_kv must be positive";
  if (p->splitKV > 1 && !p->returnLse)
    return "split_kv > 1 needs return_lse";
  if (p->numCurrentSeqLen != 0 && p->numCurrentSeqLen != p->g)
    return "current_seq_len must hold G values";
  if (p->numPrefixOffset != 0 && p->numPrefixOffset != p->g)
    return "prefix_offset must hold G values";
  for (int64_t i = 0; i < p->numCurrentSeqLen; ++i)
    if (p->currentSeqLen[i] < 0 || p->currentSeqLen[i] > INT32_MAX)
      return "current_seq_len values must be in [0, 2^31)";
  for (int64_t i = 0; i < p->numPrefixOffset; ++i)
    if (p->prefixOffset[i] < INT32_MIN || p->prefixOffset[i] > INT32_MAX)
      return "prefix_offset values must fit in i32";
  if (p->slidingWindow > INT32_MAX)
    return "sliding_window_size must fit in i32";
  if (p->causalLookBack > INT32_MAX)
    return "causal_look_back must fit in i32";
  if (p->causalLookBack >= 0 && !p->causal)
    return "causal_look_back needs causal";
  if (p->paged) {
    if (p->numPages <= 0 || p->pageSize <= 0)
      return "paged problems need positive num_pages and page_size";
    if (p->headDimQK != p->headDimV)
      return "paged problems need head_dim_qk == head_dim_v";
    int64_t pool, logical;
    const int64_t kv[3] = {p->numHeadsKV, p->seqLenK, p->headDimQK};
    if (!rockSizeMul(p->numPages, p->pageSize, &pool) ||
        !rockSizeProduct(kv, 3, &logical) || pool != logical)
      return "num_pages * page_size must equal num_heads_kv * seq_len_k * "
             "head_dim";
  }
  return checkSizes(p);
}

/* Product of the sizes, -1 when one is negative or the product overflows. */
static int64_t product(int n, const int64_t *f) {
  int64_t r;
  return rockSizeProduct(f, n, &r) ? r : -1;
}

int64_t rockAttnProblemGetB(const RockAttnProblem *p) {
  return product(2, (const int64_t[]){p->g, p->numHeadsQ});
}
int64_t rockAttnProblemGetBkv(const RockAttnProblem *p) {
  return product(2, (const int64_t[]){p->g, p->numHeadsKV});
}
RockDType rockAttnProblemGetValueType(const RockAttnProblem *p) {
  return p->dtype == ROCK_DTYPE_I8 ? ROCK_DTYPE_F16 : p->dtype;
}

RockDType rockAttnProblemGetRegionType(const RockAttnProblem *p) {
  return p->hasRegionType ? p->regionType : rockAttnProblemGetValueType(p);
}

int64_t rockAttnProblemGetQSize(const RockAttnProblem *p) {
  return product(
      4, (const int64_t[]){p->g, p->numHeadsQ, p->seqLenQ, p->headDimQK});
}
int64_t rockAttnProblemGetKSize(const RockAttnProblem *p) {
  return product(
      4, (const int64_t[]){p->g, p->numHeadsKV, p->seqLenK, p->headDimQK});
}
int64_t rockAttnProblemGetVSize(const RockAttnProblem *p) {
  return product(
      4, (const int64_t[]){p->g, p->numHeadsKV, p->seqLenK, p->headDimV});
}
int64_t rockAttnProblemGetScoreSize(const RockAttnProblem *p) {
  return product(4,
                 (const int64_t[]){p->g, p->numHeadsQ, p->seqLenQ, p->seqLenK});
}
int64_t rockAttnProblemGetOutSize(const RockAttnProblem *p) {
  return product(
      4, (const int64_t[]){p->g, p->numHeadsQ, p->seqLenQ, p->headDimV});
}
int64_t rockAttnProblemGetLseSize(const RockAttnProblem *p) {
  return product(3, (const int64_t[]){p->g, p->numHeadsQ, p->seqLenQ});
}
int64_t rockAttnProblemGetPartialOutSize(const RockAttnProblem *p) {
  return product(5, (const int64_t[]){p->g, p->numHeadsQ, p->splitKV,
                                      p->seqLenQ, p->headDimV});
}
int64_t rockAttnProblemGetPartialLseSize(const RockAttnProblem *p) {
  return product(4,
                 (const int64_t[]){p->g, p->numHeadsQ, p->splitKV, p->seqLenQ});
}
