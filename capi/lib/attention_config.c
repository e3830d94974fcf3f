/*===- attention_config.c - RockAttentionConfig defaults and checks -------===*/
//
// rockAttentionConfigInit / rockAttentionHarnessInit and
// rockAttentionConfigValidate: the generation errors of docs/user-guide.md
// §2.2, perf_config strings (its §2.5) and the split-KV guard
// (docs/semantics.md §5.7).
//
//===----------------------------------------------------------------------===//
#include "rock-c/Attention.h"
#include "rock-c/Sizes.h"
#include "support/err.h"
#include "support/splitkv_guard.h"

#include "support/perf_config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rockAttentionConfigInit(RockAttentionConfig *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->dtype = ROCK_ATTENTION_F32;
  cfg->g = 1;
  cfg->numHeadsQ = 1;
  cfg->numHeadsKV = 1;
  cfg->seqLenQ = cfg->seqLenK = -1;
  cfg->headDimQK = cfg->headDimV = -1;
  cfg->splitKV = 1;
  cfg->softmaxDtype = ROCK_ATTENTION_F32;
  cfg->numPages = cfg->pageSize = -1;
}

void rockAttentionHarnessInit(RockAttentionHarness *h) {
  memset(h, 0, sizeof *h);
  h->verifier = "none";
  h->rand = "distinct";
  h->randType = "int";
  h->randMin = 0.0;
  h->randMax = 1.0;
  h->randMinInt = -5;
  h->randMaxInt = 5;
  h->comparator = "legacy";
  h->kernelRepeats = 1;
  h->printVerifyResults = "summary";
  h->arch = "";
}

const char *rockAttentionDtypeGetName(RockAttentionDtype t) {
  switch (t) {
  case ROCK_ATTENTION_F32:
    return "f32";
  case ROCK_ATTENTION_F16:
    return "f16";
  case ROCK_ATTENTION_BF16:
    return "bf16";
  case ROCK_ATTENTION_I8:
    return "i8";
  }
  return "f32";
}

static int dtypeBits(RockAttentionDtype t) {
  return t == ROCK_ATTENTION_F32 ? 32 : t == ROCK_ATTENTION_I8 ? 8 : 16;
}

static bool checkList(const char *flag, const int64_t *v, int64_t n, int64_t g,
                      bool nonNegative, char *err, size_t errLen) {
  if (n == 0)
    return true;
  if (n < 0 || (n != 1 && n != g))
    return rock__fail(err, errLen,
                      "%s must have 1 or G (%" PRId64 ") values, got %" PRId64,
                      flag, g, n);
  if (!v)
    return rock__fail(err, errLen, "%s values are missing", flag);
  for (int64_t i = 0; nonNegative && i < n; ++i)
    if (v[i] < 0)
      return rock__fail(err, errLen,
                        "%s values must be non-negative, got %" PRId64, flag,
                        v[i]);
  return true;
}

static bool checkPaged(RockAttentionConfig *c, char *err, size_t errLen) {
  if (c->headDimQK != c->headDimV)
    return rock__fail(
        err, errLen,
        "paged attention requires -head_dim_qk == -head_dim_v (got "
        "%" PRId64 " and %" PRId64 ")",
        c->headDimQK, c->headDimV);
  int64_t d = c->headDimQK, perBatchTok, total;
  bool hasP = c->numPages > 0, hasPs = c->pageSize > 0, hasSk = c->seqLenK > 0;
  if (c->numPages == 0 || c->numPages < -1)
    return rock__fail(err, errLen, "--num-pages must be positive");
  if (c->pageSize == 0 || c->pageSize < -1)
    return rock__fail(err, errLen, "--page-size must be positive");
  if ((int)hasP + (int)hasPs + (int)hasSk < 2)
    return rock__fail(
        err, errLen,
        "paged attention needs two of --num-pages, --page-size and "
        "-seq_len_k");
  if (!rockSizeMul(c->numHeadsKV, d, &perBatchTok))
    return rock__fail(err, errLen, "problem size overflows 64 bits");
  if (!hasSk) {
    if (!rockSizeMul(c->numPages, c->pageSize, &total))
      return rock__fail(err, errLen, "problem size overflows 64 bits");
    if (total % perBatchTok)
      return rock__fail(err, errLen,
                        "numPages * pageSize must equal numHeadsKV * "
                        "seqLenK * headDim");
    c->seqLenK = total / perBatchTok;
  } else {
    if (!rockSizeMul(perBatchTok, c->seqLenK, &total))
      return rock__fail(err, errLen, "problem size overflows 64 bits");
    if (!hasP) {
      if (total % c->pageSize)
        return rock__fail(err, errLen,
                          "numPages * pageSize must equal numHeadsKV "
                          "* seqLenK * headDim");
      c->numPages = total / c->pageSize;
    } else if (!hasPs) {
      if (total % c->numPages)
        return rock__fail(err, errLen,
                          "numPages * pageSize must equal numHeadsKV "
                          "* seqLenK * headDim");
      c->pageSize = total / c->numPages;
    }
  }
  int64_t pp;
  if (!rockSizeMul(c->numPages, c->pageSize, &pp) || pp != total)
    return rock__fail(err, errLen,
                      "numPages * pageSize must equal numHeadsKV * seqLenK * "
                      "headDim");
  int64_t vec = 128 / dtypeBits(c->dtype);
  if (c->pageSize % vec)
    return rock__fail(err, errLen,
                      "--page-size %" PRId64 " must be a multiple of %" PRId64
                      " for %s (a 128-bit access must not straddle a page)",
                      c->pageSize, vec, rockAttentionDtypeGetName(c->dtype));
  return true;
}

