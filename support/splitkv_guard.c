/*===- splitkv_guard.c - split-KV extra-storage guard ---------------------===*/
#include "splitkv_guard.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define GIB ((uint64_t)1 << 30)
#define DEFAULT_LIMIT ((uint64_t)1610612736) /* 1.5 GiB */

/* Parses a positive decimal integer (digits only, no sign, no spaces, no
 * overflow). Returns 0 when `s` is null or not such a number. */
static uint64_t parsePositive(const char *s) {
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

uint64_t rockSplitKVLimit(uint64_t deviceMemBytes) {
  // The first of ROCK_ / ROCMLIR_ that holds a positive number wins.
  static const char *const names[] = {"ROCK_" ROCK_SPLITKV_LIMIT_ENV,
                                      "ROCMLIR_" ROCK_SPLITKV_LIMIT_ENV};
  for (int i = 0; i < 2; ++i) {
    uint64_t v = parsePositive(getenv(names[i]));
    if (v)
      return v;
  }
  if (deviceMemBytes) {
    uint64_t l = deviceMemBytes / 8;
    return l < GIB ? GIB : l > 8 * GIB ? 8 * GIB : l;
  }
  return DEFAULT_LIMIT;
}

/* a * b, saturating at UINT64_MAX. */
static uint64_t mulSat(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t addSat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t rockSplitKVExtraBytes(uint64_t splitKV, uint64_t batch, uint64_t seqQ,
                               uint64_t headDimV, uint64_t outBytes) {
  if (splitKV <= 1)
    return 0;
  uint64_t rows = mulSat(batch, seqQ);
  uint64_t perSplit =
      addSat(mulSat(mulSat(rows, headDimV), outBytes), mulSat(rows, 4));
  return mulSat(splitKV - 1, perSplit);
}

const char *rockSplitKVMessage(char *buf, size_t size, uint64_t extra,
                               uint64_t limit) {
  snprintf(buf, size,
           "splitKV requires %" PRIu64 " bytes of extra output/LSE storage, "
           "which exceeds the limit (%" PRIu64 " bytes). Lower splitKV or "
           "reduce sequence sizes. Override this guard with "
           "ROCK_ATTENTION_SPLITKV_MAX_EXTRA_BYTES.",
           extra, limit);
  return buf;
}
