/*===- lower_gridwise_attention.c - rock-lower-gridwise-attention --------===*
 *
 * Replaces every rock.gridwise_attention by loops (spec §3): an scf.parallel
 * over the workgroups of §3.2, a per-split key-tile range (§3.3, §3.4), the
 * online softmax in the exp2 domain with the −inf guard (§3.6, §3.7) and
 * the per-split finalisation (§3.8). Operands are views: every access to
 * them is a rock.view_load / rock.view_store, resolved later by
 * rock-lower-views.
 *
 * Per workgroup (gBlk, nBlk, split) the generated code
 *   1. copies its real query rows into a local accumulator-typed tile
 *      Q[NB][Dqk] and, for masked problems, computes each row's last visible
 *      key (§1 step 3) and the block's key range;
 *   2. per key tile, copies K once, transposed, into KT[Dqk][MB] and V once
 *      into V[MB][Dv] (f32), shared by all NB merged rows (all R query heads
 *      of the KV group); gemm0 as broadcast(Q[r][d]) * KT[d][j..j+W]
 *      (contiguous in j, two rows per K load); then per row the
 *      pre-softmax region (cloned in), log2e, masks, the online softmax
 *      (P = exp2 as a vectorisable arith polynomial) and
 *      O[r][d..d+W] = c*O + Σ_j P[j] * V[j][d..d+W] (contiguous in d).
 *      Workgroups of at most 16 real rows (decode) keep K as [MB][Dqk] and
 *      compute each score as a dot product along d instead; with float
 *      accumulation they use the fused form: no local K / V tiles, gemm0
 *      and gemm1 read K and V straight from their views, 4 merged rows per
 *      load (each K / V element is read once per tile), the per-row
 *      rescale factors kept in a [NB] buffer between the two;
 *   3. normalises and stores O and LSE.
 * Inner loops use vectors of up to 32 (gemm1: 64) lanes with narrower and
 * scalar tails, and fastmath<reassoc,contract> on the f32 accumulations.
 * Local tiles are heap-allocated per workgroup (see generate()).
 *
 * Internal split: with splitKV 1 and an i64 `rock.num_threads` T on the op
 * or an ancestor (rock-run sets it; absent, nothing changes) and gridSize <
 * T, the keys are cut into P partitions (smallest power of two with
 * gridSize*P >= T, halved until each keeps 2 key tiles; none if P < 2): the
 * loop runs as a split-KV of P into f32 scratch partials, merged into out /
 * lse by rock__inlineCombine (lower_combine.c). See docs/internals.md.
 *
 * The region is inlined by cloning: the text holds a placeholder
 * builtin.unrealized_conversion_cast tagged `rock.region_slot` whose operands
 * are the region's arguments; the region's ops are cloned in front of it and
 * its result is replaced by the yielded value.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FM "fastmath<reassoc,contract>"
#define NINF "0xFF800000"
/* Workgroups with at most this many real rows use the dot-product gemm0. */
#define DOT_FORM_MAX_ROWS 16
/* Merged rows per register block of the fused decode form. */
#define FUSE_ROWS 4
/* Interleaved key streams of the fused decode loops (see keyOrder). */
#define KEY_STREAMS 8

/*===--- text generation --------------------------------------------------===*/

typedef struct Const {
  char key[48];
  int id;
} Const;

typedef struct Gen {
  RockStr body;   /* the function body, after the constants */
  RockStr consts; /* constants, emitted at the top */
  int next;       /* next fresh %vN */
  int depth;      /* indentation */
  Const *cs;
  int nCs, capCs;
  int64_t heapBytes; /* bytes of memref.alloc emitted (scratch.c) */
} Gen;

static int fresh(Gen *g) { return g->next++; }

static void line(Gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void line(Gen *g, const char *fmt, ...) {
  for (int i = 0; i < g->depth; ++i)
    rock__strAppend(&g->body, "  ");
  va_list ap;
  va_start(ap, fmt);
  rock__strAppendv(&g->body, fmt, ap);
  va_end(ap);
  rock__strAppend(&g->body, "\n");
}

/* A constant `lit : type`, emitted once at the top of the function. */
static int cst(Gen *g, const char *lit, const char *type) {
  char key[48];
  snprintf(key, sizeof key, "%s:%s", lit, type);
  for (int i = 0; i < g->nCs; ++i)
    if (!strcmp(g->cs[i].key, key))
      return g->cs[i].id;
  if (g->nCs == g->capCs) {
    g->capCs = g->capCs ? 2 * g->capCs : 32;
    g->cs = realloc(g->cs, (size_t)g->capCs * sizeof(Const));
    if (!g->cs)
      abort();
  }
  int id = fresh(g);
  snprintf(g->cs[g->nCs].key, sizeof g->cs[g->nCs].key, "%s", key);
  g->cs[g->nCs++].id = id;
  rock__strAppendf(&g->consts, "  %%v%d = arith.constant %s : %s\n", id, lit,
                   type);
  return id;
}

static int ci(Gen *g, int64_t v) {
  char lit[32];
  snprintf(lit, sizeof lit, "%lld", (long long)v);
  return cst(g, lit, "index");
}

/* `%r = op %a, %b : ty` */
static int bin(Gen *g, const char *op, int a, int b, const char *ty) {
  int r = fresh(g);
  line(g, "%%v%d = %s %%v%d, %%v%d : %s", r, op, a, b, ty);
  return r;
}

/* `%r = op %a, %b fastmath<reassoc,contract> : ty` */
static int binf(Gen *g, const char *op, int a, int b, const char *ty) {
  int r = fresh(g);
  line(g, "%%v%d = %s %%v%d, %%v%d " FM " : %s", r, op, a, b, ty);
  return r;
}

static int sel(Gen *g, int c, int a, int b, const char *ty) {
  int r = fresh(g);
  line(g, "%%v%d = arith.select %%v%d, %%v%d, %%v%d : %s", r, c, a, b, ty);
  return r;
}

/* Opens `scf.for %iv = lo to hi step st {`; returns the induction var. */
/* acc + x * y in float (fastmath) or integer arithmetic of type `ty`. */
static int macc(Gen *g, bool fl, int acc, int x, int y, const char *ty) {
  if (fl)
    return binf(g, "arith.addf", acc, binf(g, "arith.mulf", x, y, ty), ty);
  return bin(g, "arith.addi", acc, bin(g, "arith.muli", x, y, ty), ty);
}
static int forOpen(Gen *g, int lo, int hi, int st) {
  int iv = fresh(g);
  line(g, "scf.for %%v%d = %%v%d to %%v%d step %%v%d {", iv, lo, hi, st);
  g->depth++;
  return iv;
}

static void close(Gen *g) {
  g->depth--;
  line(g, "}");
}

/* Opens a one-iter_arg loop `%res = scf.for %iv = lo to hi step st
 * iter_args(%acc = init) -> (ty) {`; sets *iv and *acc, returns %res. */
static int forIterOpen(Gen *g, int lo, int hi, int st, int init, const char *ty,
                       int *iv, int *acc) {
  int res = fresh(g);
  *iv = fresh(g);
  *acc = fresh(g);
  line(g,
       "%%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
       "iter_args(%%v%d = %%v%d) -> (%s) {",
       res, *iv, lo, hi, st, *acc, init, ty);
  g->depth++;
  return res;
}

static void yieldClose(Gen *g, int v, const char *ty) {
  line(g, "scf.yield %%v%d : %s", v, ty);
  close(g);
}

/* Opens `%r0, ..., %rN-1 = scf.for %iv = lo to hi step st iter_args(%a_i =
 * init[i]) -> (ty, ...) {` (all iter_args of type `ty`); sets *iv, args[]
 * and res[]. */
static void forMultiOpen(Gen *g, int lo, int hi, int st, int n,
                         const int *init, const char *ty, int *iv, int *args,
                         int *res) {
  RockStr s = {0};
  for (int i = 0; i < n; ++i) {
    res[i] = fresh(g);
    rock__strAppendf(&s, "%s%%v%d", i ? ", " : "", res[i]);
  }
  *iv = fresh(g);
  rock__strAppendf(&s, " = scf.for %%v%d = %%v%d to %%v%d step %%v%d iter_args(",
                   *iv, lo, hi, st);
  for (int i = 0; i < n; ++i) {
    args[i] = fresh(g);
    rock__strAppendf(&s, "%s%%v%d = %%v%d", i ? ", " : "", args[i], init[i]);
  }
  rock__strAppend(&s, ") -> (");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&s, "%s%s", i ? ", " : "", ty);
  rock__strAppend(&s, ") {");
  line(g, "%s", s.data);
  rock__strFree(&s);
  g->depth++;
}

/* `scf.yield %v_0, ... : ty, ...` and closes the loop. */
static void yieldMultiClose(Gen *g, int n, const int *v, const char *ty) {
  RockStr s = {0};
  rock__strAppend(&s, "scf.yield ");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&s, "%s%%v%d", i ? ", " : "", v[i]);
  rock__strAppend(&s, " : ");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&s, "%s%s", i ? ", " : "", ty);
  line(g, "%s", s.data);
  rock__strFree(&s);
  close(g);
}

/*===--- types ------------------------------------------------------------===*/

/* Prints `t` (scalar) or `vector<W x t>` into buf. */
static void vty(char *buf, size_t n, MlirType t, int w) {
  RockStr s = {0};
  if (w > 1)
    rock__strAppendf(&s, "vector<%dx", w);
  rock__strAppendType(&s, t);
  if (w > 1)
    rock__strAppend(&s, ">");
  snprintf(buf, n, "%s", s.data ? s.data : "");
  rock__strFree(&s);
}

static void vtyS(char *buf, size_t n, const char *elt, int w) {
  if (w > 1)
    snprintf(buf, n, "vector<%dx%s>", w, elt);
  else
    snprintf(buf, n, "%s", elt);
}

static bool isFloat(MlirType t) { return mlirTypeIsAFloat(t); }
static unsigned bitWidth(MlirType t) {
  if (isFloat(t))
    return mlirFloatTypeGetWidth(t);
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  return 64; /* index */
}

/* Converts %v (scalar or vector<W>) from `from` to `to`; returns the id. */
static int conv(Gen *g, int v, MlirType from, MlirType to, int w) {
  if (mlirTypeEqual(from, to))
    return v;
  MlirContext ctx = mlirTypeGetContext(from);
  char tf[64], tt[64];
  vty(tf, sizeof tf, from, w);
  vty(tt, sizeof tt, to, w);
  const char *op = NULL;
  unsigned bf = bitWidth(from), bt = bitWidth(to);
  if (isFloat(from) && isFloat(to)) {
    if (bf == bt) { /* f16 <-> bf16: through f32 */
      MlirType f32 = mlirF32TypeGet(ctx);
      return conv(g, conv(g, v, from, f32, w), f32, to, w);
    }
    op = bf < bt ? "arith.extf" : "arith.truncf";
  } else if (!isFloat(from) && isFloat(to)) {
    op = "arith.sitofp";
  } else if (isFloat(from) && !isFloat(to)) {
    op = "arith.fptosi";
  } else {
    op = bf < bt ? "arith.extsi" : "arith.trunci";
  }
  int r = fresh(g);
  line(g, "%%v%d = %s %%v%d : %s to %s", r, op, v, tf, tt);
  return r;
}

/* Rounds an f32 value (scalar or vector<W>) through `t` when t is a 16-bit
 * float (f16/bf16). */
static int roundThroughW(Gen *g, int v, MlirType t, int w) {
  if (!isFloat(t) || bitWidth(t) >= 32)
    return v;
  MlirType f32 = mlirF32TypeGet(mlirTypeGetContext(t));
  return conv(g, conv(g, v, f32, t, w), t, f32, w);
}

static int roundThrough(Gen *g, int v, MlirType t) {
  return roundThroughW(g, v, t, 1);
}

/*===--- the op's description ---------------------------------------------===*/

enum { MAX_ELEM = 8 };

