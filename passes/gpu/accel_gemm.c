/*===- accel_gemm.c - rock-accel-gemm --------------------------------------===*
 *
 * A GEMM on the tile-product emitters (accel.h), to pin and to validate
 * their fragment layouts through the real GPU pipeline: every func.func
 * carrying `rock.accel_gemm` with arguments
 *   A: memref<M x K x T>,  B: memref<N x K x T> (or memref<K x N x T> when
 *   `rock.accel_b_kn` is set),  C: memref<M x N x f32|i32>
 * (T = f16, bf16 or i8) gets, before its return, a gpu.launch of one
 * workgroup of M / m warps (or, with `rock.accel_tile = array<i64: BM, BN>`,
 * a grid of (N / BN, M / BM) workgroups of BM / m warps, each computing its
 * BM x BN block of C): per step of k, the A and B tiles are staged in
 * workgroup memory (B in its own layout, so the [k][n] form exercises the
 * strided B fragment that P·V uses), each warp takes rows w·m .. w·m + m - 1
 * and every n-tile, and the accumulators are stored through
 * rock__accelAccCoord. The target is the module's rock.arch; on sm_90a,
 * f16 / bf16 run on warpgroup MMA (m = 64 rows per warpgroup, n the widest
 * multiple of 8 up to 128 dividing BN), staged K-major in the wgmma layout (B
 * [k][n] transposed on the way) with 64 k per step when K allows, and i8 on
 * mma.sync.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"
#include "internal.h"
#include "rock-c/Passes.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NT_MAX = 16 };

static bool dims(MlirValue v, int64_t *d0, int64_t *d1) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAMemRef(t) || mlirShapedTypeGetRank(t) != 2 ||
      !mlirShapedTypeHasStaticShape(t))
    return false;
  *d0 = mlirShapedTypeGetDimSize(t, 0);
  *d1 = mlirShapedTypeGetDimSize(t, 1);
  return true;
}

/* The problem and its split: each workgroup computes the bm x bn block
 * (by, bx) of C, staging kt columns of k per step. */
typedef struct Gemm {
  int64_t M, N, K, bm, bn;
  int kt;
  bool kn; /* B stored [k][n] */
  const char *ty[3];
} Gemm;

/* Stores x, the element (r, kk) of a staged [rows][kt] tile, into `mem`:
 * at [r, kk] for the register-fragment emitters, at the wgmma layout's
 * offset otherwise. */
static void stageStore(RockGen *g, const RockAccel *ac, int x, int mem,
                       const char *mt, int rows, int r, int kk) {
  if (ac->kind == ROCK_ACCEL_WGMMA)
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d] : %s", x, mem,
                  rock__accelWgmmaIndex(g, rows, r, kk), mt);
  else
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", x, mem, r,
                  kk, mt);
}

/* Copies the A block [bm][kt] and the B block ([bn][kt] or [kt][bn]) at k0
 * of the workgroup's (row, col) base into workgroup memory. */
static void stage(RockGen *g, const RockAccel *ac, const Gemm *p, int tx,
                  int nThreads, int k0, int rowB, int colB, int sA,
                  const char *mA, int sB, const char *mB) {
  int ck = rock__genIndex(g, p->kt), cN = rock__genIndex(g, p->bn),
      cT = rock__genIndex(g, nThreads);
  int i = rock__genFor(g, tx, rock__genIndex(g, p->bm * p->kt), cT);
  {
    int r = rock__genBin(g, "arith.divui", i, ck, "index");
    int kk = rock__genBin(g, "arith.remui", i, ck, "index");
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v0[%%v%d, %%v%d] : %s", x,
                  rock__genBin(g, "arith.addi", rowB, r, "index"),
                  rock__genBin(g, "arith.addi", k0, kk, "index"), p->ty[0]);
    stageStore(g, ac, x, sA, mA, (int)p->bm, r, kk);
  }
  rock__genEnd(g);
  i = rock__genFor(g, tx, rock__genIndex(g, p->bn * p->kt), cT);
  {
    int x = rock__genFresh(g);
    int c = rock__genBin(g, p->kn ? "arith.remui" : "arith.divui", i,
                         p->kn ? cN : ck, "index");
    int kk = rock__genBin(g, p->kn ? "arith.divui" : "arith.remui", i,
                          p->kn ? cN : ck, "index");
    int kg = rock__genBin(g, "arith.addi", k0, kk, "index");
    int cg = rock__genBin(g, "arith.addi", colB, c, "index");
    rock__genLine(g, "%%v%d = memref.load %%v1[%%v%d, %%v%d] : %s", x,
                  p->kn ? kg : cg, p->kn ? cg : kg, p->ty[1]);
    if (p->kn && ac->kind != ROCK_ACCEL_WGMMA)
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", x, sB,
                    kk, c, mB);
    else
      stageStore(g, ac, x, sB, mB, (int)p->bn, c, kk);
  }
  rock__genEnd(g);
}

