/*===- packed_prefill.c - the prefill form on group-packed tiles ---------===*
 *
 * The CPU's packed prefill form (lower_gridwise_attention.c, docs/cpu.md)
 * for bf16 and i8 Q·Kᵀ: per key tile K is packed once into a local tile in
 * which the E values that one 32-bit lane of a dot product sums are
 * adjacent (the "VNNI" layout of AVX512-BF16 / AVX512-VNNI and of AMX's B
 * operand; E = 2 for bf16, 4 for i8):
 *
 *   KP[t][E j + e] = K[j][E t + e]   ([Dqk/E][E MB]: key groups along d)
 *   VP[u][2d + e]  = V[2u + e][d]     ([MB/2][2 Dv]: bf16 V, key pairs)
 *
 * and the two gemms run on those, with Q ([NB][Dqk]) and P as the row
 * operands: here as register blocks (each instruction multiplies one
 * broadcast group of a row with 16 packed groups and adds the E products to
 * 16 lanes), in amx_prefill.c as AMX tiles. The dot instruction is the
 * only difference between the element types: vdpbf16ps (bf16, f32 lanes),
 * vpdpbusd (i8: u8 x s8 into i32 lanes; Q is held as q + 128, and each
 * key's accumulators start from -128 Σ_d K[j][d], so the i32 scores are
 * exact), and for a V that is not bf16 (i8 attention's f16 V) gemm1 is the
 * same block with E = 1 and f32 FMAs on the f32 V tile b->Vl. Padding keys
 * of a partial tile are packed as zeros.
 *
 *===----------------------------------------------------------------------===*/
#include "cpu/cpu_attention.h"

#include <stdio.h>

/* Register blocks: ACCS accumulators of the 32 registers, as 4 rows x 4
 * vectors of 16 columns (or 8 x 2 where the columns are a multiple of 32
 * only), plus 4-8 operand registers. */
#define ACCS 16
#define MAX_ROWS 8

/* One element kind of a packed gemm: E values of type elt per 32-bit
 * group, their products summed into 16 lanes of type acc. */
typedef struct DotKind {
  int E;
  const char *elt, *acc;
} DotKind;

static const DotKind dotBf16 = {2, "bf16", "f32"}, dotI8 = {4, "i8", "i32"},
                     dotF32 = {1, "f32", "f32"};

int rock__cpuPackGroup(const RockAttn *a) {
  return mlirTypeIsABF16(a->tk) ? 2 : 4;
}

static const DotKind *kindOfK(const RockAttn *a) {
  return rock__cpuPackGroup(a) == 2 ? &dotBf16 : &dotI8;
}

/* acc + the products of the broadcast row group x with the packed groups y
 * (vector<16 E x elt>). */
static int dotStep(RockGen *g, const DotKind *k, int acc, int x, int y) {
  if (k->E == 2)
    return rock__cpuDotBf16(g, acc, x, y);
  if (k->E == 4)
    return rock__cpuDotU8S8(g, acc, x, y);
  return rock__genFma(g, x, y, acc, "vector<16xf32>");
}

/* Stores the E vectors xs[] (64 / E values of K's element type each) as
 * their interleave (xs[0][0], xs[1][0], ..., xs[E-1][0], xs[0][1], ...):
 * 64 packed values at buf[row][col .. col + 64). */
