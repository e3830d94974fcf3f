/*===- ir.c - building rock IR through the C API only ---------------------===*/
/* RUN: rock-capi-ir-test 2>&1 | FileCheck %s
 */

#include "rock-c/Dialect.h"
#include "rock-c/Ops.h"
#include "rock-c/TransformMap.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes exactly `str.length` bytes to stderr. */
static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

/* A diagnostic text collected by the handler below. */
typedef struct {
  char text[512];
  size_t len;
  int count;
} Captured;

static void appendCaptured(MlirStringRef str, void *userData) {
  Captured *c = userData;
  size_t n = str.length;
  if (n > sizeof c->text - 1 - c->len)
    n = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, str.data, n);
  c->len += n;
  c->text[c->len] = '\0';
}

/* Collects every diagnostic; `userData` (a Captured) outlives the handler. */
static MlirLogicalResult captureDiagnostic(MlirDiagnostic diag,
                                           void *userData) {
  Captured *c = userData;
  ++c->count;
  mlirDiagnosticPrint(diag, appendCaptured, c);
  return mlirLogicalResultSuccess();
}

static MlirType memref(MlirContext ctx, intptr_t rank, const int64_t *shape,
                       MlirType elt) {
  (void)ctx;
  return mlirMemRefTypeContiguousGet(elt, rank, shape, mlirAttributeGetNull());
}

static MlirType f16(MlirContext ctx) { return mlirF16TypeGet(ctx); }
static MlirType f32(MlirContext ctx) { return mlirF32TypeGet(ctx); }

/* Appends a new `func.func @name(argTypes) -> ()` with an empty entry block
 * ending in func.return to `module`'s body. Returns the entry block, owned by
 * the function (which the module owns). */
static MlirBlock appendFunc(MlirModule module, const char *name, intptr_t n,
                            const MlirType *argTypes) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirLocation *locs = malloc(sizeof(MlirLocation) * (size_t)(n ? n : 1));
  for (intptr_t i = 0; i < n; ++i)
    locs[i] = loc;
  MlirBlock body = mlirBlockCreate(n, argTypes, locs);
  free(locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body); /* the region owns `body` */

  MlirOperationState ret =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"), loc);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&ret));

  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("sym_name")),
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("function_type")),
          mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n, argTypes, 0, NULL)))};
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region); /* the op owns it */
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module),
                                mlirOperationCreate(&st));
  return body;
}

/* Inserts `op` (owned, non-null) before the terminator of `block`, which
 * takes ownership. Returns `op`. */
static MlirOperation insert(MlirBlock block, MlirOperation op) {
  if (mlirOperationIsNull(op)) {
    fprintf(stderr, "unexpected null op\n");
    exit(1);
  }
  mlirBlockInsertOwnedOperationBefore(block, mlirBlockGetTerminator(block), op);
  return op;
}

static MlirValue result(MlirOperation op) {
  return mlirOperationGetResult(op, 0);
}

static MlirContext createContext(void) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__rock__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__memref__(), ctx);
  return ctx;
}

