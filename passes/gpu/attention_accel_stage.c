/*===- attention_accel_stage.c - K / V staging of the tensor-core schedule ===*
 *
 * The cooperative copies of the tensor-core attention schedule
 * (attention_accel.h): K rows or K^T and V tiles into workgroup memory,
 * through registers or as 16-byte stores marked rock.async_copy
 * (rock-gpu-async-copy makes them cp.async); the tile that follows the
 * current one in the two-buffer staging and the overlap, K^T pairs, the
 * ring of s->st slots, page runs (page_runs.h) and the L2 prefetch.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_accel.h"

#include <stdio.h>

/* Where chunk (r, d) of a [rows][pitch] tile goes: [r, swizzled d], or
 * with `wgl` the wgmma layout's element offset (rock__accelWgmmaIndex) as
 * [offset / pitch, offset % pitch] of the same contiguous tile. */
void rock__tcChunkAt(RockGen *g, bool swz, bool wgl, int rows, int64_t pitch,
                     int r, int d, int *i0, int *i1) {
  if (!wgl) {
    *i0 = r, *i1 = rock__accelSwizzle(g, swz, r, d);
    return;
  }
  int o = rock__accelWgmmaIndex(g, rows, r, d), cp = rock__genIndex(g, pitch);
  *i0 = rock__genBin(g, "arith.divui", o, cp, "index");
  *i1 = rock__genBin(g, "arith.remui", o, cp, "index");
}

/* Row r and element column d of chunk i of a [rows][nch·vec] tile copied by
 * consecutive threads: row-major (i = r·nch + c), or with `wgl` 8 rows at a
 * time (i = (r / 8·nch + c)·8 + r % 8), so that the 8 threads of a 16-byte
 * store phase write 8 rows of one core matrix (128 contiguous bytes, no
 * bank conflict in the wgmma layout) and a warp still reads 64 contiguous
 * bytes of each row. */
void rock__tcRowChunk(RockGen *g, bool wgl, int i, int nch, int vec, int *r,
                      int *d) {
  int cn = rock__genIndex(g, nch), c8 = rock__genIndex(g, 8);
  int q = wgl ? rock__genBin(g, "arith.divui", i, c8, "index") : i;
  int c = rock__genBin(g, "arith.remui", q, cn, "index");
  *r = rock__genBin(g, "arith.divui", q, cn, "index");
  if (wgl)
    *r = rock__genBin(g, "arith.addi",
                      rock__genBin(g, "arith.muli", *r, c8, "index"),
                      rock__genBin(g, "arith.remui", i, c8, "index"), "index");
  *d = rock__genBin(g, "arith.muli", c, rock__genIndex(g, vec), "index");
}

/* Whether a cooperative copy of `total` chunks by `nThreads` threads is
 * unrolled (all loads issued before any store) or a loop: plain loads are
 * unrolled when the threads divide the chunks, so that they are all in
 * flight; cp.async copies of contiguous K / V do not wait, and each
 * unrolled one keeps its address live across the key loop, so more than
 * UNROLL_ASYNC a thread (decode: one warp copies 32 chunks of a 64-key
 * tile) are a loop (unrolled: 241-255 registers and up to 520 bytes of
 * spills for d 128; as a loop 224-237, none, and as fast on the H200). A
 * paged copy stays unrolled: each cp.async waits for its page pointer, which
 * the unrolled copies of a page share and load up front; in a loop every
 * copy waited for its own (B 8 L 32k decode, pages of 16 tokens: 369 µs,
 * against 284 unrolled with the split of the time; bench/RESULTS-gpu.md).
 * In the ring (s->st) contiguous cp.async copies are always a loop: its
 * smaller tiles leave 4-8 copies a thread, unrolled 244-255 registers for
 * multi-token decode (q 8 / 16), as a loop no more than without the ring. */
static bool unrolled(const RockAttn *a, const AccSched *s, int64_t total,
                     int nThreads, bool async) {
  return total % nThreads == 0 &&
         (!async || a->kvPaged || (!s->st && total / nThreads <= UNROLL_ASYNC));
}

/* The chunk index of copy `rep` of a cooperative copy of `total` chunks:
 * tx + rep·nThreads unrolled (`flat`), else a loop over them (closed by
 * the caller). */
