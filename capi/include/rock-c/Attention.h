//===- Attention.h - building rock.attention kernels from C -------*- C -*-===//
//
// An attention builder an integrator (graph compiler) can call without
// shelling out to rock-gen: a plain configuration struct, its validation
// (every generation error of docs/user-guide.md §2.2 and the split-KV
// guard of docs/semantics.md §5.7) and the construction of the module rock-gen
// prints (docs/internals.md, "rock-gen → rock-run contract").
//
// No function here keeps a pointer it was given beyond the call.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_ATTENTION_H
#define ROCK_C_ATTENTION_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of the attention inputs (`-t`) and of `softmaxType`.
typedef enum RockAttentionDtype {
  ROCK_ATTENTION_F32 = 0,
  ROCK_ATTENTION_F16 = 1,
  ROCK_ATTENTION_BF16 = 2,
  /// i8 Q/K; V, scale, bias and out are f16; adds quantBias i8[1] and
  /// quantScale f16[1] arguments.
  ROCK_ATTENTION_I8 = 3,
} RockAttentionDtype;

/// An attention problem, in rock-gen's terms (docs/user-guide.md §2.1).
/// Initialise it with rockAttentionConfigInit, then set fields. Pointer fields
/// are borrowed: they must stay valid during each call that receives the
/// config.
typedef struct RockAttentionConfig {
  RockAttentionDtype dtype;      ///< `-t` (f32).
  int64_t g;                     ///< `-g`, batch G (1).
  int64_t numHeadsQ, numHeadsKV; ///< Hq, Hkv (1, 1).
  int64_t seqLenQ, seqLenK;      ///< Sq, Sk (-1: unset; paged Sk derivable).
  int64_t headDimQK, headDimV;   ///< Dqk, Dv (-1: unset).
  bool causal;                   ///< `-causal`.
  const int64_t *currentSeqLen;  ///< `-current_seq_len` values (borrowed).
  int64_t numCurrentSeqLen;      ///< 0 (none), 1 (broadcast) or G.
  const int64_t *prefixOffset;   ///< `-prefix_offset` values (borrowed).
  int64_t numPrefixOffset;       ///< 0 (none), 1 (broadcast) or G.
  int64_t splitKV;               ///< `-split_kv` S (1).
  bool returnLse;                ///< `-return_lse`.
  bool withScale, withBias;      ///< `--with-attn-scale`, `--with-attn-bias`.
  bool transQ, transK, transV,
      transO; ///< Layout flags (docs/dialect.md, rock.attention).
  RockAttentionDtype softmaxDtype; ///< `-softmax_dtype` (f32; not i8): the
                                   ///< type the pre-softmax region and the
                                   ///< softmax compute in.
  /// `--rocmlir-region`: rocmlir-gen's region, computing in the element type
  /// (f16 for i8) whatever softmaxDtype says (false).
  bool regionInElementType;
  bool paged;                 ///< `--paged-attention`.
  int64_t numPages, pageSize; ///< Pages per batch, elements per page
                              ///< (-1: unset; one may be derived).
  const char *perfConfig;     ///< `-perf_config` or NULL (borrowed).
  /// A perf DB (docs/tuning.md) the module builders consult when perfConfig
  /// is NULL or "", with the harness's arch and that target's compute
  /// units (rockAttentionResolvePerfConfig, rock-c/Tuning.h); a DB that
  /// cannot be read leaves the heuristic. NULL: none (borrowed).
  const char *perfDb;
  bool reverseGrid;          ///< `--reverse_grid`.
  int64_t slidingWindowSize; ///< W, 0 = unset.
  int64_t causalLookBack;    ///< causal band L, 0 = unset.
  int64_t deviceMemBytes;    ///< `--device-mem-bytes`, 0 = unset.
  /// `-schedule_version N` (0 = unset): recorded on a GPU target's kernel as
  /// rocmlir-gen records it (`rock.schedule_version`); no lowering reads it.
  int64_t scheduleVersion;
  /// `--transBias`: the bias argument is stored [Sk, Sq] per batch head
  /// (rocmlir-gen's); needs withBias (false).
  bool transBias;
} RockAttentionConfig;

