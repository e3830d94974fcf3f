/*===- gen.c - a small MLIR text emitter for the attention lowerings -----===*
 *
 * SSA ids, constants hoisted to the top, indentation, scf.for with and
 * without iter_args, element-type conversions and vector/memref accesses
 * (see attention.h).
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rock__genFresh(RockGen *g) { return g->next++; }

void rock__genLine(RockGen *g, const char *fmt, ...) {
  for (int i = 0; i < g->depth; ++i)
    rock__strAppend(&g->body, "  ");
  va_list ap;
  va_start(ap, fmt);
  rock__strAppendv(&g->body, fmt, ap);
  va_end(ap);
  rock__strAppend(&g->body, "\n");
}

/* A constant `lit : type`, emitted once at the top of the function. */
int rock__genConst(RockGen *g, const char *lit, const char *type) {
  char key[48];
  snprintf(key, sizeof key, "%s:%s", lit, type);
  for (int i = 0; i < g->nCs; ++i)
    if (!strcmp(g->cs[i].key, key))
      return g->cs[i].id;
  if (g->nCs == g->capCs) {
    g->capCs = g->capCs ? 2 * g->capCs : 32;
    g->cs = realloc(g->cs, (size_t)g->capCs * sizeof(RockGenConst));
    if (!g->cs)
      abort();
  }
  int id = rock__genFresh(g);
  snprintf(g->cs[g->nCs].key, sizeof g->cs[g->nCs].key, "%s", key);
  g->cs[g->nCs++].id = id;
  rock__strAppendf(&g->consts, "  %%v%d = arith.constant %s : %s\n", id, lit,
                   type);
  return id;
}

int rock__genIndex(RockGen *g, int64_t v) {
  char lit[32];
  snprintf(lit, sizeof lit, "%lld", (long long)v);
  return rock__genConst(g, lit, "index");
}

/* `%r = op %a, %b : ty` */
int rock__genBin(RockGen *g, const char *op, int a, int b, const char *ty) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = %s %%v%d, %%v%d : %s", r, op, a, b, ty);
  return r;
}

/* `%r = op %a, %b fastmath<reassoc,contract> : ty` */
int rock__genBinF(RockGen *g, const char *op, int a, int b, const char *ty) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = %s %%v%d, %%v%d " ROCK_FM " : %s", r, op, a, b, ty);
  return r;
}

int rock__genFma(RockGen *g, int x, int y, int acc, const char *ty) {
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.intr.fma(%%v%d, %%v%d, %%v%d) : (%s, %s, %s) -> "
                "%s",
                r, x, y, acc, ty, ty, ty, ty);
  return r;
}

int rock__genSelect(RockGen *g, int c, int a, int b, const char *ty) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.select %%v%d, %%v%d, %%v%d : %s", r, c, a, b,
                ty);
  return r;
}

/* acc + x * y in float (fastmath) or integer arithmetic of type `ty`. */
int rock__genMacc(RockGen *g, bool fl, int acc, int x, int y, const char *ty) {
  if (fl)
    return rock__genBinF(g, "arith.addf", acc,
                         rock__genBinF(g, "arith.mulf", x, y, ty), ty);
  return rock__genBin(g, "arith.addi", acc,
                      rock__genBin(g, "arith.muli", x, y, ty), ty);
}
int rock__genFor(RockGen *g, int lo, int hi, int st) {
  int iv = rock__genFresh(g);
  rock__genLine(g, "scf.for %%v%d = %%v%d to %%v%d step %%v%d {", iv, lo, hi,
                st);
  g->depth++;
  return iv;
}

void rock__genEnd(RockGen *g) {
  g->depth--;
  rock__genLine(g, "}");
}

/* Opens a one-iter_arg loop `%res = scf.for %iv = lo to hi step st
 * iter_args(%acc = init) -> (ty) {`; sets *iv and *acc, returns %res. */
int rock__genForIter(RockGen *g, int lo, int hi, int st, int init,
                     const char *ty, int *iv, int *acc) {
  int res = rock__genFresh(g);
  *iv = rock__genFresh(g);
  *acc = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
                "iter_args(%%v%d = %%v%d) -> (%s) {",
                res, *iv, lo, hi, st, *acc, init, ty);
  g->depth++;
  return res;
}

void rock__genYieldEnd(RockGen *g, int v, const char *ty) {
  rock__genLine(g, "scf.yield %%v%d : %s", v, ty);
  rock__genEnd(g);
}

