/*===- op.c - reading a rock.gridwise_attention ----------------------------===*
 *
 * The op's shapes, types, flags and region (RockAttn), the internal split
 * rule, and the cloning of the pre-softmax region into its slots.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "attention/attention.h"
#include "rock-c/Dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void memrefStr(char *buf, size_t n, MlirValue v) {
  rock__typeToBuf(mlirValueGetType(v), buf, n);
}

static MlirType eltOf(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

static int64_t dim(MlirValue v, intptr_t i) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), i);
}
/*===--- reading the op ---------------------------------------------------===*/

/* The element offset in the base memref of coordinates x[0..n) of view
 * `v`, through its rock.transform chain; false for a paged chain (a
 * rock.deref), a base without a static identity layout or a map that cannot
 * be evaluated. */
static bool baseOffset(MlirValue v, const int64_t *x, intptr_t n,
                       int64_t *off) {
  enum { R = 16 };
  int64_t cur[R], nxt[R];
  if (n > R)
    return false;
  memcpy(cur, x, (size_t)n * sizeof *x);
  for (int depth = 0; depth < 64; ++depth) {
    if (mlirValueIsAOpResult(v)) {
      MlirOperation def = mlirOpResultGetOwner(v);
      MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(def));
      if (nm.length == 14 && !strncmp(nm.data, "rock.transform", 14)) {
        MlirAttribute tm = rock__attr(def, "transform");
        if (mlirAttributeIsNull(tm))
          return false;
        MlirAffineMap m =
            mlirAffineMapAttrGetValue(rockTransformMapAttrGetMap(tm));
        intptr_t nr = mlirAffineMapGetNumResults(m);
        if (nr > R)
          return false;
        for (intptr_t r = 0; r < nr; ++r)
          if (!rock__affineExprEval(mlirAffineMapGetResult(m, r), cur, n,
                                    &nxt[r]))
            return false;
        memcpy(cur, nxt, (size_t)nr * sizeof *nxt);
        n = nr;
        v = mlirOperationGetOperand(def, 0);
        continue;
      }
      if (nm.length == 10 && !strncmp(nm.data, "rock.deref", 10))
        return false;
    }
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
        mlirShapedTypeGetRank(t) != n)
      return false;
    MlirAttribute l = mlirMemRefTypeGetLayout(t);
    if (!mlirAttributeIsNull(l) &&
        !(mlirAttributeIsAAffineMap(l) &&
          mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(l))))
      return false;
    int64_t o = 0;
    for (intptr_t i = 0; i < n; ++i)
      o = o * mlirShapedTypeGetDimSize(t, i) + cur[i];
    *off = o;
    return true;
  }
  return false;
}

/* True when the canonical K view [Bkv, Sk, Dqk] steps by one element along
 * keys and not along d in its (dense) base memref. */
static bool keyMajorView(MlirValue k) {
  if (dim(k, 1) < 2 || dim(k, 2) < 2)
    return false;
  int64_t p[3][3] = {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}}, o[3];
  for (int i = 0; i < 3; ++i)
    if (!baseOffset(k, p[i], 3, &o[i]))
      return false;
  return o[1] - o[0] == 1 && o[2] - o[0] != 1;
}

int rock__attnKeyMajorK(RockGen *g, const RockAttn *a, char *mt, size_t n) {
  char te[32];
  rock__typeStr(te, sizeof te, a->tk, 1);
  snprintf(mt, n, "memref<%lldx%lldx%lldx%s>", (long long)a->Bkv,
           (long long)a->Dqk, (long long)a->Sk, te);
  int v = rock__genFresh(g);
  rock__genLine(
      g,
      "%%v%d = rock.transform %%v%d by #rock.transform_map<affine_map<(d0, "
      "d1, d2) -> (d0, d2, d1)> by [<PassThrough [\"b\", \"d\", \"s\"] "
      "at [0, 1, 2] -> [\"b\", \"d\", \"s\"] at [0, 2, 1]>] bounds = "
      "[%lld, %lld, %lld] -> [%lld, %lld, %lld]> : %s to %s",
      v, a->k, (long long)a->Bkv, (long long)a->Dqk, (long long)a->Sk,
      (long long)a->Bkv, (long long)a->Sk, (long long)a->Dqk, a->mk, mt);
  return v;
}

