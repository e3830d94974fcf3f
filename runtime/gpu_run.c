//===- gpu_run.c - run a kernel bundle on an NVIDIA GPU -------------------===//
#include "gpu_run.h"

#include "cuda.h"
#include "timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Signatures and the parameter mapping
//===----------------------------------------------------------------------===//

/// The session's arguments of bundle function `fn`.
static const RockSessionArg *sessionArgs(const RockSession *s,
                                         const RockBundleFunc *fn, int *n) {
  bool combine = !strcmp(fn->name, "rock_attention_combine");
  *n = combine ? 4 : s->numArgs;
  return combine ? s->combineArgs : s->args;
}

/// Checks `fn`'s host arguments against the session's; returns a status.
static int checkFunc(const RockSession *s, const RockBundleFunc *fn) {
  int n;
  const RockSessionArg *args = sessionArgs(s, fn, &n);
  if (fn->numArgs != n)
    return rockReportError(s->tool,
                           "@%s has %d arguments, the harness "
                           "expects %d",
                           fn->name, fn->numArgs, n);
  for (int i = 0; i < n; ++i) {
    const RockBuffer *buf = args[i].buf;
    if (fn->args[i].dtype != buf->dtype ||
        fn->args[i].numElements != buf->numElements)
      return rockReportError(
          s->tool,
          "@%s argument %d (%s) is memref<%lldx%s>, the harness expects "
          "memref<%lldx%s>",
          fn->name, i, args[i].role, (long long)fn->args[i].numElements,
          rockDTypeGetName(fn->args[i].dtype), (long long)buf->numElements,
          rockDTypeGetName(buf->dtype));
  }
  return ROCK_EXIT_PASS;
}

static int checkFuncs(const RockSession *s, const RockBundle *b) {
  for (int f = 0; f < b->numFuncs; ++f) {
    const RockBundleFunc *fn = &b->funcs[f];
    if (strcmp(fn->name, "rock_attention") &&
        strcmp(fn->name, "rock_attention_combine"))
      return rockReportError(s->tool,
                             "bundle function @%s is not a rock "
                             "entry point",
                             fn->name);
    if (!strcmp(fn->name, "rock_attention_combine") &&
        s->h->problem.splitKV < 2)
      continue; // never run: the problem has no splits
    int status = checkFunc(s, fn);
    if (status != ROCK_EXIT_PASS)
      return status;
  }
  return ROCK_EXIT_PASS;
}

/// `, tensor map of K (bf16 dims 128x500x2 box 64x128x1 swizzle 128)`.
static void printTensorMap(const char *sep, const RockBundleTensorMap *m,
                           const RockSessionArg *args, int n) {
  printf("%s tensor map of %s%s (%s dims", sep, m->pool ? "the pool of " : "",
         m->arg < n ? args[m->arg].role : "?", rockDTypeGetName(m->dtype));
  for (int d = 0; d < m->rank; ++d)
    printf("%s%lld", d ? "x" : " ", (long long)m->dims[d]);
  printf(" box");
  for (int d = 0; d < m->rank; ++d)
    printf("%s%lld", d ? "x" : " ", (long long)m->box[d]);
  printf(" swizzle %d)", m->swizzle);
}

