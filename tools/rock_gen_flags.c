//===- rock_gen_flags.c - rock-gen's flag table and its parser ------------===//
//
// One row per flag: its spellings, how its value is read and where it goes,
// and its part of `--help`. Plain flags store into a field of the parsed
// RockGenArgs; the few with rules of their own name a handler. Rows are in
// `--help` order; rows without help text are accepted but not listed there
// (docs/rocmlir-compat.md lists every spelling).
//
//===----------------------------------------------------------------------===//
#include "rock_gen_flags.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rock__genDie(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("rock-gen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

/// The parsed flags (one rock-gen run; the fuzz target runs many).
static RockGenArgs A;

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
  rock__genDie("invalid boolean '%s' for %s", v, flag);
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
    rock__genDie("invalid integer '%s' for %s", v, flag);
  return r;
}

static double parseFloat(const char *flag, const char *v) {
  char *end;
  errno = 0;
  double r = strtod(v, &end);
  if (!numberStart(v) || *end || errno)
    rock__genDie("invalid number '%s' for %s", v, flag);
  return r;
}

/// A tolerance: a number >= 0 (NaN and negative values would make every
/// comparison fail, or pass, silently).
static double parseTolerance(const char *flag, const char *v) {
  double r = parseFloat(flag, v);
  if (!(r >= 0))
    rock__genDie("%s must be a non-negative number, got '%s'", flag, v);
  return r;
}

