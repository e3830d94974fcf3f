//===- Tuning.h - tuning keys, perf DBs and tuning spaces --------*- C -*-===//
//
// rock's tuning, as rocMLIR users know it (docs/tuning.md):
//   - the tuning key of a problem: the line `rock-gen --emit-tuning-key`
//     prints (target, compute units, the problem as flags, tab-separated);
//   - the perf DB: a plain TSV file mapping tuning keys to perf_configs,
//     written by rock-tune and read here;
//   - the resolution rock-gen applies: the perf_config given, else the DB's
//     entry for the problem's key, else the lowering's heuristic;
//   - the tuning space: the perf_configs the lowering of a target tells
//     apart for a problem (`rock-gen --emit-tuning-space`).
//
// No function here keeps a pointer it was given beyond the call.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_TUNING_H
#define ROCK_C_TUNING_H

#include "rock-c/Attention.h"

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The compute-unit count of a tuning key for target `arch` when -num_cu is
/// not given: the GPU target's SMs / CUs (132 on sm_90), else rocmlir-gen's
/// default 64 (cpu, unknown chips).
MLIR_CAPI_EXPORTED int64_t rockTuningDefaultNumCu(const char *arch);

/// Writes the tuning key of the validated `cfg` on `arch` ("" = cpu) with
/// `numCu` compute units into `buf` (`len` bytes, NUL-terminated, truncated;
/// no newline): `arch \t numCu \t flags`, with rocmlir-gen's flags first and
/// rock's problem fields after them where they are set (docs/tuning.md).
/// Returns the length of the whole key (as snprintf).
MLIR_CAPI_EXPORTED size_t rockAttentionTuningKey(const RockAttentionConfig *cfg,
                                                 const char *arch,
                                                 int64_t numCu, char *buf,
                                                 size_t len);

/// What a perf DB lookup found.
typedef enum RockPerfDbStatus {
  ROCK_PERF_DB_FOUND = 0,    ///< the key has an entry (the last one wins)
  ROCK_PERF_DB_NO_ENTRY = 1, ///< the DB is valid and lacks the key
  ROCK_PERF_DB_ERROR = 2,    ///< the DB cannot be read or is malformed
} RockPerfDbStatus;

/// Looks `key` (a tuning key, without newline) up in the perf DB at `path`.
/// The whole file is checked: a header line `# arch<TAB>numCUs<TAB>
/// testVector<TAB>perfConfig...`, then rows of the header's column count
/// whose numCUs are integers and whose perfConfigs parse. On FOUND, copies
/// the entry's perf_config into `perfConfig` (`len` bytes). On ERROR writes
/// one line naming the file (and line) into `err` (`errLen` bytes).
MLIR_CAPI_EXPORTED RockPerfDbStatus rockPerfDbLookup(const char *path,
                                                     const char *key,
                                                     char *perfConfig,
                                                     size_t len, char *err,
                                                     size_t errLen);

/// The perf DB shipped with rock: share/rock/perf-db.tsv next to the
/// directory of the running executable (build/bin/../share/rock/), when it
/// exists; else NULL. A static string.
MLIR_CAPI_EXPORTED const char *rockPerfDbDefaultPath(void);

/// Where the perf_config of a problem came from.
typedef enum RockPerfSource {
  ROCK_PERF_GIVEN = 0,     ///< cfg->perfConfig was set
  ROCK_PERF_FROM_DB = 1,   ///< the perf DB's entry for the problem's key
  ROCK_PERF_HEURISTIC = 2, ///< none: the lowering's heuristic chooses
} RockPerfSource;

/// Resolves the perf_config of the validated `cfg` on `arch` with `numCu`
/// compute units: cfg->perfConfig when set; else the entry of the perf DB
/// at `dbPath` (NULL: none) for the problem's key; else the heuristic. On
/// GIVEN and FROM_DB copies the string into `perfConfig` (`len` bytes);
/// on HEURISTIC writes "". When the DB cannot be read or is malformed,
/// returns HEURISTIC with the reason in `err` (else err is ""); the caller
/// reports it.
MLIR_CAPI_EXPORTED RockPerfSource rockAttentionResolvePerfConfig(
    const RockAttentionConfig *cfg, const char *arch, int64_t numCu,
    const char *dbPath, char *perfConfig, size_t len, char *err, size_t errLen);

/// Tuning spaces (docs/tuning.md): `FULL` is every knob combination the
/// space covers, told apart by the lowering; `QUICK` the pruned list.
typedef enum RockTuningSpaceKind {
  ROCK_TUNING_QUICK = 0,
  ROCK_TUNING_FULL = 1,
} RockTuningSpaceKind;

/// Receives one perf_config of a tuning space (borrowed for the call) and
/// the schedule line the lowering derives from it; once first with
/// perfConfig NULL and the heuristic's schedule.
typedef void (*RockTuningSpaceCallback)(const char *perfConfig,
                                        const char *schedule, void *user);

/// Emits the `kind` tuning space of `cfg` (validated) on `arch` ("" = cpu,
/// sm_*, gfx*) with `numCu` compute units: first the heuristic's schedule
/// (perfConfig NULL), then each perf_config whose lowering differs from the
/// ones before it, the one equivalent to the heuristic (same schedule)
/// first when the space has one. Returns the number of perf_configs
/// emitted, or -1 with a one-line reason in `err` when the problem does not
/// lower on the target. `ctx` is borrowed (dialects are loaded into it).
MLIR_CAPI_EXPORTED int64_t rockAttentionTuningSpace(
    MlirContext ctx, const RockAttentionConfig *cfg, const char *arch,
    int64_t numCu, RockTuningSpaceKind kind, RockTuningSpaceCallback emit,
    void *user, char *err, size_t errLen);

#ifdef __cplusplus
}
#endif

#endif
