/*===- attention_wgmma_dyn.c - the persistent form's dynamic tiles -------===*
 *
 * rock.gpu_wgmma_dynamic (docs/gpu-accel.md, "The persistent form"): the
 * persistent sm_90a prefill kernel's workgroups take their tiles from one
 * global counter instead of the static t += gridDim.x. Workgroup b takes
 * tile b first; each next tile is gridDim.x + atomicAdd(counter, 1), fetched
 * by the producer's copying thread (attention_wgmma_ws.c, at the tile's last
 * key tile) and passed to both roles through workgroup memory (the tile
 * rounds of attention_wgmma_ws.c); a tile index >= the tile count ends the
 * workgroup's loop. The tiles keep their numbers (longest first when
 * causal): the counter hands them out in that order, so a workgroup that
 * runs slower takes fewer of them.
 *
 * The counters (a scratch memref<2xi32> marked rock.zero_init: zero before
 * the first launch) must be zero again for the next launch. [1] counts the
 * workgroups done: the copying thread adds 1 after its last fetch, and the
 * one that reads gridDim.x - 1 stores 0 into both. No workgroup can fetch
 * after that store: every workgroup fetches until a fetch returns >= the
 * tile count and then fetches no more; its count on [1] follows that last
 * fetch (membar.gl between them, and between the count and the stores in
 * the last workgroup, so the last workgroup's stores follow every
 * workgroup's last fetch); reading gridDim.x - 1 means all gridDim.x
 * workgroups have counted, so all have fetched for the last time. (A fetch
 * returns >= tiles only once all the tiles were handed out: the counter
 * grows by one a fetch from 0, tile gridDim.x + k for the k-th.) The stores
 * are plain: the next launch starts after this grid completes.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"

#include <stdio.h>

static const char *cntType = "memref<2xi32>";

void rock__wgDynAlloc(RockGen *g, WgCtx *c) {
  c->dynCnt = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.alloc() {alignment = 64 : i64, "
                "rock.zero_init} : %s",
                c->dynCnt, cntType);
}

void rock__wgDynFree(RockGen *g, const WgCtx *c) {
  rock__genLine(g, "memref.dealloc %%v%d : %s", c->dynCnt, cntType);
}

/* atomicAdd(counter[i], 1): the old value (i32 id). */
static int addOne(RockGen *g, const WgCtx *c, int i) {
  int old = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.atomic_rmw addi %%v%d, %%v%d[%%v%d] : (i32, "
                "%s) -> i32",
                old, rock__genConst(g, "1", "i32"), c->dynCnt,
                rock__genIndex(g, i), cntType);
  return old;
}

static int litI32(RockGen *g, int64_t v) {
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)v);
  return rock__genConst(g, lit, "i32");
}

int rock__wgDynFetch(RockGen *g, const WgCtx *c, int64_t grid) {
  return rock__genBin(g, "arith.addi", addOne(g, c, 0), litI32(g, grid), "i32");
}

static void membarGl(RockGen *g) {
  rock__genLine(g, "llvm.call_intrinsic \"llvm.nvvm.membar.gl\"() : () -> ()");
}

void rock__wgDynDone(RockGen *g, const WgCtx *c, int64_t grid) {
  membarGl(g);
  int old = addOne(g, c, 1);
  rock__genLine(
      g, "scf.if %%v%d {",
      rock__genBin(g, "arith.cmpi eq,", old, litI32(g, grid - 1), "i32"));
  g->depth++;
  membarGl(g);
  int z = rock__genConst(g, "0", "i32");
  for (int i = 0; i < 2; ++i)
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", z, c->dynCnt,
                  rock__genIndex(g, i), cntType);
  g->depth--;
  rock__genLine(g, "}");
}
