/*===- rock_gen.c - rock-gen: generate attention kernels ------------------===*/
//
// A thin CLI over rock-c/Attention.h with rocmlir-gen's attention flags
// (docs/user-guide.md §2). Prints the module to stdout or `-o FILE`.
// Exit status: 0 on success, 2 on a bad flag or an invalid problem (one line
// "rock-gen: error: ..." on stderr), 1 when the output cannot be written.
//
// main reads the flags against the table in rock_gen_flags.c, then applies
// what several flags decide together (the rocMLIR compatibility rules
// below), lets the C API validate and build the problem, and prints it.
//
//===----------------------------------------------------------------------===//
#include "rock_gen_flags.h"
#include "rock_gen_key.h"

#include "rock-c/Attention.h"
#include "rock-c/Dialect.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Tuning.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// rocMLIR compatibility
//===----------------------------------------------------------------------===//
//
// Flags of current and older rocmlir-gen, with their rocMLIR meaning where
// it exists for rock (docs/rocmlir-compat.md lists them all). Options that
// change nothing on the target are accepted and named once per run on stderr
// ("rock-gen: note: ..."); flags that ask for something rock cannot do are
// errors.

static const char *const noteText[ROCK_GEN_NOTE_COUNT] = {
    [ROCK_GEN_NOTE_SCHEDULE] = "-schedule_version has no effect on %s",
    [ROCK_GEN_NOTE_NUM_CU] = "-num_cu has no effect on %s",
    [ROCK_GEN_NOTE_CHIPLETS] = "-num_chiplets has no effect on %s",
    [ROCK_GEN_NOTE_DIRECT_TO_LDS] =
        "-direct_to_lds_32b / -direct_to_lds_128b have no effect on %s",
    [ROCK_GEN_NOTE_FEATURE] =
        "feature toggles (-mfma, -dot, ...) have no effect on %s",
    [ROCK_GEN_NOTE_FEATURE_AMD] =
        "-dot / -atomic_add / -atomic_fmax_f32 have no effect on %s",
    [ROCK_GEN_NOTE_DIRECT_TO_LDS_NV] =
        ("-direct_to_lds_32b / -direct_to_lds_128b: the tensor-core schedule "
         "always stages K / V with cp.async on %s"),
    [ROCK_GEN_NOTE_X2] = "-x2 has no effect on %s",
    [ROCK_GEN_NOTE_PERF_FIELDS] = "-perf_config fields other than the two tile "
                                  "sizes have no effect on %s",
    [ROCK_GEN_NOTE_PERF_GPU] =
        ("-perf_config fields other than mPerWave / nPerWave and rock's own "
         "have no effect on %s: the GPU schedules choose their own tiles"),
    [ROCK_GEN_NOTE_PV_GPU] = "-pv_with_gpu / --verifier=gpu verify against "
                             "rock's f64 reference on %s",
    [ROCK_GEN_NOTE_WGMMA] =
        "-wgmma has no effect on %s (Hopper's warpgroup MMA: sm_90, sm_90a)",
};

