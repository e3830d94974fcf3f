//===- rock_run.c - JIT-run and verify a rock-gen attention module --------===//
//
// rock-run [file|-] [flags]: reads a module carrying `rock.harness` and
// `@rock_attention` (and `@rock_attention_combine` when split_kv > 1), lowers
// it with rock-cpu-pipeline, JIT-compiles it, fills the inputs, runs the
// kernel, combines the splits, compares with the f64 reference and prints one
// `[r a d]` line (docs/user-guide.md §3). This file is the CLI and the
// CPU backend (parse, lower, JIT, invoke); the run session itself (inputs,
// paged caches, combine, thresholds, verification, dumps) is
// runtime/session.h, shared with rock-run-gpu.
//
// GPU modules (module attribute mhal.arch = "sm_*") are lowered to a kernel
// bundle (runtime/gpu_compile.h, docs/gpu-runner.md); `--compile-only -o
// FILE` writes it for rock-run-gpu, otherwise rock-run runs it here on the
// GPU through the CUDA driver.
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
//   per-dtype defaults (docs/user-guide.md §3.4). -atol/-rtol imply allclose.
// - Unless --no-auto-split, the module gets `rock.num_threads` (the OpenMP
//   thread count: OMP_NUM_THREADS's first value, else the online cores) when
//   it has none, so rock-lower-gridwise-attention may split the keys of a
//   small grid internally (docs/internals.md).
// - -v prints per-output metrics and phase times; no line other than the
//   verdict ever contains brackets. --time adds compile_time_ms (module read
//   to JIT ready, input filling excluded), kernel_time_ms (median) and
//   kernel_time_min_ms (best run; what benchmarks on a shared machine use).
// - The kernel is compiled for this CPU, or for the LLVM CPU named by
//   --cpu / $ROCK_JIT_CPU (e.g. x86-64-v3: AVX2 + FMA, no AVX-512), with no
//   feature beyond what that CPU implies. rock.attention ops get the `dot`
//   GemmFeature (AVX512-BF16 dot products in the bf16 decode and prefill
//   loops) when that CPU has avx512bf16, the module `rock.vnni` (vpdpbusd
//   in the i8 prefill) when it has avx512vnni, and `rock.amx` (AMX
//   tiles in the bf16 and i8 prefill; Linux's permission for the tile state
//   is requested first) when it has AMX, unless --no-host-features; a
//   module that asks for one on a CPU without it is an error, not a SIGILL
//   (docs/cpu.md).
// - JIT failures (an unresolved symbol, an unknown CPU) report LLVM's own
//   message, exit 3.
// - --perf-db FILE: rock.attention ops without a perf_config take the DB's
//   entry for the problem's tuning key (docs/tuning.md), else keep the
//   heuristic; -v says which. A DB that cannot be read is one error line,
//   then the heuristic.
// - --tune-configs FILE (rock-tune's CPU step): compiles the module once per
//   perf_config listed (`heuristic`: as the module is), times them in
//   interleaved rounds on the same inputs, prints one `tune:` line each and
//   the best, then runs and verifies the best as a plain run would.
//
//===----------------------------------------------------------------------===//
#define _DEFAULT_SOURCE /* getline, getloadavg, strdup */

#include "bundle.h"
#include "gpu_compile.h"
#include "gpu_run.h"
#include "harness.h"
#include "host_features.h"
#include "jit.h"
#include "session.h"
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
#include "rock-c/Target.h"
#include "rock-c/TextNesting.h"
#include "rock-c/Tuning.h"
#include "support/ir.h"
#include "support/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
  EXIT_PASS = ROCK_EXIT_PASS,
  EXIT_ERROR = ROCK_EXIT_ERROR,
};

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

