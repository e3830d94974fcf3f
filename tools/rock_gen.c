/*===- rock_gen.c - rock-gen: generate attention kernels ------------------===*/
//
// A thin CLI over rock-c/Attention.h with rocmlir-gen's attention flags
// (docs/user-guide.md §2). Prints the module to stdout or `-o FILE`.
// Exit status: 0 on success, 2 on a bad flag or an invalid problem (one line
// "rock-gen: error: ..." on stderr), 1 when the output cannot be written.
//
// Why one file of ~940 lines: it is rocmlir-gen's whole flag surface (about
// 120 spellings, current and legacy, in one table), the parsers those flags
// share, and the rocMLIR compatibility rules that read several flags at once
// (look-back windows, -causal=N, notes for options without effect); the
// problem itself is built and validated by the C API. Each tools/*.c is one
// executable, so a second source file would need its own library for one
// tool; the sections below keep the parts apart.
//
//===----------------------------------------------------------------------===//
#include "rock-c/Attention.h"
#include "rock-c/Dialect.h"
#include "rock-c/GpuTarget.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("rock-gen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

//===----------------------------------------------------------------------===//
// Flag table
//===----------------------------------------------------------------------===//

typedef enum FlagId {
  F_OPERATION,
  F_ARCH,
  F_DTYPE,
  F_G,
  F_SEQ_Q,
  F_SEQ_K,
  F_HEAD_QK,
  F_HEAD_V,
  F_HEADS_Q,
  F_HEADS_KV,
  F_CAUSAL,
  F_CUR_SEQ,
  F_PREFIX,
  F_WINDOW,
  F_SPLIT,
  F_LSE,
  F_SCALE,
  F_BIAS,
  F_TQ,
  F_TK,
  F_TV,
  F_TO,
  F_SOFTMAX,
  F_PAGED,
  F_NUM_PAGES,
  F_PAGE_SIZE,
  F_PERF,
  F_SCHEDULE,
  F_REVERSE,
  F_P,
  F_PH,
  F_VERIFIER,
  F_PV,
  F_PV_STRICT,
  F_PV_F64,
  F_PRC,
  F_PR,
  F_PI,
  F_PVR,
  F_RAND,
  F_RAND_TYPE,
  F_RAND_INT_INPUTS,
  F_RAND_MIN,
  F_RAND_MAX,
  F_RAND_MIN_INT,
  F_RAND_MAX_INT,
  F_RAND_SIDE,
  F_RMS,
  F_ABS,
  F_REL,
  F_COMPARATOR,
  F_ATOL,
  F_RTOL,
  F_PRINT_VERIFY,
  F_DEVICE,
  F_REPEATS,
  F_NUM_CU,
  F_CHIPLETS,
  F_DTL32,
  F_DTL128,
  F_DEVICE_MEM,
  F_OUTPUT,
  F_MODULE_ATTR,
  F_HELP,
  // Spellings of current and older rocmlir-gen (see "rocMLIR compatibility").
  F_WINDOW_LOOK_BACK,
  F_CAUSAL_LOOK_BACK,
  F_SEQ_LEN,
  F_HEAD_DIM,
  F_BUFFERIZE,
  F_MFMA,
  F_DOT,
  F_ATOMIC_ADD,
  F_ATOMIC_FMAX,
  F_WMMA,
  F_FUT,
  F_CLONE_HARNESS,
  F_TUNING_KEY,
  F_TUNING_SPACE,
  F_PV_GPU,
  F_PV_CPP,
  F_X2,
} FlagId;

typedef struct Flag {
  const char *names; ///< Space-separated spellings, '-' written as '_'.
  bool isBool;
  FlagId id;
} Flag;

