/*===- verify_perf_config.c - attention perf_config strings ---------------===*/
#include "verify_attention.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdbool.h>
#include <string.h>

#define V3_FIELDS 13

static bool startsWith(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length >= n && memcmp(s.data, prefix, n) == 0;
}

static bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* Parses the comma-separated decimal integers of `s` (from `pos`) into
 * `out` (at most `max`). Returns the count, or -1 on a malformed field. */
static intptr_t parseInts(MlirStringRef s, size_t pos, int64_t *out,
                          intptr_t max) {
  intptr_t n = 0;
  while (true) {
    bool neg = false, any = false;
    int64_t v = 0;
    if (pos < s.length && (s.data[pos] == '-' || s.data[pos] == '+'))
      neg = s.data[pos++] == '-';
    while (pos < s.length && s.data[pos] >= '0' && s.data[pos] <= '9') {
      if (v < INT64_MAX / 10)
        v = v * 10 + (s.data[pos] - '0');
      ++pos;
      any = true;
    }
    if (!any)
      return -1;
    if (n < max)
      out[n] = neg ? -v : v;
    ++n;
    if (pos == s.length)
      return n;
    if (s.data[pos] != ',')
      return -1;
    ++pos;
  }
}

MlirLogicalResult rock__verifyAttentionPerfConfig(MlirOperation op) {
  MlirAttribute a = rock__attr(op, "perf_config");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return mlirLogicalResultSuccess();
  MlirStringRef s = mlirStringAttrGetValue(a);
  if (startsWith(s, "attn:v1:") || startsWith(s, "attn:v2:"))
    return mlirLogicalResultSuccess();
  if (!startsWith(s, "attn:v3:"))
    return rock__verifyFail(op,
                            "perf_config \"%.*s\" must start with attn:v1:, "
                            "attn:v2: or attn:v3:",
                            (int)s.length, s.data);
  int64_t v[V3_FIELDS];
  intptr_t n = parseInts(s, strlen("attn:v3:"), v, V3_FIELDS);
  if (n < 0)
    return rock__verifyFail(op,
                            "perf_config \"%.*s\" is not a list of integers",
                            (int)s.length, s.data);
  if (n != V3_FIELDS)
    return rock__verifyFail(op,
                            "perf_config attn:v3 needs %d integers (got %ld)",
                            V3_FIELDS, (long)n);
  if (!isPow2(v[0]))
    return rock__verifyFail(
        op,
        "perf_config mPerBlockG0 (%lld) must be a positive power "
        "of two",
        (long long)v[0]);
  if (!isPow2(v[2]))
    return rock__verifyFail(
        op,
        "perf_config nPerBlockG0 (%lld) must be a positive power "
        "of two",
        (long long)v[2]);
  return mlirLogicalResultSuccess();
}