static void storeGroups(RockGen *g, int buf, const DotKind *k, const char *mt,
                        int row, int col, const int *xs) {
  char ib[128];
  if (k->E == 2) {
    for (int h = 0; h < 2; ++h) {
      int il = rock__cpuInterleave16(g, xs[0], xs[1], 16 * h);
      int c =
          h ? rock__genBin(g, "arith.addi", col, rock__genIndex(g, 32), "index")
            : col;
      rock__idx2(ib, sizeof ib, row, c);
      rock__genStore(g, il, buf, mt, ib, 32, k->elt);
    }
    return;
  }
  /* E = 4: the four 16-lane rows joined into two 32-lane halves, then one
   * shuffle to the group order. */
  int half[2];
  for (int h = 0; h < 2; ++h) {
    RockStr m = {0};
    for (int l = 0; l < 32; ++l)
      rock__strAppendf(&m, "%s%d", l ? ", " : "", l);
    half[h] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : "
                  "vector<16xi8>, vector<16xi8>",
                  half[h], xs[2 * h], xs[2 * h + 1], m.data);
    rock__strFree(&m);
  }
  RockStr m = {0};
  for (int l = 0; l < 64; ++l)
    rock__strAppendf(&m, "%s%d", l ? ", " : "", 16 * (l % 4) + l / 4);
  int il = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = vector.shuffle %%v%d, %%v%d [%s] : vector<32xi8>, "
                "vector<32xi8>",
                il, half[0], half[1], m.data);
  rock__strFree(&m);
  rock__idx2(ib, sizeof ib, row, col);
  rock__genStore(g, il, buf, mt, ib, 64, k->elt);
}

/* K [.., Dqk, Sk] in memory (ktv: the [Bkv, Dqk, Sk] view): rows E t ..
 * E t + E - 1 of d interleaved, 64 / E keys per load; a key tail one by
 * one. */
static void packKeyMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuPack *p, const DotKind *k) {
  char ib[128], mkt[128];
  int E = k->E, W = 64 / E;
  snprintf(mkt, sizeof mkt, "memref<%lldx%lldx%lldx%s>", (long long)a->Bkv,
           (long long)a->Dqk, (long long)a->Sk, k->elt);
  int c0 = p->c0, c1 = p->c1, cE = rock__genIndex(g, E),
      cW = rock__genIndex(g, W);
  int full = rock__genBin(g, "arith.muli",
                          rock__genBin(g, "arith.divui", p->nCols, cW, "index"),
                          cW, "index");
  int t = rock__genFor(g, c0, rock__genIndex(g, a->Dqk / E), c1);
  int d[4];
  d[0] = rock__genBin(g, "arith.muli", t, cE, "index");
  for (int e = 1; e < E; ++e)
    d[e] = rock__genBin(g, "arith.addi", d[0], rock__genIndex(g, e), "index");
  int jb = rock__genFor(g, c0, full, cW);
  int jj = rock__genBin(g, "arith.addi", p->j0, jb, "index");
  int xs[4];
  for (int e = 0; e < E; ++e) {
    xs[e] = rock__genFresh(g);
    rock__idx3(ib, sizeof ib, p->gBlk, d[e], jj);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> vector<%dx%s>",
                  xs[e], p->ktv, ib, mkt, W, k->elt);
  }
  storeGroups(g, b->KP, k, b->mKP, t,
              rock__genBin(g, "arith.muli", jb, cE, "index"), xs);
  rock__genEnd(g);
  int j = rock__genFor(g, full, p->nCols, c1);
  jj = rock__genBin(g, "arith.addi", p->j0, j, "index");
  int jE = rock__genBin(g, "arith.muli", j, cE, "index");
  for (int e = 0; e < E; ++e) {
    int x = rock__genFresh(g);
    rock__idx3(ib, sizeof ib, p->gBlk, d[e], jj);
    rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", x, p->ktv,
                  ib, mkt, k->elt);
    rock__idx2(
        ib, sizeof ib, t,
        e ? rock__genBin(g, "arith.addi", jE, rock__genIndex(g, e), "index")
          : jE);
    rock__genStore(g, x, b->KP, b->mKP, ib, 1, k->elt);
  }
  rock__genEnd(g);
  rock__genEnd(g);
}

/* K [.., Sk, Dqk] in memory: each key's row of d is already in groups; the
 * 32-bit groups are scattered to their rows of KP. */
