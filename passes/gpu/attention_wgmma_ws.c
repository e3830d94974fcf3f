/*===- attention_wgmma_ws.c - the warp-specialised sm_90a prefill --------===*
 *
 * The producer / consumer form of the sm_90a prefill schedule
 * (attention_wgmma.h; rock.gpu_wgmma_producer): the last warpgroup of the
 * workgroup only copies, the others only compute, and they meet at
 * mbarriers in the workgroup buffer, one per stage and direction (N =
 * c->stages stages, 2 unless rock.gpu_wgmma_stages; barrier k N + s):
 *   fullK[s] / fullV[s]   arrived on by the producer's cp.async copies of
 *                         K(t) / V(t) into stage s (.noinc: 128 arrivals);
 *   emptyK[s] / emptyV[s] arrived on by every consumer thread once the
 *                         products that read stage s are done.
 * Tile t uses stage s = u % N for the n = u / N-th time (u = t - start), so
 * waits take the parity of that count: the consumers wait for phase n of
 * full[s], the producer for phase n - 1 of empty[s] before the copy of
 * round n. Neither barrier runs two phases past its waiter: full[s]'s
 * phase n + 1 needs the copy of round n + 1, issued only after empty[s]'s
 * phase n, which needs every consumer thread's arrival after its wait for
 * full[s]'s phase n; empty[s]'s phase n needs those arrivals, which follow
 * the copy of round n, issued after the producer's wait for phase n - 1.
 * The consumers run the schedule of attention_wgmma.c (S(t) and P·V(t - 1)
 * issued together, the softmax of t while P·V(t - 1) runs), releasing K(t)
 * after S(t) and V(t - 1) after P·V(t - 1): the producer is then N tiles
 * ahead at most (K(t + N) waits for the release of K(t)) and one ahead at
 * least, and no barrier couples the consumer warpgroups, so one's softmax
 * can overlap the other's products. setmaxnreg moves registers to the
 * consumers (c->regsC; the producer keeps c->regsP: its copies are loops,
 * not unrolled). With TMA (c->tma, attention_wgmma_tma.c) the full
 * barriers take one arrival, the copying thread's expect_tx of the tile's
 * bytes, and Q completes on a barrier after the 4 N (FULL_Q; the ninth with
 * two stages) of the producer's cp.async. Persistent (c->persist,
 * attention_wgmma.c's tile loop): the key tiles count on across the
 * workgroup's tiles (c->uBase), Q's loads too (c->qRound), and one more
 * barrier (EMPTY_Q) frees Q's buffer; with two Q buffers (c->qBufs) tile
 * round q uses buffer q % 2 for the (q / 2)-th time, its own FULL_Q and
 * EMPTY_Q (two stages: barriers 8, 9 and 10, 11). With
 * dynamic tiles (c->dyn) the tile index travels with FULL_Q through a slot
 * of workgroup memory (the tile rounds below; tileLoop's comment).
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"

#include <stdio.h>

/* The kinds of barrier: K / V full and empty (c->stages of each kind, one a
 * stage), (tma) Q's own (one a Q buffer) after those 4 N, and (persist)
 * EMPTY_Q, Q's buffer free again: every consumer thread arrives once its
 * last Q·Kᵀ of a tile is done; the producer waits before the next Q into
 * that buffer (after the FULL_Q barriers: with two stages 9, or 10 and 11
 * with two Q buffers, c->qBufs). */
enum { FULL_K, FULL_V, EMPTY_K, EMPTY_V, FULL_Q, EMPTY_Q };
enum { MAX_PA = 64 };

/* The number of the first barrier of kind `which`. */
static int barIndex(const WgCtx *c, int which) {
  return which <= FULL_Q ? which * c->stages : FULL_Q * c->stages + c->qBufs;
}

/* The address (!llvm.ptr<3>) of mbarrier number `b` + `st` (index id; -1:
 * none). */
static int barNum(RockGen *g, WgCtx *c, int b, int st) {
  int off = rock__genIndex(g, c->barOff + 8 * b);
  if (st >= 0)
    off = rock__genBin(
        g, "arith.addi", off,
        rock__genBin(g, "arith.muli", st, rock__genIndex(g, 8), "index"),
        "index");
  int v = rock__genFresh(g), p = rock__genFresh(g), i = rock__genFresh(g),
      r = rock__genFresh(g);
  const char *mt = "memref<1xi64, #gpu.address_space<workgroup>>";
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", v, c->buf,
                off, c->mBuf, mt);
  rock__genLine(g,
                "%%v%d = memref.extract_aligned_pointer_as_index %%v%d : %s "
                "-> index",
                p, v, mt);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", i, p);
  rock__genLine(g, "%%v%d = llvm.inttoptr %%v%d : i64 to !llvm.ptr<3>", r, i);
  return r;
}