int rockGpuCheckBundle(const char *tool, const RockBundle *b,
                       const RockRunOptions *o) {
  RockSession s;
  const bool hasCombine = rockBundleFindFunc(b, "rock_attention_combine");
  int status = rockSessionPrepare(&s, tool, &b->harness, hasCombine,
                                  rockSessionNeedsLogical(o, &b->harness));
  if (status == ROCK_EXIT_PASS)
    status = checkFuncs(&s, b);
  for (int f = 0; status == ROCK_EXIT_PASS && f < b->numFuncs; ++f) {
    const RockBundleFunc *fn = &b->funcs[f];
    int n;
    const RockSessionArg *args = sessionArgs(&s, fn, &n);
    for (int l = 0; l < fn->numLaunches; ++l) {
      const RockBundleLaunch *la = &fn->launches[l];
      printf("%s launch %d: %s (%s %s) grid %lld %lld %lld block %lld %lld "
             "%lld smem %lld%s:",
             fn->name, l, la->kernel, b->objects[la->object].name,
             b->objects[la->object].format == ROCK_OBJECT_CUBIN ? "cubin"
                                                                : "ptx",
             (long long)la->grid[0], (long long)la->grid[1],
             (long long)la->grid[2], (long long)la->block[0],
             (long long)la->block[1], (long long)la->block[2],
             (long long)la->smem, la->pdl ? ", programmatic dependent" : "");
      for (int p = 0; p < la->numParams; ++p) {
        const RockBundleParam *pa = &la->params[p];
        const char *sep = p ? "," : "";
        if (pa->kind == ROCK_PARAM_ARG)
          printf("%s %s", sep, pa->value < n ? args[pa->value].role : "?");
        else if (pa->kind == ROCK_PARAM_SCRATCH)
          printf("%s scratch %lld (%lld bytes%s)", sep, (long long)pa->value,
                 (long long)fn->scratchBytes[pa->value],
                 fn->scratchZero[pa->value] ? ", zeroed" : "");
        else if (pa->kind == ROCK_PARAM_TMAP)
          printTensorMap(sep, &fn->tensorMaps[pa->value], args, n);
        else
          printf("%s %s %lld", sep,
                 pa->kind == ROCK_PARAM_I64   ? "i64"
                 : pa->kind == ROCK_PARAM_I32 ? "i32"
                                              : "f32 bits",
                 (long long)pa->value);
      }
      printf("\n");
    }
  }
  if (status == ROCK_EXIT_PASS && (o->printInputs || b->harness.printInputs))
    rockSessionPrintInputs(&s);
  fflush(stdout);
  rockSessionDestroy(&s);
  return status;
}

//===----------------------------------------------------------------------===//
// Device state
//===----------------------------------------------------------------------===//

/// A device copy of one host buffer.
typedef struct DevBuf {
  const RockBuffer *host;
  RockCuDevPtr dev;
} DevBuf;

enum { kMaxDevBufs = 32, kMaxCopies = 256 };

/// A tensor map encoded for one device address of its argument.
typedef struct DevMap {
  int func, map;
  RockCuDevPtr arg, dev;
} DevMap;

enum { kMaxDevMaps = (kMaxCopies + 1) * ROCK_BUNDLE_MAX_TMAPS };
/// A tensor map's device buffer: the map, then (pool maps) the pool address.
enum { kMapBufBytes = ROCK_CU_TENSOR_MAP_BYTES + 64 };

typedef struct Gpu {
  const char *tool;
  RockCuda cu;
  const RockBundle *b;
  RockSession *s;
  RockCuHandle modules[ROCK_BUNDLE_MAX_OBJECTS];
  RockCuHandle funcs[ROCK_BUNDLE_MAX_FUNCS][ROCK_BUNDLE_MAX_LAUNCHES];
  RockCuDevPtr scratch[ROCK_BUNDLE_MAX_FUNCS][ROCK_BUNDLE_MAX_SCRATCH];
  DevBuf bufs[kMaxDevBufs];
  int numBufs;
  DevMap maps[kMaxDevMaps];
  int numMaps;
  /// every device page table uploaded, with the device pool it points into
  /// (pool tensor maps: RockBundleTensorMap.pool)
  RockCuDevPtr tables[kMaxDevMaps], tablePools[kMaxDevMaps];
  int numTables;
  char deviceName[128];
  int cc, sms, l2Bytes;
  /// programmatic dependent launches run as plain ones (no cuLaunchKernelEx,
  /// or it failed once; said once on stderr)
  bool pdlOff;
  double loadMs, copyMs;
} Gpu;

#define CU(call, what)                                                         \
  do {                                                                         \
    RockCuResult r_ = (call);                                                  \
    if (r_ != 0)                                                               \
      return rockCudaFail(&g->cu, r_, what, err, errSize);                     \
  } while (0)

static bool isResult(const Gpu *g, const RockBuffer *hb) {
  const RockSession *s = g->s;
  return hb == s->outPartial || hb == s->lsePartial || hb == s->out ||
         hb == s->lse;
}

/// The paged cache whose table is `hb`, or NULL.
static const RockPagedCache *tableOf(const Gpu *g, const RockBuffer *hb) {
  const RockSession *s = g->s;
  if (s->kCache && hb == s->kCache->table)
    return s->kCache;
  if (s->vCache && hb == s->vCache->table)
    return s->vCache;
  return NULL;
}

