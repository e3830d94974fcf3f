//===- pipeline.c - fuzz target: rock-cpu-pipeline on IR that verifies ----===//
//
// Inputs that parse, verify and hold a rock op go through the whole CPU
// pipeline (to the LLVM dialect); libFuzzer's -timeout bounds each input.
// Upstream-only IR is skipped: the findings wanted are rock's.
//
//===----------------------------------------------------------------------===//
#include "fuzz_common.h"

#include "mlir-c/Pass.h"

#include <string.h>

static bool mentionsRock(const uint8_t *data, size_t size) {
  for (size_t i = 0; i + 5 <= size; ++i)
    if (!memcmp(data + i, "rock.", 5))
      return true;
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!mentionsRock(data, size))
    return 0;
  MlirContext ctx = rockFuzzContext();
  MlirModule m = rockFuzzParse(ctx, data, size);
  if (!mlirModuleIsNull(m) && mlirOperationVerify(mlirModuleGetOperation(m))) {
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    if (!mlirLogicalResultIsFailure(
            rockAddCpuPipeline(mlirPassManagerGetAsOpPassManager(pm))))
      (void)mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m));
    mlirPassManagerDestroy(pm);
  }
  if (!mlirModuleIsNull(m))
    mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return 0;
}