/* The address of mbarrier `which` (a kind) of stage `st` (index id; -1:
 * stage 0). */
static int barAt(RockGen *g, WgCtx *c, int which, int st) {
  return barNum(g, c, barIndex(c, which), st);
}

/* The running index (from the workgroup's first key tile) of key tile kt:
 * kt - start, plus the earlier tiles' key tiles with persist. */
static int tileU(RockGen *g, const WgCtx *c, int kt) {
  int u = rock__genBin(g, "arith.subi", kt, c->start, "index");
  return c->uBase < 0 ? u : rock__genBin(g, "arith.addi", u, c->uBase, "index");
}

/* Waits for the phase of parity (n % 2) of mbarrier `p` (n: index id). */
static void waitPhase(RockGen *g, int p, int n) {
  int par = rock__genFresh(g);
  rock__genLine(
      g, "%%v%d = arith.index_cast %%v%d : index to i32", par,
      rock__genBin(g, "arith.remui", n, rock__genIndex(g, 2), "index"));
  rock__genLine(g,
                "nvvm.mbarrier.try_wait.parity %%v%d, %%v%d, %%v%d : "
                "!llvm.ptr<3>, i32, i32",
                p, par, rock__genConst(g, "10000000", "i32"));
}

/* (tma) FULL_Q or (empty, persist) EMPTY_Q of this tile's Q buffer. */
static int qBar(RockGen *g, WgCtx *c, bool empty) {
  return barAt(g, c, empty ? EMPTY_Q : FULL_Q, c->qBuf);
}

/* The phase count of this tile's Q buffer: its uses before this tile (0
 * without persist; the round q, or q / 2 with two buffers). */
static int qPhase(RockGen *g, const WgCtx *c) {
  if (c->qRound < 0)
    return rock__genIndex(g, 0);
  return c->qBufs > 1 ? rock__genBin(g, "arith.divui", c->qRound,
                                     rock__genIndex(g, 2), "index")
                      : c->qRound;
}

static void arrive(RockGen *g, int p) {
  int t = rock__genFresh(g);
  rock__genLine(g, "%%v%d = nvvm.mbarrier.arrive %%v%d : !llvm.ptr<3> -> i64",
                t, p);
}

/*===--- ping-pong (rock.gpu_wgmma_pingpong) -------------------------------===*
 *
 * The N consumer warpgroups (two, or three at head dims up to 64) take
 * turns at the tensor cores in a ring: warpgroup w waits at named barrier
 * 1 + w (bar.sync, 256 threads) before it issues a batch of products and,
 * once they are committed, arrives (bar.arrive) at the next one's barrier
 * 1 + (w + 1) % N, so that one's softmax runs while the others' products
 * do. Warpgroup 0 opens with an arrival at its own barrier; each issues
 * n + 1 batches (the first scores, one per loop step, the last P·V), and
 * the last warpgroup skips its last arrival, so every barrier ends
 * balanced (barrier 1 + w gets n + 1 arrivals from warpgroup w - 1, plus
 * the opening one for w = 0, whose ring predecessor skips one). A
 * warpgroup's k-th arrival needs its k-th turn, which needs its
 * predecessor's k-th arrival, so no barrier sees two phases' arrivals
 * before its waiter. Barrier 0 stays gpu.barrier's. */
enum { PP_THREADS = 2 * WG_LANES };

/* bar.sync or bar.arrive (`op`) at barrier `id` (an i32 id). */
static void namedBarrier(RockGen *g, const char *op, int id) {
  char lit[8];
  snprintf(lit, sizeof lit, "%d", PP_THREADS);
  rock__genLine(g, "%s id = %%v%d number_of_threads = %%v%d", op, id,
                rock__genConst(g, lit, "i32"));
}

/* This warpgroup's barrier (mine) or the next one's (i32 ids; with two,
 * 2 - w, the form the by-rule d 256 kernel was measured with: the ring's
 * remainder would move ptxas's compare of the last hand-over). */
