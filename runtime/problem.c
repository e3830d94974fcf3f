//===- problem.c - attention problem sizes -------------------------------===//
#include "problem.h"

#include <string.h>

void rockAttnProblemInit(RockAttnProblem *p) {
  memset(p, 0, sizeof *p);
  p->dtype = ROCK_DTYPE_F32;
  p->g = 1;
  p->numHeadsQ = p->numHeadsKV = 1;
  p->seqLenQ = p->seqLenK = p->headDimQK = p->headDimV = -1;
  p->splitKV = 1;
  p->slidingWindow = -1;
  p->softmaxType = ROCK_DTYPE_F32;
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
  if (p->paged) {
    if (p->numPages <= 0 || p->pageSize <= 0)
      return "paged problems need positive num_pages and page_size";
    if (p->headDimQK != p->headDimV)
      return "paged problems need head_dim_qk == head_dim_v";
    if (p->numPages * p->pageSize != p->numHeadsKV * p->seqLenK * p->headDimQK)
      return "num_pages * page_size must equal num_heads_kv * seq_len_k * "
             "head_dim";
  }
  return NULL;
}

int64_t rockAttnProblemGetB(const RockAttnProblem *p) {
  return p->g * p->numHeadsQ;
}
int64_t rockAttnProblemGetBkv(const RockAttnProblem *p) {
  return p->g * p->numHeadsKV;
}
RockDType rockAttnProblemGetValueType(const RockAttnProblem *p) {
  return p->dtype == ROCK_DTYPE_I8 ? ROCK_DTYPE_F16 : p->dtype;
}
int64_t rockAttnProblemGetQSize(const RockAttnProblem *p) {
  return rockAttnProblemGetB(p) * p->seqLenQ * p->headDimQK;
}
int64_t rockAttnProblemGetKSize(const RockAttnProblem *p) {
  return rockAttnProblemGetBkv(p) * p->seqLenK * p->headDimQK;
}
int64_t rockAttnProblemGetVSize(const RockAttnProblem *p) {
  return rockAttnProblemGetBkv(p) * p->seqLenK * p->headDimV;
}
int64_t rockAttnProblemGetScoreSize(const RockAttnProblem *p) {
  return rockAttnProblemGetB(p) * p->seqLenQ * p->seqLenK;
}
int64_t rockAttnProblemGetPartialOutSize(const RockAttnProblem *p) {
  return rockAttnProblemGetB(p) * p->splitKV * p->seqLenQ * p->headDimV;
}
int64_t rockAttnProblemGetPartialLseSize(const RockAttnProblem *p) {
  return rockAttnProblemGetB(p) * p->splitKV * p->seqLenQ;
}
