/*===- access.c - rock-lower-views: the code for one access ---------------===*/
#include "views/views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===
 * Accesses
 *===----------------------------------------------------------------------===*/

static void appendPadConst(RockStr *s, const Emit *e, const Access *a) {
  RockStr ty = {0};
  rock__strAppendType(&ty, a->elt);
  if (mlirTypeIsAInteger(a->elt)) {
    long long v = isfinite(a->pad) ? (long long)a->pad : 0;
    rock__strAppendf(s, "  %%pad = arith.constant %lld : %s\n", v, ty.data);
  } else if (isfinite(a->pad)) {
    rock__strAppendf(s, "  %%pad = arith.constant %.17e : %s\n", a->pad,
                     ty.data);
  } else if (mlirTypeIsAF16(a->elt) || mlirTypeIsABF16(a->elt) ||
             mlirTypeIsAF32(a->elt)) {
    /* Infinities and NaN as the element type's bit pattern. */
    bool neg = signbit(a->pad);
    unsigned long long bits;
    if (mlirTypeIsAF16(a->elt))
      bits = isnan(a->pad) ? 0x7E00 : neg ? 0xFC00 : 0x7C00;
    else if (mlirTypeIsABF16(a->elt))
      bits = isnan(a->pad) ? 0x7FC0 : neg ? 0xFF80 : 0x7F80;
    else
      bits = isnan(a->pad) ? 0x7FC00000 : neg ? 0xFF800000 : 0x7F800000;
    rock__strAppendf(s, "  %%pad = arith.constant 0x%llX : %s\n", bits,
                     ty.data);
  } else {
    uint64_t bits;
    memcpy(&bits, &a->pad, sizeof(bits));
    if (mlirTypeIsAF64(a->elt)) {
      rock__strAppendf(s, "  %%pad = arith.constant 0x%016llX : f64\n",
                       (unsigned long long)bits);
    } else {
      rock__strAppendf(s, "  %%pad64 = arith.constant 0x%016llX : f64\n",
                       (unsigned long long)bits);
      rock__strAppendf(s, "  %%pad = arith.truncf %%pad64 : f64 to %s\n",
                       ty.data);
    }
  }
  if (e->needPadV) {
    RockStr vt = {0};
    rock__strAppendType(&vt, a->valType);
    rock__strAppendf(s, "  %%padv = vector.broadcast %%pad : %s to %s\n",
                     ty.data, vt.data);
    rock__strFree(&vt);
  }
  rock__strFree(&ty);
}

static void appendIdxList(Emit *e, RockStr *s, Val *v, intptr_t n) {
  rock__strAppend(s, "[");
  for (intptr_t i = 0; i < n; ++i)
    rock__strAppendf(s, "%s%s", i ? ", " : "", rock__lvUse(e, &v[i]));
  rock__strAppend(s, "]");
}

/* How one (possibly wide) access touches memory. */
typedef enum Shape {
  SHAPE_SCALAR, /* one element */
  SHAPE_VECTOR, /* `width` contiguous elements */
  SHAPE_SPLAT,  /* every lane at the same address */
} Shape;

/* True when the innermost dim of memref type `t` has unit stride. */
static bool unitInnerStride(MlirType t) {
  MlirAttribute l = mlirMemRefTypeGetLayout(t);
  if (mlirAttributeIsNull(l))
    return true;
  if (mlirAttributeIsAAffineMap(l))
    return mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(l));
  if (mlirAttributeIsAStridedLayout(l)) {
    intptr_t r = mlirShapedTypeGetRank(t);
    return r > 0 && mlirStridedLayoutAttrGetStride(l, r - 1) == 1;
  }
  return false;
}

/* The 64-byte lines a prefetch of this shape issues: those its lanes cover
 * (a->n lanes, a->step per line) when they are contiguous, else one. */
static int64_t prefetchLines(const Access *a, Shape shape) {
  return shape == SHAPE_VECTOR ? (a->n + a->step - 1) / a->step : 1;
}