/// Uploads page table `c->table` rewritten to point into device pool `pool`.
static bool uploadTable(Gpu *g, const RockPagedCache *c, RockCuDevPtr pool,
                        RockCuDevPtr table, char *err, size_t errSize) {
  int64_t *dev = malloc((size_t)c->numSlots * sizeof(int64_t));
  if (!dev) {
    snprintf(err, errSize, "out of memory");
    return false;
  }
  rockPageTableRebase(c, pool, dev);
  if (g->numTables < kMaxDevMaps) {
    g->tables[g->numTables] = table;
    g->tablePools[g->numTables++] = pool;
  }
  RockCuResult r =
      g->cu.memcpyHtoD(table, dev, (size_t)c->numSlots * sizeof(int64_t));
  free(dev);
  if (r != 0)
    return rockCudaFail(&g->cu, r, "copying a page table to the device", err,
                        errSize);
  return true;
}

/// The device copy of `hb`, allocated and uploaded on first use (results:
/// uploaded every time, so elements the kernel skips stay NaN).
static bool devOf(Gpu *g, const RockBuffer *hb, RockCuDevPtr *out, char *err,
                  size_t errSize) {
  for (int i = 0; i < g->numBufs; ++i)
    if (g->bufs[i].host == hb) {
      *out = g->bufs[i].dev;
      if (isResult(g, hb))
        CU(g->cu.memcpyHtoD(*out, hb->data, rockBufferGetBytes(hb)),
           "copying an output to the device");
      return true;
    }
  if (g->numBufs >= kMaxDevBufs) {
    snprintf(err, errSize, "too many device buffers");
    return false;
  }
  size_t bytes = rockBufferGetBytes(hb);
  CU(g->cu.memAlloc(out, bytes ? bytes : 1), "cuMemAlloc");
  g->bufs[g->numBufs].host = hb;
  g->bufs[g->numBufs++].dev = *out;
  const RockPagedCache *c = tableOf(g, hb);
  if (!c) {
    CU(g->cu.memcpyHtoD(*out, hb->data, bytes), "copying to the device");
    return true;
  }
  RockCuDevPtr pool;
  return devOf(g, c->pool, &pool, err, errSize) &&
         uploadTable(g, c, pool, *out, err, errSize);
}

static int funcIndex(const RockBundle *b, const char *name) {
  for (int f = 0; f < b->numFuncs; ++f)
    if (!strcmp(b->funcs[f].name, name))
      return f;
  return -1;
}

/// CUtensorMapDataType of `t`, or -1.
static int tmapType(RockDType t) {
  switch (t) {
  case ROCK_DTYPE_F16:
    return ROCK_CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ROCK_DTYPE_BF16:
    return ROCK_CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ROCK_DTYPE_F32:
    return ROCK_CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  default:
    return -1;
  }
}

/// The device pool that device page table `table` points into, or 0.
static RockCuDevPtr poolOf(const Gpu *g, RockCuDevPtr table) {
  for (int i = 0; i < g->numTables; ++i)
    if (g->tables[i] == table)
      return g->tablePools[i];
  return 0;
}