/// Parses a comma-separated integer list into a malloc'ed array.
static int64_t *parseList(const char *flag, const char *v, int64_t *n) {
  size_t cap = 1;
  for (const char *c = v; *c; ++c)
    cap += *c == ',';
  int64_t *r = malloc(cap * sizeof *r);
  if (!r)
    rock__genDie("out of memory");
  *n = 0;
  const char *c = v;
  for (;;) {
    char *end;
    errno = 0;
    long long x = strtoll(c, &end, 10);
    if (end == c || errno || (*end != ',' && *end != '\0'))
      rock__genDie("invalid integer list '%s' for %s", v, flag);
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

/// Writes `allowed` as "a, b or c" into `buf`.
static const char *choiceList(const char *const *allowed, char *buf,
                              size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (const char *const *c = allowed; *c; ++c) {
    const char *sep = c == allowed ? "" : c[1] ? ", " : " or ";
    int k = snprintf(buf + len, size - len, "%s%s", sep, *c);
    if (k < 0 || (size_t)k >= size - len)
      break;
    len += (size_t)k;
  }
  return buf;
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
  rock__genDie("unsupported data type '%s' for %s", v, flag);
}

static void note(RockGenNote n) { A.compat.notes |= 1u << n; }

static const char *const toggles[] = {"infer", "on", "off", NULL};

//===----------------------------------------------------------------------===//
// Flags with rules of their own
//===----------------------------------------------------------------------===//
//
// Each gets the argument as written (`arg`, for messages) and its value
// (NULL for a switch given without one).

static void dtypeFlag(const char *arg, const char *v) {
  A.cfg.dtype = parseDtype(arg, v, true);
}

static void softmaxFlag(const char *arg, const char *v) {
  A.cfg.softmaxDtype = parseDtype(arg, v, false);
}

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

/// `-causal`, `-causal=BOOL` or rocmlir-gen's `-causal=N`.
static void causalFlag(const char *arg, const char *v) {
  bool offset = isCausalOffset(v);
  A.cfg.causal = offset || parseBool(arg, v);
  A.compat.hasCausalOffset = offset;
  if (offset)
    A.compat.causalOffset = parseInt(arg, v);
}

static void currentSeqLenFlag(const char *arg, const char *v) {
  free((void *)(uintptr_t)A.cfg.currentSeqLen);
  A.cfg.currentSeqLen = parseList(arg, v, &A.cfg.numCurrentSeqLen);
}

static void prefixOffsetFlag(const char *arg, const char *v) {
  free((void *)(uintptr_t)A.cfg.prefixOffset);
  A.cfg.prefixOffset = parseList(arg, v, &A.cfg.numPrefixOffset);
}

static void windowFlag(const char *arg, const char *v) {
  A.cfg.slidingWindowSize = parseInt(arg, v);
  if (A.cfg.slidingWindowSize < 0)
    rock__genDie("-sliding_window_size must not be negative (0 disables it)");
}

static void pvFlag(const char *arg, const char *v) {
  if (parseBool(arg, v))
    A.verifier = "mlir";
}

static void strictFlag(const char *arg, const char *v) {
  A.strict = parseBool(arg, v) || A.strict;
}

static void verifierFlag(const char *arg, const char *v) {
  (void)arg;
  static const char *const verifiers[] = {"",     "none",        "cpu",
                                          "mlir", "mlir-strict", NULL};
  if (!strcmp(v, "clone"))
    rock__genDie("clone validation is not compatible with kernel generation");
  if (!strcmp(v, "cpp"))
    rock__genDie("external attention validator is not available");
  if (!strcmp(v, "gpu")) {
    note(ROCK_GEN_NOTE_PV_GPU);
    v = "mlir";
  }
  if (!oneOf(v, verifiers))
    rock__genDie("unknown verifier '%s'", v);
  A.verifier = v;
}

/// `-cpu_kernels` / `-prc`: prints the results; never turns printing off.
static void printCpuFlag(const char *arg, const char *v) {
  if (parseBool(arg, v))
    A.h.printResults = true;
}

static void randFlag(const char *arg, const char *v) {
  if (strcmp(v, "fixed") && strcmp(v, "distinct") && strcmp(v, "none") &&
      parseInt(arg, v) < 0)
    rock__genDie("invalid value '%s' for %s", v, arg);
  A.h.rand = v;
}

/// `-rand_type_int_for_inputs`: checked, then ignored.
static void randIntInputsFlag(const char *arg, const char *v) {
  int64_t n;
  free(parseList(arg, v, &n));
}

/// Parses a look-back distance: -1 (off) or a positive i32 (rocmlir-gen's
/// rules and messages).
static int64_t parseLookBack(const char *arg, const char *name, const char *v) {
  int64_t r = parseInt(arg, v);
  if (r == 0 || r < -1)
    rock__genDie("%s must be -1 or a positive integer", name);
  if (r > INT32_MAX)
    rock__genDie("%s must fit in a 32-bit integer", name);
  return r;
}

static void windowLookBackFlag(const char *arg, const char *v) {
  A.compat.windowLookBack = parseLookBack(arg, "sliding_window_look_back", v);
}

static void causalLookBackFlag(const char *arg, const char *v) {
  A.compat.causalLookBack = parseLookBack(arg, "causal_look_back", v);
}

static void seqLenFlag(const char *arg, const char *v) {
  A.cfg.seqLenQ = A.cfg.seqLenK = parseInt(arg, v);
}

static void headDimFlag(const char *arg, const char *v) {
  A.cfg.headDimQK = A.cfg.headDimV = parseInt(arg, v);
}

static void futFlag(const char *arg, const char *v) {
  (void)arg;
  if (strcmp(v, "rock_attention"))
    rock__genDie("-fut '%s': rock-gen generates @rock_attention and reads no "
                 "input module",
                 v);
}

static void pvGpuFlag(const char *arg, const char *v) {
  if (parseBool(arg, v)) {
    A.verifier = "mlir";
    note(ROCK_GEN_NOTE_PV_GPU);
  }
}

static void pvCppFlag(const char *arg, const char *v) {
  if (parseBool(arg, v))
    rock__genDie("external attention validator is not available");
}

static void x2Flag(const char *arg, const char *v) {
  if (parseBool(arg, v))
    note(ROCK_GEN_NOTE_X2);
}

/// `--emit-tuning-space[=quick|full]` (rocmlir-gen's; `exhaustive` is full).
static void tuningSpaceFlag(const char *arg, const char *v) {
  (void)arg;
  static const char *const kinds[] = {"quick", "full", "exhaustive", NULL};
  if (v && !oneOf(v, kinds))
    rock__genDie("invalid value '%s' for --emit-tuning-space (quick, full or "
                 "exhaustive)",
                 v);
  A.compat.tuningSpace = true;
  A.compat.tuningSpaceFull = !v || strcmp(v, "quick");
}

/// `--module-attr NAME=ATTR`: NAME must be rock.<letters, digits, _ .>; ATTR
/// is parsed when the module is written.
static void moduleAttrFlag(const char *arg, const char *v) {
  (void)arg;
  const char *eq = strchr(v, '=');
  size_t n = eq ? (size_t)(eq - v) : 0;
  if (!eq || n <= 5 || strncmp(v, "rock.", 5))
    rock__genDie(
        "--module-attr takes NAME=ATTR with NAME rock.<name>, got '%s'", v);
  for (size_t i = 5; i < n; ++i)
    if (!isalnum((unsigned char)v[i]) && v[i] != '_' && v[i] != '.')
      rock__genDie("--module-attr: invalid attribute name '%.*s'", (int)n, v);
  if (A.numModuleAttrs == ROCK_GEN_MAX_MODULE_ATTRS)
    rock__genDie("--module-attr given more than %d times",
                 ROCK_GEN_MAX_MODULE_ATTRS);
  A.moduleAttrs[A.numModuleAttrs++] = v;
}

static void numCuFlag(const char *arg, const char *v) {
  A.compat.numCu = parseInt(arg, v);
  if (A.compat.numCu < 1)
    rock__genDie("-num_cu must be a positive integer");
  A.compat.hasNumCu = true;
  note(ROCK_GEN_NOTE_NUM_CU);
}

static void wgmmaFlag(const char *arg, const char *v) {
  (void)arg;
  if (!oneOf(v, toggles))
    rock__genDie("invalid value '%s' for -wgmma (infer, on or off)", v);
  A.compat.wgmma = !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 2 : 0;
  if (A.compat.wgmma)
    note(ROCK_GEN_NOTE_WGMMA);
}

/// `-schedule_version N`: recorded on a GPU kernel as rocmlir-gen does,
/// read by no lowering (the note says so).
static void scheduleFlag(const char *arg, const char *v) {
  A.cfg.scheduleVersion = parseInt(arg, v);
  if (A.cfg.scheduleVersion < 1)
    rock__genDie("%s must be at least 1 (got %lld)", arg,
                 (long long)A.cfg.scheduleVersion);
  note(ROCK_GEN_NOTE_SCHEDULE);
}

static void chipletsFlag(const char *arg, const char *v) {
  (void)parseInt(arg, v);
  note(ROCK_GEN_NOTE_CHIPLETS);
}

/// `-direct_to_lds_32b` / `_128b`: a boolean, or rocmlir-gen's feature
/// toggle (`=on`, `=off`, `=infer`, as rocMLIR's sweep spells them).
static void directToLdsFlag(const char *arg, const char *v) {
  bool on = v && oneOf(v, toggles) ? !strcmp(v, "on") : parseBool(arg, v);
  if (on)
    note(ROCK_GEN_NOTE_DIRECT_TO_LDS);
  A.compat.directToLds |= on;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

typedef enum FlagKind {
  FLAG_BOOL,      ///< `.b`: a switch, or =true/false/1/0.
  FLAG_INT,       ///< `.i`: an integer.
  FLAG_POSITIVE,  ///< `.i`: an integer >= 1.
  FLAG_FLOAT,     ///< `.d`: a number.
  FLAG_TOLERANCE, ///< `.d`: a number >= 0; sets `*has`.
  FLAG_STRING,    ///< `.s`: the value as given.
  FLAG_CHOICE,    ///< `.s`: one of `choices`.
  FLAG_TOGGLE,    ///< `.toggle`: infer, on or off (rocmlir-gen's features).
  FLAG_IGNORED,   ///< Takes a value and ignores it.
  FLAG_SWITCH,    ///< `.handle`: a switch with its own rule.
  FLAG_VALUE,     ///< `.handle`: a value with its own rule.
  FLAG_SECTION,   ///< Not a flag: starts a `--help` section titled `help`.
  FLAG_HELP_ONLY, ///< Not a flag: `help` names a form of another row's flag.
} FlagKind;

typedef void (*FlagHandler)(const char *arg, const char *value);

typedef struct Flag {
  /// Space-separated spellings, '-' written as '_' (NULL: not a flag).
  const char *names;
  /// The flag's part of `--help`: NULL not listed, a leading '\n' starts a
  /// new line. For a FLAG_SECTION, the title.
  const char *help;
  FlagKind kind;
  union {
    bool *b;
    int64_t *i;
    double *d;
    const char **s;
    unsigned char *toggle;
    FlagHandler handle;
    const char *sep; ///< FLAG_SECTION: between the section's parts.
  } to;
  bool *has;                  ///< FLAG_TOLERANCE: set when given.
  const char *const *choices; ///< FLAG_CHOICE: the values, NULL-terminated.
} Flag;

static const char *const randTypes[] = {"int", "float", NULL};
static const char *const comparators[] = {"legacy", "allclose", NULL};
static const char *const verifyPrints[] = {"always", "failure", "summary",
                                           "off", NULL};

static const Flag flags[] = {
    // In the usage line.
    {"operation", NULL, FLAG_STRING, .to.s = &A.operation},
    {"o", NULL, FLAG_STRING, .to.s = &A.output},
    {"h help", NULL, FLAG_BOOL, .to.b = &A.help},

    {NULL, "Problem:", FLAG_SECTION, .to.sep = " "},
    {"t dtype", "-t f32|f16|bf16|i8", FLAG_VALUE, .to.handle = dtypeFlag},
    {"g groupsize", "-g N", FLAG_INT, .to.i = &A.cfg.g},
    {"num_heads_q", "-num_heads_q N", FLAG_INT, .to.i = &A.cfg.numHeadsQ},
    {"num_heads_kv", "-num_heads_kv N", FLAG_INT, .to.i = &A.cfg.numHeadsKV},
    {"seq_len_q", "\n-seq_len_q N", FLAG_INT, .to.i = &A.cfg.seqLenQ},
    {"seq_len_k", "-seq_len_k N", FLAG_INT, .to.i = &A.cfg.seqLenK},
    {"head_dim_qk", "-head_dim_qk N", FLAG_INT, .to.i = &A.cfg.headDimQK},
    {"head_dim_v", "-head_dim_v N", FLAG_INT, .to.i = &A.cfg.headDimV},
    {"p", "(-p: 1024/32)", FLAG_BOOL, .to.b = &A.defaultProblem},
    {"causal", "\n-causal", FLAG_SWITCH, .to.handle = causalFlag},
    {"current_seq_len last_valid_kv_index", "-current_seq_len=a,b", FLAG_VALUE,
     .to.handle = currentSeqLenFlag},
    {"prefix_offset", "-prefix_offset=a,b", FLAG_VALUE,
     .to.handle = prefixOffsetFlag},
    {"sliding_window_size", "-sliding_window_size N", FLAG_VALUE,
     .to.handle = windowFlag},
    {"split_kv", "\n-split_kv N", FLAG_INT, .to.i = &A.cfg.splitKV},
    {"return_lse", "-return_lse", FLAG_BOOL, .to.b = &A.cfg.returnLse},
    {"with_attn_scale", "--with-attn-scale", FLAG_BOOL,
     .to.b = &A.cfg.withScale},
    {"with_attn_bias", "--with-attn-bias", FLAG_BOOL, .to.b = &A.cfg.withBias},
    {"transQ", "\n--transQ", FLAG_BOOL, .to.b = &A.cfg.transQ},
    {"transK", "--transK", FLAG_BOOL, .to.b = &A.cfg.transK},
    {"transV", "--transV", FLAG_BOOL, .to.b = &A.cfg.transV},
    {"transO", "--transO", FLAG_BOOL, .to.b = &A.cfg.transO},
    {"transBias", "--transBias", FLAG_BOOL, .to.b = &A.cfg.transBias},
    {"softmax_dtype", "-softmax_dtype T", FLAG_VALUE, .to.handle = softmaxFlag},
    {"rocmlir_region", "--rocmlir-region", FLAG_BOOL,
     .to.b = &A.cfg.regionInElementType},
    {"paged_attention", "\n--paged-attention", FLAG_BOOL, .to.b = &A.cfg.paged},
    {"num_pages", "--num-pages N", FLAG_POSITIVE, .to.i = &A.cfg.numPages},
    {"page_size", "--page-size N", FLAG_POSITIVE, .to.i = &A.cfg.pageSize},
    {"perf_config", "-perf_config S", FLAG_STRING, .to.s = &A.cfg.perfConfig},
    {"reverse_grid", "\n--reverse_grid", FLAG_BOOL, .to.b = &A.cfg.reverseGrid},
    {"device_mem_bytes", "--device-mem-bytes N", FLAG_POSITIVE,
     .to.i = &A.cfg.deviceMemBytes},

    {NULL, "Harness:", FLAG_SECTION, .to.sep = " "},
    {"pv pv_with_mlir", "-pv", FLAG_SWITCH, .to.handle = pvFlag},
    {"pv_strict", "-pv-strict", FLAG_SWITCH, .to.handle = strictFlag},
    {"pv_f64", NULL, FLAG_SWITCH, .to.handle = strictFlag},
    {"verifier", "--verifier=V", FLAG_VALUE, .to.handle = verifierFlag},
    {"ph host_harness", "-ph", FLAG_BOOL, .to.b = &A.hostHarness},
    {"rand", "-rand R", FLAG_VALUE, .to.handle = randFlag},
    {"rand_type", "-rand_type T", FLAG_CHOICE, .to.s = &A.h.randType,
     .choices = randTypes},
    {"rand_type_int_for_inputs", NULL, FLAG_VALUE,
     .to.handle = randIntInputsFlag},
    {"rand_side", NULL, FLAG_IGNORED, .to.s = NULL},
    {"rand_min", "-rand_min/-rand_max", FLAG_FLOAT, .to.d = &A.h.randMin},
    {"rand_max", NULL, FLAG_FLOAT, .to.d = &A.h.randMax},
    {"rand_min_int", "\n-rand_min_int/-rand_max_int", FLAG_INT,
     .to.i = &A.h.randMinInt},
    {"rand_max_int", NULL, FLAG_INT, .to.i = &A.h.randMaxInt},
    {"RMS_threshold", "-RMS_threshold", FLAG_TOLERANCE,
     .to.d = &A.h.rmsThreshold, .has = &A.h.hasRMS},
    {"absDiff_threshold", "-absDiff_threshold", FLAG_TOLERANCE,
     .to.d = &A.h.absDiffThreshold, .has = &A.h.hasAbsDiff},
    {"relDiff_threshold", "\n-relDiff_threshold", FLAG_TOLERANCE,
     .to.d = &A.h.relDiffThreshold, .has = &A.h.hasRelDiff},
    {"comparator", "--comparator", FLAG_CHOICE, .to.s = &A.h.comparator,
     .choices = comparators},
    {"atol", "-atol", FLAG_TOLERANCE, .to.d = &A.h.atol, .has = &A.h.hasAtol},
    {"rtol", "-rtol", FLAG_TOLERANCE, .to.d = &A.h.rtol, .has = &A.h.hasRtol},
    {"cpu_kernels prc", NULL, FLAG_SWITCH, .to.handle = printCpuFlag},
    {"pr print_results", "-pr", FLAG_BOOL, .to.b = &A.h.printResults},
    {"pi print_inputs", "-pi", FLAG_BOOL, .to.b = &A.h.printInputs},
    {"pvr print_validation_results", "-pvr", FLAG_BOOL,
     .to.b = &A.h.printValidationResults},
    {"print_verify_results p_verify", "\n--print-verify-results", FLAG_CHOICE,
     .to.s = &A.h.printVerifyResults, .choices = verifyPrints},
    {"kernel_repeats", "-kernel-repeats N", FLAG_POSITIVE,
     .to.i = &A.h.kernelRepeats},
    {"device dev", NULL, FLAG_IGNORED, .to.s = NULL},
    {"arch", "--arch A", FLAG_STRING, .to.s = &A.h.arch},

    {NULL, "rocmlir-gen spellings (docs/rocmlir-compat.md):", FLAG_SECTION,
     .to.sep = ", "},
    // Parsed by the current_seq_len row.
    {NULL, "-last_valid_kv_index", FLAG_HELP_ONLY, .to.s = NULL},
    {"sliding_window_look_back", "\n-sliding_window_look_back", FLAG_VALUE,
     .to.handle = windowLookBackFlag},
    {"causal_look_back", "-causal_look_back", FLAG_VALUE,
     .to.handle = causalLookBackFlag},
    // Parsed by the causal row.
    {NULL, "-causal=N", FLAG_HELP_ONLY, .to.s = NULL},
    {"seq_len", "-seq_len", FLAG_VALUE, .to.handle = seqLenFlag},
    {"head_dim num_heads", "\n-head_dim, -num_heads", FLAG_VALUE,
     .to.handle = headDimFlag},
    {"apply_bufferization_pipeline", "--apply-bufferization-pipeline",
     FLAG_BOOL, .to.b = NULL},
    {"mfma", "-mfma=on|off", FLAG_TOGGLE, .to.toggle = &A.compat.toggle[0]},
    {"dot", NULL, FLAG_TOGGLE, .to.toggle = &A.compat.toggle[1]},
    {"atomic_add", NULL, FLAG_TOGGLE, .to.toggle = &A.compat.toggle[2]},
    {"atomic_fmax_f32", NULL, FLAG_TOGGLE, .to.toggle = &A.compat.toggle[3]},
    {"wmma", NULL, FLAG_TOGGLE, .to.toggle = &A.compat.toggle[4]},
    {"fut func_under_test", "\n-fut", FLAG_VALUE, .to.handle = futFlag},
    {"clone_harness", "--clone-harness", FLAG_BOOL, .to.b = NULL},
    {"pv_with_gpu", "-pv_with_gpu", FLAG_SWITCH, .to.handle = pvGpuFlag},
    {"pv_with_cpp", NULL, FLAG_SWITCH, .to.handle = pvCppFlag},
    {"x2", "-x2", FLAG_SWITCH, .to.handle = x2Flag},

    {NULL, "Tuning (docs/tuning.md):", FLAG_SECTION, .to.sep = " "},
    {"perf_db", "--perf-db FILE|none", FLAG_STRING, .to.s = &A.perfDb},
    {"v verbose", "-v", FLAG_BOOL, .to.b = &A.verbose},
    {"emit_tuning_key", "--emit-tuning-key", FLAG_BOOL,
     .to.b = &A.compat.tuningKey},
    {"emit_tuning_space", "\n--emit-tuning-space[=quick|full]", FLAG_SWITCH,
     .to.handle = tuningSpaceFlag},
    // GPU options (notes where they have no effect).
    {"schedule_version", NULL, FLAG_VALUE, .to.handle = scheduleFlag},
    {"num_cu", NULL, FLAG_VALUE, .to.handle = numCuFlag},
    {"wgmma", NULL, FLAG_VALUE, .to.handle = wgmmaFlag},
    {"num_chiplets", NULL, FLAG_VALUE, .to.handle = chipletsFlag},
    {"direct_to_lds_32b", NULL, FLAG_SWITCH, .to.handle = directToLdsFlag},
    {"direct_to_lds_128b", NULL, FLAG_SWITCH, .to.handle = directToLdsFlag},

    {NULL, "Schedule switches (docs/gpu.md):", FLAG_SECTION, .to.sep = " "},
    {"module_attr", "--module-attr NAME=ATTR (repeatable; e.g.", FLAG_VALUE,
     .to.handle = moduleAttrFlag},
    {NULL, "\nrock.gpu_accel=false, rock.gpu_accel_warps=8)", FLAG_HELP_ONLY,
     .to.s = NULL},
};

enum { NUM_FLAGS = sizeof flags / sizeof *flags };

static bool takesValue(const Flag *f) {
  return f->kind != FLAG_BOOL && f->kind != FLAG_SWITCH;
}

/// Finds the flag spelled `name` (length `n`, '-' and '_' equivalent).
static const Flag *findFlag(const char *name, size_t n) {
  for (size_t f = 0; f < NUM_FLAGS; ++f) {
    const char *s = flags[f].names;
    while (s && *s) {
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

/// Stores value `v` of `f`, written `arg` (its name the first `nameLen`
/// characters).
static void apply(const Flag *f, const char *arg, int nameLen, const char *v) {
  char buf[64];
  switch (f->kind) {
  case FLAG_BOOL: {
    bool b = parseBool(arg, v);
    if (f->to.b)
      *f->to.b = b;
    break;
  }
  case FLAG_INT:
    *f->to.i = parseInt(arg, v);
    break;
  case FLAG_POSITIVE: {
    // Named as `--help` spells it.
    const char *name = f->help + (f->help[0] == '\n');
    *f->to.i = parseInt(arg, v);
    if (*f->to.i <= 0)
      rock__genDie("%.*s must be positive", (int)strcspn(name, " "), name);
    break;
  }
  case FLAG_FLOAT:
    *f->to.d = parseFloat(arg, v);
    break;
  case FLAG_TOLERANCE:
    *f->has = true;
    *f->to.d = parseTolerance(arg, v);
    break;
  case FLAG_STRING:
    *f->to.s = v;
    break;
  case FLAG_CHOICE:
    if (!oneOf(v, f->choices))
      rock__genDie("invalid value '%s' for %s (%s)", v, arg,
                   choiceList(f->choices, buf, sizeof buf));
    *f->to.s = v;
    break;
  case FLAG_TOGGLE:
    if (!oneOf(v, toggles))
      rock__genDie("invalid value '%s' for %.*s (%s)", v, nameLen, arg,
                   choiceList(toggles, buf, sizeof buf));
    if (strcmp(v, "infer"))
      note(ROCK_GEN_NOTE_FEATURE);
    *f->to.toggle = !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 2 : 0;
    break;
  case FLAG_SWITCH:
  case FLAG_VALUE:
    f->to.handle(arg, v);
    break;
  case FLAG_IGNORED:
  case FLAG_SECTION:
  case FLAG_HELP_ONLY:
    break;
  }
}

/// `--help`: the usage line, then each section's parts in table order.
static void usage(void) {
  fputs("usage: rock-gen --operation attention [flags] [-o FILE]\n"
        "Generates a rock.attention kernel module (docs/user-guide.md §2).",
        stdout);
  const char *sep = " ";
  bool first = false; // no part of the section printed yet
  for (size_t f = 0; f < NUM_FLAGS; ++f) {
    const char *help = flags[f].help;
    if (flags[f].kind == FLAG_SECTION) {
      printf("\n%s", help);
      sep = flags[f].to.sep;
      first = true;
      continue;
    }
    if (!help)
      continue;
    if (help[0] == '\n') // the separator without its blank, a new line
      printf("%.*s\n  %s", (int)strcspn(sep, " "), sep, help + 1);
    else
      printf("%s%s", first ? " " : sep, help);
    first = false;
  }
  putchar('\n');
}

static void reset(void) {
  memset(&A, 0, sizeof A);
  rockAttentionConfigInit(&A.cfg);
  rockAttentionHarnessInit(&A.h);
  A.operation = "attention";
  A.verifier = "";
  A.compat.windowLookBack = -1;
  A.compat.causalLookBack = -1;
  A.compat.numCu = 64;
}

RockGenArgs *rock__genParseArgs(int argc, char **argv) {
  reset();
  unsigned char seen[NUM_FLAGS] = {0};
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (arg[0] != '-' || arg[1] == '\0') {
      // One input module, as rocmlir-gen reads one (`--emit-tuning-key -`).
      if (A.input)
        rock__genDie("unexpected argument '%s' (the input module is '%s')", arg,
                     A.input);
      A.input = arg;
      continue;
    }
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    int nameLen = (int)(n + (size_t)(name - arg));
    const Flag *f = findFlag(name, n);
    if (!f)
      rock__genDie("unknown flag '%.*s'", nameLen, arg);
    // As with rocmlir-gen the last occurrence wins, but never silently.
    if (seen[f - flags]++ && f->to.handle != moduleAttrFlag)
      fprintf(stderr,
              "rock-gen: warning: %.*s given more than once; the last "
              "value wins\n",
              nameLen, arg);
    const char *v = eq ? eq + 1 : NULL;
    if (takesValue(f) && !v) {
      if (i + 1 >= argc)
        rock__genDie("missing value for %s", arg);
      v = argv[++i];
    }
    apply(f, arg, nameLen, v);
    if (A.help) {
      usage();
      return NULL;
    }
  }
  return &A;
}
