/*===- splitkv_guard.h - the split-KV extra-storage limit ---------*- C -*-===*
 *
 * One home for the split-KV memory guard (docs/semantics.md §5.7), used by
 * the rock.attention verifier and by rockAttentionConfigValidate: the extra
 * bytes, the limit (environment overrides, device memory, default) and the
 * error text. Pure functions apart from reading the two environment
 * variables in rock__splitKVLimit.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_SPLITKV_GUARD_H
#define ROCK_SUPPORT_SPLITKV_GUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The value of `s` as a positive decimal integer (digits only: no sign, no
 * spaces, no overflow), or 0 when `s` is null or not such a number. */
uint64_t rock__parsePositiveDecimal(const char *s);

/* (splitKV - 1) * (batch*seqQ*headV*outBytes + batch*seqQ*4), saturating at
 * UINT64_MAX; 0 when splitKV <= 1 or a size is negative. `batch` is the
 * un-split query batch, `outBytes` the output element size. */
uint64_t rock__splitKVExtraBytes(int64_t splitKV, int64_t batch, int64_t seqQ,
                                 int64_t headV, int64_t outBytes);

/* The limit: ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, else
 * ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES (values that are not positive
 * decimals are ignored), else deviceMemBytes / 8 clamped to [1 GiB, 8 GiB]
 * when deviceMemBytes > 0, else 1.5 GiB. */
uint64_t rock__splitKVLimit(int64_t deviceMemBytes);

/* Writes the guard's error message for `extra` > `limit` into the caller's
 * `buf` of `size` bytes (NUL-terminated, truncated). Returns buf. */
const char *rock__splitKVMessage(char *buf, size_t size, uint64_t extra,
                                 uint64_t limit);

#ifdef __cplusplus
}
#endif

#endif
