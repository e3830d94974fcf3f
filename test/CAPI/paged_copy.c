/*===- paged_copy.c - rock-lower-views on paged K, executed ---------------===*
 *
 * Builds, for each case, a kernel that copies rock-gen's paged K view
 * (docs/semantics.md §6: page table [G*P] -> [G,P,1] -> rock.deref ->
 * [G,P,ps] -> Merge{P,ps} -> Unmerge{Hkv,Sk,D} -> Merge{G,Hkv} ->
 * [Bkv,Sk,D], optionally transposed to [Bkv,D,Sk]) into a dense buffer with
 * rock.view_load / rock.view_store, lowers it through the C API with
 * rock-lower-views and the upstream LLVM conversions, JITs it and runs it.
 * The harness cuts the logical K into pages, places them in a pool in a
 * seeded random order and fills the i64 page table with the page addresses;
 * the dense output must equal the logical K bit for bit. "scatter" cases
 * copy the other way (dense -> paged view) and compare the page pool.
 *
 *===----------------------------------------------------------------------===*/
/* RUN: rock-capi-paged-copy-test 2>&1 | FileCheck %s
 * On AVX-512 hosts, once more for x86-64-v3 (AVX2 + FMA, no AVX-512):
 * RUN: %if avx512 %{ env ROCK_JIT_CPU=x86-64-v3 rock-capi-paged-copy-test 2>&1 | FileCheck %s %}
 */

#include "jit.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"
#include "rock-c/TransformMap.h"

#include "support/str.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printErr(MlirStringRef s, void *ud) {
  (void)ud;
  fwrite(s.data, 1, s.length, stderr);
}

static MlirLogicalResult onDiag(MlirDiagnostic d, void *ud) {
  (void)ud;
  mlirDiagnosticPrint(d, printErr, NULL);
  fputc('\n', stderr);
  return mlirLogicalResultSuccess();
}

/*===--- transform maps ---------------------------------------------------===*/

static MlirAttribute tr(MlirContext ctx, RockTransformKind kind, int np,
                        const int64_t *p, int nu, const int64_t *ud, int nl,
                        const int64_t *ld) {
  static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
  return rockTransformAttrCreate(ctx, kind, np, p, nu, names, ud, nl, names,
                                 ld);
}

/* Appends `#name = <map>` built from `n` transforms and the bounds. */
static void defMap(RockStr *b, const char *name, MlirContext ctx, int n,
                   const MlirAttribute *ops, int nu, const int64_t *ub, int nl,
                   const int64_t *lb) {
  MlirAttribute m = rockTransformMapAttrCreate(ctx, n, ops, nu, ub, nl, lb);
  rock__strAppendf(b, "#%s = ", name);
  mlirAttributePrint(m, rock__strCallback, b);
  rock__strAppendf(b, "\n");
}

/*===--- cases ------------------------------------------------------------===*/

typedef struct Case {
  const char *type; /* f32, f16, bf16, i8 */
  int64_t ps;       /* page size in elements */
  int trans;        /* view [Bkv, D, Sk] instead of [Bkv, Sk, D] */
  int64_t vec;      /* lanes per access (1: scalar) */
  int opaque;       /* the vector index has unknown alignment */
  int64_t padRows;  /* Pad{0, padRows} on Sk (not transposed) */
  int scatter;      /* dense -> paged instead of paged -> dense */
} Case;

enum { G = 2, HKV = 2, SK = 48, D = 32, E = HKV * SK * D };

static int elemBytes(const char *t) {
  return !strcmp(t, "f32") ? 4 : !strcmp(t, "i8") ? 1 : 2;
}

static const double PAD = -2.0;

/* The bytes of PAD in element type `t`. */
static void padBits(const char *t, unsigned char *out) {
  if (!strcmp(t, "f32")) {
    float f = (float)PAD;
    memcpy(out, &f, 4);
  } else if (!strcmp(t, "i8")) {
    out[0] = (unsigned char)(signed char)PAD;
  } else {
    uint16_t h = 0xC000; /* -2.0 in both f16 and bf16 */
    memcpy(out, &h, 2);
  }
}

