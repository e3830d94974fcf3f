//===- half.c - f16 / bf16 <-> f32 / f64 conversion ----------------------===//
//
// One generic narrowing routine from the bits of an f64 to a binary format
// with `manBits` stored mantissa bits and exponent bias `bias`, rounding to
// nearest, ties to even, in a single step.
//
//===----------------------------------------------------------------------===//
#include "buffer.h"

#include <string.h>

static uint32_t narrow(double x, int manBits, int expBits) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << (manBits + expBits);
  int exp = (int)((b >> 52) & 0x7ff);
  uint64_t man = b & 0xfffffffffffffull;
  uint32_t expAll = (1u << expBits) - 1; // all-ones exponent field
  uint32_t inf = expAll << manBits;
  if (exp == 0x7ff) {
    if (man == 0)
      return sign | inf;
    // NaN: keep the top payload bits, force quiet.
    return sign | inf | (1u << (manBits - 1)) |
           (uint32_t)(man >> (52 - manBits));
  }
  if (exp == 0) // f64 zero or subnormal: far below any narrow subnormal
    return sign;
  int bias = (int)(expAll >> 1);
  int e = exp - 1023; // unbiased exponent
  if (e > bias)       // at least 2^(emax+1): overflow
    return sign | inf;
  uint64_t m = man | (1ull << 52); // 53 significant bits
  int emin = 1 - bias;
  int shift = 52 - manBits + (e < emin ? emin - e : 0);
  if (shift > 60) // far below half the smallest subnormal
    return sign;
  uint64_t q = m >> shift;
  uint64_t rem = m & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (q & 1)))
    ++q;
  uint32_t bits;
  if (e < emin)
    bits = (uint32_t)q; // subnormal; q == 2^manBits is the smallest normal
  else
    bits =
        ((uint32_t)(e + bias) << manBits) + (uint32_t)(q - (1ull << manBits));
  if (bits >= inf) // rounding carried past the largest finite value
    bits = inf;
  return sign | bits;
}

uint16_t rockF16FromF64(double x) { return (uint16_t)narrow(x, 10, 5); }
uint16_t rockBF16FromF64(double x) { return (uint16_t)narrow(x, 7, 8); }
uint16_t rockF16FromF32(float x) { return rockF16FromF64(x); }
uint16_t rockBF16FromF32(float x) { return rockBF16FromF64(x); }

double rockF16ToF64(uint16_t h) {
  int sign = h >> 15;
  int exp = (h >> 10) & 0x1f;
  int man = h & 0x3ff;
  double v;
  if (exp == 0x1f) {
    float f;
    uint32_t bits =
        ((uint32_t)sign << 31) | 0x7f800000u | ((uint32_t)man << 13);
    memcpy(&f, &bits, sizeof f);
    return f;
  }
  if (exp == 0)
    v = man * 0x1p-24;
  else
    v = (1024 + man) * 0x1p-10 * (double)(1 << exp) * 0x1p-15;
  return sign ? -v : v;
}

double rockBF16ToF64(uint16_t h) { return rockBF16ToF32(h); }

float rockF16ToF32(uint16_t h) { return (float)rockF16ToF64(h); }

float rockBF16ToF32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