static int copyChunk(AccGen *c, bool flat, int rep, int64_t total) {
  RockGen *g = c->g;
  return flat ? rock__genBin(g, "arith.addi", c->ktx,
                             rock__genIndex(g, (int64_t)rep * c->kThreads),
                             "index")
              : rock__genFor(g, c->ktx, rock__genIndex(g, total),
                             rock__genIndex(g, c->kThreads));
}

/* One 16-byte chunk (`ty`) of `view` at [ib]: its rock.view_load. */
int rock__tcLoadChunk(RockGen *g, int view, const char *ib, const char *mt,
                      const char *ty) {
  int v = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                "%s -> %s",
                v, view, ib, mt, ty);
  return v;
}

/* Chunk `v` (`ty`) stored at [i0, i1] of `sm` (marked rock.async_copy with
 * `async`). */
void rock__tcStoreChunk(RockGen *g, int v, int sm, const char *smt,
                        const char *ty, int i0, int i1, bool async) {
  rock__genLine(g,
                "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16%s} "
                ": %s, %s",
                v, sm, i0, i1, async ? ", rock.async_copy" : "", smt, ty);
}

/* Cooperative copy of `rows` x `nch` 16-byte chunks of `view` (rows from key
 * j0, clamped to Sk - 1), `vec` elements each, into `sm` [rows][nch·vec]
 * (chunks placed by rock__tcChunkAt with `swz`, `wgl`); with `async`, the
 * stores are marked for rock-gpu-async-copy. */
void rock__tcStageKeys(AccGen *c, int view, const char *mt, MlirType elt,
                       int vec, int j0, int nch, int sm, const char *smt,
                       bool swz, bool wgl, bool async) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  int64_t total = (int64_t)s->mb * nch;
  bool flat = unrolled(a, s, total, c->kThreads, async);
  int reps = flat ? (int)(total / c->kThreads) : 1;
  for (int rep = 0; rep < reps; ++rep) {
    int i = copyChunk(c, flat, rep, total);
    int jr, d;
    rock__tcRowChunk(g, wgl, i, nch, vec, &jr, &d);
    int j = rock__genBin(g, "arith.minui",
                         rock__genBin(g, "arith.addi", j0, jr, "index"),
                         rock__genIndex(g, a->Sk - 1), "index");
    char ib[128], ty[32];
    rock__idx3(ib, sizeof ib, c->wg.gBlk, j, d);
    rock__typeStr(ty, sizeof ty, elt, vec);
    int v = rock__tcLoadChunk(g, view, ib, mt, ty);
    int i0, i1;
    rock__tcChunkAt(g, swz, wgl, s->mb, (int64_t)nch * vec, jr, d, &i0, &i1);
    rock__tcStoreChunk(g, v, sm, smt, ty, i0, i1, async);
    if (!flat)
      rock__genEnd(g);
  }
}

/* Cooperative copy of K^T for the tile from key j0: Dqk rows of MB keys
 * from the key-major view c->ktv ([Bkv][Dqk][Sk], a->Sk % VEC == 0), one
 * 16-byte load of VEC consecutive keys per chunk (8 threads read the 128
 * contiguous bytes of one d), into `sm` [Dqk][pk] (chunks swizzled by row
 * with s->swzK). Chunks past the last key re-read the last whole chunk: those
 * keys are masked. */
static void stageKeysT(AccGen *c, int j0, int sm, const char *smt, bool async) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  int nch = s->mb / VEC;
  int64_t total = a->Dqk * nch;
  bool flat = unrolled(a, s, total, c->kThreads, async);
  int reps = flat ? (int)(total / c->kThreads) : 1;
  char ty[32], ib[128];
  rock__typeStr(ty, sizeof ty, a->tk, VEC);
  for (int rep = 0; rep < reps; ++rep) {
    int i = copyChunk(c, flat, rep, total);
    int d, ch;
    rock__tcRowChunk(g, false, i, nch, VEC, &d, &ch);
    int j = rock__genBin(g, "arith.minui",
                         rock__genBin(g, "arith.addi", j0, ch, "index"),
                         rock__genIndex(g, a->Sk - VEC), "index");
    rock__idx3(ib, sizeof ib, c->wg.gBlk, d, j);
    int v = rock__tcLoadChunk(g, c->ktv, ib, c->mkt, ty);
    int i0, i1;
    rock__tcChunkAt(g, s->swzK, false, (int)a->Dqk, s->pk, d, ch, &i0, &i1);
    rock__tcStoreChunk(g, v, sm, smt, ty, i0, i1, async);
    if (!flat)
      rock__genEnd(g);
  }
}