static void packDimMajor(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                         const RockCpuPack *p, const DotKind *k) {
  char ib[128];
  int E = k->E;
  char tv[32], tg[32];
  snprintf(tv, sizeof tv, "vector<%dx%s>", 16 * E, k->elt);
  snprintf(tg, sizeof tg, "vector<%dx%s>", E, k->elt);
  int cE = rock__genIndex(g, E);
  int j = rock__genFor(g, p->c0, p->nCols, p->c1);
  int jj = rock__genBin(g, "arith.addi", p->j0, j, "index");
  int jE = rock__genBin(g, "arith.muli", j, cE, "index");
  for (int64_t c = 0; c < a->Dqk; c += 16 * E) {
    rock__idx3(ib, sizeof ib, p->gBlk, jj, rock__genIndex(g, c));
    int x = rock__genViewLoad(g, a->k, a->mk, ib, a->tk, 16 * E);
    for (int l = 0; l < 16; ++l) {
      int pr = rock__genFresh(g);
      rock__genLine(g,
                    "%%v%d = vector.extract_strided_slice %%v%d {offsets = "
                    "[%d], sizes = [%d], strides = [1]} : %s to %s",
                    pr, x, E * l, E, tv, tg);
      rock__idx2(ib, sizeof ib, rock__genIndex(g, c / E + l), jE);
      rock__genStore(g, pr, b->KP, b->mKP, ib, E, k->elt);
    }
  }
  rock__genEnd(g);
}

/* Kb[j] = -128 Σ_d K[j][d] for the keys of the tile (padding keys: 0), by
 * vpdpbusd of the packed K with u8 128: the accumulators gemm0 starts from
 * when Q is held as u8 q + 128. */
static void keyBias(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p) {
  char ib[128];
  int n =
      rock__genFor(g, p->c0, rock__genIndex(g, a->MB), rock__genIndex(g, 16));
  int n4 = rock__genBin(g, "arith.muli", n, rock__genIndex(g, 4), "index");
  int t, acc, res;
  res =
      rock__genForIter(g, p->c0, rock__genIndex(g, a->Dqk / 4), p->c1,
                       rock__genZero(g, "i32", 16), "vector<16xi32>", &t, &acc);
  rock__idx2(ib, sizeof ib, t, n4);
  int kv = rock__genLoad(g, b->KP, b->mKP, ib, 64, "i8");
  int s = rock__cpuDotU8S8(g, acc, rock__genSplat(g, "-128", "i8", 64), kv);
  rock__genYieldEnd(g, s, "vector<16xi32>");
  int neg = rock__genBin(g, "arith.subi", rock__genZero(g, "i32", 16), res,
                         "vector<16xi32>");
  rock__genLine(g, "vector.store %%v%d, %%v%d[%%v%d] : %s, vector<16xi32>", neg,
                b->Kb, n, b->mKb);
  rock__genEnd(g);
}

void rock__cpuPackK(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p) {
  const DotKind *k = kindOfK(a);
  if (p->ktv >= 0)
    packKeyMajor(g, a, b, p, k);
  else
    packDimMajor(g, a, b, p, k);
  /* Padding keys of a partial tile: zero groups (their scores are masked;
   * zeros keep them finite). */
  char ib[128];
  int cE = rock__genIndex(g, k->E);
  int j = rock__genFor(g, p->nCols, rock__genIndex(g, a->MB), p->c1);
  int t = rock__genFor(g, p->c0, rock__genIndex(g, a->Dqk / k->E), p->c1);
  rock__idx2(ib, sizeof ib, t, rock__genBin(g, "arith.muli", j, cE, "index"));
  rock__genStore(g, rock__genZero(g, k->elt, k->E), b->KP, b->mKP, ib, k->E,
                 k->elt);
  rock__genEnd(g);
  rock__genEnd(g);
  if (p->biasQ)
    keyBias(g, a, b, p);
}

