/*===- tma_view.h - dense views a tensor map can describe ----------*- C -*-===*
 *
 * The sm_90a prefill schedule's TMA staging (rock.gpu_wgmma_tma,
 * docs/gpu-accel.md) copies K and V tiles with cp.async.bulk.tensor, which
 * reads global memory through a tensor map: a base address, up to five
 * dimensions with byte strides, a box and a swizzle mode. This file proves
 * that a gridwise operand [G, N, D] is such a tensor (passes/gpu/tma_view.c)
 * and writes the map's description, which travels on a memref.alloc as the
 * attribute rock.tensor_map and, through the bundle, to the runner that
 * encodes it (docs/gpu-runner.md).
 *
 * Everything is borrowed; nothing here owns IR.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_TMA_VIEW_H
#define ROCK_PASSES_GPU_TMA_VIEW_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A view [G, N, D] whose element (g, n, d) is element
 * offset + stride[0]·g + stride[1]·n + stride[2]·d of argument `arg` of the
 * host function (a memref of static shape and identity layout). */
typedef struct RockTmaView {
  int arg;
  /* A page pool: `arg` is the page table (i64 page addresses) and the map
   * runs over the pool those address (the runner's device copy of it); the
   * map buffer then holds the pool's device address after the map. */
  bool pool;
  int64_t offset, stride[3], dims[3];
  int64_t eltBytes;
} RockTmaView;

/* Whether `view` is such a view: a chain of rock.transform ops without Pad
 * whose affine maps have no division or remainder, down to an argument of
 * the entry block of the enclosing function. Fills *tv. */
bool rock__gpuTmaView(MlirValue view, RockTmaView *tv);

/* The number of the entry-block argument of the enclosing func.func that
 * `v` views through rock.transform ops only, or -1. */
int rock__gpuTmaArgOf(MlirValue v);

/* A 3-D tensor map over `tv`: the view dims in the order `order` (innermost
 * first; the innermost has stride 1), box `box` (elements of each of those
 * dims), 128-byte swizzle. Writes the attribute text
 * `{arg = .., dtype = .., offset = .., dims = array<i64: ..>, strides =
 * array<i64: ..>, box = array<i64: ..>, swizzle = 128 : i64}` (and `pool =
 * 1` for a page pool; strides in
 * bytes, of the outer two dims) into buf (size n). False when the map
 * breaks a TMA rule (16-byte aligned base and strides, box <= 256, the
 * inner box 128 bytes at most with the swizzle). */
bool rock__gpuTmaMapAttr(const RockTmaView *tv, const int order[3],
                         const int64_t box[3], const char *dtype, char *buf,
                         size_t n);

#endif
