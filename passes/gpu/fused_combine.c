/*===- fused_combine.c - the split's merge in the kernel ------------------===*
 *
 * fused_combine.h says what and why. A node's merge is lower_combine.c's
 * rule, laid out for one workgroup:
 *   - stats: the threads take (row, child) pairs, a row's children on
 *     consecutive lanes; M = max of the children's LSEs (NaN propagates,
 *     arith.maximumf) and L = sum of w_c = exp(lse_c - M) (ex2.approx of
 *     d·log2 e; a child at -inf has weight 0 and tag -1, never read) by xor
 *     shuffles over those lanes; tags, M and L go to workgroup memory, the
 *     node's LSE (M + ln L, -inf when M is) to its row;
 *   - outputs: each thread sums 4 columns of a row for 32 / F (row, column)
 *     chunks at a time (F the fan-in: 4 at 8, 2 at 16, 1 at 32, so 32
 *     partials a thread in flight), every child's partial loaded before any
 *     is added, in
 *     child order, a tag -1 dropped by a select; O = 0 for an all-empty row;
 *     a chunk past the rows is clamped to the last one (its store repeats
 *     that one's value), so no store is guarded and all loads of a pass
 *     stay ahead of the sums in the PTX.
 * The tree: level 0 holds the P splits (rows bq·P + s of the partials),
 * level l the ceil(n / F) nodes over level l - 1's n (P and F are powers of
 * two, planSplit's condition, so every node of a level has min(n, F)
 * children and a row's children fill an aligned lane group of a warp: F is
 * at most 32, a warp's lanes, and divides the workgroup's threads), the last
 * level one root
 * that writes out / lse. Inner nodes' partials are rows B·P + bq·U + o_l + j
 * (U of them per query row), their counters o_l + j of the KV group and row
 * block's. Workgroup memory (free by then): the arrival flag at 0, M and L
 * at 16, the tags [nb][F] after them.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/fused_combine.h"

#include <stdio.h>
#include <string.h>

enum {
  LOADS = 32, /* a thread's child partials loaded before the sums (the
                 chunks x the fan-in: registers stay bounded) */
  MAXCH = LOADS / ROCK_FUSED_FAN_MIN,
  MAXLV = 8
};

/* Chunks a thread at a time for fan-in `fan`: 4 at 8, 2 at 16, 1 at 32. */
static int chunksOf(int fan) { return LOADS / fan; }

typedef struct Level {
  int64_t n, off; /* nodes; first counter / inner row of the level */
} Level;

/* The levels for P splits under fan-in `fan` (lv[0] = the splits); returns
 * the top level. */
static int levels(int64_t P, int fan, Level *lv) {
  int top = 0;
  int64_t off = 0;
  lv[0] = (Level){P, 0};
  while (lv[top].n > 1 && top + 1 < MAXLV) {
    ++top;
    lv[top] = (Level){(lv[top - 1].n + fan - 1) / fan, off};
    off += lv[top].n;
  }
  return top;
}

void rock__gpuFusedTree(int64_t P, int fan, int64_t *cnt, int64_t *up) {
  Level lv[MAXLV];
  int top = levels(P, fan, lv);
  *cnt = lv[top].off + lv[top].n;
  *up = lv[top].off;
}

int64_t rock__gpuFusedBytes(int64_t nb, int fan) {
  return 16 + 8 * nb + 4 * nb * fan;
}

/* What one node's merge reads and writes. */
typedef struct Node {
  const Level *lv;
  int l, top;     /* its level, the root's */
  int node;       /* its index in the level (index id) */
  int64_t gc;     /* children */
  int fan;        /* the tree's fan-in (a->fusedFan) */
  int m, lsum, w; /* M [nb], L [nb], tags [nb][fan] (workgroup views) */
  char mm[96], mw[96];
} Node;

/* A view of the workgroup buffer at byte `off` as `mt`. */
static int smemView(RockGen *g, const RockFusedCtx *c, int64_t off,
                    const char *mt) {
  int v = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", v, c->smem,
                rock__genIndex(g, off), c->msmem, mt);
  return v;
}

static void membarGl(RockGen *g) {
  rock__genLine(g, "llvm.call_intrinsic \"llvm.nvvm.membar.gl\"() : () -> ()");
}

/* The partial row of item `j` (index id) of level `l` for query row bq:
 * a split's (rock__attnOutRow), or an inner node's after the B·P of them. */
