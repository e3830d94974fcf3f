/*===- page_runs.c - staging paged K / V by page runs ---------------------===*
 *
 * page_runs.h says what and why. The proof that a view is linear in its
 * pages pushes linear forms through the view's transforms with the
 * semantics rock-lower-views gives them (passes/views/index_emit.c): a
 * coordinate is cj·j + cd·d + r(b), with r kept as a table over the Bkv
 * groups b and the key j and d ranging over the whole view. Division and
 * remainder by a constant keep the form only when the key / d part either
 * divides out or provably stays inside one quotient for every b; the page
 * digits of the deref must come from one Merge{pages, pageElems} of a form
 * F with cd = 1, and every r(b) must start a page. Anything else (a Pad, a
 * digit it cannot prove) is not a page view.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/page_runs.h"
#include "gpu/accel.h"
#include "rock-c/Dialect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXD = 16 };

/* cj·j + cd·d + r[b]. */
typedef struct Form {
  int64_t cj, cd;
  int64_t *r;
} Form;

typedef struct Lin {
  int64_t nB, Sk, D;
  int64_t *pool; /* 2 levels x MAXD forms x nB */
  Form lv[2][MAXD];
} Lin;

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

static void fCst(const Lin *L, Form *f, int64_t c) {
  f->cj = f->cd = 0;
  for (int64_t b = 0; b < L->nB; ++b)
    f->r[b] = c;
}

static void fCopy(const Lin *L, Form *f, const Form *a) {
  f->cj = a->cj, f->cd = a->cd;
  memcpy(f->r, a->r, (size_t)L->nB * sizeof *f->r);
}

/* f = a·m + c (f may be a). */
static void fAxpy(const Lin *L, Form *f, const Form *a, int64_t m,
                  const Form *c) {
  f->cj = a->cj * m + (c ? c->cj : 0);
  f->cd = a->cd * m + (c ? c->cd : 0);
  for (int64_t b = 0; b < L->nB; ++b)
    f->r[b] = a->r[b] * m + (c ? c->r[b] : 0);
}

/* f = a / c (mod = false) or a % c (true), c > 0; false when the key / d
 * part does not divide out and may cross a multiple of c for some b. */
static bool fDivMod(const Lin *L, Form *f, const Form *a, int64_t c, bool mod) {
  if (c <= 0)
    return false;
  /* Terms whose coefficient c divides are exact; the rest (lr) must keep
   * r[b] % c + lr inside [0, c). */
  int64_t qj = a->cj % c == 0 ? a->cj : 0, qd = a->cd % c == 0 ? a->cd : 0;
  int64_t rj = a->cj - qj, rd = a->cd - qd;
  int64_t ej = rj * (L->Sk - 1), ed = rd * (L->D - 1);
  int64_t lo = (ej < 0 ? ej : 0) + (ed < 0 ? ed : 0);
  int64_t hi = (ej > 0 ? ej : 0) + (ed > 0 ? ed : 0);
  for (int64_t b = 0; b < L->nB; ++b) {
    int64_t rm = floorMod(a->r[b], c);
    if ((rj || rd) && (rm + lo < 0 || rm + hi >= c))
      return false;
  }
  for (int64_t b = 0; b < L->nB; ++b)
    f->r[b] = mod ? floorMod(a->r[b], c) : floorDiv(a->r[b], c);
  f->cj = mod ? rj : qj / c;
  f->cd = mod ? rd : qd / c;
  return true;
}

static int64_t arr(MlirAttribute a, intptr_t i) {
  return mlirDenseI64ArrayGetElement(a, i);
}

static intptr_t arrLen(MlirAttribute a) {
  return mlirDenseArrayGetNumElements(a);
}

/* Pushes the forms `up` through transform map `map` into `low`. In the
 * deref's map (pDim >= 0), a Merge{P, pageElems} onto exactly the page and
 * offset dims sets *flat instead, and any other write to them fails. */
