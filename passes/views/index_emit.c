/*===- index_emit.c - rock-lower-views: index values, text, maps ----------===*/
#include "views/views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===
 * Symbolic index values
 *===----------------------------------------------------------------------===*/

int64_t rock__lvGcd(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Val rock__lvCst(int64_t c) {
  Val v;
  memset(&v, 0, sizeof(v));
  v.isCst = true;
  v.cst = c;
  v.align = c < 0 ? -c : c;
  return v;
}

/*===----------------------------------------------------------------------===
 * The text emitter
 *===----------------------------------------------------------------------===*/

void rock__lvEmitFree(Emit *e) {
  rock__strFree(&e->pro);
  rock__strFree(&e->body);
  free(e->csts);
}

void rock__lvFreshName(Emit *e, char *out, const char *prefix) {
  snprintf(out, NAME_LEN, "%%%s%d", prefix, e->next++);
}

/* Writes the SSA name of `v` into its `name`, emitting an index constant in
 * the prologue the first time a constant is used. Returns the name. */
const char *rock__lvUse(Emit *e, Val *v) {
  if (!v->isCst)
    return v->name;
  if (v->cst >= 0)
    snprintf(v->name, NAME_LEN, "%%c%lld", (long long)v->cst);
  else
    snprintf(v->name, NAME_LEN, "%%c_m%lld", -(long long)v->cst);
  for (int i = 0; i < e->nCsts; ++i)
    if (e->csts[i] == v->cst)
      return v->name;
  if (e->nCsts == e->capCsts) {
    e->capCsts = e->capCsts ? 2 * e->capCsts : 16;
    e->csts = realloc(e->csts, (size_t)e->capCsts * sizeof(int64_t));
    if (!e->csts)
      abort();
  }
  e->csts[e->nCsts++] = v->cst;
  rock__strAppendf(&e->pro, "  %s = arith.constant %lld : index\n", v->name,
                   (long long)v->cst);
  return v->name;
}

static Val binop(Emit *e, const char *opName, Val a, Val b) {
  Val r;
  memset(&r, 0, sizeof(r));
  rock__lvFreshName(e, r.name, "v");
  const char *an = rock__lvUse(e, &a);
  const char *bn = rock__lvUse(e, &b);
  rock__strAppendf(&e->body, "  %s = arith.%s %s, %s : index\n", r.name, opName,
                   an, bn);
  return r;
}

/* a + b, folding constants and zeros. */
static Val add(Emit *e, Val a, Val b) {
  if (a.isCst && b.isCst) {
    Val r = rock__lvCst(a.cst + b.cst);
    r.k = a.k + b.k;
    return r;
  }
  if (a.isCst && a.cst == 0) {
    b.k += a.k;
    return b;
  }
  if (b.isCst && b.cst == 0) {
    a.k += b.k;
    return a;
  }
  Val r = binop(e, "addi", a, b);
  r.k = a.k + b.k;
  r.align = rock__lvGcd(a.align, b.align);
  return r;
}

Val rock__lvAddC(Emit *e, Val a, int64_t c) {
  return add(e, a, rock__lvCst(c));
}

/* a * c for a constant c. */
static Val mulC(Emit *e, Val a, int64_t c) {
  if (c == 0)
    return rock__lvCst(0);
  if (c == 1)
    return a;
  if (a.isCst) {
    Val r = rock__lvCst(a.cst * c);
    r.k = a.k * c;
    return r;
  }
  Val r = binop(e, "muli", a, rock__lvCst(c));
  r.k = a.k * c;
  r.align = a.align * (c < 0 ? -c : c);
  return r;
}

/* base(a) / c (unsigned) for c > 0; the lane offset is dropped. */
static Val divC(Emit *e, Val a, int64_t c) {
  a.k = 0;
  if (c == 1)
    return a;
  if (a.isCst && a.cst >= 0)
    return rock__lvCst(a.cst / c);
  Val r = binop(e, "divui", a, rock__lvCst(c));
  r.align = (a.align % c == 0) ? a.align / c : 1;
  return r;
}

/* base(a) mod c (unsigned) for c > 0; the lane offset is dropped. */
static Val remC(Emit *e, Val a, int64_t c) {
  a.k = 0;
  if (c == 1)
    return rock__lvCst(0);
  if (a.isCst && a.cst >= 0)
    return rock__lvCst(a.cst % c);
  Val r = binop(e, "remui", a, rock__lvCst(c));
  r.align = rock__lvGcd(a.align, c);
  return r;
}

/* True when the lanes base + k*t, t < width, of `u` provably stay inside one
 * block [m*blk, (m+1)*blk): with base a multiple of g = gcd(align, blk), it
 * suffices that (width-1)*k < g. */
bool rock__lvStaysInBlock(const Emit *e, const Val *u, int64_t blk) {
  if (u->k == 0 || e->width == 1)
    return true;
  if (u->k < 0 || blk <= 0)
    return false;
  int64_t g = rock__lvGcd(u->align, blk);
  return (e->width - 1) * u->k < g;
}

static void pushCond(Emit *e, const char *name) {
  if (e->nConds < MAX_CONDS) {
    snprintf(e->conds[e->nConds++], NAME_LEN, "%s", name);
    return;
  }
  /* Full: fold the new condition into the last one. */
  char n[NAME_LEN];
  rock__lvFreshName(e, n, "ok");
  rock__strAppendf(&e->body, "  %s = arith.andi %s, %s : i1\n", n,
                   e->conds[MAX_CONDS - 1], name);
  snprintf(e->conds[MAX_CONDS - 1], NAME_LEN, "%s", n);
}

/* Adds the condition `u <pred> c` (pred "sge" or "slt") to the validity. */
static void addCmp(Emit *e, Val u, const char *pred, int64_t c) {
  if (u.isCst) {
    bool holds = strcmp(pred, "sge") == 0 ? u.cst >= c : u.cst < c;
    if (holds)
      return;
    if (!e->haveFalse) {
      rock__strAppend(&e->pro, "  %false = arith.constant false\n");
      e->haveFalse = true;
    }
    pushCond(e, "%false");
    return;
  }
  char name[NAME_LEN];
  rock__lvFreshName(e, name, "ok");
  Val cv = rock__lvCst(c);
  const char *cn = rock__lvUse(e, &cv);
  rock__strAppendf(&e->body, "  %s = arith.cmpi %s, %s, %s : index\n", name,
                   pred, u.name, cn);
  pushCond(e, name);
}

/*===----------------------------------------------------------------------===
 * Transform maps
 *===----------------------------------------------------------------------===*/

static int64_t arrGet(MlirAttribute a, intptr_t i) {
  return mlirDenseI64ArrayGetElement(a, i);
}
intptr_t rock__lvArrLen(MlirAttribute a) {
  return mlirDenseArrayGetNumElements(a);
}

/* Pushes upper coordinates `up` through `map` into `low` (size = the map's
 * lower rank), adding Pad conditions to `e`. Returns false, with e->failed
 * set, when a wide lowering cannot be proven for this map. */
bool rock__lvApplyMap(Emit *e, MlirAttribute map, const Val *up, Val *low) {
  MlirAttribute ops = rockTransformMapAttrGetOps(map);
  MlirAttribute upB = rockTransformMapAttrGetUpperBounds(map);
  MlirAttribute lowB = rockTransformMapAttrGetLowerBounds(map);
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(ops); ++i) {
    MlirAttribute t = mlirArrayAttrGetElement(ops, i);
    MlirAttribute p = rockTransformAttrGetParams(t);
    MlirAttribute udA = rockTransformAttrGetUpperDims(t);
    MlirAttribute ldA = rockTransformAttrGetLowerDims(t);
    intptr_t nu = rock__lvArrLen(udA), nl = rock__lvArrLen(ldA);
#define UD(j) arrGet(udA, (j))
#define LD(j) arrGet(ldA, (j))
    switch (rockTransformAttrGetKind(t)) {
    case ROCK_TRANSFORM_PASS_THROUGH:
      for (intptr_t j = 0; j < nu; ++j)
        low[LD(j)] = up[UD(j)];
      break;
    case ROCK_TRANSFORM_PAD:
      for (intptr_t j = 0; j < nu; ++j) {
        Val u = up[UD(j)];
        int64_t left = arrGet(p, 2 * j), right = arrGet(p, 2 * j + 1);
        int64_t len = arrGet(lowB, LD(j));
        /* Lanes share one validity when they stay inside one block whose
         * boundaries include every boundary that is checked. */
        int64_t blk = 0;
        if (left > 0)
          blk = rock__lvGcd(blk, left);
        if (right > 0)
          blk = rock__lvGcd(blk, left + len);
        if (blk > 0 && !rock__lvStaysInBlock(e, &u, blk)) {
          e->failed = true;
          return false;
        }
        if (left > 0)
          addCmp(e, u, "sge", left);
        if (right > 0)
          addCmp(e, u, "slt", left + len);
        low[LD(j)] = rock__lvAddC(e, u, -left);
      }
      break;
    case ROCK_TRANSFORM_SLICE:
      for (intptr_t j = 0; j < nu; ++j)
        low[LD(j)] = rock__lvAddC(e, up[UD(j)], arrGet(p, 2 * j));
      break;
    case ROCK_TRANSFORM_EMBED: {
      Val acc = rock__lvCst(0);
      for (intptr_t j = 0; j < nu; ++j)
        acc = add(e, acc, mulC(e, up[UD(j)], arrGet(p, j)));
      low[LD(0)] = acc;
      break;
    }
    case ROCK_TRANSFORM_UNMERGE: {
      /* Row-major, Horner form: ((u0*s1 + u1)*s2 + u2)... */
      Val acc = up[UD(0)];
      for (intptr_t j = 1; j < nu; ++j)
        acc = add(e, mulC(e, acc, arrGet(p, j)), up[UD(j)]);
      low[LD(0)] = acc;
      break;
    }
    case ROCK_TRANSFORM_MERGE: {
      Val u = up[UD(0)];
      intptr_t last = -1;
      for (intptr_t j = 0; j < nl; ++j)
        if (arrGet(p, j) > 1)
          last = j;
      /* Lanes move only the innermost non-trivial digit: prove they do not
       * carry into the digit above it. */
      if (last > 0 && !rock__lvStaysInBlock(e, &u, arrGet(p, last))) {
        e->failed = true;
        return false;
      }
      int64_t stride = 1;
      for (intptr_t j = nl - 1; j >= 0; --j) {
        int64_t s = arrGet(p, j);
        Val d;
        if (s == 1) {
          d = rock__lvCst(0);
        } else {
          Val q = divC(e, u, stride);
          d = j == 0 ? q : remC(e, q, s);
          if (j == last)
            d.k = u.k;
        }
        low[LD(j)] = d;
        stride *= s;
      }
      break;
    }
    case ROCK_TRANSFORM_ADD_DIM:
      break;
    case ROCK_TRANSFORM_BROADCAST:
      for (intptr_t j = 0; j < nu; ++j) {
        Val u = up[UD(j)];
        int64_t c = arrGet(p, j);
        if (arrGet(upB, UD(j)) <= c) {
          low[LD(j)] = u; /* u < c: the modulo is the identity */
        } else if (c == 1) {
          low[LD(j)] = rock__lvCst(0);
        } else {
          if (!rock__lvStaysInBlock(e, &u, c)) {
            e->failed = true;
            return false;
          }
          Val r = remC(e, u, c);
          r.k = u.k;
          low[LD(j)] = r;
        }
      }
      break;
    case ROCK_TRANSFORM_CONST_DIM:
      for (intptr_t j = 0; j < nl; ++j)
        low[LD(j)] = rock__lvCst(arrGet(p, 2 * j));
      break;
    }
#undef UD
#undef LD
  }
  return true;
}
