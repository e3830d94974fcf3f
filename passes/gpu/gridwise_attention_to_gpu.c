/*===- gridwise_attention_to_gpu.c - rock-gridwise-attention-to-gpu -------===*
 *
 * Replaces every rock.gridwise_attention by a gpu.launch (SIMT, sm_90 and
 * any NVIDIA GPU): the GPU schedule of the algorithm whose rules come from
 * the target-neutral emitters of passes/attention/ (attention.h).
 *
 * Schedule (docs/gpu.md):
 *   - one workgroup per (batch·KV-head group, block of NB merged rows,
 *     split); the merged rows n = i·R + r hold all R query heads of the KV
 *     group (NB = min(Sq·R, ROWS_MAX)), so each K / V row is read once per
 *     workgroup and shared by those rows;
 *   - a workgroup of NW warps; a warp is cut into KPW lane groups of LPR
 *     lanes, a lane group owns one key at a time and each lane VEC elements
 *     (16 bytes) of its row, so a K / V row is one 16-byte load per lane;
 *     group G of the workgroup takes keys j0 + G·T .. j0 + G·T + T - 1 of
 *     each tile of MB = NW·KPW·T keys, all T·(UQ + UV) loads issued before
 *     they are used;
 *   - scores: per-lane partial dot products, xor-shuffle butterflies over
 *     the LPR lanes of the group; the region, log2e, the masks and the
 *     online softmax per tile of T keys (one rescale per tile);
 *   - every lane group keeps its own state (m, l, O chunk) in registers;
 *     the KPW groups of a warp merge by xor shuffles, the NW warps through
 *     workgroup memory, and warp 0 finalises and stores O (and LSE).
 * Rows past the block's real rows repeat the last real row and are never
 * stored; keys past Sk are loaded at Sk - 1 and masked.
 *
 * Without a user split (splitKV 1), the keys are cut into P partitions so
 * that the grid fills the GPU (rock__attnInternalSplit with numCu ·
 * BLOCKS_PER_SM workgroups and at least MIN_SPLIT_KEYS keys each): the
 * kernel writes f32 partials into device scratch (memref.alloc) and a second
 * launch merges them (rock__inlineCombine, lower_combine.c).
 *
 * exp2 and log2 are the hardware's approximate instructions
 * (llvm.nvvm.ex2.approx.ftz.f, llvm.nvvm.lg2.approx.ftz.f): no libdevice.
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Merged rows per workgroup at most (registers: UQ + UV vectors per row). */
#define ROWS_MAX 8
/* Lanes per key row: from the 16-byte chunks of a row down to LANES_MIN
 * while each lane's Q and O state (NB·(Dqk + Dv)/LPR f32 registers) stays
 * within STATE_REGS: fewer lanes per row means fewer shuffles per score and
 * less softmax work repeated across the lanes of a row, but more registers
 * (8 lanes for 4 rows of d 128 bf16 need about 210, so 2 workgroups per
 * SM; 16 lanes with 8 keys per group about 155, 3 workgroups). */
#define LANES_MIN 16 /* rock.gpu_lanes_min overrides */
#define STATE_REGS 128
/* Chunks of a row per lane at most while the lanes per row are halved. */
#define CHUNKS_MAX 8
/* Chunks of a row per lane at most: rows of more chunks than 32 lanes x
 * CHUNKS_MAX (head dims whose size only allows 1-, 2- or 4-byte accesses,
 * e.g. 999) are "wide": fewer rows per workgroup and one key per lane group
 * keep their per-lane Q and O state within WIDE_STATE f32 values; rows that
 * need more even alone (f32 head dims of 4096) are refused. */
#define CHUNKS_WIDE 32
#define WIDE_STATE 128
/* Warps per workgroup. */
#define WARPS 4
/* Keys per lane group per tile (rock.gpu_keys_per_group overrides, up to
 * KEYS_MAX): the loads in flight per lane. 4 keeps bf16 d 128 GQA 4 decode
 * at about 125 registers, 4 workgroups per SM (occupancy measured more than
 * the longer tiles of 8 keys at 153 registers or 8 lanes per row at 210). */
#define KEYS_PER_GROUP 4
#define KEYS_MAX 16
/* Tiles of K / V loads in flight: 1 = a tile's loads issued at the top of
 * its own iteration; 2 = the next tile's loads issued before this one is
 * computed (rock.gpu_pipeline_stages = 2). 1 is the default because the
 * versions measured with 2 were slower on the H200 (with more registers as
 * well, so the two effects are not separated yet). */
#define PIPELINE_STAGES 1
/* The workgroups per SM / CU the split aims at (the count of SMs / CUs is
 * rock__gpuNumCu: rock.num_cu, rock-gen -num_cu, else the target's). */
#define BLOCKS_PER_SM 4
/* The smallest key range of an internal partition. */
#define MIN_SPLIT_KEYS 512
/* Static workgroup memory limit (bytes). */
#define SMEM_MAX 49152

/*===--- the GPU's transcendental functions -------------------------------===*/

static int intrinsic(RockGen *g, const char *name, int x) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = llvm.call_intrinsic \"%s\"(%%v%d) : (f32) -> f32",
                r, name, x);
  return r;
}