typedef struct Attn {
  MlirOperation op;
  /* operand ids in the generated function */
  int q, k, v, e[MAX_ELEM], csl, po, out, lse;
  int nElem;
  bool hasCsl, hasPo, hasLse;
  char mq[128], mk[128], mv[128], me[MAX_ELEM][128], mc[128], mp[128], mo[128],
      ml[128];
  MlirType tq, tk, tv, te[MAX_ELEM], tc, tp, to, tl, sm, acc, f32;
  int64_t Bkv, R, Sq, Sk, Dqk, Dv, S, MB, NB, nNBlk, grid, window;
  bool causal, reverse, softmax, hasWindow, dynamic;
  bool dot; /* features has `dot`: x86 AVX512-BF16 dot products allowed */
  bool kKeyMajor; /* K's memory has unit stride along keys, not along d */
  /* region */
  MlirBlock rblock; /* null when the region is empty */
  MlirType rArg0, rYield;
  MlirType rArgs[MAX_ELEM + 1];
} Attn;

static void memrefStr(char *buf, size_t n, MlirValue v) {
  RockStr s = {0};
  rock__strAppendType(&s, mlirValueGetType(v));
  snprintf(buf, n, "%s", s.data ? s.data : "");
  rock__strFree(&s);
}

static MlirType eltOf(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

static int64_t dim(MlirValue v, intptr_t i) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), i);
}

/*===--- emitting pieces --------------------------------------------------===*/

/* Splits [0, e) into segments of vector width 64 (only when asked), 32, 8
 * and 1, in that order. */
typedef struct Seg {
  int64_t lo, hi;
  int w;
} Seg;

static int segmentsMax(int64_t e, Seg out[4], int maxW) {
  static const int ws[4] = {64, 32, 8, 1};
  int n = 0;
  int64_t lo = 0;
  for (int i = 0; i < 4; ++i) {
    if (ws[i] > maxW)
      continue;
    int64_t len = ((e - lo) / ws[i]) * ws[i];
    if (len > 0) {
      out[n].lo = lo;
      out[n].hi = lo + len;
      out[n].w = ws[i];
      ++n;
      lo += len;
    }
  }
  return n;
}

static int segments(int64_t e, Seg out[4]) { return segmentsMax(e, out, 32); }

/* The largest view access width (8, 4 or 1) dividing `e`. */
static int viewWidth(int64_t e) {
  if (e % 8 == 0)
    return 8;
  if (e % 4 == 0)
    return 4;
  return 1;
}

static int vload(Gen *g, int buf, const char *mt, const char *idx, int w,
                 const char *elt) {
  int r = fresh(g);
  if (w > 1)
    line(g, "%%v%d = vector.load %%v%d[%s] : %s, vector<%dx%s>", r, buf, idx,
         mt, w, elt);
  else
    line(g, "%%v%d = memref.load %%v%d[%s] : %s", r, buf, idx, mt);
  return r;
}

static void vstore(Gen *g, int val, int buf, const char *mt, const char *idx,
                   int w, const char *elt) {
  if (w > 1)
    line(g, "vector.store %%v%d, %%v%d[%s] : %s, vector<%dx%s>", val, buf, idx,
         mt, w, elt);
  else
    line(g, "memref.store %%v%d, %%v%d[%s] : %s", val, buf, idx, mt);
}

static int bcast(Gen *g, int v, int w, const char *elt) {
  if (w == 1)
    return v;
  int r = fresh(g);
  line(g, "%%v%d = vector.broadcast %%v%d : %s to vector<%dx%s>", r, v, elt, w,
       elt);
  return r;
}

/* Zero of `elt` (f32 / i32) as scalar or vector. */
static int zeroOf(Gen *g, const char *elt, int w) {
  char ty[64];
  vtyS(ty, sizeof ty, elt, w);
  const char *z = elt[0] == 'f' || elt[0] == 'b' ? "0.0" : "0";
  if (w == 1)
    return cst(g, z, ty);
  char lit[48];
  snprintf(lit, sizeof lit, "dense<%s>", z);
  return cst(g, lit, ty);
}

/* The constant `lit` of element type `elt`, splat to vector<W> when W > 1. */
static int splat(Gen *g, const char *lit, const char *elt, int w) {
  char ty[64];
  vtyS(ty, sizeof ty, elt, w);
  if (w == 1)
    return cst(g, lit, ty);
  char l[48];
  snprintf(l, sizeof l, "dense<%s>", lit);
  return cst(g, l, ty);
}

/* exp2(d) for f32 d <= 0 (scalar or vector<W>), written in arith so that it
 * vectorises (math.exp2 becomes one libm call per lane): d = n + f with
 * n = roundeven(d), |f| <= 1/2, 2^f = 1 + f*P(f) (Cephes exp2f, relative
 * error about 1.4e-7), 2^n built in the exponent bits. d <= -127 (and −inf)
 * gives exactly 0; NaN propagates. */
static int exp2Poly(Gen *g, int d, int w) {
  static const char *const coef[6] = {"1.5353362e-04", "1.3398874e-03",
                                      "9.6184373e-03", "5.5503324e-02",
                                      "2.4022648e-01", "6.9314720e-01"};
  char ty[64], ity[64], cty[160];
  vtyS(ty, sizeof ty, "f32", w);
  vtyS(ity, sizeof ity, "i32", w);
  int c = bin(g, "arith.maximumf", d, splat(g, "-127.0", "f32", w), ty);
  int n = fresh(g);
  line(g, "%%v%d = math.roundeven %%v%d : %s", n, c, ty);
  int f = bin(g, "arith.subf", c, n, ty);
  int p = splat(g, coef[0], "f32", w);
  for (int k = 1; k < 6; ++k)
    p = binf(g, "arith.addf", binf(g, "arith.mulf", p, f, ty),
             splat(g, coef[k], "f32", w), ty);
  p = binf(g, "arith.addf", binf(g, "arith.mulf", p, f, ty),
           splat(g, "1.0", "f32", w), ty);
  int ni = fresh(g);
  line(g, "%%v%d = arith.fptosi %%v%d : %s to %s", ni, n, ty, ity);
  int e = bin(g, "arith.addi", ni, splat(g, "127", "i32", w), ity);
  e = bin(g, "arith.shli", e, splat(g, "23", "i32", w), ity);
  int ef = fresh(g);
  line(g, "%%v%d = arith.bitcast %%v%d : %s to %s", ef, e, ity, ty);
  int r = binf(g, "arith.mulf", p, ef, ty);
  int isNan = bin(g, "arith.cmpf uno,", d, d, ty);
  if (w > 1)
    snprintf(cty, sizeof cty, "vector<%dxi1>, %s", w, ty);
  else
    snprintf(cty, sizeof cty, "%s", ty);
  return sel(g, isNan, d, r, cty);
}

static void idx2(char *buf, size_t n, int a, int b) {
  snprintf(buf, n, "%%v%d, %%v%d", a, b);
}
static void idx3(char *buf, size_t n, int a, int b, int c) {
  snprintf(buf, n, "%%v%d, %%v%d, %%v%d", a, b, c);
}

/* Row indices of merged row r: i = n / R, bq = gBlk*R + n % R. */
typedef struct RowIdx {
  int i, bq;
} RowIdx;

static RowIdx rowIdx(Gen *g, int n0, int r, int bq0, int cR) {
  RowIdx x;
  int n = bin(g, "arith.addi", n0, r, "index");
  x.i = bin(g, "arith.divui", n, cR, "index");
  int rr = bin(g, "arith.remui", n, cR, "index");
  x.bq = bin(g, "arith.addi", bq0, rr, "index");
  return x;
}

/*===--- the generated function -------------------------------------------===*/

typedef struct Bufs {
  int Ql, KT, Vl, Sa, St, Ot, Mt, Lt, Last, Low, Ct, Qb, Pb;
  char mQb[64], mPb[64], mQl[64], mKT[64], mVl[64], mSa[64], mSt[64], mOt[64], mRow[64], mIdx[64];
  const char *acc; /* "f32" or "i32" */
} Bufs;

/* The key visited at step `j` of a fused decode loop over a tile of `nCols`
 * keys: a full tile (nCols == MB) is walked in KEY_STREAMS interleaved
 * streams, j -> (j % KEY_STREAMS) * (MB / KEY_STREAMS) + j / KEY_STREAMS,
 * so that consecutive steps read KEY_STREAMS distant key ranges (different
 * KV pages, which the hardware prefetchers follow independently) and more
 * cache misses are in flight; a partial tile is walked in order. */
static int keyOrder(Gen *g, int j, int nCols, int64_t MB) {
  if (MB % KEY_STREAMS != 0)
    return j;
  int cK = ci(g, KEY_STREAMS);
  int full = bin(g, "arith.cmpi eq,", nCols, ci(g, MB), "index");
  int lane = bin(g, "arith.remui", j, cK, "index");
  int base = bin(g, "arith.muli", lane, ci(g, MB / KEY_STREAMS), "index");
  int step = bin(g, "arith.divui", j, cK, "index");
  int jp = bin(g, "arith.addi", base, step, "index");
  return sel(g, full, jp, j, "index");
}

/* Software prefetch of the fused decode loops: one rock.view_prefetch per
 * 64-byte line of row `jj` + MB (the same key of the next tile, clamped to
 * the last key so the page table is never read out of bounds) of K
 * (`isV` false) or V, columns [d0, d0 + n) where d0 is the SSA index `d0`
 * (or 0 when d0 < 0). gemm0 prefetches the next tile's K rows, gemm1 the
 * next tile's V columns it is reading, so that requests flow during the
 * whole tile rather than in bursts. Decode streams scattered KV pages
 * (16 tokens = 4-8 KiB each) that the hardware prefetchers only pick up
 * after a few misses per page (bench/RESULTS.md measures the effect;
 * ROCK_NO_PREFETCH=1 turns it off). */
static void prefetchRow(Gen *g, const Attn *a, bool isV, int gBlk, int jj,
                        int d0, int64_t n) {
  if (getenv("ROCK_NO_PREFETCH"))
    return;
  int ahead = bin(g, "arith.addi", jj, ci(g, a->MB), "index");
  int nxt = bin(g, "arith.minui", ahead, ci(g, a->Sk - 1), "index");
  MlirType t = isV ? a->tv : a->tk;
  unsigned bytes = (bitWidth(t) + 7) / 8;
  int64_t step = bytes ? 64 / bytes : 64;
  char ib[128];
  for (int64_t d = 0; d < n; d += step) {
    int col = d0 < 0 ? ci(g, d)
              : d   ? bin(g, "arith.addi", d0, ci(g, d), "index")
                    : d0;
    idx3(ib, sizeof ib, gBlk, nxt, col);
    line(g, "rock.view_prefetch %%v%d[%s] : %s", isV ? a->v : a->k, ib,
         isV ? a->mv : a->mk);
  }
}

/* Adds lanes [lo, lo + n) and [hi, hi + n) of each of x and y (vector<W>)
 * pairwise: the first half of the result comes from x, the second from y,
 * in blocks of n lanes: result block k = x/y block (2k) + block (2k + 1). */
static int foldPairs(Gen *g, int x, int y, int W, int n) {
  RockStr m[2] = {{0}, {0}};
  int cnt = 0;
  for (int src = 0; src < 2; ++src)
    for (int blk = 0; blk < W / (2 * n); ++blk)
      for (int l = 0; l < n; ++l, ++cnt)
        for (int k = 0; k < 2; ++k)
          rock__strAppendf(&m[k], "%s%d", cnt ? ", " : "",
                           src * W + (2 * blk + k) * n + l);
  int sh[2];
  for (int k = 0; k < 2; ++k) {
    sh[k] = fresh(g);
    line(g, "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<%dxf32>, "
         "vector<%dxf32>", sh[k], x, y, m[k].data, W, W);
    rock__strFree(&m[k]);
  }
  char ty[32];
  snprintf(ty, sizeof ty, "vector<%dxf32>", W);
  return binf(g, "arith.addf", sh[0], sh[1], ty);
}

/* The four horizontal sums of v[0..3] (vector<16xf32>) as one
 * vector<4xf32>, by a shuffle-and-add tree (12 ops instead of 4 separate
 * reductions of ~8 each). */
