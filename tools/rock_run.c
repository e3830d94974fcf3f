//===- rock_run.c - JIT-run and verify a rock-gen attention module --------===//
//
// rock-run [file|-] [flags]: reads a module carrying `rock.harness` and
// `@rock_attention` (and `@rock_attention_combine` when split_kv > 1), lowers
// it with rock-cpu-pipeline, JIT-compiles it, fills the inputs, runs the
// kernel, combines the splits, compares with the f64 reference and prints one
// `[r a d]` line (spec-attention.md section 6).
//
// Exit status: 0 all gates passed, 1 a gate failed, 2 usage error, 3 input,
// harness, compile or JIT error (one line on stderr).
//
// Behaviour worth knowing:
// - Inputs are filled in kernel argument order from one splitmix64 stream
//   (runtime/rng.h); paged caches are shuffled with a second stream seeded
//   from the same seed, so page order never shifts input values.
// - Output and LSE buffers start as NaN: an element the kernel (or the
//   module's combine) never writes fails the NaN rule.
// - @rock_attention's signature is checked against the harness before
//   lowering; page tables are checked before and after the kernel runs.
// - Thresholds: command-line flags win over the harness, which wins over the
//   per-dtype defaults (spec section 6.4). -atol/-rtol imply allclose.
// - Unless --no-auto-split, the module gets `rock.num_threads` (the OpenMP
//   thread count: OMP_NUM_THREADS's first value, else the online cores) when
//   it has none, so rock-lower-gridwise-attention may split the keys of a
//   small grid internally (docs/internals.md).
// - -v prints per-output metrics and phase times; no line other than the
//   verdict ever contains brackets. --time adds compile_time_ms (module read
//   to JIT ready, input filling excluded), kernel_time_ms (median) and
//   kernel_time_min_ms (best run; what benchmarks on a shared machine use).
// - The kernel is compiled for this CPU: rock.attention ops get the `dot`
//   GemmFeature (AVX512-BF16 dot products in the bf16 decode loops) when
//   the CPU has avx512bf16, unless --no-host-features; a module that asks
//   for `dot` on a CPU without it is an error, not a SIGILL.
//
//===----------------------------------------------------------------------===//
#define _POSIX_C_SOURCE 200809L

#include "buffer.h"
#include "combine.h"
#include "harness.h"
#include "host_features.h"
#include "init.h"
#include "jit.h"
#include "metrics.h"
#include "npy.h"
#include "paged.h"
#include "problem.h"
#include "reference.h"
#include "timer.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"
#include "rock-c/TextNesting.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_PASS = 0, EXIT_GATE = 1, EXIT_USAGE = 2, EXIT_ERROR = 3 };

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

typedef struct Options {
  const char *input; ///< file name, or NULL / "-" for stdin
  bool verbose, time, printResults, printInputs, printValidation;
  bool noHostFeatures;   ///< do not add the host's GemmFeatures (`dot`)
  bool noAutoSplit;      ///< leave rock.num_threads unset
  int64_t kernelRepeats; ///< 0 = from the harness
  const char *dumpDir;
  bool hasRms, hasAbsDiff, hasRelDiff, hasAtol, hasRtol;
  double rms, absDiff, relDiff, atol, rtol;
  int comparator; ///< -1 harness, 0 legacy, 1 allclose
} Options;

static void usage(FILE *f) {
  fprintf(f,
          "usage: rock-run [file|-] [-v] [--time] [--kernel-repeats N]\n"
          "                [--dump-dir DIR] [-RMS_threshold X]\n"
          "                [-absDiff_threshold X] [-relDiff_threshold X]\n"
          "                [--comparator legacy|allclose] [-atol X] [-rtol X]\n"
          "                [-pr] [-pi] [-pvr] [--no-host-features]\n"
          "                [--no-auto-split]\n");
}

static int usageError(const char *fmt, const char *arg) {
  fprintf(stderr, "rock-run: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see rock-run --help)\n");
  return EXIT_USAGE;
}

static bool parseDouble(const char *s, double *out) {
  char *end = NULL;
  errno = 0;
  *out = strtod(s, &end);
  return *s && !*end && errno == 0;
}

static bool parseBoolValue(const char *v, bool *out) {
  if (!v || !strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "1")) {
    *out = true;
    return true;
  }
  if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "0")) {
    *out = false;
    return true;
  }
  return false;
}

/// Returns -1 to continue, or an exit status.
static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof *o);
  o->comparator = -1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->input)
        return usageError("more than one input file: '%s'", a);
      o->input = a;
      continue;
    }
    char name[64];
    const char *s = a + (a[1] == '-' ? 2 : 1);
    const char *eq = strchr(s, '=');
    size_t len = eq ? (size_t)(eq - s) : strlen(s);
    if (len >= sizeof name)
      return usageError("unknown option '%s'", a);
    memcpy(name, s, len);
    name[len] = 0;
    const char *inlineValue = eq ? eq + 1 : NULL;
    bool *flag = NULL;
    if (!strcmp(name, "h") || !strcmp(name, "help")) {
      usage(stdout);
      return EXIT_PASS;
    }
    if (!strcmp(name, "v"))
      flag = &o->verbose;
    else if (!strcmp(name, "time"))
      flag = &o->time;
    else if (!strcmp(name, "no-auto-split"))
      flag = &o->noAutoSplit;
    else if (!strcmp(name, "pr") || !strcmp(name, "print-results"))
      flag = &o->printResults;
    else if (!strcmp(name, "pi") || !strcmp(name, "print-inputs"))
      flag = &o->printInputs;
    else if (!strcmp(name, "pvr") || !strcmp(name, "print-validation-results"))
      flag = &o->printValidation;
    else if (!strcmp(name, "no-host-features"))
      flag = &o->noHostFeatures;
    if (flag) {
      if (!parseBoolValue(inlineValue, flag))
        return usageError("bad value for '%s'", a);
      continue;
    }
    // Options with a value: -f v or -f=v.
    static const char *const valued[] = {
        "kernel-repeats",    "kernel_repeats", "dump-dir",
        "comparator",        "RMS_threshold",  "absDiff_threshold",
        "relDiff_threshold", "atol",           "rtol"};
    bool known = false;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; ++k)
      known |= !strcmp(name, valued[k]);
    if (!known)
      return usageError("unknown option '%s'", a);
    const char *value = inlineValue;
    if (!value) {
      if (i + 1 >= argc)
        return usageError("option '%s' needs a value", a);
      value = argv[++i];
    }
    double d = 0;
    if (!strcmp(name, "kernel-repeats") || !strcmp(name, "kernel_repeats")) {
      char *end = NULL;
      long long n = strtoll(value, &end, 10);
      if (!*value || *end || n < 1)
        return usageError("--kernel-repeats needs a positive integer, got "
                          "'%s'",
                          value);
      o->kernelRepeats = n;
    } else if (!strcmp(name, "dump-dir")) {
      o->dumpDir = value;
    } else if (!strcmp(name, "comparator")) {
      if (!strcmp(value, "allclose"))
        o->comparator = 1;
      else if (!strcmp(value, "legacy"))
        o->comparator = 0;
      else
        return usageError("unknown comparator '%s'", value);
    } else {
      double *dst = NULL;
      bool *has = NULL;
      if (!strcmp(name, "RMS_threshold"))
        dst = &o->rms, has = &o->hasRms;
      else if (!strcmp(name, "absDiff_threshold"))
        dst = &o->absDiff, has = &o->hasAbsDiff;
      else if (!strcmp(name, "relDiff_threshold"))
        dst = &o->relDiff, has = &o->hasRelDiff;
      else if (!strcmp(name, "atol"))
        dst = &o->atol, has = &o->hasAtol;
      else if (!strcmp(name, "rtol"))
        dst = &o->rtol, has = &o->hasRtol;
      else
        return usageError("unknown option '%s'", a);
      if (!parseDouble(value, &d))
        return usageError("bad number '%s'", value);
      *dst = d;
      *has = true;
    }
  }
  return -1;
}

