/*===- fold_transforms.c - rock-fold-transforms ----------------------------===
 *
 * Erases identity rock.transform ops and folds a rock.transform whose input
 * is another, single-use rock.transform into one op, when the two
 * #rock.transform_map layers compose into one layer. Two C rewrite patterns
 * (on rock.transform) under the greedy driver, folding and region
 * simplification off.
 *
 * A layer is a set of transforms over disjoint dims, so two layers compose
 * transform by transform:
 *  - a transform fed only by PassThroughs (upper side) is kept, its upper
 *    dims renamed; a transform feeding only PassThroughs (lower side) is kept,
 *    its lower dims renamed (this covers "either layer is a permutation");
 *  - Unmerge{s} above Merge{s} on the same dim, and Merge{s} above Unmerge{s}
 *    on the same dims in the same order, cancel into a PassThrough;
 *  - anything else (Pad above Unmerge, Merge above Embed, ...) has no
 *    one-layer form in general (the composed index is not one transform of
 *    the kinds in docs/semantics.md §7), so the chain is left alone.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "mlir-c/Rewrite.h"
#include "rock-c/Dialect.h"
#include "rock-c/Ops.h"
#include "rock-c/Passes.h"
#include "rock-c/TransformMap.h"

#include <stdlib.h>
#include <string.h>

/* Limits of what this pass folds; larger maps are left alone. */
enum { MAX_DIMS = 16, MAX_PARAMS = 2 * MAX_DIMS, MAX_OPS = 2 * MAX_DIMS };

/* One #rock.transform, unpacked. Names are borrowed StringAttr handles. */
typedef struct Tr {
  RockTransformKind kind;
  intptr_t np, nu, nl;
  int64_t p[MAX_PARAMS];
  int64_t ud[MAX_DIMS], ld[MAX_DIMS];
  MlirAttribute un[MAX_DIMS], ln[MAX_DIMS];
} Tr;

/* One #rock.transform_map, unpacked; PassThroughs split into 1-dim ones. */
typedef struct Map {
  intptr_t nOps, nUp, nLow;
  Tr ops[MAX_OPS];
  int64_t up[MAX_DIMS], low[MAX_DIMS];
} Map;

static bool loadInts(MlirAttribute a, intptr_t max, intptr_t *n, int64_t *v) {
  if (!mlirAttributeIsADenseI64Array(a))
    return false;
  *n = mlirDenseArrayGetNumElements(a);
  if (*n > max)
    return false;
  for (intptr_t i = 0; i < *n; ++i)
    v[i] = mlirDenseI64ArrayGetElement(a, i);
  return true;
}