/// rock-run's own flags; the common ones are in RockRunOptions.
static bool noHostFeatures;    ///< do not add the host's GemmFeatures (`dot`)
static bool noAutoSplit;       ///< leave rock.num_threads unset
static bool noPrefetch;        ///< set rock.no_prefetch (no software prefetch)
static bool timeProbe;         ///< --time-probe: a plain K/V read per run
static const char *cpuFlag;    ///< --cpu: LLVM CPU to generate code for
static bool compileOnly;       ///< GPU modules: write a bundle, do not run
static bool cubin;             ///< the bundle's objects as cubins (ptxas)
static const char *perfDbPath; ///< --perf-db: for ops without a perf_config
static const char *tuneFile;   ///< --tune-configs: perf_configs to time
static bool checkHostRef;      ///< run @host_naive_attention, not the kernel
static const char *outputPath; ///< the bundle's file ("-": stdout)

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: rock-run [file|-] [-v] [--time] [--kernel-repeats N]\n"
      "                [--dump-dir DIR] [-RMS_threshold X]\n"
      "                [-absDiff_threshold X] [-relDiff_threshold X]\n"
      "                [--comparator legacy|allclose] [-atol X] [-rtol X]\n"
      "                [-pr] [-pi] [-pvr] [--no-host-features]\n"
      "                [--no-auto-split] [--no-prefetch] [--cpu NAME]\n"
      "                [--time-probe]\n"
      "                [--compile-only [--cubin] -o FILE]\n"
      "                [--perf-db FILE] [--tune-configs FILE]\n"
      "                [--check-host-reference]\n"
      "  --time-probe  with --time (CPU): after each kernel run, read the\n"
      "              K and V it streams (paged: page by page through the\n"
      "              tables) on the same threads, and print probe_time_ms,\n"
      "              probe_read_gbps and kernel_vs_probe (the kernel's K+V\n"
      "              rate over the probe's, median of the runs' pairs)\n"
      "  --cpu NAME  generate code for the LLVM CPU NAME (e.g. x86-64-v3)\n"
      "              instead of the host; default: $ROCK_JIT_CPU, else the "
      "host\n"
      "  --compile-only -o FILE  GPU modules (mhal.arch = sm_*): write a "
      "kernel\n"
      "              bundle for rock-run-gpu instead of running; --cubin:\n"
      "              its kernels as cubins from ptxas (no JIT when loaded)\n"
      "  --perf-db FILE  perf_configs from a perf DB for ops without one\n"
      "              (docs/tuning.md); -v says which was used\n"
      "  --tune-configs FILE  time each perf_config of FILE (one a line,\n"
      "              `heuristic` for the module's own) on the same inputs,\n"
      "              then run and verify the fastest (rock-tune)\n"
      "  --check-host-reference  run the module's @host_naive_attention\n"
      "              (rocmlir-gen's MLIR reference, rock-gen -pv / -ph) in\n"
      "              place of the kernel, on the CPU, and verify it the same\n"
      "              way\n"
      "verdicts compare against the f64 reference rounded to the output\n"
      "type; with verifier mlir (rock-gen -pv) the reference also rounds\n"
      "the scores where the region computes in f16/bf16 and P where it\n"
      "meets an f16/bf16 V, as the kernel does (mlir-strict: every such\n"
      "rounding, f32 too); -v adds the figures against the unrounded f64\n"
      "reference (docs/user-guide.md 3.3)\n");
}

//===----------------------------------------------------------------------===//
// Errors and diagnostics
//===----------------------------------------------------------------------===//

#define errorExit(...) rockReportError("rock-run", __VA_ARGS__)

/// An MlirStringCallback appending to the RockStr `user`, newlines as spaces
/// (rock-run reports every failure in one line).
static void appendOneLine(MlirStringRef s, void *user) {
  for (size_t i = 0; i < s.length; ++i)
    rock__strAppendN(user, s.data[i] == '\n' ? " " : s.data + i, 1);
}

/// The first error diagnostic MLIR reported, as one line ("" if none).
static RockStr firstDiag;

/// Records the first error diagnostic; drops the others (rock-run reports
/// every failure in one line).
static MlirLogicalResult diagHandler(MlirDiagnostic diag, void *user) {
  (void)user;
  if (mlirDiagnosticGetSeverity(diag) != MlirDiagnosticError ||
      firstDiag.len > 0)
    return mlirLogicalResultSuccess();
  mlirLocationPrint(mlirDiagnosticGetLocation(diag), appendOneLine, &firstDiag);
  rock__strAppend(&firstDiag, ": ");
  mlirDiagnosticPrint(diag, appendOneLine, &firstDiag);
  return mlirLogicalResultSuccess();
}

/// Returns ": <first diagnostic>" or "".
static const char *diagSuffix(void) {
  static RockStr buf;
  if (firstDiag.len == 0)
    return "";
  rock__strFree(&buf);
  rock__strAppendf(&buf, ": %s", firstDiag.data);
  return buf.data;
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

/// Checks that `func`'s inputs are exactly the rank-1 memrefs of `args`.
static bool checkSignature(MlirOperation func, const char *fname,
                           const RockSessionArg *args, int n) {
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
    char got[128], want[128];
    rock__typeToBuf(mlirFunctionTypeGetInput(t, i), got, sizeof got);
    snprintf(want, sizeof want, "memref<%lldx%s>",
             (long long)args[i].buf->numElements,
             rockDTypeGetName(args[i].buf->dtype));
    if (strcmp(got, want) != 0) {
      errorExit("@%s argument %d (%s) is %s, the harness expects %s", fname, i,
                args[i].role, got, want);
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// Phase durations in ms, reported with -v.
static double parseMs, lowerMs, jitMs;

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

/// The names of rocmlir-gen's host functions (capi/lib/host_main.c).
static bool isHostFunction(MlirStringRef n) {
  static const char *const exact[] = {"host_naive_attention", "main",
                                      "rock_attention_gpu",
                                      "rock_attention_cpu"};
  static const char *const prefix[] = {"rock_attention_verify", "rock_fill_"};
  for (size_t i = 0; i < sizeof exact / sizeof *exact; ++i)
    if (n.length == strlen(exact[i]) && !memcmp(n.data, exact[i], n.length))
      return true;
  for (size_t i = 0; i < sizeof prefix / sizeof *prefix; ++i)
    if (n.length > strlen(prefix[i]) &&
        !memcmp(n.data, prefix[i], strlen(prefix[i])))
      return true;
  return false;
}

/// Erases what rock-run does not run: rocmlir-gen's host functions
/// (@host_naive_attention, @main, the wrappers, verify and fill functions)
/// that rock-gen emits with -pv / -ph. rock-run keeps its own inputs and f64
/// reference; the kernel, its combine and any function they call stay.
static void stripHostFunctions(Compiled *c) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(c->module));
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) &&
        isHostFunction(mlirStringAttrGetValue(sym)))
      mlirOperationDestroy(op);
    op = next;
  }
}