/* Emits the memory access of coordinates `bot` (the bottom of the chain),
 * guarded by the conditions collected in `e` and those of the page table
 * chain. `ty` is the accessed type text (element or vector), `value` the
 * stored value's name (stores), `res` receives the loaded value's name. */
static void emitMemory(Emit *e, const Access *a, Val *bot, Shape shape,
                       const char *ty, const char *eltTy, const char *value,
                       char *res) {
  RockStr *b = &e->body;
  const Chain *ch = &a->ch;
  bool noRes = a->isStore || a->isPrefetch;
  RockStr baseTy = {0};
  rock__strAppendType(&baseTy, mlirValueGetType(ch->base));

  /* Index math first, at the top level: the page-table coordinates, then
   * the validity, then the in-page offset. */
  Val ptrIdx[MAX_RANK];
  intptr_t nPtr = 0;
  char off[NAME_LEN] = "";
  intptr_t pageRank = ch->paged ? mlirShapedTypeGetRank(ch->pageType) : 0;
  if (ch->paged) {
    Val cur[MAX_RANK];
    intptr_t nCur = pageRank;
    for (intptr_t i = 0; i < pageRank; ++i)
      cur[i] = bot[i];
    /* Page-table coordinates: the page dim becomes 0 (or is dropped). */
    intptr_t tableRank =
        ch->nPtrMaps
            ? rock__lvArrLen(rockTransformMapAttrGetUpperBounds(ch->ptrMaps[0]))
            : mlirShapedTypeGetRank(mlirValueGetType(ch->base));
    if (tableRank == pageRank)
      cur[pageRank - 1] = rock__lvCst(0);
    nCur = tableRank;
    for (int m = 0; m < ch->nPtrMaps; ++m) {
      Val next[MAX_RANK];
      rock__lvApplyMap(e, ch->ptrMaps[m], cur, next);
      nCur = rock__lvArrLen(rockTransformMapAttrGetLowerBounds(ch->ptrMaps[m]));
      for (intptr_t i = 0; i < nCur; ++i)
        cur[i] = next[i];
    }
    nPtr = nCur;
    for (intptr_t i = 0; i < nPtr; ++i) {
      ptrIdx[i] = cur[i];
      rock__lvUse(e, &ptrIdx[i]);
    }
    Val o = bot[pageRank - 1];
    rock__lvFreshName(e, off, "off");
    rock__strAppendf(b, "  %s = arith.index_cast %s : index to i64\n", off,
                     rock__lvUse(e, &o));
  }
  char valid[NAME_LEN] = "";
  if (e->nConds > 0) {
    snprintf(valid, NAME_LEN, "%s", e->conds[0]);
    for (int i = 1; i < e->nConds; ++i) {
      char n[NAME_LEN];
      rock__lvFreshName(e, n, "ok");
      rock__strAppendf(b, "  %s = arith.andi %s, %s : i1\n", n, valid,
                       e->conds[i]);
      snprintf(valid, NAME_LEN, "%s", n);
    }
  }
  intptr_t nBot =
      ch->paged ? pageRank : mlirShapedTypeGetRank(mlirValueGetType(ch->base));
  RockStr idxText = {0};
  if (ch->paged)
    appendIdxList(e, &idxText, ptrIdx, nPtr);
  else
    appendIdxList(e, &idxText, bot, nBot);

  /* The access itself, under scf.if when some lane may be invalid. */
  const char *ind = "  ";
  char r[NAME_LEN] = "";
  if (!noRes)
    rock__lvFreshName(e, res, "r");
  if (valid[0]) {
    if (noRes)
      rock__strAppendf(b, "  scf.if %s {\n", valid);
    else
      rock__strAppendf(b, "  %s = scf.if %s -> (%s) {\n", res, valid, ty);
    ind = "    ";
  }
  const char *accTy = shape == SHAPE_VECTOR ? ty : eltTy;
  if (!noRes)
    rock__lvFreshName(e, r, "x");
  if (ch->paged) {
    char pv[NAME_LEN], pp[NAME_LEN], ep[NAME_LEN];
    rock__lvFreshName(e, pv, "pv");
    rock__lvFreshName(e, pp, "ptr");
    rock__lvFreshName(e, ep, "ep");
    int64_t bytes = 1;
    if (mlirTypeIsAInteger(a->elt))
      bytes = (mlirIntegerTypeGetWidth(a->elt) + 7) / 8;
    else if (mlirTypeIsAFloat(a->elt))
      bytes = (mlirFloatTypeGetWidth(a->elt) + 7) / 8;
    if (a->align > bytes)
      bytes = a->align;
    rock__strAppendf(b, "%s%s = memref.load %%base%s : %s\n", ind, pv,
                     idxText.data, baseTy.data);
    rock__strAppendf(b, "%s%s = llvm.inttoptr %s : i64 to !llvm.ptr\n", ind, pp,
                     pv);
    rock__strAppendf(b,
                     "%s%s = llvm.getelementptr %s[%s] : (!llvm.ptr, i64) -> "
                     "!llvm.ptr, %s\n",
                     ind, ep, pp, off, eltTy);
    if (a->isPrefetch)
      for (int64_t k = 0; k < prefetchLines(a, shape); ++k) {
        char lp[NAME_LEN];
        snprintf(lp, NAME_LEN, "%s", ep);
        if (k) {
          char c[NAME_LEN], o[NAME_LEN];
          rock__lvFreshName(e, c, "ln");
          rock__lvFreshName(e, o, "lo");
          rock__lvFreshName(e, lp, "lp");
          rock__strAppendf(b,
                           "%s%s = arith.constant %lld : i64\n"
                           "%s%s = arith.addi %s, %s : i64\n"
                           "%s%s = llvm.getelementptr %s[%s] : (!llvm.ptr, "
                           "i64) -> !llvm.ptr, %s\n",
                           ind, c, (long long)(k * a->step), ind, o, off, c,
                           ind, lp, pp, o, eltTy);
        }
        rock__strAppendf(b,
                         "%s\"llvm.intr.prefetch\"(%s) <{cache = 1 : i32, "
                         "hint = %d : i32, rw = 0 : i32}> : (!llvm.ptr) -> "
                         "()\n",
                         ind, lp, a->locality);
      }
    else if (a->isStore)
      rock__strAppendf(b,
                       "%sllvm.store %s, %s {alignment = %lld : i64} : %s, "
                       "!llvm.ptr\n",
                       ind, value, ep, (long long)bytes, accTy);
    else
      rock__strAppendf(b,
                       "%s%s = llvm.load %s {alignment = %lld : i64} : "
                       "!llvm.ptr -> %s\n",
                       ind, r, ep, (long long)bytes, accTy);
  } else if (a->isPrefetch) {
    for (int64_t k = 0; k < prefetchLines(a, shape); ++k) {
      RockStr lineIdx = {0};
      Val last = bot[nBot - 1];
      if (k)
        bot[nBot - 1] = rock__lvAddC(e, last, k * a->step);
      appendIdxList(e, &lineIdx, bot, nBot);
      bot[nBot - 1] = last;
      rock__strAppendf(
          b, "%smemref.prefetch %%base%s, read, locality<%d>, data : %s\n", ind,
          lineIdx.data, a->locality, baseTy.data);
      rock__strFree(&lineIdx);
    }
  } else if (shape == SHAPE_VECTOR) {
    /* An asserted alignment (rock.align, from the GPU lowering) lets the
     * backend emit one wide access (ld.global.v4) instead of one per lane. */
    char al[48] = "";
    if (a->align > 0)
      snprintf(al, sizeof al, " {alignment = %lld : i64}", (long long)a->align);
    if (a->isStore)
      rock__strAppendf(b, "%svector.store %s, %%base%s%s : %s, %s\n", ind,
                       value, idxText.data, al, baseTy.data, ty);
    else
      rock__strAppendf(b, "%s%s = vector.load %%base%s%s : %s, %s\n", ind, r,
                       idxText.data, al, baseTy.data, ty);
  } else {
    if (a->isStore)
      rock__strAppendf(b, "%smemref.store %s, %%base%s : %s\n", ind, value,
                       idxText.data, baseTy.data);
    else
      rock__strAppendf(b, "%s%s = memref.load %%base%s : %s\n", ind, r,
                       idxText.data, baseTy.data);
  }
  if (!noRes && shape == SHAPE_SPLAT) {
    char s[NAME_LEN];
    rock__lvFreshName(e, s, "splat");
    rock__strAppendf(b, "%s%s = vector.broadcast %s : %s to %s\n", ind, s, r,
                     eltTy, ty);
    snprintf(r, NAME_LEN, "%s", s);
  }
  if (valid[0]) {
    if (noRes) {
      rock__strAppend(b, "  }\n");
    } else {
      rock__strAppendf(b, "    scf.yield %s : %s\n  } else {\n", r, ty);
      bool scalar = strcmp(ty, eltTy) == 0;
      rock__strAppendf(b, "    scf.yield %s : %s\n  }\n",
                       scalar ? "%pad" : "%padv", ty);
      e->needPad = true;
      e->needPadV = e->needPadV || !scalar;
    }
  } else if (!noRes) {
    snprintf(res, NAME_LEN, "%s", r);
  }
  rock__strFree(&idxText);
  rock__strFree(&baseTy);
}