/* True when view `v` reaches its memory through a rock.deref (a paged
 * view: page table + pages) along its rock.transform chain. */
static bool pagedView(MlirValue v) {
  for (int depth = 0; depth < 64 && mlirValueIsAOpResult(v); ++depth) {
    MlirOperation def = mlirOpResultGetOwner(v);
    MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(def));
    if (nm.length == 10 && !strncmp(nm.data, "rock.deref", 10))
      return true;
    if (nm.length != 14 || strncmp(nm.data, "rock.transform", 14))
      return false;
    v = mlirOperationGetOperand(def, 0);
  }
  return false;
}

bool rock__attnAnalyse(MlirOperation op, MlirExternalPass pass, RockAttn *a) {
  memset(a, 0, sizeof *a);
  a->op = op;
  MlirContext ctx = mlirOperationGetContext(op);
  a->f32 = mlirF32TypeGet(ctx);
  MlirAttribute seg = rock__attr(op, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 8) {
    rock__passFail(pass, op, "missing operandSegmentSizes");
    return false;
  }
  int32_t n[8];
  for (int i = 0; i < 8; ++i)
    n[i] = mlirDenseI32ArrayGetElement(seg, i);
  a->nElem = n[3];
  if (a->nElem > ROCK_ATTN_MAX_ELEM) {
    rock__passFail(pass, op, "at most %d elementwise inputs are supported",
                   ROCK_ATTN_MAX_ELEM);
    return false;
  }
  a->hasCsl = n[4] > 0;
  a->hasPo = n[5] > 0;
  a->hasLse = n[7] > 0;
  intptr_t pos = 0;
  MlirValue vq = mlirOperationGetOperand(op, pos++);
  MlirValue vk = mlirOperationGetOperand(op, pos++);
  MlirValue vv = mlirOperationGetOperand(op, pos++);
  MlirValue ve[ROCK_ATTN_MAX_ELEM];
  for (int e = 0; e < a->nElem; ++e)
    ve[e] = mlirOperationGetOperand(op, pos++);
  MlirValue vc = {0}, vp = {0}, vl = {0};
  if (a->hasCsl)
    vc = mlirOperationGetOperand(op, pos++);
  if (a->hasPo)
    vp = mlirOperationGetOperand(op, pos++);
  MlirValue vo = mlirOperationGetOperand(op, pos++);
  if (a->hasLse)
    vl = mlirOperationGetOperand(op, pos++);

  /* Shapes. */
  MlirValue all[6 + ROCK_ATTN_MAX_ELEM];
  int nAll = 0;
  all[nAll++] = vq;
  all[nAll++] = vk;
  all[nAll++] = vv;
  all[nAll++] = vo;
  if (a->hasCsl)
    all[nAll++] = vc;
  if (a->hasPo)
    all[nAll++] = vp;
  if (a->hasLse)
    all[nAll++] = vl;
  for (int e = 0; e < a->nElem; ++e)
    all[nAll++] = ve[e];
  for (int i = 0; i < nAll; ++i)
    if (!mlirShapedTypeHasStaticShape(mlirValueGetType(all[i]))) {
      rock__passFail(pass, op, "operands must have static shapes");
      return false;
    }
  a->R = rock__intAttr(op, "numRepeatsGQA", 1);
  a->S = rock__intAttr(op, "splitKV", 1);
  a->MB = rock__intAttr(op, "mPerBlock", 0);
  a->NB = rock__intAttr(op, "nPerBlock", 0);
  a->grid = rock__intAttr(op, "gridSize", 0);
  a->causal = rock__flagAttr(op, "causal");
  a->reverse = rock__flagAttr(op, "reverseGrid");
  MlirAttribute feat = rock__attr(op, "features");
  a->dot = !mlirAttributeIsNull(feat) &&
           rockGemmFeaturesAttrGetValue(feat) > 0 &&
           (rockGemmFeaturesAttrGetValue(feat) & ROCK_GEMM_FEATURE_DOT) != 0;
  MlirAttribute es = rock__attr(op, "enableSoftmax");
  a->softmax = mlirAttributeIsNull(es) || !mlirAttributeIsABool(es) ||
               mlirBoolAttrGetValue(es);
  MlirAttribute win = rock__attr(op, "slidingWindowSize");
  a->hasWindow = !mlirAttributeIsNull(win);
  a->window = rock__intAttr(op, "slidingWindowSize", 0);
  a->hasBand = !mlirAttributeIsNull(rock__attr(op, "causalLookBack"));
  a->band = rock__intAttr(op, "causalLookBack", 0);
  a->hasLow = a->hasWindow || a->hasBand;
  /* The shape, tiling and grid rules are the op verifier's, in one place;
   * the pass manager has run it, and running it again covers IR parsed
   * without verification. */
  if (mlirLogicalResultIsFailure(rockGridwiseAttentionOpVerify(op))) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  a->Bkv = dim(vk, 0);
  a->Dqk = dim(vq, 2);
  a->Dv = dim(vv, 2);
  a->Sk = dim(vk, 1);
  a->Sq = dim(vq, 1);
  a->nNBlk = (a->Sq * a->R + a->NB - 1) / a->NB;
  a->tq = eltOf(vq);
  a->tk = eltOf(vk);
  a->kKeyMajor = keyMajorView(vk);
  a->kvPaged = pagedView(vk) || pagedView(vv);
  a->tv = eltOf(vv);
  a->to = eltOf(vo);
  if (a->hasLse)
    a->tl = eltOf(vl);
  for (int e = 0; e < a->nElem; ++e)
    a->te[e] = eltOf(ve[e]);
  a->acc = rock__isFloat(a->tq) ? a->f32 : mlirIntegerTypeGet(ctx, 32);
  MlirAttribute smA = rock__attr(op, "softmaxType");
  a->sm = !mlirAttributeIsNull(smA) && mlirAttributeIsAType(smA)
              ? mlirTypeAttrGetValue(smA)
              : a->f32;
  a->dynamic = a->causal || a->hasCsl || a->hasWindow;

  /* Region: empty when it has no block or only the terminator; rock's
   * scalar form or rocMLIR's linalg form (support/region_form.h). */
  MlirRegion reg = mlirOperationGetRegion(op, 0);
  MlirBlock blk = mlirRegionGetFirstBlock(reg);
  if (!mlirBlockIsNull(blk) &&
      !mlirOperationEqual(mlirBlockGetFirstOperation(blk),
                          rock__blockLastOp(blk))) {
    char err[512];
    if (!rock__regionForm(blk, a->nElem, &a->rform, err, sizeof err)) {
      rock__passFail(pass, op, "%s", err);
      return false;
    }
    a->rblock = a->rform.body;
    for (intptr_t i = 0; i <= a->nElem; ++i)
      a->rArgs[i] = a->rform.argType[i];
    a->rArg0 = a->rArgs[0];
    a->rYield = a->rform.yieldType;
  }

  /* Argument ids and types, in operand order. */
  int id = 0;
  a->q = id++;
  memrefStr(a->mq, sizeof a->mq, vq);
  a->k = id++;
  memrefStr(a->mk, sizeof a->mk, vk);
  a->v = id++;
  memrefStr(a->mv, sizeof a->mv, vv);
  for (int e = 0; e < a->nElem; ++e) {
    a->e[e] = id++;
    memrefStr(a->me[e], sizeof a->me[e], ve[e]);
  }
  if (a->hasCsl) {
    a->csl = id++;
    memrefStr(a->mc, sizeof a->mc, vc);
    if (!mlirTypeIsAInteger(eltOf(vc)) ||
        mlirIntegerTypeGetWidth(eltOf(vc)) != 32) {
      rock__passFail(pass, op, "currentSeqLen must be i32");
      return false;
    }
  }
  if (a->hasPo) {
    a->po = id++;
    memrefStr(a->mp, sizeof a->mp, vp);
    if (!mlirTypeIsAInteger(eltOf(vp)) ||
        mlirIntegerTypeGetWidth(eltOf(vp)) != 32) {
      rock__passFail(pass, op, "prefixOffset must be i32");
      return false;
    }
  }
  a->out = id++;
  memrefStr(a->mo, sizeof a->mo, vo);
  if (a->hasLse) {
    a->lse = id++;
    memrefStr(a->ml, sizeof a->ml, vl);
  }
  return true;
}
/*===--- cloning the region into the slot ---------------------------------===*/