/// --check-host-reference: @host_naive_attention becomes @rock_attention
/// (the kernel and its combine go; the session's combine of the reference's
/// identical splits takes split 0, hostRefInvoke). False when the module has
/// no host reference.
static bool useHostReference(Compiled *c) {
  MlirOperation ref = findFunc(c->module, "host_naive_attention");
  if (mlirOperationIsNull(ref))
    return false;
  MlirOperation kernel = findFunc(c->module, "rock_attention");
  MlirOperation combine = findFunc(c->module, "rock_attention_combine");
  mlirOperationDestroy(kernel);
  if (!mlirOperationIsNull(combine))
    mlirOperationDestroy(combine);
  mlirOperationSetAttributeByName(
      ref, mlirStringRefCreateFromCString("sym_name"),
      mlirStringAttrGet(c->ctx,
                        mlirStringRefCreateFromCString("rock_attention")));
  return true;
}

/// Parses `text`, reads the harness, lowers and JITs. Returns an exit status
/// (EXIT_PASS on success).
static int compile(const char *text, size_t size, const char *fileName,
                   Compiled *c, RockHarness *h, bool *hasCombine) {
  c->ctx = rockJitContextCreate();
  mlirContextAttachDiagnosticHandler(c->ctx, diagHandler, NULL, NULL);

  char err[512];
  if (!rockTextCheckNesting((MlirStringRef){text, size}, ROCK_MAX_TEXT_NESTING,
                            err, sizeof err))
    return errorExit("cannot parse %s: %s", fileName, err);
  double start = rockTimerNowMs();
  c->module = mlirModuleCreateParse(c->ctx, (MlirStringRef){text, size});
  parseMs = rockTimerNowMs() - start;
  if (mlirModuleIsNull(c->module))
    return errorExit("cannot parse %s%s", fileName, diagSuffix());
  MlirAttribute harness = rockHarnessFind(c->module);
  if (mlirAttributeIsNull(harness))
    return errorExit("%s has no rock.harness module attribute (generate it "
                     "with rock-gen -ph or -pv)",
                     fileName);
  if (!rockHarnessRead(harness, h, err, sizeof err))
    return errorExit("%s", err);
  MlirOperation kernel = findFunc(c->module, "rock_attention");
  if (mlirOperationIsNull(kernel))
    return errorExit("%s has no @rock_attention function", fileName);
  if (checkHostRef && !useHostReference(c))
    return errorExit("%s has no @host_naive_attention (generate it with "
                     "rock-gen -pv or -ph)",
                     fileName);
  stripHostFunctions(c);
  *hasCombine =
      checkHostRef
          ? h->problem.splitKV > 1
          : !mlirOperationIsNull(findFunc(c->module, "rock_attention_combine"));
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

/// Sets the unit attribute rock.no_prefetch on the module: the CPU lowering
/// then emits no software prefetch (an ablation, bench/run.py).
static void setNoPrefetch(Compiled *c) {
  mlirOperationSetAttributeByName(
      mlirModuleGetOperation(c->module),
      mlirStringRefCreateFromCString("rock.no_prefetch"),
      mlirUnitAttrGet(c->ctx));
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

/// Gives @name (when the module has it) the llvm.emit_c_interface the JIT
/// calls it through: rock-gen writes it for the CPU, rocmlir-gen's GPU-target
/// kernels (`{mhal.arch = ..., rock.kernel}`) do not carry it.
static void setCInterface(Compiled *c, const char *name) {
  MlirOperation f = findFunc(c->module, name);
  if (!mlirOperationIsNull(f))
    mlirOperationSetAttributeByName(
        f, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
        mlirUnitAttrGet(c->ctx));
}

static int lowerAndJit(Compiled *c, const char *cpu) {
  setCInterface(c, "rock_attention");
  setCInterface(c, "rock_attention_combine");
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
  c->jit = rockJitCreate(c->module, cpu);
  if (mlirExecutionEngineIsNull(c->jit))
    return errorExit("cannot create the JIT execution engine%s", diagSuffix());
  // Force code generation now, so that compile time covers it.
  char err[1024];
  if (!rockJitLookup(c->jit, "rock_attention", err, sizeof err))
    return errorExit("JIT compilation failed: %s", err);
  jitMs = rockTimerNowMs() - start;
  return probeScratch(c);
}

//===----------------------------------------------------------------------===//
// The CPU backend of the run session
//===----------------------------------------------------------------------===//

static bool jitInvoke(void *user, const char *name, RockBuffer *const *args,
                      int n, char *err, size_t errSize) {
  (void)err;
  (void)errSize;
  return rockJitInvoke(((Compiled *)user)->jit, name, args, n);
}

/// The dense K / V the host reference reads for a paged problem: the
/// kernel's non-paged layout (K `[Bkv, Dqk, Sk]`, or `[Bkv, Sk, Dqk]` with
/// transK; V `[Bkv, Sk, Dv]`, or `[Bkv, Dv, Sk]` with transV), made from the
/// session's head-major caches `[Bkv, Sk, D]` (runtime/paged.h).
static RockBuffer *hostRefK, *hostRefV;

/// A copy of `src` (`[n, rows, cols]`) as `[n, cols, rows]`.
static RockBuffer *transposed(const RockBuffer *src, int64_t n, int64_t rows,
                              int64_t cols) {
  RockBuffer *d = rockBufferCreate(src->dtype, src->numElements);
  if (!d)
    return NULL;
  size_t e = rockDTypeGetSize(src->dtype);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        memcpy((char *)d->data + (size_t)((b * cols + c) * rows + r) * e,
               (const char *)src->data +
                   (size_t)((b * rows + r) * cols + c) * e,
               e);
  return d;
}

/// Makes hostRefK / hostRefV for a paged session; false when out of memory.
static bool hostRefDense(const RockSession *s) {
  const RockAttnProblem *p = &s->h->problem;
  int64_t bkv = rockAttnProblemGetBkv(p);
  if (!p->paged || hostRefK)
    return true;
  hostRefK = p->transK ? s->k : transposed(s->k, bkv, p->seqLenK, p->headDimQK);
  hostRefV = !p->transV ? s->v : transposed(s->v, bkv, p->seqLenK, p->headDimV);
  return hostRefK && hostRefV;
}

/// The arguments @rock_attention takes: the session's, except that the host
/// reference (--check-host-reference) reads a paged K / V as the dense
/// buffers of hostRefDense, not as page tables.
static void hostRefArgs(const RockSession *s, RockSessionArg *args) {
  for (int i = 0; i < s->numArgs; ++i) {
    args[i] = s->args[i];
    if (checkHostRef && s->h->problem.paged && s->kCache &&
        args[i].buf == s->kCache->table)
      args[i] = (RockSessionArg){"K", hostRefK ? hostRefK : s->k};
    if (checkHostRef && s->h->problem.paged && s->vCache &&
        args[i].buf == s->vCache->table)
      args[i] = (RockSessionArg){"V", hostRefV ? hostRefV : s->v};
  }
}

/// The backend of --check-host-reference: the reference in place of the
/// kernel; its splits are all the whole result, so "combining" them takes
/// split 0 (partial batch b·S) into batch b.
typedef struct HostRefRun {
  Compiled *c;
  const RockSession *s;
} HostRefRun;

static void takeSplit0(const RockBuffer *part, RockBuffer *whole, int64_t B,
                       int64_t S) {
  size_t esz = rockDTypeGetSize(part->dtype);
  size_t blk = (size_t)(whole->numElements / B) * esz;
  for (int64_t b = 0; b < B; ++b)
    memcpy((char *)whole->data + (size_t)b * blk,
           (const char *)part->data + (size_t)(b * S) * blk, blk);
}

static bool hostRefInvoke(void *user, const char *name, RockBuffer *const *args,
                          int n, char *err, size_t errSize) {
  HostRefRun *r = user;
  if (strcmp(name, "rock_attention_combine")) {
    RockSessionArg a[ROCK_SESSION_MAX_ARGS];
    RockBuffer *bufs[ROCK_SESSION_MAX_ARGS];
    hostRefArgs(r->s, a);
    for (int i = 0; i < n; ++i)
      bufs[i] = a[i].buf;
    return jitInvoke(r->c, name, bufs, n, err, errSize);
  }
  /* partial out, partial LSE, out, LSE */
  int64_t B = rockAttnProblemGetB(&r->s->h->problem),
          S = r->s->h->problem.splitKV;
  takeSplit0(args[0], args[2], B, S);
  if (n > 3 && args[3])
    takeSplit0(args[1], args[3], B, S);
  return true;
}

static void printPhases(void *user, const RockSession *s) {
  Compiled *c = user;
  printf("phases: parse %.1f ms, lower %.1f ms, JIT %.1f ms, inputs "
         "%.1f ms, reference %.1f ms\n",
         parseMs, lowerMs, jitMs, s->fillMs, s->referenceMs);
  MlirAttribute nt = mlirOperationGetAttributeByName(
      mlirModuleGetOperation(c->module),
      mlirStringRefCreateFromCString("rock.num_threads"));
  if (mlirAttributeIsNull(nt) || !mlirAttributeIsAInteger(nt))
    printf("threads: rock.num_threads unset (no internal split)\n");
  else
    printf("threads: rock.num_threads %lld\n",
           (long long)mlirIntegerAttrGetValueInt(nt));
}

/// Checks the signatures, applies the host features and the thread count,
/// lowers and JITs. Returns an exit status.
static int prepareKernel(Compiled *c, const RockSession *s, bool verbose) {
  // The signature is checked before lowering, while it is still func.func.
  RockSessionArg args[ROCK_SESSION_MAX_ARGS];
  hostRefArgs(s, args);
  if (!checkSignature(findFunc(c->module, "rock_attention"), "rock_attention",
                      args, s->numArgs))
    return EXIT_ERROR;
  if (!checkHostRef && s->h->problem.splitKV > 1 && s->hasCombine &&
      !checkSignature(findFunc(c->module, "rock_attention_combine"),
                      "rock_attention_combine", s->combineArgs, 4))
    return EXIT_ERROR;
  const char *cpu = rockJitTargetCpu(cpuFlag);
  if (cpu && !rockX86CpuIsKnown(mlirStringRefCreateFromCString(cpu)))
    return errorExit("unknown CPU '%s' (%s): give an LLVM x86-64 CPU name "
                     "such as x86-64-v3 or znver4",
                     cpu, cpuFlag ? "--cpu" : "$" ROCK_JIT_CPU_ENV);
  char ferr[256];
  if (!rockHostFeaturesApply(c->module, !noHostFeatures, cpu, ferr,
                             sizeof ferr))
    return errorExit("%s", ferr);
  if (!rockCpuMatrixApply(c->module, !noHostFeatures, cpu, ferr, sizeof ferr))
    return errorExit("%s", ferr);
  int64_t vecBits = rockCpuVectorBitsApply(c->module, cpu);
  if (verbose) {
    bool dot = !noHostFeatures && rockCpuHasBf16Dot(cpu);
    bool amx = !noHostFeatures && rockCpuHasAmx(cpu);
    bool vnni = !noHostFeatures && rockCpuHasVnni(cpu);
    printf("jit cpu: %s (%lld-bit vectors)\nhost features:%s%s%s%s\n",
           cpu ? cpu : "host", (long long)vecBits,
           dot ? " dot (avx512bf16)" : "", vnni ? " vnni (avx512vnni)" : "",
           amx ? " amx (amx-bf16, amx-int8)" : "",
           dot || amx || vnni ? "" : " none");
  }
  if (!noAutoSplit)
    setNumThreads(c);
  if (noPrefetch)
    setNoPrefetch(c);
  return lowerAndJit(c, cpu);
}

//===----------------------------------------------------------------------===//
// Perf DB and tuning (docs/tuning.md)
//===----------------------------------------------------------------------===//

static RockAttentionDtype attnDtype(RockDType t) {
  return t == ROCK_DTYPE_F16    ? ROCK_ATTENTION_F16
         : t == ROCK_DTYPE_BF16 ? ROCK_ATTENTION_BF16
         : t == ROCK_DTYPE_I8   ? ROCK_ATTENTION_I8
                                : ROCK_ATTENTION_F32;
}

/// The problem of `h` as rock-gen's configuration (for its tuning key);
/// its lists point into `h`.
static void problemConfig(const RockHarness *h, RockAttentionConfig *c) {
  const RockAttnProblem *p = &h->problem;
  rockAttentionConfigInit(c);
  c->dtype = attnDtype(p->dtype);
  c->g = p->g;
  c->numHeadsQ = p->numHeadsQ;
  c->numHeadsKV = p->numHeadsKV;
  c->seqLenQ = p->seqLenQ;
  c->seqLenK = p->seqLenK;
  c->headDimQK = p->headDimQK;
  c->headDimV = p->headDimV;
  c->causal = p->causal;
  c->currentSeqLen = p->currentSeqLen;
  c->numCurrentSeqLen = p->numCurrentSeqLen;
  c->prefixOffset = p->prefixOffset;
  c->numPrefixOffset = p->numPrefixOffset;
  c->splitKV = p->splitKV;
  c->returnLse = p->returnLse;
  c->withScale = p->withScale;
  c->withBias = p->withBias;
  c->transQ = p->transQ;
  c->transK = p->transK;
  c->transV = p->transV;
  c->transO = p->transO;
  c->transBias = p->transBias;
  c->softmaxDtype = attnDtype(p->softmaxType);
  c->paged = p->paged;
  c->numPages = p->numPages;
  c->pageSize = p->pageSize;
  c->slidingWindowSize = p->slidingWindow > 0 ? p->slidingWindow : 0;
  c->causalLookBack = p->causalLookBack > 0 ? p->causalLookBack : 0;
}

typedef struct PerfWalk {
  MlirContext ctx;
  const char *perf; ///< set on ops without one (`force`: on every op)
  bool force;
  int missing; ///< rock.attention ops without a perf_config
} PerfWalk;

static MlirWalkResult perfWalk(MlirOperation op, void *user) {
  PerfWalk *w = user;
  MlirIdentifier id = mlirOperationGetName(op);
  if (!mlirStringRefEqual(mlirIdentifierStr(id),
                          mlirStringRefCreateFromCString("rock.attention")))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirStringRefCreateFromCString("perf_config");
  bool has = !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, name));
  w->missing += !has;
  if (w->perf && (w->force || !has))
    mlirOperationSetAttributeByName(
        op, name,
        mlirStringAttrGet(w->ctx, mlirStringRefCreateFromCString(w->perf)));
  return MlirWalkResultAdvance;
}

