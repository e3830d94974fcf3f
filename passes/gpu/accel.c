/*===- accel.c - choosing a tile-product instruction, fragment layouts ----===*
 *
 * The part of the tile-product emitters (accel.h) that is data: which
 * instruction a target has for an operand type, and where each lane's
 * fragment elements and accumulator elements sit in the tile. Per family,
 * with g = lane / 4, t = lane % 4 (NVIDIA) and h = lane / 16, c = lane % 16
 * (AMD):
 *   mma.sync m16n8k16 (run 2) / m16n8k32 s8 (run 4), K2 = k / 2:
 *     A: rows g, g+8 at k 2t|4t and 2t+K2|4t+K2, in the order
 *        (g, 0) (g+8, 0) (g, K2) (g+8, K2);   B: column g, the same two k runs;
 *     C: (g + 8·(e / 2), 2t + e % 2).
 *   MFMA 16x16xK (wave64): A row c, B column c, k = h·run .. + run - 1;
 *     C: (4h + e, c).
 *   WMMA gfx12 16x16x16 (wave32): A row c, B column c, k = 8h .. 8h + 7;
 *     C: (8h + e, c).
 *   wgmma m64nNk16 (warpgroup of 128 lanes, w = lane / 32, g and t of the
 *     lane in its warp): C: (16w + g + 8·((e / 2) % 2), 8·(e / 4) + 2t + e %
 *     2), i.e. mma.sync's C layout per warp and per 8 columns; e < N / 2.
 * ldmatrix.x4 (mma.sync, 16-bit): lane l gives the row address of 8x8
 * matrix l / 8 and receives register i = row l / 4, elements 2(l % 4) and
 * + 1 of matrix i (.trans: that column); matrices (rows, k) for A:
 * (0-7, 0-7) (8-15, 0-7) (0-7, 8-15) (8-15, 8-15), which is A's register
 * order; for B [col][k]: (cols 0-7, k 0-7) (0-7, 8-15) (8-15, 0-7)
 * (8-15, 8-15); for B [k][col] (.trans) the same with k as the row.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"

#include <stdio.h>
#include <string.h>

bool rock__accelSelect(const RockGpuTarget *t, const char *elt, RockAccel *ac) {
  memset(ac, 0, sizeof *ac);
  bool i8 = !strcmp(elt, "i8");
  if (!i8 && strcmp(elt, "f16") && strcmp(elt, "bf16"))
    return false;
  snprintf(ac->elt, sizeof ac->elt, "%s", elt);
  snprintf(ac->acc, sizeof ac->acc, "%s", i8 ? "i32" : "f32");
  ac->kind = t->accel;
  switch (t->accel) {
  case ROCK_ACCEL_MMA_SYNC:
    ac->m = 16, ac->n = 8, ac->k = i8 ? 32 : 16;
    ac->wave = 32, ac->run = i8 ? 4 : 2;
    ac->aElems = 4 * ac->run, ac->bElems = 2 * ac->run, ac->cElems = 4;
    return true;
  case ROCK_ACCEL_MFMA: {
    /* i8: 16x16x32 from gfx940 on, 16x16x16 on gfx908 / gfx90a. */
    bool k32 = i8 && t->chip[3] == '9' && t->chip[4] >= '4';
    ac->m = 16, ac->n = 16, ac->k = k32 ? 32 : 16;
    ac->wave = 64, ac->run = ac->k / 4;
    ac->aElems = ac->bElems = ac->run, ac->cElems = 4;
    return true;
  }
  case ROCK_ACCEL_WMMA12:
    ac->m = 16, ac->n = 16, ac->k = 16;
    ac->wave = 32, ac->run = 8;
    ac->aElems = ac->bElems = 8, ac->cElems = 8;
    return true;
  case ROCK_ACCEL_NONE:
  default:
    return false;
  }
}

