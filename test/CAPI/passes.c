/*===- passes.c - running rock passes through the C API -------------------===*/
/* RUN: rock-capi-passes-test 2>&1 | FileCheck %s
 */

#include "rock-c/Passes.h"
#include "rock-c/Dialect.h"

#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

/* Writes exactly `str.length` bytes to stderr. */
static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

/* A transpose of a transpose (composes into an identity, then erased), and
 * an identity view. */
static const char *kModule =
    "#t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>\n"
    "  by [<PassThrough [\"j\", \"i\"] at [0, 1] -> [\"i\", \"j\"] at [1, "
    "0]>]\n"
    "  bounds = [8, 4] -> [4, 8]>\n"
    "#tt = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>\n"
    "  by [<PassThrough [\"i\", \"j\"] at [0, 1] -> [\"j\", \"i\"] at [1, "
    "0]>]\n"
    "  bounds = [4, 8] -> [8, 4]>\n"
    "func.func @twice(%x: memref<4x8xf32>) -> (memref<8x4xf32>, "
    "memref<4x8xf32>) {\n"
    "  %0 = rock.transform %x by #t : memref<4x8xf32> to memref<8x4xf32>\n"
    "  %1 = rock.transform %x by #t : memref<4x8xf32> to memref<8x4xf32>\n"
    "  %2 = rock.transform %1 by #tt : memref<8x4xf32> to memref<4x8xf32>\n"
    "  return %0, %2 : memref<8x4xf32>, memref<4x8xf32>\n"
    "}\n";

static MlirModule parse(MlirContext ctx) {
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(m)) {
    fprintf(stderr, "parse failed\n");
    exit(1);
  }
  return m;
}

static void printModule(MlirModule m) {
  mlirOperationPrint(mlirModuleGetOperation(m), printToStderr, NULL);
  fprintf(stderr, "\n");
}

/* rockFoldTransformsPassCreate() added to a pass manager directly. */
static void testCreatedPass(MlirContext ctx) {
  fprintf(stderr, "TEST: created pass\n");
  MlirModule m = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  /* The pass manager owns the pass from here. */
  mlirPassManagerAddOwnedPass(pm, rockFoldTransformsPassCreate());
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m));
  fprintf(stderr, "success: %d\n", mlirLogicalResultIsSuccess(r));
  printModule(m);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  // CHECK-LABEL: TEST: created pass
  // CHECK-NEXT: success: 1
  // CHECK: func.func @twice(%[[X:.*]]: memref<4x8xf32>)
  // CHECK-NEXT: %[[T:.*]] = rock.transform %[[X]] by
  // CHECK-NEXT: return %[[T]], %[[X]] : memref<8x4xf32>, memref<4x8xf32>
}

/* Collects a pipeline parser's error message. */
static void printError(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

/* The same pass named in a pipeline string, after global registration. */
static void testPipelineString(MlirContext ctx) {
  fprintf(stderr, "TEST: pipeline string\n");
  rockRegisterAllPasses();
  rockRegisterAllPasses(); /* idempotent */
  MlirModule m = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(func.func(rock-fold-transforms))"),
      printError, NULL);
  fprintf(stderr, "parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  mlirPrintPassPipeline(opm, printToStderr, NULL);
  fprintf(stderr, "\n");
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m));
  fprintf(stderr, "success: %d\n", mlirLogicalResultIsSuccess(r));
  printModule(m);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  // CHECK-LABEL: TEST: pipeline string
  // CHECK-NEXT: parsed: 1
  // CHECK-NEXT: builtin.module(func.func(rock-fold-transforms))
  // CHECK-NEXT: success: 1
  // CHECK: func.func @twice(%[[X:.*]]: memref<4x8xf32>)
  // CHECK-NEXT: %[[T:.*]] = rock.transform %[[X]] by
  // CHECK-NEXT: return %[[T]], %[[X]] : memref<8x4xf32>, memref<4x8xf32>

  fprintf(stderr, "TEST: unknown pass\n");
  MlirPassManager bad = mlirPassManagerCreate(ctx);
  MlirLogicalResult p = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(bad),
      mlirStringRefCreateFromCString("builtin.module(rock-no-such-pass)"),
      printError, NULL);
  fprintf(stderr, "\nparsed: %d\n", mlirLogicalResultIsSuccess(p));
  mlirPassManagerDestroy(bad);
  // CHECK-LABEL: TEST: unknown pass
  // CHECK: 'rock-no-such-pass' does not refer to a registered pass
  // CHECK: parsed: 0
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__rock__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx);
  testCreatedPass(ctx);
  testPipelineString(ctx);
  mlirContextDestroy(ctx);
  return 0;
}
