// RUN: rm -rf %t && mkdir -p %t && rock-runtime-npy-test %t | FileCheck %s
/* .npy writer: header layout (magic, version 1.0, 64-byte aligned header
   ending in a newline), dtype descriptors, shapes and payloads. */
#include "npy.h"

#include <stdio.h>
#include <string.h>

static void show(const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  unsigned char buf[256];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  unsigned hlen = buf[8] | (unsigned)buf[9] << 8;
  printf("%s: magic %d version %d.%d total header %u payload %zu\n", name,
         buf[0] == 0x93 && !memcmp(buf + 1, "NUMPY", 5), buf[6], buf[7],
         10 + hlen, n - 10 - hlen);
  printf("%s: %.*s\n", name, (int)hlen - 1, (const char *)buf + 10);
  printf("%s: ends in newline %d\n", name, buf[10 + hlen - 1] == '\n');
  printf("%s: first payload bytes %02x %02x %02x %02x\n", name, buf[10 + hlen],
         buf[11 + hlen], buf[12 + hlen], buf[13 + hlen]);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char path[1024];
  // TEST: rank 1 f16 keeps the raw bits
  RockBuffer *h = rockBufferCreate(ROCK_DTYPE_F16, 5);
  rockBufferSet(h, 0, 1.0);  // 0x3c00, little-endian 00 3c
  rockBufferSet(h, 1, -2.0); // 0xc000
  int64_t s1[1] = {5};
  snprintf(path, sizeof path, "%s/h.npy", dir);
  printf("write %d\n", rockNpyWriteBuffer(path, h, s1, 1));
  // CHECK: write 1
  show(dir, "h.npy");
  // CHECK: h.npy: magic 1 version 1.0 total header 128 payload 10
  // CHECK: h.npy: {'descr': '<f2', 'fortran_order': False, 'shape': (5,), }
  // CHECK: h.npy: ends in newline 1
  // CHECK: h.npy: first payload bytes 00 3c 00 c0

  // TEST: bf16 is written as float32 with the exact value
  RockBuffer *b = rockBufferCreate(ROCK_DTYPE_BF16, 6);
  rockBufferSet(b, 0, 1.5); // f32 0x3fc00000: 00 00 c0 3f
  int64_t s2[2] = {2, 3};
  snprintf(path, sizeof path, "%s/b.npy", dir);
  printf("write %d\n", rockNpyWriteBuffer(path, b, s2, 2));
  // CHECK: write 1
  show(dir, "b.npy");
  // CHECK: b.npy: magic 1 version 1.0 total header 128 payload 24
  // CHECK: b.npy: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
  // CHECK: b.npy: first payload bytes 00 00 c0 3f

  // TEST: i8 and f64
  RockBuffer *i = rockBufferCreate(ROCK_DTYPE_I8, 4);
  rockBufferSet(i, 0, -1.0);
  int64_t s3[3] = {1, 2, 2};
  snprintf(path, sizeof path, "%s/i.npy", dir);
  rockNpyWriteBuffer(path, i, s3, 3);
  show(dir, "i.npy");
  // CHECK: i.npy: {'descr': '|i1', 'fortran_order': False, 'shape': (1, 2, 2), }
  // CHECK: i.npy: first payload bytes ff 00 00 00
  double d[2] = {0.5, 2.0};
  snprintf(path, sizeof path, "%s/d.npy", dir);
  int64_t s4[1] = {2};
  printf("f64 write %d\n", rockNpyWriteF64(path, d, s4, 1));
  // CHECK: f64 write 1
  show(dir, "d.npy");
  // CHECK: d.npy: {'descr': '<f8', 'fortran_order': False, 'shape': (2,), }
  // CHECK: d.npy: first payload bytes 00 00 00 00

  // TEST: a shape that does not match the buffer is refused
  printf("mismatch %d\n", rockNpyWriteBuffer(path, h, s2, 2));
  // CHECK: mismatch 0
  snprintf(path, sizeof path, "%s/missing-dir/x.npy", dir);
  printf("bad path %d\n", rockNpyWriteBuffer(path, h, s1, 1));
  // CHECK: bad path 0
  rockBufferDestroy(h);
  rockBufferDestroy(b);
  rockBufferDestroy(i);
  return 0;
}
