/*===- attention_args.c - the flat arguments of the attention funcs -------===*/
#include "attention_args.h"

int rock__attnArgs(const RockAttentionConfig *c, bool hostView, AttnArg *args) {
  bool i8 = c->dtype == ROCK_ATTENTION_I8;
  const char *qElt = rockAttentionDtypeGetName(c->dtype);
  const char *vElt = i8 ? "f16" : qElt;
  int64_t G = c->g, B = G * c->numHeadsQ, Bkv = G * c->numHeadsKV,
          S = c->splitKV, Sq = c->seqLenQ, Sk = c->seqLenK;
  int n = 0;
  args[n++] = (AttnArg){ARG_Q, "q", qElt, B * Sq * c->headDimQK};
  if (c->paged && !hostView) {
    args[n++] = (AttnArg){ARG_K, "k", "i64", G * c->numPages};
    args[n++] = (AttnArg){ARG_V, "v", "i64", G * c->numPages};
  } else {
    args[n++] = (AttnArg){ARG_K, "k", qElt, Bkv * c->headDimQK * Sk};
    args[n++] = (AttnArg){ARG_V, "v", vElt, Bkv * Sk * c->headDimV};
  }
  if (i8) {
    args[n++] = (AttnArg){ARG_QUANT_BIAS, "quant_bias", "i8", 1};
    args[n++] = (AttnArg){ARG_QUANT_SCALE, "quant_scale", "f16", 1};
  }
  if (c->withScale)
    args[n++] = (AttnArg){ARG_SCALE, "scale", vElt, B * Sq * Sk};
  if (c->withBias)
    args[n++] = (AttnArg){ARG_BIAS, "bias", vElt, B * Sq * Sk};
  if (c->numCurrentSeqLen > 0)
    args[n++] = (AttnArg){ARG_CSL, "current_seq_len", "i32", G};
  if (c->numPrefixOffset > 0)
    args[n++] = (AttnArg){ARG_PREFIX, "prefix_offset", "i32", G};
  if (c->returnLse)
    args[n++] = (AttnArg){ARG_LSE, "lse", "f32", B * S * Sq};
  args[n++] = (AttnArg){ARG_OUT, "out", vElt, B * S * Sq * c->headDimV};
  return n;
}

void rock__attnArgsPrint(Buf *b, const AttnArg *args, int n,
                         const char *prefix) {
  for (int i = 0; i < n; ++i)
    out(b, "%s%%%s%s: %s", i ? ", " : "", prefix, args[i].name,
        attnArgType(&args[i]).s);
}
