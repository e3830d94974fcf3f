/*===- perf_config.c - reading attention tiling from perf_config ----------===*
 *
 * rocMLIR's attention perf_config strings (docs/user-guide.md §2.5) in all the
 * forms old and new TOMLs use. Only the two fields that mean something on
 * the CPU are read: field 0 (mPerBlockG0, keys per tile) and field 2
 * (nPerBlockG0, merged query rows per tile).
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

enum { V3_FIELDS = 13, MAX_FIELDS = 32 };

static bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* Strips `prefix` from the front of *s; returns whether it was there. */
static bool eatPrefix(MlirStringRef *s, const char *prefix) {
  size_t n = strlen(prefix);
  if (s->length < n || memcmp(s->data, prefix, n) != 0)
    return false;
  s->data += n;
  s->length -= n;
  return true;
}

/* Splits `s` at commas and parses each field as a decimal integer into
 * vals[k] (ok[k] false for a malformed field). Returns the field count;
 * fields past `max` are counted but not stored. */
static intptr_t splitInts(MlirStringRef s, int64_t *vals, bool *ok,
                          intptr_t max) {
  intptr_t n = 0;
  size_t pos = 0;
  for (;;) {
    size_t end = pos;
    while (end < s.length && s.data[end] != ',')
      ++end;
    bool neg = false, good = end > pos;
    int64_t v = 0;
    for (size_t i = pos; i < end && good; ++i) {
      char c = s.data[i];
      if (i == pos && (c == '-' || c == '+') && end > pos + 1)
        neg = c == '-';
      else if (c >= '0' && c <= '9' && v <= (INT64_MAX - 9) / 10)
        v = v * 10 + (c - '0');
      else
        good = false;
    }
    if (n < max) {
      vals[n] = neg ? -v : v;
      ok[n] = good;
    }
    ++n;
    if (end >= s.length)
      return n;
    pos = end + 1;
  }
}

bool rock__perfConfigParseAttention(MlirStringRef s, int64_t *mPerBlock,
                                    int64_t *nPerBlock, char *err,
                                    size_t errLen) {
  int64_t v[MAX_FIELDS];
  bool ok[MAX_FIELDS];
  *mPerBlock = *nPerBlock = 0;
  if (eatPrefix(&s, "attn:v3:")) {
    /* The current form is strict: 13 integers, MB and NB powers of two. */
    intptr_t n = splitInts(s, v, ok, MAX_FIELDS);
    if (n != V3_FIELDS) {
      snprintf(err, errLen, "perf_config attn:v3 needs %d integers (got %ld)",
               V3_FIELDS, (long)n);
      return false;
    }
    for (intptr_t i = 0; i < n; ++i)
      if (!ok[i]) {
        snprintf(err, errLen, "perf_config attn:v3 field %ld is not an integer",
                 (long)i);
        return false;
      }
    if (!isPow2(v[0])) {
      snprintf(err, errLen,
               "perf_config mPerBlockG0 (%lld) must be a positive power of "
               "two",
               (long long)v[0]);
      return false;
    }
    if (!isPow2(v[2])) {
      snprintf(err, errLen,
               "perf_config nPerBlockG0 (%lld) must be a positive power of "
               "two",
               (long long)v[2]);
      return false;
    }
    *mPerBlock = v[0];
    *nPerBlock = v[2];
    return true;
  }
  /* Older forms: take fields 0 and 2 when they are usable, ignore the rest
   * (and any string we do not recognise at all). */
  if (!eatPrefix(&s, "attn:v2:") && !eatPrefix(&s, "attn:v1:") &&
      !eatPrefix(&s, "v2:") && !eatPrefix(&s, "v1:") &&
      !(s.length > 0 && s.data[0] >= '0' && s.data[0] <= '9'))
    return true;
  intptr_t n = splitInts(s, v, ok, MAX_FIELDS);
  if (n > 0 && ok[0] && isPow2(v[0]))
    *mPerBlock = v[0];
  if (n > 2 && ok[2] && isPow2(v[2]))
    *nPerBlock = v[2];
  return true;
}