static int exp2Scalar(RockGen *g, int x) {
  return intrinsic(g, "llvm.nvvm.ex2.approx.ftz.f", x);
}

static int exp2Any(RockGen *g, int x, int w) {
  (void)w; /* the GPU schedule is scalar per lane */
  return exp2Scalar(g, x);
}

static int log2Scalar(RockGen *g, int x) {
  return intrinsic(g, "llvm.nvvm.lg2.approx.ftz.f", x);
}

/* exp2(x) on the FMA pipe, for schedules whose softmax waits on the
 * special-function unit (16 results a cycle an SM, against 128 FMAs):
 * x = max(x, −127) (NaN-propagating), n = x rounded to an integer by
 * adding and subtracting 1.5 · 2^23 (t = x + 1.5 · 2^23 holds n in its low
 * mantissa bits), f = x − n in [−1/2, 1/2], 2^f = 1 + f·Q(f) by Horner's
 * rule in FMAs (minimax coefficients for the relative error, fitted on
 * [−1/2, 1/2] with the constant term exactly 1), times 2^n from the
 * exponent bits (t << 23) + bits(1.0). x <= −127 (and −inf) gives f = 0,
 * 2^f = 1 and (t << 23) + bits(1.0) = 0 (the exponent wraps to zero), so
 * exactly 0; x = 0 gives exactly 1; NaN stays NaN through 2^f. */
static int exp2Fma(RockGen *g, int x, int deg) {
  static const char *const cub[3] = {"5.50087206e-02", "2.42210463e-01",
                                     "6.93282902e-01"};
  static const char *const qrt[4] = {"9.58283059e-03", "5.59063703e-02",
                                     "2.40240991e-01", "6.93124175e-01"};
  const char *const *c = deg == 3 ? cub : qrt;
  int magic = rock__genConst(g, "12582912.0", "f32");
  int xc = rock__genBin(g, "arith.maximumf", x,
                        rock__genConst(g, "-127.0", "f32"), "f32");
  int t = rock__genBin(g, "arith.addf", xc, magic, "f32");
  int n = rock__genBin(g, "arith.subf", t, magic, "f32");
  int f = rock__genBin(g, "arith.subf", xc, n, "f32");
  int q = rock__genConst(g, c[0], "f32");
  for (int k = 1; k < deg; ++k)
    q = rock__genFma(g, q, f, rock__genConst(g, c[k], "f32"), "f32");
  q = rock__genFma(g, q, f, rock__genConst(g, "1.0", "f32"), "f32");
  int tb = rock__genFresh(g), sb = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.bitcast %%v%d : f32 to i32", tb, t);
  int e =
      rock__genBin(g, "arith.shli", tb, rock__genConst(g, "23", "i32"), "i32");
  e = rock__genBin(g, "arith.addi", e, rock__genConst(g, "1065353216", "i32"),
                   "i32");
  rock__genLine(g, "%%v%d = arith.bitcast %%v%d : i32 to f32", sb, e);
  return rock__genBin(g, "arith.mulf", q, sb, "f32");
}

static const RockAttnTarget gpuTarget = {exp2Scalar, exp2Any, log2Scalar,
                                         exp2Fma};

/*===--- the schedule's shape ---------------------------------------------===*/

typedef struct Sched {
  int vec;        /* elements per 16-byte lane access */
  int lpr;        /* lanes per key row (a power of two <= 32) */
  int kpw;        /* lane groups per warp */
  int nw;         /* warps */
  int t;          /* keys per group per tile */
  int stages;     /* 2: the next tile's loads in flight; 1: none ahead */
  int nchq, nchv; /* chunks of VEC elements along Dqk, Dv */
  int uq, uv;     /* chunks per lane along Dqk, Dv */
  int nb;         /* merged rows per workgroup */
} Sched;

static int pow2Ceil(int v) {
  int p = 1;
  while (p < v)
    p *= 2;
  return p;
}

