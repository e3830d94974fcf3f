/*===- err.h - error messages into caller buffers -------------------*- C
 * -*-===*
 *
 * The one helper for the `char *err, size_t errLen` convention of rock's
 * plain-C checks (rockAttentionConfigValidate, the perf_config parser).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_ERR_H
#define ROCK_SUPPORT_ERR_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Formats the message into the caller's `err` (errLen bytes, NUL-terminated,
 * truncated; nothing when err is NULL or errLen is 0) and returns false, so
 * that checks can `return rock__fail(err, errLen, ...)`. */
bool rock__fail(char *err, size_t errLen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