void rock__cpuPackV(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                    const RockCpuPack *p) {
  char ib[128];
  int c1 = p->c1, c2 = rock__genIndex(g, 2);
  /* Pairs [0, ceil(nCols / 2)); the second key of an odd last pair is a
   * zero row. */
  int nPairs = rock__genBin(
      g, "arith.divui", rock__genBin(g, "arith.addi", p->nCols, c1, "index"),
      c2, "index");
  int u = rock__genFor(g, p->c0, nPairs, c1);
  int k0 = rock__genBin(g, "arith.addi", p->j0,
                        rock__genBin(g, "arith.muli", u, c2, "index"), "index");
  int k1 = rock__genBin(g, "arith.addi", k0, c1, "index");
  int last = rock__genBin(g, "arith.addi", p->j0, p->nCols, "index");
  int has1 = rock__genBin(g, "arith.cmpi ult,", k1, last, "index");
  /* The clamped key keeps the load in bounds; the select zeroes it. */
  int k1c = rock__genSelect(g, has1, k1, k0, "index");
  int zero = rock__genZero(g, "bf16", 32);
  for (int64_t c = 0; c < a->Dv; c += 32) {
    int col = rock__genIndex(g, c);
    rock__idx3(ib, sizeof ib, p->gBlk, k0, col);
    int x = rock__genViewLoad(g, a->v, a->mv, ib, a->tv, 32);
    rock__idx3(ib, sizeof ib, p->gBlk, k1c, col);
    int y = rock__genSelect(g, has1,
                            rock__genViewLoad(g, a->v, a->mv, ib, a->tv, 32),
                            zero, "vector<32xbf16>");
    int xy[2] = {x, y};
    storeGroups(g, b->VP, &dotBf16, b->mVP, u, rock__genIndex(g, 2 * c), xy);
  }
  rock__genEnd(g);
  /* The pairs past them are zeros (the AMX gemm1 reads the whole tile). */
  u = rock__genFor(g, nPairs, rock__genIndex(g, a->MB / 2), c1);
  for (int64_t c = 0; c < 2 * a->Dv; c += 32) {
    rock__idx2(ib, sizeof ib, u, rock__genIndex(g, c));
    rock__genStore(g, zero, b->VP, b->mVP, ib, 32, "bf16");
  }
  rock__genEnd(g);
}

/* Vectors of 16 columns per register block for `cols` columns. */
static int blockVecs(int64_t cols) { return cols % 64 == 0 ? 4 : 2; }

/* C[r][n..n+16*nv) (+)= Σ_t group(A[r][E t .. E t + E)) · B[t][E n ..] for
 * the nr rows[] (nr nv <= ACCS): the accumulators start at init[] and are
 * returned in res[]; `nt` group steps, B columns of vector v at E (n + 16 v).
 */
static void dotBlock(RockGen *g, const DotKind *k, int A, const char *mA, int B,
                     const char *mB, const int *rows, int nr, int nv, int n,
                     int nt, const int *init, int *res) {
  char ib[128], ta[32];
  int t, args[ACCS], nacc[ACCS], E = k->E;
  int c0 = rock__genIndex(g, 0), cE = rock__genIndex(g, E);
  snprintf(ta, sizeof ta, "vector<16x%s>", k->acc);
  rock__genForMulti(g, c0, nt, rock__genIndex(g, 1), nr * nv, init, ta, &t,
                    args, res);
  int tE = E > 1 ? rock__genBin(g, "arith.muli", t, cE, "index") : t;
  int nE = E > 1 ? rock__genBin(g, "arith.muli", n, cE, "index") : n;
  int bv[4];
  for (int v = 0; v < nv; ++v) {
    int col = v ? rock__genBin(g, "arith.addi", nE,
                               rock__genIndex(g, 16 * E * v), "index")
                : nE;
    rock__idx2(ib, sizeof ib, t, col);
    bv[v] = rock__genLoad(g, B, mB, ib, 16 * E, k->elt);
  }
  for (int h = 0; h < nr; ++h) {
    rock__idx2(ib, sizeof ib, rows[h], tE);
    int ap = rock__cpuBcastGroup(g, A, mA, ib, E, k->elt);
    for (int v = 0; v < nv; ++v)
      nacc[h * nv + v] = dotStep(g, k, args[h * nv + v], ap, bv[v]);
  }
  rock__genYieldMultiEnd(g, nr * nv, nacc, ta);
}

