/*===- str.c - growable heap strings --------------------------------------===*/
#include "str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(RockStr *s, size_t extra) {
  if (s->len + extra + 1 <= s->cap)
    return;
  size_t cap = s->cap ? s->cap : 256;
  while (cap < s->len + extra + 1)
    cap *= 2;
  char *d = realloc(s->data, cap);
  if (!d) {
    fprintf(stderr, "rock: out of memory\n");
    abort();
  }
  s->data = d;
  s->cap = cap;
}

void rock__strAppendN(RockStr *s, const char *text, size_t n) {
  reserve(s, n);
  memcpy(s->data + s->len, text, n);
  s->len += n;
  s->data[s->len] = 0;
}

void rock__strAppend(RockStr *s, const char *text) {
  rock__strAppendN(s, text, strlen(text));
}

void rock__strAppendv(RockStr *s, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    return;
  reserve(s, (size_t)n);
  vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
  s->len += (size_t)n;
}

void rock__strAppendf(RockStr *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rock__strAppendv(s, fmt, ap);
  va_end(ap);
}

void rock__strCallback(MlirStringRef ref, void *userData) {
  rock__strAppendN((RockStr *)userData, ref.data, ref.length);
}

void rock__strAppendType(RockStr *s, MlirType t) {
  mlirTypePrint(t, rock__strCallback, s);
}

void rock__strAppendAttr(RockStr *s, MlirAttribute a) {
  mlirAttributePrint(a, rock__strCallback, s);
}

void rock__strFree(RockStr *s) {
  free(s->data);
  s->data = NULL;
  s->len = s->cap = 0;
}

const char *rock__typeToBuf(MlirType t, char *buf, size_t size) {
  if (!size)
    return buf;
  if (mlirTypeIsNull(t)) {
    snprintf(buf, size, "<none>");
    return buf;
  }
  RockStr s = {0};
  rock__strAppendType(&s, t);
  snprintf(buf, size, "%s", s.data ? s.data : "");
  rock__strFree(&s);
  return buf;
}