bool rock__accelSelectWarpgroup(const RockGpuTarget *t, const char *elt, int n,
                                RockAccel *ac) {
  memset(ac, 0, sizeof *ac);
  if (strcmp(t->chip, "sm_90a") ||
      (strcmp(elt, "f16") && strcmp(elt, "bf16")) || n < 8 || n > 256 || n % 8)
    return false;
  snprintf(ac->elt, sizeof ac->elt, "%s", elt);
  snprintf(ac->acc, sizeof ac->acc, "f32");
  ac->kind = ROCK_ACCEL_WGMMA;
  ac->m = 64, ac->n = n, ac->k = 16;
  ac->wave = 128, ac->run = 8;
  ac->cElems = n / 2;
  return true;
}

int rock__accelZero(RockGen *g, const RockAccel *ac) {
  return rock__genZero(g, ac->acc, ac->cElems);
}

/* a ++ b (vector.shuffle), both of `w` elements. */
static int concat(RockGen *g, const RockAccel *ac, int a, int b, int w) {
  RockStr mask = {0};
  for (int i = 0; i < 2 * w; ++i)
    rock__strAppendf(&mask, "%s%d", i ? ", " : "", i);
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<%dx%s>, "
                "vector<%dx%s>",
                r, a, b, mask.data, w, ac->elt, w, ac->elt);
  rock__strFree(&mask);
  return r;
}

/* `run` elements of row r (index value), k = kb .. kb + run - 1. */
static int loadRun(RockGen *g, const RockAccel *ac, int mem, const char *mt,
                   bool kContig, int r, int kb) {
  int v = rock__genFresh(g);
  if (kContig) {
    rock__genLine(g,
                  "%%v%d = vector.load %%v%d[%%v%d, %%v%d] : %s, vector<%dx%s>",
                  v, mem, r, kb, mt, ac->run, ac->elt);
    return v;
  }
  RockStr list = {0};
  for (int i = 0; i < ac->run; ++i) {
    int k = rock__genBin(g, "arith.addi", kb, rock__genIndex(g, i), "index");
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d, %%v%d] : %s", x, mem, k,
                  r, mt);
    rock__strAppendf(&list, "%s%%v%d", i ? ", " : "", x);
  }
  rock__genLine(g, "%%v%d = vector.from_elements %s : vector<%dx%s>", v,
                list.data, ac->run, ac->elt);
  rock__strFree(&list);
  return v;
}

/* The lane's base row (or column) and k within the tile. */
static void laneBase(RockGen *g, const RockAccel *ac, int lane, int *r,
                     int *kb) {
  bool nv = ac->kind == ROCK_ACCEL_MMA_SYNC;
  int q = rock__genIndex(g, nv ? 4 : 16);
  int hi = rock__genBin(g, "arith.divui", lane, q, "index");
  int lo = rock__genBin(g, "arith.remui", lane, q, "index");
  *r = nv ? hi : lo;
  *kb = rock__genBin(g, "arith.muli", nv ? lo : hi, rock__genIndex(g, ac->run),
                     "index");
}

static int loadFrag(RockGen *g, const RockAccel *ac, int mem, const char *mt,
                    bool kContig, int r0, int k0, int lane, bool isA) {
  int r, kb;
  laneBase(g, ac, lane, &r, &kb);
  r = rock__genBin(g, "arith.addi", r, r0, "index");
  kb = rock__genBin(g, "arith.addi", kb, k0, "index");
  if (ac->kind != ROCK_ACCEL_MMA_SYNC)
    return loadRun(g, ac, mem, mt, kContig, r, kb);
  /* mma.sync: A runs (0,0) (8,0) (0,K2) (8,K2); B runs (0,0) (0,K2). */
  int r8 = rock__genBin(g, "arith.addi", r, rock__genIndex(g, 8), "index");
  int kh =
      rock__genBin(g, "arith.addi", kb, rock__genIndex(g, ac->k / 2), "index");
  if (!isA)
    return concat(g, ac, loadRun(g, ac, mem, mt, kContig, r, kb),
                  loadRun(g, ac, mem, mt, kContig, r, kh), ac->run);
  int x0 = loadRun(g, ac, mem, mt, kContig, r, kb);
  int x1 = loadRun(g, ac, mem, mt, kContig, r8, kb);
  int x2 = loadRun(g, ac, mem, mt, kContig, r, kh);
  int x3 = loadRun(g, ac, mem, mt, kContig, r8, kh);
  return concat(g, ac, concat(g, ac, x0, x1, ac->run),
                concat(g, ac, x2, x3, ac->run), 2 * ac->run);
}