/* The keys of the tile that a group of rows[0..nr) needs: nCols, or
 * with per-row limits (KV cache, causal) up to the group's last visible key:
 * min(nCols, max(0, max_h Last[rows[h]] - j0 + 1)). The keys past it are
 * masked for every row of the group (their P is 0), so the gemms skip them:
 * on the diagonal tiles of a causal prefill, about half. */
static int groupKeys(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                     const RockCpuPack *p, const int *rows, int nr) {
  if (!a->dynamic)
    return p->nCols;
  int last = -1;
  for (int h = 0; h < nr; ++h) {
    int l = rock__genFresh(g);
    rock__genLine(g, "%%v%d = memref.load %%v%d[%%v%d] : %s", l, b->Last,
                  rows[h], b->mIdx);
    last = h ? rock__genBin(g, "arith.maxsi", last, l, "index") : l;
  }
  int n = rock__genBin(g, "arith.subi",
                       rock__genBin(g, "arith.addi", last, p->c1, "index"),
                       p->j0, "index");
  n = rock__genBin(g, "arith.maxsi", n, p->c0, "index");
  return rock__genBin(g, "arith.minsi", n, p->nCols, "index");
}

/* Rounds the index `n` up to a multiple of `m`. */
static int roundUp(RockGen *g, int n, int64_t m) {
  int cm = rock__genIndex(g, m);
  return rock__genBin(
      g, "arith.muli",
      rock__genBin(
          g, "arith.divui",
          rock__genBin(g, "arith.addi", n, rock__genIndex(g, m - 1), "index"),
          cm, "index"),
      cm, "index");
}

/* Groups of nr rows over [0, nRows) (rounded up: NB % nr == 0); sets
 * rows[]. */
static void rowGroup(RockGen *g, int nRows, int nr, int rows[MAX_ROWS]) {
  int rg = rock__genFor(g, rock__genIndex(g, 0), nRows, rock__genIndex(g, nr));
  rows[0] = rg;
  for (int h = 1; h < nr; ++h)
    rows[h] = rock__genBin(g, "arith.addi", rg, rock__genIndex(g, h), "index");
}

/* gemm0's block of the nr rows[] and nv vectors of 16 keys at key n. */
static void gemm0Block(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                       const RockCpuPack *p, const int *rows, int nr, int nv,
                       int n) {
  char ib[128];
  const DotKind *k = kindOfK(a);
  int init[ACCS], res[ACCS], cols[4];
  for (int v = 0; v < nv; ++v) {
    cols[v] =
        v ? rock__genBin(g, "arith.addi", n, rock__genIndex(g, 16 * v), "index")
          : n;
    /* u8 q + 128: the accumulators start at -128 Σ_d K[j][d]. */
    int z = -1;
    if (p->biasQ)
      rock__genLine(g, "%%v%d = vector.load %%v%d[%%v%d] : %s, vector<16xi32>",
                    z = rock__genFresh(g), b->Kb, cols[v], b->mKb);
    else
      z = rock__genZero(g, k->acc, 16);
    for (int h = 0; h < nr; ++h)
      init[h * nv + v] = z;
  }
  dotBlock(g, k, b->Qb, b->mQb, b->KP, b->mKP, rows, nr, nv, n,
           rock__genIndex(g, a->Dqk / k->E), init, res);
  for (int h = 0; h < nr; ++h)
    for (int v = 0; v < nv; ++v) {
      rock__idx2(ib, sizeof ib, rows[h], cols[v]);
      rock__genStore(g, res[h * nv + v], b->Sa, b->mSa, ib, 16, k->acc);
    }
}