typedef struct Remap {
  MlirValue *from, *to;
  intptr_t n, cap;
} Remap;

static void remapAdd(Remap *m, MlirValue from, MlirValue to) {
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 16;
    m->from = realloc(m->from, (size_t)m->cap * sizeof(MlirValue));
    m->to = realloc(m->to, (size_t)m->cap * sizeof(MlirValue));
    if (!m->from || !m->to)
      abort();
  }
  m->from[m->n] = from;
  m->to[m->n++] = to;
}

static MlirValue remapGet(const Remap *m, MlirValue v) {
  for (intptr_t k = 0; k < m->n; ++k)
    if (mlirValueEqual(v, m->from[k]))
      return m->to[k];
  return v;
}

static MlirWalkResult remapCb(MlirOperation op, void *ud) {
  const Remap *m = ud;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirValue w = remapGet(m, v);
    if (!mlirValueEqual(v, w))
      mlirOperationSetOperand(op, i, w);
  }
  return MlirWalkResultAdvance;
}

/* The clone `c` (in `blk`) of an elementwise op, made to work on vector<w>:
 * scalar operands broadcast in front of it, results of vector type. */
static void vectorizeClone(MlirBlock blk, MlirOperation c, int64_t w) {
  MlirLocation loc = mlirOperationGetLocation(c);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(c); ++i) {
    MlirValue v = mlirOperationGetOperand(c, i);
    MlirType t = mlirValueGetType(v);
    if (mlirTypeIsAVector(t))
      continue;
    MlirType vt = mlirVectorTypeGet(1, &w, t);
    MlirOperationState bs = mlirOperationStateGet(
        mlirStringRefCreateFromCString("vector.broadcast"), loc);
    mlirOperationStateAddOperands(&bs, 1, &v);
    mlirOperationStateAddResults(&bs, 1, &vt);
    MlirOperation b = mlirOperationCreate(&bs);
    mlirBlockInsertOwnedOperationBefore(blk, c, b);
    mlirOperationSetOperand(c, i, mlirOperationGetResult(b, 0));
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(c); ++i) {
    MlirValue r = mlirOperationGetResult(c, i);
    MlirType t = mlirValueGetType(r);
    mlirValueSetType(r, mlirVectorTypeGet(1, &w, t));
  }
}