/* Picks the shape for `a` and rewrites a's NB / MB / nNBlk / grid to it. */
static bool schedule(RockAttn *a, Sched *s, MlirExternalPass pass) {
  unsigned bq = rock__bitWidth(a->tq), bk = rock__bitWidth(a->tk),
           bv = rock__bitWidth(a->tv);
  unsigned maxBits = bq > bk ? bq : bk;
  maxBits = maxBits > bv ? maxBits : bv;
  s->vec = (int)(128 / maxBits);
  while (s->vec > 1 && (a->Dqk % s->vec || a->Dv % s->vec))
    s->vec /= 2;
  s->nchq = (int)(a->Dqk / s->vec);
  s->nchv = (int)(a->Dv / s->vec);
  int nch = s->nchq > s->nchv ? s->nchq : s->nchv;
  s->lpr = pow2Ceil(nch);
  if (s->lpr > 32)
    s->lpr = 32;
  int64_t sqr = a->Sq * a->R;
  s->nb = (int)(sqr < ROWS_MAX ? sqr : ROWS_MAX);
  int64_t lanesMin =
      rock__attnMachineAttr(a->op, "rock.gpu_lanes_min", LANES_MIN);
  int64_t keys =
      rock__attnMachineAttr(a->op, "rock.gpu_keys_per_group", KEYS_PER_GROUP);
  int64_t stages =
      rock__attnMachineAttr(a->op, "rock.gpu_pipeline_stages", PIPELINE_STAGES);
  if (lanesMin > 32 || (lanesMin & (lanesMin - 1)) || keys > KEYS_MAX ||
      stages > 2) {
    rock__passFail(pass, a->op,
                   "rock.gpu_lanes_min must be a power of two <= 32, "
                   "rock.gpu_keys_per_group <= %d and rock.gpu_pipeline_stages "
                   "1 or 2",
                   KEYS_MAX);
    return false;
  }
  s->t = (int)keys;
  s->stages = (int)stages;
  while (s->lpr > lanesMin &&
         (int64_t)s->nb * (a->Dqk + a->Dv) / (s->lpr / 2) <= STATE_REGS &&
         (nch + s->lpr / 2 - 1) / (s->lpr / 2) <= CHUNKS_MAX)
    s->lpr /= 2;
  s->kpw = 32 / s->lpr;
  s->uq = (s->nchq + s->lpr - 1) / s->lpr;
  s->uv = (s->nchv + s->lpr - 1) / s->lpr;
  bool wide = s->uq > CHUNKS_MAX || s->uv > CHUNKS_MAX;
  if (wide) {
    s->t = 1;
    while (s->nb > 1 && (int64_t)s->nb * (s->uq + s->uv) * s->vec > WIDE_STATE)
      s->nb = (s->nb + 1) / 2;
  }
  s->nw = WARPS;
  while (s->nw > 1 &&
         (int64_t)s->nw * s->nb * a->Dv * 4 + 2 * s->nw * s->nb * 4 > SMEM_MAX)
    s->nw /= 2;
  if ((int64_t)s->nw * s->nb * a->Dv * 4 + 2 * s->nw * s->nb * 4 > SMEM_MAX) {
    rock__passFail(pass, a->op,
                   "head_dim_v %lld is too large for the GPU lowering",
                   (long long)a->Dv);
    return false;
  }
  if (s->uq > CHUNKS_WIDE || s->uv > CHUNKS_WIDE ||
      (wide && (int64_t)s->nb * (s->uq + s->uv) * s->vec > WIDE_STATE)) {
    rock__passFail(pass, a->op,
                   "head dims %lld / %lld are too large for the GPU lowering",
                   (long long)a->Dqk, (long long)a->Dv);
    return false;
  }
  a->NB = s->nb;
  a->MB = (int64_t)s->nw * s->kpw * s->t;
  a->nNBlk = (sqr + a->NB - 1) / a->NB;
  a->grid = a->Bkv * a->nNBlk * a->S;
  return true;
}

/*===--- emission helpers -------------------------------------------------===*/

/* Per-lane coordinates. */
typedef struct Lane {
  int tx, sub, warp, group; /* thread, lane in its group, warp, group index */
} Lane;

/* The chunk index (in VEC elements) lane `sub` owns at step u of `nch`
 * chunks: sub + u·LPR, clamped to nch - 1 when it may run past (then *ok is
 * the i1 "in range", else -1). */
static int chunk(RockGen *g, const Sched *s, int sub, int u, int nch, int *ok) {
  int c = u ? rock__genBin(g, "arith.addi", sub, rock__genIndex(g, u * s->lpr),
                           "index")
            : sub;
  *ok = -1;
  if (nch % s->lpr == 0)
    return c;
  *ok = rock__genBin(g, "arith.cmpi ult,", c, rock__genIndex(g, nch), "index");
  return rock__genBin(g, "arith.minui", c, rock__genIndex(g, nch - 1), "index");
}

static int elemOffset(RockGen *g, const Sched *s, int c) {
  return rock__genBin(g, "arith.muli", c, rock__genIndex(g, s->vec), "index");
}

/* rock.view_load of VEC elements at [i0, i1, i2] of `view` (aligned). */
static int viewLoad(RockGen *g, const Sched *s, int view, const char *mt,
                    MlirType elt, int i0, int i1, int i2) {
  char ib[128], ty[64];
  rock__idx3(ib, sizeof ib, i0, i1, i2);
  rock__typeStr(ty, sizeof ty, elt, s->vec);
  int r = rock__genFresh(g);
  unsigned bytes = s->vec * ((rock__bitWidth(elt) + 7) / 8);
  rock__genLine(g,
                "%%v%d = rock.view_load %%v%d[%s] {rock.align = %u : i64} "
                ": %s -> %s",
                r, view, ib, bytes, mt, ty);
  return r;
}

/* Sum of a lane's partial dot products over the LPR lanes of its group. */
static int butterfly(RockGen *g, const Sched *s, int v, const char *ty,
                     bool fl) {
  int w = rock__genConst(g, "32", "i32");
  for (int off = 1; off < s->lpr; off *= 2) {
    char lit[16];
    snprintf(lit, sizeof lit, "%d", off);
    int o = rock__genConst(g, lit, "i32");
    int sh = rock__genFresh(g), ok = rock__genFresh(g);
    rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : %s",
                  sh, ok, v, o, w, ty);
    v = fl ? rock__genBin(g, "arith.addf", v, sh, ty)
           : rock__genBin(g, "arith.addi", v, sh, ty);
  }
  return v;
}

