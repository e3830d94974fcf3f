/*===- host_main.h - rocmlir-gen's host harness -------------------*- C -*-===*
 *
 * Internal to capi/lib (host_main.c says what the functions do).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_CAPI_HOST_MAIN_H
#define ROCK_CAPI_HOST_MAIN_H

#include "module_text.h"
#include "rock-c/Attention.h"

#include <stdbool.h>

/// Appends the kernel wrapper (@rock_attention_gpu for a GPU target, else
/// @rock_attention_cpu), @main (whose attributes `harness` prints, e.g.
/// rock.harness), the verify functions and the fills for `c` (validated)
/// and `h` to `b`.
void rock__emitHostMain(Buf *b, const RockAttentionConfig *c,
                        const RockAttentionHarness *h, bool gpu,
                        void (*harness)(Buf *, const RockAttentionConfig *,
                                        const RockAttentionHarness *));

#endif
