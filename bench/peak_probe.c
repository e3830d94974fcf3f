/*===- peak_probe.c - the CPU's multiply-add peak, by JIT kernels -----------===
 *
 * rock-peak-probe [--compile-only] [--seconds S] [kernel ...]: JIT-compiles
 * small MLIR kernels through rock's CPU pipeline and runtime (runtime/jit.c,
 * for the CPU $ROCK_JIT_CPU names, else the host, as rock-run) and prints
 * the best rate
 * of 5 timed runs of at least S/2 seconds (default S 0.1) on all cores
 * (OpenMP threads), one line per kernel (all, or those named):
 *
 *   fma_f32_gflops: X    vector FMAs on f32 (2 FLOP per lane; 512- or
 *                        256-bit vectors as the CPU has)
 *   dot_bf16_gflops: X   vdpbf16ps (AVX512-BF16: 2 bf16 products and 2 adds
 *                        per f32 lane, 64 FLOP per instruction)
 *   dot_i8_gops: X       vpdpbusd (AVX512-VNNI: 4 u8 x s8 products and 4 adds
 *                        per i32 lane, 128 ops per instruction)
 *   amx_bf16_gflops: X   tdpbf16ps (AMX-BF16, 16x16 f32 += 16x32 bf16 x
 *                        32x16 bf16: 16384 FLOP per instruction)
 *   amx_i8_gops: X       tdpbssd (AMX-INT8, 16x16 i32 += 16x64 x 64x16 s8:
 *                        32768 ops per instruction)
 *
 * A kernel the CPU lacks prints `n/a`. Each thread runs independent
 * accumulator chains (enough to hide the instruction latency) on operands
 * loaded once, so the figure is the instruction throughput: the compute
 * ceiling rock's prefill kernels are compared with in bench/run.py (numpy's
 * SGEMM is a poor ceiling where its BLAS is throttled). --compile-only
 * generates every kernel the CPU has and runs none (`compiled` instead of a
 * rate): the AMX kernels can be checked on a host without AMX. --print N
 * prints the MLIR of kernel N (0 f32 FMA 512-bit, 1 256-bit, 2 bf16 dot,
 * 3 VNNI, 4 AMX bf16, 5 AMX i8).
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "host_features.h"
#include "jit.h"

#include "mlir-c/IR.h"
#include "rock-c/Target.h"

#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct Text {
  char buf[32768];
  size_t n;
} Text;

static void emit(Text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void emit(Text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->buf + t->n, sizeof t->buf - t->n, fmt, ap);
  va_end(ap);
  if (k > 0)
    t->n =
        t->n + (size_t)k < sizeof t->buf ? t->n + (size_t)k : sizeof t->buf - 1;
}

/* One vector probe: `chains` accumulators of type acc, the instruction
 * `%y = OP(%x, %a, %b)` printed by `instr`, `ops` per instruction. */
typedef struct Probe {
  const char *name;
  const char *acc, *opnd; /* accumulator / operand vector types */
  const char *elt;        /* the operands' element type */
  const char *instr;      /* format: result id, accumulator id */
  int chains;
  double ops;
} Probe;

/* The function @peak(%in: memref<4096xi8>, %out: memref<T x 16 x f32>):
 * per thread t of T, `iters` iterations; the sum of the accumulators'
 * first lanes goes to out[t * 16], so that nothing is dead. */
static void openKernel(Text *t, int threads) {
  emit(t,
       "func.func @peak(%%in: memref<4096xi8>, %%out: memref<%dxf32>, "
       "%%iters: memref<1xi64>) attributes {llvm.emit_c_interface} {\n"
       "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
       "  %%c16 = arith.constant 16 : index\n"
       "  %%c128 = arith.constant 128 : index\n"
       "  %%ct = arith.constant %d : index\n"
       "  %%n64 = memref.load %%iters[%%c0] : memref<1xi64>\n"
       "  %%cn = arith.index_cast %%n64 : i64 to index\n"
       "  scf.parallel (%%t) = (%%c0) to (%%ct) step (%%c1) {\n",
       threads * 16, threads);
}

