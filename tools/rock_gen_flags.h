//===- rock_gen_flags.h - rock-gen's flags, parsed into one struct -*- C
//-*-===//
//
// rock-gen's command line: rocmlir-gen's attention flags (current and older
// spellings, docs/rocmlir-compat.md) read into RockGenArgs by the table in
// rock_gen_flags.c, which also prints `--help`. What several flags decide
// together (defaults of -p, the verifier, look-back windows, the notes for
// a target) is applied afterwards by tools/rock_gen.c. Private to rock-gen.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_TOOLS_ROCK_GEN_FLAGS_H
#define ROCK_TOOLS_ROCK_GEN_FLAGS_H

#include "rock-c/Attention.h"

#include <stdbool.h>
#include <stdint.h>

/// Options with no effect on the target: one note each per run on stderr
/// ("rock-gen: note: ..."); tools/rock_gen.c holds their texts.
typedef enum RockGenNote {
  ROCK_GEN_NOTE_SCHEDULE,
  ROCK_GEN_NOTE_NUM_CU,
  ROCK_GEN_NOTE_CHIPLETS,
  ROCK_GEN_NOTE_DIRECT_TO_LDS,
  ROCK_GEN_NOTE_FEATURE,
  ROCK_GEN_NOTE_FEATURE_AMD,
  ROCK_GEN_NOTE_DIRECT_TO_LDS_NV,
  ROCK_GEN_NOTE_X2,
  ROCK_GEN_NOTE_PERF_FIELDS,
  ROCK_GEN_NOTE_PERF_GPU,
  ROCK_GEN_NOTE_PV_GPU,
  ROCK_GEN_NOTE_WGMMA,
  ROCK_GEN_NOTE_COUNT,
} RockGenNote;

/// What the rocmlir-gen compatibility flags asked for, applied after the
/// flags are read.
typedef struct RockGenCompat {
  unsigned notes;         ///< One bit per RockGenNote.
  bool hasCausalOffset;   ///< `-causal=N` with N other than 0 and 1.
  int64_t causalOffset;   ///< N.
  int64_t windowLookBack; ///< `-sliding_window_look_back`, -1 = unset.
  int64_t causalLookBack; ///< `-causal_look_back`, -1 = unset.
  int64_t numCu;          ///< `-num_cu` (64, rocmlir-gen's default).
  bool hasNumCu;          ///< `-num_cu` given.
  bool directToLds;       ///< `-direct_to_lds_32b` / `_128b` on.
  /// The feature toggles, in order mfma, dot, atomic_add, atomic_fmax_f32,
  /// wmma: 0 infer, 1 on, 2 off.
  unsigned char toggle[5];
  /// `-wgmma`: 0 infer, 1 on, 2 off (module attribute rock.gpu_wgmma on
  /// sm_90 / sm_90a: off keeps plain sm_90 PTX).
  unsigned char wgmma;
  bool tuningKey, tuningSpace; ///< `--emit-tuning-key` / `-space`.
  bool tuningSpaceFull;        ///< `--emit-tuning-space` (=full), not =quick.
} RockGenCompat;

enum { ROCK_GEN_MAX_MODULE_ATTRS = 32 };

/// Everything rock-gen's flags set, as given (no defaults applied yet).
typedef struct RockGenArgs {
  RockAttentionConfig cfg; ///< The problem; its lists are malloc'ed.
  RockAttentionHarness h;  ///< The harness.
  RockGenCompat compat;
  const char *operation; ///< `--operation` ("attention").
  const char *verifier;  ///< `--verifier` / `-pv` ("" = not given).
  const char *output;    ///< `-o FILE`, NULL = stdout.
  const char *input;     ///< A module to read (`-` = stdin), NULL = none.
  bool defaultProblem;   ///< `-p`.
  bool hostHarness;      ///< `-ph`: the host functions without verification.
  bool strict;           ///< `-pv-strict` / `-pv_f64`.
  bool help;             ///< `-h` / `--help`.
  const char *perfDb;    ///< `--perf-db FILE` ("none": no DB; NULL: default).
  bool verbose;          ///< `-v`: say where the perf_config came from.
  /// `--module-attr NAME=ATTR`, in order (borrowed from argv): module
  /// attributes rock-gen sets on the module it writes (the lowerings'
  /// schedule switches, docs/gpu.md).
  const char *moduleAttrs[ROCK_GEN_MAX_MODULE_ATTRS];
  int numModuleAttrs;
} RockGenArgs;

/// Prints "rock-gen: error: <fmt...>" on stderr and exits with status 2.
_Noreturn void rock__genDie(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/// Parses argv[1..argc-1] against rock-gen's flag table. Returns the flags
/// read (a static object, reset on each call; its strings borrow argv, and
/// the caller frees cfg.currentSeqLen and cfg.prefixOffset), or NULL after
/// printing `--help` on stdout (argv after the `--help` is not read). Exits
/// through rock__genDie on a bad flag.
RockGenArgs *rock__genParseArgs(int argc, char **argv);

#endif // ROCK_TOOLS_ROCK_GEN_FLAGS_H