static int itemRow(RockGen *g, const RockAttn *a, const Level *lv, int l,
                   int bq, int j) {
  if (l == 0)
    return rock__attnOutRow(g, a, bq, j);
  int64_t nCnt, U;
  rock__gpuFusedTree(a->S, a->fusedFan, &nCnt, &U);
  int64_t B = a->Bkv * a->R;
  int base = rock__genBin(g, "arith.muli", bq, rock__genIndex(g, U), "index");
  base = rock__genBin(g, "arith.addi", base,
                      rock__genIndex(g, B * a->S + lv[l].off), "index");
  return rock__genBin(g, "arith.addi", base, j, "index");
}

/* %v (f32, or f64 as two 32-bit halves) from lane ^ `off` (i32 id). */
static int shuffleXor(RockGen *g, int v, const char *ty, int off, int width) {
  int sh = rock__genFresh(g), ok = rock__genFresh(g);
  if (strcmp(ty, "f64")) {
    rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : %s",
                  sh, ok, v, off, width, ty);
    return sh;
  }
  int b = rock__genFresh(g), h[2];
  rock__genLine(g, "%%v%d = arith.bitcast %%v%d : f64 to i64", b, v);
  int c32 = rock__genConst(g, "32", "i64");
  int part[2] = {b, rock__genBin(g, "arith.shrui", b, c32, "i64")};
  for (int k = 0; k < 2; ++k) {
    int t = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.trunci %%v%d : i64 to i32", t, part[k]);
    int r = rock__genFresh(g), okk = rock__genFresh(g);
    rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : i32",
                  r, okk, t, off, width);
    h[k] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.extui %%v%d : i32 to i64", h[k], r);
  }
  int x = rock__genBin(g, "arith.ori", h[0],
                       rock__genBin(g, "arith.shli", h[1], c32, "i64"), "i64");
  rock__genLine(g, "%%v%d = arith.bitcast %%v%d : i64 to f64", sh, x);
  (void)ok;
  return sh;
}

/* `op` of %v (type `ty`) over aligned groups of `lanes` lanes of a warp. */
static int lanesReduce(RockGen *g, const RockFusedCtx *c, int v, int64_t lanes,
                       const char *op, const char *ty) {
  char w[16];
  snprintf(w, sizeof w, "%d", c->wave);
  int cw = rock__genConst(g, w, "i32");
  for (int64_t off = 1; off < lanes; off *= 2) {
    char o[24];
    snprintf(o, sizeof o, "%lld", (long long)off);
    int sh = shuffleXor(g, v, ty, rock__genConst(g, o, "i32"), cw);
    v = rock__genBin(g, op, v, sh, ty);
  }
  return v;
}

/* The merged rows a workgroup can hold: min(nb, Sq·R). */
static int64_t fusedRows(const RockAttn *a, const RockFusedCtx *c) {
  return a->Sq * a->R < c->nb ? a->Sq * a->R : c->nb;
}

/* -inf in f32 or f64 (`ty`). */
static const char *ninfOf(const char *ty) {
  return strcmp(ty, "f64") ? ROCK_NINF : "0xFFF0000000000000";
}

/* The node's LSE M + ln L of row (bq, i), -inf when M is: the root's into
 * a->fLse (when there is one; through f32, as the combine), an inner node's
 * into its partial row in the partials' type. */
static void storeLse(RockGen *g, const RockAttn *a, const Node *nd, int m,
                     int l, int empty, RockRowIdx x) {
  char ib[96], tl[32], lt[16];
  rock__typeStr(lt, sizeof lt, a->tl, 1);
  bool root = nd->l == nd->top;
  if (root && a->fLse < 0)
    return;
  int lg = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.call_intrinsic \"llvm.nvvm.lg2.approx.ftz.f\"("
                "%%v%d) : (f32) -> f32",
                lg, l);
  int lnl =
      rock__genConv(g,
                    rock__genBin(g, "arith.mulf", lg,
                                 rock__genConst(g, "0.69314718", "f32"), "f32"),
                    a->f32, a->tl, 1);
  int lse = rock__genBin(g, "arith.addf", m, lnl, lt);
  if (root) {
    lse = rock__genSelect(g, empty, rock__genConst(g, ROCK_NINF, "f32"),
                          rock__genConv(g, lse, a->tl, a->f32, 1), "f32");
    rock__typeStr(tl, sizeof tl, a->ftl, 1);
    rock__idx2(ib, sizeof ib, x.bq, x.i);
    rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s",
                  rock__genConv(g, lse, a->f32, a->ftl, 1), a->fLse, ib, tl,
                  a->fml);
    return;
  }
  lse = rock__genSelect(g, empty, rock__genConst(g, ninfOf(lt), lt), lse, lt);
  rock__idx2(ib, sizeof ib, itemRow(g, a, nd->lv, nd->l, x.bq, nd->node), x.i);
  rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lse, a->lse, ib,
                lt, a->ml);
}

