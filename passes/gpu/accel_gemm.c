/*===- accel_gemm.c - rock-accel-gemm --------------------------------------===*
 *
 * A GEMM on the tile-product emitters (accel.h), to pin and to validate
 * their fragment layouts through the real GPU pipeline: every func.func
 * carrying `rock.accel_gemm` with arguments
 *   A: memref<M x K x T>,  B: memref<N x K x T> (or memref<K x N x T> when
 *   `rock.accel_b_kn` is set),  C: memref<M x N x f32|i32>
 * (T = f16, bf16 or i8) gets, before its return, a gpu.launch of one
 * workgroup of M / m warps: per step of k, the A and B tiles are staged in
 * workgroup memory (B in its own layout, so the [k][n] form exercises the
 * strided B fragment that P·V uses), each warp takes rows w·m .. w·m + m - 1
 * and every n-tile, and the accumulators are stored through
 * rock__accelAccCoord. The target is the module's rock.arch.
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

static void generate(RockGen *g, const RockAccel *ac, int64_t M, int64_t N,
                     int64_t K, bool kn, const char *const ty[3]) {
  int nw = (int)(M / ac->m), nt = (int)(N / ac->n);
  int c0 = rock__genIndex(g, 0), c1 = rock__genIndex(g, 1);
  char mA[96], mB[96];
  snprintf(mA, sizeof mA, "memref<%lldx%dx%s, #gpu.address_space<workgroup>>",
           (long long)M, ac->k, ac->elt);
  if (kn)
    snprintf(mB, sizeof mB, "memref<%dx%lldx%s, #gpu.address_space<workgroup>>",
             ac->k, (long long)N, ac->elt);
  else
    snprintf(mB, sizeof mB, "memref<%lldx%dx%s, #gpu.address_space<workgroup>>",
             (long long)N, ac->k, ac->elt);
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
                v[0], v[1], v[2], v[3], c1, v[4], c1, v[5], c1, v[6], v[7],
                v[8], v[9], rock__genIndex(g, nThreads), v[10], c1, v[11], c1,
                sA, mA, sB, mB);
  g->depth++;
  int tx = v[6], cw = rock__genIndex(g, ac->wave);
  int lane = rock__genBin(g, "arith.remui", tx, cw, "index");
  int warp = rock__genBin(g, "arith.divui", tx, cw, "index");
  int row0 =
      rock__genBin(g, "arith.muli", warp, rock__genIndex(g, ac->m), "index");
  char accTy[32];
  rock__typeStrS(accTy, sizeof accTy, ac->acc, ac->cElems);
  int init[NT_MAX], acc[NT_MAX], res[NT_MAX], k0;
  for (int j = 0; j < nt; ++j)
    init[j] = rock__accelZero(g, ac);
  rock__genForMulti(g, c0, rock__genIndex(g, K), rock__genIndex(g, ac->k), nt,
                    init, accTy, &k0, acc, res);
  /* Stage the A tile [M][k] and the B tile ([N][k] or [k][N]). */
  int ck = rock__genIndex(g, ac->k), cN = rock__genIndex(g, N),
      cT = rock__genIndex(g, nThreads);
  int i = rock__genFor(g, tx, rock__genIndex(g, M * ac->k), cT);
  {
    int r = rock__genBin(g, "arith.divui", i, ck, "index");
    int kk = rock__genBin(g, "arith.remui", i, ck, "index");
    int kg = rock__genBin(g, "arith.addi", k0, kk, "index");
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v0[%%v%d, %%v%d] : %s", x, r, kg,
                  ty[0]);
    rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", x, sA, r,
                  kk, mA);
  }
  rock__genEnd(g);
  i = rock__genFor(g, tx, rock__genIndex(g, N * ac->k), cT);
  {
    int x = rock__genFresh(g);
    if (kn) {
      int kk = rock__genBin(g, "arith.divui", i, cN, "index");
      int c = rock__genBin(g, "arith.remui", i, cN, "index");
      int kg = rock__genBin(g, "arith.addi", k0, kk, "index");
      rock__genLine(g, "%%v%d = memref.load %%v1[%%v%d, %%v%d] : %s", x, kg, c,
                    ty[1]);
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", x, sB,
                    kk, c, mB);
    } else {
      int c = rock__genBin(g, "arith.divui", i, ck, "index");
      int kk = rock__genBin(g, "arith.remui", i, ck, "index");
      int kg = rock__genBin(g, "arith.addi", k0, kk, "index");
      rock__genLine(g, "%%v%d = memref.load %%v1[%%v%d, %%v%d] : %s", x, c, kg,
                    ty[1]);
      rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", x, sB, c,
                    kk, mB);
    }
  }
  rock__genEnd(g);
  rock__genLine(g, "gpu.barrier");
  int a = rock__accelLoadA(g, ac, sA, mA, true, row0, c0, lane);
  int next[NT_MAX];
  for (int j = 0; j < nt; ++j) {
    int b = rock__accelLoadB(g, ac, sB, mB, !kn, rock__genIndex(g, j * ac->n),
                             c0, lane);
    next[j] = rock__accelMma(g, ac, a, b, acc[j]);
  }
  rock__genLine(g, "gpu.barrier");
  rock__genYieldMultiEnd(g, nt, next, accTy);
  for (int j = 0; j < nt; ++j)
    for (int e = 0; e < ac->cElems; ++e) {
      int r, c;
      rock__accelAccCoord(g, ac, lane, e, &r, &c);
      r = rock__genBin(g, "arith.addi", r, row0, "index");
      c = rock__genBin(g, "arith.addi", c, rock__genIndex(g, j * ac->n),
                       "index");
      int x = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", x,
                    res[j], e, ac->acc, accTy);
      rock__genLine(g, "memref.store %%v%d, %%v2[%%v%d, %%v%d] : %s", x, r, c,
                    ty[2]);
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
  int64_t M = d[0][0], K = d[0][1], N = kn ? d[1][1] : d[1][0];
  RockStr elt = {0};
  rock__strAppendType(&elt,
                      mlirShapedTypeGetElementType(mlirValueGetType(args[0])));
  RockAccel ac;
  bool ok = rock__accelSelect(t, elt.data, &ac);
  rock__strFree(&elt);
  if (!ok) {
    rock__passFail(pass, func,
                   "no tile-product instruction for this element "
                   "type on %s",
                   t->chip);
    return false;
  }
  if ((kn ? d[1][0] : d[1][1]) != K || d[2][0] != M || d[2][1] != N ||
      M % ac.m || N % ac.n || K % ac.k || N / ac.n > NT_MAX ||
      (M / ac.m) * ac.wave > 1024) {
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
  const char *ty[3] = {tys[0].data, tys[1].data, tys[2].data};
  generate(&g, &ac, M, N, K, kn, ty);
  rock__strAppendf(&text, "func.func @body(%%v0: %s, %%v1: %s, %%v2: %s) {\n",
                   ty[0], ty[1], ty[2]);
  rock__strAppend(&text, g.consts.data ? g.consts.data : "");
  rock__strAppend(&text, g.body.data ? g.body.data : "");
  rock__strAppend(&text, "  return\n}\n");
  if (getenv("ROCK_DEBUG_GRIDWISE_TEXT"))
    fprintf(stderr, "%s", text.data);
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