/* Generates the kernel `@copy(%tbl, %dense, %zero)` for `c`. */
static void genKernel(RockStr *b, MlirContext ctx, const Case *c) {
  int64_t P = E / c->ps, Bkv = G * HKV;
  int64_t skv = SK + c->padRows;
  int64_t X = c->trans ? D : skv, Y = c->trans ? skv : D;
  int64_t N = Bkv * X * Y;
  const char *T = c->type;
  {
    int64_t p[] = {G, P}, ud[] = {0, 1}, ld[] = {0}, one[] = {1}, u2[] = {2};
    MlirAttribute ops[] = {
        tr(ctx, ROCK_TRANSFORM_UNMERGE, 2, p, 2, ud, 1, ld),
        tr(ctx, ROCK_TRANSFORM_ADD_DIM, 1, one, 1, u2, 0, NULL)};
    int64_t ub[] = {G, P, 1}, lb[] = {G * P};
    defMap(b, "tbl", ctx, 2, ops, 3, ub, 1, lb);
  }
  {
    int64_t z[] = {0}, one[] = {1}, p[] = {P, c->ps}, ld[] = {1, 2};
    MlirAttribute ops[] = {
        tr(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 1, z, 1, z),
        tr(ctx, ROCK_TRANSFORM_MERGE, 2, p, 1, one, 2, ld)};
    int64_t ub[] = {G, P * c->ps}, lb[] = {G, P, c->ps};
    defMap(b, "pg", ctx, 2, ops, 2, ub, 3, lb);
  }
  {
    int64_t z[] = {0}, one[] = {1}, p[] = {HKV, SK, D}, ud[] = {1, 2, 3};
    MlirAttribute ops[] = {
        tr(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 1, z, 1, z),
        tr(ctx, ROCK_TRANSFORM_UNMERGE, 3, p, 3, ud, 1, one)};
    int64_t ub[] = {G, HKV, SK, D}, lb[] = {G, P * c->ps};
    defMap(b, "hd", ctx, 2, ops, 4, ub, 2, lb);
  }
  {
    int64_t z[] = {0}, p[] = {G, HKV}, ld[] = {0, 1}, ud2[] = {1, 2},
            ld2[] = {2, 3};
    MlirAttribute ops[] = {
        tr(ctx, ROCK_TRANSFORM_MERGE, 2, p, 1, z, 2, ld),
        tr(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 2, ud2, 2, ld2)};
    int64_t ub[] = {Bkv, SK, D}, lb[] = {G, HKV, SK, D};
    defMap(b, "bk", ctx, 2, ops, 3, ub, 4, lb);
  }
  {
    int64_t z[] = {0, 2}, one[] = {1}, p[] = {0, c->padRows};
    MlirAttribute ops[] = {
        tr(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 2, z, 2, z),
        tr(ctx, ROCK_TRANSFORM_PAD, 2, p, 1, one, 1, one)};
    int64_t ub[] = {Bkv, skv, D}, lb[] = {Bkv, SK, D};
    defMap(b, "pad", ctx, 2, ops, 3, ub, 3, lb);
  }
  {
    int64_t ud[] = {0, 1, 2}, ld[] = {0, 2, 1};
    MlirAttribute ops[] = {
        tr(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 3, ud, 3, ld)};
    int64_t ub[] = {Bkv, D, SK}, lb[] = {Bkv, SK, D};
    defMap(b, "tr", ctx, 1, ops, 3, ub, 3, lb);
  }
  {
    int64_t p[] = {Bkv, X, Y}, ud[] = {0, 1, 2}, ld[] = {0};
    MlirAttribute ops[] = {tr(ctx, ROCK_TRANSFORM_UNMERGE, 3, p, 3, ud, 1, ld)};
    int64_t ub[] = {Bkv, X, Y}, lb[] = {N};
    defMap(b, "dense", ctx, 1, ops, 3, ub, 1, lb);
  }
  char vt[64];
  if (c->vec > 1)
    snprintf(vt, sizeof vt, "vector<%lldx%s>", (long long)c->vec, T);
  else
    snprintf(vt, sizeof vt, "%s", T);
  rock__strAppendf(
      b,
      "func.func @copy(%%tbl: memref<%lldxi64>, %%out: memref<%lldx%s>, "
      "%%zero: memref<1xindex>) attributes {llvm.emit_c_interface} {\n",
      (long long)(G * P), (long long)N, T);
  rock__strAppendf(b,
                   "  %%c0 = arith.constant 0 : index\n"
                   "  %%c1 = arith.constant 1 : index\n"
                   "  %%cB = arith.constant %lld : index\n"
                   "  %%cX = arith.constant %lld : index\n"
                   "  %%cY = arith.constant %lld : index\n"
                   "  %%cV = arith.constant %lld : index\n"
                   "  %%z = memref.load %%zero[%%c0] : memref<1xindex>\n",
                   (long long)Bkv, (long long)X, (long long)Y,
                   (long long)c->vec);
  rock__strAppendf(b,
                   "  %%t = rock.transform %%tbl by #tbl : memref<%lldxi64> to "
                   "memref<%dx%lldx1xi64>\n",
                   (long long)(G * P), G, (long long)P);
  rock__strAppendf(b,
                   "  %%d = rock.deref %%t : memref<%dx%lldx1xi64> -> "
                   "memref<%dx%lldx%lldx%s>\n",
                   G, (long long)P, G, (long long)P, (long long)c->ps, T);
  rock__strAppendf(
      b,
      "  %%k0 = rock.transform %%d by #pg : memref<%dx%lldx%lldx%s> to "
      "memref<%dx%lldx%s>\n",
      G, (long long)P, (long long)c->ps, T, G, (long long)E, T);
  rock__strAppendf(
      b,
      "  %%k1 = rock.transform %%k0 by #hd : memref<%dx%lldx%s> to "
      "memref<%dx%dx%dx%dx%s>\n",
      G, (long long)E, T, G, HKV, SK, D, T);
  rock__strAppendf(
      b,
      "  %%k2 = rock.transform %%k1 by #bk : memref<%dx%dx%dx%dx%s> to "
      "memref<%lldx%dx%dx%s>\n",
      G, HKV, SK, D, T, (long long)Bkv, SK, D, T);
  const char *view = "%k2";
  if (c->trans) {
    rock__strAppendf(
        b,
        "  %%k3 = rock.transform %%k2 by #tr : memref<%lldx%dx%dx%s> to "
        "memref<%lldx%dx%dx%s>\n",
        (long long)Bkv, SK, D, T, (long long)Bkv, D, SK, T);
    view = "%k3";
  } else if (c->padRows) {
    rock__strAppendf(
        b,
        "  %%k3 = rock.transform %%k2 by #pad : memref<%lldx%dx%dx%s> "
        "to memref<%lldx%lldx%dx%s>\n",
        (long long)Bkv, SK, D, T, (long long)Bkv, (long long)skv, D, T);
    view = "%k3";
  }
  char viewTy[96];
  snprintf(viewTy, sizeof viewTy, "memref<%lldx%lldx%lldx%s>", (long long)Bkv,
           (long long)X, (long long)Y, T);
  rock__strAppendf(
      b, "  %%o = rock.transform %%out by #dense : memref<%lldx%s> to %s\n",
      (long long)N, T, viewTy);
  rock__strAppendf(b, "  scf.for %%b = %%c0 to %%cB step %%c1 {\n"
                      "  scf.for %%x = %%c0 to %%cX step %%c1 {\n"
                      "  scf.for %%y0 = %%c0 to %%cY step %%cV {\n");
  if (c->opaque)
    rock__strAppendf(b, "    %%y = arith.addi %%y0, %%z : index\n");
  else
    rock__strAppendf(b, "    %%y = arith.addi %%y0, %%c0 : index\n");
  const char *src = c->scatter ? "%o" : view;
  const char *dst = c->scatter ? view : "%o";
  rock__strAppendf(b, "    %%v = rock.view_load %s[%%b, %%x, %%y]", src);
  if (c->padRows && !c->scatter)
    rock__strAppendf(b, " {padValue = %.1f : f64}", PAD);
  rock__strAppendf(b, " : %s -> %s\n", viewTy, vt);
  rock__strAppendf(b, "    rock.view_store %%v, %s[%%b, %%x, %%y] : %s, %s\n",
                   dst, vt, viewTy);
  rock__strAppendf(b, "  }\n  }\n  }\n  return\n}\n");
}