/* Stats of the node's children: tags, M, L into workgroup memory. The
 * (row, child) pairs cover the rows a workgroup can hold (fusedRows):
 * pairs past them would only repeat loads and shuffles whose stores are
 * masked off (B 1 decode: 4 merged rows of nb = 16, one pass, not four). */
static void nodeStats(RockGen *g, const RockAttn *a, const RockFusedCtx *c,
                      const Node *nd) {
  int64_t gc = nd->gc, pairs = fusedRows(a, c) * gc;
  int K = (int)((pairs + c->nThreads - 1) / c->nThreads);
  int cg = rock__genIndex(g, gc), c1 = rock__genIndex(g, 1);
  char lt[16]; /* the partial LSEs' type: f64 (lower.c), M and lse - M in it */
  rock__typeStr(lt, sizeof lt, a->tl, 1);
  int ninf = rock__genConst(g, ninfOf(lt), lt);
  int zl = rock__genConst(g, "0.0", lt);
  int zf = rock__genConst(g, "0.0", "f32");
  int log2e = rock__genConst(g, "1.44269504", "f32");
  int skip = rock__genConst(g, "-1.0", "f32");
  int last = rock__genBin(g, "arith.subi", c->wg.nRows, c1, "index");
  int first = rock__genBin(g, "arith.muli", nd->node, cg, "index");
  for (int k = 0; k < K; ++k) {
    int e = rock__genBin(g, "arith.addi", c->tx,
                         rock__genIndex(g, (int64_t)k * c->nThreads), "index");
    int n = rock__genBin(g, "arith.divui", e, cg, "index");
    int ch = rock__genBin(g, "arith.remui", e, cg, "index");
    int valid = rock__genBin(g, "arith.cmpi ult,", n, c->wg.nRows, "index");
    int nc = rock__genBin(g, "arith.minui", n, last, "index");
    RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, nc, c->wg.bq0, c->cR);
    char ib[96];
    rock__idx2(ib, sizeof ib,
               itemRow(g, a, nd->lv, nd->l - 1, x.bq,
                       rock__genBin(g, "arith.addi", first, ch, "index")),
               x.i);
    int xv = rock__genFresh(g);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", xv, a->lse,
                  ib, a->ml, lt);
    int m = lanesReduce(g, c, xv, gc, "arith.maximumf", lt);
    int empty = rock__genBin(g, "arith.cmpf oeq,", m, ninf, lt);
    int ms = rock__genSelect(g, empty, zl, m, lt);
    int ok = rock__genBin(g, "arith.cmpf une,", xv, ninf, lt);
    int dl = rock__genConv(g, rock__genBin(g, "arith.subf", xv, ms, lt), a->tl,
                           a->f32, 1);
    int ex = rock__genFresh(g);
    rock__genLine(
        g,
        "%%v%d = llvm.call_intrinsic \"llvm.nvvm.ex2.approx.ftz.f\"(%%v%d) : "
        "(f32) -> f32",
        ex, rock__genBin(g, "arith.mulf", dl, log2e, "f32"));
    int ws = rock__genSelect(g, ok, ex, zf, "f32");
    int tag = rock__genSelect(g, ok, ws, skip, "f32");
    int l = lanesReduce(g, c, ws, gc, "arith.addf", "f32");
    rock__genLine(g, "scf.if %%v%d {", valid);
    g->depth++;
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", tag, nd->w,
                  n, ch, nd->mw);
    rock__genLine(
        g, "scf.if %%v%d {",
        rock__genBin(g, "arith.cmpi eq,", ch, rock__genIndex(g, 0), "index"));
    g->depth++;
    /* (M through f32: only whether it is -inf is read back) */
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s",
                  rock__genConv(g, m, a->tl, a->f32, 1), nd->m, n, nd->mm);
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", l, nd->lsum, n,
                  nd->mm);
    storeLse(g, a, nd, m, l, empty, x);
    g->depth--;
    rock__genLine(g, "}");
    g->depth--;
    rock__genLine(g, "}");
  }
}

