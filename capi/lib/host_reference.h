/*===- host_reference.h - rocmlir-gen's @host_naive_attention -----*- C -*-===*
 *
 * Internal to capi/lib (host_reference.c says what it computes).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_CAPI_HOST_REFERENCE_H
#define ROCK_CAPI_HOST_REFERENCE_H

#include "module_text.h"
#include "rock-c/Attention.h"

/// Appends `func.func @host_naive_attention` for `c` (validated) to `b`:
/// the arguments of @rock_attention in the host view (attention_args.h).
void rock__emitHostReference(Buf *b, const RockAttentionConfig *c);

#endif