static int ppBarrier(RockGen *g, const WgCtx *c, bool mine) {
  int w = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i32", w, c->wgi);
  int one = rock__genConst(g, "1", "i32");
  if (mine)
    return rock__genBin(g, "arith.addi", w, one, "i32");
  if (c->nwg == 2)
    return rock__genBin(g, "arith.subi", rock__genConst(g, "2", "i32"), w,
                        "i32");
  char n[8];
  snprintf(n, sizeof n, "%d", c->nwg);
  int nx = rock__genBin(g, "arith.remui",
                        rock__genBin(g, "arith.addi", w, one, "i32"),
                        rock__genConst(g, n, "i32"), "i32");
  return rock__genBin(g, "arith.addi", nx, one, "i32");
}

/* Before a batch of products: wait for this warpgroup's turn. */
static void ppTurn(RockGen *g, const WgCtx *c) {
  if (c->pingpong)
    namedBarrier(g, "nvvm.barrier", ppBarrier(g, c, true));
}

/* After a batch (committed): the next warpgroup's turn; `last`: the final
 * batch, after which the last warpgroup hands over nothing. */
static void ppHandOver(RockGen *g, const WgCtx *c, bool last) {
  if (!c->pingpong)
    return;
  if (last) {
    rock__genLine(g, "scf.if %%v%d {",
                  c->nwg == 2
                      ? rock__genBin(g, "arith.cmpi eq,", c->wgi,
                                     rock__genIndex(g, 0), "index")
                      : rock__genBin(g, "arith.cmpi ne,", c->wgi,
                                     rock__genIndex(g, c->nwg - 1), "index"));
    g->depth++;
  }
  namedBarrier(g, "nvvm.barrier.arrive", ppBarrier(g, c, false));
  if (last) {
    g->depth--;
    rock__genLine(g, "}");
  }
}

/* Warpgroup 0's opening arrival at its own barrier. */
static void ppOpen(RockGen *g, const WgCtx *c) {
  if (!c->pingpong)
    return;
  rock__genLine(
      g, "scf.if %%v%d {",
      rock__genBin(g, "arith.cmpi eq,", c->wgi, rock__genIndex(g, 0), "index"));
  g->depth++;
  namedBarrier(g, "nvvm.barrier.arrive", rock__genConst(g, "1", "i32"));
  g->depth--;
  rock__genLine(g, "}");
}

void rock__wgInitBarriers(RockGen *g, WgCtx *c) {
  rock__genLine(
      g, "scf.if %%v%d {",
      rock__genBin(g, "arith.cmpi eq,", c->tx, rock__genIndex(g, 0), "index"));
  g->depth++;
  int nq = c->qBufs, eK = barIndex(c, EMPTY_K), fQ = barIndex(c, FULL_Q);
  for (int b = 0; b < fQ + (c->tma ? nq : 0) + (c->persist ? nq : 0); ++b) {
    /* (tma: the full barriers see one arrival, the copying thread's
     * expect_tx, and Q's the producer's 128 cp.async arrivals, with dyn
     * and the copying thread's release of the tile slot; persist: Q's
     * empty ones every consumer thread's) */
    int count = b < eK        ? (c->tma ? 1 : WG_LANES)
                : b < fQ      ? WG_LANES * c->nwg
                : b < fQ + nq ? WG_LANES + (c->dyn ? 1 : 0)
                              : WG_LANES * c->nwg;
    char lit[16];
    snprintf(lit, sizeof lit, "%d", count);
    rock__genLine(g, "nvvm.mbarrier.init %%v%d, %%v%d : !llvm.ptr<3>, i32",
                  barNum(g, c, b, -1), rock__genConst(g, lit, "i32"));
  }
  /* (tma: the initialised barriers visible to the copy engine) */
  if (c->tma)
    rock__genLine(g, "nvvm.fence.mbarrier.init");
  g->depth--;
  rock__genLine(g, "}");
  rock__genLine(g, "gpu.barrier");
}

/* `scf.if n >= 1 { wait for phase n - 1 of barrier p }`. */
static void waitFree(RockGen *g, int p, int n) {
  int c1 = rock__genIndex(g, 1);
  rock__genLine(g, "scf.if %%v%d {",
                rock__genBin(g, "arith.cmpi uge,", n, c1, "index"));
  g->depth++;
  waitPhase(g, p, rock__genBin(g, "arith.subi", n, c1, "index"));
  g->depth--;
  rock__genLine(g, "}");
}