static bool applyMap(const Lin *L, MlirAttribute map, Form *up, Form *low,
                     int pDim, int64_t pageElems, Form *flat, bool *gotFlat) {
  MlirAttribute ops = rockTransformMapAttrGetOps(map);
  MlirAttribute upB = rockTransformMapAttrGetUpperBounds(map);
  if (arrLen(rockTransformMapAttrGetLowerBounds(map)) > MAXD)
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(ops); ++i) {
    MlirAttribute t = mlirArrayAttrGetElement(ops, i);
    MlirAttribute p = rockTransformAttrGetParams(t);
    MlirAttribute ud = rockTransformAttrGetUpperDims(t);
    MlirAttribute ld = rockTransformAttrGetLowerDims(t);
    intptr_t nu = arrLen(ud), nl = arrLen(ld);
    RockTransformKind kind = rockTransformAttrGetKind(t);
    if (pDim >= 0 && kind == ROCK_TRANSFORM_MERGE && nl == 2 &&
        arr(ld, 0) == pDim && arr(ld, 1) == pDim + 1 &&
        arr(p, 1) == pageElems) {
      fCopy(L, flat, &up[arr(ud, 0)]);
      *gotFlat = true;
      continue;
    }
    for (intptr_t j = 0; pDim >= 0 && j < nl; ++j)
      if (arr(ld, j) == pDim || arr(ld, j) == pDim + 1)
        return false;
    switch (kind) {
    case ROCK_TRANSFORM_PASS_THROUGH:
      for (intptr_t j = 0; j < nu; ++j)
        fCopy(L, &low[arr(ld, j)], &up[arr(ud, j)]);
      break;
    case ROCK_TRANSFORM_SLICE:
      for (intptr_t j = 0; j < nu; ++j) {
        Form *f = &low[arr(ld, j)];
        fCopy(L, f, &up[arr(ud, j)]);
        for (int64_t b = 0; b < L->nB; ++b)
          f->r[b] += arr(p, 2 * j);
      }
      break;
    case ROCK_TRANSFORM_EMBED: {
      Form *f = &low[arr(ld, 0)];
      fCst(L, f, 0);
      for (intptr_t j = 0; j < nu; ++j)
        fAxpy(L, f, &up[arr(ud, j)], arr(p, j), f);
      break;
    }
    case ROCK_TRANSFORM_UNMERGE: {
      Form *f = &low[arr(ld, 0)];
      fCopy(L, f, &up[arr(ud, 0)]);
      for (intptr_t j = 1; j < nu; ++j)
        fAxpy(L, f, f, arr(p, j), &up[arr(ud, j)]);
      break;
    }
    case ROCK_TRANSFORM_MERGE: {
      const Form *u = &up[arr(ud, 0)];
      int64_t stride = 1;
      for (intptr_t j = nl - 1; j >= 0; --j) {
        int64_t s = arr(p, j);
        Form *f = &low[arr(ld, j)];
        if (s == 1)
          fCst(L, f, 0);
        else if (!fDivMod(L, f, u, stride, false) ||
                 (j > 0 && !fDivMod(L, f, f, s, true)))
          return false;
        stride *= s;
      }
      break;
    }
    case ROCK_TRANSFORM_ADD_DIM:
      break;
    case ROCK_TRANSFORM_BROADCAST:
      for (intptr_t j = 0; j < nu; ++j) {
        int64_t c = arr(p, j);
        Form *f = &low[arr(ld, j)];
        if (arr(upB, arr(ud, j)) <= c)
          fCopy(L, f, &up[arr(ud, j)]);
        else if (!fDivMod(L, f, &up[arr(ud, j)], c, true))
          return false;
      }
      break;
    case ROCK_TRANSFORM_CONST_DIM:
      for (intptr_t j = 0; j < nl; ++j)
        fCst(L, &low[arr(ld, j)], arr(p, 2 * j));
      break;
    default: /* Pad (validity conditions), anything unknown */
      return false;
    }
  }
  return true;
}

/* The forms of the view's coordinates pushed down the chain `ops` (upper
 * first) into the deref; checks the page-view conditions. */