/* The K tile from key j0 into `sm`: rows of K, or K^T from c->ktv (s->kT). */
void rock__tcStageK(AccGen *c, int j0, int sm, const char *smt, bool async) {
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  if (s->kT)
    stageKeysT(c, j0, sm, smt, async);
  else
    rock__tcStageKeys(c, a->k, a->mk, a->tk, s->vecQK, j0, s->nchq, sm, smt,
                      s->swzK, s->wgS, async);
}

/* L2 prefetch of a rows x cols block at [gBlk, r0 + r, c0 + c] of `view`
 * (row and column clamped to rowMax / colMax), one rock.view_prefetch
 * (locality 1: L2) per 128-byte line of a row: thread tx takes line
 * tx % lpr of rows tx / lpr, + nThreads / lpr, ... (nThreads % lpr == 0). */
static void prefetchLines(RockGen *g, int tx, int nThreads, int view,
                          const char *mt, int gBlk, int r0, int64_t rows,
                          int64_t rowMax, int c0, int64_t cols, int64_t colMax,
                          int64_t eltBytes) {
  int64_t perLine = LINE / eltBytes;
  int64_t lpr = (cols + perLine - 1) / perLine;
  if (nThreads % lpr)
    return; /* (every schedule here has lpr | threads) */
  int cl = rock__genIndex(g, lpr);
  int c = rock__genBin(
      g, "arith.minui",
      rock__genBin(g, "arith.addi", c0,
                   rock__genBin(g, "arith.muli",
                                rock__genBin(g, "arith.remui", tx, cl, "index"),
                                rock__genIndex(g, perLine), "index"),
                   "index"),
      rock__genIndex(g, colMax), "index");
  int rr =
      rock__genFor(g, rock__genBin(g, "arith.divui", tx, cl, "index"),
                   rock__genIndex(g, rows), rock__genIndex(g, nThreads / lpr));
  int r = rock__genBin(g, "arith.minui",
                       rock__genBin(g, "arith.addi", r0, rr, "index"),
                       rock__genIndex(g, rowMax), "index");
  char ib[128];
  rock__idx3(ib, sizeof ib, gBlk, r, c);
  rock__genLine(g, "rock.view_prefetch %%v%d[%s] {locality = 1 : i32} : %s",
                view, ib, mt);
  rock__genEnd(g);
}

/* The K and V lines of key tile kp (when kp < end) into L2 (s->l2Ahead). */
void rock__tcPrefetchTile(AccGen *c, int kp) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  int tx = c->ktx, nThreads = c->kThreads, gBlk = c->wg.gBlk;
  int more = rock__genBin(g, "arith.cmpi ult,", kp, c->end, "index");
  rock__genLine(g, "scf.if %%v%d {", more);
  g->depth++;
  int j0;
  (void)rock__attnTileCols(g, a, kp, &j0);
  int64_t eb = 16 / s->vecQK;
  int c0 = rock__genIndex(g, 0);
  if (s->kT)
    prefetchLines(g, tx, nThreads, c->ktv, c->mkt, gBlk, c0, a->Dqk, a->Dqk - 1,
                  j0, s->mb, a->Sk - 1, eb);
  else
    prefetchLines(g, tx, nThreads, a->k, a->mk, gBlk, j0, s->mb, a->Sk - 1, c0,
                  a->Dqk, a->Dqk - 1, eb);
  prefetchLines(g, tx, nThreads, a->v, a->mv, gBlk, j0, s->mb, a->Sk - 1, c0,
                a->Dv, a->Dv - 1, 2);
  g->depth--;
  rock__genLine(g, "}");
}

/* The run pointers of V's (v) or K's tile kt into ptrs, kt clamped to the
 * last tile (a tile past the end loads pointers it never uses). */
void rock__tcPagePtrs(AccGen *c, bool v, int kt, int *ptrs) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  const PageAhead *pa = &c->ahead;
  int kc = rock__genBin(g, "arith.minui", kt,
                        rock__genIndex(g, c->a->Sk / s->mb - 1), "index");
  int j0 = rock__genBin(g, "arith.muli", kc, rock__genIndex(g, s->mb), "index");
  rock__gpuPagePtrs(g, v ? &s->plV : &s->plK, v ? pa->pv : pa->pk,
                    v ? pa->mv : pa->mk, c->wg.gBlk, j0, ptrs);
}

