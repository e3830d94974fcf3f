//===- bundle.h - GPU kernel bundles: compiled here, run elsewhere -*- C
//-*-===//
//
// A bundle is what `rock-run --compile-only -o FILE` writes for a GPU module
// and what rock-run-gpu runs on a machine without MLIR: the kernel objects
// (PTX or cubin), for each host function (@rock_attention and, with split-KV,
// @rock_attention_combine) its host arguments, its device scratch buffers and
// its launches in order (kernel, grid, block, dynamic shared memory, and each
// kernel parameter: a host argument, a scratch buffer or an immediate), and
// the harness the runner generates and verifies the inputs from.
//
// Format, version 1 (docs/gpu-runner.md): text lines, each a keyword and
// space-separated fields, except that an `object` line is followed by exactly
// `size` raw bytes and a newline.
//
//   rock-gpu-bundle 1
//   arch sm_90
//   compile_ms 812.5
//   harness <key> <value...>        one per RockHarness field, rock.harness
//   keys object <index> <name> ptx|cubin <size> <size bytes> function <name>
//   <numArgs> arg <index> <dtype> <numElements>    host argument types, in
//   order scratch <bytes> [zero]               memref.alloc buffers, in order
//   (zero: rock.zero_init, starts zeroed; else filled with 0xff)
//   tensor_map <i> arg|pool <a> <dtype> offset <elements> rank <r> dims <r
//   values> strides <r - 1 values, bytes> box <r values> swizzle <0|32|64|128>
//   launch <object> <kernel> grid X Y Z block X Y Z smem N [pdl]
//   (pdl: a programmatic dependent launch, cuLaunchKernelEx with
//   programmatic stream serialization; gpu.launch_func marked rock.pdl)
//   param arg <i> | param scratch <i> | param tmap <i> | param i64 <v> |
//   param i32 <v> | param f32 <bits>     kernel parameters, in PTX order
//   end
//
// Memref parameters are bare device pointers (static shapes); `index` is i64.
// No MLIR: the reader and the writer are plain C.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_BUNDLE_H
#define ROCK_RUNTIME_BUNDLE_H

#include "buffer.h"
#include "harness_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ROCK_BUNDLE_VERSION 1
#define ROCK_BUNDLE_MAX_PARAMS 64
#define ROCK_BUNDLE_MAX_LAUNCHES 8
#define ROCK_BUNDLE_MAX_SCRATCH 16
#define ROCK_BUNDLE_MAX_ARGS 16
#define ROCK_BUNDLE_MAX_FUNCS 2
#define ROCK_BUNDLE_MAX_OBJECTS 8
#define ROCK_BUNDLE_NAME_SIZE 128
#define ROCK_BUNDLE_MAX_TMAPS 4
#define ROCK_BUNDLE_TMAP_MAX_RANK 5

typedef enum RockParamKind {
  ROCK_PARAM_ARG,     ///< value: host argument index
  ROCK_PARAM_SCRATCH, ///< value: scratch buffer index
  ROCK_PARAM_I64,     ///< value: the immediate
  ROCK_PARAM_I32,     ///< value: the immediate
  ROCK_PARAM_F32,     ///< value: the IEEE bits
  ROCK_PARAM_TMAP,    ///< value: tensor map index (a pointer to its 128 B)
} RockParamKind;

typedef struct RockBundleParam {
  RockParamKind kind;
  int64_t value;
} RockBundleParam;

typedef struct RockBundleLaunch {
  int object; ///< index into RockBundle.objects
  char kernel[ROCK_BUNDLE_NAME_SIZE];
  int64_t grid[3], block[3], smem;
  /// a programmatic dependent launch (the bundle's `pdl`): its kernel waits
  /// on griddepcontrol, so it may start while the launch before it runs
  bool pdl;
  int numParams;
  RockBundleParam params[ROCK_BUNDLE_MAX_PARAMS];
} RockBundleLaunch;