typedef struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} Desc1;

static uint64_t rng;
static uint32_t next32(void) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng >> 33);
}

/* Random bits for one element of type `t`, never a NaN or infinity. */
static void randomElem(const char *t, unsigned char *out) {
  uint32_t r = next32();
  if (!strcmp(t, "f32")) {
    if (((r >> 23) & 0xFF) == 0xFF)
      r &= ~(1u << 23);
    memcpy(out, &r, 4);
  } else if (!strcmp(t, "f16")) {
    uint16_t h = (uint16_t)r;
    if (((h >> 10) & 0x1F) == 0x1F)
      h &= (uint16_t)~(1u << 10);
    memcpy(out, &h, 2);
  } else if (!strcmp(t, "bf16")) {
    uint16_t h = (uint16_t)r;
    if (((h >> 7) & 0xFF) == 0xFF)
      h &= (uint16_t)~(1u << 7);
    memcpy(out, &h, 2);
  } else {
    out[0] = (unsigned char)r;
  }
}

static const char *PIPELINE =
    "builtin.module(rock-lower-views,canonicalize,convert-scf-to-cf,"
    "convert-vector-to-llvm,expand-strided-metadata,convert-math-to-llvm,"
    "convert-arith-to-llvm,finalize-memref-to-llvm,convert-cf-to-llvm,"
    "convert-func-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts)";

