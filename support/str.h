/*===- str.h - growable heap strings ------------------------------*- C -*-===*
 *
 * The one string buffer of rock's C code (passes, verifiers, C API). Internal
 * (rock__ names), never installed.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_STR_H
#define ROCK_SUPPORT_STR_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A heap string owned by whoever declared it. Zero-initialise; free with
 * rock__strFree. `data` is NUL-terminated once anything was appended (and
 * NULL before). Out of memory aborts. */
typedef struct RockStr {
  char *data;
  size_t len, cap;
} RockStr;

/* Appends `n` bytes of `text` / the C string `text` / formatted text. */
void rock__strAppendN(RockStr *s, const char *text, size_t n);
void rock__strAppend(RockStr *s, const char *text);
void rock__strAppendf(RockStr *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rock__strAppendv(RockStr *s, const char *fmt, va_list ap);
/* Appends the printed form of `t` / `a` (borrowed). */
void rock__strAppendType(RockStr *s, MlirType t);
void rock__strAppendAttr(RockStr *s, MlirAttribute a);
/* Releases the buffer and zeroes `s`. */
void rock__strFree(RockStr *s);
/* An MlirStringCallback appending to the RockStr passed as user data. */
void rock__strCallback(MlirStringRef ref, void *userData);

/* Prints `t` into the caller's `buf` of `size` bytes (NUL-terminated,
 * truncated; "<none>" for a null type). Returns buf. */
const char *rock__typeToBuf(MlirType t, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