//===----------------------------------------------------------------------===//
// Errors and diagnostics
//===----------------------------------------------------------------------===//

static int errorExit(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "rock-run: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  return EXIT_ERROR;
}

typedef struct StrBuf {
  char data[1024];
  size_t len;
} StrBuf;

static void appendCallback(MlirStringRef s, void *user) {
  StrBuf *b = user;
  for (size_t i = 0; i < s.length && b->len + 1 < sizeof b->data; ++i)
    b->data[b->len++] = s.data[i] == '\n' ? ' ' : s.data[i];
  b->data[b->len] = 0;
}

/// The first error diagnostic MLIR reported, as one line ("" if none).
static StrBuf firstDiag;

/// Records the first error diagnostic; drops the others (rock-run reports
/// every failure in one line).
static MlirLogicalResult diagHandler(MlirDiagnostic diag, void *user) {
  (void)user;
  if (mlirDiagnosticGetSeverity(diag) != MlirDiagnosticError ||
      firstDiag.len > 0)
    return mlirLogicalResultSuccess();
  mlirLocationPrint(mlirDiagnosticGetLocation(diag), appendCallback,
                    &firstDiag);
  appendCallback(mlirStringRefCreateFromCString(": "), &firstDiag);
  mlirDiagnosticPrint(diag, appendCallback, &firstDiag);
  return mlirLogicalResultSuccess();
}

/// Returns ": <first diagnostic>" or "".
static const char *diagSuffix(void) {
  static char buf[sizeof firstDiag.data + 2];
  if (firstDiag.len == 0)
    return "";
  snprintf(buf, sizeof buf, ": %s", firstDiag.data);
  return buf;
}

//===----------------------------------------------------------------------===//
// Input reading and module inspection
//===----------------------------------------------------------------------===//

/// Reads all of `f` into a malloc'ed buffer of `*size` bytes plus a NUL:
/// MLIR's parser reads one byte past the text it is given (an unterminated
/// buffer was a heap overflow, found by fuzz/parse_verify.c).
static char *readAll(FILE *f, size_t *size) {
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (len < cap) {
      if (ferror(f)) {
        free(buf);
        return NULL;
      }
      break;
    }
    char *grown = realloc(buf, cap * 2 + 1);
    if (!grown)
      free(buf);
    buf = grown;
    cap *= 2;
  }
  if (buf) {
    buf[len] = 0;
    *size = len;
  }
  return buf;
}

static MlirOperation findFunc(MlirModule module, const char *name) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym))
      continue;
    if (mlirStringRefEqual(mlirStringAttrGetValue(sym),
                           mlirStringRefCreateFromCString(name)))
      return op;
  }
  MlirOperation null = {NULL};
  return null;
}

/// One kernel argument: its role name and its host buffer.
typedef struct Arg {
  const char *role;
  RockBuffer *buf;
} Arg;