/// Encodes tensor map `m` over the device argument at `arg` into `dev`
/// (kMapBufBytes): cuTensorMapEncodeTiled, tiled, no interleave, zeros out
/// of bounds, L2 promotion of 256 bytes. A pool map (m->pool: `arg` is a
/// page table) runs over that table's device pool, whose address follows
/// the map at byte 128.
static bool encodeMap(Gpu *g, const RockBundleTensorMap *m, RockCuDevPtr arg,
                      RockCuDevPtr dev, char *err, size_t errSize) {
  if (m->pool && !(arg = poolOf(g, arg))) {
    snprintf(err, errSize, "a pool tensor map's page table has no device pool");
    return false;
  }
  if (!g->cu.tensorMapEncodeTiled) {
    snprintf(err, errSize,
             "the bundle has tensor maps and the CUDA driver "
             "has no cuTensorMapEncodeTiled (CUDA 12 or later)");
    return false;
  }
  _Alignas(64) unsigned char map[kMapBufBytes] = {0};
  uint64_t dims[ROCK_BUNDLE_TMAP_MAX_RANK], strides[ROCK_BUNDLE_TMAP_MAX_RANK];
  uint32_t box[ROCK_BUNDLE_TMAP_MAX_RANK], ones[ROCK_BUNDLE_TMAP_MAX_RANK];
  for (int d = 0; d < m->rank; ++d) {
    dims[d] = (uint64_t)m->dims[d];
    strides[d] = d + 1 < m->rank ? (uint64_t)m->strides[d] : 0;
    box[d] = (uint32_t)m->box[d];
    ones[d] = 1;
  }
  int swz = m->swizzle == 128  ? ROCK_CU_TENSOR_MAP_SWIZZLE_128B
            : m->swizzle == 64 ? ROCK_CU_TENSOR_MAP_SWIZZLE_64B
            : m->swizzle == 32 ? ROCK_CU_TENSOR_MAP_SWIZZLE_32B
                               : ROCK_CU_TENSOR_MAP_SWIZZLE_NONE;
  void *base = (void *)(uintptr_t)(arg + (uint64_t)m->offset *
                                             rockDTypeGetSize(m->dtype));
  CU(g->cu.tensorMapEncodeTiled(map, tmapType(m->dtype), (uint32_t)m->rank,
                                base, dims, strides, box, ones, 0, swz,
                                ROCK_CU_TENSOR_MAP_L2_PROMOTION_L2_256B, 0),
     "cuTensorMapEncodeTiled");
  uint64_t pool = arg; /* (read by pool maps' kernels only) */
  memcpy(map + ROCK_CU_TENSOR_MAP_BYTES, &pool, sizeof pool);
  CU(g->cu.memcpyHtoD(dev, map, sizeof map), "copying a tensor map");
  return true;
}

/// The device copy of tensor map `mi` of function `fi` for argument
/// address `arg`, encoded on first use (gpuTime encodes every input copy's
/// before it starts timing).
static bool devMap(Gpu *g, int fi, int mi, RockCuDevPtr arg, RockCuDevPtr *out,
                   char *err, size_t errSize) {
  for (int i = 0; i < g->numMaps; ++i)
    if (g->maps[i].func == fi && g->maps[i].map == mi &&
        g->maps[i].arg == arg) {
      *out = g->maps[i].dev;
      return true;
    }
  if (g->numMaps >= kMaxDevMaps) {
    snprintf(err, errSize, "too many tensor maps");
    return false;
  }
  CU(g->cu.memAlloc(out, kMapBufBytes), "cuMemAlloc (tensor map)");
  g->maps[g->numMaps++] = (DevMap){fi, mi, arg, *out};
  return encodeMap(g, &g->b->funcs[fi].tensorMaps[mi], arg, *out, err, errSize);
}

/// Every tensor map of function `fi` for argument pointers `argDev`.
static bool devMaps(Gpu *g, int fi, const RockCuDevPtr *argDev, char *err,
                    size_t errSize) {
  const RockBundleFunc *fn = &g->b->funcs[fi];
  RockCuDevPtr p;
  for (int m = 0; m < fn->numTensorMaps; ++m)
    if (!devMap(g, fi, m, argDev[fn->tensorMaps[m].arg], &p, err, errSize))
      return false;
  return true;
}

