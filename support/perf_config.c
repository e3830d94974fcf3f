/*===- perf_config.c - rocMLIR attention perf_config strings --------------===*
 *
 * See perf_config.h for the accepted forms.
 *
 *===----------------------------------------------------------------------===*/
#include "perf_config.h"
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { MAX_FIELDS = 64 };

/* Larger tiles are refused: the lowering allocates tile-sized buffers. */
#define MAX_TILE 65536

/* Strips `prefix` from the front of [*s, *s + *n); returns whether it was
 * there. */
static bool eat(const char **s, size_t *n, const char *prefix) {
  size_t k = strlen(prefix);
  if (*n < k || memcmp(*s, prefix, k) != 0)
    return false;
  *s += k;
  *n -= k;
  return true;
}

/* Splits [s, s + n) at commas into decimal integers (optional sign). Returns
 * the field count, or -1 for an empty or non-integer field or more than
 * `max` fields. */
static int splitInts(const char *s, size_t n, int64_t *vals, int max) {
  int count = 0;
  size_t pos = 0;
  for (;;) {
    size_t end = pos;
    while (end < n && s[end] != ',')
      ++end;
    size_t i = pos;
    bool neg = i < end && (s[i] == '-' || s[i] == '+') ? s[i++] == '-' : false;
    if (i == end || count == max)
      return -1;
    int64_t v = 0;
    for (; i < end; ++i) {
      if (s[i] < '0' || s[i] > '9' || v > (INT64_MAX - 9) / 10)
        return -1;
      v = v * 10 + (s[i] - '0');
    }
    vals[count++] = neg ? -v : v;
    if (end == n)
      return count;
    pos = end + 1;
  }
}

bool rockPerfConfigParse(const char *s, size_t len, RockPerfConfig *out,
                         char *err, size_t errLen) {
  const char *p = s;
  size_t n = len;
  int ver = eat(&p, &n, "attn:v3:")   ? 3
            : eat(&p, &n, "attn:v2:") ? 2
            : eat(&p, &n, "attn:v1:") ? 1
                                      : 0;
  if (ver == 0 && !eat(&p, &n, "v2:") && !eat(&p, &n, "v1:") &&
      !(n > 0 && p[0] >= '0' && p[0] <= '9'))
    return rock__fail(
        err, errLen,
        "invalid perf_config '%.*s': expected attn:v3:, attn:v2:, "
        "attn:v1:, v2:, v1: or a comma-separated list of integers",
        (int)len, s);
  int64_t v[MAX_FIELDS];
  int count = splitInts(p, n, v, MAX_FIELDS);
  if (count < 0)
    return rock__fail(
        err, errLen,
        "invalid perf_config '%.*s': fields must be comma-separated "
        "integers",
        (int)len, s);
  if (ver == 3 && count != 12 && count != 13)
    return rock__fail(
        err, errLen,
        "invalid perf_config '%.*s': attn:v3 needs 12 or 13 integers, "
        "got %d",
        (int)len, s, count);
  int need = ver ? 3 : 2;
  if (count < need)
    return rock__fail(
        err, errLen,
        "invalid perf_config '%.*s': needs at least %d integers, got "
        "%d",
        (int)len, s, need, count);
  int nField = ver ? 2 : 1;
  const char *mName = ver ? "mPerBlockG0" : "mPerBlock";
  const char *nName = ver ? "nPerBlockG0" : "nPerBlock";
  const int fields[2] = {0, nField};
  const char *const names[2] = {mName, nName};
  for (int i = 0; i < 2; ++i)
    if (v[fields[i]] <= 0 || v[fields[i]] > MAX_TILE)
      return rock__fail(
          err, errLen,
          "invalid perf_config '%.*s': %s must be in [1, %d], got "
          "%lld",
          (int)len, s, names[i], MAX_TILE, (long long)v[fields[i]]);
  out->version = ver;
  out->numFields = count;
  out->mPerBlock = v[0];
  out->nPerBlock = v[nField];
  out->mPerWave = ver >= 2 && count >= 6 ? v[4] : 0;
  out->nPerWave = ver >= 2 && count >= 6 ? v[5] : 0;
  return true;
}