/// `-causal=N`, `-sliding_window_look_back W` as rock's window (keys from
/// min(Sk - 1, currentSeqLen) - W on, docs/semantics.md §3) and
/// `-causal_look_back L` as rock's causal band (keys from i - L on).
static void compatApply(const RockGenCompat *c, RockAttentionConfig *cfg) {
  if (c->hasCausalOffset) {
    if (cfg->numPrefixOffset > 0)
      rock__genDie("-causal=%" PRId64
                   " and -prefix_offset both set the prefix offset",
                   c->causalOffset);
    int64_t *p = malloc(sizeof *p);
    if (!p)
      rock__genDie("out of memory");
    *p = c->causalOffset;
    cfg->prefixOffset = p;
    cfg->numPrefixOffset = 1;
  }
  if (c->windowLookBack > 0) {
    if (cfg->slidingWindowSize > 0 &&
        cfg->slidingWindowSize != c->windowLookBack)
      rock__genDie(
          "-sliding_window_look_back and -sliding_window_size disagree");
    if (cfg->seqLenK > 0 && c->windowLookBack > cfg->seqLenK - 1)
      rock__genDie("sliding_window_look_back must not exceed seq_len_k - 1");
    cfg->slidingWindowSize = c->windowLookBack;
  }
  // With a sliding window (either spelling) but no KV-cache index,
  // rocmlir-gen passes seq_len_k - 1 for every group (the window then looks
  // back from the last key); one value, broadcast to every group, says the
  // same for any G.
  if (cfg->slidingWindowSize > 0 && cfg->numCurrentSeqLen == 0 &&
      cfg->seqLenK > 0) {
    int64_t *p = malloc(sizeof *p);
    if (!p)
      rock__genDie("out of memory");
    *p = cfg->seqLenK - 1;
    cfg->currentSeqLen = p;
    cfg->numCurrentSeqLen = 1;
  }
  int64_t L = c->causalLookBack;
  if (L < 0)
    return;
  if (!cfg->causal)
    rock__genDie("causal_look_back requires -causal");
  if (cfg->numPrefixOffset > 0)
    rock__genDie("causal_look_back is not supported with prefix_offset");
  if (cfg->seqLenQ > 0 && L >= cfg->seqLenQ - 1) {
    fprintf(stderr,
            "rock-gen: warning: causal_look_back (%" PRId64 ") covers the "
            "whole query sequence (seq_len_q %" PRId64 ")\n",
            L, cfg->seqLenQ);
    return;
  }
  if (cfg->seqLenK > 0 && L >= cfg->seqLenK)
    rock__genDie("causal_look_back (%" PRId64
                 ") must be less than seq_len_k (%" PRId64
                 ") unless it also covers seq_len_q (%" PRId64 ")",
                 L, cfg->seqLenK, cfg->seqLenQ);
  cfg->causalLookBack = L;
}

/// The notes of `c` for target `t`: the options that have a meaning on a
/// GPU target lose their note there (docs/rocmlir-compat.md).
static unsigned targetNotes(const RockGenCompat *c, const RockGpuTarget *t) {
  unsigned notes = c->notes;
  if (t->vendor == ROCK_GPU_NONE)
    return notes;
  notes &= ~(1u << ROCK_GEN_NOTE_NUM_CU);
  if (t->smVersion == 90)
    notes &= ~(1u << ROCK_GEN_NOTE_WGMMA);
  if (notes & (1u << ROCK_GEN_NOTE_PERF_FIELDS))
    notes = (notes & ~(1u << ROCK_GEN_NOTE_PERF_FIELDS)) |
            1u << ROCK_GEN_NOTE_PERF_GPU;
  if (c->directToLds && t->vendor == ROCK_GPU_NVIDIA) {
    notes &= ~(1u << ROCK_GEN_NOTE_DIRECT_TO_LDS);
    notes |= 1u << ROCK_GEN_NOTE_DIRECT_TO_LDS_NV;
  }
  if (t->vendor == ROCK_GPU_AMD) {
    notes &= ~(1u << ROCK_GEN_NOTE_FEATURE);
    if (c->toggle[1] || c->toggle[2] || c->toggle[3])
      notes |= 1u << ROCK_GEN_NOTE_FEATURE_AMD;
  }
  return notes;
}

/// Sets `features` (*(MlirAttribute *)data) on every rock.attention.
static MlirWalkResult setFeatures(MlirOperation op, void *data) {
  MlirIdentifier n = mlirOperationGetName(op);
  MlirStringRef s = mlirIdentifierStr(n);
  if (s.length == 14 && !strncmp(s.data, "rock.attention", 14))
    mlirOperationSetAttributeByName(
        op, mlirStringRefCreateFromCString("features"), *(MlirAttribute *)data);
  return MlirWalkResultAdvance;
}

