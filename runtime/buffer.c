//===- buffer.c - typed host buffers -------------------------------------===//
#include "buffer.h"

#include "rock-c/Sizes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t rockDTypeGetSize(RockDType t) {
  switch (t) {
  case ROCK_DTYPE_F32:
  case ROCK_DTYPE_I32:
    return 4;
  case ROCK_DTYPE_F16:
  case ROCK_DTYPE_BF16:
    return 2;
  case ROCK_DTYPE_F64:
  case ROCK_DTYPE_I64:
    return 8;
  case ROCK_DTYPE_I8:
    return 1;
  }
  return 0;
}

static const char *const names[] = {"f32", "f16", "bf16", "f64",
                                    "i8",  "i32", "i64"};

const char *rockDTypeGetName(RockDType t) {
  if ((unsigned)t < sizeof(names) / sizeof(names[0]))
    return names[t];
  return "unknown";
}

bool rockDTypeParse(const char *name, RockDType *t) {
  for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (strcmp(name, names[i]) == 0) {
      *t = (RockDType)i;
      return true;
    }
  }
  return false;
}

bool rockDTypeIsInteger(RockDType t) {
  return t == ROCK_DTYPE_I8 || t == ROCK_DTYPE_I32 || t == ROCK_DTYPE_I64;
}

double rockDTypeRound(RockDType t, double x) {
  switch (t) {
  case ROCK_DTYPE_F32:
    return (double)(float)x;
  case ROCK_DTYPE_F16:
    return rockF16ToF64(rockF16FromF64(x));
  case ROCK_DTYPE_BF16:
    return rockBF16ToF64(rockBF16FromF64(x));
  case ROCK_DTYPE_F64:
    return x;
  case ROCK_DTYPE_I8:
  case ROCK_DTYPE_I32:
  case ROCK_DTYPE_I64: {
    double lo = t == ROCK_DTYPE_I8    ? -128.0
                : t == ROCK_DTYPE_I32 ? -2147483648.0
                                      : -9223372036854775808.0;
    double hi = t == ROCK_DTYPE_I8    ? 127.0
                : t == ROCK_DTYPE_I32 ? 2147483647.0
                                      : 9223372036854774784.0;
    if (isnan(x))
      return 0.0;
    x = nearbyint(x); // default rounding mode: ties to even
    return x < lo ? lo : x > hi ? hi : x;
  }
  }
  return x;
}

RockBuffer *rockBufferCreate(RockDType dtype, int64_t n) {
  // The byte count, rounded up to the alignment, must fit: a wrapped size
  // would allocate a few bytes for a huge buffer.
  int64_t bytes;
  if (!rockSizeMul(n, (int64_t)rockDTypeGetSize(dtype), &bytes) ||
      bytes > INT64_MAX - 63 || (uint64_t)bytes > SIZE_MAX - 63)
    return NULL;
  size_t rounded = ((size_t)bytes + 63) / 64 * 64;
  if (rounded == 0)
    rounded = 64;
  RockBuffer *b = malloc(sizeof(RockBuffer));
  if (!b)
    return NULL;
  b->data = aligned_alloc(64, rounded);
  if (!b->data) {
    free(b);
    return NULL;
  }
  memset(b->data, 0, rounded);
  b->dtype = dtype;
  b->numElements = n;
  return b;
}

void rockBufferDestroy(RockBuffer *b) {
  if (!b)
    return;
  free(b->data);
  free(b);
}

size_t rockBufferGetBytes(const RockBuffer *b) {
  return (size_t)b->numElements * rockDTypeGetSize(b->dtype);
}

double rockBufferGet(const RockBuffer *b, int64_t i) {
  switch (b->dtype) {
  case ROCK_DTYPE_F32:
    return ((const float *)b->data)[i];
  case ROCK_DTYPE_F16:
    return rockF16ToF64(((const uint16_t *)b->data)[i]);
  case ROCK_DTYPE_BF16:
    return rockBF16ToF64(((const uint16_t *)b->data)[i]);
  case ROCK_DTYPE_F64:
    return ((const double *)b->data)[i];
  case ROCK_DTYPE_I8:
    return ((const int8_t *)b->data)[i];
  case ROCK_DTYPE_I32:
    return ((const int32_t *)b->data)[i];
  case ROCK_DTYPE_I64:
    return (double)((const int64_t *)b->data)[i];
  }
  return 0.0;
}

void rockBufferSet(RockBuffer *b, int64_t i, double v) {
  switch (b->dtype) {
  case ROCK_DTYPE_F32:
    ((float *)b->data)[i] = (float)v;
    return;
  case ROCK_DTYPE_F16:
    ((uint16_t *)b->data)[i] = rockF16FromF64(v);
    return;
  case ROCK_DTYPE_BF16:
    ((uint16_t *)b->data)[i] = rockBF16FromF64(v);
    return;
  case ROCK_DTYPE_F64:
    ((double *)b->data)[i] = v;
    return;
  case ROCK_DTYPE_I8:
    ((int8_t *)b->data)[i] = (int8_t)rockDTypeRound(b->dtype, v);
    return;
  case ROCK_DTYPE_I32:
    ((int32_t *)b->data)[i] = (int32_t)rockDTypeRound(b->dtype, v);
    return;
  case ROCK_DTYPE_I64:
    ((int64_t *)b->data)[i] = (int64_t)rockDTypeRound(b->dtype, v);
    return;
  }
}