/* expect_tx of `bytes` on barrier p (the arrival of the copying thread). */
static void expectTx(RockGen *g, int p, int64_t bytes) {
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)bytes);
  rock__genLine(g,
                "nvvm.mbarrier.arrive.expect_tx %%v%d, %%v%d : "
                "!llvm.ptr<3>, i32",
                p, rock__genConst(g, lit, "i32"));
}

/* u (an index id) `op` (remui, divui) c->stages: as index for a power of
 * two (a mask or shift), else in i32 (by 3 a 64-bit multiply-high cost the
 * producer's 40 registers 32 bytes of spills, ptxas -v, paged p16 causal;
 * u is below 2^31, planStages). */
static int byStages(RockGen *g, const WgCtx *c, const char *op, int u) {
  if (!(c->stages & (c->stages - 1)))
    return rock__genBin(g, op, u, rock__genIndex(g, c->stages), "index");
  char lit[8];
  snprintf(lit, sizeof lit, "%d", c->stages);
  int u32 = rock__genFresh(g), r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_castui %%v%d : index to i32", u32, u);
  rock__genLine(g, "%%v%d = arith.index_castui %%v%d : i32 to index", r,
                rock__genBin(g, op, u32, rock__genConst(g, lit, "i32"), "i32"));
  return r;
}
/* The stage of key tile u (index ids), u % c->stages; Round: its use of that
 * stage, u / c->stages. */
static int stageOf(RockGen *g, const WgCtx *c, int u) {
  return byStages(g, c, "arith.remui", u);
}
static int roundOf(RockGen *g, const WgCtx *c, int u) {
  return byStages(g, c, "arith.divui", u);
}

/* The stage of key tile u - 1 (index ids; u >= 1), `st` that of u: 1 - st
 * with two stages, else (u - 1) % c->stages. */
static int prevStage(RockGen *g, const WgCtx *c, int st, int up) {
  if (c->stages == 2)
    return rock__genBin(g, "arith.subi", rock__genIndex(g, 1), st, "index");
  return stageOf(g, c, up);
}

/* Opens the producer's loop over key tiles t in [start, end): u = t -
 * start, its stage *s and round *n, *j0 the tile's first key. */
static void openTileLoop(RockGen *g, WgCtx *c, int *u, int *s, int *n,
                         int *j0) {
  int c1 = rock__genIndex(g, 1);
  int t = rock__genFor(g, c->start, c->end, c1);
  *u = tileU(g, c, t);
  *s = stageOf(g, c, *u);
  *n = roundOf(g, c, *u);
  (void)rock__attnTileCols(g, c->a, t, j0);
}

/* (paged) The pool rows of K's or V's (v) tile at j0, a trap if any page
 * address is off the pool. */
static void pagedRows(RockGen *g, WgCtx *c, bool v, int j0, int *rows) {
  int bad = -1;
  rock__wgTmaPagedRows(g, c, v, j0, rows, &bad);
  rock__wgTmaPagedTrap(g, bad);
}

/* (paged, c->pagedLanes) The producer's first warp over the key tiles:
 * every lane's page address at once (rock__wgTmaPagedLane; with
 * pagedLanes 2 loaded a tile ahead, carried by the loop), one trap branch,
 * the rows passed to lane 0 by shuffles, which waits for each stage,
 * expects its bytes and issues its copies. */
