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

static const char *const pathWords[] = {"simt", "tc"};

const RockPerfKnobInfo rockPerfKnobs[ROCK_KNOB_COUNT] = {
    {"path", "rock.gpu_accel", true, 0, 1, false, pathWords,
     "simt: the SIMT schedule; tc: tensor cores where they apply"},
    {"keys", "rock.gpu_keys_per_group", false, 1, 16, false, NULL,
     "keys per lane group per tile (SIMT schedule)"},
    {"lanes", "rock.gpu_lanes_min", false, 1, 32, true, NULL,
     "fewest lanes per key row (SIMT schedule)"},
    {"stages", "rock.gpu_pipeline_stages", false, 1, 2, false, NULL,
     "key tiles of loads in flight (SIMT schedule)"},
    {"split", "rock.internal_split", false, 1, 1024, false, NULL,
     "internal key partitions of a problem without -split_kv (1: none)"},
    {"wgmma", "rock.gpu_wgmma", true, 0, 1, false, NULL,
     "the warpgroup-MMA prefill schedule (sm_90; 0: mma.sync)"},
    {"producer", "rock.gpu_wgmma_producer", true, 0, 1, false, NULL,
     "the warpgroup-MMA schedule's producer warpgroup (sm_90)"},
    {"pingpong", "rock.gpu_wgmma_pingpong", true, 0, 1, false, NULL,
     "the warpgroup-MMA schedule's consumer ping-pong (sm_90)"},
    {"swizzle128", "rock.gpu_wgmma_swizzle128", true, 0, 1, false, NULL,
     "the warpgroup-MMA schedule's 128-byte swizzled tiles (sm_90)"},
    {"l2", "rock.gpu_accel_l2_prefetch", false, 0, 4, false, NULL,
     "key tiles ahead prefetched to L2 (NVIDIA tensor-core schedule)"},
    {"tma", "rock.gpu_wgmma_tma", true, 0, 1, false, NULL,
     "the warpgroup-MMA schedule's K / V staged by TMA (sm_90, dense)"},
    {"wide", "rock.gpu_wgmma_wide", true, 0, 1, false, NULL,
     "the warpgroup-MMA schedule's producer form above head dim 128 (sm_90)"},
    {"wkeys", "rock.gpu_wgmma_keys", false, 0, 256, false, NULL,
     "the warpgroup-MMA schedule's key tile: 0 (the rule), 64, 128, 192, "
     "256 (sm_90)"},
    {"consumers", "rock.gpu_wgmma_consumers", false, 0, 3, false, NULL,
     "the warpgroup-MMA schedule's consumer warpgroups at most (0: the rule; "
     "sm_90)"},
    {"ovl", "rock.gpu_accel_kv_overlap", true, 0, 1, false, NULL,
     "K(t+1) and V(t) copies in flight together (NVIDIA tensor-core "
     "schedule; the rule: up to 16 queries, not with kvstages above 2)"},
    {"pages", "rock.gpu_accel_page_ahead", true, 0, 1, false, NULL,
     "paged K / V staged by page runs (NVIDIA tensor-core schedule; the "
     "rule: with ovl, pages of 64 keys and more)"},
    {"kvstages", "rock.gpu_accel_stages", false, 2, 6, false, NULL,
     "K / V tiles staged at once (NVIDIA tensor-core schedule; 2: two "
     "buffers, 3-6: a ring of that many slots)"},
    {"ktpairs", "rock.gpu_accel_kt_pairs", true, 0, 1, false, NULL,
     "rocMLIR's default K layout: K^T tiles staged two at once (NVIDIA "
     "tensor-core schedule, without ovl)"},
    {"kwarps", "rock.gpu_accel_key_warps", false, 1, 4, false, NULL,
     "key warps on one partition of a one-warp decode workgroup: 1, 2 or 4 "
     "(NVIDIA tensor-core schedule; the rule: 2 for dense K [keys][d] on "
     "sm_90 and later)"},
    {"wgstages", "rock.gpu_wgmma_stages", false, 2, 4, false, NULL,
     "the warpgroup-MMA schedule's K / V stages in its producer form where "
     "they fit 227 KiB (sm_90; default 2)"},
};

void rockPerfKnobFormat(RockPerfKnob k, int64_t v, char *buf, size_t len) {
  const RockPerfKnobInfo *info = &rockPerfKnobs[k];
  if (info->words && v >= info->lo && v <= info->hi)
    snprintf(buf, len, "%s", info->words[v - info->lo]);
  else
    snprintf(buf, len, "%lld", (long long)v);
}