/// Checks that `func`'s inputs are exactly the rank-1 memrefs of `args`.
static bool checkSignature(MlirOperation func, const char *fname,
                           const Arg *args, int n) {
  MlirAttribute ft = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(ft) || !mlirAttributeIsAType(ft) ||
      !mlirTypeIsAFunction(mlirTypeAttrGetValue(ft))) {
    errorExit("@%s is not a function", fname);
    return false;
  }
  MlirType t = mlirTypeAttrGetValue(ft);
  if (mlirFunctionTypeGetNumInputs(t) != n) {
    errorExit("@%s has %d arguments, the harness expects %d", fname,
              (int)mlirFunctionTypeGetNumInputs(t), n);
    return false;
  }
  for (int i = 0; i < n; ++i) {
    StrBuf got = {{0}, 0};
    mlirTypePrint(mlirFunctionTypeGetInput(t, i), appendCallback, &got);
    char want[128];
    snprintf(want, sizeof want, "memref<%lldx%s>",
             (long long)args[i].buf->numElements,
             rockDTypeGetName(args[i].buf->dtype));
    if (strcmp(got.data, want) != 0) {
      errorExit("@%s argument %d (%s) is %s, the harness expects %s", fname, i,
                args[i].role, got.data, want);
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// All host state of one run; freed by destroyRun.
typedef struct Run {
  Arg args[12];
  int numArgs;
  RockBuffer *q, *k, *v, *quantBias, *quantScale, *scale, *bias;
  RockBuffer *currentSeqLen, *prefixOffset, *lsePartial, *outPartial;
  RockBuffer *out, *lse; ///< final (combined) results; alias partials if S=1
  RockPagedCache *kCache, *vCache;
  double *refOut, *refLse, *resOut, *resLse;
} Run;

static void destroyRun(Run *r) {
  RockBuffer *owned[] = {r->q,
                         r->k,
                         r->v,
                         r->quantBias,
                         r->quantScale,
                         r->scale,
                         r->bias,
                         r->currentSeqLen,
                         r->prefixOffset,
                         r->lsePartial,
                         r->outPartial};
  for (size_t i = 0; i < sizeof owned / sizeof owned[0]; ++i)
    rockBufferDestroy(owned[i]);
  if (r->out != r->outPartial)
    rockBufferDestroy(r->out);
  if (r->lse != r->lsePartial)
    rockBufferDestroy(r->lse);
  rockPagedCacheDestroy(r->kCache);
  rockPagedCacheDestroy(r->vCache);
  free(r->refOut);
  free(r->refLse);
  free(r->resOut);
  free(r->resLse);
}

static RockBuffer *addArg(Run *r, const char *role, RockBuffer *buf) {
  r->args[r->numArgs].role = role;
  r->args[r->numArgs].buf = buf;
  ++r->numArgs;
  return buf;
}

/// Bytes of host memory the run holds at once (arguments, paged pools,
/// combined results, f64 reference and result copies); -1 on overflow.
/// Every size was bounded by rockAttnProblemCheck, so the sum cannot wrap.
static int64_t runBytes(const RockAttnProblem *p) {
  int64_t vs = (int64_t)rockDTypeGetSize(rockAttnProblemGetValueType(p));
  int64_t qs = (int64_t)rockDTypeGetSize(p->dtype);
  int64_t kv =
      rockAttnProblemGetKSize(p) * qs + rockAttnProblemGetVSize(p) * vs;
  // Paged: both pools, plus one logical cache while it is cut into pages.
  int64_t n = rockAttnProblemGetQSize(p) * qs + kv;
  if (p->paged)
    n += rockAttnProblemGetKSize(p) * qs > rockAttnProblemGetVSize(p) * vs
             ? rockAttnProblemGetKSize(p) * qs
             : rockAttnProblemGetVSize(p) * vs;
  n += rockAttnProblemGetScoreSize(p) * vs * (p->withScale + p->withBias);
  n += rockAttnProblemGetPartialOutSize(p) * vs +
       rockAttnProblemGetPartialLseSize(p) * 4;
  n += rockAttnProblemGetOutSize(p) * (vs + 16) +
       rockAttnProblemGetLseSize(p) * (4 + 16);
  return n;
}

/// Memory this process may still use, in bytes: MemAvailable (else the
/// physical memory), capped by RLIMIT_AS and RLIMIT_DATA.
static int64_t memoryLimit(void) {
  int64_t avail = (int64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
  FILE *f = fopen("/proc/meminfo", "r");
  char line[128];
  long long kb;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
      avail = (int64_t)kb * 1024;
  if (f)
    fclose(f);
  const int res[2] = {RLIMIT_AS, RLIMIT_DATA};
  for (int i = 0; i < 2; ++i) {
    struct rlimit rl;
    if (getrlimit(res[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (int64_t)rl.rlim_cur < avail)
      avail = (int64_t)rl.rlim_cur;
  }
  return avail;
}

/// Allocates the kernel arguments in spec section 5.2 order. Paged K/V are
/// not allocated here: fillArgs builds each logical cache, cuts it into its
/// page pool and frees it before the next (unless `keepLogical`).
/// Returns false (one line on stderr) when the run cannot fit in memory.
static bool allocateArgs(const RockAttnProblem *p, Run *r, bool keepLogical) {
  int64_t need = runBytes(p), limit = memoryLimit();
  if (need > limit) {
    errorExit("out of memory: the run needs %lld MiB of host buffers, %lld "
              "MiB are available",
              (long long)(need >> 20), (long long)(limit >> 20));
    return false;
  }
  RockDType vt = rockAttnProblemGetValueType(p);
  r->q = rockBufferCreate(p->dtype, rockAttnProblemGetQSize(p));
  if (!p->paged || keepLogical) {
    r->k = rockBufferCreate(p->dtype, rockAttnProblemGetKSize(p));
    r->v = rockBufferCreate(vt, rockAttnProblemGetVSize(p));
  }
  if (p->dtype == ROCK_DTYPE_I8) {
    r->quantBias = rockBufferCreate(ROCK_DTYPE_I8, 1);
    r->quantScale = rockBufferCreate(ROCK_DTYPE_F16, 1);
  }
  if (p->withScale)
    r->scale = rockBufferCreate(vt, rockAttnProblemGetScoreSize(p));
  if (p->withBias)
    r->bias = rockBufferCreate(vt, rockAttnProblemGetScoreSize(p));
  if (p->numCurrentSeqLen)
    r->currentSeqLen = rockBufferCreate(ROCK_DTYPE_I32, p->g);
  if (p->numPrefixOffset)
    r->prefixOffset = rockBufferCreate(ROCK_DTYPE_I32, p->g);
  if (p->returnLse)
    r->lsePartial =
        rockBufferCreate(ROCK_DTYPE_F32, rockAttnProblemGetPartialLseSize(p));
  r->outPartial = rockBufferCreate(vt, rockAttnProblemGetPartialOutSize(p));
  size_t nOut = (size_t)rockAttnProblemGetOutSize(p);
  size_t nLse = (size_t)rockAttnProblemGetLseSize(p);
  r->refOut = malloc(nOut * sizeof(double));
  r->resOut = malloc(nOut * sizeof(double));
  r->refLse = malloc(nLse * sizeof(double));
  r->resLse = malloc(nLse * sizeof(double));
  if (!r->q || ((!p->paged || keepLogical) && (!r->k || !r->v)) ||
      !r->outPartial || !r->refOut || !r->resOut || !r->refLse || !r->resLse ||
      (p->dtype == ROCK_DTYPE_I8 && (!r->quantBias || !r->quantScale)) ||
      (p->withScale && !r->scale) || (p->withBias && !r->bias) ||
      (p->numCurrentSeqLen && !r->currentSeqLen) ||
      (p->numPrefixOffset && !r->prefixOffset) ||
      (p->returnLse && !r->lsePartial)) {
    errorExit("out of memory allocating the arguments");
    return false;
  }
  return true;
}

/// Fills the inputs in argument order, builds the paged caches, and lists the
/// kernel arguments.
/// Fills one logical paged cache (`*logical`, or a temporary when it is
/// NULL), cuts it into `*cache` and frees the temporary: at most one
/// logical cache exists at a time.
static bool fillPaged(const RockAttnProblem *p, RockInitConfig *init,
                      RockRng *pageRng, RockDType t, int64_t n,
                      RockBuffer *logical, RockPagedCache **cache) {
  RockBuffer *tmp = logical ? NULL : rockBufferCreate(t, n);
  RockBuffer *src = logical ? logical : tmp;
  if (!src)
    return false;
  rockInitFill(init, src);
  *cache = rockPagedCacheCreate(src, p->g, p->numPages, p->pageSize, pageRng);
  rockBufferDestroy(tmp);
  return *cache != NULL;
}

static bool fillArgs(const RockAttnProblem *p, RockInitConfig *init,
                     uint64_t seed, Run *r) {
  // The page permutations have their own stream so that they do not shift
  // the values of later tensors.
  RockRng pageRng = rockRngCreate(seed ^ 0x70a6ed5eedull);
  RockBuffer *inputs[] = {r->q,          r->k,     r->v,   r->quantBias,
                          r->quantScale, r->scale, r->bias};
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; ++i) {
    if (p->paged && (i == 1 || i == 2)) {
      bool isK = i == 1;
      if (!fillPaged(p, init, &pageRng,
                     isK ? p->dtype : rockAttnProblemGetValueType(p),
                     isK ? rockAttnProblemGetKSize(p)
                         : rockAttnProblemGetVSize(p),
                     inputs[i], isK ? &r->kCache : &r->vCache))
        return false;
    } else if (inputs[i]) {
      rockInitFill(init, inputs[i]);
    }
  }
  for (int64_t i = 0; r->currentSeqLen && i < p->g; ++i)
    rockBufferSet(r->currentSeqLen, i, (double)p->currentSeqLen[i]);
  for (int64_t i = 0; r->prefixOffset && i < p->g; ++i)
    rockBufferSet(r->prefixOffset, i, (double)p->prefixOffset[i]);
  addArg(r, "Q", r->q);
  if (p->paged) {
    addArg(r, "K page table", r->kCache->table);
    addArg(r, "V page table", r->vCache->table);
  } else {
    addArg(r, "K", r->k);
    addArg(r, "V", r->v);
  }
  if (r->quantBias) {
    addArg(r, "quantBias", r->quantBias);
    addArg(r, "quantScale", r->quantScale);
  }
  if (r->scale)
    addArg(r, "scale", r->scale);
  if (r->bias)
    addArg(r, "bias", r->bias);
  if (r->currentSeqLen)
    addArg(r, "currentSeqLen", r->currentSeqLen);
  if (r->prefixOffset)
    addArg(r, "prefixOffset", r->prefixOffset);
  if (r->lsePartial)
    addArg(r, "LSE", r->lsePartial);
  addArg(r, "out", r->outPartial);
  // Outputs start as NaN so that an element the kernel never writes fails.
  for (int64_t i = 0; i < r->outPartial->numElements; ++i)
    rockBufferSet(r->outPartial, i, NAN);
  for (int64_t i = 0; r->lsePartial && i < r->lsePartial->numElements; ++i)
    rockBufferSet(r->lsePartial, i, NAN);
  return true;
}

static bool checkPageTables(const Run *r) {
  const RockPagedCache *caches[2] = {r->kCache, r->vCache};
  for (int c = 0; c < 2; ++c) {
    const RockPagedCache *pc = caches[c];
    char err[256];
    if (!rockPageTableCheck(
            pc->table->data, pc->numSlots, (uintptr_t)pc->pool->data,
            rockBufferGetBytes(pc->pool),
            (size_t)pc->pageSize * rockDTypeGetSize(pc->pool->dtype), err,
            sizeof err)) {
      errorExit("%s cache: %s", c ? "V" : "K", err);
      return false;
    }
  }
  return true;
}

/// Returns a new buffer [batch][cols][rows] from `src` [batch][rows][cols].
static RockBuffer *swapLast2(const RockBuffer *src, int64_t batch, int64_t rows,
                             int64_t cols) {
  RockBuffer *dst = rockBufferCreate(src->dtype, src->numElements);
  if (!dst)
    return NULL;
  size_t es = rockDTypeGetSize(src->dtype);
  const char *s = src->data;
  char *d = dst->data;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        memcpy(d + (size_t)((b * cols + j) * rows + i) * es,
               s + (size_t)((b * rows + i) * cols + j) * es, es);
  return dst;
}

static void printBuffer(const char *what, const char *role,
                        const RockBuffer *b) {
  printf("%s %s (%s, %lld elements):", what, role, rockDTypeGetName(b->dtype),
         (long long)b->numElements);
  for (int64_t i = 0; i < b->numElements; ++i)
    printf("%s%.9g", i % 16 ? " " : "\n  ", rockBufferGet(b, i));
  printf("\n");
}

static void printDoubles(const char *what, const double *v, int64_t n) {
  printf("%s (f64, %lld elements):", what, (long long)n);
  for (int64_t i = 0; i < n; ++i)
    printf("%s%.9g", i % 16 ? " " : "\n  ", v[i]);
  printf("\n");
}

//===----------------------------------------------------------------------===//
// Dumps
//===----------------------------------------------------------------------===//

static bool dumpBuffer(const char *dir, const char *name, const RockBuffer *b,
                       int64_t d0, int64_t d1, int64_t d2, int rank) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.npy", dir, name);
  int64_t shape[3] = {d0, d1, d2};
  return rockNpyWriteBuffer(path, b, shape, rank);
}

static bool dumpCanonical(const char *dir, const char *name,
                          const RockBuffer *b, bool swap, int64_t d0,
                          int64_t d1, int64_t d2) {
  if (!swap)
    return dumpBuffer(dir, name, b, d0, d1, d2, 3);
  RockBuffer *c = swapLast2(b, d0, d2, d1); // stored [d0][d2][d1]
  bool ok = c && dumpBuffer(dir, name, c, d0, d1, d2, 3);
  rockBufferDestroy(c);
  return ok;
}

static bool writeConfig(const char *dir, const RockHarness *h, uint64_t seed) {
  const RockAttnProblem *p = &h->problem;
  char path[4096];
  snprintf(path, sizeof path, "%s/config.json", dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  const char *tf[2] = {"false", "true"};
  fprintf(f, "{\n  \"t\": \"%s\",\n", rockDTypeGetName(p->dtype));
  fprintf(f,
          "  \"g\": %lld,\n  \"num_heads_q\": %lld,\n  \"num_heads_kv\": "
          "%lld,\n  \"seq_len_q\": %lld,\n  \"seq_len_k\": %lld,\n"
          "  \"head_dim_qk\": %lld,\n  \"head_dim_v\": %lld,\n"
          "  \"split_kv\": %lld,\n",
          (long long)p->g, (long long)p->numHeadsQ, (long long)p->numHeadsKV,
          (long long)p->seqLenQ, (long long)p->seqLenK, (long long)p->headDimQK,
          (long long)p->headDimV, (long long)p->splitKV);
  fprintf(f,
          "  \"causal\": %s,\n  \"return_lse\": %s,\n  \"with_attn_scale\": "
          "%s,\n  \"with_attn_bias\": %s,\n  \"transQ\": %s,\n  \"transK\": "
          "%s,\n  \"transV\": %s,\n  \"transO\": %s,\n  \"paged\": %s,\n",
          tf[p->causal], tf[p->returnLse], tf[p->withScale], tf[p->withBias],
          tf[p->transQ], tf[p->transK], tf[p->transV], tf[p->transO],
          tf[p->paged]);
  if (p->paged)
    fprintf(f, "  \"num_pages\": %lld,\n  \"page_size\": %lld,\n",
            (long long)p->numPages, (long long)p->pageSize);
  const int64_t *lists[2] = {p->currentSeqLen, p->prefixOffset};
  const int64_t counts[2] = {p->numCurrentSeqLen, p->numPrefixOffset};
  const char *names[2] = {"current_seq_len", "prefix_offset"};
  for (int l = 0; l < 2; ++l) {
    if (!counts[l])
      continue;
    fprintf(f, "  \"%s\": [", names[l]);
    for (int64_t i = 0; i < counts[l]; ++i)
      fprintf(f, "%s%lld", i ? ", " : "", (long long)lists[l][i]);
    fprintf(f, "],\n");
  }
  if (p->slidingWindow >= 0)
    fprintf(f, "  \"sliding_window_size\": %lld,\n",
            (long long)p->slidingWindow);
  fprintf(f, "  \"softmax_dtype\": \"%s\",\n  \"rand\": \"%s\",\n",
          rockDTypeGetName(p->softmaxType), h->rand);
  fprintf(f, "  \"seed\": %llu,\n", (unsigned long long)seed);
  fprintf(f, "  \"rand_type\": \"%s\"\n}\n", h->randFloat ? "float" : "int");
  return fclose(f) == 0;
}

static bool dumpAll(const char *dir, const RockHarness *h, const Run *r,
                    uint64_t seed) {
  const RockAttnProblem *p = &h->problem;
  int64_t b = rockAttnProblemGetB(p), bkv = rockAttnProblemGetBkv(p);
  int64_t sq = p->seqLenQ, sk = p->seqLenK, dqk = p->headDimQK,
          dv = p->headDimV, s = p->splitKV;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return false;
  bool ok = writeConfig(dir, h, seed);
  ok = ok && dumpCanonical(dir, "q", r->q, p->transQ, b, sq, dqk);
  ok = ok &&
       dumpCanonical(dir, "k", r->k, !p->paged && !p->transK, bkv, sk, dqk);
  ok = ok && dumpCanonical(dir, "v", r->v, !p->paged && p->transV, bkv, sk, dv);
  ok = ok && dumpCanonical(dir, "out", r->out, p->transO, b, sq, dv);
  if (r->lse)
    ok = ok && dumpBuffer(dir, "lse", r->lse, b, sq, 0, 2);
  if (r->scale)
    ok = ok && dumpBuffer(dir, "scale", r->scale, b, sq, sk, 3);
  if (r->bias)
    ok = ok && dumpBuffer(dir, "bias", r->bias, b, sq, sk, 3);
  if (r->currentSeqLen)
    ok = ok &&
         dumpBuffer(dir, "current_seq_len", r->currentSeqLen, p->g, 0, 0, 1);
  if (r->prefixOffset)
    ok = ok && dumpBuffer(dir, "prefix_offset", r->prefixOffset, p->g, 0, 0, 1);
  if (r->quantBias) {
    ok = ok && dumpBuffer(dir, "quant_bias", r->quantBias, 1, 0, 0, 1);
    ok = ok && dumpBuffer(dir, "quant_scale", r->quantScale, 1, 0, 0, 1);
  }
  if (s > 1) {
    ok = ok && dumpCanonical(dir, "out_partial", r->outPartial, p->transO,
                             b * s, sq, dv);
    ok = ok && dumpBuffer(dir, "lse_partial", r->lsePartial, b * s, sq, 0, 2);
  }
  char path[4096];
  int64_t shape[3] = {b, sq, dv};
  snprintf(path, sizeof path, "%s/ref_out.npy", dir);
  ok = ok && rockNpyWriteF64(path, r->refOut, shape, 3);
  if (r->lse) {
    snprintf(path, sizeof path, "%s/ref_lse.npy", dir);
    ok = ok && rockNpyWriteF64(path, r->refLse, shape, 2);
  }
  if (p->paged) {
    const RockPagedCache *caches[2] = {r->kCache, r->vCache};
    const char *names[2][2] = {{"k_page_table", "k_page_pool"},
                               {"v_page_table", "v_page_pool"}};
    for (int c = 0; c < 2; ++c) {
      ok = ok && dumpBuffer(dir, names[c][0], caches[c]->table,
                            caches[c]->numSlots, 0, 0, 1);
      ok = ok && dumpBuffer(dir, names[c][1], caches[c]->pool,
                            caches[c]->numSlots, caches[c]->pageSize, 0, 2);
    }
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// Compares one output; returns its verdict and prints details if asked.
static RockVerdict verifyOutput(const char *name, const double *ref,
                                const double *res, int64_t n, bool isLse,
                                RockDType outType, const RockThresholds *t,
                                bool allclose, double atol, double rtol,
                                bool details) {
  RockVerdict v;
  if (allclose) {
    int64_t bad = 0, nanBad = 0;
    bool ok = rockAllclose(ref, res, n, atol, rtol, &bad, &nanBad);
    v.rms = v.absDiff = v.relDiff = ok;
    if (details)
      printf("%s: allclose atol %g rtol %g: %lld of %lld elements outside%s, "
             "%s\n",
             name, atol, rtol, (long long)bad, (long long)n,
             nanBad ? " (NaN-mismatch)" : "", ok ? "pass" : "FAIL");
    return v;
  }
  if (rockDTypeIsInteger(outType)) {
    v = rockMetricsCompareExact(ref, res, n);
    if (details)
      printf("%s: exact compare %s\n", name, v.rms ? "pass" : "FAIL");
    return v;
  }
  RockMetrics m;
  rockMetricsCompute(ref, res, n, &m);
  v = rockMetricsGate(&m, t, isLse);
  if (details) {
    printf("%s: RMS %.6g (threshold %g, %s)%s\n", name, m.rms, t->rms,
           v.rms ? "pass" : "FAIL", m.rmsValid ? "" : " maxMag is 0");
    printf("%s: maxAbsDiff %.6g (threshold %g, %s)\n", name, m.maxAbsDiff,
           t->absDiff, v.absDiff ? "pass" : "FAIL");
    printf("%s: maxRelDiff %.6g (threshold %g, %s)\n", name, m.maxRelDiff,
           t->relDiff, v.relDiff ? "pass" : "FAIL");
    printf("%s: maxMag %.6g, NaN mismatches %lld of %lld elements\n", name,
           m.maxMag, (long long)m.numNaNMismatch, (long long)n);
  }
  return v;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// Phase durations in ms, reported with -v.
static double parseMs, lowerMs, jitMs, referenceMs;

typedef struct Compiled {
  MlirContext ctx;
  MlirModule module;
  MlirExecutionEngine jit;
} Compiled;

static void destroyCompiled(Compiled *c) {
  if (c->jit.ptr)
    mlirExecutionEngineDestroy(c->jit);
  if (c->module.ptr)
    mlirModuleDestroy(c->module);
  if (c->ctx.ptr)
    mlirContextDestroy(c->ctx);
}

/// Parses `text`, reads the harness, lowers and JITs. Returns an exit status
/// (EXIT_PASS on success).
static int compile(const char *text, size_t size, const char *fileName,
                   Compiled *c, RockHarness *h, bool *hasCombine) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__rock__(), registry);
  c->ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(c->ctx, diagHandler, NULL, NULL);
  mlirRegisterAllLLVMTranslations(c->ctx);
  mlirRegisterAllPasses();
  rockRegisterAllPasses();

  char err[512];
  if (!rockTextCheckNesting((MlirStringRef){text, size}, ROCK_MAX_TEXT_NESTING,
                            err, sizeof err))
    return errorExit("cannot parse %s: %s", fileName, err);
  double start = rockTimerNowMs();
  c->module = mlirModuleCreateParse(c->ctx, (MlirStringRef){text, size});
  parseMs = rockTimerNowMs() - start;
  if (mlirModuleIsNull(c->module))
    return errorExit("cannot parse %s%s", fileName, diagSuffix());
  MlirOperation moduleOp = mlirModuleGetOperation(c->module);
  MlirAttribute harness = mlirOperationGetAttributeByName(
      moduleOp, mlirStringRefCreateFromCString("rock.harness"));
  if (mlirAttributeIsNull(harness))
    return errorExit("%s has no rock.harness module attribute (generate it "
                     "with rock-gen -ph or -pv)",
                     fileName);
  if (!rockHarnessRead(harness, h, err, sizeof err))
    return errorExit("%s", err);
  MlirOperation kernel = findFunc(c->module, "rock_attention");
  if (mlirOperationIsNull(kernel))
    return errorExit("%s has no @rock_attention function", fileName);
  *hasCombine =
      !mlirOperationIsNull(findFunc(c->module, "rock_attention_combine"));
  return EXIT_PASS;
}

/// The thread count libomp will use: the first value of OMP_NUM_THREADS
/// when it is a positive integer, else the online cores; 0 when that first
/// value is above ROCK_MAX_NUM_THREADS (or overflows).
static int64_t ompThreads(void) {
  const char *env = getenv("OMP_NUM_THREADS");
  if (env) {
    char *end = NULL;
    errno = 0;
    long long n = strtoll(env, &end, 10);
    if (end != env && n > 0 && (*end == 0 || *end == ','))
      return errno || n > ROCK_MAX_NUM_THREADS ? 0 : n;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

/// Sets rock.num_threads on the module unless it already has one.
static void setNumThreads(Compiled *c) {
  MlirOperation m = mlirModuleGetOperation(c->module);
  MlirStringRef name = mlirStringRefCreateFromCString("rock.num_threads");
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(m, name)))
    return;
  MlirAttribute t =
      mlirIntegerAttrGet(mlirIntegerTypeGet(c->ctx, 64), ompThreads());
  mlirOperationSetAttributeByName(m, name, t);
}

/// Checks, before the kernel runs, that the per-workgroup scratch of all
/// threads (rock.workgroup_scratch_bytes, recorded by the lowering) can be
/// allocated at once: the kernel's memref.alloc results are not checked, so
/// a failure there would be a crash. Allocates and frees one untouched
/// block per thread. Returns an exit status.
static int probeScratch(const Compiled *c) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      mlirModuleGetOperation(c->module),
      mlirStringRefCreateFromCString("rock.workgroup_scratch_bytes"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return EXIT_PASS;
  int64_t bytes = mlirIntegerAttrGetValueInt(a), threads = ompThreads();
  if (bytes <= 0)
    return EXIT_PASS;
  void **blocks = calloc((size_t)threads, sizeof(void *));
  int64_t got = 0;
  while (blocks && got < threads && (blocks[got] = malloc((size_t)bytes)))
    ++got;
  for (int64_t i = 0; i < got; ++i)
    free(blocks[i]);
  free(blocks);
  if (got < threads)
    return errorExit("out of memory: the kernel needs %lld x %lld MiB of "
                     "per-workgroup scratch (one per thread)",
                     (long long)threads, (long long)(bytes >> 20));
  return EXIT_PASS;
}

static int lowerAndJit(Compiled *c) {
  double start = rockTimerNowMs();
  MlirPassManager pm = mlirPassManagerCreate(c->ctx);
  MlirLogicalResult res =
      rockAddCpuPipeline(mlirPassManagerGetAsOpPassManager(pm));
  if (!mlirLogicalResultIsFailure(res))
    res = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(c->module));
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(res))
    return errorExit("lowering with rock-cpu-pipeline failed%s", diagSuffix());
  lowerMs = rockTimerNowMs() - start;
  start = rockTimerNowMs();
  c->jit = rockJitCreate(c->module);
  if (mlirExecutionEngineIsNull(c->jit))
    return errorExit("cannot create the JIT execution engine%s", diagSuffix());
  // Force code generation now, so that compile time covers it.
  if (!mlirExecutionEngineLookup(c->jit, mlirStringRefCreateFromCString(
                                             "_mlir_ciface_rock_attention")))
    return errorExit("the JIT has no _mlir_ciface_rock_attention (is "
                     "@rock_attention missing llvm.emit_c_interface?)");
  jitMs = rockTimerNowMs() - start;
  return probeScratch(c);
}

static int runMain(const Options *o) {
  double t0 = rockTimerNowMs();
  if (ompThreads() == 0)
    return errorExit("OMP_NUM_THREADS '%s': the thread count must be at most "
                     "%d",
                     getenv("OMP_NUM_THREADS"), ROCK_MAX_NUM_THREADS);
  const char *fileName =
      o->input && strcmp(o->input, "-") ? o->input : "<stdin>";
  FILE *f = strcmp(fileName, "<stdin>") ? fopen(fileName, "rb") : stdin;
  if (!f)
    return errorExit("cannot open '%s': %s", fileName, strerror(errno));
  size_t size = 0;
  char *text = readAll(f, &size);
  if (f != stdin)
    fclose(f);
  if (!text)
    return errorExit("cannot read '%s'", fileName);

  Compiled c;
  memset(&c, 0, sizeof c);
  RockHarness *h = calloc(1, sizeof *h);
  Run r;
  memset(&r, 0, sizeof r);
  bool hasCombine = false;
  int status = h ? compile(text, size, fileName, &c, h, &hasCombine)
                 : errorExit("out of memory");
  free(text);
  // compile_time_ms covers reading, parsing, lowering and JIT, not the
  // argument buffers (hundreds of MB for long KV caches) or their filling.
  double frontMs = rockTimerNowMs() - t0;
  const RockAttnProblem *p = h ? &h->problem : NULL;
  // The signature is checked before lowering, while it is still func.func.
  bool keepLogical = o->printInputs || o->dumpDir || (h && h->printInputs);
  if (status == EXIT_PASS && !allocateArgs(p, &r, keepLogical))
    status = EXIT_ERROR;
  uint64_t seed = 0;
  RockInitConfig init;
  memset(&init, 0, sizeof init);
  if (status == EXIT_PASS) {
    if (!rockInitConfigSetRand(&init, h->rand, &seed))
      status = errorExit("rock.harness: bad rand value '%s'", h->rand);
    init.floatValues = h->randFloat;
    init.minFloat = h->randMin;
    init.maxFloat = h->randMax;
    init.minInt = h->randMinInt;
    init.maxInt = h->randMaxInt;
  }
  double fillStart = rockTimerNowMs();
  if (status == EXIT_PASS && !fillArgs(p, &init, seed, &r))
    status = errorExit("cannot build the paged caches");
  // Input filling is not compilation: keep it out of compile_time_ms.
  double fillMs = rockTimerNowMs() - fillStart;
  if (status == EXIT_PASS &&
      !checkSignature(findFunc(c.module, "rock_attention"), "rock_attention",
                      r.args, r.numArgs))
    status = EXIT_ERROR;
  // Only meaningful once the harness has been read.
  int64_t b = status == EXIT_PASS ? rockAttnProblemGetB(p) : 0;
  RockDType vt =
      status == EXIT_PASS ? rockAttnProblemGetValueType(p) : ROCK_DTYPE_F32;
  Arg combineArgs[4];
  if (status == EXIT_PASS && p->splitKV > 1) {
    r.out = rockBufferCreate(vt, rockAttnProblemGetOutSize(p));
    r.lse = rockBufferCreate(ROCK_DTYPE_F32, rockAttnProblemGetLseSize(p));
    if (!r.out || !r.lse)
      status = errorExit("out of memory");
    Arg ca[4] = {{"partial out", r.outPartial},
                 {"partial LSE", r.lsePartial},
                 {"out", r.out},
                 {"LSE", r.lse}};
    memcpy(combineArgs, ca, sizeof ca);
    if (status == EXIT_PASS && hasCombine &&
        !checkSignature(findFunc(c.module, "rock_attention_combine"),
                        "rock_attention_combine", combineArgs, 4))
      status = EXIT_ERROR;
  } else if (status == EXIT_PASS) {
    r.out = r.outPartial;
    r.lse = r.lsePartial;
  }
  if (status == EXIT_PASS && p->paged && !checkPageTables(&r))
    status = EXIT_ERROR;
  double backStart = rockTimerNowMs();
  if (status == EXIT_PASS) {
    char ferr[256];
    if (!rockHostFeaturesApply(c.module, !o->noHostFeatures, ferr, sizeof ferr))
      status = errorExit("%s", ferr);
    else if (o->verbose)
      printf("host features: %s\n", !o->noHostFeatures && rockHostHasBf16Dot()
                                        ? "dot (avx512bf16)"
                                        : "none");
  }
  if (status == EXIT_PASS && !o->noAutoSplit)
    setNumThreads(&c);
  if (status == EXIT_PASS)
    status = lowerAndJit(&c);
  double compileMs = frontMs + (rockTimerNowMs() - backStart);

  if (status == EXIT_PASS && (o->printInputs || h->printInputs)) {
    for (int i = 0; i < r.numArgs - 1 - (r.lsePartial != NULL); ++i)
      printBuffer("input", r.args[i].role, r.args[i].buf);
    if (p->paged) {
      printBuffer("input", "K (logical)", r.k);
      printBuffer("input", "V (logical)", r.v);
    }
  }

  // Run the kernel; the last run is verified.
  int64_t repeats = o->kernelRepeats ? o->kernelRepeats
                    : h              ? h->kernelRepeats
                                     : 1;
  double *times = calloc((size_t)repeats, sizeof(double));
  if (status == EXIT_PASS && !times)
    status = errorExit("out of memory");
  RockBuffer *argBufs[12];
  for (int i = 0; i < r.numArgs; ++i)
    argBufs[i] = r.args[i].buf;
  for (int64_t k = 0; status == EXIT_PASS && k < repeats; ++k) {
    double start = rockTimerNowMs();
    if (!rockJitInvoke(c.jit, "rock_attention", argBufs, r.numArgs))
      status = errorExit("cannot invoke rock_attention");
    times[k] = rockTimerNowMs() - start;
  }
  if (status == EXIT_PASS && p->paged && !checkPageTables(&r))
    status = EXIT_ERROR; // the kernel overwrote its page tables

  // Combine the splits.
  if (status == EXIT_PASS && p->splitKV > 1) {
    if (hasCombine) {
      RockBuffer *cb[4] = {r.outPartial, r.lsePartial, r.out, r.lse};
      for (int64_t i = 0; i < r.out->numElements; ++i)
        rockBufferSet(r.out, i, NAN);
      for (int64_t i = 0; i < r.lse->numElements; ++i)
        rockBufferSet(r.lse, i, NAN);
      if (!rockJitInvoke(c.jit, "rock_attention_combine", cb, 4))
        status = errorExit("cannot invoke rock_attention_combine");
    } else {
      rockCombineSplits(r.outPartial, r.lsePartial, b, p->splitKV, p->seqLenQ,
                        p->headDimV, p->transO, r.out, r.lse);
    }
  }

  // Reference and verification (skipped with verifier none: benchmarks).
  bool verify = strcmp(h->verifier, "none") != 0;
  RockVerdict verdict = {true, true, true};
  if (status == EXIT_PASS && verify) {
    RockAttnInputs in = {r.q,     r.k,    r.v,      r.quantBias, r.quantScale,
                         r.scale, r.bias, p->paged, r.kCache,    r.vCache};
    double start = rockTimerNowMs();
    if (!rockReferenceAttention(p, &in, r.refOut,
                                p->returnLse ? r.refLse : NULL))
      status = errorExit("out of memory in the reference");
    referenceMs = rockTimerNowMs() - start;
  }
  // A non-finite reference cannot judge anything: NaN compared with NaN
  // would pass. The inputs overflowed (or were NaN / inf to begin with).
  if (status == EXIT_PASS && verify) {
    int64_t bad = 0, nOut = rockAttnProblemGetOutSize(p);
    for (int64_t k = 0; k < nOut; ++k)
      bad += !isfinite(r.refOut[k]);
    for (int64_t k = 0; p->returnLse && k < rockAttnProblemGetLseSize(p); ++k)
      bad += isnan(r.refLse[k]) || r.refLse[k] == INFINITY; // -inf: masked
    if (bad)
      status = errorExit("inputs out of range: the f64 reference has %lld "
                         "non-finite results (NaN or inf inputs, or values "
                         "too large for %s); narrow -rand_min/-rand_max",
                         (long long)bad, rockDTypeGetName(p->dtype));
  }
  if (status == EXIT_PASS && verify) {
    int64_t sq = p->seqLenQ, dv = p->headDimV, nOut = b * sq * dv;
    for (int64_t bq = 0; bq < b; ++bq)
      for (int64_t i = 0; i < sq; ++i)
        for (int64_t e = 0; e < dv; ++e)
          r.resOut[(bq * sq + i) * dv + e] =
              rockBufferGet(r.out, p->transO ? (bq * dv + e) * sq + i
                                             : (bq * sq + i) * dv + e);
    RockThresholds t = rockThresholdsGetDefault(vt);
    if (h->hasRms)
      t.rms = h->rms;
    if (h->hasAbsDiff)
      t.absDiff = h->absDiff;
    if (h->hasRelDiff)
      t.relDiff = h->relDiff;
    if (o->hasRms)
      t.rms = o->rms;
    if (o->hasAbsDiff)
      t.absDiff = o->absDiff;
    if (o->hasRelDiff)
      t.relDiff = o->relDiff;
    bool allclose = o->comparator >= 0 ? o->comparator == 1 : h->allclose;
    if (o->hasAtol || o->hasRtol)
      allclose = true;
    double atol, rtol;
    rockAllcloseGetDefault(vt, p->headDimQK + p->seqLenK, &atol, &rtol);
    if (h->hasAtol)
      atol = h->atol;
    if (h->hasRtol)
      rtol = h->rtol;
    if (o->hasAtol)
      atol = o->atol;
    if (o->hasRtol)
      rtol = o->rtol;
    bool always = o->verbose || !strcmp(h->printVerify, "always");
    bool onFailure = !strcmp(h->printVerify, "failure");
    for (int pass = 0; pass < 2; ++pass) {
      bool details = pass == 1;
      if (details && !always &&
          !(onFailure && !(verdict.rms && verdict.absDiff && verdict.relDiff)))
        break;
      RockVerdict all = {true, true, true};
      RockVerdict v = verifyOutput("out", r.refOut, r.resOut, nOut, false, vt,
                                   &t, allclose, atol, rtol, details);
      all.rms &= v.rms, all.absDiff &= v.absDiff, all.relDiff &= v.relDiff;
      if (p->returnLse) {
        for (int64_t k = 0; k < b * sq; ++k)
          r.resLse[k] = rockBufferGet(r.lse, k);
        v = verifyOutput("lse", r.refLse, r.resLse, b * sq, true,
                         ROCK_DTYPE_F32, &t, allclose, 1.5e-2, 5e-4, details);
        all.rms &= v.rms, all.absDiff &= v.absDiff, all.relDiff &= v.relDiff;
      }
      verdict = all;
    }
    if (o->verbose)
      printf("phases: parse %.1f ms, lower %.1f ms, JIT %.1f ms, inputs "
             "%.1f ms, reference %.1f ms\n",
             parseMs, lowerMs, jitMs, fillMs, referenceMs);
    if (o->verbose) {
      MlirAttribute nt = mlirOperationGetAttributeByName(
          mlirModuleGetOperation(c.module),
          mlirStringRefCreateFromCString("rock.num_threads"));
      if (mlirAttributeIsNull(nt) || !mlirAttributeIsAInteger(nt))
        printf("threads: rock.num_threads unset (no internal split)\n");
      else
        printf("threads: rock.num_threads %lld\n",
               (long long)mlirIntegerAttrGetValueInt(nt));
    }
    // A clock-seeded run that fails names its seed, so that it can be
    // reproduced with -rand <seed>.
    bool passed = verdict.rms && verdict.absDiff && verdict.relDiff;
    if (o->verbose || (!passed && !strcmp(h->rand, "0")))
      printf("inputs: rand %s (seed %llu), %s\n", h->rand,
             (unsigned long long)seed,
             hasCombine || p->splitKV == 1 ? "combine in the module"
                                           : "combine on the host");
    if (o->printResults || h->printResults) {
      if (p->splitKV > 1) {
        printBuffer("result", "out partial", r.outPartial);
        printBuffer("result", "LSE partial", r.lsePartial);
      }
      printBuffer("result", "out", r.out);
      if (r.lse)
        printBuffer("result", "LSE", r.lse);
    }
    if (o->printValidation || h->printValidation) {
      printDoubles("reference out", r.refOut, nOut);
      if (p->returnLse)
        printDoubles("reference LSE", r.refLse, b * sq);
    }
    if (o->dumpDir && !dumpAll(o->dumpDir, h, &r, seed))
      status = errorExit("cannot write dumps to '%s'", o->dumpDir);
  }
  if (status == EXIT_PASS) {
    if (verify)
      printf("[%d %d %d]\n", verdict.rms, verdict.absDiff, verdict.relDiff);
    else
      printf("verification skipped (verifier none)\n");
    if (o->time) {
      printf("compile_time_ms: %.3f\n", compileMs);
      printf("kernel_time_ms: %.3f\n", rockTimerMedian(times, (int)repeats));
      double best = times[0];
      for (int64_t k = 1; k < repeats; ++k)
        best = times[k] < best ? times[k] : best;
      printf("kernel_time_min_ms: %.3f\n", best);
    }
    status = verdict.rms && verdict.absDiff && verdict.relDiff ? EXIT_PASS
                                                               : EXIT_GATE;
  }
  fflush(stdout);
  free(times);
  destroyRun(&r);
  destroyCompiled(&c);
  free(h);
  return status;
}

int main(int argc, char **argv) {
  Options o;
  int status = parseOptions(argc, argv, &o);
  if (status >= 0)
    return status;
  return runMain(&o);
}
