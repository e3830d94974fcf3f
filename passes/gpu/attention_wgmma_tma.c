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
 * Paged K / V (c->paged; the rule: rock__wgTmaPagedPlan) read a map over
 * the page pool, (d, pool row, 1) with box {64, boxRows, 1}, boxRows =
 * min(tokens a page, mb): per tile the copying thread loads the page
 * address of each box from the page table (all of a tile's K and V
 * addresses before its first copy), turns it into a pool row (address -
 * pool base) / row bytes, traps on an address outside the pool or off a
 * page boundary (rock-run-gpu rejects such tables before the launch; this
 * keeps a kernel fault, never silent zeros), and issues one copy per box
 * and 64-element block, the boxes of a block 128·boxRows bytes apart
 * (boxRows % 8 == 0: whole periods of the swizzle, 1024-byte aligned).
 * Boxes past the last key re-read the last box (as the cp.async copies
 * re-read the last key), so every tile completes its full byte count.
 * The maps themselves are encoded at run time (cuTensorMapEncodeTiled,
 * runtime/gpu_run.c) into 128-byte device buffers: host memref.allocs
 * marked rock.tensor_map, which the kernel receives as pointers.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"
#include "support/ir.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

enum { BOX = 64, LINE = 128 }; /* elements a box line, its bytes */

static const char *const kMapType = "memref<128xi8>";
/* (paged) the map, then the pool's device address at byte 128 */
static const char *const kPoolMapType = "memref<136xi8>";

static const char *mapType(const WgCtx *c) {
  return c->paged ? kPoolMapType : kMapType;
}

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
                r, desc, mapType(c));
  return r;
}

bool rock__wgTmaMaps(RockGen *g, WgCtx *c) {
  const RockAttn *a = c->a;
  static const int dnk[3] = {2, 1, 0}, knd[3] = {1, 2, 0};
  int64_t boxK[3] = {BOX, c->mb, 1}, boxKt[3] = {BOX, a->Dqk, 1};
  if (c->paged) {
    int64_t boxP[3] = {BOX, c->boxRows, 1};
    c->kMap = mapAlloc(g, c, &c->tk, dnk, boxP);
    c->vMap = mapAlloc(g, c, &c->tv, dnk, boxP);
    return c->kMap >= 0 && c->vMap >= 0;
  }
  c->kMap = c->k.mn ? mapAlloc(g, c, &c->tk, knd, boxKt)
                    : mapAlloc(g, c, &c->tk, dnk, boxK);
  c->vMap = mapAlloc(g, c, &c->tv, dnk, boxK);
  return c->kMap >= 0 && c->vMap >= 0;
}

void rock__wgTmaFree(RockGen *g, const WgCtx *c) {
  rock__genLine(g, "memref.dealloc %%v%d : %s", c->kMap, mapType(c));
  rock__genLine(g, "memref.dealloc %%v%d : %s", c->vMap, mapType(c));
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
                  toPtr(g, addrOf(g, maps[i], mapType(c)), -1));
}

/* The shared::cluster pointer of byte `off` of the tile at `dst` (an i64
 * shared::cta address: one of the shared::cluster window), a copy's
 * destination. */
static int clusterAddr(RockGen *g, int dst, int64_t off) {
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)off);
  int d3 = toPtr(g,
                 rock__genBin(g, "arith.addi", dst,
                              rock__genConst(g, lit, "i64"), "i64"),
                 3),
      d = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.addrspacecast %%v%d : !llvm.ptr<3> to "
                "!llvm.ptr<7>",
                d, d3);
  return d;
}

/* `n` copies of tile `t` in stage `st`: copy b of box b·64 along the map's
 * inner dimension (from `inner0`) and `mid` along the next, block b of
 * the tile (bytes blockBytes apart). */