/* One staged step's tile products: the warp's (warpgroup's) rows row0 ..
 * row0 + m - 1 against every n-tile; acc[] in, next[] out. */
static void products(RockGen *g, const RockAccel *ac, const Gemm *p, int row0,
                     int lane, int sA, const char *mA, int sB, const char *mB,
                     int nt, const int *acc, int *next) {
  int c0 = rock__genIndex(g, 0);
  if (ac->kind != ROCK_ACCEL_WGMMA) {
    rock__genLine(g, "gpu.barrier");
    int a = rock__accelLoadA(g, ac, sA, mA, true, row0, c0, lane);
    for (int j = 0; j < nt; ++j) {
      int b = rock__accelLoadB(g, ac, sB, mB, !p->kn,
                               rock__genIndex(g, j * ac->n), c0, lane);
      next[j] = rock__accelMma(g, ac, a, b, acc[j]);
    }
    return;
  }
  /* wgmma: K-major A and B (the staging transposed a [k][n] B). */
  rock__accelWgmmaBegin(g);
  for (int j = 0; j < nt; ++j)
    next[j] = acc[j];
  for (int ks = 0; ks < p->kt; ks += 16) {
    int ck = rock__genIndex(g, ks);
    int da = rock__accelWgmmaDesc(
        g, ac, sA, mA, rock__accelWgmmaIndex(g, (int)p->bm, row0, ck));
    for (int j = 0; j < nt; ++j) {
      int db = rock__accelWgmmaDesc(
          g, ac, sB, mB,
          rock__accelWgmmaIndex(g, (int)p->bn, rock__genIndex(g, j * ac->n),
                                ck));
      next[j] = rock__accelMma(g, ac, da, db, next[j]);
    }
  }
  rock__accelWgmmaEnd(g);
}