/* V's (v) or K's tile into `sm` from the run pointers `ptrs`. */
void rock__tcPageStage(AccGen *c, bool v, const int *ptrs, int sm,
                       const char *smt) {
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  if (v)
    rock__gpuPageStage(c->g, &s->pvV, &s->plV, ptrs, c->ktx, c->kThreads,
                       s->nchv, VEC, a->tv, sm, smt, s->swzV);
  else
    rock__gpuPageStage(c->g, &s->pvK, &s->plK, ptrs, c->ktx, c->kThreads,
                       s->nchq, s->vecQK, a->tk, sm, smt, s->swzK);
}

/* V's tile kt staged by cp.async into c->sV (not committed): from the run
 * pointers `ptrs` with page runs, else through the view. */
void rock__tcStageV(AccGen *c, int kt, const int *ptrs) {
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  if (s->pgV) {
    rock__tcPageStage(c, true, ptrs, c->sV, c->mV);
    return;
  }
  int j0;
  (void)rock__attnTileCols(c->g, a, kt, &j0);
  rock__tcStageKeys(c, a->v, a->mv, a->tv, VEC, j0, s->nchv, c->sV, c->mV,
                    s->swzV, false, true);
}

/* K pairs (s->kPair): K^T of tile kt into c->sK0 and, when kt + 1 < end, of
 * tile kt + 1 into c->sK1 (not committed). */
static void pairStage(AccGen *c, int kt) {
  RockGen *g = c->g;
  for (int h = 0; h < 2; ++h) {
    int kh = rock__genBin(g, "arith.addi", kt, rock__genIndex(g, h), "index");
    if (h) {
      rock__genLine(g, "scf.if %%v%d {",
                    rock__genBin(g, "arith.cmpi ult,", kh, c->end, "index"));
      g->depth++;
    }
    int j0;
    (void)rock__attnTileCols(g, c->a, kh, &j0);
    rock__tcStageK(c, j0, h ? c->sK1 : c->sK0, c->mK, true);
    if (h) {
      g->depth--;
      rock__genLine(g, "}");
    }
  }
}

/* The K tile c->start staged by cp.async into c->sK (with s->kPair tile
 * start + 1 too into c->sK1; committed; with s->ovl, V's tile too, a second
 * group), and the K / V lines of tiles start + 1 .. start + l2Ahead - 1
 * prefetched to L2 (the key loop prefetches tile t + l2Ahead at tile t). */
static void firstTile(AccGen *c) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int start = c->start;
  int j0;
  (void)rock__attnTileCols(g, c->a, start, &j0);
  if (s->kPair) {
    pairStage(c, start);
  } else if (s->pgK) {
    int kp[ROCK_PAGE_MAX_RUNS];
    rock__tcPagePtrs(c, false, start, kp);
    rock__tcPageStage(c, false, kp, c->sK, c->mK);
  } else {
    rock__tcStageK(c, j0, c->sK, c->mK, true);
  }
  rock__genLine(g, "nvvm.cp.async.commit.group");
  if (s->ovl) {
    int vp[ROCK_PAGE_MAX_RUNS];
    if (s->pgV)
      rock__tcPagePtrs(c, true, start, vp);
    rock__tcStageV(c, start, vp);
    rock__genLine(g, "nvvm.cp.async.commit.group");
  }
  for (int d = 1; d < s->l2Ahead; ++d)
    rock__tcPrefetchTile(
        c, rock__genBin(g, "arith.addi", start, rock__genIndex(g, d), "index"));
}

/* K's tile kt + 1 staged by cp.async into slot `sK` when `more` and
 * committed (with s->ovl unconditionally, so that every tile commits two
 * groups), from the run pointers of the loop state with page runs, whose
 * successors (tile kt + 2) go to its next state; with s->kPair tiles kt + 1
 * and kt + 2 (before end) into slots c->sK0, c->sK1. */
void rock__tcNextK(AccGen *c, int more, int sK) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  int kt = c->kt;
  rock__genLine(g, "scf.if %%v%d {", more);
  g->depth++;
  int kn = rock__tcAhead(c, kt, 1);
  if (s->kPair) {
    pairStage(c, kn);
  } else if (s->pgK) {
    rock__tcPageStage(c, false, c->args + c->pgK0, sK, c->mK);
  } else {
    int jn;
    (void)rock__attnTileCols(g, c->a, kn, &jn);
    rock__tcStageK(c, jn, sK, c->mK, true);
  }
  if (!s->ovl)
    rock__genLine(g, "nvvm.cp.async.commit.group");
  g->depth--;
  rock__genLine(g, "}");
  if (s->ovl)
    rock__genLine(g, "nvvm.cp.async.commit.group");
  if (s->pgK)
    rock__tcPagePtrs(c, false, rock__tcAhead(c, kt, 2), c->next + c->pgK0);
}