static void closeKernel(Text *t, int threads, int sum) {
  emit(t,
       "    %%o = arith.muli %%t, %%c16 : index\n"
       "    memref.store %%v%d, %%out[%%o] : memref<%dxf32>\n"
       "    scf.reduce\n  }\n  return\n}\n",
       sum, threads * 16);
}

static void vectorKernel(Text *t, const Probe *p, int threads) {
  bool fl = strstr(p->acc, "f32") != NULL;
  openKernel(t, threads);
  emit(t,
       "    %%ib = memref.view %%in[%%c0][] : memref<4096xi8> to "
       "memref<256x%s>\n"
       "    %%a = vector.load %%ib[%%c0] : memref<256x%s>, %s\n"
       "    %%b = vector.load %%ib[%%c128] : memref<256x%s>, %s\n",
       p->elt, p->elt, p->opnd, p->elt, p->opnd);
  /* Distinct starting values, so that CSE cannot merge the chains. */
  for (int c = 0; c < p->chains; ++c)
    emit(t, "    %%z%d = arith.constant dense<%d%s> : %s\n", c, c,
         fl ? ".0" : "", p->acc);
  emit(t, "    %%r:%d = scf.for %%i = %%c0 to %%cn step %%c1 iter_args(",
       p->chains);
  for (int c = 0; c < p->chains; ++c)
    emit(t, "%s%%x%d = %%z%d", c ? ", " : "", c, c);
  emit(t, ") -> (");
  for (int c = 0; c < p->chains; ++c)
    emit(t, "%s%s", c ? ", " : "", p->acc);
  emit(t, ") {\n");
  for (int c = 0; c < p->chains; ++c) {
    emit(t, "      ");
    emit(t, p->instr, c, c);
    emit(t, "\n");
  }
  emit(t, "      scf.yield ");
  for (int c = 0; c < p->chains; ++c)
    emit(t, "%s%%y%d", c ? ", " : "", c);
  emit(t, " : ");
  for (int c = 0; c < p->chains; ++c)
    emit(t, "%s%s", c ? ", " : "", p->acc);
  emit(t, "\n    }\n");
  const char *elt = fl ? "f32" : "i32";
  for (int c = 0; c < p->chains; ++c)
    emit(t, "    %%e%d = vector.extract %%r#%d[0] : %s from %s\n", c, c, elt,
         p->acc);
  emit(t, "    %%v0 = %s %%e0 : %s%s\n",
       fl ? "arith.addf %e0," : "arith.sitofp", elt, fl ? "" : " to f32");
  for (int c = 1; c < p->chains; ++c) {
    if (!fl)
      emit(t, "    %%w%d = arith.sitofp %%e%d : i32 to f32\n", c, c);
    emit(t, "    %%v%d = arith.addf %%v%d, %%%c%d : f32\n", c, c - 1,
         fl ? 'e' : 'w', c);
  }
  closeKernel(t, threads, p->chains - 1);
}

/* AMX: four accumulator tiles, loaded from and stored to a per-thread
 * buffer once per iteration around eight rounds of four tile products. */
