//===- cuda.c - the CUDA driver API, loaded at run time -------------------===//
#define _POSIX_C_SOURCE 200809L

#include "cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rockCudaFail(const RockCuda *cu, RockCuResult r, const char *what,
                  char *err, size_t errSize) {
  const char *name = NULL;
  if (!cu->getErrorName || cu->getErrorName(r, &name) != 0 || !name)
    name = "unknown CUDA error";
  snprintf(err, errSize, "%s: %s (%d)", what, name, r);
  return false;
}

/// One entry point: its versioned symbol and where it goes.
typedef struct Entry {
  const char *symbol;
  void **slot;
} Entry;

#define SLOT(field) ((void **)&cu->field)

bool rockCudaOpen(RockCuda *cu, char *err, size_t errSize) {
  memset(cu, 0, sizeof *cu);
  const char *path = getenv("ROCK_CUDA_LIBRARY");
  if (!path || !*path)
    path = "libcuda.so.1";
  cu->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!cu->lib) {
    const char *why = dlerror();
    snprintf(err, errSize,
             "no CUDA driver on this machine (cannot load %s%s%s)", path,
             why ? ": " : "", why ? why : "");
    return false;
  }
  const Entry entries[] = {
      {"cuInit", SLOT(init)},
      {"cuDeviceGet", SLOT(deviceGet)},
      {"cuDeviceGetCount", SLOT(deviceGetCount)},
      {"cuDeviceGetName", SLOT(deviceGetName)},
      {"cuDeviceGetAttribute", SLOT(deviceGetAttribute)},
      {"cuDevicePrimaryCtxRetain", SLOT(primaryCtxRetain)},
      {"cuCtxSetCurrent", SLOT(ctxSetCurrent)},
      {"cuCtxSynchronize", SLOT(ctxSynchronize)},
      {"cuModuleLoadDataEx", SLOT(moduleLoadDataEx)},
      {"cuModuleGetFunction", SLOT(moduleGetFunction)},
      {"cuFuncSetAttribute", SLOT(funcSetAttribute)},
      {"cuMemAlloc_v2", SLOT(memAlloc)},
      {"cuMemFree_v2", SLOT(memFree)},
      {"cuMemGetInfo_v2", SLOT(memGetInfo)},
      {"cuMemcpyHtoD_v2", SLOT(memcpyHtoD)},
      {"cuMemcpyDtoH_v2", SLOT(memcpyDtoH)},
      {"cuMemcpyDtoD_v2", SLOT(memcpyDtoD)},
      {"cuMemsetD8_v2", SLOT(memsetD8)},
      {"cuLaunchKernel", SLOT(launchKernel)},
      {"cuEventCreate", SLOT(eventCreate)},
      {"cuEventRecord", SLOT(eventRecord)},
      {"cuEventSynchronize", SLOT(eventSynchronize)},
      {"cuEventElapsedTime", SLOT(eventElapsedTime)},
      {"cuEventDestroy_v2", SLOT(eventDestroy)},
      {"cuGetErrorName", SLOT(getErrorName)},
  };
  /* (optional: drivers before CUDA 12 have no tensor maps and no
   * cuLaunchKernelEx) */
  *(void **)&cu->tensorMapEncodeTiled =
      dlsym(cu->lib, "cuTensorMapEncodeTiled");
  *(void **)&cu->launchKernelEx = dlsym(cu->lib, "cuLaunchKernelEx");
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; ++i) {
    *entries[i].slot = dlsym(cu->lib, entries[i].symbol);
    if (!*entries[i].slot) {
      snprintf(err, errSize, "the CUDA driver %s has no %s", path,
               entries[i].symbol);
      return false;
    }
  }
  RockCuResult r = cu->init(0);
  if (r != 0)
    return rockCudaFail(cu, r, "the CUDA driver found no usable GPU (cuInit)",
                        err, errSize);
  int count = 0;
  if ((r = cu->deviceGetCount(&count)) != 0)
    return rockCudaFail(cu, r, "cuDeviceGetCount", err, errSize);
  if (count < 1) {
    snprintf(err, errSize, "the CUDA driver sees no GPU");
    return false;
  }
  if ((r = cu->deviceGet(&cu->device, 0)) != 0)
    return rockCudaFail(cu, r, "cuDeviceGet", err, errSize);
  if ((r = cu->primaryCtxRetain(&cu->ctx, cu->device)) != 0)
    return rockCudaFail(cu, r, "cuDevicePrimaryCtxRetain", err, errSize);
  if ((r = cu->ctxSetCurrent(cu->ctx)) != 0)
    return rockCudaFail(cu, r, "cuCtxSetCurrent", err, errSize);
  return true;
}

void rockCudaClose(RockCuda *cu) {
  if (cu->ctxSynchronize && cu->ctx)
    cu->ctxSynchronize();
  cu->ctx = NULL;
}
