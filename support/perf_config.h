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
 * rock's own fields (docs/tuning.md): an `attn:v3:` string may end in
 * `:rock:` and a comma-separated list of `name=value` fields, e.g.
 * `attn:v3:64,64,16,8,16,16,16,4,1,1,2,0,1:rock:keys=8,stages=2,split=4`.
 * Each names one schedule knob of the lowering (rockPerfKnobs below: its
 * range and the attribute rock-attention-to-gridwise sets from it, the one
 * place a knob is mapped); a knob not given keeps the lowering's own choice.
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

/// rock's schedule knobs (the `:rock:` fields), in table order.
typedef enum RockPerfKnob {
  ROCK_KNOB_PATH,       ///< path=simt|tc: SIMT or tensor-core schedule (GPU)
  ROCK_KNOB_KEYS,       ///< keys=N: keys per lane group per tile (GPU SIMT)
  ROCK_KNOB_LANES,      ///< lanes=N: fewest lanes per key row (GPU SIMT)
  ROCK_KNOB_STAGES,     ///< stages=N: key tiles of loads in flight (GPU SIMT)
  ROCK_KNOB_SPLIT,      ///< split=N: internal key partitions (every target)
  ROCK_KNOB_WGMMA,      ///< wgmma=0|1: the warpgroup-MMA prefill (sm_90) or
                        ///< mma.sync
  ROCK_KNOB_PRODUCER,   ///< producer=0|1: its producer warpgroup (sm_90)
  ROCK_KNOB_PINGPONG,   ///< pingpong=0|1: its consumer ping-pong (sm_90)
  ROCK_KNOB_SWIZZLE128, ///< swizzle128=0|1: its 128-byte swizzle (sm_90)
  ROCK_KNOB_L2,    ///< l2=N: key tiles ahead prefetched to L2 (tensor cores)
  ROCK_KNOB_TMA,   ///< tma=0|1: its K / V staged by TMA (sm_90)
  ROCK_KNOB_WIDE,  ///< wide=0|1: its producer form above head dim 128
  ROCK_KNOB_WKEYS, ///< wkeys=N: its key tile (0: the rule; sm_90)
  ROCK_KNOB_CONSUMERS, ///< consumers=N: its consumer warpgroups at most
  ROCK_KNOB_OVL,      ///< ovl=0|1: K and V copies in flight together (mma.sync)
  ROCK_KNOB_PAGES,    ///< pages=0|1: paged K / V staged by page runs (mma.sync)
  ROCK_KNOB_KVSTAGES, ///< kvstages=2..6: K / V tiles staged at once (mma.sync)
  ROCK_KNOB_KTPAIRS,  ///< ktpairs=0|1: K^T tiles staged two at once (mma.sync)
  ROCK_KNOB_KWARPS,   ///< kwarps=1|2|4: key warps on one decode partition
  ROCK_KNOB_WGSTAGES, ///< wgstages=2..4: its K / V stages (sm_90 wgmma)
  ROCK_KNOB_COUNT
} RockPerfKnob;

/// One knob: its field name, the attribute the lowering reads, its range.
typedef struct RockPerfKnobInfo {
  const char *name; ///< field name in the perf_config, e.g. "keys"
  const char *attr; ///< attribute set on rock.gridwise_attention
  bool boolAttr;    ///< the attribute is a bool (value 0 / 1), else an i64
  int64_t lo, hi;   ///< accepted values
  bool pow2;        ///< values must be powers of two
  /// Spellings of the values lo..hi (NULL: decimal integers).
  const char *const *words;
  const char *help; ///< one line for docs and diagnostics
} RockPerfKnobInfo;

/// The knob table (ROCK_KNOB_COUNT entries, static).
extern const RockPerfKnobInfo rockPerfKnobs[ROCK_KNOB_COUNT];

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
  /// The `:rock:` fields: knob[k] is the value given for knob k, or -1.
  int64_t knob[ROCK_KNOB_COUNT];
} RockPerfConfig;

/// Parses the `len` bytes at `s` (borrowed; need not be NUL-terminated) into
/// *out. Returns true on success. On failure returns false and writes one
/// lower-case NUL-terminated message naming the string into `err` (`errLen`
/// bytes, truncated; `err` may be NULL when `errLen` is 0).
bool rockPerfConfigParse(const char *s, size_t len, RockPerfConfig *out,
                         char *err, size_t errLen);

/// Writes knob `k`'s value `v` as the perf_config spells it ("simt", "8")
/// into `buf` (`len` bytes, NUL-terminated, truncated).
void rockPerfKnobFormat(RockPerfKnob k, int64_t v, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