static void amxKernel(Text *t, bool i8, int threads) {
  const char *ta = i8 ? "!amx.tile<16x64xi8>" : "!amx.tile<16x32xbf16>";
  const char *tc = i8 ? "!amx.tile<16x16xi32>" : "!amx.tile<16x16xf32>";
  const char *ma = i8 ? "memref<16x64xi8>" : "memref<16x32xbf16>";
  const char *mc = i8 ? "memref<64x16xi32>" : "memref<64x16xf32>";
  const char *mul = i8 ? "amx.tile_muli" : "amx.tile_mulf";
  openKernel(t, threads);
  emit(t,
       "    %%ab = memref.view %%in[%%c0][] : memref<4096xi8> to %s\n"
       "    %%ta = amx.tile_load %%ab[%%c0, %%c0] : %s into %s\n"
       "    %%cb = memref.alloc() {alignment = 64} : %s\n"
       "    %%tz = amx.tile_zero : %s\n",
       ma, ma, ta, mc, tc);
  for (int c = 0; c < 4; ++c)
    emit(t,
         "    %%co%d = arith.constant %d : index\n"
         "    amx.tile_store %%cb[%%co%d, %%c0], %%tz : %s, %s\n",
         c, 16 * c, c, mc, tc);
  emit(t, "    scf.for %%i = %%c0 to %%cn step %%c1 {\n");
  for (int c = 0; c < 4; ++c)
    emit(t, "      %%x%d_0 = amx.tile_load %%cb[%%co%d, %%c0] : %s into %s\n",
         c, c, mc, tc);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c)
      emit(t, "      %%x%d_%d = %s %%ta, %%ta, %%x%d_%d : %s, %s, %s\n", c,
           r + 1, mul, c, r, ta, ta, tc);
  for (int c = 0; c < 4; ++c)
    emit(t, "      amx.tile_store %%cb[%%co%d, %%c0], %%x%d_8 : %s, %s\n", c, c,
         mc, tc);
  emit(t, "    }\n    %%e = memref.load %%cb[%%c0, %%c0] : %s\n", mc);
  if (i8)
    emit(t, "    %%v0 = arith.sitofp %%e : i32 to f32\n");
  else
    emit(t, "    %%v0 = arith.addf %%e, %%e : f32\n");
  emit(t, "    memref.dealloc %%cb : %s\n", mc);
  closeKernel(t, threads, 0);
}

static const Probe fma512 = {
    "fma",
    "vector<16xf32>",
    "vector<16xf32>",
    "f32",
    "%%y%d = vector.fma %%a, %%b, %%x%d : vector<16xf32>",
    16,
    32};
static const Probe fma256 = {
    "fma",
    "vector<8xf32>",
    "vector<8xf32>",
    "f32",
    "%%y%d = vector.fma %%a, %%b, %%x%d : vector<8xf32>",
    12,
    16};
static const Probe bf16 = {
    "dot",
    "vector<16xf32>",
    "vector<32xbf16>",
    "bf16",
    "%%y%d = llvm.call_intrinsic \"llvm.x86.avx512bf16.dpbf16ps.512\"("
    "%%x%d, %%a, %%b) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) "
    "-> vector<16xf32>",
    16,
    64};
static const Probe i8 = {
    "vnni",
    "vector<16xi32>",
    "vector<64xi8>",
    "i8",
    "%%y%d = llvm.call_intrinsic \"llvm.x86.avx512.vpdpbusd.512\"(%%x%d, "
    "%%a, %%b) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> "
    "vector<16xi32>",
    16,
    128};

typedef struct Kernel {
  const char *name;
  bool available;
  double opsPerIter; /* per thread and iteration */
  int kind;          /* 0: vector probe, 1: AMX bf16, 2: AMX i8 */
  const Probe *probe;
} Kernel;

/* Best rate in ops/s of `k`, -1 when it does not compile (reported), 0 with
 * compileOnly. */
