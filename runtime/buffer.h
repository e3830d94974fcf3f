//===- buffer.h - typed host buffers and narrow float conversion -*- C -*-===//
//
// Host buffers with an element type (f32, f16, bf16, f64, i8, i32, i64), and
// exact conversions between f16/bf16 bit patterns and f32/f64. Narrowing
// conversions round to nearest, ties to even, in one step from f64 (no double
// rounding); NaN stays NaN (quiet), infinities and signed zeros are kept,
// subnormals are produced and read correctly, and overflow gives infinity.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_BUFFER_H
#define ROCK_RUNTIME_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of host buffers.
typedef enum RockDType {
  ROCK_DTYPE_F32,
  ROCK_DTYPE_F16,
  ROCK_DTYPE_BF16,
  ROCK_DTYPE_F64,
  ROCK_DTYPE_I8,
  ROCK_DTYPE_I32,
  ROCK_DTYPE_I64,
} RockDType;

/// Returns the size in bytes of one element of `t`.
size_t rockDTypeGetSize(RockDType t);

/// Returns the lower-case name of `t` ("f32", "bf16", "i8", ...), a static
/// string.
const char *rockDTypeGetName(RockDType t);

/// Parses "f32", "f16", "bf16", "f64", "i8", "i32", "i64" into `*t`. Returns
/// false (leaving `*t` untouched) for any other string. `name` is borrowed.
bool rockDTypeParse(const char *name, RockDType *t);

/// Returns true for the integer types (i8, i32, i64).
bool rockDTypeIsInteger(RockDType t);

//===----------------------------------------------------------------------===//
// Narrow float conversion
//===----------------------------------------------------------------------===//

/// Rounds `x` to the nearest f16 (ties to even) and returns its bits.
uint16_t rockF16FromF64(double x);
/// Rounds `x` to the nearest bf16 (ties to even) and returns its bits.
uint16_t rockBF16FromF64(double x);
/// Returns the exact value of the f16 with bits `h`.
double rockF16ToF64(uint16_t h);
/// Returns the exact value of the bf16 with bits `h`.
double rockBF16ToF64(uint16_t h);
/// f32 convenience forms of the four functions above (exact for f32 input).
uint16_t rockF16FromF32(float x);
uint16_t rockBF16FromF32(float x);
float rockF16ToF32(uint16_t h);
float rockBF16ToF32(uint16_t h);

/// Returns `x` rounded to the values representable in `t` (RNE for floats;
/// for integers: rounded to nearest, ties to even, then saturated), as f64.
double rockDTypeRound(RockDType t, double x);

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// A flat host buffer of `numElements` elements of `dtype`.
typedef struct RockBuffer {
  RockDType dtype;
  int64_t numElements;
  void *data; ///< 64-byte aligned, owned by the buffer
} RockBuffer;

/// Returns a new zero-filled buffer of `n` elements, owned by the caller and
/// freed with rockBufferDestroy. `n` may be 0. Returns NULL if `n < 0`, the
/// byte count overflows, or memory is exhausted.
RockBuffer *rockBufferCreate(RockDType dtype, int64_t n);

/// Frees `b` and its data. NULL is allowed (no-op).
void rockBufferDestroy(RockBuffer *b);

/// Returns element `i` widened exactly to f64. `i` must be in range.
double rockBufferGet(const RockBuffer *b, int64_t i);

/// Stores `v` at element `i`, rounded to the buffer's type as by
/// rockDTypeRound. `i` must be in range.
void rockBufferSet(RockBuffer *b, int64_t i, double v);

/// Returns the size of the buffer's data in bytes.
size_t rockBufferGetBytes(const RockBuffer *b);

#ifdef __cplusplus
}
#endif

#endif