/* Opens `%r0, ..., %rN-1 = scf.for %iv = lo to hi step st iter_args(%a_i =
 * init[i]) -> (ty, ...) {` (all iter_args of type `ty`); sets *iv, args[]
 * and res[]. */
void rock__genForTyped(RockGen *g, int lo, int hi, int st, int n,
                       const int *init, const char *const *tys, int *iv,
                       int *args, int *res) {
  RockStr s = {0};
  for (int i = 0; i < n; ++i) {
    res[i] = rock__genFresh(g);
    rock__strAppendf(&s, "%s%%v%d", i ? ", " : "", res[i]);
  }
  *iv = rock__genFresh(g);
  rock__strAppendf(&s,
                   " = scf.for %%v%d = %%v%d to %%v%d step %%v%d iter_args(",
                   *iv, lo, hi, st);
  for (int i = 0; i < n; ++i) {
    args[i] = rock__genFresh(g);
    rock__strAppendf(&s, "%s%%v%d = %%v%d", i ? ", " : "", args[i], init[i]);
  }
  rock__strAppend(&s, ") -> (");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&s, "%s%s", i ? ", " : "", tys[i]);
  rock__strAppend(&s, ") {");
  rock__genLine(g, "%s", s.data);
  rock__strFree(&s);
  g->depth++;
}

void rock__genYieldTypedEnd(RockGen *g, int n, const int *v,
                            const char *const *tys) {
  RockStr s = {0};
  rock__strAppend(&s, "scf.yield ");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&s, "%s%%v%d", i ? ", " : "", v[i]);
  rock__strAppend(&s, " : ");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&s, "%s%s", i ? ", " : "", tys[i]);
  rock__genLine(g, "%s", s.data);
  rock__strFree(&s);
  rock__genEnd(g);
}

enum { MAX_MULTI = 64 };

void rock__genForMulti(RockGen *g, int lo, int hi, int st, int n,
                       const int *init, const char *ty, int *iv, int *args,
                       int *res) {
  const char *tys[MAX_MULTI];
  for (int i = 0; i < n && i < MAX_MULTI; ++i)
    tys[i] = ty;
  rock__genForTyped(g, lo, hi, st, n < MAX_MULTI ? n : MAX_MULTI, init, tys, iv,
                    args, res);
}

void rock__genYieldMultiEnd(RockGen *g, int n, const int *v, const char *ty) {
  const char *tys[MAX_MULTI];
  for (int i = 0; i < n && i < MAX_MULTI; ++i)
    tys[i] = ty;
  rock__genYieldTypedEnd(g, n < MAX_MULTI ? n : MAX_MULTI, v, tys);
}

/*===--- types ------------------------------------------------------------===*/

/* Prints `t` (scalar) or `vector<W x t>` into buf. */
void rock__typeStr(char *buf, size_t n, MlirType t, int w) {
  RockStr s = {0};
  if (w > 1)
    rock__strAppendf(&s, "vector<%dx", w);
  rock__strAppendType(&s, t);
  if (w > 1)
    rock__strAppend(&s, ">");
  snprintf(buf, n, "%s", s.data ? s.data : "");
  rock__strFree(&s);
}

int rock__genViewLoad(RockGen *g, int view, const char *mview, const char *idx,
                      MlirType elt, int w) {
  char t[64];
  rock__typeStr(t, sizeof t, elt, w);
  int ld = rock__genFresh(g);
  rock__genLine(g, "%%v%d = rock.view_load %%v%d[%s] : %s -> %s", ld, view, idx,
                mview, t);
  return ld;
}

void rock__typeStrS(char *buf, size_t n, const char *elt, int w) {
  if (w > 1)
    snprintf(buf, n, "vector<%dx%s>", w, elt);
  else
    snprintf(buf, n, "%s", elt);
}

bool rock__isFloat(MlirType t) { return mlirTypeIsAFloat(t); }
unsigned rock__bitWidth(MlirType t) {
  if (rock__isFloat(t))
    return mlirFloatTypeGetWidth(t);
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  return 64; /* index */
}

