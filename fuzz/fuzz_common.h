//===- fuzz_common.h - shared set-up of rock's libFuzzer targets -*- C -*-===//
//
// Every target parses with a fresh MLIRContext per input (nothing uniqued
// in one input survives into the next, so memory stays flat and LeakSanitizer
// sees each input's allocations freed), from one registry of all upstream
// dialects plus rock, built once. Diagnostics are swallowed: an error is an
// expected outcome, only a crash, a hang, a leak or a sanitizer report is a
// finding.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_FUZZ_COMMON_H
#define ROCK_FUZZ_COMMON_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"
#include "rock-c/TextNesting.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static MlirDialectRegistry rockFuzzRegistry;

static inline MlirLogicalResult rockFuzzSwallow(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// libFuzzer's start-up hook, defined here once for the target that includes
/// this header (one per fuzzer binary): builds the registry once.
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  rockFuzzRegistry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(rockFuzzRegistry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__rock__(),
                                 rockFuzzRegistry);
  mlirRegisterAllPasses();
  rockRegisterAllPasses();
  return 0;
}

/// A fresh single-threaded context with every dialect available and
/// diagnostics swallowed; destroy with mlirContextDestroy.
static inline MlirContext rockFuzzContext(void) {
  MlirContext ctx = mlirContextCreateWithRegistry(rockFuzzRegistry, false);
  mlirContextAttachDiagnosticHandler(ctx, rockFuzzSwallow, NULL, NULL);
  mlirRegisterAllLLVMTranslations(ctx);
  return ctx;
}

/// A malloc'ed NUL-terminated copy of `data` (free it): MLIR's parser reads
/// the byte after the text, as every rock caller provides (rock-opt's
/// MemoryBuffer, rock-run's readAll, C strings).
static inline char *rockFuzzText(const uint8_t *data, size_t size) {
  char *t = malloc(size + 1);
  if (t) {
    memcpy(t, data, size);
    t[size] = 0;
  }
  return t;
}

/// Parses `data` as a module the way rock-opt and rock-run do (nesting
/// bounded first, NUL-terminated); a null module when it is refused or does
/// not parse.
static inline MlirModule rockFuzzParse(MlirContext ctx, const uint8_t *data,
                                       size_t size) {
  MlirModule m = {NULL};
  MlirStringRef text = {(const char *)data, size};
  char *copy = rockTextCheckNesting(text, ROCK_MAX_TEXT_NESTING, NULL, 0)
                   ? rockFuzzText(data, size)
                   : NULL;
  if (copy)
    m = mlirModuleCreateParse(ctx, (MlirStringRef){copy, size});
  free(copy);
  return m;
}

#endif