typedef struct RockBundleArg {
  RockDType dtype;
  int64_t numElements;
} RockBundleArg;

/// A TMA tensor map (CUtensorMap) over host argument `arg`, which the
/// runner encodes with cuTensorMapEncodeTiled for each device copy of the
/// argument and passes to the kernel as a pointer to a 128-byte device
/// buffer holding it. Dims innermost first; strides in bytes, of dims 1..;
/// the base is the argument's address plus `offset` elements.
/// A pool map (`pool`: bundle keyword `pool` for `arg`) runs over the page
/// pool of page table `arg` instead: its base is the device pool (plus
/// `offset`), it must lie inside the pool (table entries x the harness's
/// page_size elements), and the device buffer holds the pool's address as
/// an i64 at byte 128, after the map (the kernel turns page addresses into
/// pool rows with it).
typedef struct RockBundleTensorMap {
  int arg;
  bool pool;
  RockDType dtype;
  int64_t offset;
  int rank;
  int64_t dims[ROCK_BUNDLE_TMAP_MAX_RANK];
  int64_t strides[ROCK_BUNDLE_TMAP_MAX_RANK - 1];
  int64_t box[ROCK_BUNDLE_TMAP_MAX_RANK];
  int swizzle; ///< bytes: 0 (none), 32, 64 or 128
} RockBundleTensorMap;

typedef struct RockBundleFunc {
  char name[ROCK_BUNDLE_NAME_SIZE];
  int numArgs;
  RockBundleArg args[ROCK_BUNDLE_MAX_ARGS];
  int numScratch;
  int64_t scratchBytes[ROCK_BUNDLE_MAX_SCRATCH];
  /// true: the buffer starts zeroed once, when it is allocated (memref.alloc
  /// marked rock.zero_init: counters the kernels put back to zero); false:
  /// filled with 0xff, so that a read of unwritten scratch shows
  bool scratchZero[ROCK_BUNDLE_MAX_SCRATCH];
  int numTensorMaps;
  RockBundleTensorMap tensorMaps[ROCK_BUNDLE_MAX_TMAPS];
  int numLaunches;
  RockBundleLaunch launches[ROCK_BUNDLE_MAX_LAUNCHES];
} RockBundleFunc;

enum { ROCK_OBJECT_PTX = 2, ROCK_OBJECT_CUBIN = 3 }; ///< gpu.object formats

typedef struct RockBundleObject {
  char name[ROCK_BUNDLE_NAME_SIZE]; ///< the gpu.binary's symbol
  int format;                       ///< ROCK_OBJECT_PTX or ROCK_OBJECT_CUBIN
  size_t size;
  char *data; ///< owned; NUL-terminated (for PTX) after `size` bytes
} RockBundleObject;

/// A whole bundle. Large (use the heap); free with rockBundleDestroy.
typedef struct RockBundle {
  char arch[32];
  double compileMs; ///< module read to objects ready, in the compiler
  RockHarness harness;
  int numFuncs;
  RockBundleFunc funcs[ROCK_BUNDLE_MAX_FUNCS];
  int numObjects;
  RockBundleObject objects[ROCK_BUNDLE_MAX_OBJECTS];
} RockBundle;

/// Writes `b` (borrowed) to `f` in the format above. Returns false on an
/// I/O error.
bool rockBundleWrite(FILE *f, const RockBundle *b);

/// Reads the bundle in `path` into `b` (caller-allocated, overwritten; free
/// its objects with rockBundleDestroy even on failure). Checks the version,
/// every index and size, and the harness (rockAttnProblemCheck). Returns
/// false with a one-line message in `err` (errSize bytes).
bool rockBundleRead(const char *path, RockBundle *b, char *err, size_t errSize);

/// Returns the function `name` of `b`, or NULL.
const RockBundleFunc *rockBundleFindFunc(const RockBundle *b, const char *name);

/// Frees the objects `b` owns (not `b` itself).
void rockBundleDestroy(RockBundle *b);

#ifdef __cplusplus
}
#endif

#endif