static int reduce4(Gen *g, const int v[4]) {
  /* [v0: 8 partial sums | v1: 8], [v2: 8 | v3: 8] */
  int a = foldPairs(g, v[0], v[1], 16, 8);
  int b = foldPairs(g, v[2], v[3], 16, 8);
  /* [v0: 4 | v1: 4 | v2: 4 | v3: 4] */
  int c = foldPairs(g, a, b, 16, 4);
  /* 8 lanes [v0: 2 | v1: 2 | v2: 2 | v3: 2]: fold blocks of 2 within c. */
  RockStr m[2] = {{0}, {0}};
  for (int l = 0; l < 8; ++l)
    for (int k = 0; k < 2; ++k)
      rock__strAppendf(&m[k], "%s%d", l ? ", " : "", (l / 2) * 4 + k * 2 + l % 2);
  int sh[2];
  for (int k = 0; k < 2; ++k) {
    sh[k] = fresh(g);
    line(g, "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<16xf32>, "
         "vector<16xf32>", sh[k], c, c, m[k].data);
    rock__strFree(&m[k]);
  }
  int d = binf(g, "arith.addf", sh[0], sh[1], "vector<8xf32>");
  int e0 = fresh(g), e1 = fresh(g);
  line(g, "%%v%d = vector.shuffle %%v%d, %%v%d [0, 2, 4, 6] : vector<8xf32>, "
       "vector<8xf32>", e0, d, d);
  line(g, "%%v%d = vector.shuffle %%v%d, %%v%d [1, 3, 5, 7] : vector<8xf32>, "
       "vector<8xf32>", e1, d, d);
  return binf(g, "arith.addf", e0, e1, "vector<4xf32>");
}

/* acc + Σ pairs a[2i]*b[2i] + a[2i+1]*b[2i+1]: vdpbf16ps on
 * vector<32xbf16> operands into vector<16xf32>. */
static int dotBf16(Gen *g, int acc, int x, int y) {
  int r = fresh(g);
  line(g,
       "%%v%d = llvm.call_intrinsic \"llvm.x86.avx512bf16.dpbf16ps.512\"("
       "%%v%d, %%v%d, %%v%d) : (vector<16xf32>, vector<32xbf16>, "
       "vector<32xbf16>) -> vector<16xf32>",
       r, acc, x, y);
  return r;
}

/* Lanes x[o], y[o], x[o+1], y[o+1], ..., x[o+15], y[o+15] of two
 * vector<32xbf16>. */
static int interleave16(Gen *g, int x, int y, int o) {
  RockStr m = {0};
  for (int l = 0; l < 16; ++l)
    rock__strAppendf(&m, "%s%d, %d", l ? ", " : "", o + l, 32 + o + l);
  int r = fresh(g);
  line(g, "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<32xbf16>, "
       "vector<32xbf16>", r, x, y, m.data);
  rock__strFree(&m);
  return r;
}

/* gemm0 of the fused form when K is key-major in memory: per row group
 * and block of 64 keys, S[r][j..j+64] = Σ_d Q[r][d] * K[d][j..j+64] with
 * four vector loads of K per d (256 contiguous bytes of each d row) shared
 * by the FUSE_ROWS rows; then blocks of 16 keys, then single keys. `ktv` is
 * the [Bkv, Dqk, Sk] view of K. */
static void gemm0KeyMajor(Gen *g, const Attn *a, const Bufs *b, int ktv,
                          int gBlk, int j0, int nCols, int nRows) {
  char ib[128], mkt[128], tk[64], tk1[32];
  vty(tk1, sizeof tk1, a->tk, 1);
  snprintf(mkt, sizeof mkt, "memref<%lldx%lldx%lldx%s>", (long long)a->Bkv,
           (long long)a->Dqk, (long long)a->Sk, tk1);
  int c0 = ci(g, 0), c1 = ci(g, 1);
  int rg = forOpen(g, c0, nRows, ci(g, FUSE_ROWS));
  int rows[FUSE_ROWS];
  rows[0] = rg;
  for (int h = 1; h < FUSE_ROWS; ++h)
    rows[h] = bin(g, "arith.addi", rg, ci(g, h), "index");
  /* Key blocks: 4 x 16 lanes, 1 x 16 lanes, single keys. */
  static const int nvs[3] = {4, 1, 1}, ws[3] = {16, 16, 1};
  int lo = c0;
  for (int k = 0; k < 3; ++k) {
    int nv = nvs[k], w = ws[k], blk = nv * w;
    int cB = ci(g, blk);
    int hi = blk == 1 ? nCols
                      : bin(g, "arith.muli",
                            bin(g, "arith.divui", nCols, cB, "index"), cB,
                            "index");
    const char *vt = w == 16 ? "vector<16xf32>" : "f32";
    int j = forOpen(g, lo, hi, cB);
    enum { NA = FUSE_ROWS * 4 };
    int n = FUSE_ROWS * nv;
    int init[NA], args[NA], res[NA], nacc[NA], d, jv[4];
    for (int i = 0; i < n; ++i)
      init[i] = zeroOf(g, "f32", w);
    for (int v = 0; v < nv; ++v)
      jv[v] = v ? bin(g, "arith.addi", j, ci(g, v * w), "index") : j;
    forMultiOpen(g, c0, ci(g, a->Dqk), c1, n, init, vt, &d, args, res);
    vty(tk, sizeof tk, a->tk, w);
    int kv[4];
    for (int v = 0; v < nv; ++v) {
      int ld = fresh(g);
      idx3(ib, sizeof ib, gBlk, d, bin(g, "arith.addi", j0, jv[v], "index"));
      line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, ktv, ib, mkt,
           tk);
      kv[v] = conv(g, ld, a->tk, a->acc, w);
    }
    for (int h = 0; h < FUSE_ROWS; ++h) {
      idx2(ib, sizeof ib, rows[h], d);
      int q = bcast(g, vload(g, b->Ql, b->mQl, ib, 1, "f32"), w, "f32");
      for (int v = 0; v < nv; ++v)
        nacc[h * nv + v] =
            binf(g, "arith.addf", args[h * nv + v],
                 binf(g, "arith.mulf", q, kv[v], vt), vt);
    }
    yieldMultiClose(g, n, nacc, vt);
    for (int h = 0; h < FUSE_ROWS; ++h)
      for (int v = 0; v < nv; ++v) {
        idx2(ib, sizeof ib, rows[h], jv[v]);
        vstore(g, res[h * nv + v], b->Sa, b->mSa, ib, w, "f32");
      }
    close(g);
    lo = hi;
  }
  close(g);
}

static int allocBuf(Gen *g, const char *mt, bool heap) {
  int r = fresh(g);
  g->heapBytes = heap ? rock__scratchAdd(g->heapBytes, mt) : g->heapBytes;
  line(g, "%%v%d = memref.%s() {alignment = 64 : i64} : %s", r,
       heap ? "alloc" : "alloca", mt);
  return r;
}