/// Sets perf_config `pc` on every rock.attention of `c`.
static void setPerfConfig(Compiled *c, const char *pc) {
  PerfWalk w = {c->ctx, pc, true, 0};
  mlirOperationWalk(mlirModuleGetOperation(c->module), perfWalk, &w,
                    MlirWalkPreOrder);
}

/// The module's target, mhal.arch or rock.arch ("" for the CPU), and compute
/// units (rock.num_cu, else the target's).
static int64_t moduleTarget(const Compiled *c, char *arch, size_t len) {
  MlirOperation m = mlirModuleGetOperation(c->module);
  MlirAttribute a = rock__archAttr(m, NULL);
  arch[0] = 0;
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    MlirStringRef v = mlirStringAttrGetValue(a);
    snprintf(arch, len, "%.*s", (int)v.length, v.data);
  }
  MlirAttribute n = mlirOperationGetAttributeByName(
      m, mlirStringRefCreateFromCString("rock.num_cu"));
  if (!mlirAttributeIsNull(n) && mlirAttributeIsAInteger(n) &&
      mlirIntegerAttrGetValueInt(n) > 0)
    return mlirIntegerAttrGetValueInt(n);
  return rockTuningDefaultNumCu(arch);
}

/// --perf-db: gives every rock.attention of `c` without a perf_config the
/// DB's entry for the problem of `h`; with `verbose`, says on stderr which
/// perf_config the kernel takes. A DB that cannot be read is one error
/// line; the heuristic stays.
static void applyPerfDb(Compiled *c, const RockHarness *h, bool verbose) {
  PerfWalk w = {c->ctx, NULL, false, 0};
  mlirOperationWalk(mlirModuleGetOperation(c->module), perfWalk, &w,
                    MlirWalkPreOrder);
  if (!w.missing) {
    if (verbose)
      fprintf(stderr, "rock-run: perf_config given in the module\n");
    return;
  }
  RockAttentionConfig cfg;
  problemConfig(h, &cfg);
  char arch[64], pc[512], err[512], key[1024];
  int64_t numCu = moduleTarget(c, arch, sizeof arch);
  RockPerfSource src = rockAttentionResolvePerfConfig(
      &cfg, arch, numCu, perfDbPath, pc, sizeof pc, err, sizeof err);
  if (err[0])
    fprintf(stderr, "rock-run: error: %s; the heuristic is used\n", err);
  if (src == ROCK_PERF_FROM_DB) {
    w.perf = pc;
    mlirOperationWalk(mlirModuleGetOperation(c->module), perfWalk, &w,
                      MlirWalkPreOrder);
  }
  if (!verbose)
    return;
  rockAttentionTuningKey(&cfg, arch, numCu, key, sizeof key);
  fprintf(stderr, "rock-run: tuning key: %s\n", key);
  if (src == ROCK_PERF_FROM_DB)
    fprintf(stderr, "rock-run: perf_config %s from perf DB %s\n", pc,
            perfDbPath);
  else
    fprintf(stderr, "rock-run: perf_config: the heuristic (%s)\n",
            err[0] ? "perf DB unreadable" : "no entry in the perf DB");
}