static const Flag flags[] = {
    {"operation", false, F_OPERATION},
    {"arch", false, F_ARCH},
    {"t dtype", false, F_DTYPE},
    {"g groupsize", false, F_G},
    {"seq_len_q", false, F_SEQ_Q},
    {"seq_len_k", false, F_SEQ_K},
    {"head_dim_qk", false, F_HEAD_QK},
    {"head_dim_v", false, F_HEAD_V},
    {"num_heads_q", false, F_HEADS_Q},
    {"num_heads_kv", false, F_HEADS_KV},
    {"causal", true, F_CAUSAL},
    {"current_seq_len last_valid_kv_index", false, F_CUR_SEQ},
    {"prefix_offset", false, F_PREFIX},
    {"sliding_window_size", false, F_WINDOW},
    {"split_kv", false, F_SPLIT},
    {"return_lse", true, F_LSE},
    {"with_attn_scale", true, F_SCALE},
    {"with_attn_bias", true, F_BIAS},
    {"transQ", true, F_TQ},
    {"transK", true, F_TK},
    {"transV", true, F_TV},
    {"transO", true, F_TO},
    {"softmax_dtype", false, F_SOFTMAX},
    {"paged_attention", true, F_PAGED},
    {"num_pages", false, F_NUM_PAGES},
    {"page_size", false, F_PAGE_SIZE},
    {"perf_config", false, F_PERF},
    {"schedule_version", false, F_SCHEDULE},
    {"reverse_grid", true, F_REVERSE},
    {"p", true, F_P},
    {"ph host_harness", true, F_PH},
    {"verifier", false, F_VERIFIER},
    {"pv pv_with_mlir", true, F_PV},
    {"pv_strict", true, F_PV_STRICT},
    {"pv_f64", true, F_PV_F64},
    {"cpu_kernels prc", true, F_PRC},
    {"pr print_results", true, F_PR},
    {"pi print_inputs", true, F_PI},
    {"pvr print_validation_results", true, F_PVR},
    {"rand", false, F_RAND},
    {"rand_type", false, F_RAND_TYPE},
    {"rand_type_int_for_inputs", false, F_RAND_INT_INPUTS},
    {"rand_min", false, F_RAND_MIN},
    {"rand_max", false, F_RAND_MAX},
    {"rand_min_int", false, F_RAND_MIN_INT},
    {"rand_max_int", false, F_RAND_MAX_INT},
    {"rand_side", false, F_RAND_SIDE},
    {"RMS_threshold", false, F_RMS},
    {"absDiff_threshold", false, F_ABS},
    {"relDiff_threshold", false, F_REL},
    {"comparator", false, F_COMPARATOR},
    {"atol", false, F_ATOL},
    {"rtol", false, F_RTOL},
    {"print_verify_results p_verify", false, F_PRINT_VERIFY},
    {"device dev", false, F_DEVICE},
    {"kernel_repeats", false, F_REPEATS},
    {"num_cu", false, F_NUM_CU},
    {"num_chiplets", false, F_CHIPLETS},
    {"direct_to_lds_32b", true, F_DTL32},
    {"direct_to_lds_128b", true, F_DTL128},
    {"device_mem_bytes", false, F_DEVICE_MEM},
    {"o", false, F_OUTPUT},
    {"module_attr", false, F_MODULE_ATTR},
    {"h help", true, F_HELP},
    {"sliding_window_look_back", false, F_WINDOW_LOOK_BACK},
    {"causal_look_back", false, F_CAUSAL_LOOK_BACK},
    {"seq_len", false, F_SEQ_LEN},
    {"head_dim num_heads", false, F_HEAD_DIM},
    {"apply_bufferization_pipeline", true, F_BUFFERIZE},
    {"mfma", false, F_MFMA},
    {"dot", false, F_DOT},
    {"atomic_add", false, F_ATOMIC_ADD},
    {"atomic_fmax_f32", false, F_ATOMIC_FMAX},
    {"wmma", false, F_WMMA},
    {"fut func_under_test", false, F_FUT},
    {"clone_harness", true, F_CLONE_HARNESS},
    {"emit_tuning_key", true, F_TUNING_KEY},
    {"emit_tuning_space", true, F_TUNING_SPACE},
    {"pv_with_gpu", true, F_PV_GPU},
    {"pv_with_cpp", true, F_PV_CPP},
    {"x2", true, F_X2},
};

/// Finds the flag spelled `name` (length `n`, '-' and '_' equivalent).
static const Flag *findFlag(const char *name, size_t n) {
  for (size_t f = 0; f < sizeof flags / sizeof *flags; ++f) {
    const char *s = flags[f].names;
    while (*s) {
      size_t len = strcspn(s, " ");
      if (len == n) {
        size_t i = 0;
        for (; i < n; ++i) {
          char a = name[i] == '-' ? '_' : name[i];
          if (a != s[i])
            break;
        }
        if (i == n)
          return &flags[f];
      }
      s += len;
      while (*s == ' ')
        ++s;
    }
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

static bool parseBool(const char *flag, const char *v) {
  if (!v)
    return true;
  if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE") ||
      !strcmp(v, "1"))
    return true;
  if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE") ||
      !strcmp(v, "0"))
    return false;
  die("invalid boolean '%s' for %s", v, flag);
  return false;
}

/// True when `v` starts like a number as LLVM's option parser reads one: a
/// digit, '.', or '-' (no blanks, no '+'; strtoll/strtod would skip them).
static bool numberStart(const char *v) {
  return (*v >= '0' && *v <= '9') || *v == '-' || *v == '.' ||
         !strncmp(v, "inf", 3) || !strncmp(v, "nan", 3);
}

static int64_t parseInt(const char *flag, const char *v) {
  char *end;
  errno = 0;
  long long r = strtoll(v, &end, 10);
  if (!numberStart(v) || *end || errno)
    die("invalid integer '%s' for %s", v, flag);
  return r;
}

