/*===- splitkv_guard.h - split-KV extra-storage guard -----------*- C -*-===*
 *
 * rocMLIR's guard against split-KV problems whose partial outputs would not
 * fit: (S - 1) * (B*Sq*Dv*outBytes + B*Sq*4) extra bytes against a limit
 * from ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, else its rocMLIR spelling
 * ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES (the first positive one), else
 * deviceMemBytes / 8 clamped to [1 GiB, 8 GiB], else 1.5 GiB
 * (docs/semantics.md §5.7). Shared by the rock.attention verifier and
 * rockAttentionConfigValidate.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_SPLITKV_GUARD_H
#define ROCK_SUPPORT_SPLITKV_GUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The environment variable of the override, without its prefix.
#define ROCK_SPLITKV_LIMIT_ENV "ATTENTION_SPLITKV_MAX_EXTRA_BYTES"

/// The limit in bytes; `deviceMemBytes` 0 when unknown.
uint64_t rockSplitKVLimit(uint64_t deviceMemBytes);

/// The extra bytes of `splitKV` partials for `batch` * `seqQ` query rows of
/// `headDimV` outputs of `outBytes` bytes each (plus the f32 LSE);
/// UINT64_MAX on overflow.
uint64_t rockSplitKVExtraBytes(uint64_t splitKV, uint64_t batch, uint64_t seqQ,
                               uint64_t headDimV, uint64_t outBytes);

/// Writes the guard's error message for `extra` > `limit` (the one text the
/// verifier and rockAttentionConfigValidate report) into the caller's `buf`
/// of `size` bytes, NUL-terminated and truncated. Returns buf.
const char *rockSplitKVMessage(char *buf, size_t size, uint64_t extra,
                               uint64_t limit);

#ifdef __cplusplus
}
#endif

#endif
