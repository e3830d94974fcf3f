/*===- tuning_key.c - the tuning key of an attention problem --------------===*
 *
 * rockAttentionTuningKey (rock-c/Tuning.h): rocmlir-gen's --emit-tuning-key
 * layout (target, compute units, the problem as one line of flags,
 * tab-separated), then rock's own problem fields where they are set: the
 * fields that change the kernel and that rocMLIR's key does not have
 * (paged K/V and its page size, the KV-cache index and prefix offsets,
 * windows, the elementwise inputs, a non-f32 softmax). Two problems with the
 * same key get the same kernel choices; docs/tuning.md lists the fields.
 *
 *===----------------------------------------------------------------------===*/
#include "rock-c/GpuTarget.h"
#include "rock-c/Tuning.h"
#include "support/str.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *tf(bool b) { return b ? "true" : "false"; }

int64_t rockTuningDefaultNumCu(const char *arch) {
  RockGpuTarget t;
  if (!arch || !rockGpuTargetParse(arch, &t, NULL, 0) ||
      t.vendor == ROCK_GPU_NONE || t.numCu <= 0)
    return 64;
  return t.numCu;
}

/* Appends " -name a,b,c" for a list of n values (nothing when n is 0). */
static void appendList(RockStr *s, const char *name, const int64_t *v,
                       int64_t n) {
  if (n <= 0)
    return;
  rock__strAppendf(s, " -%s ", name);
  for (int64_t i = 0; i < n; ++i)
    rock__strAppendf(s, "%s%" PRId64, i ? "," : "", v[i]);
}

size_t rockAttentionTuningKey(const RockAttentionConfig *cfg, const char *arch,
                              int64_t numCu, char *buf, size_t len) {
  RockStr s = {0};
  rock__strAppendf(&s, "%s\t%" PRId64 "\t", arch && arch[0] ? arch : "cpu",
                   numCu);
  rock__strAppendf(
      &s,
      "-t %s -transQ %s -transK %s -transV %s -transO %s -g %" PRId64
      " -seq_len_q %" PRId64 " -seq_len_k %" PRId64 " -head_dim_qk %" PRId64
      " -head_dim_v %" PRId64 " -causal %s -return_lse %s -split_kv %" PRId64,
      rockAttentionDtypeGetName(cfg->dtype), tf(cfg->transQ), tf(cfg->transK),
      tf(cfg->transV), tf(cfg->transO), cfg->g, cfg->seqLenQ, cfg->seqLenK,
      cfg->headDimQK, cfg->headDimV, tf(cfg->causal), tf(cfg->returnLse),
      cfg->splitKV);
  if (cfg->causalLookBack > 0)
    rock__strAppendf(&s, " -causal_look_back %" PRId64, cfg->causalLookBack);
  rock__strAppendf(&s, " -num_heads_q %" PRId64 " -num_heads_kv %" PRId64,
                   cfg->numHeadsQ, cfg->numHeadsKV);
  /* rock's fields, only where set (rocMLIR's keys stay as they were). */
  if (cfg->withScale)
    rock__strAppend(&s, " -with-attn-scale true");
  if (cfg->withBias)
    rock__strAppend(&s, " -with-attn-bias true");
  if (cfg->softmaxDtype != ROCK_ATTENTION_F32)
    rock__strAppendf(&s, " -softmax_dtype %s",
                     rockAttentionDtypeGetName(cfg->softmaxDtype));
  if (cfg->paged)
    rock__strAppendf(&s, " -paged_attention true -page_size %" PRId64,
                     cfg->pageSize);
  appendList(&s, "current_seq_len", cfg->currentSeqLen, cfg->numCurrentSeqLen);
  appendList(&s, "prefix_offset", cfg->prefixOffset, cfg->numPrefixOffset);
  if (cfg->slidingWindowSize > 0)
    rock__strAppendf(&s, " -sliding_window_size %" PRId64,
                     cfg->slidingWindowSize);
  size_t n = s.len;
  if (len > 0)
    snprintf(buf, len, "%s", s.data ? s.data : "");
  rock__strFree(&s);
  return n;
}