static double parseFloat(const char *flag, const char *v) {
  char *end;
  errno = 0;
  double r = strtod(v, &end);
  if (!numberStart(v) || *end || errno)
    die("invalid number '%s' for %s", v, flag);
  return r;
}

/// A tolerance: a number >= 0 (NaN and negative values would make every
/// comparison fail, or pass, silently).
static double parseTolerance(const char *flag, const char *v) {
  double r = parseFloat(flag, v);
  if (!(r >= 0))
    die("%s must be a non-negative number, got '%s'", flag, v);
  return r;
}

/// Parses a comma-separated integer list into a malloc'ed array.
static int64_t *parseList(const char *flag, const char *v, int64_t *n) {
  size_t cap = 1;
  for (const char *c = v; *c; ++c)
    cap += *c == ',';
  int64_t *r = malloc(cap * sizeof *r);
  if (!r)
    die("out of memory");
  *n = 0;
  const char *c = v;
  for (;;) {
    char *end;
    errno = 0;
    long long x = strtoll(c, &end, 10);
    if (end == c || errno || (*end != ',' && *end != '\0'))
      die("invalid integer list '%s' for %s", v, flag);
    r[(*n)++] = x;
    if (!*end)
      break;
    c = end + 1;
  }
  return r;
}

static bool oneOf(const char *v, const char *const *allowed) {
  for (; *allowed; ++allowed)
    if (!strcmp(v, *allowed))
      return true;
  return false;
}

static RockAttentionDtype parseDtype(const char *flag, const char *v,
                                     bool allowI8) {
  if (!strcmp(v, "f32"))
    return ROCK_ATTENTION_F32;
  if (!strcmp(v, "f16"))
    return ROCK_ATTENTION_F16;
  if (!strcmp(v, "bf16"))
    return ROCK_ATTENTION_BF16;
  if (allowI8 && !strcmp(v, "i8"))
    return ROCK_ATTENTION_I8;
  die("unsupported data type '%s' for %s", v, flag);
  return ROCK_ATTENTION_F32;
}

//===----------------------------------------------------------------------===//
// rocMLIR compatibility
//===----------------------------------------------------------------------===//
//
// Flags of current and older rocmlir-gen, with their rocMLIR meaning where
// it exists for rock (docs/rocmlir-compat.md lists them all). Options that
// change nothing on the target are accepted and named once per run on stderr
// ("rock-gen: note: ..."); flags that ask for something rock cannot do are
// errors.

/// Options with no effect on the target: one note each per run.
typedef enum NoteId {
  NOTE_SCHEDULE,
  NOTE_NUM_CU,
  NOTE_CHIPLETS,
  NOTE_DIRECT_TO_LDS,
  NOTE_FEATURE,
  NOTE_FEATURE_AMD,
  NOTE_DIRECT_TO_LDS_NV,
  NOTE_X2,
  NOTE_PERF_FIELDS,
  NOTE_PERF_GPU,
  NOTE_PV_GPU,
  NOTE_COUNT,
} NoteId;

static const char *const noteText[NOTE_COUNT] = {
    "-schedule_version has no effect on %s",
    "-num_cu has no effect on %s",
    "-num_chiplets has no effect on %s",
    "-direct_to_lds_32b / -direct_to_lds_128b have no effect on %s",
    "feature toggles (-mfma, -dot, ...) have no effect on %s",
    "-dot / -atomic_add / -atomic_fmax_f32 have no effect on %s",
    ("-direct_to_lds_32b / -direct_to_lds_128b: the tensor-core schedule "
     "always stages K / V with cp.async on %s"),
    "-x2 has no effect on %s",
    "-perf_config fields other than the two tile sizes have no effect on %s",
    ("-perf_config fields other than mPerWave / nPerWave have no effect on "
     "%s: the GPU schedules choose their own tiles"),
    "-pv_with_gpu / --verifier=gpu verify against rock's f64 reference on %s",
};

/// What the compatibility flags asked for, applied after the flag loop.
typedef struct Compat {
  unsigned notes;         ///< One bit per NoteId.
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
  bool tuningKey, tuningSpace;
} Compat;

/// Whether `v` is an integer other than 0 and 1: rocmlir-gen's `-causal=N`
/// (causal with prefix offset N for every group).
static bool isCausalOffset(const char *v) {
  if (!v || !strcmp(v, "0") || !strcmp(v, "1"))
    return false;
  const char *c = v + (*v == '-');
  if (!*c)
    return false;
  for (; *c; ++c)
    if (*c < '0' || *c > '9')
      return false;
  return true;
}

/// Parses a look-back distance: -1 (off) or a positive i32 (rocmlir-gen's
/// rules and messages).
static int64_t parseLookBack(const char *arg, const char *name, const char *v) {
  int64_t r = parseInt(arg, v);
  if (r == 0 || r < -1)
    die("%s must be -1 or a positive integer", name);
  if (r > INT32_MAX)
    die("%s must fit in a 32-bit integer", name);
  return r;
}

