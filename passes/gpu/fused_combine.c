/*===- fused_combine.c - the split's merge in the last workgroup ----------===*
 *
 * fused_combine.h says what and why. The merge is lower_combine.c's rule,
 * laid out for one workgroup instead of one workgroup per row:
 *   - per merged row of the block, each warp reads the P partial LSEs with
 *     its lanes over the splits (all loads in flight), takes M = max (NaN
 *     propagates, arith.maximumf) and the weights w_s = exp(lse_s - M)
 *     (ex2.approx of d·log2 e; -1, never read, for an empty split: -inf),
 *     L = sum w_s by xor shuffles; warp 0 keeps M, L and the weights in
 *     workgroup memory and writes the LSE (M + ln L, -inf when M is);
 *   - every thread then takes 4 columns of a row at a time: O = sum_s w_s
 *     O_s / L in split order, 8 partials loaded before they are summed, a
 *     split with weight -1 dropped by a select, O = 0 for an all-empty row.
 * Workgroup memory (free by then): the arrival flag at 0, M and L at 16, the
 * weights [nb][P] after them.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/fused_combine.h"

#include <stdio.h>
#include <string.h>

enum { UNROLL = 8 };

int64_t rock__gpuFusedBytes(int64_t nb, int64_t P) {
  return 16 + 8 * nb + 4 * nb * P;
}

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

/* `op` (arith.maximumf / arith.addf) of f32 %v over the lanes of a warp. */
static int warpReduce(RockGen *g, const RockFusedCtx *c, int v,
                      const char *op) {
  char w[16];
  snprintf(w, sizeof w, "%d", c->wave);
  int cw = rock__genConst(g, w, "i32");
  for (int off = 1; off < c->wave; off *= 2) {
    char o[16];
    snprintf(o, sizeof o, "%d", off);
    int co = rock__genConst(g, o, "i32");
    int sh = rock__genFresh(g), ok = rock__genFresh(g);
    rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : f32",
                  sh, ok, v, co, cw);
    v = rock__genBin(g, op, v, sh, "f32");
  }
  return v;
}

/* The smem views of one merge. */
typedef struct Views {
  int m, l, w; /* M [nb], L [nb], weights [nb][P] (f32, workgroup) */
  char mm[96], mw[96];
} Views;

/* Phase 1, per real row n of the block: M, L and the weights into `vw`
 * (warp 0), and the LSE into a->fLse. */
