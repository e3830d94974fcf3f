/*===- combine_exec.c - executing rock-lower-combine ----------------------===*/
/* RUN: rock-capi-combine-exec-test 2>&1 | FileCheck %s
 * On AVX-512 hosts, once more for x86-64-v3 (AVX2 + FMA, no AVX-512):
 * RUN: %if avx512 %{ env ROCK_JIT_CPU=x86-64-v3 rock-capi-combine-exec-test 2>&1 | FileCheck %s %}
 *
 * Builds rock.attention_combine kernels over flat buffers, lowers them with
 * rock-cpu-pipeline, runs them through the JIT and compares them with the
 * combine of docs/semantics.md §5.8 computed here in f64: rows with some empty
 * splits (LSE −inf, their partial O filled with NaN garbage that must never be
 * read), rows whose splits are all empty (O = 0, LSE = −inf), f32 / f16 /
 * bf16 partials and both output layouts.
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
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_F32, T_F16, T_BF16 };

typedef struct Case {
  const char *name;
  int B, S, Sq, Dv;
  int type;    /* T_F32, T_F16 or T_BF16 */
  int oT;      /* oTransposed */
  int withLse; /* final LSE output */
} Case;

/*===--- helpers ----------------------------------------------------------===*/

static uint32_t rngState = 777u;
static float rnd(void) {
  rngState = rngState * 1664525u + 1013904223u;
  return (float)((rngState >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static uint16_t toBf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float fromBf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* f32 -> f16, round to nearest even; NaN stays NaN. Normal-range values
 * only (the test's values are), plus zero, infinities and NaN. */
static uint16_t toF16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u)
    return sign | 0x7e00;
  if (a >= 0x47800000u) /* >= 65536 or inf */
    return sign | 0x7c00;
  if (a < 0x38800000u) /* below the f16 normal range: flush */
    return sign;
  uint32_t e = ((a >> 23) - 112) << 10, m = (a >> 13) & 0x3ff;
  uint32_t rest = a & 0x1fff;
  uint32_t h = e | m;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return (uint16_t)(sign | h);
}
static float fromF16(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f,
           m = h & 0x3ff, u;
  if (e == 0)
    u = sign; /* zero (no subnormals are produced here) */
  else if (e == 31)
    u = sign | 0x7f800000u | (m << 13);
  else
    u = sign | ((e + 112) << 23) | (m << 13);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static float roundTo(int type, float x) {
  return type == T_F16    ? fromF16(toF16(x))
         : type == T_BF16 ? fromBf16(toBf16(x))
                          : x;
}

/*===--- kernel text ------------------------------------------------------===*/

static char *kernelText(const Case *c) {
  const char *t = c->type == T_F16 ? "f16" : c->type == T_BF16 ? "bf16" : "f32";
  int BS = c->B * c->S;
  int d1 = c->oT ? c->Dv : c->Sq, d2 = c->oT ? c->Sq : c->Dv;
  RockStr s = {0};
  rock__strAppendf(&s,
                   "func.func @k(%%po: memref<%dx%s>, %%pl: memref<%dxf32>, "
                   "%%o: memref<%dx%s>, %%l: memref<%dxf32>) "
                   "attributes {llvm.emit_c_interface} {\n",
                   BS * c->Sq * c->Dv, t, BS * c->Sq, c->B * c->Sq * c->Dv, t,
                   c->B * c->Sq);
  rock__strAppendf(
      &s,
      "  %%po3 = memref.expand_shape %%po [[0, 1, 2]] output_shape [%d, "
      "%d, %d] : memref<%dx%s> into memref<%dx%dx%dx%s>\n",
      BS, d1, d2, BS * c->Sq * c->Dv, t, BS, d1, d2, t);
  rock__strAppendf(
      &s,
      "  %%pl2 = memref.expand_shape %%pl [[0, 1]] output_shape [%d, %d] "
      ": memref<%dxf32> into memref<%dx%dxf32>\n",
      BS, c->Sq, BS * c->Sq, BS, c->Sq);
  rock__strAppendf(
      &s,
      "  %%o3 = memref.expand_shape %%o [[0, 1, 2]] output_shape [%d, %d, "
      "%d] : memref<%dx%s> into memref<%dx%dx%dx%s>\n",
      c->B, d1, d2, c->B * c->Sq * c->Dv, t, c->B, d1, d2, t);
  rock__strAppendf(
      &s,
      "  %%l2 = memref.expand_shape %%l [[0, 1]] output_shape [%d, %d] : "
      "memref<%dxf32> into memref<%dx%dxf32>\n",
      c->B, c->Sq, c->B * c->Sq, c->B, c->Sq);
  rock__strAppendf(&s, "  rock.attention_combine %%po3, %%pl2 into %%o3");
  if (c->withLse)
    rock__strAppendf(&s, ", %%l2");
  rock__strAppendf(
      &s,
      " {splitKV = %d : i32%s} : memref<%dx%dx%dx%s>, memref<%dx%dxf32> "
      "-> memref<%dx%dx%dx%s>",
      c->S, c->oT ? ", oTransposed" : "", BS, d1, d2, t, BS, c->Sq, c->B, d1,
      d2, t);
  if (c->withLse)
    rock__strAppendf(&s, ", memref<%dx%dxf32>", c->B, c->Sq);
  rock__strAppendf(&s, "\n  return\n}\n");
  return s.data;
}

/*===--- one case ---------------------------------------------------------===*/

/* Flat index of element (row r, position i, head d) of an out-like buffer. */
static long at(const Case *c, long r, int i, int d) {
  return c->oT ? (r * c->Dv + d) * c->Sq + i : (r * c->Sq + i) * c->Dv + d;
}

static int runCase(MlirContext ctx, const Case *c) {
  char *text = kernelText(c), err[64];
  MlirExecutionEngine jit = rockJitCompileText(ctx, text, err, sizeof err);
  if (mlirExecutionEngineIsNull(jit)) {
    fprintf(stderr, "case %s: %s\n%s", c->name, err, text);
    free(text);
    return 1;
  }
  free(text);

  long BS = (long)c->B * c->S;
  long npo = BS * c->Sq * c->Dv, npl = BS * c->Sq;
  long no = (long)c->B * c->Sq * c->Dv, nl = (long)c->B * c->Sq;
  float *po = malloc(sizeof(float) * (size_t)npo);
  float *pl = malloc(sizeof(float) * (size_t)npl);
  float *o = malloc(sizeof(float) * (size_t)no);
  float *l = malloc(sizeof(float) * (size_t)nl);
  uint16_t *poh = malloc(2 * (size_t)npo), *oh = malloc(2 * (size_t)no);
  /* Partial LSEs: row (b, i) of kind (b + i) % 4 has 0: every split
   * valid, 1: split 0 empty, 2: every split empty, 3: only the last split
   * valid. Empty splits hold NaN garbage in O. */
  for (long r = 0; r < BS; ++r)
    for (int i = 0; i < c->Sq; ++i) {
      int b = (int)(r / c->S), s = (int)(r % c->S), kind = (b + i) % 4;
      int empty =
          (kind == 1 && s == 0) || kind == 2 || (kind == 3 && s != c->S - 1);
      pl[r * c->Sq + i] = empty ? -INFINITY : 3.0f * rnd() + 2.0f;
      for (int d = 0; d < c->Dv; ++d)
        po[at(c, r, i, d)] = empty ? NAN : roundTo(c->type, rnd());
    }
  for (long i = 0; i < no; ++i)
    o[i] = NAN; /* every element must be written */
  for (long i = 0; i < nl; ++i)
    l[i] = NAN;
  for (long i = 0; i < npo; ++i)
    poh[i] = c->type == T_F16 ? toF16(po[i]) : toBf16(po[i]);
  bool narrow = c->type != T_F32;
  void *bufs[4] = {narrow ? (void *)poh : po, pl, narrow ? (void *)oh : o, l};
  int64_t sizes[4] = {npo, npl, no, nl};
  if (!rockJitInvokeData(jit, "k", bufs, sizes, 4)) {
    fprintf(stderr, "case %s: invoke failed\n", c->name);
    mlirExecutionEngineDestroy(jit);
    return 1;
  }
  if (narrow)
    for (long i = 0; i < no; ++i)
      o[i] = c->type == T_F16 ? fromF16(oh[i]) : fromBf16(oh[i]);

  /* The f64 combine of docs/semantics.md §5.8. */
  double errO = 0, errL = 0;
  int bad = 0, allEmpty = 0;
  double *acc = malloc(sizeof(double) * (size_t)c->Dv);
  for (int b = 0; b < c->B; ++b)
    for (int i = 0; i < c->Sq; ++i) {
      double M = -INFINITY, w = 0;
      for (int s = 0; s < c->S; ++s)
        M = fmax(M, pl[((long)b * c->S + s) * c->Sq + i]);
      for (int d = 0; d < c->Dv; ++d)
        acc[d] = 0;
      if (M != -INFINITY)
        for (int s = 0; s < c->S; ++s) {
          long r = (long)b * c->S + s;
          if (pl[r * c->Sq + i] == -INFINITY)
            continue;
          double ws = exp(pl[r * c->Sq + i] - M);
          w += ws;
          for (int d = 0; d < c->Dv; ++d)
            acc[d] += ws * po[at(c, r, i, d)];
        }
      double L = M == -INFINITY ? -INFINITY : M + log(w);
      allEmpty += M == -INFINITY;
      for (int d = 0; d < c->Dv; ++d) {
        double ref = M == -INFINITY ? 0.0 : acc[d] / w;
        double got = o[at(c, b, i, d)];
        if (isnan(got))
          ++bad;
        else if (fabs(got - ref) > errO)
          errO = fabs(got - ref);
      }
      if (c->withLse) {
        double got = l[(long)b * c->Sq + i];
        if (isnan(got) || (L == -INFINITY) != (got == -INFINITY))
          ++bad;
        else if (L != -INFINITY && fabs(got - L) > errL)
          errL = fabs(got - L);
      }
    }
  double tol = c->type == T_F32 ? 1e-5 : c->type == T_F16 ? 1e-3 : 8e-3;
  int ok = !bad && errO <= tol && errL <= 1e-5;
  fprintf(stderr,
          "case %s: %s (errO %.2e, errLse %.2e, bad %d, empty rows %d)\n",
          c->name, ok ? "ok" : "FAILED", errO, errL, bad, allEmpty);
  free(acc);
  free(po);
  free(pl);
  free(o);
  free(l);
  free(poh);
  free(oh);
  mlirExecutionEngineDestroy(jit);
  return !ok;
}

/*===--- cases ------------------------------------------------------------===*/

static const Case cases[] = {
    /* name, B, S, Sq, Dv, type, oT, withLse */
    {"f32_lse", 3, 4, 5, 7, T_F32, 0, 1},
    {"f16_transposed_lse", 2, 3, 6, 16, T_F16, 1, 1},
    {"bf16_no_lse", 4, 2, 3, 8, T_BF16, 0, 0},
    {"single_split", 2, 1, 4, 5, T_F32, 1, 1},
    {"many_splits", 1, 16, 8, 32, T_F16, 0, 1},
};

int main(void) {
  MlirContext ctx = rockJitContextCreate();
  mlirContextLoadAllAvailableDialects(ctx);
  int failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    failures += runCase(ctx, &cases[i]);
  fprintf(stderr, "failures: %d\n", failures);
  mlirContextDestroy(ctx);
  return failures != 0;
}

// CHECK: case f32_lse: ok
// CHECK: case f16_transposed_lse: ok
// CHECK: case bf16_no_lse: ok
// CHECK: case single_split: ok
// CHECK: case many_splits: ok
// CHECK: failures: 0