/* The nine transform kinds, as in test/Dialect/ops.mlir. */
static void buildTransformMaps(MlirContext ctx, MlirAttribute maps[9]) {
  const char *a_b[] = {"a", "b"}, *b_a[] = {"b", "a"}, *x[] = {"x"},
             *raw[] = {"raw"}, *m[] = {"m"}, *e[] = {"e"}, *b[] = {"b"},
             *c[] = {"c"};
  const int64_t d0[] = {0}, d1[] = {1}, d01[] = {0, 1}, d10[] = {1, 0};
  MlirAttribute t[2];

  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 2,
                                 a_b, d01, 2, b_a, d10);
  maps[0] = rockTransformMapAttrCreate(ctx, 1, t, 2, (int64_t[]){4, 8}, 2,
                                       (int64_t[]){8, 4});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_PAD, 2, (int64_t[]){1, 2},
                                 1, x, d0, 1, x, d0);
  maps[1] = rockTransformMapAttrCreate(ctx, 1, t, 1, (int64_t[]){11}, 1,
                                       (int64_t[]){8});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_SLICE, 2,
                                 (int64_t[]){2, 6}, 1, x, d0, 1, x, d0);
  maps[2] = rockTransformMapAttrCreate(ctx, 1, t, 1, (int64_t[]){4}, 1,
                                       (int64_t[]){8});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_EMBED, 2,
                                 (int64_t[]){16, 1}, 2, a_b, d01, 1, raw, d0);
  maps[3] = rockTransformMapAttrCreate(ctx, 1, t, 2, (int64_t[]){4, 16}, 1,
                                       (int64_t[]){64});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_UNMERGE, 2,
                                 (int64_t[]){2, 32}, 2, a_b, d01, 1, raw, d0);
  maps[4] = rockTransformMapAttrCreate(ctx, 1, t, 2, (int64_t[]){2, 32}, 1,
                                       (int64_t[]){64});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_MERGE, 2,
                                 (int64_t[]){4, 16}, 1, m, d0, 2, a_b, d01);
  maps[5] = rockTransformMapAttrCreate(ctx, 1, t, 1, (int64_t[]){64}, 2,
                                       (int64_t[]){4, 16});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_ADD_DIM, 1, (int64_t[]){3},
                                 1, e, d0, 0, NULL, NULL);
  t[1] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 1,
                                 x, d1, 1, x, d0);
  maps[6] = rockTransformMapAttrCreate(ctx, 2, t, 2, (int64_t[]){3, 8}, 1,
                                       (int64_t[]){8});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_BROADCAST, 1,
                                 (int64_t[]){1}, 1, b, d0, 1, b, d0);
  maps[7] = rockTransformMapAttrCreate(ctx, 1, t, 1, (int64_t[]){5}, 1,
                                       (int64_t[]){1});
  t[0] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 1,
                                 x, d0, 1, x, d0);
  t[1] = rockTransformAttrCreate(ctx, ROCK_TRANSFORM_CONST_DIM, 2,
                                 (int64_t[]){2, 4}, 0, NULL, NULL, 1, c, d1);
  maps[8] = rockTransformMapAttrCreate(ctx, 2, t, 1, (int64_t[]){8}, 2,
                                       (int64_t[]){8, 4});
}