/* Converts %v (scalar or vector<W>) from `from` to `to`; returns the id. */
int rock__genConv(RockGen *g, int v, MlirType from, MlirType to, int w) {
  if (mlirTypeEqual(from, to))
    return v;
  MlirContext ctx = mlirTypeGetContext(from);
  char tf[64], tt[64];
  rock__typeStr(tf, sizeof tf, from, w);
  rock__typeStr(tt, sizeof tt, to, w);
  const char *op = NULL;
  unsigned bf = rock__bitWidth(from), bt = rock__bitWidth(to);
  if (rock__isFloat(from) && rock__isFloat(to)) {
    if (bf == bt) { /* f16 <-> bf16: through f32 */
      MlirType f32 = mlirF32TypeGet(ctx);
      return rock__genConv(g, rock__genConv(g, v, from, f32, w), f32, to, w);
    }
    op = bf < bt ? "arith.extf" : "arith.truncf";
  } else if (!rock__isFloat(from) && rock__isFloat(to)) {
    op = "arith.sitofp";
  } else if (rock__isFloat(from) && !rock__isFloat(to)) {
    op = "arith.fptosi";
  } else {
    op = bf < bt ? "arith.extsi" : "arith.trunci";
  }
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = %s %%v%d : %s to %s", r, op, v, tf, tt);
  return r;
}

/* Rounds an f32 value (scalar or vector<W>) through `t` when t is a 16-bit
 * float (f16/bf16). */
int rock__genRoundW(RockGen *g, int v, MlirType t, int w) {
  if (!rock__isFloat(t) || rock__bitWidth(t) >= 32)
    return v;
  MlirType f32 = mlirF32TypeGet(mlirTypeGetContext(t));
  return rock__genConv(g, rock__genConv(g, v, f32, t, w), t, f32, w);
}

int rock__genRound(RockGen *g, int v, MlirType t) {
  return rock__genRoundW(g, v, t, 1);
}

int rock__segmentsMax(int64_t e, RockSeg out[4], int maxW) {
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

int rock__segments(int64_t e, RockSeg out[4]) {
  return rock__segmentsMax(e, out, 32);
}

/* The largest view access width (8, 4 or 1) dividing `e`. */
int rock__viewWidth(int64_t e) {
  if (e % 8 == 0)
    return 8;
  if (e % 4 == 0)
    return 4;
  return 1;
}

int rock__genLoad(RockGen *g, int buf, const char *mt, const char *idx, int w,
                  const char *elt) {
  int r = rock__genFresh(g);
  if (w > 1)
    rock__genLine(g, "%%v%d = vector.load %%v%d[%s] : %s, vector<%dx%s>", r,
                  buf, idx, mt, w, elt);
  else
    rock__genLine(g, "%%v%d = memref.load %%v%d[%s] : %s", r, buf, idx, mt);
  return r;
}

void rock__genStore(RockGen *g, int val, int buf, const char *mt,
                    const char *idx, int w, const char *elt) {
  if (w > 1)
    rock__genLine(g, "vector.store %%v%d, %%v%d[%s] : %s, vector<%dx%s>", val,
                  buf, idx, mt, w, elt);
  else
    rock__genLine(g, "memref.store %%v%d, %%v%d[%s] : %s", val, buf, idx, mt);
}

int rock__genBcast(RockGen *g, int v, int w, const char *elt) {
  if (w == 1)
    return v;
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.broadcast %%v%d : %s to vector<%dx%s>", r, v,
                elt, w, elt);
  return r;
}

/* Zero of `elt` (f32 / i32) as scalar or vector. */
int rock__genZero(RockGen *g, const char *elt, int w) {
  char ty[64];
  rock__typeStrS(ty, sizeof ty, elt, w);
  const char *z = elt[0] == 'f' || elt[0] == 'b' ? "0.0" : "0";
  if (w == 1)
    return rock__genConst(g, z, ty);
  char lit[48];
  snprintf(lit, sizeof lit, "dense<%s>", z);
  return rock__genConst(g, lit, ty);
}

/* The constant `lit` of element type `elt`, splat to vector<W> when W > 1. */
int rock__genSplat(RockGen *g, const char *lit, const char *elt, int w) {
  char ty[64];
  rock__typeStrS(ty, sizeof ty, elt, w);
  if (w == 1)
    return rock__genConst(g, lit, ty);
  char l[48];
  snprintf(l, sizeof l, "dense<%s>", lit);
  return rock__genConst(g, l, ty);
}
void rock__idx2(char *buf, size_t n, int a, int b) {
  snprintf(buf, n, "%%v%d, %%v%d", a, b);
}
void rock__idx3(char *buf, size_t n, int a, int b, int c) {
  snprintf(buf, n, "%%v%d, %%v%d, %%v%d", a, b, c);
}
int rock__genAlloc(RockGen *g, const char *mt, bool heap) {
  int r = rock__genFresh(g);
  g->heapBytes = heap ? rock__scratchAdd(g->heapBytes, mt) : g->heapBytes;
  rock__genLine(g, "%%v%d = memref.%s() {alignment = 64 : i64} : %s", r,
                heap ? "alloc" : "alloca", mt);
  return r;
}
