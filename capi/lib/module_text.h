/*===- module_text.h - MLIR text buffers of the module builders ---*- C -*-===*
 *
 * Internal to capi/lib: the growing text buffer the module builders
 * (attention_builder.c, host_reference.c, host_main.c) print MLIR into, and
 * the type strings they share. Small static inline helpers, one copy in
 * source.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_CAPI_MODULE_TEXT_H
#define ROCK_CAPI_MODULE_TEXT_H

#include "support/str.h"

#include "mlir-c/IR.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct Buf {
  RockStr text; ///< The text so far (support/str.h; aborts when out of memory).
  struct Buf *defs; ///< Where attribute aliases (#mapN = ...) go.
  int nMaps;        ///< Aliases defined so far.
} Buf;

static inline void append(Buf *b, const char *s, size_t n) {
  rock__strAppendN(&b->text, s, n);
}

static inline void out(Buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void out(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rock__strAppendv(&b->text, fmt, ap);
  va_end(ap);
}

static inline void printToBuf(MlirStringRef str, void *userData) {
  append((Buf *)userData, str.data, str.length);
}

/// Appends `s` as an MLIR string literal.
static inline void outString(Buf *b, const char *s) {
  append(b, "\"", 1);
  for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
    if (*c == '"' || *c == '\\' || *c < 0x20 || *c >= 0x7f)
      out(b, "\\%02X", *c);
    else
      append(b, (const char *)c, 1);
  }
  append(b, "\"", 1);
}

/// Appends an f64 attribute that the MLIR parser reads back exactly.
static inline void outF64(Buf *b, double v) {
  if (isfinite(v)) {
    out(b, "%.17e : f64", v);
    return;
  }
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  out(b, "0x%016" PRIX64 " : f64", bits);
}

/// A type string "memref<AxBx...xelt>" or "tensor<...>".
typedef struct TypeStr {
  char s[160];
} TypeStr;

static inline TypeStr shapedType(const char *kind, int n, const int64_t *dims,
                                 const char *elt) {
  TypeStr t;
  int p = snprintf(t.s, sizeof t.s, "%s<", kind);
  for (int i = 0; i < n; ++i)
    p += snprintf(t.s + p, sizeof t.s - (size_t)p, "%" PRId64 "x", dims[i]);
  snprintf(t.s + p, sizeof t.s - (size_t)p, "%s>", elt);
  return t;
}

static inline TypeStr memrefType(int n, const int64_t *dims, const char *elt) {
  return shapedType("memref", n, dims, elt);
}

static inline TypeStr flatType(int64_t n, const char *elt) {
  return memrefType(1, &n, elt);
}

#endif
