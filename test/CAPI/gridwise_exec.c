/*===- gridwise_exec.c - executing rock-lower-gridwise-attention ----------===*/
/* RUN: rock-capi-gridwise-exec-test 2>&1 | FileCheck %s
 * On AVX-512 hosts, once more for x86-64-v3 (AVX2 + FMA, no AVX-512):
 * RUN: %if avx512 %{ env ROCK_JIT_CPU=x86-64-v3 rock-capi-gridwise-exec-test 2>&1 | FileCheck %s %}
 *
 * Builds rock.gridwise_attention kernels over flat buffers, lowers them with
 * rock-cpu-pipeline, runs them through the JIT and checks them against a
 * naive f64 reference written here: the split partials are merged in f64
 * (docs/semantics.md §5.8) and compared with full attention (docs/semantics.md
 * §2); every partial must be NaN-free and an empty split must hold O = 0, LSE =
 * −inf.
 */

#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include "jit.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "support/str.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Case {
  const char *name;
  int Bkv, R, Sq, Sk, Dqk, Dv, S, MB, NB;
  int causal, reverse, window; /* window < 0: none */
  int scale;                   /* an elementwise scale input and region */
  int bf16;                    /* Q, K, V and out in bf16 */
  int csl[8], po[8];           /* per query batch; used when has* set */
  int hasCsl, hasPo;
} Case;

/*===--- helpers ----------------------------------------------------------===*/

static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