static void generate(Gen *g, Attn *a) {
  MlirContext ctx = mlirOperationGetContext(a->op);
  MlirType f32 = a->f32;
  (void)ctx;
  Bufs b;
  b.acc = isFloat(a->acc) ? "f32" : "i32";
  int64_t NB = a->NB, MB = a->MB, Dqk = a->Dqk, Dv = a->Dv;
  snprintf(b.mQl, sizeof b.mQl, "memref<%lldx%lldx%s>", (long long)NB,
           (long long)Dqk, b.acc);
  /* gemm0 form: with few merged rows per workgroup (decode) the K tile is
   * kept as [MB][Dqk] and each score is a dot product along d (K is copied
   * with contiguous vector stores); otherwise K is transposed once per tile
   * into [Dqk][MB] and shared by many rows, which then need no reductions. */
  int64_t rowsPerBlock = NB < a->Sq * a->R ? NB : a->Sq * a->R;
  bool dotForm = rowsPerBlock <= DOT_FORM_MAX_ROWS;
  /* Fused decode form (float accumulation, NB a multiple of FUSE_ROWS):
   * K and V are read straight from their views, each element once per
   * tile, by gemm0 and gemm1 computing FUSE_ROWS merged rows at a time
   * (every query head of a KV group shares one K / V load); no local K / V
   * tiles. Row groups cover [0, nRows) rounded up to FUSE_ROWS (< NB);
   * rows past nRows run on zeroed Q rows and are never stored. */
  bool fused = dotForm && isFloat(a->acc) && NB % FUSE_ROWS == 0 &&
               Dqk % 32 == 0 && Dv % 16 == 0;
  /* With the `dot` feature and bf16 operands the fused loops use
   * vdpbf16ps (two bf16 products summed into each f32 lane, exact products,
   * f32 accumulation): gemm0 on bf16 Q and K, gemm1 on bf16 V and P (P is
   * already rounded through V's type), two keys per instruction. */
  bool dotK = fused && a->dot && mlirTypeIsABF16(a->tq) &&
              mlirTypeIsABF16(a->tk) && Dqk % 64 == 0 && !a->kKeyMajor;
  /* K stored [.., Dqk, Sk] (rocMLIR's default dense layout): the fused
   * gemm0 loads 16 consecutive keys per vector from a [Bkv, Dqk, Sk] view
   * and broadcasts Q[r][d], instead of gathering along d. */
  bool keyMajor = fused && a->kKeyMajor;
  bool dotV = fused && a->dot && mlirTypeIsABF16(a->tv) && Dv % 64 == 0;
  if (dotForm)
    snprintf(b.mKT, sizeof b.mKT, "memref<%lldx%lldx%s>", (long long)MB,
             (long long)Dqk, b.acc);
  else
    snprintf(b.mKT, sizeof b.mKT, "memref<%lldx%lldx%s>", (long long)Dqk,
             (long long)MB, b.acc);
  snprintf(b.mVl, sizeof b.mVl, "memref<%lldx%lldxf32>", (long long)MB,
           (long long)Dv);
  snprintf(b.mSa, sizeof b.mSa, "memref<%lldx%lldx%s>", (long long)NB,
           (long long)MB, b.acc);
  snprintf(b.mSt, sizeof b.mSt, "memref<%lldx%lldxf32>", (long long)NB,
           (long long)MB);
  snprintf(b.mOt, sizeof b.mOt, "memref<%lldx%lldxf32>", (long long)NB,
           (long long)Dv);
  snprintf(b.mRow, sizeof b.mRow, "memref<%lldxf32>", (long long)NB);
  snprintf(b.mIdx, sizeof b.mIdx, "memref<%lldxindex>", (long long)NB);
  /* Allocas in an scf.parallel body become dynamic allocas inside the
   * OpenMP loop, and convert-scf-to-openmp wraps the body in a
   * memref.alloca_scope that must be inlined (canonicalize does so only
   * without allocas) before convert-scf-to-cf: the per-workgroup state is
   * therefore heap-allocated, one malloc per buffer per workgroup. */
  const bool heap = true;

  int c0 = ci(g, 0), c1 = ci(g, 1);
  int cR = ci(g, a->R), cS = ci(g, a->S), cNB = ci(g, NB), cMB = ci(g, MB);
  int cSk = ci(g, a->Sk), cSqR = ci(g, a->Sq * a->R);
  int cNNB = ci(g, a->nNBlk), cGrid = ci(g, a->grid);
  int ninf = cst(g, NINF, "f32"), zf = cst(g, "0.0", "f32");
  int one = cst(g, "1.0", "f32");
  int log2e = cst(g, "1.44269504", "f32"), ln2 = cst(g, "0.69314718", "f32");
  char ib[128];

  int ktv = -1;
  if (keyMajor) {
    ktv = fresh(g);
    char te[32];
    vty(te, sizeof te, a->tk, 1);
    line(g,
         "%%v%d = rock.transform %%v%d by #rock.transform_map<affine_map<(d0, "
         "d1, d2) -> (d0, d2, d1)> by [<PassThrough [\"b\", \"d\", \"s\"] "
         "at [0, 1, 2] -> [\"b\", \"d\", \"s\"] at [0, 2, 1]>] bounds = "
         "[%lld, %lld, %lld] -> [%lld, %lld, %lld]> : %s to "
         "memref<%lldx%lldx%lldx%s>",
         ktv, a->k, (long long)a->Bkv, (long long)Dqk, (long long)a->Sk,
         (long long)a->Bkv, (long long)a->Sk, (long long)Dqk, a->mk,
         (long long)a->Bkv, (long long)Dqk, (long long)a->Sk, te);
  }
  int bid0 = fresh(g);
  line(g, "scf.parallel (%%v%d) = (%%v%d) to (%%v%d) step (%%v%d) {", bid0, c0,
       cGrid, c1);
  g->depth++;
  int bid = bid0;
  if (a->reverse)
    bid = bin(g, "arith.subi", ci(g, a->grid - 1), bid0, "index");
  /* bid = (gBlk * nNBlk + nBlk) * S + split */
  int split = bin(g, "arith.remui", bid, cS, "index");
  int t = bin(g, "arith.divui", bid, cS, "index");
  int nBlk = bin(g, "arith.remui", t, cNNB, "index");
  int gBlk = bin(g, "arith.divui", t, cNNB, "index");
  int n0 = bin(g, "arith.muli", nBlk, cNB, "index");
  int remRows = bin(g, "arith.subi", cSqR, n0, "index");
  int nRows = bin(g, "arith.minui", remRows, cNB, "index");
  int bq0 = bin(g, "arith.muli", gBlk, cR, "index");

  b.Ql = allocBuf(g, b.mQl, heap);
  b.KT = fused ? -1 : allocBuf(g, b.mKT, heap);
  b.Vl = fused ? -1 : allocBuf(g, b.mVl, heap);
  b.St = allocBuf(g, b.mSt, heap);
  b.Sa = isFloat(a->acc) ? b.St : allocBuf(g, b.mSa, heap);
  b.Ot = allocBuf(g, b.mOt, heap);
  b.Mt = allocBuf(g, b.mRow, heap);
  b.Lt = allocBuf(g, b.mRow, heap);
  b.Last = a->dynamic ? allocBuf(g, b.mIdx, heap) : -1;
  b.Low = a->hasWindow ? allocBuf(g, b.mIdx, heap) : -1;
  b.Ct = fused ? allocBuf(g, b.mRow, heap) : -1;
  snprintf(b.mQb, sizeof b.mQb, "memref<%lldx%lldxbf16>", (long long)NB,
           (long long)Dqk);
  b.Qb = dotK ? allocBuf(g, b.mQb, heap) : -1;
  snprintf(b.mPb, sizeof b.mPb, "memref<%lldx%lldxbf16>", (long long)NB,
           (long long)MB);
  b.Pb = dotV ? allocBuf(g, b.mPb, heap) : -1;

  Seg segDv[4], segMB[4], segDqk[4], segDv1[4];
  int nSegDv = segments(Dv, segDv), nSegMB = segments(MB, segMB);
  int nSegDqk = segments(Dqk, segDqk);
  /* gemm1 accumulates 64 lanes at a time: enough independent FMA chains. */
  int nSegDv1 = segmentsMax(Dv, segDv1, 64);
  /* The transposed gemm0 computes two rows at a time (twice the FMA chains
   * per K load); with an even NB the partner of the last real row is a
   * zeroed row of the Q tile. */
  bool pairRows = !dotForm && NB % 2 == 0;

  /* Initial state: m = −inf, l = 0, O = 0 (§3.5, §3.6). */
  {
    int r = forOpen(g, c0, cNB, c1);
    idx2(ib, sizeof ib, r, r);
    line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", ninf, b.Mt, r, b.mRow);
    line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", zf, b.Lt, r, b.mRow);
    if (fused)
      line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", zf, b.Ct, r, b.mRow);
    for (int s = 0; s < nSegDv; ++s) {
      int d =
          forOpen(g, ci(g, segDv[s].lo), ci(g, segDv[s].hi), ci(g, segDv[s].w));
      idx2(ib, sizeof ib, r, d);
      vstore(g, zeroOf(g, "f32", segDv[s].w), b.Ot, b.mOt, ib, segDv[s].w,
             "f32");
      close(g);
    }
    for (int s = 0; (pairRows || fused) && s < nSegDqk; ++s) {
      int d = forOpen(g, ci(g, segDqk[s].lo), ci(g, segDqk[s].hi),
                      ci(g, segDqk[s].w));
      idx2(ib, sizeof ib, r, d);
      vstore(g, zeroOf(g, b.acc, segDqk[s].w), b.Ql, b.mQl, ib, segDqk[s].w,
             b.acc);
      if (dotK)
        vstore(g, zeroOf(g, "bf16", segDqk[s].w), b.Qb, b.mQb, ib,
               segDqk[s].w, "bf16");
      close(g);
    }
    close(g);
  }

  /* Q rows to the local tile; last visible key per row (§1 step 3) and the
   * block's maximum (eff) and minimum window start (lowKey) (§3.4). */
  int eff = -1, lowKey = -1;
  {
    int r, effAcc = -1, lowAcc = -1, effRes = -1, lowRes = -1;
    if (a->dynamic) {
      effRes = fresh(g);
      r = fresh(g);
      effAcc = fresh(g);
      if (a->hasWindow) {
        lowRes = fresh(g);
        lowAcc = fresh(g);
        line(g,
             "%%v%d, %%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
             "iter_args(%%v%d = %%v%d, %%v%d = %%v%d) -> (index, index) {",
             effRes, lowRes, r, c0, nRows, c1, effAcc, ci(g, -1), lowAcc, cSk);
      } else {
        line(g,
             "%%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
             "iter_args(%%v%d = %%v%d) -> (index) {",
             effRes, r, c0, nRows, c1, effAcc, ci(g, -1));
      }
      g->depth++;
    } else {
      r = forOpen(g, c0, nRows, c1);
    }
    RowIdx x = rowIdx(g, n0, r, bq0, cR);
    int wq = viewWidth(Dqk);
    {
      int d = forOpen(g, c0, ci(g, Dqk), ci(g, wq));
      char tq[64], ta[64];
      vty(tq, sizeof tq, a->tq, wq);
      vty(ta, sizeof ta, a->acc, wq);
      int ld = fresh(g);
      idx3(ib, sizeof ib, x.bq, x.i, d);
      line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->q, ib,
           a->mq, tq);
      int cv = conv(g, ld, a->tq, a->acc, wq);
      idx2(ib, sizeof ib, r, d);
      vstore(g, cv, b.Ql, b.mQl, ib, wq, b.acc);
      if (dotK)
        vstore(g, ld, b.Qb, b.mQb, ib, wq, "bf16");
      close(g);
    }
    if (a->dynamic) {
      int last = ci(g, a->Sk - 1);
      if (a->hasCsl) {
        int l32 = fresh(g);
        line(g, "%%v%d = rock.view_load %%v%d[%%v%d] : %s -> i32", l32, a->csl,
             x.bq, a->mc);
        int li = fresh(g);
        line(g, "%%v%d = arith.index_cast %%v%d : i32 to index", li, l32);
        last = bin(g, "arith.minsi", last, li, "index");
      }
      if (a->causal) {
        int lim = x.i;
        if (a->hasPo) {
          int p32 = fresh(g);
          line(g, "%%v%d = rock.view_load %%v%d[%%v%d] : %s -> i32", p32, a->po,
               x.bq, a->mp);
          int pi = fresh(g);
          line(g, "%%v%d = arith.index_cast %%v%d : i32 to index", pi, p32);
          lim = bin(g, "arith.addi", x.i, pi, "index");
        }
        last = bin(g, "arith.minsi", last, lim, "index");
      }
      line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", last, b.Last, r, b.mIdx);
      int effN = bin(g, "arith.maxsi", effAcc, last, "index");
      if (a->hasWindow) {
        int low = bin(g, "arith.subi", last, ci(g, a->window), "index");
        line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", low, b.Low, r, b.mIdx);
        int low0 = bin(g, "arith.maxsi", low, c0, "index");
        int lowN = bin(g, "arith.minsi", lowAcc, low0, "index");
        line(g, "scf.yield %%v%d, %%v%d : index, index", effN, lowN);
      } else {
        line(g, "scf.yield %%v%d : index", effN);
      }
      close(g);
      eff = effRes;
      lowKey = lowRes;
    } else {
      close(g);
    }
  }

  /* Key-tile range of this split (§3.3, §3.4). */
  int nEnd, iters;
  if (a->dynamic) {
    int neg = bin(g, "arith.cmpi slt,", eff, c0, "index");
    int ea = bin(g, "arith.addi", eff, cMB, "index");
    int eb = bin(g, "arith.divsi", ea, cMB, "index");
    nEnd = sel(g, neg, c0, eb, "index");
    iters = bin(g, "arith.ceildivui", nEnd, cS, "index");
  } else {
    int64_t nMB = (a->Sk + MB - 1) / MB;
    nEnd = ci(g, nMB);
    iters = ci(g, (nMB + a->S - 1) / a->S);
  }
  int start = bin(g, "arith.muli", split, iters, "index");
  int next = bin(g, "arith.addi", start, iters, "index");
  int end = bin(g, "arith.minui", nEnd, next, "index");
  if (a->hasWindow) {
    int lt = bin(g, "arith.divui", lowKey, cMB, "index");
    start = bin(g, "arith.maxui", start, lt, "index");
  }

  /* The key-tile loop; an empty range leaves the initial state (§3.5). */
  {
    int kt = forOpen(g, start, end, c1);
    int j0 = bin(g, "arith.muli", kt, cMB, "index");
    int skr = bin(g, "arith.subi", cSk, j0, "index");
    int nCols = bin(g, "arith.minui", skr, cMB, "index");
    if (fused) {
      /* K and V are read by the fused gemm0 / gemm1 below. */
    } else if (dotForm) {
      /* K tile [MB][Dqk] in the accumulator type. */
      int j = forOpen(g, c0, nCols, c1);
      int jj = bin(g, "arith.addi", j0, j, "index");
      int wk = viewWidth(Dqk);
      int d = forOpen(g, c0, ci(g, Dqk), ci(g, wk));
      char tk[64];
      vty(tk, sizeof tk, a->tk, wk);
      int ld = fresh(g);
      idx3(ib, sizeof ib, gBlk, jj, d);
      line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->k, ib,
           a->mk, tk);
      int cv = conv(g, ld, a->tk, a->acc, wk);
      idx2(ib, sizeof ib, j, d);
      vstore(g, cv, b.KT, b.mKT, ib, wk, b.acc);
      close(g);
      close(g);
    } else {
      /* K tile, transposed, in the accumulator type; padding keys are 0. */
      int j = forOpen(g, c0, nCols, c1);
      int jj = bin(g, "arith.addi", j0, j, "index");
      int wk = viewWidth(Dqk);
      int d = forOpen(g, c0, ci(g, Dqk), ci(g, wk));
      char tk[64], ta[64];
      vty(tk, sizeof tk, a->tk, wk);
      vty(ta, sizeof ta, a->acc, wk);
      int ld = fresh(g);
      idx3(ib, sizeof ib, gBlk, jj, d);
      line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->k, ib,
           a->mk, tk);
      int cv = conv(g, ld, a->tk, a->acc, wk);
      if (wk == 1) {
        idx2(ib, sizeof ib, d, j);
        vstore(g, cv, b.KT, b.mKT, ib, 1, b.acc);
      } else {
        for (int l = 0; l < wk; ++l) {
          int e = fresh(g);
          line(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", e, cv, l,
               b.acc, ta);
          int dd = bin(g, "arith.addi", d, ci(g, l), "index");
          idx2(ib, sizeof ib, dd, j);
          vstore(g, e, b.KT, b.mKT, ib, 1, b.acc);
        }
      }
      close(g);
      close(g);
      j = forOpen(g, nCols, cMB, c1);
      d = forOpen(g, c0, ci(g, Dqk), c1);
      idx2(ib, sizeof ib, d, j);
      vstore(g, zeroOf(g, b.acc, 1), b.KT, b.mKT, ib, 1, b.acc);
      close(g);
      close(g);
    }
    /* V tile in f32. */
    if (!fused) {
      int j = forOpen(g, c0, nCols, c1);
      int jj = bin(g, "arith.addi", j0, j, "index");
      int wv = viewWidth(Dv);
      int d = forOpen(g, c0, ci(g, Dv), ci(g, wv));
      char tv[64];
      vty(tv, sizeof tv, a->tv, wv);
      int ld = fresh(g);
      idx3(ib, sizeof ib, gBlk, jj, d);
      line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->v, ib,
           a->mv, tv);
      int cv = conv(g, ld, a->tv, f32, wv);
      idx2(ib, sizeof ib, j, d);
      vstore(g, cv, b.Vl, b.mVl, ib, wv, "f32");
      close(g);
      close(g);
    }
    if (pairRows) {
      /* gemm0 for rows rp, rp + 1: S[r][j] = Σ_d Q[r][d] * KT[d][j]. */
      int rp = forOpen(g, c0, nRows, ci(g, 2));
      int rp1 = bin(g, "arith.addi", rp, c1, "index");
      for (int s = 0; s < nSegMB; ++s) {
        int w = segMB[s].w;
        char ta[64];
        vtyS(ta, sizeof ta, b.acc, w);
        int jc = forOpen(g, ci(g, segMB[s].lo), ci(g, segMB[s].hi), ci(g, w));
        int res0 = fresh(g), res1 = fresh(g), d = fresh(g), a0 = fresh(g),
            a1 = fresh(g), z = zeroOf(g, b.acc, w);
        line(g,
             "%%v%d, %%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
             "iter_args(%%v%d = %%v%d, %%v%d = %%v%d) -> (%s, %s) {",
             res0, res1, d, c0, ci(g, Dqk), c1, a0, z, a1, z, ta, ta);
        g->depth++;
        idx2(ib, sizeof ib, d, jc);
        int kv = vload(g, b.KT, b.mKT, ib, w, b.acc);
        int acc[2] = {a0, a1}, rows[2] = {rp, rp1}, nacc[2];
        for (int h = 0; h < 2; ++h) {
          idx2(ib, sizeof ib, rows[h], d);
          int qb = bcast(g, vload(g, b.Ql, b.mQl, ib, 1, b.acc), w, b.acc);
          nacc[h] = macc(g, isFloat(a->acc), acc[h], qb, kv, ta);
        }
        line(g, "scf.yield %%v%d, %%v%d : %s, %s", nacc[0], nacc[1], ta, ta);
        close(g);
        idx2(ib, sizeof ib, rp, jc);
        vstore(g, res0, b.Sa, b.mSa, ib, w, b.acc);
        idx2(ib, sizeof ib, rp1, jc);
        vstore(g, res1, b.Sa, b.mSa, ib, w, b.acc);
        close(g);
      }
      close(g);
    }
    if (keyMajor)
      gemm0KeyMajor(g, a, &b, ktv, gBlk, j0, nCols, nRows);
    if (fused && !keyMajor) {
      /* gemm0, FUSE_ROWS rows per K load: S[r][j] = Σ_d Q[r][d] * K[j][d],
       * two 16-lane partial sums per row, reduced once per key. */
      int rg = forOpen(g, c0, nRows, ci(g, FUSE_ROWS));
      int rows[FUSE_ROWS];
      rows[0] = rg;
      for (int h = 1; h < FUSE_ROWS; ++h)
        rows[h] = bin(g, "arith.addi", rg, ci(g, h), "index");
      int j = keyOrder(g, forOpen(g, c0, nCols, c1), nCols, MB);
      int jj = bin(g, "arith.addi", j0, j, "index");
      prefetchRow(g, a, false, gBlk, jj, -1, Dqk);
      enum { NA = 2 * FUSE_ROWS };
      int init[NA], args[NA], res[NA], nacc[NA], d;
      for (int i = 0; i < NA; ++i)
        init[i] = zeroOf(g, "f32", 16);
      forMultiOpen(g, c0, ci(g, Dqk), ci(g, dotK ? 64 : 32), NA, init,
                   "vector<16xf32>", &d, args, res);
      char tk[64];
      vty(tk, sizeof tk, a->tk, 16);
      for (int u = 0; dotK && u < 2; ++u) {
        int dd = u ? bin(g, "arith.addi", d, ci(g, 32), "index") : d;
        int kb = fresh(g);
        idx3(ib, sizeof ib, gBlk, jj, dd);
        line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> vector<32xbf16>", kb,
             a->k, ib, a->mk);
        for (int h = 0; h < FUSE_ROWS; ++h) {
          idx2(ib, sizeof ib, rows[h], dd);
          int qb = vload(g, b.Qb, b.mQb, ib, 32, "bf16");
          nacc[2 * h + u] = dotBf16(g, args[2 * h + u], qb, kb);
        }
      }
      for (int u = 0; !dotK && u < 2; ++u) {
        int dd = u ? bin(g, "arith.addi", d, ci(g, 16), "index") : d;
        int ld = fresh(g);
        idx3(ib, sizeof ib, gBlk, jj, dd);
        line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->k, ib,
             a->mk, tk);
        int kv = conv(g, ld, a->tk, a->acc, 16);
        for (int h = 0; h < FUSE_ROWS; ++h) {
          idx2(ib, sizeof ib, rows[h], dd);
          int qv = vload(g, b.Ql, b.mQl, ib, 16, "f32");
          int p = binf(g, "arith.mulf", qv, kv, "vector<16xf32>");
          nacc[2 * h + u] =
              binf(g, "arith.addf", args[2 * h + u], p, "vector<16xf32>");
        }
      }
      yieldMultiClose(g, NA, nacc, "vector<16xf32>");
      int sums[FUSE_ROWS];
      for (int h = 0; h < FUSE_ROWS; ++h)
        sums[h] = binf(g, "arith.addf", res[2 * h], res[2 * h + 1],
                       "vector<16xf32>");
      int red = reduce4(g, sums);
      for (int h = 0; h < FUSE_ROWS; ++h) {
        int e = fresh(g);
        line(g, "%%v%d = vector.extract %%v%d[%d] : f32 from vector<4xf32>", e,
             red, h);
        idx2(ib, sizeof ib, rows[h], j);
        vstore(g, e, b.Sa, b.mSa, ib, 1, "f32");
      }
      close(g);
      close(g);
    }
    /* Per merged row. */
    int r = forOpen(g, c0, nRows, c1);
    RowIdx x = rowIdx(g, n0, r, bq0, cR);
    if (dotForm && !fused) {
      /* gemm0: S[r][j] = Σ_d Q[r][d] * K[j][d], vectors along d. */
      int j = forOpen(g, c0, nCols, c1);
      int total = -1;
      for (int s = 0; s < nSegDqk; ++s) {
        int w = segDqk[s].w;
        char ta[64];
        vtyS(ta, sizeof ta, b.acc, w);
        int d, accv;
        int res = forIterOpen(g, ci(g, segDqk[s].lo), ci(g, segDqk[s].hi),
                              ci(g, w), zeroOf(g, b.acc, w), ta, &d, &accv);
        idx2(ib, sizeof ib, r, d);
        int qv = vload(g, b.Ql, b.mQl, ib, w, b.acc);
        idx2(ib, sizeof ib, j, d);
        int kv = vload(g, b.KT, b.mKT, ib, w, b.acc);
        int nacc = macc(g, isFloat(a->acc), accv, qv, kv, ta);
        yieldClose(g, nacc, ta);
        int red = res;
        if (w > 1) {
          red = fresh(g);
          line(g, "%%v%d = vector.reduction <add>, %%v%d%s : %s into %s", red,
               res, isFloat(a->acc) ? " " FM : "", ta, b.acc);
        }
        if (total < 0)
          total = red;
        else if (isFloat(a->acc))
          total = binf(g, "arith.addf", total, red, b.acc);
        else
          total = bin(g, "arith.addi", total, red, b.acc);
      }
      idx2(ib, sizeof ib, r, j);
      vstore(g, total, b.Sa, b.mSa, ib, 1, b.acc);
      close(g);
    }
    for (int s = 0; !dotForm && !pairRows && s < nSegMB; ++s) {
      int w = segMB[s].w;
      char ta[64];
      vtyS(ta, sizeof ta, b.acc, w);
      int jc = forOpen(g, ci(g, segMB[s].lo), ci(g, segMB[s].hi), ci(g, w));
      int d, accv;
      int res = forIterOpen(g, c0, ci(g, Dqk), c1, zeroOf(g, b.acc, w), ta, &d,
                            &accv);
      idx2(ib, sizeof ib, r, d);
      int qs = vload(g, b.Ql, b.mQl, ib, 1, b.acc);
      int qb = bcast(g, qs, w, b.acc);
      idx2(ib, sizeof ib, d, jc);
      int kv = vload(g, b.KT, b.mKT, ib, w, b.acc);
      int nacc = macc(g, isFloat(a->acc), accv, qb, kv, ta);
      yieldClose(g, nacc, ta);
      idx2(ib, sizeof ib, r, jc);
      vstore(g, res, b.Sa, b.mSa, ib, w, b.acc);
      close(g);
    }
    /* Scores: region, log2e, masks; tile maximum. */
    int tileMax;
    if (mlirBlockIsNull(a->rblock)) {
      /* No region: the whole tile in vectors along j; padding keys
       * (j >= Sk, §3.6 step 4) and masked keys select −inf. */
      int masked = a->softmax ? ninf : zf;
      int last = -1, low = -1;
      if (a->dynamic) {
        last = fresh(g);
        line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", last, b.Last, r,
             b.mIdx);
      }
      if (a->hasWindow) {
        low = fresh(g);
        line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", low, b.Low, r, b.mIdx);
      }
      tileMax = ninf;
      for (int s = 0; s < nSegMB; ++s) {
        int w = segMB[s].w;
        char tf[64], ti[64], cf[160], ci1[160];
        vtyS(tf, sizeof tf, "f32", w);
        vtyS(ti, sizeof ti, "index", w);
        if (w > 1) {
          snprintf(cf, sizeof cf, "vector<%dxi1>, %s", w, tf);
          snprintf(ci1, sizeof ci1, "%s", ti);
        } else {
          snprintf(cf, sizeof cf, "f32");
          snprintf(ci1, sizeof ci1, "index");
        }
        int j, mx;
        int res = forIterOpen(g, ci(g, segMB[s].lo), ci(g, segMB[s].hi),
                              ci(g, w), splat(g, NINF, "f32", w), tf, &j, &mx);
        idx2(ib, sizeof ib, r, j);
        int sacc = vload(g, b.Sa, b.mSa, ib, w, b.acc);
        int xv = conv(g, conv(g, sacc, a->acc, a->sm, w), a->sm, f32, w);
        if (a->softmax) {
          xv = bin(g, "arith.mulf", xv, bcast(g, log2e, w, "f32"), tf);
          xv = roundThroughW(g, xv, a->sm, w);
        }
        int jj = bin(g, "arith.addi", j0, j, "index");
        int jv = bcast(g, jj, w, "index");
        if (w > 1) {
          int step = fresh(g);
          line(g, "%%v%d = vector.step : %s", step, ti);
          jv = bin(g, "arith.addi", jv, step, ti);
        }
        int mv = bcast(g, masked, w, "f32");
        int pad = bin(g, "arith.cmpi sge,", jv, bcast(g, cSk, w, "index"), ci1);
        xv = sel(g, pad, mv, xv, cf);
        if (a->dynamic) {
          int gt =
              bin(g, "arith.cmpi sgt,", jv, bcast(g, last, w, "index"), ci1);
          xv = sel(g, gt, mv, xv, cf);
        }
        if (a->hasWindow) {
          int lt =
              bin(g, "arith.cmpi slt,", jv, bcast(g, low, w, "index"), ci1);
          xv = sel(g, lt, mv, xv, cf);
        }
        vstore(g, xv, b.St, b.mSt, ib, w, "f32");
        int nm = bin(g, "arith.maxnumf", mx, xv, tf);
        yieldClose(g, nm, tf);
        int red = res;
        if (w > 1) {
          red = fresh(g);
          line(g, "%%v%d = vector.reduction <maxnumf>, %%v%d : %s into f32",
               red, res, tf);
        }
        tileMax = bin(g, "arith.maxnumf", tileMax, red, "f32");
      }
    } else {
      int j, mx;
      tileMax = forIterOpen(g, c0, nCols, c1, ninf, "f32", &j, &mx);
      idx2(ib, sizeof ib, r, j);
      int sacc = vload(g, b.Sa, b.mSa, ib, 1, b.acc);
      int jj = bin(g, "arith.addi", j0, j, "index");
      int y;
      MlirType yt;
      if (mlirBlockIsNull(a->rblock)) {
        y = sacc;
        yt = a->acc;
      } else {
        int args[MAX_ELEM + 1];
        args[0] = conv(g, sacc, a->acc, a->rArg0, 1);
        for (int e = 0; e < a->nElem; ++e) {
          char te[64];
          vty(te, sizeof te, a->te[e], 1);
          int ld = fresh(g);
          idx3(ib, sizeof ib, x.bq, x.i, jj);
          line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->e[e],
               ib, a->me[e], te);
          args[e + 1] = conv(g, ld, a->te[e], a->rArgs[e + 1], 1);
        }
        RockStr s = {0};
        for (int e = 0; e <= a->nElem; ++e)
          rock__strAppendf(&s, "%s%%v%d", e ? ", " : "", args[e]);
        rock__strAppend(&s, " : ");
        for (int e = 0; e <= a->nElem; ++e) {
          if (e)
            rock__strAppend(&s, ", ");
          rock__strAppendType(&s, a->rArgs[e]);
        }
        rock__strAppend(&s, " to ");
        rock__strAppendType(&s, a->rYield);
        y = fresh(g);
        line(g,
             "%%v%d = builtin.unrealized_conversion_cast %s "
             "{rock.region_slot}",
             y, s.data);
        rock__strFree(&s);
        yt = a->rYield;
      }
      int xs = conv(g, conv(g, y, yt, a->sm, 1), a->sm, f32, 1);
      int xv;
      if (a->softmax) {
        xv = bin(g, "arith.mulf", xs, log2e, "f32");
        xv = roundThrough(g, xv, a->sm);
      } else {
        xv = xs;
      }
      int masked = a->softmax ? ninf : zf;
      if (a->dynamic) {
        /* KV cache, causal and prefix limits are folded into Last[r]. */
        int last = fresh(g);
        line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", last, b.Last, r,
             b.mIdx);
        int gt = bin(g, "arith.cmpi sgt,", jj, last, "index");
        xv = sel(g, gt, masked, xv, "f32");
      }
      if (a->hasWindow) {
        int low = fresh(g);
        line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", low, b.Low, r, b.mIdx);
        int lt = bin(g, "arith.cmpi slt,", jj, low, "index");
        xv = sel(g, lt, masked, xv, "f32");
      }
      idx2(ib, sizeof ib, r, j);
      vstore(g, xv, b.St, b.mSt, ib, 1, "f32");
      int nm = bin(g, "arith.maxnumf", mx, xv, "f32");
      yieldClose(g, nm, "f32");
      /* Padding keys (j >= Sk) score −inf (§3.6 step 4). */
      int jp = forOpen(g, nCols, cMB, c1);
      idx2(ib, sizeof ib, r, jp);
      vstore(g, a->softmax ? ninf : zf, b.St, b.mSt, ib, 1, "f32");
      close(g);
    }
    /* Online softmax (§3.6) with the −inf guard (§3.7). */
    int c = one;
    if (a->softmax) {
      int mOld = fresh(g);
      line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", mOld, b.Mt, r, b.mRow);
      int mNew = bin(g, "arith.maxnumf", mOld, tileMax, "f32");
      int isNinf = bin(g, "arith.cmpf oeq,", mNew, ninf, "f32");
      int mSafe = sel(g, isNinf, zf, mNew, "f32");
      int dm = bin(g, "arith.subf", mOld, mSafe, "f32");
      c = fresh(g);
      line(g, "%%v%d = math.exp2 %%v%d : f32", c, dm);
      /* P = exp2(x − m_safe) over the whole tile, vectors along j. */
      int rowSum = zf;
      for (int s = 0; s < nSegMB; ++s) {
        int w = segMB[s].w;
        char tf[64];
        vtyS(tf, sizeof tf, "f32", w);
        int j, sum;
        int res = forIterOpen(g, ci(g, segMB[s].lo), ci(g, segMB[s].hi),
                              ci(g, w), rowSum, "f32", &j, &sum);
        idx2(ib, sizeof ib, r, j);
        int xv = vload(g, b.St, b.mSt, ib, w, "f32");
        int dx = bin(g, "arith.subf", xv, bcast(g, mSafe, w, "f32"), tf);
        int p = exp2Poly(g, dx, w);
        int pr = roundThroughW(g, p, a->tv, w);
        vstore(g, pr, b.St, b.mSt, ib, w, "f32");
        int ps = p;
        if (w > 1) {
          ps = fresh(g);
          line(g, "%%v%d = vector.reduction <add>, %%v%d " FM " : %s into f32",
               ps, p, tf);
        }
        int ns = binf(g, "arith.addf", sum, ps, "f32");
        yieldClose(g, ns, "f32");
        rowSum = res;
      }
      int lOld = fresh(g);
      line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", lOld, b.Lt, r, b.mRow);
      int cl = bin(g, "arith.mulf", c, lOld, "f32");
      int lNew = bin(g, "arith.addf", cl, rowSum, "f32");
      line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", lNew, b.Lt, r, b.mRow);
      line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", mNew, b.Mt, r, b.mRow);
    } else {
      int j = forOpen(g, c0, nCols, c1);
      idx2(ib, sizeof ib, r, j);
      int xv = vload(g, b.St, b.mSt, ib, 1, "f32");
      vstore(g, roundThrough(g, xv, a->tv), b.St, b.mSt, ib, 1, "f32");
      close(g);
    }
    if (fused)
      line(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", c, b.Ct, r, b.mRow);
    /* gemm1: O[r][d] = c * O[r][d] + Σ_j P[r][j] * V[j][d], along d. */
    for (int s = 0; !fused && s < nSegDv1; ++s) {
      int w = segDv1[s].w;
      char tf[64];
      vtyS(tf, sizeof tf, "f32", w);
      int d = forOpen(g, ci(g, segDv1[s].lo), ci(g, segDv1[s].hi), ci(g, w));
      idx2(ib, sizeof ib, r, d);
      int o = vload(g, b.Ot, b.mOt, ib, w, "f32");
      if (a->softmax)
        o = binf(g, "arith.mulf", o, bcast(g, c, w, "f32"), tf);
      int j, accv;
      int res = forIterOpen(g, c0, nCols, c1, o, tf, &j, &accv);
      idx2(ib, sizeof ib, r, j);
      int p = vload(g, b.St, b.mSt, ib, 1, "f32");
      int pb = bcast(g, p, w, "f32");
      idx2(ib, sizeof ib, j, d);
      int vv = vload(g, b.Vl, b.mVl, ib, w, "f32");
      int pv = binf(g, "arith.mulf", pb, vv, tf);
      int nacc = binf(g, "arith.addf", accv, pv, tf);
      yieldClose(g, nacc, tf);
      idx2(ib, sizeof ib, r, d);
      vstore(g, res, b.Ot, b.mOt, ib, w, "f32");
      close(g);
    }
    close(g); /* rows */
    if (dotV) {
      /* P in bf16 in gemm1's visiting order, so that each key pair's two
       * probabilities are one 32-bit broadcast there. */
      int r = forOpen(g, c0, nRows, c1);
      int t = forOpen(g, c0, nCols, c1);
      idx2(ib, sizeof ib, r, keyOrder(g, t, nCols, MB));
      int p = conv(g, vload(g, b.St, b.mSt, ib, 1, "f32"), f32, a->tv, 1);
      idx2(ib, sizeof ib, r, t);
      vstore(g, p, b.Pb, b.mPb, ib, 1, "bf16");
      close(g);
      close(g);
    }
    if (fused) {
      /* gemm1, FUSE_ROWS rows per V load, DC columns of O in registers:
       * O[r][d] = c[r] * O[r][d] + Σ_j P[r][j] * V[j][d]. */
      int DC = Dv % 64 == 0 ? 64 : Dv % 32 == 0 ? 32 : 16, NS = DC / 16;
      int rg = forOpen(g, c0, nRows, ci(g, FUSE_ROWS));
      int rows[FUSE_ROWS];
      rows[0] = rg;
      for (int h = 1; h < FUSE_ROWS; ++h)
        rows[h] = bin(g, "arith.addi", rg, ci(g, h), "index");
      int dc = forOpen(g, c0, ci(g, Dv), ci(g, DC));
      enum { NA = FUSE_ROWS * 4 };
      int init[NA], args[NA], res[NA], nacc[NA], cols[4];
      for (int s = 0; s < NS; ++s)
        cols[s] = s ? bin(g, "arith.addi", dc, ci(g, 16 * s), "index") : dc;
      for (int h = 0; h < FUSE_ROWS; ++h) {
        int cv = fresh(g);
        line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", cv, b.Ct, rows[h],
             b.mRow);
        int cb = bcast(g, cv, 16, "f32");
        for (int s = 0; s < NS; ++s) {
          idx2(ib, sizeof ib, rows[h], cols[s]);
          int o = vload(g, b.Ot, b.mOt, ib, 16, "f32");
          init[h * NS + s] = binf(g, "arith.mulf", o, cb, "vector<16xf32>");
        }
      }
      int n = FUSE_ROWS * NS, j, lo = c0;
      if (dotV) {
        /* Key pairs (2t, 2t + 1) by vdpbf16ps: the V rows interleaved
         * lane by lane against (P[2t], P[2t + 1]) repeated; an odd last key
         * goes through the f32 loop below. */
        int np = bin(g, "arith.divui", nCols, ci(g, 2), "index");
        int t, pargs[NA], pres[NA];
        forMultiOpen(g, c0, np, c1, n, init, "vector<16xf32>", &t, pargs,
                     pres);
        int t2 = bin(g, "arith.muli", t, ci(g, 2), "index");
        int jk[2] = {keyOrder(g, t2, nCols, MB),
                     keyOrder(g, bin(g, "arith.addi", t2, c1, "index"), nCols,
                              MB)};
        int vr[2][2], il[4];
        for (int k = 0; k < 2; ++k) {
          int jjk = bin(g, "arith.addi", j0, jk[k], "index");
          prefetchRow(g, a, true, gBlk, jjk, dc, DC);
          for (int hf = 0; hf < 2; ++hf) {
            vr[k][hf] = fresh(g);
            int col = hf ? bin(g, "arith.addi", dc, ci(g, 32), "index") : dc;
            idx3(ib, sizeof ib, gBlk, jjk, col);
            line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> vector<32xbf16>",
                 vr[k][hf], a->v, ib, a->mv);
          }
        }
        for (int q = 0; q < 4; ++q)
          il[q] = interleave16(g, vr[0][q / 2], vr[1][q / 2], (q % 2) * 16);
        for (int h = 0; h < FUSE_ROWS; ++h) {
          idx2(ib, sizeof ib, rows[h], t2);
          int pp = vload(g, b.Pb, b.mPb, ib, 2, "bf16");
          RockStr m = {0};
          for (int l = 0; l < 32; ++l)
            rock__strAppendf(&m, "%s%d", l ? ", " : "", l % 2);
          int pv = fresh(g);
          line(g,
               "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<2xbf16>, "
               "vector<2xbf16>",
               pv, pp, pp, m.data);
          rock__strFree(&m);
          for (int q = 0; q < NS; ++q)
            nacc[h * NS + q] = dotBf16(g, pargs[h * NS + q], pv, il[q]);
        }
        yieldMultiClose(g, n, nacc, "vector<16xf32>");
        for (int i = 0; i < n; ++i)
          init[i] = pres[i];
        lo = bin(g, "arith.muli", np, ci(g, 2), "index");
      }
      forMultiOpen(g, lo, nCols, c1, n, init, "vector<16xf32>", &j, args,
                   res);
      j = keyOrder(g, j, nCols, MB);
      int jj = bin(g, "arith.addi", j0, j, "index");
      prefetchRow(g, a, true, gBlk, jj, dc, DC);
      char tv[64];
      vty(tv, sizeof tv, a->tv, 16);
      int vv[4], pb[FUSE_ROWS];
      for (int s = 0; s < NS; ++s) {
        int ld = fresh(g);
        idx3(ib, sizeof ib, gBlk, jj, cols[s]);
        line(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, a->v, ib,
             a->mv, tv);
        vv[s] = conv(g, ld, a->tv, f32, 16);
      }
      for (int h = 0; h < FUSE_ROWS; ++h) {
        idx2(ib, sizeof ib, rows[h], j);
        pb[h] = bcast(g, vload(g, b.St, b.mSt, ib, 1, "f32"), 16, "f32");
        for (int s = 0; s < NS; ++s) {
          int pv = binf(g, "arith.mulf", pb[h], vv[s], "vector<16xf32>");
          nacc[h * NS + s] =
              binf(g, "arith.addf", args[h * NS + s], pv, "vector<16xf32>");
        }
      }
      yieldMultiClose(g, n, nacc, "vector<16xf32>");
      for (int h = 0; h < FUSE_ROWS; ++h)
        for (int s = 0; s < NS; ++s) {
          idx2(ib, sizeof ib, rows[h], cols[s]);
          vstore(g, res[h * NS + s], b.Ot, b.mOt, ib, 16, "f32");
        }
      close(g);
      close(g);
    }
    close(g); /* key tiles */
  }

  /* Finalisation (§3.8): O / l with the 0/0 guard, LSE, stores. */
  {
    int r = forOpen(g, c0, nRows, c1);
    RowIdx x = rowIdx(g, n0, r, bq0, cR);
    int ob0 = bin(g, "arith.muli", x.bq, cS, "index");
    int ob = bin(g, "arith.addi", ob0, split, "index");
    int l = fresh(g);
    line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", l, b.Lt, r, b.mRow);
    int lz = bin(g, "arith.cmpf oeq,", l, zf, "f32");
    int inv = bin(g, "arith.divf", one, l, "f32");
    int wo = viewWidth(Dv);
    char tf[64], to[64];
    vtyS(tf, sizeof tf, "f32", wo);
    vty(to, sizeof to, a->to, wo);
    int d = forOpen(g, c0, ci(g, Dv), ci(g, wo));
    idx2(ib, sizeof ib, r, d);
    int o = vload(g, b.Ot, b.mOt, ib, wo, "f32");
    if (a->softmax) {
      int sc = bin(g, "arith.mulf", o, bcast(g, inv, wo, "f32"), tf);
      char st[80];
      if (wo > 1)
        snprintf(st, sizeof st, "i1, %s", tf);
      else
        snprintf(st, sizeof st, "f32");
      o = sel(g, lz, zeroOf(g, "f32", wo), sc, st);
    }
    int oc = conv(g, o, f32, a->to, wo);
    idx3(ib, sizeof ib, ob, x.i, d);
    line(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", oc, a->out, ib, to,
         a->mo);
    close(g);
    if (a->hasLse && a->softmax) {
      int m = fresh(g);
      line(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", m, b.Mt, r, b.mRow);
      int lg = fresh(g);
      line(g, "%%v%d = math.log2 %%v%d : f32", lg, l);
      int sm = bin(g, "arith.addf", lg, m, "f32");
      int ln = bin(g, "arith.mulf", sm, ln2, "f32");
      int lse = sel(g, lz, ninf, ln, "f32");
      int lc = conv(g, lse, f32, a->tl, 1);
      char tl[64];
      vty(tl, sizeof tl, a->tl, 1);
      idx2(ib, sizeof ib, ob, x.i);
      line(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lc, a->lse, ib, tl,
           a->ml);
    }
    close(g);
  }
  if (heap) {
    int bufs[] = {b.Ql, b.KT, b.Vl, b.St, b.Ot, b.Mt, b.Lt};
    const char *mts[] = {b.mQl, b.mKT, b.mVl, b.mSt, b.mOt, b.mRow, b.mRow};
    for (int i = 0; i < 7; ++i)
      if (bufs[i] >= 0)
        line(g, "memref.dealloc %%v%d : %s", bufs[i], mts[i]);
    if (b.Sa != b.St)
      line(g, "memref.dealloc %%v%d : %s", b.Sa, b.mSa);
    if (b.Last >= 0)
      line(g, "memref.dealloc %%v%d : %s", b.Last, b.mIdx);
    if (b.Low >= 0)
      line(g, "memref.dealloc %%v%d : %s", b.Low, b.mIdx);
    if (b.Ct >= 0)
      line(g, "memref.dealloc %%v%d : %s", b.Ct, b.mRow);
    if (b.Qb >= 0)
      line(g, "memref.dealloc %%v%d : %s", b.Qb, b.mQb);
    if (b.Pb >= 0)
      line(g, "memref.dealloc %%v%d : %s", b.Pb, b.mPb);
  }
  g->depth--;
  line(g, "}");
}