int rock__accelLoadA(RockGen *g, const RockAccel *ac, int mem,
                     const char *memTy, bool kContig, int row0, int k0,
                     int lane) {
  return loadFrag(g, ac, mem, memTy, kContig, row0, k0, lane, true);
}

int rock__accelLoadB(RockGen *g, const RockAccel *ac, int mem,
                     const char *memTy, bool kContig, int col0, int k0,
                     int lane) {
  return loadFrag(g, ac, mem, memTy, kContig, col0, k0, lane, false);
}

int rock__accelMma(RockGen *g, const RockAccel *ac, int a, int b, int c) {
  if (ac->kind == ROCK_ACCEL_WGMMA)
    return rock__accelMmaWgmma(g, ac, a, b, c);
  return ac->kind == ROCK_ACCEL_MMA_SYNC ? rock__accelMmaNv(g, ac, a, b, c)
                                         : rock__accelMmaAmd(g, ac, a, b, c);
}

void rock__accelAccCoord(RockGen *g, const RockAccel *ac, int lane, int e,
                         int *row, int *col) {
  if (ac->kind == ROCK_ACCEL_MMA_SYNC || ac->kind == ROCK_ACCEL_WGMMA) {
    bool wg = ac->kind == ROCK_ACCEL_WGMMA;
    int c4 = rock__genIndex(g, 4), c32 = wg ? rock__genIndex(g, 32) : 0;
    int wl = wg ? rock__genBin(g, "arith.remui", lane, c32, "index") : lane;
    int gg = rock__genBin(g, "arith.divui", wl, c4, "index");
    int t = rock__genBin(g, "arith.remui", wl, c4, "index");
    int r = 8 * ((e / 2) % 2), c = e % 2 + (wg ? 8 * (e / 4) : 0);
    if (wg)
      gg = rock__genBin(
          g, "arith.addi", gg,
          rock__genBin(g, "arith.muli",
                       rock__genBin(g, "arith.divui", lane, c32, "index"),
                       rock__genIndex(g, 16), "index"),
          "index");
    *row = rock__genBin(g, "arith.addi", gg, rock__genIndex(g, r), "index");
    *col = rock__genBin(
        g, "arith.addi",
        rock__genBin(g, "arith.muli", t, rock__genIndex(g, 2), "index"),
        rock__genIndex(g, c), "index");
    return;
  }
  int c16 = rock__genIndex(g, 16);
  int h = rock__genBin(g, "arith.divui", lane, c16, "index");
  *col = rock__genBin(g, "arith.remui", lane, c16, "index");
  *row = rock__genBin(
      g, "arith.addi",
      rock__genBin(g, "arith.muli", h, rock__genIndex(g, ac->cElems), "index"),
      rock__genIndex(g, e), "index");
}

bool rock__accelHasLdmatrix(const RockAccel *ac) {
  return ac->kind == ROCK_ACCEL_MMA_SYNC && ac->run == 2;
}

bool rock__accelSwizzleFits(int64_t rowElems) { return rowElems % 64 == 0; }

int rock__accelSwizzle(RockGen *g, bool swz, int r, int c) {
  if (!swz)
    return c;
  int x = rock__genBin(
      g, "arith.shli",
      rock__genBin(g, "arith.andi", r, rock__genIndex(g, 7), "index"),
      rock__genIndex(g, 3), "index");
  return rock__genBin(g, "arith.xori", c, x, "index");
}

