/*===- splitkv_guard.c - the split-KV extra-storage limit -----------------===*/
#include "splitkv_guard.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define GIB ((uint64_t)1 << 30)
#define DEFAULT_LIMIT ((uint64_t)1610612736) /* 1.5 GiB, rocMLIR's */

uint64_t rock__parsePositiveDecimal(const char *s) {
  if (!s || !*s)
    return 0;
  uint64_t v = 0;
  for (const char *p = s; *p; ++p) {
    if (*p < '0' || *p > '9')
      return 0;
    uint64_t d = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - d) / 10)
      return 0;
    v = v * 10 + d;
  }
  return v;
}

/* a * b and a + b, saturating at UINT64_MAX. */
static uint64_t mulSat(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}
static uint64_t addSat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t rock__splitKVExtraBytes(int64_t splitKV, int64_t batch, int64_t seqQ,
                                 int64_t headV, int64_t outBytes) {
  if (splitKV <= 1 || batch < 0 || seqQ < 0 || headV < 0 || outBytes < 0)
    return 0;
  uint64_t rows = mulSat((uint64_t)batch, (uint64_t)seqQ);
  uint64_t perSplit =
      addSat(mulSat(mulSat(rows, (uint64_t)headV), (uint64_t)outBytes),
             mulSat(rows, 4));
  return mulSat((uint64_t)(splitKV - 1), perSplit);
}

uint64_t rock__splitKVLimit(int64_t deviceMemBytes) {
  uint64_t v = rock__parsePositiveDecimal(
      getenv("ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES"));
  if (v)
    return v;
  v = rock__parsePositiveDecimal(
      getenv("ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES"));
  if (v)
    return v;
  if (deviceMemBytes > 0) {
    uint64_t l = (uint64_t)deviceMemBytes / 8;
    return l < GIB ? GIB : l > 8 * GIB ? 8 * GIB : l;
  }
  return DEFAULT_LIMIT;
}

const char *rock__splitKVMessage(char *buf, size_t size, uint64_t extra,
                                 uint64_t limit) {
  snprintf(buf, size,
           "splitKV requires %" PRIu64 " bytes of extra output/LSE storage, "
           "which exceeds the limit (%" PRIu64 " bytes). Lower splitKV or "
           "reduce sequence sizes. Override this guard with "
           "ROCMLIR_ATTENTION_SPLITKV_MAX_EXTRA_BYTES. (rock also reads "
           "ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES, which wins.)",
           extra, limit);
  return buf;
}