/*===--- reading the op ---------------------------------------------------===*/

/* The element offset in the base memref of coordinates x[0..n) of view
 * `v`, through its rock.transform chain; false for a paged chain (a
 * rock.deref), a base without a static identity layout or a map that cannot
 * be evaluated. */
static bool baseOffset(MlirValue v, const int64_t *x, intptr_t n,
                       int64_t *off) {
  enum { R = 16 };
  int64_t cur[R], nxt[R];
  if (n > R)
    return false;
  memcpy(cur, x, (size_t)n * sizeof *x);
  for (int depth = 0; depth < 64; ++depth) {
    if (mlirValueIsAOpResult(v)) {
      MlirOperation def = mlirOpResultGetOwner(v);
      MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(def));
      if (nm.length == 14 && !strncmp(nm.data, "rock.transform", 14)) {
        MlirAttribute tm = rock__attr(def, "transform");
        if (mlirAttributeIsNull(tm))
          return false;
        MlirAffineMap m =
            mlirAffineMapAttrGetValue(rockTransformMapAttrGetMap(tm));
        intptr_t nr = mlirAffineMapGetNumResults(m);
        if (nr > R)
          return false;
        for (intptr_t r = 0; r < nr; ++r)
          if (!rock__affineExprEval(mlirAffineMapGetResult(m, r), cur, n,
                                    &nxt[r]))
            return false;
        memcpy(cur, nxt, (size_t)nr * sizeof *nxt);
        n = nr;
        v = mlirOperationGetOperand(def, 0);
        continue;
      }
      if (nm.length == 10 && !strncmp(nm.data, "rock.deref", 10))
        return false;
    }
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
        mlirShapedTypeGetRank(t) != n)
      return false;
    MlirAttribute l = mlirMemRefTypeGetLayout(t);
    if (!mlirAttributeIsNull(l) &&
        !(mlirAttributeIsAAffineMap(l) &&
          mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(l))))
      return false;
    int64_t o = 0;
    for (intptr_t i = 0; i < n; ++i)
      o = o * mlirShapedTypeGetDimSize(t, i) + cur[i];
    *off = o;
    return true;
  }
  return false;
}