enum { MAX_TUNE = 1024, TUNE_ROUNDS = 3 };

/// Reads --tune-configs: one perf_config a line, `heuristic` for the
/// module's own ('#' lines and blank lines skipped). Returns the count
/// (configs malloc'ed into *out), or -1 after an error line.
static int readTuneConfigs(char ***out) {
  FILE *f = fopen(tuneFile, "r");
  if (!f)
    return errorExit("cannot open '%s': %s", tuneFile, strerror(errno)), -1;
  char **v = calloc(MAX_TUNE, sizeof *v), *line = NULL;
  size_t cap = 0;
  int n = 0;
  ssize_t got;
  while (v && (got = getline(&line, &cap, f)) >= 0) {
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == ' '))
      line[--got] = 0;
    if (got == 0 || line[0] == '#')
      continue;
    if (n == MAX_TUNE)
      break;
    v[n++] = strdup(line);
  }
  free(line);
  fclose(f);
  if (!v || n == 0 || n == MAX_TUNE) {
    free(v);
    return errorExit("%s: %s", tuneFile,
                     n ? "more than 1023 perf_configs" : "no perf_config"),
           -1;
  }
  *out = v;
  return n;
}

/// One perf_config under --tune-configs.
typedef struct Tuned {
  Compiled c;
  bool ok;
  double compileMs, *times, median, best;
} Tuned;