static bool linearInPages(Lin *L, MlirOperation *ops, int n, MlirType deref,
                          RockPageView *pv) {
  intptr_t rank = mlirShapedTypeGetRank(deref);
  int pDim = rank == 3 ? 1 : 0;
  int64_t I = mlirShapedTypeGetDimSize(deref, rank - 1);
  Form *cur = L->lv[0], *nxt = L->lv[1], flat;
  int64_t *fr = malloc((size_t)L->nB * sizeof *fr);
  flat.r = fr;
  for (int k = 0; k < 3; ++k)
    fCst(L, &cur[k], 0);
  for (int64_t b = 0; b < L->nB; ++b)
    cur[0].r[b] = b;
  cur[1].cj = 1;
  cur[2].cd = 1;
  bool ok = true, gotFlat = false;
  for (int m = 0; ok && m < n; ++m) {
    MlirAttribute map = rock__attr(ops[m], "transform");
    ok = !mlirAttributeIsNull(map) &&
         applyMap(L, map, cur, nxt, m == n - 1 ? pDim : -1, I, &flat, &gotFlat);
    Form *t = cur;
    cur = nxt, nxt = t;
  }
  ok = ok && gotFlat && flat.cd == 1 && flat.cj > 0 &&
       (rank != 3 || (cur[0].cj == 0 && cur[0].cd == 0));
  for (int64_t b = 0; ok && b < L->nB; ++b)
    ok = floorMod(flat.r[b], I) == 0 && flat.r[b] >= 0;
  pv->pageElems = I;
  pv->rowStride = flat.cj;
  free(fr);
  return ok;
}

bool rock__gpuPageView(MlirValue view, RockPageView *pv) {
  memset(pv, 0, sizeof *pv);
  MlirType vt = mlirValueGetType(view);
  if (!mlirTypeIsAMemRef(vt) || mlirShapedTypeGetRank(vt) != 3)
    return false;
  MlirOperation up[ROCK_PAGE_MAX_MAPS];
  int n = 0;
  MlirValue v = view;
  while (mlirValueIsAOpResult(v) &&
         rock__isOp(mlirOpResultGetOwner(v), "rock.transform")) {
    if (n == ROCK_PAGE_MAX_MAPS)
      return false;
    up[n++] = mlirOpResultGetOwner(v);
    v = mlirOperationGetOperand(up[n - 1], 0);
  }
  if (n == 0 || !mlirValueIsAOpResult(v) ||
      !rock__isOp(mlirOpResultGetOwner(v), "rock.deref"))
    return false;
  MlirOperation deref = mlirOpResultGetOwner(v);
  MlirType dt = mlirValueGetType(v);
  Lin L = {mlirShapedTypeGetDimSize(vt, 0),
           mlirShapedTypeGetDimSize(vt, 1),
           mlirShapedTypeGetDimSize(vt, 2),
           NULL,
           {{{0}}}};
  L.pool = malloc((size_t)(2 * MAXD * L.nB) * sizeof *L.pool);
  for (int l = 0; l < 2; ++l)
    for (int k = 0; k < MAXD; ++k)
      L.lv[l][k].r = L.pool + (l * MAXD + k) * L.nB;
  bool ok = linearInPages(&L, up, n, dt, pv);
  free(L.pool);
  if (!ok)
    return false;
  pv->table = mlirOperationGetOperand(deref, 0);
  for (int m = 0; m < n; ++m)
    pv->maps[m] = up[n - 1 - m];
  pv->nMaps = n;
  return true;
}

bool rock__gpuPagePlan(const RockPageView *pv, int nThreads, int nch, int vec,
                       int mb, RockPagePlan *pl) {
  memset(pl, 0, sizeof *pl);
  int64_t I = pv->pageElems, cj = pv->rowStride;
  int64_t total = (int64_t)mb * nch;
  if (total % nThreads || (cj * mb) % I || cj % vec || I % vec)
    return false;
  int reps = (int)(total / nThreads);
  int64_t last = -1;
  for (int c = 0; c < reps; ++c) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int tx = 0; tx < nThreads; ++tx) {
      int64_t i = tx + (int64_t)c * nThreads;
      int64_t rel = cj * (i / nch) + (i % nch) * vec;
      lo = rel < lo ? rel : lo;
      hi = rel + vec - 1 > hi ? rel + vec - 1 : hi;
    }
    int64_t q = lo / I;
    if (hi / I != q || q < last)
      return false;
    if (q != last) {
      if (pl->nRuns == ROCK_PAGE_MAX_RUNS)
        return false;
      int64_t key = (q * I + cj - 1) / cj;
      if (key >= mb || (cj * key) / I != q)
        return false;
      pl->first[pl->nRuns] = c;
      pl->key[pl->nRuns++] = key;
      last = q;
    }
    pl->count[pl->nRuns - 1]++;
  }
  return pl->nRuns > 0;
}