/* O of the node: chunksOf(fan) (row, 4-column) chunks a thread at a time. */
static void nodeOutputs(RockGen *g, const RockAttn *a, const RockFusedCtx *c,
                        const Node *nd) {
  int64_t q = a->Dv / 4;
  int cq = rock__genIndex(g, q), c1 = rock__genIndex(g, 1);
  int zf = rock__genConst(g, "0.0", "f32");
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zv = rock__genZero(g, "f32", 4);
  int total = rock__genBin(g, "arith.muli", c->wg.nRows, cq, "index");
  int lastE = rock__genBin(g, "arith.subi", total, c1, "index");
  int first = rock__genBin(g, "arith.muli", nd->node, rock__genIndex(g, nd->gc),
                           "index");
  /* No loop where one pass covers the rows a workgroup can hold. */
  int chunks = chunksOf(nd->fan);
  bool once = fusedRows(a, c) * q <= (int64_t)c->nThreads * chunks;
  int e0 = once
               ? c->tx
               : rock__genFor(g, c->tx, total,
                              rock__genIndex(g, (int64_t)c->nThreads * chunks));
  int n[MAXCH], d[MAXCH], p[MAXCH][ROCK_FUSED_FAN_MAX],
      t[MAXCH][ROCK_FUSED_FAN_MAX];
  RockRowIdx x[MAXCH];
  char ib[128];
  for (int u = 0; u < chunks; ++u) {
    int e = rock__genBin(g, "arith.addi", e0,
                         rock__genIndex(g, (int64_t)u * c->nThreads), "index");
    e = rock__genBin(g, "arith.minui", e, lastE, "index");
    n[u] = rock__genBin(g, "arith.divui", e, cq, "index");
    d[u] = rock__genBin(g, "arith.muli",
                        rock__genBin(g, "arith.remui", e, cq, "index"),
                        rock__genIndex(g, 4), "index");
    x[u] = rock__attnRowIdx(g, c->wg.n0, n[u], c->wg.bq0, c->cR);
    for (int k = 0; k < nd->gc; ++k) {
      int ch = rock__genIndex(g, k);
      t[u][k] = rock__genFresh(g);
      rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d, %%v%d] : %s", t[u][k],
                    nd->w, n[u], ch, nd->mw);
      rock__idx3(ib, sizeof ib,
                 itemRow(g, a, nd->lv, nd->l - 1, x[u].bq,
                         rock__genBin(g, "arith.addi", first, ch, "index")),
                 x[u].i, d[u]);
      p[u][k] = rock__genFresh(g);
      rock__genLine(g,
                    "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} "
                    ": %s -> vector<4xf32>",
                    p[u][k], a->out, ib, a->mo);
    }
  }
  for (int u = 0; u < chunks; ++u) {
    int acc = zv;
    for (int k = 0; k < nd->gc; ++k) {
      int ok = rock__genBin(g, "arith.cmpf uge,", t[u][k], zf, "f32");
      int sum = rock__genBin(g, "arith.addf", acc,
                             rock__genBin(g, "arith.mulf",
                                          rock__genBcast(g, t[u][k], 4, "f32"),
                                          p[u][k], "vector<4xf32>"),
                             "vector<4xf32>");
      acc = rock__genSelect(g, ok, sum, acc, "vector<4xf32>");
    }
    int lv = rock__genFresh(g), mv = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", lv, nd->lsum,
                  n[u], nd->mm);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", mv, nd->m, n[u],
                  nd->mm);
    int empty = rock__genBin(g, "arith.cmpf oeq,", mv, ninf, "f32");
    int o = rock__genBin(g, "arith.divf", acc, rock__genBcast(g, lv, 4, "f32"),
                         "vector<4xf32>");
    o = rock__genSelect(g, empty, zv, o, "vector<4xf32>");
    /* Unguarded: a chunk past the rows was clamped to the last one, so it
     * stores the same value at the same address. A guard would split the
     * block, and LLVM (instcombine) then sinks a chunk's loads to their
     * uses, one L2 round trip after the other. */
    if (nd->l == nd->top) {
      char to[32];
      rock__typeStr(to, sizeof to, a->fto, 4);
      rock__idx3(ib, sizeof ib, x[u].bq, x[u].i, d[u]);
      rock__genLine(g,
                    "rock.view_store %%v%d, %%v%d[%s] {rock.align = %u : "
                    "i64} : %s, %s",
                    rock__genConv(g, o, a->f32, a->fto, 4), a->fOut, ib,
                    4 * ((rock__bitWidth(a->fto) + 7) / 8), to, a->fmo);
    } else {
      rock__idx3(ib, sizeof ib, itemRow(g, a, nd->lv, nd->l, x[u].bq, nd->node),
                 x[u].i, d[u]);
      rock__genLine(g,
                    "rock.view_store %%v%d, %%v%d[%s] {rock.align = 16 : i64} "
                    ": vector<4xf32>, %s",
                    o, a->out, ib, a->mo);
    }
  }
  if (!once)
    rock__genEnd(g);
}