static double measure(MlirContext ctx, const Kernel *k, int threads,
                      double seconds, bool compileOnly, float *in, float *out) {
  static Text t;
  t.n = 0;
  if (k->kind == 0)
    vectorKernel(&t, k->probe, threads);
  else
    amxKernel(&t, k->kind == 2, threads);
  char err[512];
  MlirExecutionEngine jit = rockJitCompileText(ctx, t.buf, err, sizeof err);
  if (mlirExecutionEngineIsNull(jit) ||
      !rockJitLookup(jit, "peak", err, sizeof err)) {
    printf("%s: n/a (%s)\n", k->name, err);
    if (!mlirExecutionEngineIsNull(jit))
      mlirExecutionEngineDestroy(jit);
    return -1;
  }
  double best = 0;
  int64_t iters = 1 << 10;
  for (int rep = 0, timed = 0; !compileOnly && timed < 5 && rep < 30; ++rep) {
    void *data[3] = {in, out, &iters};
    int64_t sizes[3] = {4096, threads * 16, 1};
    double t0 = now();
    rockJitInvokeData(jit, "peak", data, sizes, 3);
    double dt = now() - t0;
    if (dt < seconds / 2) {
      iters *= 4; /* too short to time: scale up, do not count */
      continue;
    }
    ++timed;
    double rate = (double)threads * (double)iters * k->opsPerIter / dt;
    if (rate > best)
      best = rate;
  }
  mlirExecutionEngineDestroy(jit);
  return best;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "--print")) {
    /* The MLIR of one kernel (fma512 ... amx_i8), for reading. */
    static Text t;
    int which = atoi(argv[2]);
    if (which >= 0 && which < 4)
      vectorKernel(&t, (const Probe *[]){&fma512, &fma256, &bf16, &i8}[which],
                   2);
    else
      amxKernel(&t, which == 5, 2);
    fputs(t.buf, stdout);
    return 0;
  }
  bool compileOnly = false;
  double seconds = 0.1;
  int first = 1; /* the kernel names given, argv[first..] */
  for (; first < argc && argv[first][0] == '-'; ++first) {
    if (!strcmp(argv[first], "--compile-only"))
      compileOnly = true;
    else if (!strcmp(argv[first], "--seconds") && first + 1 < argc)
      seconds = atof(argv[++first]);
    else {
      fprintf(stderr, "usage: rock-peak-probe [--compile-only] [--seconds S] "
                      "[--print N] [kernel ...]\n");
      return 2;
    }
  }
  if (!(seconds > 0 && seconds < 100)) {
    fprintf(stderr, "rock-peak-probe: --seconds must be in (0, 100)\n");
    return 2;
  }
  const char *cpu = rockJitTargetCpu(NULL);
  if (cpu && !rockX86CpuIsKnown(mlirStringRefCreateFromCString(cpu))) {
    fprintf(stderr, "rock-peak-probe: unknown CPU '%s'\n", cpu);
    return 1;
  }
  bool wide = rockCpuVectorBits(cpu) == 512;
  int threads = omp_get_max_threads();
  /* AMX runs only where this process may execute it. */
  bool amx = rockCpuHasAmx(cpu) &&
             (compileOnly || rockX86HostHasFeature(
                                 mlirStringRefCreateFromCString("amx-tile")));
  const Probe *fma = wide ? &fma512 : &fma256;
  const Kernel kernels[] = {
      {"fma_f32_gflops", true, fma->chains * fma->ops, 0, fma},
      {"dot_bf16_gflops", wide && rockCpuHasBf16Dot(cpu), 16 * 64, 0, &bf16},
      {"dot_i8_gops", wide && rockCpuHasVnni(cpu), 16 * 128, 0, &i8},
      {"amx_bf16_gflops", amx, 32 * 16384.0, 1, NULL},
      {"amx_i8_gops", amx, 32 * 32768.0, 2, NULL},
  };
  MlirContext ctx = rockJitContextCreate();
  printf("threads: %d\njit_cpu: %s\n", threads, cpu ? cpu : "host");
  float *in = aligned_alloc(64, 4096), *out = calloc((size_t)threads * 16, 4);
  for (int i = 0; i < 1024; ++i)
    in[i] = 1e-3f; /* small and finite as f32, bf16 pairs and i8 */
  int rc = 0;
  for (size_t k = 0; k < sizeof kernels / sizeof *kernels; ++k) {
    bool wanted = first == argc;
    for (int i = first; i < argc; ++i)
      wanted = wanted || !strcmp(argv[i], kernels[k].name);
    if (!wanted)
      continue;
    if (!kernels[k].available) {
      printf("%s: n/a\n", kernels[k].name);
      continue;
    }
    double r =
        measure(ctx, &kernels[k], threads, seconds, compileOnly, in, out);
    if (r < 0)
      rc = 1;
    else if (compileOnly)
      printf("%s: compiled\n", kernels[k].name);
    else
      printf("%s: %.1f\n", kernels[k].name, r / 1e9);
  }
  free(in);
  free(out);
  mlirContextDestroy(ctx);
  return rc;
}
