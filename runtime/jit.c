//===- jit.c - JIT execution of lowered modules --------------------------===//
#include "jit.h"

#include <stdint.h>

/// The rank-1 memref descriptor of MLIR's C interface.
typedef struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
} MemRef1D;

MlirExecutionEngine rockJitCreate(MlirModule module) {
  MlirStringRef libs[1] = {mlirStringRefCreateFromCString(ROCK_JIT_LIBOMP)};
  return mlirExecutionEngineCreate(module, 3, 1, libs, false, false);
}

bool rockJitInvoke(MlirExecutionEngine jit, const char *name,
                   RockBuffer *const *args, int n) {
  enum { kMax = 64 };
  if (n < 0 || n > kMax)
    return false;
  MemRef1D desc[kMax];
  MemRef1D *ptrs[kMax];
  void *packed[kMax];
  for (int i = 0; i < n; ++i) {
    desc[i].allocated = args[i]->data;
    desc[i].aligned = args[i]->data;
    desc[i].offset = 0;
    desc[i].size = args[i]->numElements;
    desc[i].stride = 1;
    ptrs[i] = &desc[i];
    packed[i] = &ptrs[i];
  }
  return !mlirLogicalResultIsFailure(mlirExecutionEngineInvokePacked(
      jit, mlirStringRefCreateFromCString(name), packed));
}