/* Pushes `up` through the access's main chain into `bot`. */
static bool pushThrough(Emit *e, const Access *a, Val *up, Val *bot) {
  Val cur[MAX_RANK];
  intptr_t n = a->nIdx;
  for (intptr_t i = 0; i < n; ++i)
    cur[i] = up[i];
  for (int m = 0; m < a->ch.nMaps; ++m) {
    Val next[MAX_RANK];
    if (!rock__lvApplyMap(e, a->ch.maps[m], cur, next))
      return false;
    n = rock__lvArrLen(rockTransformMapAttrGetLowerBounds(a->ch.maps[m]));
    for (intptr_t i = 0; i < n; ++i)
      cur[i] = next[i];
  }
  for (intptr_t i = 0; i < n; ++i)
    bot[i] = cur[i];
  return true;
}

/* Decides how a wide access touches memory, or returns false when the lanes
 * are not provably contiguous (or all at one address). */
static bool wideShape(const Emit *e, const Access *a, const Val *bot,
                      Shape *shape) {
  if (a->n == 1) {
    /* vector<1 x elt>: one lane, at one address, loaded as a vector (with
     * the asserted alignment) */
    *shape = mlirTypeIsAVector(a->valType) ? SHAPE_VECTOR : SHAPE_SCALAR;
    return true;
  }
  const Chain *ch = &a->ch;
  MlirType t = ch->paged ? ch->pageType : mlirValueGetType(ch->base);
  intptr_t r = mlirShapedTypeGetRank(t);
  bool allZero = true;
  for (intptr_t i = 0; i < r; ++i)
    allZero = allZero && bot[i].k == 0;
  if (allZero) {
    *shape = SHAPE_SPLAT;
    return true;
  }
  for (intptr_t i = 0; i + 1 < r; ++i)
    if (bot[i].k != 0)
      return false;
  if (r == 0 || bot[r - 1].k != 1)
    return false;
  if (ch->paged) {
    /* Never straddle a page. */
    if (!rock__lvStaysInBlock(e, &bot[r - 1],
                              mlirShapedTypeGetDimSize(t, r - 1)))
      return false;
  } else if (!unitInnerStride(t)) {
    return false;
  }
  *shape = SHAPE_VECTOR;
  return true;
}