static void testTransforms(MlirContext ctx) {
  fprintf(stderr, "TEST: transform maps\n");
  MlirAttribute maps[9];
  buildTransformMaps(ctx, maps);
  for (int i = 0; i < 9; ++i) {
    mlirAttributePrint(maps[i], printToStderr, NULL);
    fprintf(stderr, "\n");
  }
  // CHECK-LABEL: TEST: transform maps
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["b", "a"] at [1, 0]>] bounds = [4, 8] -> [8, 4]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0) -> (d0 - 1)> by [<Pad{1, 2} ["x"] at [0] -> ["x"] at [0]>] bounds = [11] -> [8]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0) -> (d0 + 2)> by [<Slice{2, 6} ["x"] at [0] -> ["x"] at [0]>] bounds = [4] -> [8]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0, d1) -> (d0 * 16 + d1)> by [<Embed{16, 1} ["a", "b"] at [0, 1] -> ["raw"] at [0]>] bounds = [4, 16] -> [64]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0, d1) -> (d0 * 32 + d1)> by [<Unmerge{2, 32} ["a", "b"] at [0, 1] -> ["raw"] at [0]>] bounds = [2, 32] -> [64]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)> by [<Merge{4, 16} ["m"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [64] -> [4, 16]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0, d1) -> (d1)> by [<AddDim{3} ["e"] at [0] -> [] at []>, <PassThrough ["x"] at [1] -> ["x"] at [0]>] bounds = [3, 8] -> [8]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0) -> (0)> by [<Broadcast{1} ["b"] at [0] -> ["b"] at [0]>] bounds = [5] -> [1]>
  // CHECK-NEXT: #rock.transform_map<affine_map<(d0) -> (d0, 2)> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>, <ConstDim{2, 4} [] at [] -> ["c"] at [1]>] bounds = [8] -> [8, 4]>

  fprintf(stderr, "TEST: views\n");
  // CHECK-LABEL: TEST: views
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirModule module = mlirModuleCreateEmpty(loc);
  /* Inputs of the nine views, then the page table, then two indices. */
  const int64_t s84[] = {8, 4}, s8[] = {8}, s64[] = {64}, s416[] = {4, 16},
                s1[] = {1}, s141[] = {1, 4, 1};
  MlirType index = mlirIndexTypeGet(ctx);
  MlirType args[] = {memref(ctx, 2, s84, f32(ctx)),
                     memref(ctx, 1, s8, f32(ctx)),
                     memref(ctx, 1, s64, f32(ctx)),
                     memref(ctx, 2, s416, f32(ctx)),
                     memref(ctx, 1, s1, f32(ctx)),
                     memref(ctx, 3, s141, mlirIntegerTypeGet(ctx, 64)),
                     index,
                     index};
  MlirBlock body = appendFunc(module, "views", 8, args);
  MlirValue a = mlirBlockGetArgument(body, 0),
            b = mlirBlockGetArgument(body, 1),
            c = mlirBlockGetArgument(body, 2),
            d = mlirBlockGetArgument(body, 3),
            e = mlirBlockGetArgument(body, 4),
            p = mlirBlockGetArgument(body, 5),
            i = mlirBlockGetArgument(body, 6),
            j = mlirBlockGetArgument(body, 7);
  const MlirValue inputs[9] = {a, b, b, c, c, d, b, e, a};
  const int64_t r0[] = {4, 8}, r1[] = {11}, r2[] = {4}, r3[] = {4, 16},
                r4[] = {2, 32}, r5[] = {64}, r6[] = {3, 8}, r7[] = {5},
                r8[] = {8};
  const struct {
    intptr_t rank;
    const int64_t *shape;
  } res[9] = {{2, r0}, {1, r1}, {1, r2}, {2, r3}, {2, r4},
              {1, r5}, {2, r6}, {1, r7}, {1, r8}};
  MlirValue views[9];
  for (int k = 0; k < 9; ++k)
    views[k] = result(
        insert(body, rockTransformOpCreate(
                         loc, inputs[k], maps[k],
                         memref(ctx, res[k].rank, res[k].shape, f32(ctx)))));
  const int64_t s14256[] = {1, 4, 256};
  MlirValue pages = result(insert(
      body, rockDerefOpCreate(loc, p, memref(ctx, 3, s14256, f16(ctx)))));
  /* A deref is read through a view: here the identity map of its shape. */
  const char *gpi[] = {"g", "p", "i"};
  const int64_t d012[] = {0, 1, 2};
  MlirAttribute pt = rockTransformAttrCreate(
      ctx, ROCK_TRANSFORM_PASS_THROUGH, 0, NULL, 3, gpi, d012, 3, gpi, d012);
  MlirValue pageView = result(
      insert(body, rockTransformOpCreate(loc, pages,
                                         rockTransformMapAttrCreate(
                                             ctx, 1, &pt, 3, s14256, 3, s14256),
                                         memref(ctx, 3, s14256, f16(ctx)))));
  MlirValue ij[2] = {i, j};
  MlirValue x =
      result(insert(body, rockViewLoadOpCreate(loc, views[0], 2, ij, f32(ctx),
                                               mlirAttributeGetNull())));
  MlirValue ijk[3] = {i, i, j};
  MlirValue h = result(
      insert(body, rockViewLoadOpCreate(loc, pageView, 3, ijk, f16(ctx),
                                        mlirFloatAttrDoubleGet(
                                            ctx, mlirF64TypeGet(ctx), -1.0))));
  (void)h;
  insert(body, rockViewStoreOpCreate(loc, x, views[3], 2, ij));
  insert(body, rockViewPrefetchOpCreate(loc, pageView, 3, ijk, 3));
  /* Builders reject what they cannot build. */
  fprintf(stderr, "null transform: %d\n",
          mlirOperationIsNull(
              rockTransformOpCreate(loc, a, mlirUnitAttrGet(ctx), args[0])));
  // CHECK: null transform: 1

  MlirOperation op = mlirModuleGetOperation(module);
  fprintf(stderr, "verified: %d\n", mlirOperationVerify(op));
  mlirOperationPrint(op, printToStderr, NULL);
  fprintf(stderr, "\n");
  // CHECK: verified: 1
  // CHECK: func.func @views(%[[A:.*]]: memref<8x4xf32>, %[[B:.*]]: memref<8xf32>, %[[C:.*]]: memref<64xf32>, %[[D:.*]]: memref<4x16xf32>, %[[E:.*]]: memref<1xf32>, %[[P:.*]]: memref<1x4x1xi64>, %[[I:.*]]: index, %[[J:.*]]: index) {
  // CHECK-NEXT: %[[V0:.*]] = rock.transform %[[A]] by #transform_map : memref<8x4xf32> to memref<4x8xf32>
  // CHECK-NEXT: rock.transform %[[B]] by #transform_map1 : memref<8xf32> to memref<11xf32>
  // CHECK-NEXT: rock.transform %[[B]] by #transform_map2 : memref<8xf32> to memref<4xf32>
  // CHECK-NEXT: %[[V3:.*]] = rock.transform %[[C]] by #transform_map3 : memref<64xf32> to memref<4x16xf32>
  // CHECK-NEXT: rock.transform %[[C]] by #transform_map4 : memref<64xf32> to memref<2x32xf32>
  // CHECK-NEXT: rock.transform %[[D]] by #transform_map5 : memref<4x16xf32> to memref<64xf32>
  // CHECK-NEXT: rock.transform %[[B]] by #transform_map6 : memref<8xf32> to memref<3x8xf32>
  // CHECK-NEXT: rock.transform %[[E]] by #transform_map7 : memref<1xf32> to memref<5xf32>
  // CHECK-NEXT: rock.transform %[[A]] by #transform_map8 : memref<8x4xf32> to memref<8xf32>
  // CHECK-NEXT: %[[PG:.*]] = rock.deref %[[P]] : memref<1x4x1xi64> -> memref<1x4x256xf16>
  // CHECK-NEXT: %[[PV:.*]] = rock.transform %[[PG]] by #transform_map9 : memref<1x4x256xf16> to memref<1x4x256xf16>
  // CHECK-NEXT: %[[X:.*]] = rock.view_load %[[V0]][%[[I]], %[[J]]] : memref<4x8xf32> -> f32
  // CHECK-NEXT: rock.view_load %[[PV]][%[[I]], %[[I]], %[[J]]] {padValue = -1.000000e+00 : f64} : memref<1x4x256xf16> -> f16
  // CHECK-NEXT: rock.view_store %[[X]], %[[V3]][%[[I]], %[[J]]] : f32, memref<4x16xf32>
  // CHECK-NEXT: rock.view_prefetch %{{.*}}[%[[I]], %[[I]], %[[J]]] {locality = 3 : i32} : memref<1x4x256xf16>
  // CHECK-NEXT: return
  mlirModuleDestroy(module);
}