/// Gives the options with a GPU meaning their meaning in `m` for target
/// `t`: `-num_cu N` as the module attribute rock.num_cu (the SMs / CUs the
/// GPU lowering's split fills), the feature toggles on AMD as the
/// `features` of rock.attention (the target's set, each toggle switching
/// its bit; without mfma / wmma the GPU lowering keeps its SIMT schedule).
static void compatAnnotate(MlirModule m, const RockGenCompat *c,
                           const RockGpuTarget *t) {
  if (t->vendor == ROCK_GPU_NONE)
    return;
  MlirContext ctx = mlirModuleGetContext(m);
  MlirOperation mod = mlirModuleGetOperation(m);
  if (c->hasNumCu)
    mlirOperationSetDiscardableAttributeByName(
        mod, mlirStringRefCreateFromCString("rock.num_cu"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), c->numCu));
  if (c->wgmma && t->smVersion == 90)
    mlirOperationSetDiscardableAttributeByName(
        mod, mlirStringRefCreateFromCString("rock.gpu_wgmma"),
        mlirBoolAttrGet(ctx, c->wgmma == 1));
  bool any = false;
  for (int i = 0; i < 5; ++i)
    any |= c->toggle[i] != 0;
  if (t->vendor != ROCK_GPU_AMD || !any)
    return;
  static const uint32_t bit[5] = {ROCK_GEMM_FEATURE_MFMA, ROCK_GEMM_FEATURE_DOT,
                                  ROCK_GEMM_FEATURE_ATOMIC_ADD,
                                  ROCK_GEMM_FEATURE_ATOMIC_FMAX_F32,
                                  ROCK_GEMM_FEATURE_WMMA};
  uint32_t bits = ROCK_GEMM_FEATURE_DOT | ROCK_GEMM_FEATURE_ATOMIC_ADD;
  if (t->accel == ROCK_ACCEL_MFMA)
    bits |= ROCK_GEMM_FEATURE_MFMA | ROCK_GEMM_FEATURE_ATOMIC_FMAX_F32;
  if (t->accel == ROCK_ACCEL_WMMA12)
    bits |= ROCK_GEMM_FEATURE_WMMA;
  for (int i = 0; i < 5; ++i)
    bits = c->toggle[i] == 1   ? bits | bit[i]
           : c->toggle[i] == 2 ? bits & ~bit[i]
                               : bits;
  MlirAttribute f = rockGemmFeaturesAttrGet(ctx, bits);
  mlirOperationWalk(mod, setFeatures, &f, MlirWalkPreOrder);
}

/// Prints the notes of `notes` (one line each) for target `arch`.
static void printNotes(unsigned notes, const char *arch) {
  for (int n = 0; n < ROCK_GEN_NOTE_COUNT; ++n)
    if (notes & (1u << n)) {
      fputs("rock-gen: note: ", stderr);
      fprintf(stderr, noteText[n], arch[0] ? arch : "cpu");
      fputc('\n', stderr);
    }
}

/// The compute units of the tuning key of `a` on `t`: -num_cu, else the
/// GPU target's count, else rocmlir-gen's default (64).
static int64_t tuningNumCu(const RockGenArgs *a, const RockGpuTarget *t) {
  const RockGenCompat *c = &a->compat;
  return c->hasNumCu || t->vendor == ROCK_GPU_NONE ? c->numCu : t->numCu;
}

/// The perf DB rock-gen consults: --perf-db FILE (none: no DB), else
/// $ROCK_PERF_DB (FILE or none; the lit suites set none, so that tests pin
/// the heuristic's kernels), else the one shipped with rock
/// (rockPerfDbDefaultPath; NULL when it is not there).
static const char *perfDb(const RockGenArgs *a) {
  const char *db = a->perfDb ? a->perfDb : getenv("ROCK_PERF_DB");
  if (db && *db)
    return strcmp(db, "none") ? db : NULL;
  return rockPerfDbDefaultPath();
}