static uint32_t rngState = 12345u;
static float rnd(void) {
  rngState = rngState * 1664525u + 1013904223u;
  return (float)((rngState >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static uint16_t toBf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float fromBf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/*===--- kernel text ------------------------------------------------------===*/

static char *kernelText(const Case *c) {
  int B = c->Bkv * c->R;
  const char *t = c->bf16 ? "bf16" : "f32";
  int nNBlk = (c->Sq * c->R + c->NB - 1) / c->NB;
  long grid = (long)c->Bkv * nNBlk * c->S;
  RockStr s = {0};
  rock__strAppendf(
      &s,
      "func.func @k(%%q: memref<%dx%s>, %%k: memref<%dx%s>, "
      "%%v: memref<%dx%s>, %%sc: memref<%dxf32>, %%csl: memref<%dxi32>, "
      "%%po: memref<%dxi32>, %%o: memref<%dx%s>, %%l: memref<%dxf32>) "
      "attributes {llvm.emit_c_interface} {\n",
      B * c->Sq * c->Dqk, t, c->Bkv * c->Sk * c->Dqk, t, c->Bkv * c->Sk * c->Dv,
      t, B * c->Sq * c->Sk, B, B, B * c->S * c->Sq * c->Dv, t,
      B * c->S * c->Sq);
  rock__strAppendf(
      &s,
      "  %%q3 = memref.expand_shape %%q [[0, 1, 2]] output_shape [%d, %d, "
      "%d] : memref<%dx%s> into memref<%dx%dx%dx%s>\n",
      B, c->Sq, c->Dqk, B * c->Sq * c->Dqk, t, B, c->Sq, c->Dqk, t);
  rock__strAppendf(
      &s,
      "  %%k3 = memref.expand_shape %%k [[0, 1, 2]] output_shape [%d, %d, "
      "%d] : memref<%dx%s> into memref<%dx%dx%dx%s>\n",
      c->Bkv, c->Sk, c->Dqk, c->Bkv * c->Sk * c->Dqk, t, c->Bkv, c->Sk, c->Dqk,
      t);
  rock__strAppendf(
      &s,
      "  %%v3 = memref.expand_shape %%v [[0, 1, 2]] output_shape [%d, %d, "
      "%d] : memref<%dx%s> into memref<%dx%dx%dx%s>\n",
      c->Bkv, c->Sk, c->Dv, c->Bkv * c->Sk * c->Dv, t, c->Bkv, c->Sk, c->Dv, t);
  rock__strAppendf(
      &s,
      "  %%s3 = memref.expand_shape %%sc [[0, 1, 2]] output_shape [%d, "
      "%d, %d] : memref<%dxf32> into memref<%dx%dx%dxf32>\n",
      B, c->Sq, c->Sk, B * c->Sq * c->Sk, B, c->Sq, c->Sk);
  rock__strAppendf(
      &s,
      "  %%o3 = memref.expand_shape %%o [[0, 1, 2]] output_shape [%d, %d, "
      "%d] : memref<%dx%s> into memref<%dx%dx%dx%s>\n",
      B * c->S, c->Sq, c->Dv, B * c->S * c->Sq * c->Dv, t, B * c->S, c->Sq,
      c->Dv, t);
  rock__strAppendf(
      &s,
      "  %%l2 = memref.expand_shape %%l [[0, 1]] output_shape [%d, %d] : "
      "memref<%dxf32> into memref<%dx%dxf32>\n",
      B * c->S, c->Sq, B * c->S * c->Sq, B * c->S, c->Sq);
  rock__strAppendf(
      &s,
      "  rock.gridwise_attention q(%%q3 : memref<%dx%dx%dx%s>) "
      "k(%%k3 : memref<%dx%dx%dx%s>) v(%%v3 : memref<%dx%dx%dx%s>) ",
      B, c->Sq, c->Dqk, t, c->Bkv, c->Sk, c->Dqk, t, c->Bkv, c->Sk, c->Dv, t);
  if (c->scale)
    rock__strAppendf(&s, "elementwise(%%s3 : memref<%dx%dx%dxf32>) ", B, c->Sq,
                     c->Sk);
  if (c->hasCsl)
    rock__strAppendf(&s, "currentSeqLen(%%csl : memref<%dxi32>) ", B);
  if (c->hasPo)
    rock__strAppendf(&s, "prefixOffset(%%po : memref<%dxi32>) ", B);
  rock__strAppendf(
      &s,
      "out(%%o3 : memref<%dx%dx%dx%s>) lse(%%l2 : memref<%dx%dxf32>) "
      "attributes {%s%ssplitKV = %d : i32, numRepeatsGQA = %d : i32, "
      "prePadG0M = %d : i64, prePadG0N = %d : i64, mPerBlock = %d : i32, "
      "nPerBlock = %d : i32, gridSize = %ld : i64, softmaxType = f32",
      B * c->S, c->Sq, c->Dv, t, B * c->S, c->Sq, c->causal ? "causal, " : "",
      c->reverse ? "reverseGrid, " : "", c->S, c->R, c->Sk, c->Sq * c->R, c->MB,
      c->NB, grid);
  if (c->window >= 0)
    rock__strAppendf(&s, ", slidingWindowSize = %d : i32", c->window);
  rock__strAppendf(&s, "} {\n");
  if (c->scale)
    rock__strAppendf(&s, "  ^bb0(%%a: f32, %%b: f32):\n"
                         "    %%m = arith.mulf %%a, %%b : f32\n"
                         "    rock.yield %%m : f32\n");
  rock__strAppendf(&s, "  }\n  return\n}\n");
  return s.data;
}

/*===--- reference --------------------------------------------------------===*/

/* Full attention in f64 for (bq, i): writes o[Dv] and returns the LSE. */
static double reference(const Case *c, const float *q, const float *k,
                        const float *v, const float *sc, int bq, int i,
                        double *o) {
  int bkv = bq / c->R;
  long last = c->Sk - 1;
  if (c->hasCsl && c->csl[bq] < last)
    last = c->csl[bq];
  long kvLast = last; /* the window looks back from here */
  if (c->causal) {
    long lim = i + (c->hasPo ? c->po[bq] : 0);
    if (lim < last)
      last = lim;
  }
  double *s = malloc(sizeof(double) * (size_t)c->Sk);
  double m = -INFINITY;
  for (int j = 0; j < c->Sk; ++j) {
    int vis = j <= last && (c->window < 0 || j >= kvLast - c->window);
    if (!vis) {
      s[j] = -INFINITY;
      continue;
    }
    double acc = 0;
    for (int d = 0; d < c->Dqk; ++d)
      acc += (double)q[((long)bq * c->Sq + i) * c->Dqk + d] *
             (double)k[((long)bkv * c->Sk + j) * c->Dqk + d];
    if (c->scale)
      acc = (float)((float)acc * sc[((long)bq * c->Sq + i) * c->Sk + j]);
    s[j] = acc;
    if (acc > m)
      m = acc;
  }
  for (int d = 0; d < c->Dv; ++d)
    o[d] = 0;
  if (m == -INFINITY) {
    free(s);
    return -INFINITY;
  }
  double l = 0;
  for (int j = 0; j < c->Sk; ++j) {
    if (s[j] == -INFINITY)
      continue;
    double p = exp(s[j] - m);
    l += p;
    for (int d = 0; d < c->Dv; ++d)
      o[d] += p * v[((long)bkv * c->Sk + j) * c->Dv + d];
  }
  for (int d = 0; d < c->Dv; ++d)
    o[d] /= l;
  free(s);
  return m + log(l);
}

/*===--- one case ---------------------------------------------------------===*/

static int runCase(MlirContext ctx, const Case *c) {
  char *text = kernelText(c), err[64];
  MlirExecutionEngine jit = rockJitCompileText(ctx, text, err, sizeof err);
  if (mlirExecutionEngineIsNull(jit)) {
    fprintf(stderr, "case %s: %s\n%s", c->name, err, text);
    free(text);
    return 1;
  }
  free(text);

  int B = c->Bkv * c->R;
  long nq = (long)B * c->Sq * c->Dqk, nk = (long)c->Bkv * c->Sk * c->Dqk,
       nv = (long)c->Bkv * c->Sk * c->Dv, ns = (long)B * c->Sq * c->Sk,
       no = (long)B * c->S * c->Sq * c->Dv, nl = (long)B * c->S * c->Sq;
  float *q = malloc(sizeof(float) * (size_t)nq);
  float *k = malloc(sizeof(float) * (size_t)nk);
  float *v = malloc(sizeof(float) * (size_t)nv);
  float *sc = malloc(sizeof(float) * (size_t)ns);
  float *o = malloc(sizeof(float) * (size_t)no);
  float *l = malloc(sizeof(float) * (size_t)nl);
  uint16_t *qh = malloc(2 * (size_t)nq), *kh = malloc(2 * (size_t)nk),
           *vh = malloc(2 * (size_t)nv), *oh = malloc(2 * (size_t)no);
  int32_t csl[8], po[8];
  for (long i = 0; i < nq; ++i)
    q[i] = rnd();
  for (long i = 0; i < nk; ++i)
    k[i] = rnd();
  for (long i = 0; i < nv; ++i)
    v[i] = rnd();
  for (long i = 0; i < ns; ++i)
    sc[i] = 0.5f + 0.5f * rnd();
  for (long i = 0; i < no; ++i)
    o[i] = NAN; /* every element must be written */
  for (long i = 0; i < nl; ++i)
    l[i] = NAN;
  if (c->bf16) {
    for (long i = 0; i < nq; ++i)
      q[i] = fromBf16(qh[i] = toBf16(q[i]));
    for (long i = 0; i < nk; ++i)
      k[i] = fromBf16(kh[i] = toBf16(k[i]));
    for (long i = 0; i < nv; ++i)
      v[i] = fromBf16(vh[i] = toBf16(v[i]));
  }
  for (int b = 0; b < 8; ++b) {
    csl[b] = c->csl[b];
    po[b] = c->po[b];
  }
  void *bufs[8] = {c->bf16 ? (void *)qh : q,
                   c->bf16 ? (void *)kh : k,
                   c->bf16 ? (void *)vh : v,
                   sc,
                   csl,
                   po,
                   c->bf16 ? (void *)oh : o,
                   l};
  int64_t sizes[8] = {nq, nk, nv, ns, B, B, no, nl};
  if (!rockJitInvokeData(jit, "k", bufs, sizes, 8)) {
    fprintf(stderr, "case %s: invoke failed\n", c->name);
    mlirExecutionEngineDestroy(jit);
    return 1;
  }
  if (c->bf16)
    for (long i = 0; i < no; ++i)
      o[i] = fromBf16(oh[i]);

  /* Partials: NaN-free; an LSE of −inf comes with O = 0. */
  int bad = 0, empty = 0;
  for (long r = 0; r < nl; ++r) {
    if (isnan(l[r]) || (isinf(l[r]) && l[r] > 0))
      ++bad;
    for (int d = 0; d < c->Dv; ++d) {
      float x = o[r * c->Dv + d];
      if (isnan(x) || (l[r] == -INFINITY && x != 0.0f))
        ++bad;
    }
    empty += l[r] == -INFINITY;
  }
  /* Merge the splits (docs/semantics.md §5.8) and compare with the reference.
   */
  double errO = 0, errL = 0;
  double *ref = malloc(sizeof(double) * (size_t)c->Dv);
  double *acc = malloc(sizeof(double) * (size_t)c->Dv);
  for (int bq = 0; bq < B; ++bq)
    for (int i = 0; i < c->Sq; ++i) {
      double lse = reference(c, q, k, v, sc, bq, i, ref);
      double M = -INFINITY;
      for (int s = 0; s < c->S; ++s) {
        double x = l[((long)bq * c->S + s) * c->Sq + i];
        if (x > M)
          M = x;
      }
      double w = 0, L = -INFINITY;
      for (int d = 0; d < c->Dv; ++d)
        acc[d] = 0;
      if (M != -INFINITY) {
        for (int s = 0; s < c->S; ++s) {
          long row = ((long)bq * c->S + s) * c->Sq + i;
          if (l[row] == -INFINITY)
            continue;
          double ws = exp(l[row] - M);
          w += ws;
          for (int d = 0; d < c->Dv; ++d)
            acc[d] += ws * o[row * c->Dv + d];
        }
        for (int d = 0; d < c->Dv; ++d)
          acc[d] /= w;
        L = M + log(w);
      }
      if (lse == -INFINITY || L == -INFINITY) {
        if (lse != L)
          errL = INFINITY;
      } else if (fabs(lse - L) > errL) {
        errL = fabs(lse - L);
      }
      for (int d = 0; d < c->Dv; ++d)
        if (fabs(acc[d] - ref[d]) > errO)
          errO = fabs(acc[d] - ref[d]);
    }
  double tol = c->bf16 ? 2e-2 : 2e-5;
  int ok = !bad && errO <= tol && errL <= tol * 10;
  fprintf(stderr, "case %s: %s (errO %.2e, errLse %.2e, bad %d, empty %d)\n",
          c->name, ok ? "ok" : "FAILED", errO, errL, bad, empty);
  free(ref);
  free(acc);
  free(q);
  free(k);
  free(v);
  free(sc);
  free(o);
  free(l);
  free(qh);
  free(kh);
  free(vh);
  free(oh);
  mlirExecutionEngineDestroy(jit);
  return !ok;
}

/*===--- cases ------------------------------------------------------------===*/

/* clang-format off */
static const Case cases[] = {
    /* name, Bkv, R, Sq, Sk, Dqk, Dv, S, MB, NB, causal, reverse, window,
     * scale, bf16, csl, po, hasCsl, hasPo */
    {"plain", 1, 1, 20, 40, 16, 16, 1, 16, 8, 0, 0, -1, 0, 0, {0}, {0}, 0, 0},
    {"split_tail", 2, 1, 9, 40, 32, 32, 2, 16, 8, 0, 0, -1, 0, 0, {0}, {0}, 0,
     0},
    {"split_more_than_tiles", 1, 1, 5, 40, 16, 8, 8, 16, 8, 0, 0, -1, 0, 0,
     {0}, {0}, 0, 0},
    {"causal_prefill_gqa", 2, 2, 50, 50, 24, 40, 3, 16, 16, 1, 0, -1, 0, 0,
     {0}, {0}, 0, 0},
    {"kv_cache_gqa", 2, 2, 1, 70, 32, 32, 4, 16, 4, 0, 0, -1, 0, 0,
     {17, 1, 0, 69}, {0}, 1, 0},
    {"csl_zero", 1, 2, 3, 33, 8, 8, 4, 8, 4, 0, 0, -1, 0, 0, {0, 0}, {0}, 1,
     0},
    {"prefix_masked_rows", 1, 2, 12, 30, 16, 16, 2, 8, 8, 1, 0, -1, 0, 0,
     {29, 12}, {-5, 3}, 1, 1},
    /* window [17, 22] from the KV bound 22: causal rows 17..21 end first */
    {"sliding_window", 1, 1, 40, 40, 16, 16, 3, 8, 8, 1, 0, 5, 0, 0, {22},
     {0}, 1, 0},
    {"reverse_scale", 2, 1, 10, 37, 16, 16, 2, 16, 4, 0, 1, -1, 1, 0, {0},
     {0}, 0, 0},
    {"odd_dims", 1, 3, 7, 29, 13, 7, 2, 12, 5, 1, 0, -1, 0, 0, {0}, {0}, 0,
     0},
    {"bf16", 1, 2, 16, 64, 64, 64, 2, 32, 32, 1, 0, -1, 0, 1, {0}, {0}, 0, 0},
    {"one_key", 1, 1, 3, 1, 8, 8, 1, 16, 4, 0, 0, -1, 0, 0, {0}, {0}, 0, 0},
    {"tiny_sk_many_splits", 1, 2, 2, 5, 8, 8, 16, 4, 4, 1, 0, -1, 0, 0, {0},
     {0}, 0, 0},
    {"blocks_larger_than_problem", 1, 1, 3, 20, 16, 16, 2, 64, 64, 0, 0, -1,
     0, 0, {0}, {0}, 0, 0},
    {"csl_clamped", 2, 1, 4, 20, 8, 8, 2, 8, 4, 0, 0, -1, 0, 0, {40, 19}, {0},
     1, 0},
    /* More than 16 rows per workgroup: the transposed-K gemm0. */
    {"wide_causal_gqa", 2, 2, 50, 50, 24, 40, 3, 16, 32, 1, 0, -1, 0, 0, {0},
     {0}, 0, 0},
    {"wide_odd_dims_prefix", 1, 3, 9, 29, 13, 7, 2, 12, 24, 1, 0, -1, 1, 0,
     {0}, {2, -4, 0}, 0, 1},
    /* An odd NB above 16: transposed K, rows one at a time. */
    {"wide_odd_nb", 2, 2, 20, 45, 16, 72, 2, 16, 17, 1, 0, -1, 0, 0, {0},
     {0}, 0, 0},
};
/* clang-format on */

int main(void) {
  MlirContext ctx = rockJitContextCreate();
  mlirContextLoadAllAvailableDialects(ctx);
  (void)printToStderr;
  int failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    failures += runCase(ctx, &cases[i]);
  fprintf(stderr, "failures: %d\n", failures);
  mlirContextDestroy(ctx);
  return failures != 0;
}

// CHECK: case plain: ok
// CHECK: case split_tail: ok
// CHECK: case split_more_than_tiles: ok
// CHECK-SAME: empty {{[1-9]}}
// CHECK: case causal_prefill_gqa: ok
// CHECK: case kv_cache_gqa: ok
// CHECK: case csl_zero: ok
// CHECK: case prefix_masked_rows: ok
// CHECK: case sliding_window: ok
// CHECK: case reverse_scale: ok
// CHECK: case odd_dims: ok
// CHECK: case bf16: ok
// CHECK: case one_key: ok
// CHECK: case tiny_sk_many_splits: ok
// CHECK: case blocks_larger_than_problem: ok
// CHECK: case csl_clamped: ok
// CHECK: case wide_causal_gqa: ok
// CHECK: case wide_odd_dims_prefix: ok
// CHECK: case wide_odd_nb: ok
// CHECK: failures: 0
