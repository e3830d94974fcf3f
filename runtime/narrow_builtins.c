//===- narrow_builtins.c - f16/bf16 conversion builtins for the JIT ------===//
//
// The x86-64 psABI passes and returns _Float16 and __bf16 in the low 16 bits
// of an XMM register, like a float in its low 32 bits. These functions are
// therefore written with float carriers: an argument `float` whose low 16
// bits are the f16, a returned `float` whose low 16 bits are the result.
// That keeps them independent of compiler support for _Float16 / __bf16
// (GCC 12 builds the sanitizer build), and they are called only through
// the JIT, never from C.
//
//===----------------------------------------------------------------------===//
#include "narrow_builtins.h"

#include "buffer.h"

#include <stdint.h>
#include <string.h>

static float carry16(uint16_t bits) {
  uint32_t w = bits;
  float f;
  memcpy(&f, &w, sizeof f);
  return f;
}

static uint16_t carried16(float f) {
  uint32_t w;
  memcpy(&w, &f, sizeof w);
  return (uint16_t)w;
}

static float truncsfbf2(float x) { return carry16(rockBF16FromF32(x)); }
static float truncdfbf2(double x) { return carry16(rockBF16FromF64(x)); }
static float truncsfhf2(float x) { return carry16(rockF16FromF32(x)); }
static float truncdfhf2(double x) { return carry16(rockF16FromF64(x)); }
static float extendhfsf2(float h) { return rockF16ToF32(carried16(h)); }

const RockNarrowBuiltin *rockNarrowBuiltins(void) {
  static const RockNarrowBuiltin table[] = {
      {"__truncsfbf2", (void *)truncsfbf2},
      {"__truncdfbf2", (void *)truncdfbf2},
      {"__truncsfhf2", (void *)truncsfhf2},
      {"__truncdfhf2", (void *)truncdfhf2},
      {"__extendhfsf2", (void *)extendhfsf2},
      {NULL, NULL}};
  return table;
}