static void copies(RockGen *g, WgCtx *c, const WgTile *t, int st, int map,
                   int n, int inner0, int mid, int64_t blockBytes, int bar) {
  int dst = addrOf(g, rock__wgTileView(g, c, t, st), t->mt);
  int desc = toPtr(g, addrOf(g, map, mapType(c)), -1);
  int grp = cast(g, c->wg.gBlk, "i32"), m32 = cast(g, mid, "i32");
  for (int b = 0; b < n; ++b) {
    int d = clusterAddr(g, dst, b * blockBytes);
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

/*===--- paged K / V ------------------------------------------------------===*/

/* The pool of page view `pv` as a TMA view: (1, pool rows, d) over the
 * pool of the page table argument; false when the table is no argument. */
static bool poolView(const RockPageView *pv, int64_t d, RockTmaView *tv) {
  MlirValue v = pv->table;
  while (mlirValueIsAOpResult(v) &&
         rock__isOp(mlirOpResultGetOwner(v), "rock.transform"))
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  int arg = rock__gpuTmaArgOf(pv->table);
  MlirType t = mlirValueGetType(v);
  if (arg < 0 || !mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
    return false;
  int64_t slots = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i)
    slots *= mlirShapedTypeGetDimSize(t, i);
  int64_t rows = slots * pv->pageElems / pv->rowStride;
  *tv = (RockTmaView){.arg = arg,
                      .pool = true,
                      .offset = 0,
                      .stride = {rows * pv->rowStride, pv->rowStride, 1},
                      .dims = {1, rows, d},
                      .eltBytes = 2};
  return rows < (1LL << 31);
}

/* Tokens a page of `pv`, or 0 when its rows do not tile its pages. */
static int64_t pageTokens(const RockPageView *pv) {
  return pv->rowStride > 0 && pv->pageElems % pv->rowStride == 0
             ? pv->pageElems / pv->rowStride
             : 0;
}

/* The rule, in this one place: paged K / V are staged by TMA when both
 * views are proven linear in their pages (page_runs.h) with K stored
 * [keys][d], head dims multiples of 64, a page of P tokens (the same for K
 * and V) with P % 8 == 0 (boxes of min(P, mb) rows are whole periods of
 * the 128-byte swizzle) and P dividing mb or mb dividing P (a tile starts
 * on a page boundary, or lies inside one page), and Sk a multiple of the
 * box (no box straddles the last key). Everything else (pages under 8
 * tokens, odd page sizes, key tails off the box, K [d][keys]) keeps the
 * cp.async staging through the page pointers. */
bool rock__wgTmaPagedPlan(MlirOperation op, WgCtx *c) {
  const RockAttn *a = c->a;
  if (a->kKeyMajor || a->Dqk % BOX || a->Dv % BOX ||
      !rock__gpuPageView(mlirOperationGetOperand(op, 1), &c->pgK) ||
      !rock__gpuPageView(mlirOperationGetOperand(op, 2), &c->pgV))
    return false;
  int64_t P = pageTokens(&c->pgK);
  if (P == 0 || P != pageTokens(&c->pgV) || P % 8 || (c->mb % P && P % c->mb))
    return false;
  c->pageRows = P;
  c->boxRows = P < c->mb ? P : c->mb;
  if (a->Sk % c->boxRows || !poolView(&c->pgK, a->Dqk, &c->tk) ||
      !poolView(&c->pgV, a->Dv, &c->tv) || (c->pgK.rowStride * 2) % 16 ||
      (c->pgV.rowStride * 2) % 16)
    return false;
  c->paged = true;
  return true;
}

/* The pool address stored after the map `map` (i64). */
static int poolBase(RockGen *g, const WgCtx *c, int map) {
  int p = toPtr(g, addrOf(g, map, mapType(c)), -1), q = rock__genFresh(g),
      r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.getelementptr %%v%d[128] : (!llvm.ptr) -> "
                "!llvm.ptr, i8",
                q, p);
  rock__genLine(g,
                "%%v%d = llvm.load %%v%d {alignment = 8 : i64} : "
                "!llvm.ptr -> i64",
                r, q);
  return r;
}

void rock__wgTmaPagedSetup(RockGen *g, WgCtx *c) {
  c->kPtrs = rock__gpuPagePtrView(g, &c->pgK, c->a->extraId[c->xK], c->kPtrTy,
                                  sizeof c->kPtrTy);
  c->vPtrs = rock__gpuPagePtrView(g, &c->pgV, c->a->extraId[c->xV], c->vPtrTy,
                                  sizeof c->vPtrTy);
  c->kBase = poolBase(g, c, c->kMap);
  c->vBase = poolBase(g, c, c->vMap);
}

/* Whether `off` (i64 bytes from the pool base) is no page start of the
 * pool (an i1 id), or-ed into *bad (-1: none yet). */
static void checkPage(RockGen *g, const RockPageView *pv, const RockTmaView *tv,
                      int off, int *bad) {
  char lit[24];
  snprintf(lit, sizeof lit, "%lld",
           (long long)(tv->dims[1] * pv->rowStride * 2));
  int out = rock__genBin(g, "arith.cmpi uge,", off,
                         rock__genConst(g, lit, "i64"), "i64");
  snprintf(lit, sizeof lit, "%lld", (long long)(pv->pageElems * 2));
  int mis = rock__genBin(
      g, "arith.cmpi ne,",
      rock__genBin(g, "arith.remui", off, rock__genConst(g, lit, "i64"), "i64"),
      rock__genConst(g, "0", "i64"), "i64");
  int b = rock__genBin(g, "arith.ori", out, mis, "i1");
  *bad = *bad < 0 ? b : rock__genBin(g, "arith.ori", *bad, b, "i1");
}

void rock__wgTmaPagedTrap(RockGen *g, int bad) {
  rock__genLine(g, "scf.if %%v%d {", bad);
  rock__genLine(g, "  llvm.intr.trap");
  rock__genLine(g, "}");
}

/* The page address (i64) of the box of K or V (v) whose first key is jb
 * (an index id, clamped), loaded from the page table. */
static int boxAddr(RockGen *g, WgCtx *c, bool v, int jb) {
  char ib[96];
  rock__idx3(ib, sizeof ib, c->wg.gBlk, jb, rock__genIndex(g, 0));
  int p1 = rock__genFresh(g), ptr = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = rock.view_load %%v%d[%s] {rock.align = 8 : i64} : "
                "%s -> vector<1xi64>",
                p1, v ? c->vPtrs : c->kPtrs, ib, v ? c->vPtrTy : c->kPtrTy);
  rock__genLine(g, "%%v%d = vector.extract %%v%d[0] : i64 from vector<1xi64>",
                ptr, p1);
  return ptr;
}

