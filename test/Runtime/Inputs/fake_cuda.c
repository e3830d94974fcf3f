/*===- fake_cuda.c - a CUDA driver stand-in for the runner's tests --------===*
 *
 * Loaded by rock-run-gpu through ROCK_CUDA_LIBRARY (runtime/cuda.c): every
 * entry point rock dlsym's, on host memory (a device pointer is a malloc'd
 * address), kernels that do nothing, and a log of the calls a test checks
 * (to the file $ROCK_FAKE_CUDA_LOG): allocations, the host-to-device
 * copies of tensor maps, launches with their first three parameters and
 * each cuTensorMapEncodeTiled with its arguments, the map filled with
 * its base address so that the copy that follows shows which one it is;
 * cuLaunchKernelEx logs its attributes (id and first int of the value)
 * before the launch line (it fails with $ROCK_FAKE_CUDA_EX_FAIL set, and
 * built with FAKE_CUDA_NO_EX, librock-fake-cuda-noex, it is absent).
 * The driver's ABI: results are int (0: success), handles pointers,
 * CUdeviceptr 64-bit.
 *
 *===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t DevPtr;

static FILE *logFile(void) {
  static FILE *f;
  if (!f) {
    const char *p = getenv("ROCK_FAKE_CUDA_LOG");
    f = p ? fopen(p, "w") : stderr;
    if (!f)
      f = stderr;
  }
  return f;
}

static int dummy;

int cuInit(unsigned flags) { return (int)flags; }
int cuDeviceGet(int *d, int i) { return *d = i, 0; }
int cuDeviceGetCount(int *n) { return *n = 1, 0; }
int cuDeviceGetName(char *s, int n, int d) {
  (void)d;
  snprintf(s, (size_t)n, "fake");
  return 0;
}
int cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  /* SMs 132, L2 1 MiB (few timing copies), compute capability 9.0 */
  *v = attr == 16 ? 132 : attr == 38 ? 1 << 20 : attr == 75 ? 9 : 0;
  return 0;
}
int cuDevicePrimaryCtxRetain(void **c, int d) {
  (void)d;
  return *c = &dummy, 0;
}
int cuCtxSetCurrent(void *c) { return c ? 0 : 1; }
int cuCtxSynchronize(void) { return 0; }
int cuModuleLoadDataEx(void **m, const void *img, unsigned n, int *o,
                       void **v) {
  (void)img, (void)n, (void)o, (void)v;
  return *m = &dummy, 0;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
  (void)m, (void)name;
  return *f = &dummy, 0;
}
int cuFuncSetAttribute(void *f, int a, int v) {
  return (void)f, (void)a, (void)v, 0;
}
int cuMemAlloc_v2(DevPtr *p, size_t n) {
  void *m = malloc(n);
  *p = (DevPtr)(uintptr_t)m;
  fprintf(logFile(), "alloc 0x%llx %zu\n", (unsigned long long)*p, n);
  return m ? 0 : 2;
}
int cuMemFree_v2(DevPtr p) {
  free((void *)(uintptr_t)p);
  return 0;
}
int cuMemGetInfo_v2(size_t *f, size_t *t) {
  *f = *t = (size_t)1 << 34;
  return 0;
}
int cuMemcpyHtoD_v2(DevPtr d, const void *s, size_t n) {
  memcpy((void *)(uintptr_t)d, s, n);
  if (n == 192) /* a tensor map buffer: the map, whose first word is its
                  base (below), then at byte 128 the pool address */
    fprintf(logFile(), "htod 0x%llx map of 0x%llx then 0x%llx\n",
            (unsigned long long)d, (unsigned long long)*(const uint64_t *)s,
            (unsigned long long)((const uint64_t *)s)[16]);
  return 0;
}
int cuMemcpyDtoH_v2(void *d, DevPtr s, size_t n) {
  memcpy(d, (const void *)(uintptr_t)s, n);
  return 0;
}
int cuMemcpyDtoD_v2(DevPtr d, DevPtr s, size_t n) {
  memcpy((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
  return 0;
}
int cuMemsetD8_v2(DevPtr d, unsigned char v, size_t n) {
  memset((void *)(uintptr_t)d, v, n);
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem, void *stream,
                   void **params, void **extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)smem, (void)stream, (void)extra;
  /* the first three parameters (8-byte slots; every kernel of the tests
   * has at least three) */
  fprintf(logFile(), "launch 0x%llx 0x%llx 0x%llx\n",
          *(unsigned long long *)params[0], *(unsigned long long *)params[1],
          *(unsigned long long *)params[2]);
  return 0;
}
#ifndef FAKE_CUDA_NO_EX
/* CUlaunchConfig and CUlaunchAttribute (cuda.h's layout) */
typedef struct Attr {
  int id;
  char pad[4];
  union {
    char raw[64];
    int i;
    uint64_t align;
  } value;
} Attr;
typedef struct Config {
  unsigned gx, gy, gz, bx, by, bz, smem;
  void *stream;
  Attr *attrs;
  unsigned numAttrs;
} Config;

int cuLaunchKernelEx(const Config *c, void *f, void **params, void **extra) {
  FILE *lf = logFile();
  fprintf(lf, "launchex grid %u %u %u block %u %u %u smem %u attrs %u", c->gx,
          c->gy, c->gz, c->bx, c->by, c->bz, c->smem, c->numAttrs);
  for (unsigned i = 0; i < c->numAttrs; ++i)
    fprintf(lf, " id %d value %d", c->attrs[i].id, c->attrs[i].value.i);
  fprintf(lf, "\n");
  if (getenv("ROCK_FAKE_CUDA_EX_FAIL"))
    return 801; /* CUDA_ERROR_NOT_SUPPORTED */
  return cuLaunchKernel(f, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->smem,
                        c->stream, params, extra);
}
#endif

int cuEventCreate(void **e, unsigned flags) {
  (void)flags;
  return *e = &dummy, 0;
}
int cuEventRecord(void *e, void *s) { return (void)e, (void)s, 0; }
int cuEventSynchronize(void *e) { return (void)e, 0; }
int cuEventElapsedTime(float *ms, void *a, void *b) {
  (void)a, (void)b;
  return *ms = 1.0f, 0;
}
int cuEventDestroy_v2(void *e) { return (void)e, 0; }
int cuGetErrorName(int r, const char **s) {
  *s = r ? "FAKE_ERROR" : "CUDA_SUCCESS";
  return 0;
}

int cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *base,
                           const uint64_t *dims, const uint64_t *strides,
                           const uint32_t *box, const uint32_t *estrides,
                           int interleave, int swizzle, int l2, int oob) {
  FILE *f = logFile();
  fprintf(f, "encode dtype %d rank %u base 0x%llx aligned %d dims", dtype, rank,
          (unsigned long long)(uintptr_t)base, (int)((uintptr_t)map % 64 == 0));
  for (uint32_t i = 0; i < rank; ++i)
    fprintf(f, " %llu", (unsigned long long)dims[i]);
  fprintf(f, " strides");
  for (uint32_t i = 0; i + 1 < rank; ++i)
    fprintf(f, " %llu", (unsigned long long)strides[i]);
  fprintf(f, " box");
  for (uint32_t i = 0; i < rank; ++i)
    fprintf(f, " %u", box[i]);
  fprintf(f, " estrides");
  for (uint32_t i = 0; i < rank; ++i)
    fprintf(f, " %u", estrides[i]);
  fprintf(f, " interleave %d swizzle %d l2 %d oob %d\n", interleave, swizzle,
          l2, oob);
  memset(map, 0, 128);
  uint64_t b = (uint64_t)(uintptr_t)base;
  memcpy(map, &b, sizeof b);
  return 0;
}