static int shuffleXor(RockGen *g, int v, int off) {
  char lit[16];
  snprintf(lit, sizeof lit, "%d", off);
  int o = rock__genConst(g, lit, "i32"), w = rock__genConst(g, "32", "i32");
  int sh = rock__genFresh(g), ok = rock__genFresh(g);
  rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : f32",
                sh, ok, v, o, w);
  return sh;
}

/* A vector<VEC x f32> value's xor-shuffle, lane by lane. */
static int shuffleVec(RockGen *g, const Sched *s, int v, int off) {
  char vt[32];
  snprintf(vt, sizeof vt, "vector<%dxf32>", s->vec);
  if (s->vec == 1)
    return shuffleXor(g, v, off);
  RockStr list = {0};
  for (int e = 0; e < s->vec; ++e) {
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : f32 from %s", x, v, e,
                  vt);
    rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", shuffleXor(g, x, off));
  }
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.from_elements %s : %s", r, list.data, vt);
  rock__strFree(&list);
  return r;
}

/* c1 * o1 + c2 * o2 on vector<VEC x f32>. */
static int mergeO(RockGen *g, const Sched *s, int o1, int c1, int o2, int c2) {
  char vt[32];
  rock__typeStrS(vt, sizeof vt, "f32", s->vec);
  int a = rock__genBin(g, "arith.mulf", o1,
                       rock__genBcast(g, c1, s->vec, "f32"), vt);
  int b = rock__genBin(g, "arith.mulf", o2,
                       rock__genBcast(g, c2, s->vec, "f32"), vt);
  return rock__genBin(g, "arith.addf", a, b, vt);
}

/* The VEC lanes of %v (vector<VEC x f32>) as scalars out[0..VEC). */
static void lanes(RockGen *g, const Sched *s, int v, int *out) {
  char vt[32];
  snprintf(vt, sizeof vt, "vector<%dxf32>", s->vec);
  if (s->vec == 1) {
    out[0] = v;
    return;
  }
  for (int e = 0; e < s->vec; ++e) {
    out[e] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : f32 from %s", out[e],
                  v, e, vt);
  }
}

/* Opens `scf.if %c {`. */
static void ifOpen(RockGen *g, int c) {
  rock__genLine(g, "scf.if %%v%d {", c);
  g->depth++;
}

/*===--- the kernel -------------------------------------------------------===*/

enum { NBMAX = ROWS_MAX, UMAX = CHUNKS_WIDE, TMAX = KEYS_MAX, VMAX = 16 };

/* The keys group `group` takes in tile `kt`: jj[t] = kt·MB + group·T + t,
 * and jc[t] = min(jj[t], Sk - 1), the key actually read. */
static void tileKeys(RockGen *g, const RockAttn *a, const Sched *s, int group,
                     int kt, int *jj, int *jc) {
  int j0;
  (void)rock__attnTileCols(g, a, kt, &j0);
  int base = rock__genBin(
      g, "arith.addi", j0,
      rock__genBin(g, "arith.muli", group, rock__genIndex(g, s->t), "index"),
      "index");
  for (int t = 0; t < s->t; ++t) {
    jj[t] =
        t ? rock__genBin(g, "arith.addi", base, rock__genIndex(g, t), "index")
          : base;
    jc[t] = rock__genBin(g, "arith.minui", jj[t], rock__genIndex(g, a->Sk - 1),
                         "index");
  }
}

/* Issues every K and V load of tile `kt` for this lane: T·(UQ + UV) 16-byte
 * loads, raw (in K's / V's element type) into kr[t][u], vr[t][u]. */
static void tileLoads(RockGen *g, const RockAttn *a, const Sched *s, int group,
                      int gBlk, int kt, const int *chq, const int *chv,
                      int kr[][UMAX], int vr[][UMAX]) {
  int jj[TMAX], jc[TMAX];
  tileKeys(g, a, s, group, kt, jj, jc);
  for (int t = 0; t < s->t; ++t)
    for (int u = 0; u < s->uq; ++u)
      kr[t][u] = viewLoad(g, s, a->k, a->mk, a->tk, gBlk, jc[t], chq[u]);
  for (int t = 0; t < s->t; ++t)
    for (int u = 0; u < s->uv; ++u)
      vr[t][u] = viewLoad(g, s, a->v, a->mv, a->tv, gBlk, jc[t], chv[u]);
}