/* The arrival of item `j` (index id) of level l - 1 at its node of level l
 * and, in the workgroup that completes the node, its merge and the next
 * level's arrival. */
static void arrive(RockGen *g, const RockAttn *a, const RockFusedCtx *c,
                   Node *nd, int l, int j, int flag, int cbase) {
  const char *mf = "memref<1xi32, #gpu.address_space<workgroup>>";
  int c0 = rock__genIndex(g, 0);
  nd->l = l;
  nd->gc = nd->lv[l - 1].n < nd->fan ? nd->lv[l - 1].n : nd->fan;
  nd->node =
      rock__genBin(g, "arith.divui", j, rock__genIndex(g, nd->fan), "index");
  int ci = rock__genBin(g, "arith.addi", cbase,
                        rock__genBin(g, "arith.addi",
                                     rock__genIndex(g, nd->lv[l].off), nd->node,
                                     "index"),
                        "index");
  int isT0 = rock__genBin(g, "arith.cmpi eq,", c->tx, c0, "index");
  rock__genLine(g, "scf.if %%v%d {", isT0);
  int old = rock__genFresh(g);
  rock__genLine(g,
                "  %%v%d = memref.atomic_rmw addi %%v%d, %%v%d[%%v%d] : (i32, "
                "%s) -> i32",
                old, rock__genConst(g, "1", "i32"), a->cnt, ci, a->mcnt);
  rock__genLine(g, "  memref.store %%v%d, %%v%d[%%v%d] : %s", old, flag, c0,
                mf);
  rock__genLine(g, "}");
  rock__genLine(g, "gpu.barrier");
  int seen = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", seen, flag, c0, mf);
  char pl[24];
  snprintf(pl, sizeof pl, "%lld", (long long)(nd->gc - 1));
  int done = rock__genBin(g, "arith.cmpi eq,", seen,
                          rock__genConst(g, pl, "i32"), "i32");
  rock__genLine(g, "scf.if %%v%d {", done);
  g->depth++;
  membarGl(g);
  nodeStats(g, a, c, nd);
  rock__genLine(g, "gpu.barrier");
  nodeOutputs(g, a, c, nd);
  rock__genLine(g, "scf.if %%v%d {", isT0);
  rock__genLine(g, "  memref.store %%v%d, %%v%d[%%v%d] : %s",
                rock__genConst(g, "0", "i32"), a->cnt, ci, a->mcnt);
  rock__genLine(g, "}");
  if (l < nd->top) {
    /* This node's partial visible, its workgroup memory free again. */
    membarGl(g);
    rock__genLine(g, "gpu.barrier");
    int node = nd->node;
    arrive(g, a, c, nd, l + 1, node, flag, cbase);
  }
  g->depth--;
  rock__genLine(g, "}");
}

void rock__gpuFusedCombine(RockGen *g, const RockAttn *a,
                           const RockFusedCtx *c) {
  const char *ws = "#gpu.address_space<workgroup>";
  Level lv[MAXLV];
  Node nd;
  memset(&nd, 0, sizeof nd);
  nd.lv = lv;
  nd.fan = a->fusedFan;
  nd.top = levels(a->S, nd.fan, lv);
  snprintf(nd.mm, sizeof nd.mm, "memref<%dxf32, %s>", c->nb, ws);
  snprintf(nd.mw, sizeof nd.mw, "memref<%dx%dxf32, %s>", c->nb, nd.fan, ws);
  /* This workgroup's partials visible GPU-wide (after any cp.async still in
   * flight into the buffer: an empty split stages a first K tile it never
   * waits for), then its arrival at level 1. */
  rock__genLine(g, "nvvm.cp.async.wait.group 0");
  membarGl(g);
  rock__genLine(g, "gpu.barrier");
  int flag = smemView(g, c, 0, "memref<1xi32, #gpu.address_space<workgroup>>");
  nd.m = smemView(g, c, 16, nd.mm);
  nd.lsum = smemView(g, c, 16 + 4 * (int64_t)c->nb, nd.mm);
  nd.w = smemView(g, c, 16 + 8 * (int64_t)c->nb, nd.mw);
  int64_t nCnt, up;
  rock__gpuFusedTree(a->S, a->fusedFan, &nCnt, &up);
  int cbase = rock__genBin(
      g, "arith.muli",
      rock__genBin(g, "arith.addi",
                   rock__genBin(g, "arith.muli", c->wg.gBlk,
                                rock__genIndex(g, a->nNBlk), "index"),
                   c->wg.nBlk, "index"),
      rock__genIndex(g, nCnt), "index");
  arrive(g, a, c, &nd, 1, c->wg.split, flag, cbase);
}