/* Runs one case; returns 0 on success. */
static int runCase(MlirContext ctx, const Case *c, uint64_t seed) {
  int eb = elemBytes(c->type);
  int64_t P = E / c->ps, nPages = G * P, Bkv = G * HKV;
  int64_t skv = SK + c->padRows;
  int64_t X = c->trans ? D : skv, Y = c->trans ? skv : D;
  int64_t N = Bkv * X * Y;
  rng = seed;

  /* The physical cache, per batch head-major [Hkv][Sk][D], and its pages. */
  unsigned char *phys = malloc((size_t)(G * E * eb));
  for (int64_t i = 0; i < G * E; ++i)
    randomElem(c->type, phys + i * eb);
  int64_t *perm = malloc((size_t)nPages * sizeof(int64_t));
  for (int64_t i = 0; i < nPages; ++i)
    perm[i] = i;
  for (int64_t i = nPages - 1; i > 0; --i) {
    int64_t j = next32() % (uint32_t)(i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  size_t pageBytes = (size_t)(c->ps * eb);
  unsigned char *pool = aligned_alloc(64, (nPages * pageBytes + 63) / 64 * 64);
  unsigned char *refPool = malloc(nPages * pageBytes);
  int64_t *table = malloc((size_t)nPages * sizeof(int64_t));
  for (int64_t pg = 0; pg < nPages; ++pg) {
    unsigned char *slot = refPool + perm[pg] * pageBytes;
    memcpy(slot, phys + pg * pageBytes, pageBytes);
    table[pg] = (int64_t)(uintptr_t)(pool + perm[pg] * pageBytes);
  }
  memcpy(pool, refPool, nPages * pageBytes);

  /* The logical K as the dense view sees it. */
  unsigned char *ref = malloc((size_t)(N * eb));
  unsigned char pb[4];
  padBits(c->type, pb);
  for (int64_t bkv = 0; bkv < Bkv; ++bkv)
    for (int64_t x = 0; x < X; ++x)
      for (int64_t y = 0; y < Y; ++y) {
        int64_t s = c->trans ? y : x, d = c->trans ? x : y;
        unsigned char *o = ref + ((bkv * X + x) * Y + y) * eb;
        if (s >= SK) {
          memcpy(o, pb, (size_t)eb);
          continue;
        }
        int64_t g = bkv / HKV, h = bkv % HKV, f = (h * SK + s) * D + d;
        memcpy(o, phys + (g * E + f) * eb, (size_t)eb);
      }
  unsigned char *dense = calloc((size_t)N, (size_t)eb);
  if (c->scatter) {
    memcpy(dense, ref, (size_t)(N * eb));
    memset(pool, 0, nPages * pageBytes);
  }

  RockStr text = {0};
  genKernel(&text, ctx, c);
  int rc = 1;
  MlirModule mod =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text.data));
  if (mlirModuleIsNull(mod)) {
    fprintf(stderr, "parse failed:\n%s\n", text.data);
    goto done;
  }
  {
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    MlirLogicalResult parsed = mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(pm),
        mlirStringRefCreateFromCString(PIPELINE), printErr, NULL);
    MlirLogicalResult ran = mlirLogicalResultFailure();
    if (mlirLogicalResultIsSuccess(parsed))
      ran = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(mod));
    mlirPassManagerDestroy(pm);
    if (mlirLogicalResultIsFailure(ran)) {
      fprintf(stderr, "lowering failed:\n%s\n", text.data);
      mlirModuleDestroy(mod);
      goto done;
    }
  }
  {
    MlirExecutionEngine jit = rockJitCreate(mod, rockJitTargetCpu(NULL));
    mlirModuleDestroy(mod);
    if (mlirExecutionEngineIsNull(jit)) {
      fprintf(stderr, "JIT creation failed\n");
      goto done;
    }
    int64_t zero = 0;
    Desc1 dt = {table, table, 0, nPages, 1};
    Desc1 dd = {dense, dense, 0, N, 1};
    Desc1 dz = {&zero, &zero, 0, 1, 1};
    Desc1 *pt = &dt, *pd = &dd, *pz = &dz;
    void *args[] = {&pt, &pd, &pz};
    MlirLogicalResult r = mlirExecutionEngineInvokePacked(
        jit, mlirStringRefCreateFromCString("copy"), args);
    mlirExecutionEngineDestroy(jit);
    if (mlirLogicalResultIsFailure(r)) {
      fprintf(stderr, "invocation failed\n");
      goto done;
    }
  }
  if (c->scatter)
    rc = memcmp(pool, refPool, nPages * pageBytes) != 0;
  else
    rc = memcmp(dense, ref, (size_t)(N * eb)) != 0;
  if (rc && getenv("ROCK_DEBUG_PAGED_COPY"))
    fprintf(stderr, "%s\n", text.data);