static void pagedLanesLoop(RockGen *g, WgCtx *c) {
  int c1 = rock__genIndex(g, 1);
  int nBox = (int)(c->mb / c->boxRows), j0, t, ptr = -1;
  if (c->pagedLanes > 1) {
    /* (a split without tiles loads the last tile's, never unused keys) */
    int t0 = rock__genBin(
        g, "arith.minui", c->start,
        rock__genIndex(g, (c->a->Sk + c->a->MB - 1) / c->a->MB - 1), "index");
    (void)rock__attnTileCols(g, c->a, t0, &j0);
    (void)rock__genForIter(g, c->start, c->end, c1,
                           rock__wgTmaPagedLaneAddr(g, c, j0), "i64", &t, &ptr);
  } else
    t = rock__genFor(g, c->start, c->end, c1);
  int u = tileU(g, c, t);
  int s = stageOf(g, c, u), n = roundOf(g, c, u);
  (void)rock__attnTileCols(g, c->a, t, &j0);
  int next = -1;
  if (c->pagedLanes > 1) { /* (tile t + 1's, or t's again at the end) */
    int tn = rock__genBin(
        g, "arith.minui", rock__genBin(g, "arith.addi", t, c1, "index"),
        rock__genBin(g, "arith.subi", c->end, c1, "index"), "index");
    int jn;
    (void)rock__attnTileCols(g, c->a, tn, &jn);
    next = rock__wgTmaPagedLaneAddr(g, c, jn);
  }
  int bad = -1;
  int row = rock__wgTmaPagedLane(g, c, j0, ptr, &bad);
  rock__wgTmaPagedTrap(g, bad);
  for (int v = 0; v < 2; ++v) {
    int rows[WG_MAX_BOXES];
    for (int q = 0; q < nBox; ++q)
      rows[q] = rock__wgTmaPagedShuffle(g, row, v * nBox + q);
    rock__genLine(g, "scf.if %%v%d {",
                  rock__genBin(g, "arith.cmpi eq,", c->cpTx,
                               rock__genIndex(g, 0), "index"));
    g->depth++;
    waitFree(g, barAt(g, c, v ? EMPTY_V : EMPTY_K, s), n);
    int f = barAt(g, c, v ? FULL_V : FULL_K, s);
    expectTx(g, f, rock__wgTmaBytes(c, v));
    rock__wgTmaPagedCopy(g, c, v, rows, s, f);
    g->depth--;
    rock__genLine(g, "}");
  }
  if (c->pagedLanes > 1)
    rock__genYieldEnd(g, next, "i64");
  else
    rock__genEnd(g);
}

/* (tma) K's or V's (v) tile at key j0 into stage s, round n: wait for the
 * stage to be free, expect its bytes, issue the copies (paged: of the pool
 * rows `rows`). */
static void copyTma(RockGen *g, WgCtx *c, bool v, int s, int n, int j0,
                    const int *rows) {
  waitFree(g, barAt(g, c, v ? EMPTY_V : EMPTY_K, s), n);
  int f = barAt(g, c, v ? FULL_V : FULL_K, s);
  expectTx(g, f, rock__wgTmaBytes(c, v));
  if (c->paged)
    rock__wgTmaPagedCopy(g, c, v, rows, s, f);
  else if (v)
    rock__wgTmaV(g, c, j0, s, f);
  else
    rock__wgTmaK(g, c, j0, s, f);
}

/* (tma) Q by the whole producer warpgroup (cp.async, FULL_Q), then K and V
 * by its first thread: per tile, wait for the stage to be free, expect its
 * bytes, issue the copies. */
static void producerTma(RockGen *g, WgCtx *c) {
  int c0 = rock__genIndex(g, 0);
  rock__genLine(g, "scf.if %%v%d {",
                rock__genBin(g, "arith.cmpi ult,", c->start, c->end, "index"));
  g->depth++;
  if (c->persist) /* (the consumers done with this buffer's last Q) */
    waitFree(g, qBar(g, c, true), qPhase(g, c));
  rock__wgStageQ(g, c);
  rock__genLine(g,
                "nvvm.cp.async.mbarrier.arrive %%v%d {noinc = true} : "
                "!llvm.ptr<3>",
                qBar(g, c, false));
  g->depth--;
  rock__genLine(g, "}");
  /* (paged lanes: the first warp; else its first thread) */
  rock__genLine(g, "scf.if %%v%d {",
                c->pagedLanes
                    ? rock__genBin(g, "arith.cmpi ult,", c->cpTx,
                                   rock__genIndex(g, 32), "index")
                    : rock__genBin(g, "arith.cmpi eq,", c->cpTx, c0, "index"));
  g->depth++;
  rock__wgTmaPrefetch(g, c);
  if (c->paged)
    rock__wgTmaPagedSetup(g, c);
  if (c->pagedLanes) {
    pagedLanesLoop(g, c);
    g->depth--;
    rock__genLine(g, "}");
    return;
  }
  int u, s, n, j0;
  openTileLoop(g, c, &u, &s, &n, &j0);
  /* (paged: K's page addresses, all loaded before the stage is waited for;
   * V's after K's copies: the producer's 40 registers hold one tile's) */
  int rk[WG_MAX_BOXES], rv[WG_MAX_BOXES];
  if (c->paged)
    pagedRows(g, c, false, j0, rk);
  copyTma(g, c, false, s, n, j0, rk);
  if (c->paged)
    pagedRows(g, c, true, j0, rv);
  copyTma(g, c, true, s, n, j0, rv);
  rock__genEnd(g);
  g->depth--;
  rock__genLine(g, "}");
}