/// Applies `c` to `cfg` once every flag is read: the prefix offset of
/// `-causal=N`, `-sliding_window_look_back W` as rock's window (keys from
/// min(Sk - 1, currentSeqLen) - W on, docs/semantics.md §3) and
/// `-causal_look_back L` as rock's causal band (keys from i - L on).
static void compatApply(const Compat *c, RockAttentionConfig *cfg) {
  if (c->hasCausalOffset) {
    if (cfg->numPrefixOffset > 0)
      die("-causal=%" PRId64 " and -prefix_offset both set the prefix offset",
          c->causalOffset);
    int64_t *p = malloc(sizeof *p);
    if (!p)
      die("out of memory");
    *p = c->causalOffset;
    cfg->prefixOffset = p;
    cfg->numPrefixOffset = 1;
  }
  if (c->windowLookBack > 0) {
    if (cfg->slidingWindowSize > 0 &&
        cfg->slidingWindowSize != c->windowLookBack)
      die("-sliding_window_look_back and -sliding_window_size disagree");
    if (cfg->seqLenK > 0 && c->windowLookBack > cfg->seqLenK - 1)
      die("sliding_window_look_back must not exceed seq_len_k - 1");
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
      die("out of memory");
    *p = cfg->seqLenK - 1;
    cfg->currentSeqLen = p;
    cfg->numCurrentSeqLen = 1;
  }
  int64_t L = c->causalLookBack;
  if (L < 0)
    return;
  if (!cfg->causal)
    die("causal_look_back requires -causal");
  if (cfg->numPrefixOffset > 0)
    die("causal_look_back is not supported with prefix_offset");
  if (cfg->seqLenQ > 0 && L >= cfg->seqLenQ - 1) {
    fprintf(stderr,
            "rock-gen: warning: causal_look_back (%" PRId64 ") covers the "
            "whole query sequence (seq_len_q %" PRId64 ")\n",
            L, cfg->seqLenQ);
    return;
  }
  if (cfg->seqLenK > 0 && L >= cfg->seqLenK)
    die("causal_look_back (%" PRId64 ") must be less than seq_len_k (%" PRId64
        ") unless it also covers seq_len_q (%" PRId64 ")",
        L, cfg->seqLenK, cfg->seqLenQ);
  cfg->causalLookBack = L;
}