done:
  free(text.data);
  free(phys);
  free(perm);
  free(pool);
  free(refPool);
  free(table);
  free(ref);
  free(dense);
  return rc;
}

static int report(MlirContext ctx, const Case *c, uint64_t seed) {
  int rc = runCase(ctx, c, seed);
  printf("%s %s ps=%lld trans=%d vec=%lld%s%s: %s\n",
         c->scatter ? "paged_scatter" : "paged_copy", c->type, (long long)c->ps,
         c->trans, (long long)c->vec, c->opaque ? " unaligned" : "",
         c->padRows ? " pad" : "", rc ? "FAILED" : "ok");
  fflush(stdout);
  return rc;
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__rock__(), registry);
  MlirContext ctx = mlirContextCreate();
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  rockRegisterAllPasses();
  MlirDiagnosticHandlerID h =
      mlirContextAttachDiagnosticHandler(ctx, onDiag, NULL, NULL);

  /* Page sizes per type: ones dividing the head-dim row D = 32, and ones
   * (24, 48) whose pages end in the middle of a row. */
  static const struct {
    const char *type;
    int64_t vec;
    int64_t ps[3];
  } types[] = {{"f32", 4, {16, 24, 64}},
               {"f16", 8, {16, 24, 64}},
               {"bf16", 8, {16, 48, 0}},
               {"i8", 16, {16, 48, 64}}};
  int failures = 0;
  uint64_t seed = 1;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    for (int k = 0; k < 3 && types[t].ps[k]; ++k)
      for (int trans = 0; trans < 2; ++trans)
        for (int v = 0; v < 2; ++v) {
          Case c = {types[t].type,
                    types[t].ps[k],
                    trans,
                    v ? types[t].vec : 1,
                    0,
                    0,
                    0};
          failures += report(ctx, &c, seed++);
        }
    int64_t ps = types[t].ps[1];
    Case unaligned = {types[t].type, ps, 0, types[t].vec, 1, 0, 0};
    failures += report(ctx, &unaligned, seed++);
    Case pad = {types[t].type, ps, 0, types[t].vec, 0, 8, 0};
    failures += report(ctx, &pad, seed++);
    Case scatter = {types[t].type, ps, 0, types[t].vec, 0, 0, 1};
    failures += report(ctx, &scatter, seed++);
    Case scatterT = {types[t].type, ps, 1, types[t].vec, 0, 0, 1};
    failures += report(ctx, &scatterT, seed++);
  }
  printf("paged_copy failures: %d\n", failures);

  mlirContextDetachDiagnosticHandler(ctx, h);
  mlirContextDestroy(ctx);
  return failures != 0;
}

