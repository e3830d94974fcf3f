//===- cuda.h - the CUDA driver API, loaded at run time -----------*- C -*-===//
//
// rock-run-gpu builds without CUDA: the few driver entry points it calls are
// looked up in libcuda.so.1 with dlopen/dlsym when it starts. The types are
// the driver's ABI (CUdeviceptr is 64-bit; handles are pointers).
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_CUDA_H
#define ROCK_RUNTIME_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int RockCuResult; ///< CUresult; 0 is CUDA_SUCCESS
typedef uint64_t RockCuDevPtr;
typedef void *RockCuHandle; ///< CUcontext, CUmodule, CUfunction, CUevent

/// CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value union.
typedef struct RockCuLaunchAttr {
  int id;
  char pad[4];
  union {
    char raw[64];
    int i; ///< e.g. programmaticStreamSerializationAllowed
    uint64_t align;
  } value;
} RockCuLaunchAttr;

/// CUlaunchConfig (cuLaunchKernelEx).
typedef struct RockCuLaunchConfig {
  unsigned gridX, gridY, gridZ, blockX, blockY, blockZ, smem;
  RockCuHandle stream;
  RockCuLaunchAttr *attrs;
  unsigned numAttrs;
} RockCuLaunchConfig;

/// The driver entry points rock uses (dlsym'd from libcuda.so.1).
typedef struct RockCuda {
  void *lib;
  RockCuResult (*init)(unsigned);
  RockCuResult (*deviceGet)(int *, int);
  RockCuResult (*deviceGetCount)(int *);
  RockCuResult (*deviceGetName)(char *, int, int);
  RockCuResult (*deviceGetAttribute)(int *, int, int);
  RockCuResult (*primaryCtxRetain)(RockCuHandle *, int);
  RockCuResult (*ctxSetCurrent)(RockCuHandle);
  RockCuResult (*ctxSynchronize)(void);
  RockCuResult (*moduleLoadDataEx)(RockCuHandle *, const void *, unsigned,
                                   int *, void **);
  RockCuResult (*moduleGetFunction)(RockCuHandle *, RockCuHandle, const char *);
  RockCuResult (*funcSetAttribute)(RockCuHandle, int, int);
  RockCuResult (*memAlloc)(RockCuDevPtr *, size_t);
  RockCuResult (*memFree)(RockCuDevPtr);
  RockCuResult (*memGetInfo)(size_t *, size_t *);
  RockCuResult (*memcpyHtoD)(RockCuDevPtr, const void *, size_t);
  RockCuResult (*memcpyDtoH)(void *, RockCuDevPtr, size_t);
  RockCuResult (*memcpyDtoD)(RockCuDevPtr, RockCuDevPtr, size_t);
  RockCuResult (*memsetD8)(RockCuDevPtr, unsigned char, size_t);
  RockCuResult (*launchKernel)(RockCuHandle, unsigned, unsigned, unsigned,
                               unsigned, unsigned, unsigned, unsigned,
                               RockCuHandle, void **, void **);
  RockCuResult (*eventCreate)(RockCuHandle *, unsigned);
  RockCuResult (*eventRecord)(RockCuHandle, RockCuHandle);
  RockCuResult (*eventSynchronize)(RockCuHandle);
  RockCuResult (*eventElapsedTime)(float *, RockCuHandle, RockCuHandle);
  RockCuResult (*eventDestroy)(RockCuHandle);
  RockCuResult (*getErrorName)(RockCuResult, const char **);
  /// cuTensorMapEncodeTiled (CUDA 12+); NULL when the driver lacks it, which
  /// only a bundle with tensor maps minds. Arguments: the map, data type,
  /// rank, base, dims, strides (bytes, rank - 1), box, element strides,
  /// interleave, swizzle, L2 promotion, out-of-bounds fill.
  RockCuResult (*tensorMapEncodeTiled)(void *, int, uint32_t, void *,
                                       const uint64_t *, const uint64_t *,
                                       const uint32_t *, const uint32_t *, int,
                                       int, int, int);
  /// cuLaunchKernelEx (CUDA 12+); NULL when the driver lacks it: a bundle's
  /// programmatic dependent launches then run as plain launches.
  RockCuResult (*launchKernelEx)(const RockCuLaunchConfig *, RockCuHandle,
                                 void **, void **);
  int device;
  RockCuHandle ctx;
} RockCuda;

/// Driver attribute numbers rock reads or sets.
enum {
  ROCK_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  ROCK_CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  ROCK_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  ROCK_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  ROCK_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  /// CUlaunchAttributeID: the launch may overlap the kernel before it in
  /// the stream, which resolves the dependency by griddepcontrol
  ROCK_CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
  ROCK_CU_JIT_INFO_LOG_BUFFER = 3,
  ROCK_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  ROCK_CU_JIT_ERROR_LOG_BUFFER = 5,
  ROCK_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  /// CUtensorMapDataType, CUtensorMapSwizzle, CUtensorMapL2promotion
  ROCK_CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6,
  ROCK_CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7,
  ROCK_CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9,
  ROCK_CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  ROCK_CU_TENSOR_MAP_SWIZZLE_32B = 1,
  ROCK_CU_TENSOR_MAP_SWIZZLE_64B = 2,
  ROCK_CU_TENSOR_MAP_SWIZZLE_128B = 3,
  ROCK_CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3,
  ROCK_CU_TENSOR_MAP_BYTES = 128, ///< sizeof(CUtensorMap), 64-byte aligned
};

/// Loads libcuda.so.1 (or `$ROCK_CUDA_LIBRARY` when set, for tests), looks
/// up the entry points, initialises the driver and makes device 0's primary
/// context current. Returns false with a one-line reason in `err` (errSize
/// bytes): no driver library, a missing entry point, or a driver error.
bool rockCudaOpen(RockCuda *cu, char *err, size_t errSize);

/// Releases what rockCudaOpen took (the library stays loaded).
void rockCudaClose(RockCuda *cu);

/// Writes "<what>: <CUDA error name>" into `err`; returns false.
bool rockCudaFail(const RockCuda *cu, RockCuResult r, const char *what,
                  char *err, size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