/// Harness settings recorded in the `rock.harness` module attribute for
/// rock-run (docs/internals.md). String fields are borrowed; NULL strings
/// take the defaults below. Initialise with rockAttentionHarnessInit.
typedef struct RockAttentionHarness {
  const char *verifier;    ///< "none" | "mlir" | "mlir-strict".
  const char *rand;        ///< "distinct" | "fixed" | "none" | decimal seed.
  const char *randType;    ///< "int" | "float".
  double randMin, randMax; ///< Float range (0, 1).
  int64_t randMinInt, randMaxInt;                        ///< Int range (-5, 5).
  bool hasRMS, hasAbsDiff, hasRelDiff, hasAtol, hasRtol; ///< Given or not.
  double rmsThreshold, absDiffThreshold, relDiffThreshold, atol, rtol;
  const char *comparator; ///< "legacy" | "allclose".
  int64_t kernelRepeats;  ///< 1.
  bool printResults, printInputs, printValidationResults;
  const char *printVerifyResults; ///< "summary" (always/failure/off).
  const char *arch;               ///< "" when not given.
  /// rocmlir-gen's host functions (@host_naive_attention, the kernel
  /// wrapper, @main, the verify functions; rock-gen -ph / -pv): then the
  /// `rock.harness` attribute is on @main, and the module's attributes are
  /// rocmlir-gen's (mhal.arch). false by default.
  bool hostFunctions;
} RockAttentionHarness;

/// Sets `cfg` to rocmlir-gen's defaults (f32, G = Hq = Hkv = S = 1, sizes
/// unset, every flag false, softmax f32, no lists, no perf config).
MLIR_CAPI_EXPORTED void rockAttentionConfigInit(RockAttentionConfig *cfg);

/// Returns the MLIR spelling of `t` ("f32", "f16", "bf16", "i8"), a static
/// string; "f32" for values outside the enum.
MLIR_CAPI_EXPORTED const char *rockAttentionDtypeGetName(RockAttentionDtype t);

/// Sets `h` to rock-gen's harness defaults (verifier "none", rand "distinct",
/// rand_type "int", ranges [0, 1) and [-5, 5), no thresholds, comparator
/// "legacy", one kernel repeat, no printing, print_verify_results "summary",
/// arch "").
MLIR_CAPI_EXPORTED void rockAttentionHarnessInit(RockAttentionHarness *h);

/// Checks `cfg` against every generation rule of docs/user-guide.md §2.2 and
/// the split-KV guard (docs/semantics.md §5.7, reading the ROCK_/ROCMLIR_ env
/// overrides). In paged mode it derives the missing one of numPages, pageSize,
/// seqLenK and writes it into `cfg`. Returns true when valid. On failure
/// returns false and writes one lower-case, NUL-terminated message (no final
/// newline) into `err` (`errLen` bytes, truncated; `err` may be NULL when
/// `errLen` is 0). Emits no diagnostic.
MLIR_CAPI_EXPORTED bool rockAttentionConfigValidate(RockAttentionConfig *cfg,
                                                    char *err, size_t errLen);

/// Builds the rock-gen module for `cfg` with default harness settings; see
/// rockAttentionBuildModuleWithHarness. Borrows `ctx` and `cfg`.
MLIR_CAPI_EXPORTED MlirModule
rockAttentionBuildModule(MlirContext ctx, const RockAttentionConfig *cfg);

/// Builds and verifies the module of docs/internals.md for `cfg` (validated
/// on a copy first): `func.func @rock_attention` with flat memref arguments
/// in docs/user-guide.md §2.3 order, `@rock_attention_combine` when splitKV >
/// 1, the `rock.harness` attribute (from `harness`, or defaults when NULL;
/// on the module, or on @main with `hostFunctions`, which adds rocmlir-gen's
/// host functions) and `rock.device_mem_bytes` when set. Registers and loads
/// the func, arith, memref and rock dialects in `ctx`. Returns a module the
/// caller owns (mlirModuleDestroy). On failure returns a null module after
/// emitting an error diagnostic on `ctx`.
MLIR_CAPI_EXPORTED MlirModule rockAttentionBuildModuleWithHarness(
    MlirContext ctx, const RockAttentionConfig *cfg,
    const RockAttentionHarness *harness);

/// Returns the module text rockAttentionBuildModuleWithHarness parses, as a
/// malloc'ed NUL-terminated string the caller frees with free(), or NULL
/// after emitting an error diagnostic on `ctx` when `cfg` is invalid. The
/// text is not verified. Borrows all arguments.
MLIR_CAPI_EXPORTED char *
rockAttentionBuildModuleText(MlirContext ctx, const RockAttentionConfig *cfg,
                             const RockAttentionHarness *harness);

#ifdef __cplusplus
}
#endif

#endif