static void rowStats(RockGen *g, const RockAttn *a, const RockFusedCtx *c,
                     const Views *vw) {
  int64_t P = a->S;
  int K = (int)((P + c->wave - 1) / c->wave);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  int cw = rock__genIndex(g, c->wave);
  int lane = rock__genBin(g, "arith.remui", c->tx, cw, "index");
  int warp0 = rock__genBin(g, "arith.cmpi ult,", c->tx, cw, "index");
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int n = rock__genFor(g, c0, c->wg.nRows, c1);
  RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, n, c->wg.bq0, c->cR);
  int r0 = rock__attnOutRow(g, a, x.bq, c0);
  int xs[64], sv[64], m = ninf;
  char ib[96];
  for (int k = 0; k < K; ++k) {
    sv[k] = rock__genBin(g, "arith.addi", lane,
                         rock__genIndex(g, (int64_t)k * c->wave), "index");
    int sc = rock__genBin(g, "arith.minui", sv[k], rock__genIndex(g, P - 1),
                          "index");
    rock__idx2(ib, sizeof ib,
               rock__genBin(g, "arith.addi", r0, sc, "index"), x.i);
    xs[k] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> f32", xs[k],
                  a->lse, ib, a->ml);
    if (P % c->wave)
      xs[k] = rock__genSelect(
          g,
          rock__genBin(g, "arith.cmpi ult,", sv[k], rock__genIndex(g, P),
                       "index"),
          xs[k], ninf, "f32");
  }
  for (int k = 0; k < K; ++k)
    m = rock__genBin(g, "arith.maximumf", m, xs[k], "f32");
  m = warpReduce(g, c, m, "arith.maximumf");
  int empty = rock__genBin(g, "arith.cmpf oeq,", m, ninf, "f32");
  int ms = rock__genSelect(g, empty, zf, m, "f32");
  int l = zf, tag[64];
  int log2e = rock__genConst(g, "1.44269504", "f32");
  int skip = rock__genConst(g, "-1.0", "f32");
  for (int k = 0; k < K; ++k) {
    int ok = rock__genBin(g, "arith.cmpf une,", xs[k], ninf, "f32");
    int d = rock__genBin(g, "arith.subf", xs[k], ms, "f32");
    int e = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = llvm.call_intrinsic \"llvm.nvvm.ex2.approx.ftz.f\"("
                  "%%v%d) : (f32) -> f32",
                  e, rock__genBin(g, "arith.mulf", d, log2e, "f32"));
    int ws = rock__genSelect(g, ok, e, zf, "f32");
    tag[k] = rock__genSelect(g, ok, ws, skip, "f32");
    l = rock__genBin(g, "arith.addf", l, ws, "f32");
  }
  l = warpReduce(g, c, l, "arith.addf");
  rock__genLine(g, "scf.if %%v%d {", warp0);
  g->depth++;
  for (int k = 0; k < K; ++k) {
    bool guard = P % c->wave != 0;
    if (guard)
      rock__genLine(g, "scf.if %%v%d {",
                    rock__genBin(g, "arith.cmpi ult,", sv[k],
                                 rock__genIndex(g, P), "index"));
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", tag[k],
                  vw->w, n, sv[k], vw->mw);
    if (guard)
      rock__genEnd(g);
  }
  rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", m, vw->m, n,
                vw->mm);
  rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", l, vw->l, n,
                vw->mm);
  if (a->fLse >= 0) {
    int lg = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = llvm.call_intrinsic \"llvm.nvvm.lg2.approx.ftz.f\"("
                  "%%v%d) : (f32) -> f32",
                  lg, l);
    int lse = rock__genBin(
        g, "arith.addf", m,
        rock__genBin(g, "arith.mulf", lg,
                     rock__genConst(g, "0.69314718", "f32"), "f32"),
        "f32");
    lse = rock__genConv(g, rock__genSelect(g, empty, ninf, lse, "f32"), a->f32,
                        a->ftl, 1);
    char tl[32];
    rock__typeStr(tl, sizeof tl, a->ftl, 1);
    rock__genLine(g, "scf.if %%v%d {",
                  rock__genBin(g, "arith.cmpi eq,", lane, c0, "index"));
    rock__idx2(ib, sizeof ib, x.bq, x.i);
    rock__genLine(g, "  rock.view_store %%v%d, %%v%d[%s] : %s, %s", lse,
                  a->fLse, ib, tl, a->fml);
    rock__genLine(g, "}");
  }
  g->depth--;
  rock__genLine(g, "}");
  rock__genEnd(g);
}

/* Phase 2: O = sum_s w_s O_s / L, 4 columns of one row per thread step. */
static void rowOutputs(RockGen *g, const RockAttn *a, const RockFusedCtx *c,
                       const Views *vw) {
  int64_t P = a->S, q = a->Dv / 4;
  int U = P < UNROLL ? (int)P : UNROLL;
  int c0 = rock__genIndex(g, 0), cq = rock__genIndex(g, q);
  int zf = rock__genConst(g, "0.0", "f32");
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zv = rock__genZero(g, "f32", 4);
  int total = rock__genBin(g, "arith.muli", c->wg.nRows, cq, "index");
  int e = rock__genFor(g, c->tx, total, rock__genIndex(g, c->nThreads));
  int n = rock__genBin(g, "arith.divui", e, cq, "index");
  int d = rock__genBin(g, "arith.muli",
                       rock__genBin(g, "arith.remui", e, cq, "index"),
                       rock__genIndex(g, 4), "index");
  RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, n, c->wg.bq0, c->cR);
  int r0 = rock__attnOutRow(g, a, x.bq, c0);
  int s0, acc;
  int res = rock__genForIter(g, c0, rock__genIndex(g, P), rock__genIndex(g, U),
                             zv, "vector<4xf32>", &s0, &acc);
  int t[UNROLL], p[UNROLL];
  char ib[128];
  for (int u = 0; u < U; ++u) {
    int s = rock__genBin(g, "arith.addi", s0, rock__genIndex(g, u), "index");
    t[u] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d, %%v%d] : %s", t[u],
                  vw->w, n, s, vw->mw);
    rock__idx3(ib, sizeof ib, rock__genBin(g, "arith.addi", r0, s, "index"),
               x.i, d);
    p[u] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                  "%s -> vector<4xf32>",
                  p[u], a->out, ib, a->mo);
  }
  for (int u = 0; u < U; ++u) {
    int ok = rock__genBin(g, "arith.cmpf uge,", t[u], zf, "f32");
    int tb = rock__genBcast(g, t[u], 4, "f32");
    int sum = rock__genBin(g, "arith.addf", acc,
                           rock__genBin(g, "arith.mulf", tb, p[u],
                                        "vector<4xf32>"),
                           "vector<4xf32>");
    acc = rock__genSelect(g, ok, sum, acc, "vector<4xf32>");
  }
  rock__genYieldEnd(g, acc, "vector<4xf32>");
  int lv = rock__genFresh(g), mv = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", lv, vw->l, n,
                vw->mm);
  rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", mv, vw->m, n,
                vw->mm);
  int empty = rock__genBin(g, "arith.cmpf oeq,", mv, ninf, "f32");
  int o = rock__genBin(g, "arith.divf", res, rock__genBcast(g, lv, 4, "f32"),
                       "vector<4xf32>");
  o = rock__genConv(g, rock__genSelect(g, empty, zv, o, "vector<4xf32>"),
                    a->f32, a->fto, 4);
  char to[32];
  rock__typeStr(to, sizeof to, a->fto, 4);
  rock__idx3(ib, sizeof ib, x.bq, x.i, d);
  rock__genLine(g,
                "rock.view_store %%v%d, %%v%d[%s] {rock.align = %u : i64} : "
                "%s, %s",
                o, a->fOut, ib, 4 * ((rock__bitWidth(a->fto) + 7) / 8), to,
                a->fmo);
  rock__genEnd(g);
}