/* One ldmatrix.x4 at row `r`, column `c` (logical; swizzled here); the
 * four registers as a vector<8 x elt>. */
static int ldmatrix(RockGen *g, const RockAccel *ac, int mem, const char *mt,
                    bool trans, bool swz, int r, int c) {
  int pc = rock__accelSwizzle(g, swz, r, c);
  int x = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = nvgpu.ldmatrix %%v%d[%%v%d, %%v%d] {numTiles = 4 : "
                "i32, transpose = %s} : %s -> vector<4x2x%s>",
                x, mem, r, pc, trans ? "true" : "false", mt, ac->elt);
  /* (vector<4x2x..> -> vector<8x..> by extracts and shuffles: the NVVM
   * lowering has no n-D shape_cast) */
  int rr[4];
  for (int i = 0; i < 4; ++i) {
    rr[i] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract %%v%d[%d] : vector<2x%s> from "
                  "vector<4x2x%s>",
                  rr[i], x, i, ac->elt, ac->elt);
  }
  return concat(g, ac, concat(g, ac, rr[0], rr[1], 2),
                concat(g, ac, rr[2], rr[3], 2), 4);
}

int rock__accelLdmA(RockGen *g, const RockAccel *ac, int mem, const char *memTy,
                    bool swz, int row0, int k0, int lane) {
  /* lane l: row row0 + l % 16, k k0 + 8 (l / 16). */
  int r = rock__genBin(
      g, "arith.addi", row0,
      rock__genBin(g, "arith.remui", lane, rock__genIndex(g, 16), "index"),
      "index");
  int c =
      rock__genBin(g, "arith.addi", k0,
                   rock__genBin(g, "arith.muli",
                                rock__genBin(g, "arith.divui", lane,
                                             rock__genIndex(g, 16), "index"),
                                rock__genIndex(g, 8), "index"),
                   "index");
  return ldmatrix(g, ac, mem, memTy, false, swz, r, c);
}

void rock__accelLdmB2(RockGen *g, const RockAccel *ac, int mem,
                      const char *memTy, bool kContig, bool swz, int col0,
                      int k0, int lane, int out[2]) {
  /* Matrix i = l / 8: column block 8 (i / 2), k block 8 (i % 2); the
   * stored row is the column ([col][k]) or the k ([k][col]). */
  int c8 = rock__genIndex(g, 8);
  int i = rock__genBin(g, "arith.divui", lane, c8, "index");
  int in = rock__genBin(
      g, "arith.muli",
      rock__genBin(g, "arith.divui", i, rock__genIndex(g, 2), "index"), c8,
      "index");
  int ik = rock__genBin(
      g, "arith.muli",
      rock__genBin(g, "arith.remui", i, rock__genIndex(g, 2), "index"), c8,
      "index");
  int l8 = rock__genBin(g, "arith.remui", lane, c8, "index");
  int r, c;
  if (kContig) {
    r = rock__genBin(g, "arith.addi", col0,
                     rock__genBin(g, "arith.addi", l8, in, "index"), "index");
    c = rock__genBin(g, "arith.addi", k0, ik, "index");
  } else {
    r = rock__genBin(g, "arith.addi", k0,
                     rock__genBin(g, "arith.addi", l8, ik, "index"), "index");
    c = rock__genBin(g, "arith.addi", col0, in, "index");
  }
  int v = ldmatrix(g, ac, mem, memTy, !kContig, swz, r, c);
  for (int h = 0; h < 2; ++h) {
    out[h] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.shuffle %%v%d, %%v%d [%d, %d, %d, %d] : "
                  "vector<8x%s>, vector<8x%s>",
                  out[h], v, v, 4 * h, 4 * h + 1, 4 * h + 2, 4 * h + 3, ac->elt,
                  ac->elt);
  }
}