/* True when the canonical K view [Bkv, Sk, Dqk] steps by one element along
 * keys and not along d in its (dense) base memref. */
static bool keyMajorView(MlirValue k) {
  if (dim(k, 1) < 2 || dim(k, 2) < 2)
    return false;
  int64_t p[3][3] = {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}}, o[3];
  for (int i = 0; i < 3; ++i)
    if (!baseOffset(k, p[i], 3, &o[i]))
      return false;
  return o[1] - o[0] == 1 && o[2] - o[0] != 1;
}

/* The last op of `blk` (its rock.yield). Not mlirBlockGetTerminator: that
 * answers null for ops of the plugin in some contexts (trait lookup). */
static MlirOperation lastOp(MlirBlock blk) {
  MlirOperation last = {0};
  for (MlirOperation o = mlirBlockGetFirstOperation(blk);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    last = o;
  return last;
}

/* Fills `a` from `op`; returns false after reporting through `pass`. */
static bool analyse(MlirOperation op, MlirExternalPass pass, Attn *a) {
  memset(a, 0, sizeof *a);
  a->op = op;
  MlirContext ctx = mlirOperationGetContext(op);
  a->f32 = mlirF32TypeGet(ctx);
  MlirAttribute seg = rock__attr(op, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 8) {
    rock__passFail(pass, op, "missing operandSegmentSizes");
    return false;
  }
  int32_t n[8];
  for (int i = 0; i < 8; ++i)
    n[i] = mlirDenseI32ArrayGetElement(seg, i);
  a->nElem = n[3];
  if (a->nElem > MAX_ELEM) {
    rock__passFail(pass, op, "at most %d elementwise inputs are supported",
                   MAX_ELEM);
    return false;
  }
  a->hasCsl = n[4] > 0;
  a->hasPo = n[5] > 0;
  a->hasLse = n[7] > 0;
  intptr_t pos = 0;
  MlirValue vq = mlirOperationGetOperand(op, pos++);
  MlirValue vk = mlirOperationGetOperand(op, pos++);
  MlirValue vv = mlirOperationGetOperand(op, pos++);
  MlirValue ve[MAX_ELEM];
  for (int e = 0; e < a->nElem; ++e)
    ve[e] = mlirOperationGetOperand(op, pos++);
  MlirValue vc = {0}, vp = {0}, vl = {0};
  if (a->hasCsl)
    vc = mlirOperationGetOperand(op, pos++);
  if (a->hasPo)
    vp = mlirOperationGetOperand(op, pos++);
  MlirValue vo = mlirOperationGetOperand(op, pos++);
  if (a->hasLse)
    vl = mlirOperationGetOperand(op, pos++);

  /* Shapes. */
  MlirValue all[6 + MAX_ELEM];
  int nAll = 0;
  all[nAll++] = vq;
  all[nAll++] = vk;
  all[nAll++] = vv;
  all[nAll++] = vo;
  if (a->hasCsl)
    all[nAll++] = vc;
  if (a->hasPo)
    all[nAll++] = vp;
  if (a->hasLse)
    all[nAll++] = vl;
  for (int e = 0; e < a->nElem; ++e)
    all[nAll++] = ve[e];
  for (int i = 0; i < nAll; ++i)
    if (!mlirShapedTypeHasStaticShape(mlirValueGetType(all[i]))) {
      rock__passFail(pass, op, "operands must have static shapes");
      return false;
    }
  a->R = rock__intAttr(op, "numRepeatsGQA", 1);
  a->S = rock__intAttr(op, "splitKV", 1);
  a->MB = rock__intAttr(op, "mPerBlock", 0);
  a->NB = rock__intAttr(op, "nPerBlock", 0);
  a->grid = rock__intAttr(op, "gridSize", 0);
  a->causal = rock__flagAttr(op, "causal");
  a->reverse = rock__flagAttr(op, "reverseGrid");
  MlirAttribute feat = rock__attr(op, "features");
  a->dot = !mlirAttributeIsNull(feat) &&
           rockGemmFeaturesAttrGetValue(feat) > 0 &&
           (rockGemmFeaturesAttrGetValue(feat) & 2) != 0;
  MlirAttribute es = rock__attr(op, "enableSoftmax");
  a->softmax = mlirAttributeIsNull(es) || !mlirAttributeIsABool(es) ||
               mlirBoolAttrGetValue(es);
  MlirAttribute win = rock__attr(op, "slidingWindowSize");
  a->hasWindow = !mlirAttributeIsNull(win);
  a->window = rock__intAttr(op, "slidingWindowSize", 0);
  if (a->MB <= 0 || a->NB <= 0) {
    rock__passFail(pass, op, "mPerBlock and nPerBlock must be positive");
    return false;
  }
  if (a->R <= 0 || a->S <= 0) {
    rock__passFail(pass, op, "numRepeatsGQA and splitKV must be positive");
    return false;
  }
  if (mlirShapedTypeGetRank(mlirValueGetType(vq)) != 3 ||
      mlirShapedTypeGetRank(mlirValueGetType(vk)) != 3 ||
      mlirShapedTypeGetRank(mlirValueGetType(vv)) != 3 ||
      mlirShapedTypeGetRank(mlirValueGetType(vo)) != 3) {
    rock__passFail(pass, op, "queries, keys, values and out must be rank 3");
    return false;
  }
  int64_t B = dim(vq, 0);
  a->Bkv = dim(vk, 0);
  a->Dqk = dim(vq, 2);
  a->Dv = dim(vv, 2);
  a->Sk = rock__intAttr(op, "prePadG0M", dim(vk, 1));
  int64_t sqr = rock__intAttr(op, "prePadG0N", dim(vq, 1) * a->R);
  if (sqr % a->R != 0 || sqr / a->R > dim(vq, 1) || sqr <= 0) {
    rock__passFail(pass, op, "inconsistent shapes: prePadG0N %lld",
                   (long long)sqr);
    return false;
  }
  a->Sq = sqr / a->R;
  if (B != a->Bkv * a->R || dim(vk, 2) != a->Dqk || dim(vv, 0) != a->Bkv ||
      dim(vv, 1) < a->Sk || dim(vk, 1) < a->Sk || a->Sk <= 0 ||
      dim(vo, 0) != B * a->S || dim(vo, 1) < a->Sq || dim(vo, 2) != a->Dv) {
    rock__passFail(pass, op, "inconsistent shapes");
    return false;
  }
  if (a->hasLse && (mlirShapedTypeGetRank(mlirValueGetType(vl)) != 2 ||
                    dim(vl, 0) != B * a->S || dim(vl, 1) < a->Sq)) {
    rock__passFail(pass, op, "inconsistent shapes: lse");
    return false;
  }
  for (int e = 0; e < a->nElem; ++e)
    if (mlirShapedTypeGetRank(mlirValueGetType(ve[e])) != 3 ||
        dim(ve[e], 0) != B || dim(ve[e], 1) < a->Sq || dim(ve[e], 2) < a->Sk) {
      rock__passFail(pass, op, "inconsistent shapes: elementwise input %d", e);
      return false;
    }
  if ((a->hasCsl && dim(vc, 0) != B) || (a->hasPo && dim(vp, 0) != B)) {
    rock__passFail(pass, op,
                   "inconsistent shapes: currentSeqLen / prefixOffset");
    return false;
  }
  a->nNBlk = (sqr + a->NB - 1) / a->NB;
  if (a->grid != a->Bkv * a->nNBlk * a->S) {
    rock__passFail(pass, op, "inconsistent gridSize %lld, expected %lld",
                   (long long)a->grid, (long long)(a->Bkv * a->nNBlk * a->S));
    return false;
  }
  a->tq = eltOf(vq);
  a->tk = eltOf(vk);
  a->kKeyMajor = keyMajorView(vk);
  a->tv = eltOf(vv);
  a->to = eltOf(vo);
  if (a->hasLse)
    a->tl = eltOf(vl);
  for (int e = 0; e < a->nElem; ++e)
    a->te[e] = eltOf(ve[e]);
  if (isFloat(a->tq) != isFloat(a->tk)) {
    rock__passFail(pass, op, "queries and keys must both be float or integer");
    return false;
  }
  a->acc = isFloat(a->tq) ? a->f32 : mlirIntegerTypeGet(ctx, 32);
  MlirAttribute smA = rock__attr(op, "softmaxType");
  a->sm = !mlirAttributeIsNull(smA) && mlirAttributeIsAType(smA)
              ? mlirTypeAttrGetValue(smA)
              : a->f32;
  a->dynamic = a->causal || a->hasCsl || a->hasWindow;

  /* Region: empty when it has no block or only the terminator. */
  MlirRegion reg = mlirOperationGetRegion(op, 0);
  MlirBlock blk = mlirRegionGetFirstBlock(reg);
  if (!mlirBlockIsNull(blk)) {
    MlirOperation term = lastOp(blk);
    if (mlirOperationIsNull(term) || !rock__isOp(term, "rock.yield") ||
        mlirOperationGetNumOperands(term) != 1 ||
        mlirBlockGetNumArguments(blk) != 1 + a->nElem) {
      rock__passFail(pass, op,
                     "the region must take 1 + #elementwise arguments and "
                     "yield one value");
      return false;
    }
    if (!mlirOperationEqual(mlirBlockGetFirstOperation(blk), term)) {
      a->rblock = blk;
      for (intptr_t i = 0; i <= a->nElem; ++i)
        a->rArgs[i] = mlirValueGetType(mlirBlockGetArgument(blk, i));
      a->rArg0 = a->rArgs[0];
      a->rYield = mlirValueGetType(mlirOperationGetOperand(term, 0));
    }
  }

  /* Argument ids and types, in operand order. */
  int id = 0;
  a->q = id++;
  memrefStr(a->mq, sizeof a->mq, vq);
  a->k = id++;
  memrefStr(a->mk, sizeof a->mk, vk);
  a->v = id++;
  memrefStr(a->mv, sizeof a->mv, vv);
  for (int e = 0; e < a->nElem; ++e) {
    a->e[e] = id++;
    memrefStr(a->me[e], sizeof a->me[e], ve[e]);
  }
  if (a->hasCsl) {
    a->csl = id++;
    memrefStr(a->mc, sizeof a->mc, vc);
    if (!mlirTypeIsAInteger(eltOf(vc)) ||
        mlirIntegerTypeGetWidth(eltOf(vc)) != 32) {
      rock__passFail(pass, op, "currentSeqLen must be i32");
      return false;
    }
  }
  if (a->hasPo) {
    a->po = id++;
    memrefStr(a->mp, sizeof a->mp, vp);
    if (!mlirTypeIsAInteger(eltOf(vp)) ||
        mlirIntegerTypeGetWidth(eltOf(vp)) != 32) {
      rock__passFail(pass, op, "prefixOffset must be i32");
      return false;
    }
  }
  a->out = id++;
  memrefStr(a->mo, sizeof a->mo, vo);
  if (a->hasLse) {
    a->lse = id++;
    memrefStr(a->ml, sizeof a->ml, vl);
  }
  return true;
}

/*===--- cloning the region into the slot ---------------------------------===*/

typedef struct Remap {
  MlirValue *from, *to;
  intptr_t n, cap;
} Remap;

static void remapAdd(Remap *m, MlirValue from, MlirValue to) {
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 16;
    m->from = realloc(m->from, (size_t)m->cap * sizeof(MlirValue));
    m->to = realloc(m->to, (size_t)m->cap * sizeof(MlirValue));
    if (!m->from || !m->to)
      abort();
  }
  m->from[m->n] = from;
  m->to[m->n++] = to;
}

