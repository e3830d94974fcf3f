/*===- rock-c/Sizes.h - overflow-checked size arithmetic ----------*- C -*-===//
//
// The one rule for multiplying problem sizes, element counts and byte counts
// anywhere in rock (C API validation, rock-run's buffers, the reference):
// sizes are non-negative int64_t values, and a product that does not fit is
// an error, never a wrapped value.
//
//===----------------------------------------------------------------------===*/
#ifndef ROCK_C_SIZES_H
#define ROCK_C_SIZES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Sets `*r` to `a * b` and returns true when both are non-negative and the
/// product fits in int64_t; otherwise returns false and leaves `*r` unset.
static inline bool rockSizeMul(int64_t a, int64_t b, int64_t *r) {
  if (a < 0 || b < 0)
    return false;
  return !__builtin_mul_overflow(a, b, r);
}

/// The product of `n` sizes `f[0..n)` into `*r` (1 for n == 0), with the
/// rule of rockSizeMul. Borrows `f`.
static inline bool rockSizeProduct(const int64_t *f, int n, int64_t *r) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i)
    if (!rockSizeMul(p, f[i], &p))
      return false;
  *r = p;
  return true;
}

#ifdef __cplusplus
}
#endif

#endif