/* Arguments of @attention: q, k, v, out, lse, scale. */
static void attentionArgs(MlirContext ctx, MlirType t[6]) {
  t[0] = memref(ctx, 3, (int64_t[]){1, 64, 1024}, f16(ctx));
  t[1] = memref(ctx, 3, (int64_t[]){1, 64, 1024}, f16(ctx));
  t[2] = memref(ctx, 3, (int64_t[]){1, 1024, 64}, f16(ctx));
  t[3] = memref(ctx, 3, (int64_t[]){2, 1024, 64}, f16(ctx));
  t[4] = memref(ctx, 2, (int64_t[]){2, 1024}, f32(ctx));
  t[5] = memref(ctx, 3, (int64_t[]){1, 1024, 1024}, f16(ctx));
}

/* A preSoftmaxBody region `^bb0(%a: f16, %s: f16): rock.yield (a * s)`,
 * owned by the caller. */
static MlirRegion scaleRegion(MlirContext ctx) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType ts[2] = {f16(ctx), f16(ctx)};
  MlirLocation ls[2] = {loc, loc};
  MlirBlock block = mlirBlockCreate(2, ts, ls);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block); /* the region owns `block` */
  MlirValue ab[2] = {mlirBlockGetArgument(block, 0),
                     mlirBlockGetArgument(block, 1)};
  MlirOperationState mul =
      mlirOperationStateGet(mlirStringRefCreateFromCString("arith.mulf"), loc);
  mlirOperationStateAddOperands(&mul, 2, ab);
  mlirOperationStateAddResults(&mul, 1, &ts[0]);
  MlirOperation m = mlirOperationCreate(&mul);
  mlirBlockAppendOwnedOperation(block, m);
  MlirValue r = result(m);
  MlirOperationState yield =
      mlirOperationStateGet(mlirStringRefCreateFromCString("rock.yield"), loc);
  mlirOperationStateAddOperands(&yield, 1, &r);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&yield));
  return region;
}