void rock__wgProducer(RockGen *g, WgCtx *c) {
  if (c->tma) {
    producerTma(g, c);
    return;
  }
  int u, s, n, j0;
  openTileLoop(g, c, &u, &s, &n, &j0);
  waitFree(g, barAt(g, c, EMPTY_K, s), n);
  rock__genLine(
      g, "scf.if %%v%d {",
      rock__genBin(g, "arith.cmpi eq,", u, rock__genIndex(g, 0), "index"));
  g->depth++;
  rock__wgStageQ(g, c);
  g->depth--;
  rock__genLine(g, "}");
  rock__wgStageK(g, c, j0, s);
  rock__genLine(g,
                "nvvm.cp.async.mbarrier.arrive %%v%d {noinc = true} : "
                "!llvm.ptr<3>",
                barAt(g, c, FULL_K, s));
  waitFree(g, barAt(g, c, EMPTY_V, s), n);
  rock__wgStageV(g, c, j0, s);
  rock__genLine(g,
                "nvvm.cp.async.mbarrier.arrive %%v%d {noinc = true} : "
                "!llvm.ptr<3>",
                barAt(g, c, FULL_V, s));
  rock__genEnd(g);
}

/* Waits for the copy of tile u (index id, from start) in barrier `which`
 * (FULL_K / FULL_V) and makes it visible to the tensor cores. */
static void waitFull(RockGen *g, WgCtx *c, int which, int u) {
  waitPhase(g, barAt(g, c, which, stageOf(g, c, u)), roundOf(g, c, u));
}

/* One loop iteration for tile kt (see tileStep in attention_wgmma.c). */
static void consumerStep(RockGen *g, WgCtx *c, int kt, const int *m,
                         const int *l, int o, const int *pa, int *mN, int *lN,
                         int *oN, int *paN) {
  int c1 = rock__genIndex(g, 1);
  int u = tileU(g, c, kt);
  int up = rock__genBin(g, "arith.subi", u, c1, "index");
  int st = stageOf(g, c, u), sp = prevStage(g, c, st, up);
  int j0;
  (void)rock__attnTileCols(g, c->a, kt, &j0);
  waitFull(g, c, FULL_K, u);
  waitFull(g, c, FULL_V, up);
  rock__accelWgmmaProxyFence(g);
  WgDescs ds, dv;
  rock__wgScoresDescs(g, c, st, &ds);
  rock__wgPVDescs(g, c, sp, &dv);
  int os0 = rock__accelWgmmaStruct(g, &c->acO, o), pin[MAX_PA];
  rock__accelWgmmaPin(g, pa, c->mb / 4, pin);
  ppTurn(g, c);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int s = rock__wgScores(g, c, &ds);
  int os = rock__wgPV(g, c, &dv, pin, os0);
  ppHandOver(g, c, false);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned %d", c->overlap ? 1 : 0);
  int sv = rock__accelWgmmaVector(g, &c->acS, s);
  arrive(g, barAt(g, c, EMPTY_K, st));
  int cr[2];
  rock__wgSoftmax(g, c, sv, j0, m, l, mN, lN, cr, paN);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
  rock__accelWgmmaHold(g, pin, c->mb / 4);
  int ov = rock__accelWgmmaVector(g, &c->acO, os);
  arrive(g, barAt(g, c, EMPTY_V, sp));
  *oN = rock__wgRescale(g, c, ov, cr);
}

void rock__wgRegisters(RockGen *g, const WgCtx *c, bool producer) {
  rock__genLine(g, "nvvm.setmaxregister %s %d",
                producer ? "decrease" : "increase",
                producer ? c->regsP : c->regsC);
}

/* (two Q buffers) Q's descriptor of this warpgroup's rows in buffer
 * c->qBuf: the buffers are c->q.step bytes apart (the address field counts
 * 16 bytes; no carry out of it below 256 KiB). */
static int qBufDesc(RockGen *g, const WgCtx *c) {
  int b = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", b, c->qBuf);
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)(c->q.step >> 4));
  return rock__genBin(
      g, "arith.addi", c->qDesc,
      rock__genBin(g, "arith.muli", b, rock__genConst(g, lit, "i64"), "i64"),
      "i64");
}