/// Without -perf_config, the perf DB's entry for the problem (into `buf`)
/// becomes its perf_config; -v says on stderr which one the kernel takes.
/// A DB that cannot be read or is malformed is one error line, and the
/// heuristic stays (the exit status does not change).
static void resolvePerfConfig(RockGenArgs *a, const RockGpuTarget *t, char *buf,
                              size_t len) {
  const char *db = perfDb(a);
  char err[640];
  RockPerfSource src = rockAttentionResolvePerfConfig(
      &a->cfg, a->h.arch, tuningNumCu(a, t), db, buf, len, err, sizeof err);
  if (err[0])
    fprintf(stderr, "rock-gen: error: %s; the heuristic is used\n", err);
  if (src == ROCK_PERF_FROM_DB)
    a->cfg.perfConfig = buf;
  if (!a->verbose)
    return;
  if (src == ROCK_PERF_GIVEN)
    fprintf(stderr, "rock-gen: perf_config %s (given)\n", buf);
  else if (src == ROCK_PERF_FROM_DB)
    fprintf(stderr, "rock-gen: perf_config %s from perf DB %s\n", buf, db);
  else if (!db || err[0])
    fprintf(stderr, "rock-gen: no perf_config: the heuristic (%s)\n",
            err[0] ? "perf DB unreadable" : "no perf DB");
  else
    fprintf(stderr,
            "rock-gen: no perf_config: the heuristic (perf DB %s has no "
            "entry for this problem)\n",
            db);
}

/// --emit-tuning-space's line for one config; with -v its schedule too,
/// and first the heuristic's schedule as a comment.
static void printSpaceEntry(const char *perfConfig, const char *schedule,
                            void *user) {
  bool verbose = *(const bool *)user;
  if (!perfConfig) {
    if (verbose)
      printf("# heuristic: %s\n", schedule);
    return;
  }
  if (verbose)
    printf("%s\t%s\n", perfConfig, schedule);
  else
    printf("%s\n", perfConfig);
}

/// `--emit-tuning-space` / `--emit-tuning-key` for `a` on target `t`.
/// Returns the exit status.
static int printTuning(const RockGenArgs *a, const RockGpuTarget *t) {
  int64_t numCu = tuningNumCu(a, t);
  if (a->compat.tuningKey) {
    rock__genPrintKey(&a->cfg, a->h.arch, numCu, a->compat.causalLookBack);
    return 0;
  }
  MlirContext ctx = mlirContextCreate();
  char err[512];
  bool verbose = a->verbose;
  int64_t n = rockAttentionTuningSpace(
      ctx, &a->cfg, a->h.arch, numCu,
      a->compat.tuningSpaceFull ? ROCK_TUNING_FULL : ROCK_TUNING_QUICK,
      printSpaceEntry, &verbose, err, sizeof err);
  mlirContextDestroy(ctx);
  if (n < 0) {
    fprintf(stderr, "rock-gen: error: %s\n", err);
    return 2;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static void printToFile(MlirStringRef str, void *userData) {
  fwrite(str.data, 1, str.length, (FILE *)userData);
}

/// Prints error diagnostics as single "rock-gen: error:" lines.
static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
    fputs("rock-gen: error: ", stderr);
    mlirDiagnosticPrint(d, printToFile, stderr);
    fputc('\n', stderr);
  }
  return mlirLogicalResultSuccess();
}

/// Applies what several flags decide together to `a`: -p's default sizes,
/// the verifier, the comparator -atol / -rtol ask for, and the rocMLIR
/// compatibility rules.
static void resolveArgs(RockGenArgs *a) {
  RockAttentionConfig *cfg = &a->cfg;
  if (strcmp(a->operation, "attention"))
    rock__genDie("unsupported operation '%s'", a->operation);
  if (a->defaultProblem) {
    if (cfg->seqLenQ == -1)
      cfg->seqLenQ = 1024;
    if (cfg->seqLenK == -1 &&
        !(cfg->paged && cfg->numPages > 0 && cfg->pageSize > 0))
      cfg->seqLenK = 1024;
    if (cfg->headDimQK == -1)
      cfg->headDimQK = 32;
    if (cfg->headDimV == -1)
      cfg->headDimV = 32;
  }
  if (a->strict)
    a->h.verifier = "mlir-strict";
  else if (!strcmp(a->verifier, "cpu") || !strcmp(a->verifier, "mlir"))
    a->h.verifier = "mlir";
  else if (a->verifier[0])
    a->h.verifier = a->verifier;
  if (a->h.hasAtol || a->h.hasRtol)
    a->h.comparator = "allclose";
  /* -ph, or any verification: rocmlir-gen's host functions as well. */
  a->h.hostFunctions =
      a->hostHarness || (a->h.verifier && strcmp(a->h.verifier, "none"));
  compatApply(&a->compat, cfg);
  if (cfg->perfConfig && cfg->perfConfig[0])
    a->compat.notes |= 1u << ROCK_GEN_NOTE_PERF_FIELDS;
}