bool rockAttentionConfigValidate(RockAttentionConfig *c, char *err,
                                 size_t errLen) {
  if (err && errLen)
    err[0] = '\0';
  if ((unsigned)c->dtype > ROCK_ATTENTION_I8)
    return rock__fail(err, errLen, "unsupported data type");
  if ((unsigned)c->softmaxDtype > ROCK_ATTENTION_BF16)
    return rock__fail(err, errLen, "-softmax_dtype must be f32, f16 or bf16");
  if (c->g < 1)
    return rock__fail(err, errLen, "-g must be positive");
  if (c->transBias && !c->withBias)
    return rock__fail(err, errLen, "--transBias needs --with-attn-bias");
  if (c->numHeadsQ < 1)
    return rock__fail(err, errLen, "-num_heads_q must be positive");
  if (c->numHeadsKV < 1)
    return rock__fail(err, errLen, "-num_heads_kv must be positive");
  if (c->numHeadsQ % c->numHeadsKV)
    return rock__fail(err, errLen,
                      "-num_heads_q (%" PRId64 ") must be a multiple of "
                      "-num_heads_kv (%" PRId64 ")",
                      c->numHeadsQ, c->numHeadsKV);
  const int64_t sizes[4] = {c->seqLenQ, c->seqLenK, c->headDimQK, c->headDimV};
  static const char *const sizeFlags[4] = {"-seq_len_q", "-seq_len_k",
                                           "-head_dim_qk", "-head_dim_v"};
  for (int i = 0; i < 4; ++i)
    if (sizes[i] == 0 || sizes[i] < -1)
      return rock__fail(err, errLen, "%s must be positive, got %" PRId64,
                        sizeFlags[i], sizes[i]);
  if (c->seqLenQ < 0)
    return rock__fail(err, errLen, "missing -seq_len_q (or use -p)");
  if (c->seqLenK < 0 && !c->paged)
    return rock__fail(err, errLen, "missing -seq_len_k (or use -p)");
  if (c->headDimQK < 0)
    return rock__fail(err, errLen, "missing -head_dim_qk (or use -p)");
  if (c->headDimV < 0)
    return rock__fail(err, errLen, "missing -head_dim_v (or use -p)");
  if (c->splitKV < 1)
    return rock__fail(err, errLen, "-split_kv must be positive");
  if (c->splitKV > 1 && !c->returnLse)
    return rock__fail(err, errLen,
                      "-split_kv %" PRId64
                      " requires -return_lse (flash decoding "
                      "needs LSE output)",
                      c->splitKV);
  if (c->numPrefixOffset > 0 && !c->causal)
    return rock__fail(err, errLen, "-prefix_offset requires -causal");
  if (!checkList("-current_seq_len", c->currentSeqLen, c->numCurrentSeqLen,
                 c->g, true, err, errLen))
    return false;
  if (!checkList("-prefix_offset", c->prefixOffset, c->numPrefixOffset, c->g,
                 false, err, errLen))
    return false;
  for (int64_t i = 0; i < c->numCurrentSeqLen; ++i)
    if (c->currentSeqLen[i] > INT32_MAX)
      return rock__fail(err, errLen, "-current_seq_len values must fit in i32");
  for (int64_t i = 0; i < c->numPrefixOffset; ++i)
    if (c->prefixOffset[i] > INT32_MAX || c->prefixOffset[i] < INT32_MIN)
      return rock__fail(err, errLen, "-prefix_offset values must fit in i32");
  if (c->slidingWindowSize < 0 || c->slidingWindowSize > INT32_MAX)
    return rock__fail(err, errLen, "-sliding_window_size must not be negative");
  if (c->causalLookBack < 0 || c->causalLookBack > INT32_MAX)
    return rock__fail(err, errLen, "causal_look_back must fit in i32");
  if (c->causalLookBack > 0 && !c->causal)
    return rock__fail(err, errLen, "causal_look_back requires -causal");
  if (c->numHeadsQ > INT32_MAX || c->splitKV > INT32_MAX)
    return rock__fail(err, errLen, "head counts and -split_kv must fit in i32");
  if (c->paged && !checkPaged(c, err, errLen))
    return false;
  RockPerfConfig pc;
  if (c->perfConfig && c->perfConfig[0] &&
      !rockPerfConfigParse(c->perfConfig, strlen(c->perfConfig), &pc, err,
                           errLen))
    return false;

  // Every buffer size must fit in 64 bits.
  int64_t b, bkv, t;
  if (!rockSizeMul(c->g, c->numHeadsQ, &b) ||
      !rockSizeMul(c->g, c->numHeadsKV, &bkv) ||
      !rockSizeMul(b, c->splitKV, &t) || !rockSizeMul(t, c->seqLenQ, &t) ||
      !rockSizeMul(t, c->headDimV > c->headDimQK ? c->headDimV : c->headDimQK,
                   &t) ||
      !rockSizeMul(b, c->seqLenQ, &t) || !rockSizeMul(t, c->seqLenK, &t) ||
      !rockSizeMul(bkv, c->seqLenK, &t) ||
      !rockSizeMul(t, c->headDimV > c->headDimQK ? c->headDimV : c->headDimQK,
                   &t))
    return rock__fail(err, errLen, "problem size overflows 64 bits");

  // Split-KV memory guard (docs/semantics.md §5.7), B the un-split query batch.
  int64_t outBytes = c->dtype == ROCK_ATTENTION_F32 ? 4 : 2;
  uint64_t extra =
      rock__splitKVExtraBytes(c->splitKV, b, c->seqLenQ, c->headDimV, outBytes);
  uint64_t limit = rock__splitKVLimit(c->deviceMemBytes);
  if (extra > limit) {
    if (err && errLen)
      rock__splitKVMessage(err, errLen, extra, limit);
    return false;
  }
  return true;
}