static bool loadNames(MlirAttribute a, intptr_t n, MlirAttribute *v) {
  if (!mlirAttributeIsAArray(a) || mlirArrayAttrGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    v[i] = mlirArrayAttrGetElement(a, i);
  return true;
}

static bool loadTr(MlirAttribute t, Tr *r) {
  if (!rockAttributeIsATransform(t))
    return false;
  r->kind = rockTransformAttrGetKind(t);
  return loadInts(rockTransformAttrGetParams(t), MAX_PARAMS, &r->np, r->p) &&
         loadInts(rockTransformAttrGetUpperDims(t), MAX_DIMS, &r->nu, r->ud) &&
         loadInts(rockTransformAttrGetLowerDims(t), MAX_DIMS, &r->nl, r->ld) &&
         loadNames(rockTransformAttrGetUpperNames(t), r->nu, r->un) &&
         loadNames(rockTransformAttrGetLowerNames(t), r->nl, r->ln);
}

static bool pushOp(Map *m, const Tr *t) {
  if (m->nOps >= MAX_OPS)
    return false;
  m->ops[m->nOps++] = *t;
  return true;
}

/* Unpacks `attr`; false when it is malformed or too large. */
static bool loadMap(MlirAttribute attr, Map *m) {
  memset(m, 0, sizeof *m);
  if (!rockAttributeIsATransformMap(attr) ||
      !loadInts(rockTransformMapAttrGetUpperBounds(attr), MAX_DIMS, &m->nUp,
                m->up) ||
      !loadInts(rockTransformMapAttrGetLowerBounds(attr), MAX_DIMS, &m->nLow,
                m->low))
    return false;
  MlirAttribute ops = rockTransformMapAttrGetOps(attr);
  if (!mlirAttributeIsAArray(ops))
    return false;
  for (intptr_t i = 0, n = mlirArrayAttrGetNumElements(ops); i < n; ++i) {
    Tr t;
    if (!loadTr(mlirArrayAttrGetElement(ops, i), &t))
      return false;
    if (t.kind != ROCK_TRANSFORM_PASS_THROUGH) {
      if (!pushOp(m, &t))
        return false;
      continue;
    }
    if (t.nu != t.nl)
      return false;
    for (intptr_t k = 0; k < t.nu; ++k) {
      Tr one = {.kind = ROCK_TRANSFORM_PASS_THROUGH, .nu = 1, .nl = 1};
      one.ud[0] = t.ud[k];
      one.ld[0] = t.ld[k];
      one.un[0] = t.un[k];
      one.ln[0] = t.ln[k];
      if (!pushOp(m, &one))
        return false;
    }
  }
  /* Layers compose transform by transform only over disjoint dims; an upper
   * dim read by several transforms (as rocMLIR's Embed views do) is left
   * alone. */
  int reads[MAX_DIMS] = {0};
  for (intptr_t i = 0; i < m->nOps; ++i)
    for (intptr_t k = 0; k < m->ops[i].nu; ++k) {
      int64_t d = m->ops[i].ud[k];
      if (d < 0 || d >= m->nUp || ++reads[d] > 1)
        return false;
    }
  return true;
}

/* True when `m` maps every dim to itself with equal bounds. */
static bool isIdentity(const Map *m) {
  if (m->nUp != m->nLow)
    return false;
  for (intptr_t i = 0; i < m->nUp; ++i)
    if (m->up[i] != m->low[i])
      return false;
  intptr_t covered = 0;
  for (intptr_t i = 0; i < m->nOps; ++i) {
    const Tr *t = &m->ops[i];
    if (t->kind != ROCK_TRANSFORM_PASS_THROUGH || t->ud[0] != t->ld[0])
      return false;
    ++covered;
  }
  return covered == m->nUp;
}

static bool sameParams(const Tr *a, const Tr *b) {
  if (a->np != b->np)
    return false;
  for (intptr_t i = 0; i < a->np; ++i)
    if (a->p[i] != b->p[i])
      return false;
  return true;
}

/* Records, for each dim of a side of `m`, the index of the op that uses it.
 * False unless every dim in [0, n) is used exactly once. */
static bool owners(const Map *m, bool upper, intptr_t n, intptr_t *owner) {
  for (intptr_t d = 0; d < n; ++d)
    owner[d] = -1;
  for (intptr_t i = 0; i < m->nOps; ++i) {
    const Tr *t = &m->ops[i];
    intptr_t nd = upper ? t->nu : t->nl;
    const int64_t *dims = upper ? t->ud : t->ld;
    for (intptr_t k = 0; k < nd; ++k) {
      if (dims[k] < 0 || dims[k] >= n || owner[dims[k]] >= 0)
        return false;
      owner[dims[k]] = i;
    }
  }
  for (intptr_t d = 0; d < n; ++d)
    if (owner[d] < 0)
      return false;
  return true;
}

/* Appends t's PassThrough to the last op of `out` when that is a
 * PassThrough too (re-grouping the 1-dim PassThroughs), else pushes it. */
static bool emit(Map *out, const Tr *t) {
  Tr *last = out->nOps ? &out->ops[out->nOps - 1] : NULL;
  if (t->kind != ROCK_TRANSFORM_PASS_THROUGH || !last ||
      last->kind != ROCK_TRANSFORM_PASS_THROUGH || last->nu + t->nu > MAX_DIMS)
    return pushOp(out, t);
  for (intptr_t k = 0; k < t->nu; ++k) {
    last->ud[last->nu] = t->ud[k];
    last->un[last->nu++] = t->un[k];
    last->ld[last->nl] = t->ld[k];
    last->ln[last->nl++] = t->ln[k];
  }
  return true;
}

/* Composes `hi` (the outer op's map, upper side) over `lo` (its input's map)
 * into one layer `out`. False when there is no one-layer form (see the file
 * comment) or the maps disagree on the middle shape. */
static bool compose(const Map *hi, const Map *lo, Map *out) {
  intptr_t nMid = hi->nLow;
  intptr_t ownHi[MAX_DIMS], ownLo[MAX_DIMS];
  bool used[MAX_OPS] = {false};
  if (lo->nUp != nMid)
    return false;
  for (intptr_t d = 0; d < nMid; ++d)
    if (hi->low[d] != lo->up[d])
      return false;
  if (!owners(hi, false, nMid, ownHi) || !owners(lo, true, nMid, ownLo))
    return false;
  memset(out, 0, sizeof *out);
  out->nUp = hi->nUp;
  memcpy(out->up, hi->up, sizeof(int64_t) * (size_t)hi->nUp);
  out->nLow = lo->nLow;
  memcpy(out->low, lo->low, sizeof(int64_t) * (size_t)lo->nLow);

  /* Lower-side transforms: renamed from above, or cancelling their feeder. */
  for (intptr_t i = 0; i < lo->nOps; ++i) {
    const Tr *t = &lo->ops[i];
    bool fedByPassThrough = true;
    for (intptr_t k = 0; k < t->nu; ++k)
      fedByPassThrough &=
          hi->ops[ownHi[t->ud[k]]].kind == ROCK_TRANSFORM_PASS_THROUGH;
    if (fedByPassThrough) {
      Tr r = *t;
      for (intptr_t k = 0; k < t->nu; ++k) {
        intptr_t h = ownHi[t->ud[k]];
        used[h] = true;
        r.ud[k] = hi->ops[h].ud[0];
        r.un[k] = hi->ops[h].un[0];
      }
      if (!emit(out, &r))
        return false;
      continue;
    }
    if (t->kind == ROCK_TRANSFORM_PASS_THROUGH)
      continue; /* renamed by its feeder below */
    const Tr *f = &hi->ops[ownHi[t->ud[0]]];
    Tr pt = {.kind = ROCK_TRANSFORM_PASS_THROUGH};
    if (t->kind == ROCK_TRANSFORM_MERGE && f->kind == ROCK_TRANSFORM_UNMERGE &&
        sameParams(t, f) && t->nu == 1 && f->nl == 1 && f->nu == t->nl) {
      /* Unmerge{s} above Merge{s}: u_k -> l_k. */
      pt.nu = pt.nl = f->nu;
      memcpy(pt.ud, f->ud, sizeof pt.ud);
      memcpy(pt.un, f->un, sizeof pt.un);
      memcpy(pt.ld, t->ld, sizeof pt.ld);
      memcpy(pt.ln, t->ln, sizeof pt.ln);
    } else if (t->kind == ROCK_TRANSFORM_UNMERGE &&
               f->kind == ROCK_TRANSFORM_MERGE && sameParams(t, f) &&
               f->nl == t->nu && f->nu == 1 && t->nl == 1 &&
               memcmp(f->ld, t->ud, sizeof(int64_t) * (size_t)t->nu) == 0) {
      /* Merge{s} above Unmerge{s} over the same dims in order: u -> l. */
      pt.nu = pt.nl = 1;
      pt.ud[0] = f->ud[0];
      pt.un[0] = f->un[0];
      pt.ld[0] = t->ld[0];
      pt.ln[0] = t->ln[0];
    } else {
      return false;
    }
    used[ownHi[t->ud[0]]] = true;
    if (!emit(out, &pt))
      return false;
  }

  /* Upper-side transforms not consumed above: renamed below, or AddDim. */
  for (intptr_t i = 0; i < hi->nOps; ++i) {
    if (used[i])
      continue;
    const Tr *t = &hi->ops[i];
    if (t->kind == ROCK_TRANSFORM_PASS_THROUGH)
      return false; /* feeds a transform that could not be composed */
    Tr r = *t;
    for (intptr_t k = 0; k < t->nl; ++k) {
      const Tr *g = &lo->ops[ownLo[t->ld[k]]];
      if (g->kind != ROCK_TRANSFORM_PASS_THROUGH)
        return false;
      r.ld[k] = g->ld[0];
      r.ln[k] = g->ln[0];
    }
    if (!emit(out, &r))
      return false;
  }
  return true;
}

/* Builds the #rock.transform_map for `m`; its affine map is derived. */
static MlirAttribute buildMap(MlirContext ctx, const Map *m) {
  MlirAttribute ops[MAX_OPS];
  for (intptr_t i = 0; i < m->nOps; ++i) {
    const Tr *t = &m->ops[i];
    ops[i] = rockTransformAttrGet(ctx, t->kind,
                                  mlirDenseI64ArrayGet(ctx, t->np, t->p),
                                  mlirArrayAttrGet(ctx, t->nu, t->un),
                                  mlirDenseI64ArrayGet(ctx, t->nu, t->ud),
                                  mlirArrayAttrGet(ctx, t->nl, t->ln),
                                  mlirDenseI64ArrayGet(ctx, t->nl, t->ld));
  }
  return rockTransformMapAttrCreate(ctx, m->nOps, ops, m->nUp, m->up, m->nLow,
                                    m->low);
}

static bool hasOneUse(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(use) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(use));
}