static MlirValue remapGet(const Remap *m, MlirValue v) {
  for (intptr_t k = 0; k < m->n; ++k)
    if (mlirValueEqual(v, m->from[k]))
      return m->to[k];
  return v;
}

static MlirWalkResult remapCb(MlirOperation op, void *ud) {
  const Remap *m = ud;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirValue w = remapGet(m, v);
    if (!mlirValueEqual(v, w))
      mlirOperationSetOperand(op, i, w);
  }
  return MlirWalkResultAdvance;
}

/* Replaces the tagged placeholder under `root` by clones of `blk`'s ops. */
static bool fillSlot(MlirOperation root, MlirBlock blk) {
  intptr_t nCasts = 0;
  MlirOperation *casts =
      rock__collectOps(root, "builtin.unrealized_conversion_cast", &nCasts);
  MlirOperation slot = {0};
  for (intptr_t i = 0; i < nCasts; ++i)
    if (!mlirAttributeIsNull(rock__attr(casts[i], "rock.region_slot"))) {
      slot = casts[i];
      break;
    }
  free(casts);
  if (mlirOperationIsNull(slot))
    return false;
  Remap m = {0};
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(blk); ++i)
    remapAdd(&m, mlirBlockGetArgument(blk, i),
             mlirOperationGetOperand(slot, i));
  MlirBlock dst = mlirOperationGetBlock(slot);
  MlirOperation term = lastOp(blk);
  for (MlirOperation o = mlirBlockGetFirstOperation(blk);
       !mlirOperationEqual(o, term); o = mlirOperationGetNextInBlock(o)) {
    MlirOperation c = mlirOperationClone(o);
    mlirOperationWalk(c, remapCb, &m, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(dst, slot, c);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(o); ++i)
      remapAdd(&m, mlirOperationGetResult(o, i), mlirOperationGetResult(c, i));
  }
  MlirValue y = remapGet(&m, mlirOperationGetOperand(term, 0));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(slot, 0), y);
  mlirOperationDestroy(slot);
  free(m.from);
  free(m.to);
  return true;
}

