/*===- perf_config.h - rocMLIR attention perf_config strings ----*- C -*-===*
 *
 * The one parser of attention perf_config strings, shared by the rock.attention
 * verifier (dialect/), rockAttentionConfigValidate (capi/) and the tiling of
 * -rock-attention-to-gridwise (passes/). Plain C, no MLIR types.
 *
 * Accepted forms (all rocMLIR has used):
 *  - `attn:v3:` with 12 or 13 integers (the 13th, forceUnroll, is optional);
 *  - `attn:v2:` and `attn:v1:` with at least 3 integers;
 *  - gemm-style lists of older TOMLs: `v2:`, `v1:` or a bare comma list,
 *    with at least 2 integers.
 * In the `attn:` forms field 0 is mPerBlockG0 (keys per tile on the CPU) and
 * field 2 nPerBlockG0 (query rows per tile); in the gemm-style forms they are
 * fields 0 (mPerBlock) and 1 (nPerBlock). Tiles must be in [1, 65536]; any
 * size in it is accepted (tails are handled by the lowering). Other fields
 * are checked to be integers and otherwise not interpreted.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_PERF_CONFIG_H
#define ROCK_SUPPORT_PERF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a perf_config string says about tiling.
typedef struct RockPerfConfig {
  /// 1, 2 or 3 for `attn:vN:`; 0 for the gemm-style forms.
  int version;
  /// Number of comma-separated fields.
  int numFields;
  /// Keys per tile (mPerBlockG0 / mPerBlock), > 0.
  int64_t mPerBlock;
  /// Query rows per tile (nPerBlockG0 / nPerBlock), > 0.
  int64_t nPerBlock;
  /// Keys and query rows per wave (mPerWave, nPerWave: fields 4 and 5 of
  /// `attn:v2:` / `attn:v3:`); 0 when the string has none.
  int64_t mPerWave, nPerWave;
} RockPerfConfig;

/// Parses the `len` bytes at `s` (borrowed; need not be NUL-terminated) into
/// *out. Returns true on success. On failure returns false and writes one
/// lower-case NUL-terminated message naming the string into `err` (`errLen`
/// bytes, truncated; `err` may be NULL when `errLen` is 0).
bool rockPerfConfigParse(const char *s, size_t len, RockPerfConfig *out,
                         char *err, size_t errLen);

#ifdef __cplusplus
}
#endif

#endif
