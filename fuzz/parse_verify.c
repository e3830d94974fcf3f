//===- parse_verify.c - fuzz target: parse + verify rock IR ---------------===//
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  rockFuzzInit();
  return 0;
}

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