/* Replaces one placeholder by clones of the ops of `f`'s body: body
 * argument i stands for slot operand f->slot[i]. */
static void fillSlot(MlirOperation slot, const RockRegionForm *f) {
  Remap m = {0};
  for (intptr_t i = 0; i < f->nArgs; ++i)
    remapAdd(&m, mlirBlockGetArgument(f->body, i),
             mlirOperationGetOperand(slot, f->slot[i]));
  MlirBlock dst = mlirOperationGetBlock(slot);
  MlirType st = mlirValueGetType(mlirOperationGetResult(slot, 0));
  int64_t w = mlirTypeIsAVector(st) ? mlirShapedTypeGetDimSize(st, 0) : 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(f->body);
       !mlirOperationEqual(o, f->yield); o = mlirOperationGetNextInBlock(o)) {
    MlirOperation c = mlirOperationClone(o);
    mlirOperationWalk(c, remapCb, &m, MlirWalkPreOrder);
    mlirBlockInsertOwnedOperationBefore(dst, slot, c);
    if (w > 0 && mlirOperationGetNumOperands(c) > 0)
      vectorizeClone(dst, c, w);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(o); ++i)
      remapAdd(&m, mlirOperationGetResult(o, i), mlirOperationGetResult(c, i));
  }
  MlirValue y = remapGet(&m, mlirOperationGetOperand(f->yield, 0));
  if (w > 0 && !mlirTypeIsAVector(mlirValueGetType(y))) {
    /* A yielded constant (or outside value): broadcast. */
    MlirOperationState bs = mlirOperationStateGet(
        mlirStringRefCreateFromCString("vector.broadcast"),
        mlirOperationGetLocation(slot));
    mlirOperationStateAddOperands(&bs, 1, &y);
    mlirOperationStateAddResults(&bs, 1, &st);
    MlirOperation b = mlirOperationCreate(&bs);
    mlirBlockInsertOwnedOperationBefore(dst, slot, b);
    y = mlirOperationGetResult(b, 0);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(slot, 0), y);
  mlirOperationDestroy(slot);
  free(m.from);
  free(m.to);
}

