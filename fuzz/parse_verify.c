//===- parse_verify.c - fuzz target: parse + verify rock IR ---------------===//
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MlirContext ctx = rockFuzzContext();
  MlirModule m = rockFuzzParse(ctx, data, size);
  if (!mlirModuleIsNull(m)) {
    (void)mlirOperationVerify(mlirModuleGetOperation(m));
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
  return 0;
}
