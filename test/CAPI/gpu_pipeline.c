/*===- gpu_pipeline.c - rockAddGpuPipeline through the C API --------------===*/
/* A graph compiler's view: build an attention module for sm_90, run
 * rock-gpu-pipeline, then read what a launcher needs from the result: the
 * gpu.launch_func ops (kernel symbol, operands mapped back to the host
 * function's arguments) and the gpu.binary objects (format, PTX text).
 * RUN: rock-capi-gpu-pipeline-test 2>&1 | FileCheck %s
 */
#include "jit.h"
#include "rock-c/Attention.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <string.h>

static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

static MlirWalkResult visit(MlirOperation op, void *userData) {
  (void)userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == 15 && !strncmp(name.data, "gpu.launch_func", 15)) {
    fprintf(stderr, "launch ");
    mlirAttributePrint(mlirOperationGetAttributeByName(
                           op, mlirStringRefCreateFromCString("kernel")),
                       printToStderr, NULL);
    /* Kernel operands are the last operands (after the 6 sizes). */
    intptr_t n = mlirOperationGetNumOperands(op);
    fprintf(stderr, " operands:");
    for (intptr_t i = 6; i < n; ++i) {
      MlirValue v = mlirOperationGetOperand(op, i);
      if (mlirValueIsABlockArgument(v))
        fprintf(stderr, " arg%ld", (long)mlirBlockArgumentGetArgNumber(v));
      else
        fprintf(stderr, " alloc");
    }
    fprintf(stderr, "\n");
  }
  if (name.length == 10 && !strncmp(name.data, "gpu.binary", 10)) {
    MlirAttribute objs = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("objects"));
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(objs); ++i) {
      MlirAttribute o = mlirArrayAttrGetElement(objs, i);
      if (!mlirAttributeIsAGPUObjectAttr(o))
        continue;
      MlirStringRef text = mlirGPUObjectAttrGetObject(o);
      const char *target = strstr(text.data, ".target sm_90");
      fprintf(stderr, "binary format %u ptx-sm_90 %d\n",
              (unsigned)mlirGPUObjectAttrGetFormat(o),
              target != NULL && target < text.data + text.length);
    }
  }
  return MlirWalkResultAdvance;
}

int main(void) {
  MlirContext ctx = rockJitContextCreate();

  RockAttentionConfig c;
  rockAttentionConfigInit(&c);
  c.dtype = ROCK_ATTENTION_F16;
  c.numHeadsQ = 4;
  c.numHeadsKV = 2;
  c.seqLenQ = 1;
  c.seqLenK = 256;
  c.headDimQK = c.headDimV = 64;
  c.splitKV = 2;
  c.returnLse = true;
  c.transK = true;
  RockAttentionHarness h;
  rockAttentionHarnessInit(&h);
  h.arch = "sm_90";
  MlirModule m = rockAttentionBuildModuleWithHarness(ctx, &c, &h);
  fprintf(stderr, "built: %d\n", !mlirModuleIsNull(m));
  // CHECK: built: 1

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult added =
      rockAddGpuPipeline(mlirPassManagerGetAsOpPassManager(pm));
  fprintf(stderr, "added: %d\n", mlirLogicalResultIsSuccess(added));
  // CHECK-NEXT: added: 1
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m));
  fprintf(stderr, "success: %d\n", mlirLogicalResultIsSuccess(r));
  // CHECK-NEXT: success: 1
  mlirOperationWalk(mlirModuleGetOperation(m), visit, NULL, MlirWalkPreOrder);
  // With a user split, @rock_attention(q, k, v, lse, out) writes the
  // partials and @rock_attention_combine(po, pl, o, l) merges them.
  // Each host function is followed by its kernel's gpu.binary; kernel
  // operands come in first-use order (k and v before q: the first K and V
  // tiles are staged before Q, the K / V overlap of the staging rule; out
  // before lse), not argument order.
  // CHECK-NEXT: launch @rock_attention_kernel::@rock_attention_kernel operands: arg1 arg2 arg0 arg4 arg3
  // CHECK-NEXT: binary format 2 ptx-sm_90 1
  // CHECK-NEXT: launch @rock_attention_combine_kernel::@rock_attention_combine_kernel operands: arg1 arg0 arg2 arg3
  // CHECK-NEXT: binary format 2 ptx-sm_90 1
  fprintf(stderr, "pipeline: %s\n", rockGpuPipelineGetText());
  // The host functions of rock-gen -pv (TOSA) go to buffers first.
  // CHECK-NEXT: pipeline: func.func(tosa-to-linalg-named,{{.*}}),one-shot-bufferize{{.*}},rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu,{{.*}},rock-gpu-attach-target,rock-gpu-to-binary{{$}}
  fprintf(stderr, "cubin: %s\n", rockGpuCubinPipelineGetText());
  // CHECK-NEXT: cubin: {{.*}},rock-gpu-attach-target,rock-gpu-to-cubin{{$}}
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return 0;
}