/* Every case, in order. */
// CHECK: paged_copy f32 ps=16 trans=0 vec=1: ok
// CHECK: paged_copy f32 ps=16 trans=0 vec=4: ok
// CHECK: paged_copy f32 ps=16 trans=1 vec=1: ok
// CHECK: paged_copy f32 ps=16 trans=1 vec=4: ok
// CHECK: paged_copy f32 ps=24 trans=0 vec=1: ok
// CHECK: paged_copy f32 ps=24 trans=0 vec=4: ok
// CHECK: paged_copy f32 ps=24 trans=1 vec=1: ok
// CHECK: paged_copy f32 ps=24 trans=1 vec=4: ok
// CHECK: paged_copy f32 ps=64 trans=0 vec=1: ok
// CHECK: paged_copy f32 ps=64 trans=0 vec=4: ok
// CHECK: paged_copy f32 ps=64 trans=1 vec=1: ok
// CHECK: paged_copy f32 ps=64 trans=1 vec=4: ok
// CHECK: paged_copy f32 ps=24 trans=0 vec=4 unaligned: ok
// CHECK: paged_copy f32 ps=24 trans=0 vec=4 pad: ok
// CHECK: paged_scatter f32 ps=24 trans=0 vec=4: ok
// CHECK: paged_scatter f32 ps=24 trans=1 vec=4: ok
// CHECK: paged_copy f16 ps=16 trans=0 vec=1: ok
// CHECK: paged_copy f16 ps=16 trans=0 vec=8: ok
// CHECK: paged_copy f16 ps=16 trans=1 vec=1: ok
// CHECK: paged_copy f16 ps=16 trans=1 vec=8: ok
// CHECK: paged_copy f16 ps=24 trans=0 vec=1: ok
// CHECK: paged_copy f16 ps=24 trans=0 vec=8: ok
// CHECK: paged_copy f16 ps=24 trans=1 vec=1: ok
// CHECK: paged_copy f16 ps=24 trans=1 vec=8: ok
// CHECK: paged_copy f16 ps=64 trans=0 vec=1: ok
// CHECK: paged_copy f16 ps=64 trans=0 vec=8: ok
// CHECK: paged_copy f16 ps=64 trans=1 vec=1: ok
// CHECK: paged_copy f16 ps=64 trans=1 vec=8: ok
// CHECK: paged_copy f16 ps=24 trans=0 vec=8 unaligned: ok
// CHECK: paged_copy f16 ps=24 trans=0 vec=8 pad: ok
// CHECK: paged_scatter f16 ps=24 trans=0 vec=8: ok
// CHECK: paged_scatter f16 ps=24 trans=1 vec=8: ok
// CHECK: paged_copy bf16 ps=16 trans=0 vec=1: ok
// CHECK: paged_copy bf16 ps=16 trans=0 vec=8: ok
// CHECK: paged_copy bf16 ps=16 trans=1 vec=1: ok
// CHECK: paged_copy bf16 ps=16 trans=1 vec=8: ok
// CHECK: paged_copy bf16 ps=48 trans=0 vec=1: ok
// CHECK: paged_copy bf16 ps=48 trans=0 vec=8: ok
// CHECK: paged_copy bf16 ps=48 trans=1 vec=1: ok
// CHECK: paged_copy bf16 ps=48 trans=1 vec=8: ok
// CHECK: paged_copy bf16 ps=48 trans=0 vec=8 unaligned: ok
// CHECK: paged_copy bf16 ps=48 trans=0 vec=8 pad: ok
// CHECK: paged_scatter bf16 ps=48 trans=0 vec=8: ok
// CHECK: paged_scatter bf16 ps=48 trans=1 vec=8: ok
// CHECK: paged_copy i8 ps=16 trans=0 vec=1: ok
// CHECK: paged_copy i8 ps=16 trans=0 vec=16: ok
// CHECK: paged_copy i8 ps=16 trans=1 vec=1: ok
// CHECK: paged_copy i8 ps=16 trans=1 vec=16: ok
// CHECK: paged_copy i8 ps=48 trans=0 vec=1: ok
// CHECK: paged_copy i8 ps=48 trans=0 vec=16: ok
// CHECK: paged_copy i8 ps=48 trans=1 vec=1: ok
// CHECK: paged_copy i8 ps=48 trans=1 vec=16: ok
// CHECK: paged_copy i8 ps=64 trans=0 vec=1: ok
// CHECK: paged_copy i8 ps=64 trans=0 vec=16: ok
// CHECK: paged_copy i8 ps=64 trans=1 vec=1: ok
// CHECK: paged_copy i8 ps=64 trans=1 vec=16: ok
// CHECK: paged_copy i8 ps=48 trans=0 vec=16 unaligned: ok
// CHECK: paged_copy i8 ps=48 trans=0 vec=16 pad: ok
// CHECK: paged_scatter i8 ps=48 trans=0 vec=16: ok
// CHECK: paged_scatter i8 ps=48 trans=1 vec=16: ok
// CHECK: paged_copy failures: 0