void rock__wgConsumer(RockGen *g, WgCtx *c) {
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  int j0;
  (void)rock__attnTileCols(g, c->a, c->start, &j0);
  ppOpen(g, c);
  int u0 = c->uBase < 0 ? c0 : c->uBase;
  waitFull(g, c, FULL_K, u0);
  if (c->tma && !c->dyn) /* (dyn: waited for by rock__wgRoundOpen) */
    waitPhase(g, qBar(g, c, false), qPhase(g, c));
  int qDesc0 = c->qDesc;
  if (c->qBuf >= 0) /* (two Q buffers: this tile's) */
    c->qDesc = qBufDesc(g, c);
  rock__accelWgmmaProxyFence(g);
  WgDescs ds;
  int st0 = c->uBase < 0 ? c0 : stageOf(g, c, u0);
  rock__wgScoresDescs(g, c, st0, &ds);
  ppTurn(g, c);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int s = rock__wgScores(g, c, &ds);
  ppHandOver(g, c, false);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
  int sv = rock__accelWgmmaVector(g, &c->acS, s);
  arrive(g, barAt(g, c, EMPTY_K, st0));
  int m0[2] = {ninf, ninf}, l0[2] = {zf, zf}, m1[2], l1[2], cr[2];
  int pa[MAX_PA];
  rock__wgSoftmax(g, c, sv, j0, m0, l0, m1, l1, cr, pa);
  int npa = c->mb / 4, nSt = 5 + npa;
  int init[5 + MAX_PA], args[5 + MAX_PA], res[5 + MAX_PA], next[5 + MAX_PA];
  const char *tys[5 + MAX_PA];
  char vt[32];
  rock__typeStrS(vt, sizeof vt, "f32", c->acO.cElems);
  int o0 = rock__genZero(g, "f32", c->acO.cElems);
  for (int i = 0; i < nSt; ++i) {
    init[i] = i < 2 ? m1[i] : i < 4 ? l1[i - 2] : i == 4 ? o0 : pa[i - 5];
    tys[i] = i < 4 ? "f32" : i == 4 ? vt : "i32";
  }
  int kt;
  rock__genForTyped(g, rock__genBin(g, "arith.addi", c->start, c1, "index"),
                    c->end, c1, nSt, init, tys, &kt, args, res);
  consumerStep(g, c, kt, args, args + 2, args[4], args + 5, next, next + 2,
               &next[4], next + 5);
  rock__genYieldTypedEnd(g, nSt, next, tys);
  /* (persist: every Q·Kᵀ of the tile is done, the last loop step or the
   * first scores waited for all groups; Q's buffer is the producer's) */
  if (c->persist)
    arrive(g, qBar(g, c, true));
  c->qDesc = qDesc0;
  /* The last tile's P·V. */
  int ul = tileU(g, c, rock__genBin(g, "arith.subi", c->end, c1, "index"));
  waitFull(g, c, FULL_V, ul);
  rock__accelWgmmaProxyFence(g);
  WgDescs dv;
  int sl = stageOf(g, c, ul);
  rock__wgPVDescs(g, c, sl, &dv);
  int os0 = rock__accelWgmmaStruct(g, &c->acO, res[4]);
  ppTurn(g, c);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int os = rock__wgPV(g, c, &dv, res + 5, os0);
  ppHandOver(g, c, true);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
  int o = rock__accelWgmmaVector(g, &c->acO, os);
  /* (persist: the last V released too, its stage's round counts on into
   * the next tile; the one-tile kernel's producer is done by then) */
  if (c->persist)
    arrive(g, barAt(g, c, EMPTY_V, sl));
  rock__genLine(g,
                "scf.yield %%v%d, %%v%d, %%v%d, %%v%d, %%v%d : %s, f32, f32, "
                "f32, f32",
                o, res[0], res[1], res[2], res[3], vt);
}

/*===--- tile rounds (rock.gpu_wgmma_dynamic) -----------------------------===*/

/* The named barrier of the producer warpgroup (persist has no ping-pong,
 * whose barriers are 1 and 2). */
enum { PRODUCER_BAR = 1 };

/* Slot q % 2 of the tile rounds, as memref<2xi32> and its index. */
static int slotView(RockGen *g, WgCtx *c, int *at) {
  const char *mt = "memref<2xi32, #gpu.address_space<workgroup>>";
  int v = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", v, c->buf,
                rock__genIndex(g, c->slotOff), c->mBuf, mt);
  *at = c->qBuf >= 0 ? c->qBuf
                     : rock__genBin(g, "arith.remui", c->qRound,
                                    rock__genIndex(g, 2), "index");
  return v;
}