static bool generateGpu(RockGen *g, RockAttn *a, const void *ctx) {
  const Sched *s = ctx;
  char ib[160];
  char vt[32], va[32];
  rock__typeStrS(vt, sizeof vt, "f32", s->vec);
  const char *acc = rock__isFloat(a->acc) ? "f32" : "i32";
  bool fl = rock__isFloat(a->acc);
  rock__typeStrS(va, sizeof va, acc, s->vec);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  int cR = rock__genIndex(g, a->R);
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int nThreads = s->nw * 32;
  char mM[96], mO[128];
  snprintf(mM, sizeof mM, "memref<%dx%dxf32, #gpu.address_space<workgroup>>",
           s->nw, s->nb);
  snprintf(mO, sizeof mO,
           "memref<%dx%dx%lldxf32, #gpu.address_space<workgroup>>", s->nw,
           s->nb, (long long)a->Dv);
  int bx = rock__genFresh(g), by = rock__genFresh(g), bz = rock__genFresh(g);
  int tx = rock__genFresh(g), ty = rock__genFresh(g), tz = rock__genFresh(g);
  int gx = rock__genFresh(g), gy = rock__genFresh(g), gz = rock__genFresh(g);
  int sx = rock__genFresh(g), sy = rock__genFresh(g), sz = rock__genFresh(g);
  int smM = rock__genFresh(g), smL = rock__genFresh(g), smO = rock__genFresh(g);
  rock__genLine(
      g,
      "gpu.launch blocks(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, %%v%d = "
      "%%v%d, %%v%d = %%v%d) threads(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, "
      "%%v%d = %%v%d, %%v%d = %%v%d) workgroup(%%v%d : %s, %%v%d : %s, "
      "%%v%d : %s) {",
      bx, by, bz, gx, rock__genIndex(g, a->grid), gy, c1, gz, c1, tx, ty, tz,
      sx, rock__genIndex(g, nThreads), sy, c1, sz, c1, smM, mM, smL, mM, smO,
      mO);
  g->depth++;
  rock__attnPdlTrigger(g, a);
  (void)by, (void)bz, (void)ty, (void)tz, (void)gx, (void)gy, (void)gz,
      (void)sx, (void)sy, (void)sz;

  Lane ln;
  ln.tx = tx;
  int c32 = rock__genIndex(g, 32);
  int lane = rock__genBin(g, "arith.remui", tx, c32, "index");
  ln.warp = rock__genBin(g, "arith.divui", tx, c32, "index");
  ln.sub =
      rock__genBin(g, "arith.remui", lane, rock__genIndex(g, s->lpr), "index");
  int grp =
      rock__genBin(g, "arith.divui", lane, rock__genIndex(g, s->lpr), "index");
  ln.group = rock__genBin(g, "arith.addi",
                          rock__genBin(g, "arith.muli", ln.warp,
                                       rock__genIndex(g, s->kpw), "index"),
                          grp, "index");

  RockAttnWg wg = rock__attnWorkgroup(g, a, bx);
  int lastRow = rock__genBin(g, "arith.subi", wg.nRows, c1, "index");

  /* Rows: indices, Q chunks in registers, per-row key limits. */
  RockRowIdx x[NBMAX];
  int q[NBMAX][UMAX], qs[NBMAX][UMAX][VMAX], last[NBMAX], low[NBMAX];
  int eff = -1, lowKey = -1;
  if (a->dynamic) {
    eff = rock__genIndex(g, -1);
    lowKey = rock__genIndex(g, a->Sk);
  }
  for (int r = 0; r < s->nb; ++r) {
    int rc =
        rock__genBin(g, "arith.minui", rock__genIndex(g, r), lastRow, "index");
    x[r] = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
    for (int u = 0; u < s->uq; ++u) {
      int ok, ch = chunk(g, s, ln.sub, u, s->nchq, &ok);
      int ld = viewLoad(g, s, a->q, a->mq, a->tq, x[r].bq, x[r].i,
                        elemOffset(g, s, ch));
      q[r][u] = rock__genConv(g, ld, a->tq, a->acc, s->vec);
      if (ok >= 0) {
        char st[64];
        snprintf(st, sizeof st, "%s", va);
        q[r][u] =
            rock__genSelect(g, ok, q[r][u], rock__genZero(g, acc, s->vec), st);
      }
      if (fl)
        lanes(g, s, q[r][u], qs[r][u]);
    }
    if (a->dynamic) {
      last[r] = rock__attnRowLast(g, a, x[r]);
      eff = rock__attnBlockLast(g, eff, last[r]);
      if (a->hasLow) {
        low[r] = rock__attnRowLow(g, a, x[r]);
        lowKey = rock__attnBlockLow(g, lowKey, low[r]);
      }
    }
  }

  int start, end;
  rock__attnTileRange(g, a, wg.split, eff, lowKey, &start, &end);

  /* The lane's head-dim chunks of K and V rows. */
  int okq[UMAX], okv[UMAX], chq[UMAX], chv[UMAX];
  for (int u = 0; u < s->uq; ++u)
    chq[u] = elemOffset(g, s, chunk(g, s, ln.sub, u, s->nchq, &okq[u]));
  for (int u = 0; u < s->uv; ++u)
    chv[u] = elemOffset(g, s, chunk(g, s, ln.sub, u, s->nchv, &okv[u]));

  /* Loop state: per row m, l, O chunks; then the raw K / V of the tile
   * about to be used, loaded one iteration ahead (software pipelining: the
   * next tile's loads are in flight while this one is computed). */
  enum { NSTATE = NBMAX * (2 + UMAX), NALL = NSTATE + 2 * TMAX * UMAX };
  int init[NALL], args[NALL], res[NALL], next[NALL];
  const char *tys[NALL];
  char tkS[64], tvS[64];
  rock__typeStr(tkS, sizeof tkS, a->tk, s->vec);
  rock__typeStr(tvS, sizeof tvS, a->tv, s->vec);
  int nSt = 0;
  int zv = rock__genZero(g, "f32", s->vec);
  for (int r = 0; r < s->nb; ++r) {
    init[nSt] = ninf, tys[nSt++] = "f32";
    init[nSt] = zf, tys[nSt++] = "f32";
    for (int u = 0; u < s->uv; ++u)
      init[nSt] = zv, tys[nSt++] = vt;
  }
  int kr0[TMAX][UMAX], vr0[TMAX][UMAX];
  bool ahead = s->stages > 1;
  if (ahead)
    tileLoads(g, a, s, ln.group, wg.gBlk, start, chq, chv, kr0, vr0);
  int nAll = nSt;
  for (int t = 0; ahead && t < s->t; ++t)
    for (int u = 0; u < s->uq; ++u)
      init[nAll] = kr0[t][u], tys[nAll++] = tkS;
  for (int t = 0; ahead && t < s->t; ++t)
    for (int u = 0; u < s->uv; ++u)
      init[nAll] = vr0[t][u], tys[nAll++] = tvS;
  int lastTile = rock__genBin(g, "arith.subi", end, c1, "index");
  int kt;
  rock__genForTyped(g, start, end, c1, nAll, init, tys, &kt, args, res);
  {
    /* Two stages: the next tile's loads first (the last tile re-reads
     * itself), this tile's raw K / V from the loop state; one stage: this
     * tile's loads here. */
    int krn[TMAX][UMAX], vrn[TMAX][UMAX], kcur[TMAX][UMAX], vcur[TMAX][UMAX];
    int m = nSt;
    if (ahead) {
      int ktn = rock__genBin(g, "arith.minui",
                             rock__genBin(g, "arith.addi", kt, c1, "index"),
                             lastTile, "index");
      tileLoads(g, a, s, ln.group, wg.gBlk, ktn, chq, chv, krn, vrn);
      for (int t = 0; t < s->t; ++t)
        for (int u = 0; u < s->uq; ++u)
          kcur[t][u] = args[m++];
      for (int t = 0; t < s->t; ++t)
        for (int u = 0; u < s->uv; ++u)
          vcur[t][u] = args[m++];
    } else {
      tileLoads(g, a, s, ln.group, wg.gBlk, kt, chq, chv, kcur, vcur);
    }
    int jj[TMAX], jc[TMAX], kv[TMAX][UMAX], vv[TMAX][UMAX];
    int ks[TMAX][UMAX][VMAX];
    tileKeys(g, a, s, ln.group, kt, jj, jc);
    for (int t = 0; t < s->t; ++t)
      for (int u = 0; u < s->uq; ++u) {
        kv[t][u] = rock__genConv(g, kcur[t][u], a->tk, a->acc, s->vec);
        if (fl)
          lanes(g, s, kv[t][u], ks[t][u]);
      }
    for (int t = 0; t < s->t; ++t)
      for (int u = 0; u < s->uv; ++u)
        vv[t][u] = rock__genConv(g, vcur[t][u], a->tv, a->f32, s->vec);
    m = nSt;
    for (int t = 0; ahead && t < s->t; ++t)
      for (int u = 0; u < s->uq; ++u)
        next[m++] = krn[t][u];
    for (int t = 0; ahead && t < s->t; ++t)
      for (int u = 0; u < s->uv; ++u)
        next[m++] = vrn[t][u];
    int n = 0;
    for (int r = 0; r < s->nb; ++r) {
      int mOld = args[n], lOld = args[n + 1];
      const int *oOld = &args[n + 2];
      /* Scores of the T keys: dot product, butterfly, region, masks. */
      int xs[TMAX];
      for (int t = 0; t < s->t; ++t) {
        /* Float: one fma chain over the lane's elements; integer: vector
         * products and a reduction. */
        int part = -1;
        for (int u = 0; fl && u < s->uq; ++u)
          for (int e = 0; e < s->vec; ++e)
            part = part < 0
                       ? rock__genBin(g, "arith.mulf", qs[r][u][e], ks[t][u][e],
                                      "f32")
                       : rock__genFma(g, qs[r][u][e], ks[t][u][e], part, "f32");
        for (int u = 0; !fl && u < s->uq; ++u) {
          int p = rock__genBin(g, "arith.muli", q[r][u], kv[t][u], va);
          part = part < 0 ? p : rock__genBin(g, "arith.addi", part, p, va);
        }
        int sc = part;
        if (s->vec > 1 && !fl) {
          sc = rock__genFresh(g);
          rock__genLine(g,
                        "%%v%d = vector.reduction <add>, %%v%d%s : %s into %s",
                        sc, part, fl ? " " ROCK_FM : "", va, acc);
        }
        sc = butterfly(g, s, sc, acc, fl);
        int xv;
        if (!mlirBlockIsNull(a->rblock)) {
          MlirType yt;
          int y = rock__attnRegion(g, a, sc, x[r], jc[t], &yt);
          xv = rock__attnScore(g, a, y, yt, 1);
        } else {
          xv = rock__attnScore(g, a, sc, a->acc, 1);
        }
        int mv = rock__attnMaskedValue(g, a, 1);
        xv = rock__attnMaskPad(g, a, xv, jj[t], mv, 1);
        if (a->dynamic)
          xv = rock__attnMaskLast(g, xv, jj[t], last[r], mv, 1);
        if (a->hasLow)
          xv = rock__attnMaskLow(g, xv, jj[t], low[r], mv, 1);
        xs[t] = xv;
      }
      /* The online softmax over the tile of T keys. */
      int pr[TMAX], c = -1, mNew = mOld, lNew = lOld;
      if (a->softmax) {
        int tileMax = ninf;
        for (int t = 0; t < s->t; ++t)
          tileMax = rock__genBin(g, "arith.maxnumf", tileMax, xs[t], "f32");
        int mSafe;
        c = rock__attnRescale(g, a, mOld, tileMax, &mNew, &mSafe);
        int rowSum = zf;
        for (int t = 0; t < s->t; ++t) {
          int p = rock__attnProb(g, a, xs[t], mSafe, 1, &pr[t]);
          rowSum = rock__genBin(g, "arith.addf", rowSum, p, "f32");
        }
        lNew = rock__attnRowSum(g, c, lOld, rowSum);
      } else {
        for (int t = 0; t < s->t; ++t)
          pr[t] = rock__attnProbPlain(g, a, xs[t], 1);
      }
      next[n] = mNew;
      next[n + 1] = lNew;
      /* O = c·O + Σ_t P_t·V_t on this lane's chunks. */
      for (int u = 0; u < s->uv; ++u) {
        int o = oOld[u];
        if (c >= 0)
          o = rock__genBinF(g, "arith.mulf", o,
                            rock__genBcast(g, c, s->vec, "f32"), vt);
        for (int t = 0; t < s->t; ++t)
          o = rock__genFma(g, rock__genBcast(g, pr[t], s->vec, "f32"), vv[t][u],
                           o, vt);
        next[n + 2 + u] = o;
      }
      n += 2 + s->uv;
    }
    rock__genYieldTypedEnd(g, nAll, next, tys);
  }

  /* Merge the KPW lane groups of each warp (xor shuffles). */
  int st[NSTATE];
  memcpy(st, res, sizeof(int) * (size_t)nSt);
  for (int off = s->lpr; off < 32; off *= 2) {
    int n = 0;
    for (int r = 0; r < s->nb; ++r, n += 2 + s->uv) {
      int m2 = shuffleXor(g, st[n], off), l2 = shuffleXor(g, st[n + 1], off);
      int m, c1v, c2v;
      int l =
          rock__attnMergeStates(g, a, st[n], st[n + 1], m2, l2, &m, &c1v, &c2v);
      for (int u = 0; u < s->uv; ++u)
        st[n + 2 + u] = mergeO(g, s, st[n + 2 + u], c1v,
                               shuffleVec(g, s, st[n + 2 + u], off), c2v);
      st[n] = m;
      st[n + 1] = l;
    }
  }

  /* Group 0 of every warp writes the warp's state to workgroup memory. */
  int isG0 = rock__genBin(g, "arith.cmpi ult,", lane, rock__genIndex(g, s->lpr),
                          "index");
  ifOpen(g, isG0);
  {
    int isS0 = rock__genBin(g, "arith.cmpi eq,", ln.sub, c0, "index");
    int n = 0;
    for (int r = 0; r < s->nb; ++r, n += 2 + s->uv) {
      int cr = rock__genIndex(g, r);
      ifOpen(g, isS0);
      rock__idx2(ib, sizeof ib, ln.warp, cr);
      rock__genStore(g, st[n], smM, mM, ib, 1, "f32");
      rock__genStore(g, st[n + 1], smL, mM, ib, 1, "f32");
      rock__genEnd(g);
      for (int u = 0; u < s->uv; ++u) {
        if (okv[u] >= 0)
          ifOpen(g, okv[u]);
        rock__idx3(ib, sizeof ib, ln.warp, cr, chv[u]);
        rock__genStore(g, st[n + 2 + u], smO, mO, ib, s->vec, "f32");
        if (okv[u] >= 0)
          rock__genEnd(g);
      }
    }
  }
  rock__genEnd(g);
  rock__genLine(g, "gpu.barrier");

  /* Warp 0, group 0: merge the warps, finalise, store. */
  int isW0 = rock__genBin(g, "arith.cmpi ult,", tx, rock__genIndex(g, s->lpr),
                          "index");
  ifOpen(g, isW0);
  {
    int isS0 = rock__genBin(g, "arith.cmpi eq,", ln.sub, c0, "index");
    for (int r = 0; r < s->nb; ++r) {
      int cr = rock__genIndex(g, r);
      int m = -1, l = -1, o[UMAX];
      for (int w = 0; w < s->nw; ++w) {
        int cw = rock__genIndex(g, w);
        rock__idx2(ib, sizeof ib, cw, cr);
        int m2 = rock__genLoad(g, smM, mM, ib, 1, "f32");
        int l2 = rock__genLoad(g, smL, mM, ib, 1, "f32");
        int o2[UMAX];
        for (int u = 0; u < s->uv; ++u) {
          rock__idx3(ib, sizeof ib, cw, cr, chv[u]);
          o2[u] = rock__genLoad(g, smO, mO, ib, s->vec, "f32");
        }
        if (w == 0) {
          m = m2, l = l2;
          memcpy(o, o2, sizeof(int) * (size_t)s->uv);
          continue;
        }
        int mm, c1v, c2v;
        l = rock__attnMergeStates(g, a, m, l, m2, l2, &mm, &c1v, &c2v);
        m = mm;
        for (int u = 0; u < s->uv; ++u)
          o[u] = mergeO(g, s, o[u], c1v, o2[u], c2v);
      }
      /* Only real rows are stored. */
      int real = rock__genBin(g, "arith.cmpi ult,", cr, wg.nRows, "index");
      ifOpen(g, real);
      int ob = rock__attnOutRow(g, a, x[r].bq, wg.split);
      int lz, inv = rock__attnFinalGuard(g, l, &lz);
      for (int u = 0; u < s->uv; ++u) {
        int oc = rock__attnFinalO(g, a, o[u], lz, inv, s->vec);
        if (okv[u] >= 0)
          ifOpen(g, okv[u]);
        char to[64];
        rock__typeStr(to, sizeof to, a->to, s->vec);
        unsigned bytes = s->vec * ((rock__bitWidth(a->to) + 7) / 8);
        rock__idx3(ib, sizeof ib, ob, x[r].i, chv[u]);
        rock__genLine(g,
                      "rock.view_store %%v%d, %%v%d[%s] {rock.align = %u : "
                      "i64} : %s, %s",
                      oc, a->out, ib, bytes, to, a->mo);
        if (okv[u] >= 0)
          rock__genEnd(g);
      }
      if (a->hasLse && a->softmax) {
        ifOpen(g, isS0);
        int lc = rock__attnLse(g, a, l, m, lz);
        char tl[64];
        rock__typeStr(tl, sizeof tl, a->tl, 1);
        rock__idx2(ib, sizeof ib, ob, x[r].i);
        rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lc,
                      a->lse, ib, tl, a->ml);
        rock__genEnd(g);
      }
      rock__genEnd(g);
    }
  }
  rock__genEnd(g);
  rock__genLine(g, "gpu.terminator");
  g->depth--;
  rock__genLine(g, "}");
  return true;
}