/* Parses one knob value [v, v + n) of `info` into *out. */
static bool knobValue(const RockPerfKnobInfo *info, const char *v, size_t n,
                      int64_t *out) {
  for (int64_t i = info->lo; info->words && i <= info->hi; ++i)
    if (strlen(info->words[i - info->lo]) == n &&
        !memcmp(info->words[i - info->lo], v, n)) {
      *out = i;
      return true;
    }
  if (info->words || n == 0 || n > 9)
    return false;
  int64_t x = 0;
  for (size_t i = 0; i < n; ++i) {
    if (v[i] < '0' || v[i] > '9')
      return false;
    x = x * 10 + (v[i] - '0');
  }
  *out = x;
  return true;
}

/* Lists the knob names, "path, keys, ..." into buf. */
static void knobNames(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = 0;
  for (int k = 0; k < ROCK_KNOB_COUNT && used < len; ++k)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "",
                             rockPerfKnobs[k].name);
}

/* Parses the `:rock:` fields [s, s + n) (after the prefix) into out->knob;
 * `all`/`allLen` is the whole string, for messages. */
static bool parseKnobs(const char *s, size_t n, const char *all, size_t allLen,
                       RockPerfConfig *out, char *err, size_t errLen) {
  size_t pos = 0;
  for (;;) {
    size_t end = pos;
    while (end < n && s[end] != ',')
      ++end;
    const char *f = s + pos;
    size_t fn = end - pos;
    const char *eq = memchr(f, '=', fn);
    if (!eq)
      return rock__fail(err, errLen,
                        "invalid perf_config '%.*s': rock field '%.*s' is "
                        "not name=value",
                        (int)allLen, all, (int)fn, f);
    size_t nameLen = (size_t)(eq - f);
    int k = 0;
    while (k < ROCK_KNOB_COUNT && (strlen(rockPerfKnobs[k].name) != nameLen ||
                                   memcmp(rockPerfKnobs[k].name, f, nameLen)))
      ++k;
    if (k == ROCK_KNOB_COUNT) {
      char names[256];
      knobNames(names, sizeof names);
      return rock__fail(err, errLen,
                        "invalid perf_config '%.*s': unknown rock field "
                        "'%.*s' (fields: %s)",
                        (int)allLen, all, (int)nameLen, f, names);
    }
    const RockPerfKnobInfo *info = &rockPerfKnobs[k];
    int64_t v = -1;
    bool ok = knobValue(info, eq + 1, fn - nameLen - 1, &v) && v >= info->lo &&
              v <= info->hi && (!info->pow2 || (v & (v - 1)) == 0);
    if (!ok && info->words)
      return rock__fail(err, errLen,
                        "invalid perf_config '%.*s': rock field %s must be "
                        "%s or %s",
                        (int)allLen, all, info->name, info->words[0],
                        info->words[1]);
    if (!ok)
      return rock__fail(err, errLen,
                        "invalid perf_config '%.*s': rock field %s must be "
                        "%san integer in [%lld, %lld], got '%.*s'",
                        (int)allLen, all, info->name,
                        info->pow2 ? "a power of two and " : "",
                        (long long)info->lo, (long long)info->hi,
                        (int)(fn - nameLen - 1), eq + 1);
    if (out->knob[k] >= 0)
      return rock__fail(err, errLen,
                        "invalid perf_config '%.*s': rock field %s given "
                        "twice",
                        (int)allLen, all, info->name);
    out->knob[k] = v;
    if (end == n)
      return true;
    pos = end + 1;
  }
}

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
  /* rock's fields follow the integers of an attn:v3 string. */
  for (int k = 0; k < ROCK_KNOB_COUNT; ++k)
    out->knob[k] = -1;
  const char *colon = memchr(p, ':', n);
  size_t intsLen = colon ? (size_t)(colon - p) : n;
  if (colon) {
    const char *rest = colon;
    size_t restLen = n - intsLen;
    if (ver != 3 || !eat(&rest, &restLen, ":rock:"))
      return rock__fail(err, errLen,
                        "invalid perf_config '%.*s': only attn:v3 strings "
                        "take rock fields, after ':rock:'",
                        (int)len, s);
    if (!parseKnobs(rest, restLen, s, len, out, err, errLen))
      return false;
  }
  n = intsLen;
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