/// Compiles the module `text` with perf_config `pc` into t; prints a
/// `tune:` error line when it does not compile.
static void tuneCompile(Tuned *t, int i, const char *pc, const char *text,
                        size_t size, const char *fileName,
                        const RockSession *s) {
  double start = rockTimerNowMs();
  RockHarness h;
  bool hasCombine;
  rock__strFree(&firstDiag);
  t->ok = compile(text, size, fileName, &t->c, &h, &hasCombine) == EXIT_PASS;
  if (t->ok && strcmp(pc, "heuristic"))
    setPerfConfig(&t->c, pc);
  t->ok = t->ok && prepareKernel(&t->c, s, false) == EXIT_PASS;
  t->compileMs = rockTimerNowMs() - start;
  if (!t->ok)
    printf("tune: %d error %s\n", i, pc);
}

/// Times every compiled config in TUNE_ROUNDS interleaved rounds of
/// `repeats` runs; fills median and best. Returns an exit status.
static int tuneTime(Tuned *t, int n, RockSession *s, int64_t repeats) {
  for (int r = 0; r < TUNE_ROUNDS; ++r)
    for (int i = 0; i < n; ++i) {
      if (!t[i].ok)
        continue;
      RockSessionBackend be = {&t[i].c, jitInvoke, printPhases, NULL};
      int status =
          rockSessionTimeKernel(s, &be, t[i].times + r * repeats, repeats);
      if (status != EXIT_PASS)
        return status;
    }
  for (int i = 0; i < n; ++i) {
    if (!t[i].ok)
      continue;
    int64_t m = TUNE_ROUNDS * repeats;
    t[i].median = rockTimerMedian(t[i].times, (int)m);
    t[i].best = rockTimerMin(t[i].times, m);
  }
  return EXIT_PASS;
}