/*===--- the pass ---------------------------------------------------------===*/

/* The thread count the kernel will run on: the i64 attribute
 * rock.num_threads on `op` or its nearest ancestor carrying one; 0 when none
 * does (then nothing depends on the machine). */
static int64_t numThreads(MlirOperation op) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    int64_t t = rock__intAttr(op, "rock.num_threads", 0);
    if (t > 0)
      return t;
  }
  return 0;
}

/* Internal key partitions P for an op without a user split (see the file
 * header); 1 for none. */
static int64_t internalSplit(const Attn *a) {
  int64_t T = numThreads(a->op);
  if (a->S != 1 || !a->softmax || a->grid >= T || !isFloat(a->to) ||
      (a->hasLse && !mlirTypeIsAF32(a->tl)))
    return 1;
  int64_t P = 1, nMB = (a->Sk + a->MB - 1) / a->MB;
  while (P <= T / 2 && a->grid <= (T - 1) / P) /* grid * P < T */
    P *= 2;
  while (P >= 2 && nMB / P < 2)
    P /= 2;
  return P >= 2 ? P : 1;
}

static bool lowerOne(MlirOperation op, MlirExternalPass pass) {
  Attn a;
  if (!analyse(op, pass, &a))
    return false;
  if (numThreads(op) > ROCK_MAX_NUM_THREADS) {
    rock__passFail(pass, op, "rock.num_threads must be at most %d",
                   ROCK_MAX_NUM_THREADS);
    return false;
  }
  Gen g;
  memset(&g, 0, sizeof g);
  /* Arguments take ids 0..nArgs-1. */
  int nArgs = 4 + a.nElem + a.hasCsl + a.hasPo + a.hasLse;
  int outArg = a.out;
  bool userLse = a.hasLse;
  g.next = nArgs;
  g.depth = 1;
  /* Internal split: P partitions write f32 partials to scratch buffers,
   * combined into out / lse below. */
  int64_t P = internalSplit(&a), B = a.Bkv * a.R;
  char msO[128], msL[128];
  if (P > 1) {
    snprintf(msO, sizeof msO, "memref<%lldx%lldx%lldxf32>", (long long)(B * P),
             (long long)a.Sq, (long long)a.Dv);
    snprintf(msL, sizeof msL, "memref<%lldx%lldxf32>", (long long)(B * P),
             (long long)a.Sq);
    a.out = allocBuf(&g, msO, true);
    a.lse = allocBuf(&g, msL, true);
    snprintf(a.mo, sizeof a.mo, "%s", msO);
    snprintf(a.ml, sizeof a.ml, "%s", msL);
    a.to = a.tl = a.f32;
    a.hasLse = true;
    a.S = P;
    a.grid *= P;
  }
  g.heapBytes = 0; /* count the per-workgroup allocations only */
  generate(&g, &a);
  bool fits = rock__recordWorkgroupScratch(pass, op, g.heapBytes);

  RockStr text = {0};
  rock__strAppend(&text, "func.func @body(");
  MlirValue args[6 + MAX_ELEM];
  for (int i = 0; i < nArgs; ++i) {
    args[i] = mlirOperationGetOperand(op, i);
    rock__strAppendf(&text, "%s%%v%d: ", i ? ", " : "", i);
    rock__strAppendType(&text, mlirValueGetType(args[i]));
  }
  if (P > 1)
    rock__strAppendf(&text, ") -> (%s, %s) {\n", msO, msL);
  else
    rock__strAppend(&text, ") {\n");
  rock__strAppend(&text, g.consts.data ? g.consts.data : "");
  rock__strAppend(&text, g.body.data ? g.body.data : "");
  if (P > 1)
    rock__strAppendf(&text, "  return %%v%d, %%v%d : %s, %s\n}\n", a.out,
                     a.lse, msO, msL);
  else
    rock__strAppend(&text, "  return\n}\n");
  if (getenv("ROCK_DEBUG_GRIDWISE_TEXT"))
    fprintf(stderr, "%s", text.data);
  MlirValue part[2];
  bool ok = fits && rock__inlineFuncText(op, text.data, nArgs, args,
                                         P > 1 ? 2 : 0, part);
  rock__strFree(&text);
  rock__strFree(&g.body);
  rock__strFree(&g.consts);
  free(g.cs);
  if (ok && P > 1) {
    MlirValue cargs[4] = {part[0], part[1], args[outArg], args[outArg + 1]};
    ok = rock__inlineCombine(op, B, a.Sq, a.Dv, P, false, userLse ? 4 : 3,
                             cargs);
    RockStr fr = {0};
    rock__strAppendf(&fr,
                     "func.func @free(%%o: %s, %%l: %s) {\n"
                     "  memref.dealloc %%o : %s\n"
                     "  memref.dealloc %%l : %s\n"
                     "  return\n}\n",
                     msO, msL, msO, msL);
    ok = ok && rock__inlineFuncText(op, fr.data, 2, part, 0, NULL);
    rock__strFree(&fr);
  }
  if (!ok) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  if (!mlirBlockIsNull(a.rblock) &&
      !fillSlot(mlirOperationGetParentOperation(op), a.rblock)) {
    rock__passFail(pass, op, "rock internal error: region slot not found");
    return false;
  }
  mlirOperationDestroy(op);
  return true;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  rock__lowerEach(root, "rock.gridwise_attention", lowerOne, pass);
}

static const RockPassDef def = {
    "RockLowerGridwiseAttention", "rock-lower-gridwise-attention",
    "lower rock.gridwise_attention to split-KV online-softmax loops", "", run};

MlirPass rockLowerGridwiseAttentionPassCreate(void) {
  return rock__passCreate(&def);
}
void rockLowerGridwiseAttentionPassRegister(void) { rock__passRegister(&def); }
