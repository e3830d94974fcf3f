// RUN: rock-runtime-read-probe-test | FileCheck %s
/* The read probe of rock-run --time-probe: span lists, and a read that
   touches every byte of every span once on any number of threads. */
#include "read_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The probe's sink after reading `lists` on `threads` threads. */
static uint64_t sinkOf(const RockReadSpans *lists, int n, int threads) {
  uint64_t sink = 0;
  if (rockReadProbeRun(lists, n, threads, &sink) < 0)
    return ~0ull;
  return sink;
}

int main(void) {
  enum { BYTES = 1 << 16 };
  unsigned char *buf = aligned_alloc(64, BYTES);
  memset(buf, 0, BYTES);

  // TEST: linear spans; a short tail is left out and not counted
  RockReadSpans s = {0};
  int ok = rockReadSpansAddLinear(&s, buf, 1000, 256);
  printf("linear %d n %lld bytes %llu\n", ok, (long long)s.n,
         (unsigned long long)rockReadSpansBytes(&s, 1));
  // CHECK: linear 1 n 3 bytes 768

  // TEST: every span of one list has one length; piece 0 is refused
  printf("mismatch %d zero %d\n", rockReadSpansAddLinear(&s, buf, 512, 128),
         rockReadSpansAddLinear(&s, buf, 512, 0));
  // CHECK: mismatch 0 zero 0
  rockReadSpansClear(&s);

  // TEST: one marked word anywhere in the spans reaches the sink on 1, 2, 3
  // and 64 threads (each line read exactly once: XOR cancels a line read
  // twice and misses one not read)
  RockReadSpans l[2] = {{0}, {0}};
  rockReadSpansAddLinear(&l[0], buf, BYTES / 2, 4096);
  rockReadSpansAddLinear(&l[1], buf + BYTES / 2, BYTES / 2, 4096);
  int all = 1;
  for (int pos = 0; pos < BYTES; pos += 8 * 37) {
    memcpy(buf + pos, &(uint64_t){0x1234567ull + pos}, 8);
    int th[] = {1, 2, 3, 64};
    for (int t = 0; t < 4; ++t)
      all &= sinkOf(l, 2, th[t]) == 0x1234567ull + pos;
    memset(buf + pos, 0, 8);
  }
  printf("every line once %d\n", all);
  // CHECK: every line once 1
  rockReadSpansClear(&l[0]);
  rockReadSpansClear(&l[1]);

  // TEST: a page table's pages in its order, page size not a multiple of 64
  // (the last 36 bytes of each 100-byte page are read too)
  int64_t table[3] = {(int64_t)(uintptr_t)(buf + 1000),
                      (int64_t)(uintptr_t)(buf + 50),
                      (int64_t)(uintptr_t)(buf + 3000)};
  ok = rockReadSpansAddTable(&s, table, 3, 100);
  buf[50 + 99] = 7; // the last byte of page 1: its tail
  printf("table %d bytes %llu tail %d\n", ok,
         (unsigned long long)rockReadSpansBytes(&s, 1), sinkOf(&s, 1, 2) == 7);
  // CHECK: table 1 bytes 300 tail 1

  // TEST: nothing to read is reported, not timed
  RockReadSpans empty = {0};
  uint64_t sink = 0;
  printf("empty %d\n", rockReadProbeRun(&empty, 1, 2, &sink) < 0);
  // CHECK: empty 1
  rockReadSpansClear(&s);
  free(buf);
  return 0;
}