/// Launches kernel `f` of launch `la` with `params`: a programmatic
/// dependent launch (la->pdl) by cuLaunchKernelEx with programmatic stream
/// serialization, falling back to cuLaunchKernel (said once) when the driver
/// has no cuLaunchKernelEx or refuses the attribute; its kernel's
/// griddepcontrol.wait is then a no-op, so the result is the same.
static bool launchOne(Gpu *g, RockCuHandle f, const RockBundleLaunch *la,
                      void **params, char *err, size_t errSize) {
  RockCuLaunchConfig c = {.gridX = (unsigned)la->grid[0],
                          .gridY = (unsigned)la->grid[1],
                          .gridZ = (unsigned)la->grid[2],
                          .blockX = (unsigned)la->block[0],
                          .blockY = (unsigned)la->block[1],
                          .blockZ = (unsigned)la->block[2],
                          .smem = (unsigned)la->smem};
  if (la->pdl && !g->pdlOff && !g->cu.launchKernelEx) {
    fprintf(stderr,
            "%s: note: the CUDA driver has no cuLaunchKernelEx; programmatic "
            "dependent launches run as plain launches\n",
            g->tool);
    g->pdlOff = true;
  }
  if (la->pdl && !g->pdlOff) {
    RockCuLaunchAttr attr;
    memset(&attr, 0, sizeof attr);
    attr.id = ROCK_CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.i = 1;
    c.attrs = &attr;
    c.numAttrs = 1;
    RockCuResult r = g->cu.launchKernelEx(&c, f, params, NULL);
    if (r == 0)
      return true;
    const char *name = NULL;
    if (!g->cu.getErrorName || g->cu.getErrorName(r, &name) != 0 || !name)
      name = "unknown CUDA error";
    fprintf(stderr,
            "%s: note: cuLaunchKernelEx with programmatic stream "
            "serialization failed (%s); programmatic dependent launches run "
            "as plain launches\n",
            g->tool, name);
    g->pdlOff = true;
  }
  CU(g->cu.launchKernel(f, c.gridX, c.gridY, c.gridZ, c.blockX, c.blockY,
                        c.blockZ, c.smem, NULL, params, NULL),
     la->kernel);
  return true;
}

/// Launches function `fi`'s kernels with argument pointers `argDev`.
static bool launchAll(Gpu *g, int fi, const RockCuDevPtr *argDev, char *err,
                      size_t errSize) {
  const RockBundleFunc *fn = &g->b->funcs[fi];
  for (int l = 0; l < fn->numLaunches; ++l) {
    const RockBundleLaunch *la = &fn->launches[l];
    uint64_t slots[ROCK_BUNDLE_MAX_PARAMS];
    void *params[ROCK_BUNDLE_MAX_PARAMS];
    for (int p = 0; p < la->numParams; ++p) {
      const RockBundleParam *pa = &la->params[p];
      uint64_t v = (uint64_t)pa->value;
      if (pa->kind == ROCK_PARAM_ARG)
        v = argDev[pa->value];
      else if (pa->kind == ROCK_PARAM_SCRATCH)
        v = g->scratch[fi][pa->value];
      else if (pa->kind == ROCK_PARAM_TMAP &&
               !devMap(g, fi, (int)pa->value,
                       argDev[fn->tensorMaps[pa->value].arg], &v, err, errSize))
        return false;
      slots[p] = v; // i32 / f32 use the low 4 bytes (little-endian)
      params[p] = &slots[p];
    }
    if (!launchOne(g, g->funcs[fi][l], la, params, err, errSize))
      return false;
  }
  return true;
}

static bool gpuInvoke(void *user, const char *name, RockBuffer *const *args,
                      int n, char *err, size_t errSize) {
  Gpu *g = user;
  int fi = funcIndex(g->b, name);
  if (fi < 0) {
    snprintf(err, errSize, "the bundle has no %s", name);
    return false;
  }
  double start = rockTimerNowMs();
  RockCuDevPtr argDev[ROCK_BUNDLE_MAX_ARGS];
  for (int i = 0; i < n; ++i)
    if (!devOf(g, args[i], &argDev[i], err, errSize))
      return false;
  if (!launchAll(g, fi, argDev, err, errSize))
    return false;
  CU(g->cu.ctxSynchronize(), name);
  for (int i = 0; i < n; ++i)
    if (isResult(g, args[i]))
      CU(g->cu.memcpyDtoH(args[i]->data, argDev[i],
                          rockBufferGetBytes(args[i])),
         "copying a result from the device");
  g->copyMs += rockTimerNowMs() - start;
  return true;
}