void rock__gpuFusedCombine(RockGen *g, const RockAttn *a,
                           const RockFusedCtx *c) {
  const char *ws = "#gpu.address_space<workgroup>";
  Views vw;
  snprintf(vw.mm, sizeof vw.mm, "memref<%dxf32, %s>", c->nb, ws);
  snprintf(vw.mw, sizeof vw.mw, "memref<%dx%lldxf32, %s>", c->nb,
           (long long)a->S, ws);
  char mf[64];
  snprintf(mf, sizeof mf, "memref<1xi32, %s>", ws);
  int c0 = rock__genIndex(g, 0);
  /* The arrival: this workgroup's partials visible GPU-wide, one count
   * (after any cp.async still in flight into the buffer: an empty split
   * stages a first K tile it never waits for). */
  rock__genLine(g, "nvvm.cp.async.wait.group 0");
  membarGl(g);
  rock__genLine(g, "gpu.barrier");
  int flag = smemView(g, c, 0, mf);
  vw.m = smemView(g, c, 16, vw.mm);
  vw.l = smemView(g, c, 16 + 4 * (int64_t)c->nb, vw.mm);
  vw.w = smemView(g, c, 16 + 8 * (int64_t)c->nb, vw.mw);
  int ci = rock__genBin(
      g, "arith.addi",
      rock__genBin(g, "arith.muli", c->wg.gBlk, rock__genIndex(g, a->nNBlk),
                   "index"),
      c->wg.nBlk, "index");
  int first = rock__genBin(g, "arith.cmpi eq,", c->tx, c0, "index");
  int one = rock__genConst(g, "1", "i32");
  rock__genLine(g, "scf.if %%v%d {", first);
  int old = rock__genFresh(g);
  rock__genLine(g,
                "  %%v%d = memref.atomic_rmw addi %%v%d, %%v%d[%%v%d] : (i32, "
                "%s) -> i32",
                old, one, a->cnt, ci, a->mcnt);
  rock__genLine(g, "  memref.store %%v%d, %%v%d[%%v%d] : %s", old, flag, c0,
                mf);
  rock__genLine(g, "}");
  rock__genLine(g, "gpu.barrier");
  int seen = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", seen, flag, c0, mf);
  char pl[24];
  snprintf(pl, sizeof pl, "%lld", (long long)(a->S - 1));
  int last = rock__genBin(g, "arith.cmpi eq,", seen,
                          rock__genConst(g, pl, "i32"), "i32");
  /* The last one: the others' partials, merged; the counter back to 0. */
  rock__genLine(g, "scf.if %%v%d {", last);
  g->depth++;
  membarGl(g);
  rowStats(g, a, c, &vw);
  rock__genLine(g, "gpu.barrier");
  rowOutputs(g, a, c, &vw);
  rock__genLine(g, "scf.if %%v%d {", first);
  rock__genLine(g, "  memref.store %%v%d, %%v%d[%%v%d] : %s",
                rock__genConst(g, "0", "i32"), a->cnt, ci, a->mcnt);
  rock__genLine(g, "}");
  g->depth--;
  rock__genLine(g, "}");
}