static void generate(RockGen *g, const RockAccel *ac, const Gemm *p) {
  bool wg = ac->kind == ROCK_ACCEL_WGMMA;
  int nw = (int)(p->bm / ac->m), nt = (int)(p->bn / ac->n);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  char mA[96], mB[96];
  if (wg) {
    snprintf(mA, sizeof mA, "memref<%lldx%s, #gpu.address_space<workgroup>>",
             (long long)(p->bm * p->kt), ac->elt);
    snprintf(mB, sizeof mB, "memref<%lldx%s, #gpu.address_space<workgroup>>",
             (long long)(p->bn * p->kt), ac->elt);
  } else {
    snprintf(mA, sizeof mA, "memref<%lldx%dx%s, #gpu.address_space<workgroup>>",
             (long long)p->bm, p->kt, ac->elt);
    if (p->kn)
      snprintf(mB, sizeof mB,
               "memref<%dx%lldx%s, #gpu.address_space<workgroup>>", p->kt,
               (long long)p->bn, ac->elt);
    else
      snprintf(mB, sizeof mB,
               "memref<%lldx%dx%s, #gpu.address_space<workgroup>>",
               (long long)p->bn, p->kt, ac->elt);
  }
  int v[12];
  for (int i = 0; i < 12; ++i)
    v[i] = rock__genFresh(g);
  int sA = rock__genFresh(g), sB = rock__genFresh(g);
  int nThreads = nw * ac->wave;
  rock__genLine(g,
                "gpu.launch blocks(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, "
                "%%v%d = %%v%d, %%v%d = %%v%d) threads(%%v%d, %%v%d, %%v%d) in "
                "(%%v%d = %%v%d, %%v%d = %%v%d, %%v%d = %%v%d) workgroup(%%v%d "
                ": %s, %%v%d : %s) {",
                v[0], v[1], v[2], v[3], rock__genIndex(g, p->N / p->bn), v[4],
                rock__genIndex(g, p->M / p->bm), v[5], c1, v[6], v[7], v[8],
                v[9], rock__genIndex(g, nThreads), v[10], c1, v[11], c1, sA, mA,
                sB, mB);
  g->depth++;
  int tx = v[6], cw = rock__genIndex(g, ac->wave);
  int colB =
      rock__genBin(g, "arith.muli", v[0], rock__genIndex(g, p->bn), "index");
  int rowB =
      rock__genBin(g, "arith.muli", v[1], rock__genIndex(g, p->bm), "index");
  int lane = rock__genBin(g, "arith.remui", tx, cw, "index");
  int warp = rock__genBin(g, "arith.divui", tx, cw, "index");
  int row0 =
      rock__genBin(g, "arith.muli", warp, rock__genIndex(g, ac->m), "index");
  char accTy[32];
  rock__typeStrS(accTy, sizeof accTy, ac->acc, ac->cElems);
  int init[NT_MAX], acc[NT_MAX], res[NT_MAX], next[NT_MAX], k0;
  for (int j = 0; j < nt; ++j)
    init[j] = rock__accelZero(g, ac);
  rock__genForMulti(g, c0, rock__genIndex(g, p->K), rock__genIndex(g, p->kt),
                    nt, init, accTy, &k0, acc, res);
  stage(g, ac, p, tx, nThreads, k0, rowB, colB, sA, mA, sB, mB);
  products(g, ac, p, row0, lane, sA, mA, sB, mB, nt, acc, next);
  rock__genLine(g, "gpu.barrier");
  rock__genYieldMultiEnd(g, nt, next, accTy);
  int r0 = rock__genBin(g, "arith.addi", rowB, row0, "index");
  for (int j = 0; j < nt; ++j)
    for (int e = 0; e < ac->cElems; ++e) {
      int r, c;
      rock__accelAccCoord(g, ac, lane, e, &r, &c);
      r = rock__genBin(g, "arith.addi", r, r0, "index");
      c = rock__genBin(g, "arith.addi", c,
                       rock__genBin(g, "arith.addi", colB,
                                    rock__genIndex(g, j * ac->n), "index"),
                       "index");
      int x = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", x,
                    res[j], e, ac->acc, accTy);
      rock__genLine(g, "memref.store %%v%d, %%v2[%%v%d, %%v%d] : %s", x, r, c,
                    p->ty[2]);
    }
  rock__genLine(g, "gpu.terminator");
  g->depth--;
  rock__genLine(g, "}");
}