/* memref<AxBx...xi64> of the shape of `t`. */
static void i64Type(RockStr *s, MlirType t) {
  rock__strAppend(s, "memref<");
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i)
    rock__strAppendf(s, "%lldx", (long long)mlirShapedTypeGetDimSize(t, i));
  rock__strAppend(s, "i64>");
}

int rock__gpuPagePtrView(RockGen *g, const RockPageView *pv, int table,
                         char *mt, size_t n) {
  MlirType tt = mlirValueGetType(pv->table);
  MlirType dt = mlirValueGetType(mlirOperationGetOperand(pv->maps[0], 0));
  int64_t P = mlirShapedTypeGetDimSize(dt, mlirShapedTypeGetRank(dt) - 2);
  RockStr tys = {0}, dts = {0};
  rock__strAppendType(&tys, tt);
  i64Type(&dts, dt);
  /* The pages' element (.., p, i) -> the pointer of page (.., p). */
  int v = rock__genFresh(g);
  if (mlirShapedTypeGetRank(dt) == 3) {
    int64_t G = mlirShapedTypeGetDimSize(dt, 0);
    rock__genLine(
        g,
        "%%v%d = rock.transform %%v%d by #rock.transform_map<affine_map<(d0, "
        "d1, d2) -> (d0, d1, 0)> by [<PassThrough [\"g\", \"p\"] at [0, 1] "
        "-> [\"g\", \"p\"] at [0, 1]>, <Broadcast{1} [\"i\"] at [2] -> "
        "[\"i\"] at [2]>] bounds = [%lld, %lld, %lld] -> [%lld, %lld, 1]> : "
        "%s to %s",
        v, table, (long long)G, (long long)P, (long long)pv->pageElems,
        (long long)G, (long long)P, tys.data, dts.data);
  } else {
    rock__genLine(
        g,
        "%%v%d = rock.transform %%v%d by #rock.transform_map<affine_map<(d0, "
        "d1) -> (d0)> by [<PassThrough [\"p\"] at [0] -> [\"p\"] at [0]>, "
        "<AddDim{%lld} [\"i\"] at [1] -> [] at []>] bounds = [%lld, %lld] -> "
        "[%lld]> : %s to %s",
        v, table, (long long)pv->pageElems, (long long)P,
        (long long)pv->pageElems, (long long)P, tys.data, dts.data);
  }
  /* The view's own transforms on top, element type i64. */
  for (int m = 0; m < pv->nMaps; ++m) {
    RockStr attr = {0}, up = {0}, low = {0};
    rock__strAppendAttr(&attr, rock__attr(pv->maps[m], "transform"));
    i64Type(&low, mlirValueGetType(mlirOperationGetOperand(pv->maps[m], 0)));
    i64Type(&up, mlirValueGetType(mlirOperationGetResult(pv->maps[m], 0)));
    int u = rock__genFresh(g);
    rock__genLine(g, "%%v%d = rock.transform %%v%d by %s : %s to %s", u, v,
                  attr.data, low.data, up.data);
    if (m == pv->nMaps - 1)
      snprintf(mt, n, "%s", up.data);
    v = u;
    rock__strFree(&attr);
    rock__strFree(&up);
    rock__strFree(&low);
  }
  rock__strFree(&tys);
  rock__strFree(&dts);
  return v;
}

void rock__gpuPagePtrs(RockGen *g, const RockPagePlan *pl, int pview,
                       const char *mt, int gBlk, int j0, int *ptrs) {
  int c0 = rock__genIndex(g, 0);
  for (int q = 0; q < pl->nRuns; ++q) {
    int j = rock__genBin(g, "arith.addi", j0, rock__genIndex(g, pl->key[q]),
                         "index");
    char ib[96];
    rock__idx3(ib, sizeof ib, gBlk, j, c0);
    int p1 = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = rock.view_load %%v%d[%s] {rock.align = 8 : i64} : "
                  "%s -> vector<1xi64>",
                  p1, pview, ib, mt);
    ptrs[q] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.extract %%v%d[0] : i64 from vector<1xi64>",
                  ptrs[q], p1);
  }
}

/* The run pointer of chunk i (an index id) when the runs are uniform
 * (run q holds copies q·count .. q·count + count - 1): selected by
 * q = i / (nThreads·count), with q·pageElems in *qOff. */