/// The notes of `c` for target `t`: the options that have a meaning on a
/// GPU target lose their note there (docs/rocmlir-compat.md).
static unsigned targetNotes(const Compat *c, const RockGpuTarget *t) {
  unsigned notes = c->notes;
  if (t->vendor == ROCK_GPU_NONE)
    return notes;
  notes &= ~(1u << NOTE_NUM_CU);
  if (notes & (1u << NOTE_PERF_FIELDS))
    notes = (notes & ~(1u << NOTE_PERF_FIELDS)) | 1u << NOTE_PERF_GPU;
  if (c->directToLds && t->vendor == ROCK_GPU_NVIDIA) {
    notes &= ~(1u << NOTE_DIRECT_TO_LDS);
    notes |= 1u << NOTE_DIRECT_TO_LDS_NV;
  }
  if (t->vendor == ROCK_GPU_AMD) {
    notes &= ~(1u << NOTE_FEATURE);
    if (c->toggle[1] || c->toggle[2] || c->toggle[3])
      notes |= 1u << NOTE_FEATURE_AMD;
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
static void compatAnnotate(MlirModule m, const Compat *c,
                           const RockGpuTarget *t) {
  if (t->vendor == ROCK_GPU_NONE)
    return;
  MlirContext ctx = mlirModuleGetContext(m);
  MlirOperation mod = mlirModuleGetOperation(m);
  if (c->hasNumCu)
    mlirOperationSetDiscardableAttributeByName(
        mod, mlirStringRefCreateFromCString("rock.num_cu"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), c->numCu));
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
  for (int n = 0; n < NOTE_COUNT; ++n)
    if (notes & (1u << n)) {
      fputs("rock-gen: note: ", stderr);
      fprintf(stderr, noteText[n], arch[0] ? arch : "cpu");
      fputc('\n', stderr);
    }
}

static const char *tf(bool b) { return b ? "true" : "false"; }

/// `--emit-tuning-key`: rocmlir-gen's layout, the target, its compute-unit
/// count (`-num_cu`; else the GPU target's, or rocmlir-gen's default 64) and
/// the problem as one line of flags, tab-separated.
static void printTuningKey(const RockAttentionConfig *cfg, const char *arch,
                           int64_t numCu, int64_t lookBack) {
  printf("%s\t%" PRId64 "\t", arch[0] ? arch : "cpu", numCu);
  printf("-t %s -transQ %s -transK %s -transV %s -transO %s -g %" PRId64
         " -seq_len_q %" PRId64 " -seq_len_k %" PRId64 " -head_dim_qk %" PRId64
         " -head_dim_v %" PRId64
         " -causal %s -return_lse %s -split_kv %" PRId64,
         rockAttentionDtypeGetName(cfg->dtype), tf(cfg->transQ),
         tf(cfg->transK), tf(cfg->transV), tf(cfg->transO), cfg->g,
         cfg->seqLenQ, cfg->seqLenK, cfg->headDimQK, cfg->headDimV,
         tf(cfg->causal), tf(cfg->returnLse), cfg->splitKV);
  if (lookBack >= 0)
    printf(" -causal_look_back %" PRId64, lookBack);
  printf(" -num_heads_q %" PRId64 " -num_heads_kv %" PRId64 "\n",
         cfg->numHeadsQ, cfg->numHeadsKV);
}

/// `--emit-tuning-space`: the perf configs rock's CPU lowering tells apart
/// (keys per tile x query rows per tile; the other fields are ignored).
static void printTuningSpace(void) {
  static const int mb[] = {16, 32, 64, 128};
  static const int nb[] = {16, 32, 64, 128, 256};
  for (size_t i = 0; i < sizeof mb / sizeof *mb; ++i)
    for (size_t j = 0; j < sizeof nb / sizeof *nb; ++j)
      printf("attn:v3:%d,%d,%d,8,32,32,16,4,1,1,0,0,1\n", mb[i], mb[i], nb[j]);
}

enum { MAX_MODULE_ATTRS = 32 };

/// `--module-attr NAME=ATTR`: sets the discardable attribute NAME (rock.*)
/// of module `m` to ATTR in MLIR's syntax (`false`, `8`, `8 : i64`); the
/// schedule switches of the lowerings are read from there (docs/gpu.md).
static void setModuleAttr(MlirModule m, const char *spec) {
  const char *eq = strchr(spec, '=');
  size_t n = eq ? (size_t)(eq - spec) : 0;
  if (!eq || n <= 5 || strncmp(spec, "rock.", 5))
    die("--module-attr takes NAME=ATTR with NAME rock.<name>, got '%s'", spec);
  for (size_t i = 5; i < n; ++i)
    if (!isalnum((unsigned char)spec[i]) && spec[i] != '_' && spec[i] != '.')
      die("--module-attr: invalid attribute name '%.*s'", (int)n, spec);
  MlirContext ctx = mlirModuleGetContext(m);
  MlirAttribute a =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(eq + 1));
  if (mlirAttributeIsNull(a))
    die("--module-attr: cannot parse '%s' as an attribute (for %.*s)", eq + 1,
        (int)n, spec);
  mlirOperationSetDiscardableAttributeByName(mlirModuleGetOperation(m),
                                             (MlirStringRef){spec, n}, a);
}

