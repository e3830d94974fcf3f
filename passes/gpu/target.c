/*===- target.c - the GPU target of a module (mhal.arch / rock.arch) ------===*/
#include "internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "rock-c/Dialect.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

bool rock__gpuArch(MlirOperation op, MlirExternalPass pass, RockGpuTarget *t) {
  const char *attrName;
  MlirAttribute arch = rock__archAttr(op, &attrName);
  if (mlirAttributeIsNull(arch) || !mlirAttributeIsAString(arch)) {
    if (pass.ptr)
      rock__passFail(pass, op,
                     "rock-gpu-pipeline needs the module attribute mhal.arch "
                     "(or rock.arch; e.g. rock-gen --arch sm_90)");
    return false;
  }
  MlirStringRef s = mlirStringAttrGetValue(arch);
  char name[128], err[256];
  snprintf(name, sizeof name, "%.*s", (int)s.length, s.data);
  if (!rockGpuTargetParse(name, t, err, sizeof err)) {
    if (pass.ptr)
      rock__passFail(pass, op, "%s: %s", attrName, err);
    return false;
  }
  if (t->vendor == ROCK_GPU_NONE) {
    if (pass.ptr)
      rock__passFail(pass, op,
                     "%s \"%s\" is not a GPU target (sm_<N>, gfx<id>)",
                     attrName, name);
    return false;
  }
  return true;
}

int64_t rock__gpuNumCu(MlirOperation op, const RockGpuTarget *t) {
  for (MlirOperation p = op; !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirAttribute n = rock__attr(p, "rock.num_cu");
    if (!mlirAttributeIsNull(n) && mlirAttributeIsAInteger(n) &&
        mlirIntegerAttrGetValueInt(n) > 0)
      return mlirIntegerAttrGetValueInt(n);
  }
  return t->numCu > 0 ? t->numCu : 64;
}

bool rock__gpuAccelOff(MlirOperation op, const RockGpuTarget *t) {
  MlirAttribute f = rock__attr(op, "features");
  if (mlirAttributeIsNull(f))
    return false;
  int64_t bits = rockGemmFeaturesAttrGetValue(f);
  if (bits < 0)
    return false;
  if (t->accel == ROCK_ACCEL_MFMA)
    return !(bits & ROCK_GEMM_FEATURE_MFMA);
  if (t->accel == ROCK_ACCEL_WMMA12)
    return !(bits & ROCK_GEMM_FEATURE_WMMA);
  return false;
}

int rock__gpuSwitch(MlirOperation op, MlirExternalPass pass, const char *name,
                    int64_t dflt, int64_t lo, int64_t hi) {
  MlirAttribute at = rock__nearestAttr(op, name);
  if (mlirAttributeIsNull(at))
    return (int)dflt;
  bool isBool = mlirAttributeIsABool(at);
  int64_t v = isBool                        ? mlirBoolAttrGetValue(at)
              : mlirAttributeIsAInteger(at) ? mlirIntegerAttrGetValueInt(at)
                                            : lo - 1;
  if ((lo == 0 && hi == 1) != isBool || v < lo || v > hi) {
    if (lo == 0 && hi == 1)
      rock__passFail(pass, op, "%s must be true or false", name);
    else
      rock__passFail(pass, op, "%s must be an integer in [%lld, %lld]", name,
                     (long long)lo, (long long)hi);
    return -1;
  }
  return (int)v;
}

int rock__gpuSwitchIn(MlirOperation op, MlirExternalPass pass, const char *name,
                      int dflt, const int *allowed, int n) {
  MlirExternalPass quiet = {NULL};
  int v = rock__gpuSwitch(op, quiet, name, dflt, INT32_MIN, INT32_MAX);
  if (mlirAttributeIsNull(rock__nearestAttr(op, name)))
    return v;
  for (int i = 0; i < n; ++i)
    if (v == allowed[i])
      return v;
  char list[128] = "";
  size_t len = 0;
  for (int i = 0; i < n && len < sizeof list; ++i)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%d",
                            i == 0       ? ""
                            : i == n - 1 ? " or "
                                         : ", ",
                            allowed[i]);
  rock__passFail(pass, op, "%s must be %s", name, list);
  return -1;
}

int rock__gpuPdl(MlirOperation op, MlirExternalPass pass) {
  int on = rock__gpuSwitch(op, pass, "rock.gpu_pdl", 1, 0, 1);
  if (on != 1)
    return on;
  RockGpuTarget t = {0};
  MlirExternalPass quiet = {NULL};
  return rock__gpuArch(op, quiet, &t) && t.vendor == ROCK_GPU_NVIDIA &&
         t.smVersion >= 90;
}

/* Whether `root` holds an op named `name`. */
static MlirWalkResult findOp(MlirOperation op, void *ud) {
  const char *name = *(const char **)ud;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length == strlen(name) && !memcmp(n.data, name, n.length)) {
    *(const char **)ud = NULL;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

void rock__gpuChip(MlirOperation root, const RockGpuTarget *t, char *chip,
                   size_t n) {
  const char *probe = "nvvm.wgmma.fence.aligned";
  if (t->vendor == ROCK_GPU_NVIDIA && !strcmp(t->chip, "sm_90"))
    mlirOperationWalk(root, findOp, &probe, MlirWalkPreOrder);
  snprintf(chip, n, "%s%s", t->chip, probe ? "" : "a");
}