/*===--- the pass ---------------------------------------------------------===*/

/* The SIMT schedule of `op` (analysed into `a`) and its internal split:
 * without a user split, P partitions fill the GPU (f32 partials, combined
 * by a second launch). */
static bool planSimt(MlirOperation op, MlirExternalPass pass, RockAttn *a,
                     Sched *s, int64_t *P) {
  if (!schedule(a, s, pass))
    return false;
  int64_t minTiles = (MIN_SPLIT_KEYS + a->MB - 1) / a->MB;
  RockGpuTarget t = {0};
  MlirExternalPass quiet = {NULL};
  (void)rock__gpuArch(op, quiet, &t); /* unknown: rock__gpuNumCu's default */
  *P = rock__attnInternalSplit(a, rock__gpuNumCu(op, &t) * BLOCKS_PER_SM,
                               minTiles);
  return true;
}

static bool lowerOne(MlirOperation op, MlirExternalPass pass) {
  RockAttn a;
  if (!rock__attnAnalyse(op, pass, &a))
    return false;
  a.tgt = &gpuTarget;
  /* Prefill and multi-token decode on the tensor cores when they apply:
   * Hopper's warpgroup MMA first, then mma.sync / MFMA / WMMA. */
  int accel = rock__gpuAttnWgmma(op, pass, &a);
  if (accel < 0)
    accel = rock__gpuAttnAccel(op, pass, &a);
  if (accel >= 0)
    return accel == 1;
  Sched s;
  int64_t P;
  if (!planSimt(op, pass, &a, &s, &P))
    return false;
  return rock__attnLower(op, pass, &a, P, true, generateGpu, &s);
}