static void usage(void) {
  puts(
      "usage: rock-gen --operation attention [flags] [-o FILE]\n"
      "Generates a rock.attention kernel module (docs/user-guide.md §2).\n"
      "Problem: -t f32|f16|bf16|i8 -g N -num_heads_q N -num_heads_kv N\n"
      "  -seq_len_q N -seq_len_k N -head_dim_qk N -head_dim_v N (-p: 1024/32)\n"
      "  -causal -current_seq_len=a,b -prefix_offset=a,b "
      "-sliding_window_size N\n"
      "  -split_kv N -return_lse --with-attn-scale --with-attn-bias\n"
      "  --transQ --transK --transV --transO -softmax_dtype T\n"
      "  --paged-attention --num-pages N --page-size N -perf_config S\n"
      "  --reverse_grid --device-mem-bytes N\n"
      "Harness: -pv -pv-strict --verifier=V -rand R -rand_type T "
      "-rand_min/-rand_max\n"
      "  -rand_min_int/-rand_max_int -RMS_threshold -absDiff_threshold\n"
      "  -relDiff_threshold --comparator -atol -rtol -pr -pi -pvr\n"
      "  --print-verify-results -kernel-repeats N --arch A\n"
      "Schedule switches: --module-attr NAME=ATTR (repeatable; e.g.\n"
      "  rock.gpu_accel=false, rock.gpu_accel_warps=8: docs/gpu.md)\n"
      "rocmlir-gen spellings (docs/rocmlir-compat.md): -last_valid_kv_index,\n"
      "  -sliding_window_look_back, -causal_look_back, -causal=N, -seq_len,\n"
      "  -head_dim, -num_heads, --apply-bufferization-pipeline, -mfma=on|off,\n"
      "  -fut, --clone-harness, -pv_with_gpu, -x2, --emit-tuning-key,\n"
      "  --emit-tuning-space");
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

int main(int argc, char **argv) {
  RockAttentionConfig cfg;
  rockAttentionConfigInit(&cfg);
  RockAttentionHarness h;
  rockAttentionHarnessInit(&h);
  const char *operation = "attention", *verifier = "", *output = NULL;
  bool defaultProblem = false, strict = false, comparatorForced = false;
  static const char *const verifiers[] = {"",     "none",        "cpu",
                                          "mlir", "mlir-strict", NULL};
  static const char *const comparators[] = {"legacy", "allclose", NULL};
  static const char *const verifyPrints[] = {"always", "failure", "summary",
                                             "off", NULL};
  static const char *const randTypes[] = {"int", "float", NULL};
  static const char *const toggles[] = {"infer", "on", "off", NULL};
  Compat compat = {.windowLookBack = -1, .causalLookBack = -1, .numCu = 64};
  const char *moduleAttrs[MAX_MODULE_ATTRS];
  int nModuleAttrs = 0;

  unsigned char seen[sizeof flags / sizeof flags[0]] = {0}; // per entry
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (arg[0] != '-' || arg[1] == '\0')
      die("unexpected argument '%s'", arg);
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    const Flag *f = findFlag(name, n);
    if (!f)
      die("unknown flag '%.*s'", (int)(n + (size_t)(name - arg)), arg);
    // As with rocmlir-gen the last occurrence wins, but never silently.
    if (seen[f - flags]++ && f->id != F_MODULE_ATTR)
      fprintf(stderr,
              "rock-gen: warning: %.*s given more than once; the last "
              "value wins\n",
              (int)(n + (size_t)(name - arg)), arg);
    const char *v = eq ? eq + 1 : NULL;
    if (!f->isBool && !v) {
      if (i + 1 >= argc)
        die("missing value for %s", arg);
      v = argv[++i];
    }
    bool causalN = f->id == F_CAUSAL && isCausalOffset(v);
    // The direct-to-LDS flags are booleans and rocmlir-gen's feature
    // toggles (`=on`, `=off`, `=infer`, as rocMLIR's sweep spells them).
    bool dtlToggle =
        (f->id == F_DTL32 || f->id == F_DTL128) && v && oneOf(v, toggles);
    bool b = dtlToggle               ? !strcmp(v, "on")
             : f->isBool && !causalN ? parseBool(arg, v)
                                     : false;
    switch (f->id) {
    case F_OPERATION:
      operation = v;
      break;
    case F_ARCH:
      h.arch = v;
      break;
    case F_MODULE_ATTR:
      if (nModuleAttrs == MAX_MODULE_ATTRS)
        die("--module-attr given more than %d times", MAX_MODULE_ATTRS);
      moduleAttrs[nModuleAttrs++] = v;
      break;
    case F_DTYPE:
      cfg.dtype = parseDtype(arg, v, true);
      break;
    case F_G:
      cfg.g = parseInt(arg, v);
      break;
    case F_SEQ_Q:
      cfg.seqLenQ = parseInt(arg, v);
      break;
    case F_SEQ_K:
      cfg.seqLenK = parseInt(arg, v);
      break;
    case F_HEAD_QK:
      cfg.headDimQK = parseInt(arg, v);
      break;
    case F_HEAD_V:
      cfg.headDimV = parseInt(arg, v);
      break;
    case F_HEADS_Q:
      cfg.numHeadsQ = parseInt(arg, v);
      break;
    case F_HEADS_KV:
      cfg.numHeadsKV = parseInt(arg, v);
      break;
    case F_CAUSAL:
      cfg.causal = causalN || b;
      compat.hasCausalOffset = causalN;
      if (causalN)
        compat.causalOffset = parseInt(arg, v);
      break;
    case F_CUR_SEQ:
      free((void *)(uintptr_t)cfg.currentSeqLen);
      cfg.currentSeqLen = parseList(arg, v, &cfg.numCurrentSeqLen);
      break;
    case F_PREFIX:
      free((void *)(uintptr_t)cfg.prefixOffset);
      cfg.prefixOffset = parseList(arg, v, &cfg.numPrefixOffset);
      break;
    case F_WINDOW:
      cfg.slidingWindowSize = parseInt(arg, v);
      if (cfg.slidingWindowSize < 0)
        die("-sliding_window_size must not be negative (0 disables it)");
      break;
    case F_SPLIT:
      cfg.splitKV = parseInt(arg, v);
      break;
    case F_LSE:
      cfg.returnLse = b;
      break;
    case F_SCALE:
      cfg.withScale = b;
      break;
    case F_BIAS:
      cfg.withBias = b;
      break;
    case F_TQ:
      cfg.transQ = b;
      break;
    case F_TK:
      cfg.transK = b;
      break;
    case F_TV:
      cfg.transV = b;
      break;
    case F_TO:
      cfg.transO = b;
      break;
    case F_SOFTMAX:
      cfg.softmaxDtype = parseDtype(arg, v, false);
      break;
    case F_PAGED:
      cfg.paged = b;
      break;
    case F_NUM_PAGES:
      cfg.numPages = parseInt(arg, v);
      if (cfg.numPages <= 0)
        die("--num-pages must be positive");
      break;
    case F_PAGE_SIZE:
      cfg.pageSize = parseInt(arg, v);
      if (cfg.pageSize <= 0)
        die("--page-size must be positive");
      break;
    case F_PERF:
      cfg.perfConfig = v;
      break;
    case F_NUM_CU:
      compat.numCu = parseInt(arg, v);
      if (compat.numCu < 1)
        die("-num_cu must be a positive integer");
      compat.hasNumCu = true;
      compat.notes |= 1u << NOTE_NUM_CU;
      break;
    case F_SCHEDULE:
    case F_CHIPLETS:
      (void)parseInt(arg, v);
      compat.notes |=
          1u << (f->id == F_SCHEDULE ? NOTE_SCHEDULE : NOTE_CHIPLETS);
      break;
    case F_REVERSE:
      cfg.reverseGrid = b;
      break;
    case F_P:
      defaultProblem = b;
      break;
    case F_DTL32:
    case F_DTL128:
      if (b)
        compat.notes |= 1u << NOTE_DIRECT_TO_LDS;
      compat.directToLds |= b;
      break;
    case F_PH:
    case F_RAND_SIDE:
    case F_DEVICE:
      break;
    case F_VERIFIER:
      if (!strcmp(v, "clone"))
        die("clone validation is not compatible with kernel generation");
      if (!strcmp(v, "cpp"))
        die("external attention validator is not available");
      if (!strcmp(v, "gpu")) {
        compat.notes |= 1u << NOTE_PV_GPU;
        v = "mlir";
      }
      if (!oneOf(v, verifiers))
        die("unknown verifier '%s'", v);
      verifier = v;
      break;
    case F_PV:
      if (b)
        verifier = "mlir";
      break;
    case F_PV_STRICT:
    case F_PV_F64:
      strict = strict || b;
      break;
    case F_PRC:
      if (b)
        h.printResults = true;
      break;
    case F_PR:
      h.printResults = b;
      break;
    case F_PI:
      h.printInputs = b;
      break;
    case F_PVR:
      h.printValidationResults = b;
      break;
    case F_RAND:
      if (strcmp(v, "fixed") && strcmp(v, "distinct") && strcmp(v, "none") &&
          parseInt(arg, v) < 0)
        die("invalid value '%s' for %s", v, arg);
      h.rand = v;
      break;
    case F_RAND_TYPE:
      if (!oneOf(v, randTypes))
        die("invalid value '%s' for %s (int or float)", v, arg);
      h.randType = v;
      break;
    case F_RAND_INT_INPUTS: {
      int64_t cnt;
      free(parseList(arg, v, &cnt));
      break;
    }
    case F_RAND_MIN:
      h.randMin = parseFloat(arg, v);
      break;
    case F_RAND_MAX:
      h.randMax = parseFloat(arg, v);
      break;
    case F_RAND_MIN_INT:
      h.randMinInt = parseInt(arg, v);
      break;
    case F_RAND_MAX_INT:
      h.randMaxInt = parseInt(arg, v);
      break;
    case F_RMS:
      h.hasRMS = true;
      h.rmsThreshold = parseTolerance(arg, v);
      break;
    case F_ABS:
      h.hasAbsDiff = true;
      h.absDiffThreshold = parseTolerance(arg, v);
      break;
    case F_REL:
      h.hasRelDiff = true;
      h.relDiffThreshold = parseTolerance(arg, v);
      break;
    case F_COMPARATOR:
      if (!oneOf(v, comparators))
        die("invalid value '%s' for %s (legacy or allclose)", v, arg);
      h.comparator = v;
      break;
    case F_ATOL:
      h.hasAtol = comparatorForced = true;
      h.atol = parseTolerance(arg, v);
      break;
    case F_RTOL:
      h.hasRtol = comparatorForced = true;
      h.rtol = parseTolerance(arg, v);
      break;
    case F_PRINT_VERIFY:
      if (!oneOf(v, verifyPrints))
        die("invalid value '%s' for %s (always, failure, summary or off)", v,
            arg);
      h.printVerifyResults = v;
      break;
    case F_REPEATS:
      h.kernelRepeats = parseInt(arg, v);
      if (h.kernelRepeats < 1)
        die("-kernel-repeats must be positive");
      break;
    case F_DEVICE_MEM:
      cfg.deviceMemBytes = parseInt(arg, v);
      if (cfg.deviceMemBytes <= 0)
        die("--device-mem-bytes must be positive");
      break;
    case F_OUTPUT:
      output = v;
      break;
    case F_HELP:
      if (b) {
        usage();
        return 0;
      }
      break;
    case F_WINDOW_LOOK_BACK:
      compat.windowLookBack = parseLookBack(arg, "sliding_window_look_back", v);
      break;
    case F_CAUSAL_LOOK_BACK:
      compat.causalLookBack = parseLookBack(arg, "causal_look_back", v);
      break;
    case F_SEQ_LEN:
      cfg.seqLenQ = cfg.seqLenK = parseInt(arg, v);
      break;
    case F_HEAD_DIM:
      cfg.headDimQK = cfg.headDimV = parseInt(arg, v);
      break;
    case F_BUFFERIZE:
    case F_CLONE_HARNESS:
      break;
    case F_MFMA:
    case F_DOT:
    case F_ATOMIC_ADD:
    case F_ATOMIC_FMAX:
    case F_WMMA:
      if (!oneOf(v, toggles))
        die("invalid value '%s' for %.*s (infer, on or off)", v,
            (int)(n + (size_t)(name - arg)), arg);
      if (strcmp(v, "infer"))
        compat.notes |= 1u << NOTE_FEATURE;
      compat.toggle[f->id - F_MFMA] = !strcmp(v, "on")    ? 1
                                      : !strcmp(v, "off") ? 2
                                                          : 0;
      break;
    case F_FUT:
      if (strcmp(v, "rock_attention"))
        die("-fut '%s': rock-gen generates @rock_attention and reads no "
            "input module",
            v);
      break;
    case F_TUNING_KEY:
      compat.tuningKey = b;
      break;
    case F_TUNING_SPACE:
      compat.tuningSpace = b;
      break;
    case F_PV_GPU:
      if (b) {
        verifier = "mlir";
        compat.notes |= 1u << NOTE_PV_GPU;
      }
      break;
    case F_PV_CPP:
      if (b)
        die("external attention validator is not available");
      break;
    case F_X2:
      if (b)
        compat.notes |= 1u << NOTE_X2;
      break;
    }
  }

  if (strcmp(operation, "attention"))
    die("unsupported operation '%s'", operation);
  if (defaultProblem) {
    if (cfg.seqLenQ == -1)
      cfg.seqLenQ = 1024;
    if (cfg.seqLenK == -1 &&
        !(cfg.paged && cfg.numPages > 0 && cfg.pageSize > 0))
      cfg.seqLenK = 1024;
    if (cfg.headDimQK == -1)
      cfg.headDimQK = 32;
    if (cfg.headDimV == -1)
      cfg.headDimV = 32;
  }
  if (strict)
    h.verifier = "mlir-strict";
  else if (!strcmp(verifier, "cpu") || !strcmp(verifier, "mlir"))
    h.verifier = "mlir";
  else if (verifier[0])
    h.verifier = verifier;
  if (comparatorForced)
    h.comparator = "allclose";
  compatApply(&compat, &cfg);
  if (cfg.perfConfig && cfg.perfConfig[0])
    compat.notes |= 1u << NOTE_PERF_FIELDS;

  char err[512];
  if (!rockAttentionConfigValidate(&cfg, err, sizeof err))
    die("%s", err);
  RockGpuTarget target = {0};
  if (!rockGpuTargetParse(h.arch, &target, err, sizeof err))
    die("%s", err);
  if (compat.tuningSpace || compat.tuningKey) {
    /* Without -num_cu a GPU target's key carries its own CU / SM count. */
    int64_t numCu = compat.hasNumCu || target.vendor == ROCK_GPU_NONE
                        ? compat.numCu
                        : target.numCu;
    if (compat.tuningSpace)
      printTuningSpace();
    else
      printTuningKey(&cfg, h.arch, numCu, compat.causalLookBack);
    free((void *)(uintptr_t)cfg.currentSeqLen);
    free((void *)(uintptr_t)cfg.prefixOffset);
    return 0;
  }
  printNotes(targetNotes(&compat, &target), h.arch);

  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  MlirModule module = rockAttentionBuildModuleWithHarness(ctx, &cfg, &h);
  int rc = 0;
  if (mlirModuleIsNull(module)) {
    rc = 2;
  } else {
    compatAnnotate(module, &compat, &target);
    for (int i = 0; i < nModuleAttrs; ++i)
      setModuleAttr(module, moduleAttrs[i]);
    FILE *f = output ? fopen(output, "w") : stdout;
    if (!f) {
      fprintf(stderr, "rock-gen: error: cannot open '%s': %s\n", output,
              strerror(errno));
      rc = 1;
    } else {
      mlirOperationPrint(mlirModuleGetOperation(module), printToFile, f);
      fputc('\n', f);
      if (fflush(f) || (output && fclose(f))) {
        fprintf(stderr, "rock-gen: error: cannot write the output\n");
        rc = 1;
      }
    }
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  free((void *)(uintptr_t)cfg.currentSeqLen);
  free((void *)(uintptr_t)cfg.prefixOffset);
  return rc;
}
