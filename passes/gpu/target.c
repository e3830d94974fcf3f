/*===- target.c - the GPU target of a module (rock.arch)
 * -------------------===*/
#include "internal.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>

bool rock__gpuArch(MlirOperation op, MlirExternalPass pass, RockGpuTarget *t) {
  MlirOperation p = op;
  MlirAttribute arch = rock__attr(p, "rock.arch");
  while (mlirAttributeIsNull(arch) &&
         !mlirOperationIsNull(mlirOperationGetParentOperation(p))) {
    p = mlirOperationGetParentOperation(p);
    arch = rock__attr(p, "rock.arch");
  }
  if (mlirAttributeIsNull(arch) || !mlirAttributeIsAString(arch)) {
    if (pass.ptr)
      rock__passFail(pass, op,
                     "rock-gpu-pipeline needs the module attribute rock.arch "
                     "(e.g. rock-gen --arch sm_90)");
    return false;
  }
  MlirStringRef s = mlirStringAttrGetValue(arch);
  char name[128], err[256];
  snprintf(name, sizeof name, "%.*s", (int)s.length, s.data);
  if (!rockGpuTargetParse(name, t, err, sizeof err)) {
    if (pass.ptr)
      rock__passFail(pass, op, "rock.arch: %s", err);
    return false;
  }
  if (t->vendor == ROCK_GPU_NONE) {
    if (pass.ptr)
      rock__passFail(pass, op,
                     "rock.arch \"%s\" is not a GPU target (sm_<N>, gfx<id>)",
                     name);
    return false;
  }
  return true;
}