static void testAttention(MlirContext ctx) {
  fprintf(stderr, "TEST: attention\n");
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirType t[6];
  attentionArgs(ctx, t);
  MlirBlock body = appendFunc(module, "attention", 6, t);
  MlirValue v[6];
  for (int i = 0; i < 6; ++i)
    v[i] = mlirBlockGetArgument(body, i);

  RockAttentionOperands ops = {0};
  ops.queries = v[0];
  ops.keys = v[1];
  ops.values = v[2];
  ops.out = v[3];
  ops.lse = v[4];
  RockAttentionAttrs attrs = {0};
  attrs.numHeadsQ = attrs.numHeadsKV = 1;
  attrs.splitKV = 2;
  attrs.qTransposed = true;
  attrs.causal = true;
  attrs.causalLookBack = 16;
  attrs.softmaxType = f32(ctx);
  attrs.perfConfig = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0";
  attrs.features = 2 | 4 | 8 | 16; /* dot|atomic_add|atomic_fmax_f32|wmma */
  insert(body, rockAttentionOpCreate(loc, &ops, &attrs, (MlirRegion){NULL}));

  /* The same with an elementwise input and a caller-built region. */
  ops.nPreSoftmaxElemWiseInputs = 1;
  ops.preSoftmaxElemWiseInputs = &v[5];
  attrs.causal = false;
  attrs.causalLookBack = 0;
  attrs.reverseGrid = true;
  attrs.perfConfig = NULL;
  attrs.softmaxType = (MlirType){NULL};
  attrs.slidingWindowSize = 128;
  attrs.features = 0;
  /* The op takes ownership of the region. */
  insert(body, rockAttentionOpCreate(loc, &ops, &attrs, scaleRegion(ctx)));

  /* A missing required operand gives a null op; the region is freed. */
  RockAttentionOperands bad = {0};
  fprintf(stderr, "null attention: %d\n",
          mlirOperationIsNull(
              rockAttentionOpCreate(loc, &bad, &attrs, scaleRegion(ctx))));
  // CHECK-LABEL: TEST: attention
  // CHECK: null attention: 1

  MlirOperation op = mlirModuleGetOperation(module);
  fprintf(stderr, "verified: %d\n", mlirOperationVerify(op));
  mlirOperationPrint(op, printToStderr, NULL);
  fprintf(stderr, "\n");
  // CHECK: verified: 1
  // CHECK: func.func @attention(%[[Q:.*]]: memref<1x64x1024xf16>, %[[K:.*]]: memref<1x64x1024xf16>, %[[V:.*]]: memref<1x1024x64xf16>, %[[O:.*]]: memref<2x1024x64xf16>, %[[L:.*]]: memref<2x1024xf32>, %[[S:.*]]: memref<1x1024x1024xf16>) {
  // CHECK-NEXT: rock.attention {
  // CHECK-NEXT: qk = tr %[[Q]] * %[[K]] : memref<1x64x1024xf16>, memref<1x64x1024xf16>
  // CHECK-NEXT: causal
  // CHECK-NEXT: lse = %[[L]] : memref<2x1024xf32>
  // CHECK-NEXT: %[[O]] = softmax(qk) * %[[V]] : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
  // CHECK-NEXT: } {causalLookBack = 16 : i32, features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32|wmma>, firstGemmIndices = array<i64: 0>, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0", preSoftmaxHasSplitKVTransforms = false, softmaxType = f32, splitKV = 2 : i32, storeMethod = #rock<StoreMethod set>}
  // CHECK-NEXT: rock.attention {
  // CHECK-NEXT: qk = tr %[[Q]] * %[[K]] : memref<1x64x1024xf16>, memref<1x64x1024xf16>
  // CHECK-NEXT: slidingWindowSize = 128
  // CHECK-NEXT: lse = %[[L]] : memref<2x1024xf32>
  // CHECK-NEXT: qk = elementwise otherIns(%[[S]] : memref<1x1024x1024xf16>) {
  // CHECK-NEXT: ^bb0(%[[A0:.*]]: f16, %[[A1:.*]]: f16):
  // CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A0]], %[[A1]] : f16
  // CHECK-NEXT: rock.yield %[[M]] : f16
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[O]] = softmax(qk) * %[[V]] : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
  // CHECK-NEXT: } {firstGemmIndices = array<i64: 0>, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, preSoftmaxHasSplitKVTransforms = false, reverseGrid, splitKV = 2 : i32, storeMethod = #rock<StoreMethod set>}
  // CHECK-NEXT: return
  mlirModuleDestroy(module);
}