static void gpuPhases(void *user, const RockSession *s) {
  Gpu *g = user;
  printf("phases: module load %.1f ms, copies and runs %.1f ms, inputs %.1f "
         "ms, reference %.1f ms\n",
         g->loadMs, g->copyMs, s->fillMs, s->referenceMs);
  printf("device: %s, sm_%d, %d SMs, L2 %d MiB\n", g->deviceName, g->cc, g->sms,
         g->l2Bytes >> 20);
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Device copies of the kernel's inputs, one set per copy.
typedef struct Rotation {
  int numCopies;
  RockCuDevPtr args[kMaxCopies][ROCK_BUNDLE_MAX_ARGS];
  RockCuDevPtr owned[kMaxCopies * (ROCK_BUNDLE_MAX_ARGS + 2)];
  int numOwned;
  double copyBytes;
} Rotation;

static void freeRotation(Gpu *g, Rotation *rot) {
  for (int i = 0; i < rot->numOwned; ++i)
    g->cu.memFree(rot->owned[i]);
  rot->numOwned = 0;
}

static bool newCopy(Gpu *g, Rotation *rot, RockCuDevPtr src, size_t bytes,
                    RockCuDevPtr *out, char *err, size_t errSize) {
  CU(g->cu.memAlloc(out, bytes ? bytes : 1), "cuMemAlloc (timing copies)");
  rot->owned[rot->numOwned++] = *out;
  CU(g->cu.memcpyDtoD(*out, src, bytes), "cuMemcpyDtoD");
  return true;
}

/// Builds copy `r` of the kernel's inputs (results stay shared).
static bool buildCopy(Gpu *g, Rotation *rot, int r, const RockSessionArg *args,
                      int n, char *err, size_t errSize) {
  for (int i = 0; i < n; ++i) {
    const RockBuffer *hb = args[i].buf;
    RockCuDevPtr base = rot->args[0][i];
    if (r == 0 || isResult(g, hb)) {
      rot->args[r][i] = base;
      continue;
    }
    const RockPagedCache *c = tableOf(g, hb);
    if (!c) {
      if (!newCopy(g, rot, base, rockBufferGetBytes(hb), &rot->args[r][i], err,
                   errSize))
        return false;
      continue;
    }
    RockCuDevPtr pool0, pool, table;
    if (!devOf(g, c->pool, &pool0, err, errSize) ||
        !newCopy(g, rot, pool0, rockBufferGetBytes(c->pool), &pool, err,
                 errSize))
      return false;
    CU(g->cu.memAlloc(&table, rockBufferGetBytes(hb)), "cuMemAlloc");
    rot->owned[rot->numOwned++] = table;
    if (!uploadTable(g, c, pool, table, err, errSize))
      return false;
    rot->args[r][i] = table;
  }
  return true;
}

/// Bytes one run reads from its inputs (paged: the pools, not the tables).
static double inputBytes(const Gpu *g, const RockSessionArg *args, int n) {
  double bytes = 0;
  for (int i = 0; i < n; ++i) {
    const RockPagedCache *c = tableOf(g, args[i].buf);
    if (!isResult(g, args[i].buf))
      bytes += (double)rockBufferGetBytes(c ? c->pool : args[i].buf);
  }
  return bytes;
}

/// One attention: the kernel launches and the combine's, on copy `r`.
static bool launchSequence(Gpu *g, const Rotation *rot, int r,
                           const RockCuDevPtr *combineDev, char *err,
                           size_t errSize) {
  if (!launchAll(g, funcIndex(g->b, "rock_attention"), rot->args[r], err,
                 errSize))
    return false;
  int ci = funcIndex(g->b, "rock_attention_combine");
  if (ci >= 0 && g->s->h->problem.splitKV > 1)
    return launchAll(g, ci, combineDev, err, errSize);
  return true;
}

static bool timeGroups(Gpu *g, Rotation *rot, const RockCuDevPtr *combineDev,
                       double *medianMs, double *minMs, char *err,
                       size_t errSize) {
  enum { kWarmup = 3, kGroups = 15 };
  int perGroup = rot->numCopies < 8 ? 8 : rot->numCopies;
  for (int w = 0; w < kWarmup; ++w)
    if (!launchSequence(g, rot, w % rot->numCopies, combineDev, err, errSize))
      return false;
  CU(g->cu.ctxSynchronize(), "warm-up");
  RockCuHandle start, stop;
  CU(g->cu.eventCreate(&start, 0), "cuEventCreate");
  CU(g->cu.eventCreate(&stop, 0), "cuEventCreate");
  double times[kGroups];
  int next = 0;
  for (int k = 0; k < kGroups; ++k) {
    CU(g->cu.eventRecord(start, NULL), "cuEventRecord");
    for (int i = 0; i < perGroup; ++i, next = (next + 1) % rot->numCopies)
      if (!launchSequence(g, rot, next, combineDev, err, errSize))
        return false;
    CU(g->cu.eventRecord(stop, NULL), "cuEventRecord");
    CU(g->cu.eventSynchronize(stop), "timed launches");
    float ms = 0;
    CU(g->cu.eventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    times[k] = ms / perGroup;
  }
  g->cu.eventDestroy(start);
  g->cu.eventDestroy(stop);
  *minMs = times[0];
  for (int k = 1; k < kGroups; ++k)
    *minMs = times[k] < *minMs ? times[k] : *minMs;
  *medianMs = rockTimerMedian(times, kGroups);
  printf("gpu timing: median and best of %d groups of %d back-to-back runs "
         "after %d warm-up runs, %d rotating input copies of %.1f MiB (L2 %d "
         "MiB); median %.2f us\n",
         kGroups, perGroup, kWarmup, rot->numCopies, rot->copyBytes / 1048576,
         g->l2Bytes >> 20, *medianMs * 1e3);
  return true;
}

static bool gpuTime(void *user, const RockSession *s, double *medianMs,
                    double *minMs, char *err, size_t errSize) {
  Gpu *g = user;
  Rotation *rot = calloc(1, sizeof *rot);
  if (!rot) {
    snprintf(err, errSize, "out of memory");
    return false;
  }
  bool ok = true;
  for (int i = 0; ok && i < s->numArgs; ++i)
    ok = devOf(g, s->args[i].buf, &rot->args[0][i], err, errSize);
  RockCuDevPtr combineDev[4];
  for (int i = 0; ok && i < 4 && s->combineArgs[0].buf; ++i)
    ok = devOf(g, s->combineArgs[i].buf, &combineDev[i], err, errSize);
  rot->copyBytes = inputBytes(g, s->args, s->numArgs);
  double want = 4.0 * g->l2Bytes;
  int copies = (int)ceil(want / (rot->copyBytes > 1 ? rot->copyBytes : 1));
  size_t freeBytes = 0, total = 0;
  if (ok && g->cu.memGetInfo(&freeBytes, &total) == 0 &&
      rot->copyBytes * copies > 0.5 * (double)freeBytes)
    copies = (int)(0.5 * (double)freeBytes / rot->copyBytes);
  copies = copies < 1 ? 1 : copies > kMaxCopies ? kMaxCopies : copies;
  rot->numCopies = copies;
  for (int r = 1; ok && r < copies; ++r)
    ok = buildCopy(g, rot, r, s->args, s->numArgs, err, errSize);
  for (int r = 0; ok && r < copies; ++r)
    ok = devMaps(g, funcIndex(g->b, "rock_attention"), rot->args[r], err,
                 errSize);
  ok = ok && timeGroups(g, rot, combineDev, medianMs, minMs, err, errSize);
  freeRotation(g, rot);
  free(rot);
  return ok;
}

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

static bool loadObjects(Gpu *g, char *err, size_t errSize) {
  double start = rockTimerNowMs();
  const RockBundle *b = g->b;
  for (int i = 0; i < b->numObjects; ++i) {
    char log[4096] = "";
    int opts[2] = {ROCK_CU_JIT_ERROR_LOG_BUFFER,
                   ROCK_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
    RockCuResult r = g->cu.moduleLoadDataEx(&g->modules[i], b->objects[i].data,
                                            2, opts, vals);
    if (r != 0) {
      char what[4096 + 256];
      for (char *c = log; *c; ++c)
        if (*c == '\n')
          *c = ' ';
      snprintf(what, sizeof what, "cannot load %s %s%s%s",
               b->objects[i].format == ROCK_OBJECT_CUBIN ? "cubin" : "PTX",
               b->objects[i].name, *log ? ": " : "", log);
      return rockCudaFail(&g->cu, r, what, err, errSize);
    }
  }
  for (int f = 0; f < b->numFuncs; ++f) {
    const RockBundleFunc *fn = &b->funcs[f];
    for (int l = 0; l < fn->numLaunches; ++l) {
      const RockBundleLaunch *la = &fn->launches[l];
      CU(g->cu.moduleGetFunction(&g->funcs[f][l], g->modules[la->object],
                                 la->kernel),
         la->kernel);
      if (la->smem > 48 * 1024)
        CU(g->cu.funcSetAttribute(
               g->funcs[f][l],
               ROCK_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
               (int)la->smem),
           "cuFuncSetAttribute (dynamic shared memory)");
    }
    for (int s = 0; s < fn->numScratch; ++s) {
      size_t bytes = (size_t)fn->scratchBytes[s];
      CU(g->cu.memAlloc(&g->scratch[f][s], bytes ? bytes : 1),
         "cuMemAlloc (scratch)");
      /* 0xff (NaN) shows a read of scratch nobody wrote; rock.zero_init
       * scratch (arrival counters) starts at zero, and the kernels put it
       * back. */
      CU(g->cu.memsetD8(g->scratch[f][s], fn->scratchZero[s] ? 0 : 0xff, bytes),
         "cuMemsetD8");
    }
  }
  g->loadMs = rockTimerNowMs() - start;
  return true;
}

/// Opens the driver, checks the device against the bundle's arch.
static bool openDevice(Gpu *g, char *err, size_t errSize) {
  if (!rockCudaOpen(&g->cu, err, errSize))
    return false;
  int major = 0, minor = 0;
  CU(g->cu.deviceGetAttribute(&major,
                              ROCK_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                              g->cu.device),
     "cuDeviceGetAttribute");
  CU(g->cu.deviceGetAttribute(&minor,
                              ROCK_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                              g->cu.device),
     "cuDeviceGetAttribute");
  CU(g->cu.deviceGetAttribute(
         &g->sms, ROCK_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->cu.device),
     "cuDeviceGetAttribute");
  CU(g->cu.deviceGetAttribute(
         &g->l2Bytes, ROCK_CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, g->cu.device),
     "cuDeviceGetAttribute");
  CU(g->cu.deviceGetName(g->deviceName, sizeof g->deviceName, g->cu.device),
     "cuDeviceGetName");
  g->cc = major * 10 + minor;
  int want = atoi(g->b->arch + 3);
  if (g->cc < want) {
    snprintf(err, errSize, "the bundle is for %s, the GPU (%s) is sm_%d",
             g->b->arch, g->deviceName, g->cc);
    return false;
  }
  return true;
}

static void closeDevice(Gpu *g) {
  if (!g->cu.lib || !g->cu.ctx)
    return;
  g->cu.ctxSynchronize();
  for (int i = 0; i < g->numBufs; ++i)
    g->cu.memFree(g->bufs[i].dev);
  for (int i = 0; i < g->numMaps; ++i)
    g->cu.memFree(g->maps[i].dev);
  for (int f = 0; f < ROCK_BUNDLE_MAX_FUNCS; ++f)
    for (int s = 0; s < ROCK_BUNDLE_MAX_SCRATCH; ++s)
      if (g->scratch[f][s])
        g->cu.memFree(g->scratch[f][s]);
  rockCudaClose(&g->cu);
}

int rockGpuRunBundle(const char *tool, const RockBundle *b,
                     const RockRunOptions *o, double compileMs) {
  Gpu *g = calloc(1, sizeof *g);
  RockSession s;
  memset(&s, 0, sizeof s);
  char err[8192] = "";
  int status = ROCK_EXIT_PASS;
  if (!g) {
    status = rockReportError(tool, "out of memory");
    goto done;
  }
  g->tool = tool;
  g->b = b;
  g->s = &s;
  if (!openDevice(g, err, sizeof err)) {
    status = rockReportError(tool, "%s", err);
    goto done;
  }
  status = rockSessionPrepare(&s, tool, &b->harness,
                              rockBundleFindFunc(b, "rock_attention_combine"),
                              rockSessionNeedsLogical(o, &b->harness));
  if (status == ROCK_EXIT_PASS)
    status = checkFuncs(&s, b);
  if (status != ROCK_EXIT_PASS)
    goto done;
  if (!loadObjects(g, err, sizeof err)) {
    status = rockReportError(tool, "%s", err);
    goto done;
  }
  RockSessionBackend be = {g, gpuInvoke, gpuPhases, gpuTime};
  status = rockSessionRun(&s, o, &be, compileMs);
done:
  if (g)
    closeDevice(g);
  free(g);
  rockSessionDestroy(&s);
  return status;
}
