//===- jit.c - JIT execution of lowered modules --------------------------===//
#define _POSIX_C_SOURCE 200809L
#include "jit.h"

#include "narrow_builtins.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// The rank-1 memref descriptor of MLIR's C interface.
typedef struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
} MemRef1D;

const char *rockJitTargetCpu(const char *cpu) {
  if (cpu && *cpu)
    return cpu;
  const char *env = getenv(ROCK_JIT_CPU_ENV);
  return env && *env ? env : NULL;
}

typedef struct CpuWalk {
  MlirAttribute cpu, features;
} CpuWalk;

static MlirWalkResult setCpu(MlirOperation op, void *ud) {
  const CpuWalk *w = ud;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length == 9 && !strncmp(n.data, "llvm.func", 9)) {
    mlirOperationSetAttributeByName(
        op, mlirStringRefCreateFromCString("target_cpu"), w->cpu);
    mlirOperationSetAttributeByName(
        op, mlirStringRefCreateFromCString("target_features"), w->features);
  }
  return MlirWalkResultAdvance;
}

static void setTargetCpu(MlirModule module, const char *cpu) {
  if (!cpu)
    return;
  MlirContext ctx = mlirModuleGetContext(module);
  // Without an explicit target_features the host's (+avx512f, ...) would
  // apply on top of `cpu`; an empty list means "what `cpu` implies".
  CpuWalk w = {mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(cpu)),
               mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(
                                              "#llvm.target_features<[]>"))};
  mlirOperationWalk(mlirModuleGetOperation(module), setCpu, &w,
                    MlirWalkPreOrder);
}

MlirExecutionEngine rockJitCreate(MlirModule module, const char *cpu) {
  setTargetCpu(module, cpu);
  MlirStringRef libs[1] = {mlirStringRefCreateFromCString(ROCK_JIT_LIBOMP)};
  MlirExecutionEngine jit =
      mlirExecutionEngineCreate(module, 3, 1, libs, false, false);
  if (mlirExecutionEngineIsNull(jit))
    return jit;
  for (const RockNarrowBuiltin *b = rockNarrowBuiltins(); b->name; ++b)
    mlirExecutionEngineRegisterSymbol(
        jit, mlirStringRefCreateFromCString(b->name), b->address);
  return jit;
}

MlirContext rockJitContextCreate(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__rock__(), registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  rockRegisterAllPasses();
  return ctx;
}

MlirExecutionEngine rockJitCompileText(MlirContext ctx, const char *text,
                                       char *err, size_t errSize) {
  MlirExecutionEngine none = {NULL};
  MlirModule mod =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(mod)) {
    snprintf(err, errSize, "parse failed");
    return none;
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult res =
      rockAddCpuPipeline(mlirPassManagerGetAsOpPassManager(pm));
  if (!mlirLogicalResultIsFailure(res))
    res = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(mod));
  mlirPassManagerDestroy(pm);
  MlirExecutionEngine jit = none;
  if (mlirLogicalResultIsFailure(res))
    snprintf(err, errSize, "lowering failed");
  else if (mlirExecutionEngineIsNull(
               jit = rockJitCreate(mod, rockJitTargetCpu(NULL))))
    snprintf(err, errSize, "no JIT");
  mlirModuleDestroy(mod);
  return jit;
}

/// Reads what was written to `f` since it was created, at most size-1 bytes,
/// with newlines (but the last) turned into "; ". Returns the length.
static size_t readCaptured(FILE *f, char *buf, size_t size) {
  rewind(f);
  size_t n = fread(buf, 1, size - 1, f);
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
    --n;
  buf[n] = 0;
  return n;
}

bool rockJitLookup(MlirExecutionEngine jit, const char *name, char *err,
                   size_t errSize) {
  char sym[256];
  snprintf(sym, sizeof sym, "_mlir_ciface_%s", name);
  // LLVM reports JIT session errors (unresolved symbols, bad CPU names) on
  // stderr and the C API returns only a null pointer: capture that text.
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = tmp ? dup(2) : -1;
  if (saved >= 0)
    dup2(fileno(tmp), 2);
  void *fn =
      mlirExecutionEngineLookup(jit, mlirStringRefCreateFromCString(sym));
  char text[1024] = "";
  if (saved >= 0) {
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    readCaptured(tmp, text, sizeof text);
  }
  if (tmp)
    fclose(tmp);
  bool badCpu = strstr(text, "is not a recognized processor") != NULL;
  if (fn && !badCpu) {
    if (*text)
      fprintf(stderr, "%s\n", text);
    return true;
  }
  for (char *p = text; *p; ++p)
    if (*p == '\n')
      *p = ';';
  if (*text)
    snprintf(err, errSize, "%s", text);
  else
    snprintf(err, errSize, "no function %s", sym);
  return false;
}

bool rockJitInvokeData(MlirExecutionEngine jit, const char *name,
                       void *const *data, const int64_t *sizes, int n) {
  enum { kMax = 64 };
  if (n < 0 || n > kMax)
    return false;
  MemRef1D desc[kMax];
  MemRef1D *ptrs[kMax];
  void *packed[kMax];
  for (int i = 0; i < n; ++i) {
    desc[i] = (MemRef1D){data[i], data[i], 0, sizes[i], 1};
    ptrs[i] = &desc[i];
    packed[i] = &ptrs[i];
  }
  return !mlirLogicalResultIsFailure(mlirExecutionEngineInvokePacked(
      jit, mlirStringRefCreateFromCString(name), packed));
}

bool rockJitInvoke(MlirExecutionEngine jit, const char *name,
                   RockBuffer *const *args, int n) {
  enum { kMax = 64 };
  if (n < 0 || n > kMax)
    return false;
  void *data[kMax];
  int64_t sizes[kMax];
  for (int i = 0; i < n; ++i) {
    data[i] = args[i]->data;
    sizes[i] = args[i]->numElements;
  }
  return rockJitInvokeData(jit, name, data, sizes, n);
}