static int runPtr(RockGen *g, const RockPageView *pv, const RockPagePlan *pl,
                  const int *ptrs, int i, int nThreads, int *qOff) {
  if (pl->nRuns == 1) {
    *qOff = rock__genIndex(g, 0);
    return ptrs[0];
  }
  int q = rock__genBin(g, "arith.divui", i,
                       rock__genIndex(g, (int64_t)nThreads * pl->count[0]),
                       "index");
  *qOff = rock__genBin(g, "arith.muli", q, rock__genIndex(g, pv->pageElems),
                       "index");
  int p = ptrs[0];
  for (int r = 1; r < pl->nRuns; ++r) {
    int is =
        rock__genBin(g, "arith.cmpi eq,", q, rock__genIndex(g, r), "index");
    p = rock__genSelect(g, is, ptrs[r], p, "i64");
  }
  return p;
}

void rock__gpuPageStage(RockGen *g, const RockPageView *pv,
                        const RockPagePlan *pl, const int *ptrs, int tx,
                        int nThreads, int nch, int vec, MlirType elt, int sm,
                        const char *smt, bool swz) {
  char et[16], ty[32];
  rock__typeStr(et, sizeof et, elt, 1);
  rock__typeStr(ty, sizeof ty, elt, vec);
  int cn = rock__genIndex(g, nch), cv = rock__genIndex(g, vec);
  int cj = rock__genIndex(g, pv->rowStride);
  bool uniform = true;
  for (int q = 0; q < pl->nRuns; ++q)
    uniform = uniform && pl->count[q] == pl->count[0] &&
              pl->first[q] == q * pl->count[0];
  /* One loop over every copy when the runs are uniform (the pointer picked
   * by a select), else one loop per run. */
  int nLoops = uniform ? 1 : pl->nRuns;
  for (int q = 0; q < nLoops; ++q) {
    int first = uniform ? 0 : pl->first[q];
    int count = uniform ? pl->count[0] * pl->nRuns : pl->count[q];
    int lo =
        rock__genBin(g, "arith.addi", tx,
                     rock__genIndex(g, (int64_t)first * nThreads), "index");
    int i = count > 1
                ? rock__genFor(
                      g, lo,
                      rock__genBin(g, "arith.addi", lo,
                                   rock__genIndex(g, (int64_t)count * nThreads),
                                   "index"),
                      rock__genIndex(g, nThreads))
                : lo;
    int qOff, p;
    if (uniform) {
      p = runPtr(g, pv, pl, ptrs, i, nThreads, &qOff);
    } else {
      p = ptrs[q];
      qOff = rock__genIndex(g, (pv->rowStride * pl->key[q]) / pv->pageElems *
                                   pv->pageElems);
    }
    int jr = rock__genBin(g, "arith.divui", i, cn, "index");
    int d = rock__genBin(g, "arith.muli",
                         rock__genBin(g, "arith.remui", i, cn, "index"), cv,
                         "index");
    /* The offset in the run's page: rowStride·jr + d - q·pageElems (q
     * counts pages from the tile's first, which starts a page). */
    int off = rock__genBin(
        g, "arith.subi",
        rock__genBin(g, "arith.addi",
                     rock__genBin(g, "arith.muli", jr, cj, "index"), d,
                     "index"),
        qOff, "index");
    int pp = rock__genFresh(g), o64 = rock__genFresh(g), ep = rock__genFresh(g),
        x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = llvm.inttoptr %%v%d : i64 to !llvm.ptr", pp, p);
    rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", o64, off);
    rock__genLine(g,
                  "%%v%d = llvm.getelementptr %%v%d[%%v%d] : (!llvm.ptr, i64) "
                  "-> !llvm.ptr, %s",
                  ep, pp, o64, et);
    rock__genLine(g,
                  "%%v%d = llvm.load %%v%d {alignment = 16 : i64} : !llvm.ptr "
                  "-> %s",
                  x, ep, ty);
    int col = rock__accelSwizzle(g, swz, jr, d);
    rock__genLine(g,
                  "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16, "
                  "rock.async_copy} : %s, %s",
                  x, sm, jr, col, smt, ty);
    if (count > 1)
      rock__genEnd(g);
  }
}