/* Builds the function text for `a`: wide when `wide`, else lane by lane.
 * Returns false when a wide lowering cannot be proven. */
bool rock__lvBuildText(const Access *a, bool wide, RockStr *out) {
  Emit e;
  memset(&e, 0, sizeof(e));
  e.width = wide ? a->n : 1;
  RockStr ty = {0}, eltTy = {0}, baseTy = {0};
  rock__strAppendType(&ty, a->valType);
  rock__strAppendType(&eltTy, a->elt);
  rock__strAppendType(&baseTy, mlirValueGetType(a->ch.base));
  Val up[MAX_RANK], bot[MAX_RANK];
  char res[NAME_LEN] = "";
  bool ok = true;
  bool noRes = a->isStore || a->isPrefetch;

  if (wide) {
    for (intptr_t i = 0; i < a->nIdx; ++i)
      up[i] = a->idx[i];
    if (a->nIdx > 0 && a->n > 1)
      up[a->nIdx - 1].k = 1;
    Shape shape;
    ok = pushThrough(&e, a, up, bot) && wideShape(&e, a, bot, &shape);
    if (ok) {
      const char *value = "%val";
      if (a->isStore && shape == SHAPE_SPLAT) {
        /* Every lane writes one address: the last lane wins. */
        rock__strAppendf(&e.body,
                         "  %%last = vector.extract %%val[%lld] : %s from %s\n",
                         (long long)(a->n - 1), eltTy.data, ty.data);
        value = "%last";
      }
      emitMemory(&e, a, bot, shape, ty.data, eltTy.data, value, res);
    }
  } else {
    RockStr joined = {0};
    /* Lane by lane (a prefetch: one lane per 64-byte line). */
    for (int64_t t = 0; t < a->n; t += a->isPrefetch ? a->step : 1) {
      for (intptr_t i = 0; i < a->nIdx; ++i)
        up[i] = a->idx[i];
      if (a->nIdx > 0 && t > 0)
        up[a->nIdx - 1] = rock__lvAddC(&e, up[a->nIdx - 1], t);
      e.nConds = 0;
      pushThrough(&e, a, up, bot);
      char value[NAME_LEN] = "%val";
      if (a->isStore && a->n > 1) {
        snprintf(value, NAME_LEN, "%%lane%d", (int)t);
        rock__strAppendf(&e.body,
                         "  %s = vector.extract %%val[%lld] : %s from %s\n",
                         value, (long long)t, eltTy.data, ty.data);
      }
      char r[NAME_LEN] = "";
      emitMemory(&e, a, bot, SHAPE_SCALAR, eltTy.data, eltTy.data, value, r);
      if (!noRes)
        rock__strAppendf(&joined, "%s%s", t ? ", " : "", r);
    }
    if (!noRes) {
      if (a->n > 1) {
        snprintf(res, NAME_LEN, "%%vec");
        rock__strAppendf(&e.body, "  %%vec = vector.from_elements %s : %s\n",
                         joined.data, ty.data);
      } else {
        snprintf(res, NAME_LEN, "%s", joined.data);
      }
    }
    rock__strFree(&joined);
  }

  if (ok) {
    rock__strAppendf(out, "func.func @body(%%base: %s", baseTy.data);
    for (intptr_t i = 0; i < a->nIdx; ++i)
      rock__strAppendf(out, ", %%i%d: index", (int)i);
    if (a->isStore)
      rock__strAppendf(out, ", %%val: %s", ty.data);
    rock__strAppendf(out, ")%s%s {\n", noRes ? "" : " -> ",
                     noRes ? "" : ty.data);
    if (e.needPad)
      appendPadConst(out, &e, a);
    if (e.pro.data)
      rock__strAppend(out, e.pro.data);
    if (e.body.data)
      rock__strAppend(out, e.body.data);
    if (noRes)
      rock__strAppend(out, "  return\n}\n");
    else
      rock__strAppendf(out, "  return %s : %s\n}\n", res, ty.data);
  }
  rock__strFree(&ty);
  rock__strFree(&eltTy);
  rock__strFree(&baseTy);
  rock__lvEmitFree(&e);
  return ok;
}