bool rock__gpuAttnPlan(MlirOperation op, char *buf, size_t len) {
  MlirExternalPass quiet = {NULL};
  RockAttn a;
  if (!rock__attnAnalyse(op, quiet, &a))
    return false;
  a.tgt = &gpuTarget;
  if (rock__gpuAttnWgmmaPlan(op, &a, buf, len) ||
      rock__gpuAttnAccelPlan(op, &a, buf, len))
    return true;
  Sched s;
  int64_t P;
  if (!planSimt(op, quiet, &a, &s, &P))
    return false;
  snprintf(buf, len,
           "simt vec %d lanes %d groups %d warps %d keys %d stages %d rows %d "
           "split %lld",
           s.vec, s.lpr, s.kpw, s.nw, s.t, s.stages, s.nb, (long long)P);
  return true;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  rock__lowerEach(root, "rock.gridwise_attention", lowerOne, pass);
}

static const RockPassDef def = {
    "RockGridwiseAttentionToGpu", "rock-gridwise-attention-to-gpu",
    "lower rock.gridwise_attention to a gpu.launch (SIMT, online softmax per "
    "lane group, split-KV)",
    "", run};

MlirPass rockGridwiseAttentionToGpuPassCreate(void) {
  return rock__passCreate(&def);
}
void rockGridwiseAttentionToGpuPassRegister(void) { rock__passRegister(&def); }