static bool lowerFunc(MlirOperation func, MlirExternalPass pass,
                      const RockGpuTarget *t) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockGetNumArguments(body) != 3) {
    rock__passFail(pass, func, "rock.accel_gemm needs arguments A, B, C");
    return false;
  }
  MlirValue args[3];
  int64_t d[3][2];
  for (int i = 0; i < 3; ++i) {
    args[i] = mlirBlockGetArgument(body, i);
    if (!dims(args[i], &d[i][0], &d[i][1])) {
      rock__passFail(pass, func,
                     "rock.accel_gemm arguments are static 2-D "
                     "memrefs");
      return false;
    }
  }
  bool kn = rock__flagAttr(func, "rock.accel_b_kn");
  Gemm p = {.M = d[0][0], .K = d[0][1], .N = kn ? d[1][1] : d[1][0], .kn = kn};
  p.bm = p.M, p.bn = p.N;
  MlirAttribute tile = rock__attr(func, "rock.accel_tile");
  if (!mlirAttributeIsNull(tile)) {
    if (!mlirAttributeIsADenseI64Array(tile) ||
        mlirDenseArrayGetNumElements(tile) != 2 ||
        mlirDenseI64ArrayGetElement(tile, 0) <= 0 ||
        mlirDenseI64ArrayGetElement(tile, 1) <= 0 ||
        p.M % mlirDenseI64ArrayGetElement(tile, 0) ||
        p.N % mlirDenseI64ArrayGetElement(tile, 1)) {
      rock__passFail(pass, func,
                     "rock.accel_tile is array<i64: BM, BN> with BM dividing "
                     "M and BN dividing N");
      return false;
    }
    p.bm = mlirDenseI64ArrayGetElement(tile, 0);
    p.bn = mlirDenseI64ArrayGetElement(tile, 1);
  }
  RockStr elt = {0};
  rock__strAppendType(&elt,
                      mlirShapedTypeGetElementType(mlirValueGetType(args[0])));
  /* sm_90a: warpgroup MMA with n the widest multiple of 8 up to 128 that
   * divides the block's width. */
  RockAccel ac;
  int64_t wn = p.bn > 128 ? 128 : p.bn;
  while (wn > 8 && p.bn % wn)
    wn -= 8;
  bool ok = (p.bn % wn == 0 &&
             rock__accelSelectWarpgroup(t, elt.data, (int)wn, &ac)) ||
            rock__accelSelect(t, elt.data, &ac);
  rock__strFree(&elt);
  if (!ok) {
    rock__passFail(pass, func,
                   "no tile-product instruction for this element "
                   "type on %s",
                   t->chip);
    return false;
  }
  /* wgmma stages 64 k per step where K allows it. */
  p.kt = ac.kind == ROCK_ACCEL_WGMMA && p.K % 64 == 0 ? 64 : ac.k;
  if ((kn ? d[1][0] : d[1][1]) != p.K || d[2][0] != p.M || d[2][1] != p.N ||
      p.bm % ac.m || p.bn % ac.n || p.K % ac.k || p.bn / ac.n > NT_MAX ||
      (p.bm / ac.m) * ac.wave > 1024) {
    rock__passFail(pass, func,
                   "rock.accel_gemm shapes must agree, be multiples of the "
                   "%dx%dx%d instruction, with at most %d n-tiles and 1024 "
                   "threads",
                   ac.m, ac.n, ac.k, NT_MAX);
    return false;
  }
  RockGen g;
  memset(&g, 0, sizeof g);
  g.next = 3;
  g.depth = 1;
  RockStr text = {0}, tys[3] = {{0}, {0}, {0}};
  for (int i = 0; i < 3; ++i)
    rock__strAppendType(&tys[i], mlirValueGetType(args[i]));
  for (int i = 0; i < 3; ++i)
    p.ty[i] = tys[i].data;
  generate(&g, &ac, &p);
  rock__strAppendf(&text, "func.func @body(%%v0: %s, %%v1: %s, %%v2: %s) {\n",
                   p.ty[0], p.ty[1], p.ty[2]);
  rock__strAppend(&text, g.consts.data ? g.consts.data : "");
  rock__strAppend(&text, g.body.data ? g.body.data : "");
  rock__strAppend(&text, "  return\n}\n");
  rock__debugDump(func, "gridwise", text.data);
  ok = rock__inlineFuncText(rock__blockLastOp(body), text.data, 3, args, 0,
                            NULL);
  for (int i = 0; i < 3; ++i)
    rock__strFree(&tys[i]);
  rock__strFree(&text);
  rock__strFree(&g.body);
  rock__strFree(&g.consts);
  free(g.cs);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
  return ok;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  RockGpuTarget t;
  if (!rock__gpuArch(root, pass, &t))
    return;
  intptr_t n = 0;
  MlirOperation *funcs = rock__collectOps(root, "func.func", &n);
  for (intptr_t i = 0; i < n; ++i)
    if (rock__flagAttr(funcs[i], "rock.accel_gemm") &&
        !lowerFunc(funcs[i], pass, &t))
      break;
  free(funcs);
}

static const RockPassDef def = {
    "RockAccelGemm", "rock-accel-gemm",
    "a GEMM on the tile-product emitters (validates fragment layouts)",
    "builtin.module", run};

MlirPass rockAccelGemmPassCreate(void) { return rock__passCreate(&def); }
void rockAccelGemmPassRegister(void) { rock__passRegister(&def); }