/* The pattern on rock.transform: identity erasure, then chain folding. */
static MlirLogicalResult matchAndRewrite(MlirRewritePattern pattern,
                                         MlirOperation op,
                                         MlirPatternRewriter rewriter,
                                         void *userData) {
  (void)pattern;
  (void)userData;
  MlirRewriterBase rw = mlirPatternRewriterAsBase(rewriter);
  MlirValue input = mlirOperationGetOperand(op, 0);
  MlirValue result = mlirOperationGetResult(op, 0);
  /* Maps are ~26 KiB each: keep them off the (thread) stack. */
  Map *maps = malloc(3 * sizeof(Map));
  MlirLogicalResult res = mlirLogicalResultFailure();
  if (!maps || !loadMap(rock__attr(op, "transform"), &maps[0]))
    goto done;

  if (isIdentity(&maps[0]) &&
      mlirTypeEqual(mlirValueGetType(input), mlirValueGetType(result))) {
    mlirRewriterBaseReplaceOpWithValues(rw, op, 1, &input);
    res = mlirLogicalResultSuccess();
    goto done;
  }

  if (!mlirValueIsAOpResult(input))
    goto done;
  MlirOperation prev = mlirOpResultGetOwner(input);
  if (!rock__isOp(prev, "rock.transform") || !hasOneUse(input) ||
      !loadMap(rock__attr(prev, "transform"), &maps[1]) ||
      !compose(&maps[0], &maps[1], &maps[2]))
    goto done;
  MlirAttribute map = buildMap(mlirOperationGetContext(op), &maps[2]);
  MlirOperation folded = rockTransformOpCreate(mlirOperationGetLocation(op),
                                               mlirOperationGetOperand(prev, 0),
                                               map, mlirValueGetType(result));
  if (mlirOperationIsNull(folded))
    goto done;
  mlirRewriterBaseSetInsertionPointBefore(rw, op);
  mlirRewriterBaseInsert(rw, folded); /* the block owns `folded` now */
  mlirRewriterBaseReplaceOpWithOperation(rw, op, folded);
  mlirRewriterBaseEraseOp(rw, prev);
  res = mlirLogicalResultSuccess();
done:
  free(maps);
  return res;
}