/// `--module-attr NAME=ATTR` (checked by the flag parser): sets the
/// discardable attribute NAME of `m` to ATTR in MLIR's syntax (`false`, `8`).
static void setModuleAttr(MlirModule m, const char *spec) {
  const char *eq = strchr(spec, '=');
  size_t n = (size_t)(eq - spec);
  MlirAttribute at = mlirAttributeParseGet(
      mlirModuleGetContext(m), mlirStringRefCreateFromCString(eq + 1));
  if (mlirAttributeIsNull(at))
    rock__genDie("--module-attr: cannot parse '%s' as an attribute (for %.*s)",
                 eq + 1, (int)n, spec);
  mlirOperationSetDiscardableAttributeByName(mlirModuleGetOperation(m),
                                             (MlirStringRef){spec, n}, at);
}

/// Builds the module for `a` on target `t` and prints it to `-o` or stdout.
/// Returns the exit status.
static int writeModule(const RockGenArgs *a, const RockGpuTarget *t) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  MlirModule module = rockAttentionBuildModuleWithHarness(ctx, &a->cfg, &a->h);
  int rc = 0;
  if (mlirModuleIsNull(module)) {
    rc = 2;
  } else {
    compatAnnotate(module, &a->compat, t);
    for (int i = 0; i < a->numModuleAttrs; ++i)
      setModuleAttr(module, a->moduleAttrs[i]);
    FILE *f = a->output ? fopen(a->output, "w") : stdout;
    if (!f) {
      fprintf(stderr, "rock-gen: error: cannot open '%s': %s\n", a->output,
              strerror(errno));
      rc = 1;
    } else {
      mlirOperationPrint(mlirModuleGetOperation(module), printToFile, f);
      fputc('\n', f);
      if (fflush(f) || (a->output && fclose(f))) {
        fprintf(stderr, "rock-gen: error: cannot write the output\n");
        rc = 1;
      }
    }
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  return rc;
}

int main(int argc, char **argv) {
  RockGenArgs *a = rock__genParseArgs(argc, argv);
  if (!a)
    return 0; // --help
  if (a->input) {
    if (!a->compat.tuningKey)
      rock__genDie("an input module ('%s') is read only with "
                   "--emit-tuning-key",
                   a->input);
    rock__genKeyFromModule(a->input, a->h.arch, a->compat.numCu,
                           a->compat.hasNumCu);
    return 0;
  }
  resolveArgs(a);
  char err[512];
  if (!rockAttentionConfigValidate(&a->cfg, err, sizeof err))
    rock__genDie("%s", err);
  RockGpuTarget target = {0};
  if (!rockGpuTargetParse(a->h.arch, &target, err, sizeof err))
    rock__genDie("%s", err);
  int rc = 0;
  char fromDb[512];
  if (a->compat.tuningSpace || a->compat.tuningKey) {
    rc = printTuning(a, &target);
  } else {
    printNotes(targetNotes(&a->compat, &target), a->h.arch);
    resolvePerfConfig(a, &target, fromDb, sizeof fromDb);
    rc = writeModule(a, &target);
  }
  free((void *)(uintptr_t)a->cfg.currentSeqLen);
  free((void *)(uintptr_t)a->cfg.prefixOffset);
  return rc;
}