int rock__tcAhead(AccGen *c, int kt, int n) {
  int kw = c->s->kw > 1 ? c->s->kw : 1;
  return rock__genBin(c->g, "arith.addi", kt, rock__genIndex(c->g, n * kw),
                      "index");
}

int rock__tcSlotView(AccGen *c, const char *ty, int64_t off, int64_t step,
                     int slot) {
  RockGen *g = c->g;
  int b = rock__genBin(
      g, "arith.addi", rock__genIndex(g, off),
      rock__genBin(g, "arith.muli", slot, rock__genIndex(g, step), "index"),
      "index");
  int v = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", v, c->sB, b,
                c->mB, ty);
  return v;
}

/* The ring (s->st): the views of slot `slot` (an index value) as K into *k
 * and V into *v. */
static void ringSlot(AccGen *c, int slot, int *k, int *v) {
  *k = rock__tcSlotView(c, c->mK, c->s->kOff, c->s->kStage, slot);
  *v = rock__tcSlotView(c, c->mV, c->s->vOff, c->s->vStage, slot);
}

/* K^T pairs (s->kPair): the view of K slot `slot` (an index value). */
int rock__tcKSlot(AccGen *c, int slot) {
  return rock__tcSlotView(c, c->mK, c->s->kOff, c->s->kStage, slot);
}

/* The slot of key tile kt in a ring of n: (kt - start) mod n. */
int rock__tcRingIndex(RockGen *g, int n, int kt, int start) {
  return rock__genBin(g, "arith.remui",
                      rock__genBin(g, "arith.subi", kt, start, "index"),
                      rock__genIndex(g, n), "index");
}

/* The ring: K and V of key tile kt staged by cp.async into its slot when kt
 * < end, then one commit (unconditional: every tile commits one group, so
 * that wait.group st - 2 means tile t has landed). */
static void ringStage(AccGen *c, int kt) {
  RockGen *g = c->g;
  const RockAttn *a = c->a;
  const AccSched *s = c->s;
  int more = rock__genBin(g, "arith.cmpi ult,", kt, c->end, "index");
  rock__genLine(g, "scf.if %%v%d {", more);
  g->depth++;
  int k, v, j0;
  ringSlot(c, rock__tcRingIndex(g, s->st, kt, c->start), &k, &v);
  (void)rock__attnTileCols(g, a, kt, &j0);
  rock__tcStageK(c, j0, k, c->mK, true);
  rock__tcStageKeys(c, a->v, a->mv, a->tv, VEC, j0, s->nchv, v, c->mV, s->swzV,
                    false, true);
  g->depth--;
  rock__genLine(g, "}");
  rock__genLine(g, "nvvm.cp.async.commit.group");
}

/* The first K tile in flight: the ring's first st - 1 tiles (start ..
 * start + st - 2), else firstTile. */
void rock__tcKeyPrologue(AccGen *c) {
  if (!c->s->st) {
    firstTile(c);
    return;
  }
  for (int i = 0; i + 1 < c->s->st; ++i)
    ringStage(c, rock__genBin(c->g, "arith.addi", c->start,
                              rock__genIndex(c->g, i), "index"));
}

/* The ring at the top of tile kt: wait for tile kt (st - 2 newer groups may
 * be in flight), barrier (every warp is past tile kt - 1, whose slot is
 * free), tile kt + st - 1 issued into it; c->sK, c->sV: tile kt's slot. */
void rock__tcRingTop(AccGen *c) {
  RockGen *g = c->g;
  const AccSched *s = c->s;
  rock__genLine(g, "nvvm.cp.async.wait.group %d", s->st - 2);
  rock__genLine(g, "gpu.barrier");
  ringStage(c, rock__genBin(g, "arith.addi", c->kt,
                            rock__genIndex(g, s->st - 1), "index"));
  ringSlot(c, rock__tcRingIndex(g, s->st, c->kt, c->start), &c->sK, &c->sV);
}