/* That box's pool row (i32) from its page address `ptr`, the address
 * checked into *bad. */
static int boxRow(RockGen *g, WgCtx *c, bool v, int jb, int ptr, int *bad) {
  const RockPageView *pv = v ? &c->pgV : &c->pgK;
  const RockTmaView *tv = v ? &c->tv : &c->tk;
  char lit[24];
  int off = rock__genBin(g, "arith.subi", ptr, v ? c->vBase : c->kBase, "i64");
  checkPage(g, pv, tv, off, bad);
  snprintf(lit, sizeof lit, "%lld", (long long)(pv->rowStride * 2));
  int row = rock__genBin(g, "arith.divui", off, rock__genConst(g, lit, "i64"),
                         "i64"),
      r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.trunci %%v%d : i64 to i32", r, row);
  if (c->pageRows > c->boxRows) /* (a tile inside a page) */
    r = rock__genBin(g, "arith.addi", r,
                     cast(g,
                          rock__genBin(g, "arith.remui", jb,
                                       rock__genIndex(g, c->pageRows), "index"),
                          "i32"),
                     "i32");
  return r;
}

/* The first key of box q (an index id) of the tile at j0, clamped so that
 * boxes past the last key re-read the last box. */
static int boxKey(RockGen *g, const WgCtx *c, int j0, int q) {
  int jb = rock__genBin(
      g, "arith.addi", j0,
      rock__genBin(g, "arith.muli", q, rock__genIndex(g, c->boxRows), "index"),
      "index");
  if (c->mb > c->boxRows)
    jb = rock__genBin(g, "arith.minui", jb,
                      rock__genIndex(g, c->a->Sk - c->boxRows), "index");
  return jb;
}

void rock__wgTmaPagedRows(RockGen *g, WgCtx *c, bool v, int j0, int *rows,
                          int *bad) {
  int nBox = (int)(c->mb / c->boxRows);
  if (c->pagedLanes) { /* (rows[0]: this lane's box, rock__wgTmaPagedLane) */
    rows[0] = rock__wgTmaPagedLane(g, c, j0, -1, bad);
    return;
  }
  /* (the loads first, so that they issue back to back) */
  int jb[WG_MAX_BOXES], ptrs[WG_MAX_BOXES];
  for (int q = 0; q < nBox; ++q) {
    jb[q] = boxKey(g, c, j0, rock__genIndex(g, q));
    ptrs[q] = boxAddr(g, c, v, jb[q]);
  }
  for (int q = 0; q < nBox; ++q)
    rows[q] = boxRow(g, c, v, jb[q], ptrs[q], bad);
}