static void testCombine(MlirContext ctx) {
  fprintf(stderr, "TEST: combine\n");
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirType t[4] = {memref(ctx, 3, (int64_t[]){4, 8, 32}, f16(ctx)),
                   memref(ctx, 2, (int64_t[]){4, 8}, f32(ctx)),
                   memref(ctx, 3, (int64_t[]){2, 8, 32}, f16(ctx)),
                   memref(ctx, 2, (int64_t[]){2, 8}, f32(ctx))};
  MlirBlock body = appendFunc(module, "combine", 4, t);
  MlirValue v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = mlirBlockGetArgument(body, i);
  insert(body,
         rockAttentionCombineOpCreate(loc, v[0], v[1], v[2], v[3], 2, false));
  insert(body, rockAttentionCombineOpCreate(loc, v[0], v[1], v[2],
                                            (MlirValue){NULL}, 2, false));
  MlirOperation op = mlirModuleGetOperation(module);
  fprintf(stderr, "verified: %d\n", mlirOperationVerify(op));
  mlirOperationPrint(op, printToStderr, NULL);
  fprintf(stderr, "\n");
  // CHECK-LABEL: TEST: combine
  // CHECK: verified: 1
  // CHECK: rock.attention_combine %{{.*}}, %{{.*}} into %{{.*}}, %{{.*}} {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x8xf32>
  // CHECK-NEXT: rock.attention_combine %{{.*}}, %{{.*}} into %{{.*}} {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>
  mlirModuleDestroy(module);
}

/* Split-KV without an LSE output fails verification; the diagnostic reaches
 * a handler attached to the context. */
static void testInvalid(MlirContext ctx) {
  fprintf(stderr, "TEST: invalid\n");
  MlirLocation loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("builder.c"), 7, 3);
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  MlirType t[6];
  attentionArgs(ctx, t);
  MlirBlock body = appendFunc(module, "invalid", 6, t);
  RockAttentionOperands ops = {0};
  ops.queries = mlirBlockGetArgument(body, 0);
  ops.keys = mlirBlockGetArgument(body, 1);
  ops.values = mlirBlockGetArgument(body, 2);
  ops.out = mlirBlockGetArgument(body, 3);
  RockAttentionAttrs attrs = {0};
  attrs.numHeadsQ = attrs.numHeadsKV = 1;
  attrs.splitKV = 2;
  attrs.qTransposed = true;
  insert(body, rockAttentionOpCreate(loc, &ops, &attrs, (MlirRegion){NULL}));

  Captured captured = {{0}, 0, 0};
  MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(
      ctx, captureDiagnostic, &captured, NULL);
  bool r = mlirOperationVerify(mlirModuleGetOperation(module));
  mlirContextDetachDiagnosticHandler(ctx, id);
  fprintf(stderr, "verified: %d\n", r);
  fprintf(stderr, "diagnostics: %d\n", captured.count);
  fprintf(stderr, "diagnostic: %s\n", captured.text);
  // CHECK-LABEL: TEST: invalid
  // CHECK-NEXT: verified: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: diagnostic: Flash decoding needs LSE output
  mlirModuleDestroy(module);
}

int main(void) {
  MlirContext ctx = createContext();
  testTransforms(ctx);
  testAttention(ctx);
  testCombine(ctx);
  testInvalid(ctx);
  mlirContextDestroy(ctx);
  return 0;
}
