/*===- attention_wgmma_tma.c - K and V tiles by TMA ----------------------===*
 *
 * The TMA staging of the sm_90a prefill schedule (rock.gpu_wgmma_tma;
 * attention_wgmma.h, docs/gpu-accel.md). A tile of the 128-byte swizzled
 * layout is a row of blocks, each 64 elements of the contiguous dimension
 * by all the tile's lines, 128 bytes a line, 1024-byte aligned, chunk c of
 * line L at chunk c ^ (L % 8): exactly what one cp.async.bulk.tensor of a
 * box {64, lines} writes with CU_TENSOR_MAP_SWIZZLE_128B (the hardware
 * XORs address bits 4-6 with bits 7-9). So a tile is one copy per block:
 *   K   [keys][d]: map (d, key, group), box {64, mb, 1}, Dqk / 64 copies;
 *   Kᵀ  [d][keys]: map (key, d, group), box {64, Dqk, 1}, mb / 64 copies;
 *   V   [keys][dv]: map (dv, key, group), box {64, mb, 1}, Dv / 64 copies.
 * Keys past Sk are out of the map's bounds: TMA writes zeros there (the
 * masks give them no weight) and still counts their bytes.
 * The maps themselves are encoded at run time (cuTensorMapEncodeTiled,
 * runtime/gpu_run.c) into 128-byte device buffers: host memref.allocs
 * marked rock.tensor_map, which the kernel receives as pointers.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"

#include <stdio.h>

enum { BOX = 64, LINE = 128 }; /* elements a box line, its bytes */

static const char *const kMapType = "memref<128xi8>";

/* The host allocation of one map for view `tv` (dims in `order`). */
static int mapAlloc(RockGen *g, const WgCtx *c, const RockTmaView *tv,
                    const int order[3], const int64_t box[3]) {
  char desc[512];
  if (!rock__gpuTmaMapAttr(tv, order, box, c->elt, desc, sizeof desc))
    return -1;
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.alloc() {alignment = 64 : i64, "
                "rock.tensor_map = %s} : %s",
                r, desc, kMapType);
  return r;
}

bool rock__wgTmaMaps(RockGen *g, WgCtx *c) {
  const RockAttn *a = c->a;
  static const int dnk[3] = {2, 1, 0}, knd[3] = {1, 2, 0};
  int64_t boxK[3] = {BOX, c->mb, 1}, boxKt[3] = {BOX, a->Dqk, 1};
  c->kMap = c->k.mn ? mapAlloc(g, c, &c->tk, knd, boxKt)
                    : mapAlloc(g, c, &c->tk, dnk, boxK);
  c->vMap = mapAlloc(g, c, &c->tv, dnk, boxK);
  return c->kMap >= 0 && c->vMap >= 0;
}

void rock__wgTmaFree(RockGen *g, const WgCtx *c) {
  rock__genLine(g, "memref.dealloc %%v%d : %s", c->kMap, kMapType);
  rock__genLine(g, "memref.dealloc %%v%d : %s", c->vMap, kMapType);
}

int64_t rock__wgTmaBytes(const WgCtx *c, bool v) {
  return 2LL * c->mb * (v ? c->a->Dv : c->a->Dqk);
}

/* An index id as i32 / i64 / a pointer in address space `as` (-1:
 * generic). */
static int cast(RockGen *g, int v, const char *to) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to %s", r, v, to);
  return r;
}

static int toPtr(RockGen *g, int i64, int as) {
  int r = rock__genFresh(g);
  if (as < 0)
    rock__genLine(g, "%%v%d = llvm.inttoptr %%v%d : i64 to !llvm.ptr", r, i64);
  else
    rock__genLine(g, "%%v%d = llvm.inttoptr %%v%d : i64 to !llvm.ptr<%d>", r,
                  i64, as);
  return r;
}

/* The address (i64) of memref `m` of type `mt`. */
static int addrOf(RockGen *g, int m, const char *mt) {
  int p = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.extract_aligned_pointer_as_index %%v%d : %s "
                "-> index",
                p, m, mt);
  return cast(g, p, "i64");
}

void rock__wgTmaPrefetch(RockGen *g, const WgCtx *c) {
  const int maps[2] = {c->kMap, c->vMap};
  for (int i = 0; i < 2; ++i)
    rock__genLine(g, "nvvm.prefetch tensormap, %%v%d : !llvm.ptr",
                  toPtr(g, addrOf(g, maps[i], kMapType), -1));
}

/* `n` copies of tile `t` in stage `st`: copy b of box b·64 along the map's
 * inner dimension (from `inner0`) and `mid` along the next, block b of
 * the tile (bytes blockBytes apart). */
static void copies(RockGen *g, WgCtx *c, const WgTile *t, int st, int map,
                   int n, int inner0, int mid, int64_t blockBytes, int bar) {
  int dst = addrOf(g, rock__wgTileView(g, c, t, st), t->mt);
  int desc = toPtr(g, addrOf(g, map, kMapType), -1);
  int grp = cast(g, c->wg.gBlk, "i32"), m32 = cast(g, mid, "i32");
  for (int b = 0; b < n; ++b) {
    char lit[24];
    snprintf(lit, sizeof lit, "%lld", (long long)(b * blockBytes));
    /* (a shared::cta address is one of the shared::cluster window) */
    int d3 = toPtr(g,
                   rock__genBin(g, "arith.addi", dst,
                                rock__genConst(g, lit, "i64"), "i64"),
                   3),
        d = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = llvm.addrspacecast %%v%d : !llvm.ptr<3> to "
                  "!llvm.ptr<7>",
                  d, d3);
    int in = cast(g,
                  rock__genBin(g, "arith.addi", inner0,
                               rock__genIndex(g, (int64_t)b * BOX), "index"),
                  "i32");
    rock__genLine(g,
                  "nvvm.cp.async.bulk.tensor.shared.cluster.global %%v%d, "
                  "%%v%d, %%v%d, box[%%v%d, %%v%d, %%v%d] : !llvm.ptr<7>, "
                  "!llvm.ptr",
                  d, desc, bar, in, m32, grp);
  }
}

void rock__wgTmaK(RockGen *g, WgCtx *c, int j0, int st, int bar) {
  const RockAttn *a = c->a;
  int c0 = rock__genIndex(g, 0);
  if (c->k.mn)
    copies(g, c, &c->k, st, c->kMap, c->mb / BOX, j0, c0,
           (int64_t)LINE * a->Dqk, bar);
  else
    copies(g, c, &c->k, st, c->kMap, (int)(a->Dqk / BOX), c0, j0,
           (int64_t)LINE * c->mb, bar);
}

void rock__wgTmaV(RockGen *g, WgCtx *c, int j0, int st, int bar) {
  copies(g, c, &c->v, st, c->vMap, (int)(c->a->Dv / BOX), rock__genIndex(g, 0),
         j0, (int64_t)LINE * c->mb, bar);
}