/// --tune-configs: compiles, times and reports each perf_config, then runs
/// and verifies the fastest as a plain run. Fastest is the best run, not
/// the median: on a shared CPU other processes only ever add time, so the
/// least time of many runs is the kernel's own. Returns the exit status of
/// that run.
static int tuneRun(const char *text, size_t size, const char *fileName,
                   RockSession *s, const RockRunOptions *o) {
  char **cfgs = NULL;
  int n = readTuneConfigs(&cfgs);
  if (n < 0)
    return EXIT_ERROR;
  int64_t repeats = o->kernelRepeats ? o->kernelRepeats : s->h->kernelRepeats;
  repeats = repeats < 1 ? 1 : repeats;
  Tuned *t = calloc((size_t)n, sizeof *t);
  int status = t ? EXIT_PASS : errorExit("out of memory");
  for (int i = 0; status == EXIT_PASS && i < n; ++i) {
    tuneCompile(&t[i], i, cfgs[i], text, size, fileName, s);
    t[i].times = calloc((size_t)(TUNE_ROUNDS * repeats), sizeof(double));
    if (!t[i].times)
      status = errorExit("out of memory");
  }
  double load[2][3] = {{0}};
  getloadavg(load[0], 3);
  if (status == EXIT_PASS)
    status = tuneTime(t, n, s, repeats);
  getloadavg(load[1], 3);
  int best = -1;
  for (int i = 0; status == EXIT_PASS && i < n; ++i) {
    if (!t[i].ok)
      continue;
    printf("tune: %d median_ms %.4f min_ms %.4f %s\n", i, t[i].median,
           t[i].best, cfgs[i]);
    if (best < 0 || t[i].best < t[best].best)
      best = i;
  }
  if (status == EXIT_PASS && best < 0)
    status = errorExit("no perf_config of %s compiled", tuneFile);
  if (status == EXIT_PASS) {
    printf("tune: load average %.2f before, %.2f after (%d rounds of %lld "
           "runs)\n",
           load[0][0], load[1][0], TUNE_ROUNDS, (long long)repeats);
    printf("tune: best %d %s\n", best, cfgs[best]);
    fflush(stdout);
    rockSessionResetOutputs(s);
    RockSessionBackend be = {&t[best].c, jitInvoke, printPhases, NULL};
    status = rockSessionRun(s, o, &be, t[best].compileMs);
  }
  for (int i = 0; i < n; ++i) {
    if (t)
      destroyCompiled(&t[i].c), free(t[i].times);
    free(cfgs[i]);
  }
  free(t);
  free(cfgs);
  return status;
}

/// Reads the whole input file (or stdin) into `*text`; returns an exit status.
static int readInput(const char *fileName, char **text, size_t *size) {
  FILE *f = strcmp(fileName, "<stdin>") ? fopen(fileName, "rb") : stdin;
  if (!f)
    return errorExit("cannot open '%s': %s", fileName, strerror(errno));
  *text = readAll(f, size);
  if (f != stdin)
    fclose(f);
  if (!*text)
    return errorExit("cannot read '%s'", fileName);
  return EXIT_PASS;
}

/// Writes `b` to outputPath; returns an exit status.
static int writeBundle(const RockBundle *b) {
  bool toStdout = !strcmp(outputPath, "-");
  FILE *f = toStdout ? stdout : fopen(outputPath, "wb");
  if (!f)
    return errorExit("cannot open '%s': %s", outputPath, strerror(errno));
  bool ok = rockBundleWrite(f, b);
  if (!toStdout)
    ok = fclose(f) == 0 && ok;
  return ok ? EXIT_PASS : errorExit("cannot write '%s'", outputPath);
}

/// GPU modules: lowers to a bundle, then writes it (--compile-only) or runs
/// it on this machine's GPU. Returns an exit status.
static int compileGpu(Compiled *c, const RockHarness *h,
                      const RockRunOptions *o, const char *arch, double t0) {
  RockBundle *b = calloc(1, sizeof *b);
  if (!b)
    return errorExit("out of memory");
  b->harness = *h;
  snprintf(b->arch, sizeof b->arch, "%s", arch);
  char err[512];
  int status = EXIT_PASS;
  if (!rockGpuCompileAs(c->module, arch, cubin, b, err, sizeof err))
    status = errorExit("%s%s", err, diagSuffix());
  b->compileMs = rockTimerNowMs() - t0;
  if (status == EXIT_PASS)
    status = compileOnly ? writeBundle(b)
                         : rockGpuRunBundle("rock-run", b, o, b->compileMs);
  rockBundleDestroy(b);
  free(b);
  return status;
}

