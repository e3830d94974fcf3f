/*===- fused_combine.h - the split's merge in the last workgroup --*- C -*-===*
 *
 * rock.gpu_fused_combine (passes/gpu/fused_combine.c, docs/gpu.md "Decode"):
 * with an internal split, the last workgroup of each KV group and row block
 * to finish merges the P partials itself instead of a second launch. Each
 * workgroup makes its partial stores visible (membar.gl), one thread counts
 * the arrival (atomic add on a zero-initialised i32 counter, rock.zero_init
 * scratch); the one that sees P - 1 merges with lower_combine.c's rule and
 * puts the counter back to zero for the next launch.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_FUSED_COMBINE_H
#define ROCK_PASSES_GPU_FUSED_COMBINE_H

#include "attention/attention.h"

/* What the merge needs from the schedule's generated text. */
typedef struct RockFusedCtx {
  int tx, nThreads, wave; /* thread id (index), threads, lanes a warp */
  int smem;               /* the workgroup byte buffer (free by then) */
  char msmem[96];         /* its type */
  RockAttnWg wg;          /* the workgroup's indices */
  int cR;                 /* index constant R */
  int nb;                 /* merged rows a workgroup at most */
} RockFusedCtx;

/* Bytes of workgroup memory the merge uses for `nb` rows and P splits. */
int64_t rock__gpuFusedBytes(int64_t nb, int64_t P);

/* Appends the arrival and, in the last workgroup, the merge of a->S
 * partials (a->out / a->lse) into a->fOut / a->fLse (a->fused). */
void rock__gpuFusedCombine(RockGen *g, const RockAttn *a,
                           const RockFusedCtx *c);

#endif