bool rock__attnFillSlots(MlirOperation root, const RockRegionForm *f) {
  intptr_t nCasts = 0;
  MlirOperation *casts =
      rock__collectOps(root, "builtin.unrealized_conversion_cast", &nCasts);
  intptr_t filled = 0;
  for (intptr_t i = 0; i < nCasts; ++i)
    if (!mlirAttributeIsNull(rock__attr(casts[i], "rock.region_slot"))) {
      fillSlot(casts[i], f);
      ++filled;
    }
  free(casts);
  return filled > 0;
}

int64_t rock__attnMachineAttr(MlirOperation op, const char *name,
                              int64_t dflt) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    int64_t t = rock__intAttr(op, name, 0);
    if (t > 0)
      return t;
  }
  return dflt;
}

/* Most bytes of f32 partials a forced internal split may allocate. */
#define SPLIT_SCRATCH_MAX ((int64_t)1 << 30)

/* Whether `a` may be split internally at all. */
static bool splittable(const RockAttn *a) {
  return a->S == 1 && a->softmax && rock__isFloat(a->to) &&
         (!a->hasLse || mlirTypeIsAF32(a->tl));
}

int64_t rock__attnForcedSplit(const RockAttn *a) {
  int64_t forced = rock__attnMachineAttr(a->op, "rock.internal_split", 0);
  if (forced <= 0)
    return 0;
  if (!splittable(a))
    return 1;
  int64_t nMB = (a->Sk + a->MB - 1) / a->MB;
  int64_t perSplit = a->Bkv * a->R * a->Sq * (a->Dv + 1) * 4;
  int64_t byMem = perSplit > 0 ? SPLIT_SCRATCH_MAX / perSplit : 1;
  int64_t P = forced < nMB ? forced : nMB;
  P = P < byMem ? P : byMem;
  return P >= 1 ? P : 1;
}

int64_t rock__attnInternalSplit(const RockAttn *a, int64_t T,
                                int64_t minTiles) {
  int64_t forced = rock__attnForcedSplit(a);
  if (forced > 0)
    return forced;
  if (!splittable(a) || a->grid >= T)
    return 1;
  int64_t P = 1, nMB = (a->Sk + a->MB - 1) / a->MB;
  while (P <= T / 2 && a->grid <= (T - 1) / P) /* grid * P < T */
    P *= 2;
  while (P >= 2 && nMB / P < minTiles)
    P /= 2;
  return P >= 2 ? P : 1;
}