static int loadSlot(RockGen *g, int v, int at) {
  int t = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.load %%v%d[%%v%d] : memref<2xi32, "
                "#gpu.address_space<workgroup>>",
                t, v, at);
  return t;
}

int rock__wgRoundOpen(RockGen *g, WgCtx *c, bool producer, int f) {
  int at, v = slotView(g, c, &at);
  if (!producer) {
    waitPhase(g, qBar(g, c, false), qPhase(g, c));
    return loadSlot(g, v, at);
  }
  waitFree(g, qBar(g, c, true), qPhase(g, c));
  rock__genLine(g, "scf.if %%v%d {",
                rock__genBin(g, "arith.cmpi eq,", c->cpTx, rock__genIndex(g, 0),
                             "index"));
  g->depth++;
  rock__genLine(g,
                "memref.store %%v%d, %%v%d[%%v%d] : memref<2xi32, "
                "#gpu.address_space<workgroup>>",
                f, v, at);
  arrive(g, qBar(g, c, false));
  g->depth--;
  rock__genLine(g, "}");
  char id[8], lit[8];
  snprintf(id, sizeof id, "%d", PRODUCER_BAR);
  snprintf(lit, sizeof lit, "%d", WG_LANES);
  rock__genLine(g, "nvvm.barrier id = %%v%d number_of_threads = %%v%d",
                rock__genConst(g, id, "i32"), rock__genConst(g, lit, "i32"));
  return loadSlot(g, v, at);
}

void rock__wgRoundEnd(RockGen *g, WgCtx *c) {
  rock__genLine(g,
                "nvvm.cp.async.mbarrier.arrive %%v%d {noinc = true} : "
                "!llvm.ptr<3>",
                qBar(g, c, false));
}

void rock__wgRoundEmpty(RockGen *g, WgCtx *c) { arrive(g, qBar(g, c, true)); }

/* `%r = scf.if %cond -> (i32) {` (closed by fetchOr). */
static int openIfI32(RockGen *g, int cond) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = scf.if %%v%d -> (i32) {", r, cond);
  g->depth++;
  return r;
}

/* The fetched tile where `cond`, else `other` (i32 ids). */
static int fetchOr(RockGen *g, WgCtx *c, int cond, int other) {
  int r = openIfI32(g, cond);
  rock__genLine(g, "scf.yield %%v%d : i32", rock__wgDynFetch(g, c, c->gridWg));
  g->depth--;
  rock__genLine(g, "} else {");
  rock__genLine(g, "  scf.yield %%v%d : i32", other);
  rock__genLine(g, "}");
  return r;
}

int rock__wgProducerDyn(RockGen *g, WgCtx *c) {
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  int z = rock__genConst(g, "0", "i32");
  int any = rock__genBin(g, "arith.cmpi ult,", c->start, c->end, "index");
  rock__genLine(g, "scf.if %%v%d {", any);
  g->depth++;
  rock__wgStageQ(g, c);
  g->depth--;
  rock__genLine(g, "}");
  rock__wgRoundEnd(g, c);
  int r = openIfI32(g, rock__genBin(g, "arith.cmpi eq,", c->cpTx, c0, "index"));
  rock__wgTmaPrefetch(g, c);
  /* (the next tile fetched as this one's last key tile is issued, so the
   * atomic's latency overlaps the consumers' last two key tiles; at once
   * for a tile without key tiles) */
  int none = rock__genBin(g, "arith.cmpi uge,", c->start, c->end, "index");
  int f0 = fetchOr(g, c, none, z), t, acc;
  int f = rock__genForIter(g, c->start, c->end, c1, f0, "i32", &t, &acc);
  int u = tileU(g, c, t);
  int s = stageOf(g, c, u), n = roundOf(g, c, u);
  int j0;
  (void)rock__attnTileCols(g, c->a, t, &j0);
  int last =
      rock__genBin(g, "arith.cmpi eq,", t,
                   rock__genBin(g, "arith.subi", c->end, c1, "index"), "index");
  int fn = fetchOr(g, c, last, acc);
  copyTma(g, c, false, s, n, j0, NULL);
  copyTma(g, c, true, s, n, j0, NULL);
  rock__genYieldEnd(g, fn, "i32");
  rock__genLine(g, "scf.yield %%v%d : i32", f);
  g->depth--;
  rock__genLine(g, "} else {");
  rock__genLine(g, "  scf.yield %%v%d : i32", z);
  rock__genLine(g, "}");
  return r;
}