/* This lane's box (q, an index id) and whether it is V's (isV, i1). */
static void laneBox(RockGen *g, const WgCtx *c, int *q, int *isV) {
  int nBox = (int)(c->mb / c->boxRows), cn = rock__genIndex(g, nBox);
  int lane =
      rock__genBin(g, "arith.remui", c->cpTx, rock__genIndex(g, 32), "index");
  *q = rock__genBin(g, "arith.remui", lane, cn, "index");
  *isV = rock__genBin(
      g, "arith.cmpi eq,",
      rock__genBin(g, "arith.remui",
                   rock__genBin(g, "arith.divui", lane, cn, "index"),
                   rock__genIndex(g, 2), "index"),
      rock__genIndex(g, 1), "index");
}

int rock__wgTmaPagedLaneAddr(RockGen *g, WgCtx *c, int j0) {
  int q, isV;
  laneBox(g, c, &q, &isV);
  int jb = boxKey(g, c, j0, q), r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = scf.if %%v%d -> (i64) {", r, isV);
  for (int v = 1; v >= 0; --v) {
    g->depth++;
    rock__genLine(g, "scf.yield %%v%d : i64", boxAddr(g, c, v == 1, jb));
    g->depth--;
    rock__genLine(g, v ? "} else {" : "}");
  }
  return r;
}

int rock__wgTmaPagedLane(RockGen *g, WgCtx *c, int j0, int ptr, int *bad) {
  int q, isV;
  laneBox(g, c, &q, &isV);
  int jb = boxKey(g, c, j0, q);
  if (ptr < 0)
    ptr = rock__wgTmaPagedLaneAddr(g, c, j0);
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d:2 = scf.if %%v%d -> (i32, i1) {", r, isV);
  for (int v = 1; v >= 0; --v) {
    g->depth++;
    int b = -1, row = boxRow(g, c, v == 1, jb, ptr, &b);
    rock__genLine(g, "scf.yield %%v%d, %%v%d : i32, i1", row, b);
    g->depth--;
    rock__genLine(g, v ? "} else {" : "}");
  }
  int row = rock__genFresh(g), b = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.addi %%v%d#0, %%v%d : i32", row, r,
                rock__genConst(g, "0", "i32"));
  rock__genLine(g, "%%v%d = arith.ori %%v%d#1, %%v%d#1 : i1", b, r, r);
  *bad = *bad < 0 ? b : rock__genBin(g, "arith.ori", *bad, b, "i1");
  return row;
}

int rock__wgTmaPagedShuffle(RockGen *g, int row, int src) {
  int r = rock__genFresh(g), ok = rock__genFresh(g);
  char lit[16];
  snprintf(lit, sizeof lit, "%d", src);
  rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle idx %%v%d, %%v%d, %%v%d : i32",
                r, ok, row, rock__genConst(g, lit, "i32"),
                rock__genConst(g, "32", "i32"));
  return r;
}

void rock__wgTmaPagedCopy(RockGen *g, WgCtx *c, bool v, const int *rows, int st,
                          int bar) {
  const WgTile *t = v ? &c->v : &c->k;
  int nBlk = (int)((v ? c->a->Dv : c->a->Dqk) / BOX);
  int nBox = (int)(c->mb / c->boxRows);
  int dst = addrOf(g, rock__wgTileView(g, c, t, st), t->mt);
  int desc = toPtr(g, addrOf(g, v ? c->vMap : c->kMap, mapType(c)), -1);
  int z = rock__genConst(g, "0", "i32");
  for (int b = 0; b < nBlk; ++b) {
    char lit[24];
    snprintf(lit, sizeof lit, "%d", b * BOX);
    int in = rock__genConst(g, lit, "i32");
    for (int q = 0; q < nBox; ++q) {
      int d = clusterAddr(
          g, dst, (int64_t)b * LINE * c->mb + (int64_t)q * LINE * c->boxRows);
      rock__genLine(g,
                    "nvvm.cp.async.bulk.tensor.shared.cluster.global %%v%d, "
                    "%%v%d, %%v%d, box[%%v%d, %%v%d, %%v%d] : !llvm.ptr<7>, "
                    "!llvm.ptr",
                    d, desc, bar, in, rows[q], z);
    }
  }
}