static int runMain(const RockRunOptions *o) {
  double t0 = rockTimerNowMs();
  if (ompThreads() == 0)
    return errorExit("OMP_NUM_THREADS '%s': the thread count must be at most "
                     "%d",
                     getenv("OMP_NUM_THREADS"), ROCK_MAX_NUM_THREADS);
  const char *fileName =
      o->input && strcmp(o->input, "-") ? o->input : "<stdin>";
  char *text = NULL;
  size_t size = 0;
  int status = readInput(fileName, &text, &size);
  if (status != EXIT_PASS)
    return status;
  Compiled c;
  memset(&c, 0, sizeof c);
  RockSession s;
  memset(&s, 0, sizeof s);
  bool hasCombine = false;
  RockHarness *h = calloc(1, sizeof *h);
  if (!h) {
    status = errorExit("out of memory");
    goto done;
  }
  status = compile(text, size, fileName, &c, h, &hasCombine);
  if (!tuneFile) {
    free(text);
    text = NULL;
  }
  if (status != EXIT_PASS)
    goto done;
  if (perfDbPath)
    applyPerfDb(&c, h, o->verbose);
  char arch[32];
  if (!checkHostRef && rockGpuModuleGetArch(c.module, arch, sizeof arch)) {
    status = timeProbe ? errorExit("--time-probe reads host memory: it is for "
                                   "CPU modules, not %s",
                                   arch)
                       : compileGpu(&c, h, o, arch, t0);
    goto done;
  }
  if (compileOnly) {
    status = errorExit("--compile-only needs a GPU module (mhal.arch = "
                       "\"sm_*\"); %s is for the CPU",
                       fileName);
    goto done;
  }
  // compile_time_ms covers reading, parsing, lowering and JIT, not the
  // argument buffers (hundreds of MB for long KV caches) or their filling.
  double frontMs = rockTimerNowMs() - t0;
  status = rockSessionPrepare(&s, "rock-run", h, hasCombine,
                              rockSessionNeedsLogical(o, h) ||
                                  (checkHostRef && h->problem.paged));
  if (status != EXIT_PASS)
    goto done;
  if (tuneFile) {
    status = tuneRun(text, size, fileName, &s, o);
    goto done;
  }
  double backStart = rockTimerNowMs();
  status = prepareKernel(&c, &s, o->verbose);
  if (status != EXIT_PASS)
    goto done;
  double compileMs = frontMs + (rockTimerNowMs() - backStart);
  HostRefRun ref = {&c, &s};
  RockSessionBackend be = {&c, jitInvoke, printPhases, NULL};
  if (checkHostRef)
    be = (RockSessionBackend){&ref, hostRefInvoke, NULL, NULL};
  if (checkHostRef && !hostRefDense(&s)) {
    status = errorExit("out of memory");
    goto done;
  }
  status = rockSessionRun(&s, o, &be, compileMs);
done:
  fflush(stdout);
  if (hostRefK && hostRefK != s.k)
    rockBufferDestroy(hostRefK);
  if (hostRefV && hostRefV != s.v)
    rockBufferDestroy(hostRefV);
  free(text);
  rockSessionDestroy(&s);
  destroyCompiled(&c);
  free(h);
  return status;
}

int main(int argc, char **argv) {
  RockRunOptions o;
  const RockToolFlag flags[] = {{"no-host-features", &noHostFeatures, NULL},
                                {"no-auto-split", &noAutoSplit, NULL},
                                {"no-prefetch", &noPrefetch, NULL},
                                {"time-probe", &timeProbe, NULL},
                                {"cpu", NULL, &cpuFlag},
                                {"compile-only", &compileOnly, NULL},
                                {"cubin", &cubin, NULL},
                                {"perf-db", NULL, &perfDbPath},
                                {"tune-configs", NULL, &tuneFile},
                                {"check-host-reference", &checkHostRef, NULL},
                                {"o", NULL, &outputPath}};
  int status = rockRunOptionsParse("rock-run", argc, argv, &o, flags,
                                   (int)(sizeof flags / sizeof *flags), usage);
  if (status >= 0)
    return status;
  if (timeProbe && !o.time) {
    fprintf(stderr, "rock-run: --time-probe needs --time\n");
    return ROCK_EXIT_USAGE;
  }
  o.probeThreads = timeProbe ? (int)ompThreads() : 0;
  if (cubin && !compileOnly) {
    fprintf(stderr, "rock-run: --cubin needs --compile-only -o FILE\n");
    return ROCK_EXIT_USAGE;
  }
  if (compileOnly != (outputPath != NULL)) {
    fprintf(stderr, "rock-run: --compile-only and -o FILE go together (see "
                    "rock-run --help)\n");
    return ROCK_EXIT_USAGE;
  }
  return runMain(&o);
}
