// RUN: rock-runtime-half-test | FileCheck %s
/* f16 / bf16 conversion: RNE ties, NaN, Inf, subnormals, overflow. Expected
   bit patterns are from the IEEE 754 binary16 / bfloat16 layouts. */
#include "buffer.h"

#include <math.h>
#include <stdio.h>

static void f16(const char *what, double x) {
  printf("f16(%s) = 0x%04x\n", what, rockF16FromF64(x));
}
static void bf16(const char *what, double x) {
  printf("bf16(%s) = 0x%04x\n", what, rockBF16FromF64(x));
}

int main(void) {
  // TEST: f16 encode
  f16("1", 1.0);
  // CHECK: f16(1) = 0x3c00
  f16("-2", -2.0);
  // CHECK: f16(-2) = 0xc000
  f16("-0", -0.0);
  // CHECK: f16(-0) = 0x8000
  f16("1+2^-11", 1.0 + 0x1p-11); // tie between 0x3c00 and 0x3c01: even
  // CHECK: f16(1+2^-11) = 0x3c00
  f16("1+3*2^-11", 1.0 + 3 * 0x1p-11); // tie between 0x3c01 and 0x3c02
  // CHECK: f16(1+3*2^-11) = 0x3c02
  f16("1+2^-11+2^-30", 1.0 + 0x1p-11 + 0x1p-30); // just above the tie
  // CHECK: f16(1+2^-11+2^-30) = 0x3c01
  f16("65504", 65504.0);
  // CHECK: f16(65504) = 0x7bff
  f16("65519", 65519.0);
  // CHECK: f16(65519) = 0x7bff
  f16("65520", 65520.0); // tie with 2^16: rounds to even = overflow
  // CHECK: f16(65520) = 0x7c00
  f16("-1e9", -1e9);
  // CHECK: f16(-1e9) = 0xfc00
  f16("inf", INFINITY);
  // CHECK: f16(inf) = 0x7c00
  f16("-inf", -INFINITY);
  // CHECK: f16(-inf) = 0xfc00
  uint16_t n = rockF16FromF64(NAN);
  printf("f16(nan) is nan: %d\n", (n & 0x7c00) == 0x7c00 && (n & 0x3ff) != 0);
  // CHECK: f16(nan) is nan: 1
  f16("2^-14", 0x1p-14);
  // CHECK: f16(2^-14) = 0x0400
  f16("2^-24", 0x1p-24);
  // CHECK: f16(2^-24) = 0x0001
  f16("2^-25", 0x1p-25); // tie between 0 and the smallest subnormal
  // CHECK: f16(2^-25) = 0x0000
  f16("1.5*2^-25", 1.5 * 0x1p-25);
  // CHECK: f16(1.5*2^-25) = 0x0001
  f16("3*2^-25", 3 * 0x1p-25); // tie between 0x0001 and 0x0002
  // CHECK: f16(3*2^-25) = 0x0002
  f16("2^-14-2^-25", 0x1p-14 - 0x1p-25); // rounds up into the normals
  // CHECK: f16(2^-14-2^-25) = 0x0400
  f16("1e-10", 1e-10);
  // CHECK: f16(1e-10) = 0x0000
  f16("1/3", 1.0 / 3.0);
  // CHECK: f16(1/3) = 0x3555

  // TEST: f16 decode
  printf("f16 0x0001 = %.17g\n", rockF16ToF64(0x0001));
  // CHECK: f16 0x0001 = 5.9604644775390625e-08
  printf("f16 0x03ff = %.17g\n", rockF16ToF64(0x03ff));
  // CHECK: f16 0x03ff = 6.0975551605224609e-05
  printf("f16 0x3555 = %.17g\n", rockF16ToF64(0x3555));
  // CHECK: f16 0x3555 = 0.333251953125
  printf("f16 0x7bff = %.17g\n", rockF16ToF64(0x7bff));
  // CHECK: f16 0x7bff = 65504
  printf("f16 0xfc00 = %g\n", rockF16ToF64(0xfc00));
  // CHECK: f16 0xfc00 = -inf
  printf("f16 0x7e00 is nan: %d\n", isnan(rockF16ToF64(0x7e00)));
  // CHECK: f16 0x7e00 is nan: 1
  printf("f16 0xc000 as f32 = %g\n", rockF16ToF32(0xc000));
  // CHECK: f16 0xc000 as f32 = -2

  // TEST: bf16 encode
  bf16("1", 1.0);
  // CHECK: bf16(1) = 0x3f80
  bf16("1+2^-8", 1.0 + 0x1p-8); // tie: even
  // CHECK: bf16(1+2^-8) = 0x3f80
  bf16("1+3*2^-8", 1.0 + 3 * 0x1p-8);
  // CHECK: bf16(1+3*2^-8) = 0x3f82
  bf16("-3", -3.0);
  // CHECK: bf16(-3) = 0xc040
  bf16("FLT_MAX", 3.4028234663852886e38); // above the last bf16 midpoint
  // CHECK: bf16(FLT_MAX) = 0x7f80
  bf16("2^-133", 0x1p-133); // smallest bf16 subnormal
  // CHECK: bf16(2^-133) = 0x0001
  bf16("2^-134", 0x1p-134); // tie with zero
  // CHECK: bf16(2^-134) = 0x0000
  bf16("-inf", -INFINITY);
  // CHECK: bf16(-inf) = 0xff80
  n = rockBF16FromF64(NAN);
  printf("bf16(nan) is nan: %d\n", (n & 0x7f80) == 0x7f80 && (n & 0x7f) != 0);
  // CHECK: bf16(nan) is nan: 1
  printf("bf16(f32 1.00390625) = 0x%04x\n", rockBF16FromF32(1.00390625f));
  // CHECK: bf16(f32 1.00390625) = 0x3f80

  // TEST: bf16 decode
  printf("bf16 0x3fc0 = %g\n", rockBF16ToF64(0x3fc0));
  // CHECK: bf16 0x3fc0 = 1.5
  printf("bf16 0x0001 = %.17g\n", rockBF16ToF64(0x0001));
  // CHECK: bf16 0x0001 = 9.1835496157991212e-41

  // TEST: buffers round on write
  RockBuffer *b = rockBufferCreate(ROCK_DTYPE_F16, 2);
  rockBufferSet(b, 0, 1.0 + 0x1p-11);
  rockBufferSet(b, 1, 70000.0);
  printf("f16 buffer: %g %g\n", rockBufferGet(b, 0), rockBufferGet(b, 1));
  // CHECK: f16 buffer: 1 inf
  rockBufferDestroy(b);
  b = rockBufferCreate(ROCK_DTYPE_I8, 3);
  rockBufferSet(b, 0, 2.5);
  rockBufferSet(b, 1, -300.0);
  rockBufferSet(b, 2, 3.5);
  printf("i8 buffer: %g %g %g\n", rockBufferGet(b, 0), rockBufferGet(b, 1),
         rockBufferGet(b, 2));
  // CHECK: i8 buffer: 2 -128 4
  rockBufferDestroy(b);
  return 0;
}
