/*===- scratch.c - per-workgroup scratch: size, limit, record -------------===*/
//
// The CPU lowering heap-allocates each workgroup's tiles (memref.alloc in the
// scf.parallel body). Their size is known when the kernel is generated, so it
// is bounded there, with a diagnostic at the user's op, and recorded on the
// module for hosts that want to check their memory before running (rock-run
// does; docs/internals.md, "Hostile input and limits").
//
//===----------------------------------------------------------------------===//
#include "internal.h"

#include "rock-c/Sizes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

int64_t rock__memrefTextBytes(const char *mt) {
  const char *s = strchr(mt, '<');
  if (!s)
    return 0;
  int64_t n = 1;
  ++s;
  for (;;) {
    char *end;
    long long d = strtoll(s, &end, 10);
    if (end == s || *end != 'x')
      break;
    if (!rockSizeMul(n, d, &n))
      return INT64_MAX;
    s = end + 1;
  }
  int64_t es = !strncmp(s, "f16", 3) || !strncmp(s, "bf16", 4)  ? 2
               : !strncmp(s, "i8", 2)                           ? 1
               : !strncmp(s, "f32", 3) || !strncmp(s, "i32", 3) ? 4
                                                                : 8;
  return rockSizeMul(n, es, &n) ? n : INT64_MAX;
}

int64_t rock__scratchAdd(int64_t total, const char *mt) {
  int64_t b = rock__memrefTextBytes(mt);
  return total > INT64_MAX - b ? INT64_MAX : total + b;
}

bool rock__recordWorkgroupScratch(MlirExternalPass pass, MlirOperation op,
                                  int64_t bytes) {
  if (bytes > ROCK_MAX_WORKGROUP_SCRATCH_BYTES) {
    rock__passFail(pass, op,
                   "the CPU lowering needs %lld MiB of scratch per workgroup, "
                   "more than the limit of %lld MiB (head dimensions or "
                   "perf_config tiles too large)",
                   (long long)(bytes >> 20),
                   (long long)(ROCK_MAX_WORKGROUP_SCRATCH_BYTES >> 20));
    return false;
  }
  MlirOperation m = op;
  while (!mlirOperationIsNull(m) && !rock__isOp(m, "builtin.module"))
    m = mlirOperationGetParentOperation(m);
  if (mlirOperationIsNull(m))
    return true;
  const char *name = "rock.workgroup_scratch_bytes";
  if (rock__intAttr(m, name, 0) >= bytes)
    return true;
  MlirContext ctx = mlirOperationGetContext(m);
  mlirOperationSetAttributeByName(
      m, mlirStringRefCreateFromCString(name),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), bytes));
  return true;
}
