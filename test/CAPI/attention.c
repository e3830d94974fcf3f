/*===- attention.c - the attention builder of rock-c/Attention.h ----------===*/
/* RUN: rock-capi-attention-test 2>&1 | FileCheck %s
 */

#include "rock-c/Attention.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes exactly `str.length` bytes to stderr. */
static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

/* Prints error diagnostics on one line each. */
static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static void testValidate(void) {
  fprintf(stderr, "TEST: validate\n");
  RockAttentionConfig c;
  rockAttentionConfigInit(&c);
  char err[256];
  /* Sizes are required. */
  fprintf(stderr, "%d %s\n", rockAttentionConfigValidate(&c, err, sizeof err),
          err);
  // CHECK-LABEL: TEST: validate
  // CHECK-NEXT: 0 missing -seq_len_q (or use -p)

  /* Paged: Sk is derived from numPages * pageSize / (Hkv * D). */
  c.seqLenQ = 16;
  c.headDimQK = c.headDimV = 32;
  c.numHeadsQ = 4;
  c.numHeadsKV = 2;
  c.dtype = ROCK_ATTENTION_F16;
  c.paged = true;
  c.numPages = 64;
  c.pageSize = 1024;
  bool ok = rockAttentionConfigValidate(&c, err, sizeof err);
  fprintf(stderr, "%d Sk=%" PRId64 "\n", ok, c.seqLenK);
  // CHECK-NEXT: 1 Sk=1024

  /* A truncated message stays NUL-terminated. */
  c.splitKV = 2;
  char small[12];
  ok = rockAttentionConfigValidate(&c, small, sizeof small);
  fprintf(stderr, "%d '%s'\n", ok, small);
  // CHECK-NEXT: 0 '-split_kv 2'
}

static void testBuild(MlirContext ctx) {
  fprintf(stderr, "TEST: build\n");
  RockAttentionConfig c;
  rockAttentionConfigInit(&c);
  int64_t csl[3] = {17, 1, 32};
  c.g = 3;
  c.numHeadsQ = 4;
  c.numHeadsKV = 2;
  c.seqLenQ = 1;
  c.seqLenK = 64;
  c.headDimQK = c.headDimV = 16;
  c.currentSeqLen = csl;
  c.numCurrentSeqLen = 3;
  c.splitKV = 4;
  c.returnLse = true;
  c.withScale = true;
  MlirModule m = rockAttentionBuildModule(ctx, &c);
  fprintf(stderr, "null=%d\n", mlirModuleIsNull(m));
  MlirOperation op = mlirModuleGetOperation(m);
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  int nFuncs = 0;
  for (; !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
    ++nFuncs;
  fprintf(stderr, "funcs=%d harness=%d\n", nFuncs,
          !mlirAttributeIsNull(mlirOperationGetAttributeByName(
              op, mlirStringRefCreateFromCString("rock.harness"))));
  mlirModuleDestroy(m);
  // CHECK-LABEL: TEST: build
  // CHECK-NEXT: null=0
  // CHECK-NEXT: funcs=2 harness=1

  /* Invalid configs give a null module and one error diagnostic. */
  c.returnLse = false;
  m = rockAttentionBuildModule(ctx, &c);
  fprintf(stderr, "null=%d\n", mlirModuleIsNull(m));
  // CHECK-NEXT: diagnostic: -split_kv 4 requires -return_lse (flash decoding needs LSE output)
  // CHECK-NEXT: null=1

  /* The text form, with harness settings. */
  c.returnLse = true;
  RockAttentionHarness h;
  rockAttentionHarnessInit(&h);
  h.verifier = "mlir";
  h.arch = "a\"b";
  char *text = rockAttentionBuildModuleText(ctx, &c, &h);
  fprintf(stderr, "%s\n", strstr(text, "verifier = \"mlir\"") ? "mlir" : "?");
  fprintf(stderr, "%s\n", strstr(text, "arch = \"a\\22b\"") ? "escaped" : "?");
  free(text);
  // CHECK-NEXT: mlir
  // CHECK-NEXT: escaped
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  testValidate();
  testBuild(ctx);
  mlirContextDestroy(ctx);
  return 0;
}