static void run(MlirOperation op, MlirExternalPass pass) {
  (void)pass;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirRewritePatternCallbacks cb = {NULL, NULL, matchAndRewrite};
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(ctx);
  mlirRewritePatternSetAdd(
      set, mlirOpRewritePatternCreate(
               mlirStringRefCreateFromCString("rock.transform"), 1, ctx, cb,
               NULL, 0, NULL)); /* the set owns the pattern */
  MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(set);
  /* `frozen` took the patterns, but MLIR 22 leaves the moved-from set object
   * allocated (its handle is only cleared in the callee's copy): free it. */
  mlirRewritePatternSetDestroy(set);
  MlirGreedyRewriteDriverConfig config = mlirGreedyRewriteDriverConfigCreate();
  mlirGreedyRewriteDriverConfigEnableFolding(config, false);
  mlirGreedyRewriteDriverConfigEnableConstantCSE(config, false);
  mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(
      config, MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED);
  /* Not converging within the iteration limit leaves valid IR: no failure. */
  (void)mlirApplyPatternsAndFoldGreedilyWithOp(op, frozen, config);
  mlirGreedyRewriteDriverConfigDestroy(config);
  mlirFrozenRewritePatternSetDestroy(frozen);
}

static const RockPassDef def = {
    "RockFoldTransforms", "rock-fold-transforms",
    "erase identity rock.transform ops and fold single-use chains whose maps "
    "compose into one layer",
    "", run};

MlirPass rockFoldTransformsPassCreate(void) { return rock__passCreate(&def); }
void rockFoldTransformsPassRegister(void) { rock__passRegister(&def); }
