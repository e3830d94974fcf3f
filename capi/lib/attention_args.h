/*===- attention_args.h - the flat arguments of the attention funcs -*- C
 * -*-===*
 *
 * Internal to capi/lib: the flat memref arguments of @rock_attention in
 * docs/user-guide.md §2.3 order (Q, K, V, quantBias / quantScale for i8,
 * scale, bias, currentSeqLen, prefixOffset, lse, out), shared by the kernel,
 * the host functions and @main so that they cannot disagree. In the host
 * view a paged K / V is the dense logical buffer `[Bkv, Dqk, Sk]` /
 * `[Bkv, Sk, Dv]` (transposed as transK / transV say) instead of its page
 * table.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_CAPI_ATTENTION_ARGS_H
#define ROCK_CAPI_ATTENTION_ARGS_H

#include "module_text.h"
#include "rock-c/Attention.h"

#include <stdbool.h>

typedef enum AttnArgRole {
  ARG_Q,
  ARG_K,
  ARG_V,
  ARG_QUANT_BIAS,
  ARG_QUANT_SCALE,
  ARG_SCALE,
  ARG_BIAS,
  ARG_CSL,
  ARG_PREFIX,
  ARG_LSE,
  ARG_OUT,
} AttnArgRole;

typedef struct AttnArg {
  AttnArgRole role;
  const char *name; ///< SSA name without '%', e.g. "q".
  const char *elt;  ///< element type spelling
  int64_t size;     ///< elements
} AttnArg;

enum { ATTN_MAX_ARGS = 11 };

/// Fills `args` (ATTN_MAX_ARGS entries) for `c`; returns the count.
int rock__attnArgs(const RockAttentionConfig *c, bool hostView, AttnArg *args);

/// The type the pre-softmax region computes in (docs/semantics.md §2.2; the
/// kernel's region and the host reference share it): softmaxDtype, or with
/// regionInElementType (--rocmlir-region) rocmlir-gen's element type (f16 for
/// i8, after the dequantisation).
static inline const char *attnRegionType(const RockAttentionConfig *c) {
  if (!c->regionInElementType)
    return rockAttentionDtypeGetName(c->softmaxDtype);
  return c->dtype == ROCK_ATTENTION_I8 ? "f16"
                                       : rockAttentionDtypeGetName(c->dtype);
}

/// The flat memref type of `a`.
static inline TypeStr attnArgType(const AttnArg *a) {
  return flatType(a->size, a->elt);
}

/// Appends "%name: type, ..." for the `n` arguments (with the SSA prefix
/// `prefix`, e.g. "" or "h_").
void rock__attnArgsPrint(Buf *b, const AttnArg *args, int n,
                         const char *prefix);

#endif