void rock__cpuPackedGemm0(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuPack *p) {
  int nv = blockVecs(a->MB), nr = ACCS / nv, rows[MAX_ROWS];
  rowGroup(g, p->nRows, nr, rows);
  int keys = groupKeys(g, a, b, p, rows, nr);
  int cB = rock__genIndex(g, 16 * nv);
  /* Without per-row limits every group takes the tile in full blocks; with
   * them (causal, KV cache), the blocks of 16 nv keys that the group's keys
   * fill, then one block of the 1..nv 16-key vectors left (a causal
   * diagonal tile's groups end anywhere in it). */
  int full =
      a->dynamic
          ? rock__genBin(g, "arith.muli",
                         rock__genBin(g, "arith.divui", keys, cB, "index"), cB,
                         "index")
          : roundUp(g, keys, 16 * nv);
  int n = rock__genFor(g, p->c0, full, cB);
  gemm0Block(g, a, b, p, rows, nr, nv, n);
  rock__genEnd(g);
  if (a->dynamic && nv > 1) {
    int c16 = rock__genIndex(g, 16);
    int left = rock__genBin(
        g, "arith.divui",
        rock__genBin(g, "arith.subi", roundUp(g, keys, 16), full, "index"), c16,
        "index");
    rock__genLine(g, "scf.index_switch %%v%d", left);
    for (int t = 1; t <= nv; ++t) {
      rock__genLine(g, "case %d {", t);
      g->depth++;
      gemm0Block(g, a, b, p, rows, nr, t, full);
      rock__genLine(g, "scf.yield");
      g->depth--;
      rock__genLine(g, "}");
    }
    rock__genLine(g, "default {");
    rock__genLine(g, "  scf.yield");
    rock__genLine(g, "}");
  }
  rock__genEnd(g);
}

void rock__cpuPackedGemm1(RockGen *g, const RockAttn *a, const RockCpuBufs *b,
                          const RockCpuPack *p) {
  char ib[128];
  /* bf16 V: pairs of keys from b->Pb and b->VP; other V: single keys of
   * the f32 P (b->St) and V (b->Vl). */
  bool pairs = mlirTypeIsABF16(a->tv);
  const DotKind *k = pairs ? &dotBf16 : &dotF32;
  int nv = blockVecs(a->Dv), nr = ACCS / nv;
  int rows[MAX_ROWS], init[ACCS], res[ACCS], cols[4];
  rowGroup(g, p->nRows, nr, rows);
  /* Key groups up to the keys the group needs (VP holds ceil(nCols / 2)). */
  int keys = groupKeys(g, a, b, p, rows, nr);
  int nt =
      pairs ? rock__genBin(g, "arith.divui",
                           rock__genBin(g, "arith.addi", keys, p->c1, "index"),
                           rock__genIndex(g, 2), "index")
            : keys;
  int n = rock__genFor(g, p->c0, rock__genIndex(g, a->Dv),
                       rock__genIndex(g, 16 * nv));
  for (int v = 0; v < nv; ++v)
    cols[v] =
        v ? rock__genBin(g, "arith.addi", n, rock__genIndex(g, 16 * v), "index")
          : n;
  rock__cpuScaledO(g, b, rows, nr, cols, nv, init);
  if (pairs)
    dotBlock(g, k, b->Pb, b->mPb, b->VP, b->mVP, rows, nr, nv, n, nt, init,
             res);
  else
    dotBlock(g, k, b->St, b->mSt, b->Vl, b->mVl, rows, nr, nv, n, nt, init,
             res);
  for (int h = 0; h < nr; ++h)
    for (int v = 0; v < nv; ++v) {
      rock__idx2(ib, sizeof ib, rows[h], cols[v]);
      rock__genStore(g, res[h * nv + v], b->Ot, b->mOt, ib, 16, "f32");
    }
  rock__genEnd(g);
  rock__genEnd(g);
}
