/*===- fused_combine.h - the split's merge in the kernel ----------*- C -*-===*
 *
 * rock.gpu_fused_combine (passes/gpu/fused_combine.c, docs/gpu.md "Decode"):
 * with an internal split, the P partials of each KV group and row block are
 * merged in the attention kernel instead of a second launch, along a tree
 * of fan-in 8 (rock.gpu_fused_fan: 16 or 32; a->fusedFan): each node has an
 * i32 arrival counter (rock.zero_init scratch);
 * a workgroup that has stored its partial makes it visible (membar.gl) and
 * counts itself at its node; the one that completes the node merges the
 * node's children with lower_combine.c's rule into the node's partial (the
 * root: into out / lse), puts the counter back to zero for the next launch
 * and goes on to the parent. No workgroup waits for another.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_FUSED_COMBINE_H
#define ROCK_PASSES_GPU_FUSED_COMBINE_H

#include "attention/attention.h"

/* The fan-in: by default, and the values rock.gpu_fused_fan takes (powers of
 * two; at most a warp's lanes, over which a row's children are reduced). */
enum { ROCK_FUSED_FAN = 8, ROCK_FUSED_FAN_MIN = 8, ROCK_FUSED_FAN_MAX = 32 };

/* What the merge needs from the schedule's generated text. */
typedef struct RockFusedCtx {
  int tx, nThreads, wave; /* thread id (index), threads, lanes a warp */
  int smem;               /* the workgroup byte buffer (free by then) */
  char msmem[96];         /* its type */
  RockAttnWg wg;          /* the workgroup's indices */
  int cR;                 /* index constant R */
  int nb;                 /* merged rows a workgroup at most */
} RockFusedCtx;

/* The tree of fan-in `fan` for P splits: *cnt counters (nodes) per KV group
 * and row block, *up partial rows per query row for the inner nodes. */
void rock__gpuFusedTree(int64_t P, int fan, int64_t *cnt, int64_t *up);

/* Bytes of workgroup memory the merge of fan-in `fan` uses for `nb` rows. */
int64_t rock__gpuFusedBytes(int64_t nb, int fan);

/* Appends the arrivals and merges (a->fused, a->S splits whose partials are
 * rows bq·S + s of a->out / a->lse, the inner nodes' after them; the tree of
 * fan-in a->fusedFan, c->wave lanes or fewer). */
void rock__gpuFusedCombine(RockGen *g, const RockAttn *a,
                           const RockFusedCtx *c);

#endif
