/*===- verify_transform.c - rock.transform verifier (semantics.md §7) -----===*
 *
 * The map's bounds equal the result (upper) and input (lower) shapes; each
 * transform's name/dim/param counts fit its kind; params and bounds agree;
 * every lower dim is written by exactly one transform and every upper dim is
 * read by at least one (several may read it, as rocMLIR's Embed views over a
 * passed-through dim do); the stored affine map equals the one derived from
 * the transforms.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockAttrsC.h"
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define LL(x) ((long long)(x))

typedef struct Tr {
  MlirOperation op;
  intptr_t idx;     /* position in the map's list */
  const char *kind; /* kind name */
  MlirAttribute params, ud, ld;
  intptr_t np, nu, nl;
  const int64_t *ub, *lb; /* the map's upper / lower bounds */
} Tr;

static int64_t prm(const Tr *t, intptr_t i) {
  return mlirDenseI64ArrayGetElement(t->params, i);
}
static int64_t udim(const Tr *t, intptr_t i) {
  return mlirDenseI64ArrayGetElement(t->ud, i);
}
static int64_t ldim(const Tr *t, intptr_t i) {
  return mlirDenseI64ArrayGetElement(t->ld, i);
}
/* Bounds of the k-th upper / lower dim of the transform (dims in range). */
static int64_t ubound(const Tr *t, intptr_t k) { return t->ub[udim(t, k)]; }
static int64_t lbound(const Tr *t, intptr_t k) { return t->lb[ldim(t, k)]; }

#define FAIL(t, fmt, ...)                                                      \
  rock__verifyFail((t)->op, "transform %ld (%s): " fmt, (long)(t)->idx,        \
                   (t)->kind, __VA_ARGS__)

/* Expected counts: upper dims (-1: any), lower dims (-1: any), params; each
 * broken count names upstream's rule in its words. */
static MlirLogicalResult checkCounts(const Tr *t, RockTransformKind k) {
  intptr_t wantNu = -1, wantNl = -1, wantNp = 0;
  const char *whyU = "", *whyL = "", *whyP = "";
  switch (k) {
  case ROCK_TRANSFORM_PASS_THROUGH:
    wantNl = t->nu, wantNp = 0;
    whyL = "PassThrough must have the same number of inputs and outputs";
    whyP = "PassThrough has no parameters";
    break;
  case ROCK_TRANSFORM_PAD:
  case ROCK_TRANSFORM_SLICE:
    wantNl = t->nu, wantNp = 2 * t->nu;
    whyL = "one output per input";
    whyP = "two parameters per dimension";
    break;
  case ROCK_TRANSFORM_EMBED:
  case ROCK_TRANSFORM_UNMERGE:
    wantNl = 1, wantNp = t->nu;
    whyL = "Embed and unmerge can only have one output argument";
    whyP = "Embed and unmerge must specify one coefficient per input "
           "dimension";
    break;
  case ROCK_TRANSFORM_MERGE:
    wantNu = 1, wantNp = t->nl;
    whyU = "Merge and unfold can only have one input dimension";
    whyP = "Merge and unfold have one parameter per output dimension (its "
           "size)";
    break;
  case ROCK_TRANSFORM_ADD_DIM:
    wantNu = 1, wantNl = 0, wantNp = 1;
    whyU = "Can only add one dimension at a time";
    whyL = "The added dimension cannot be mapped anywhere";
    whyP = "Must supply a size parameter for each dimension";
    break;
  case ROCK_TRANSFORM_BROADCAST:
    wantNl = t->nu, wantNp = t->nu;
    whyL = "Broadcast must have same rank";
    whyP = "Broadcast must specify the output length for each dimension";
    break;
  case ROCK_TRANSFORM_CONST_DIM:
    wantNu = 0, wantNp = 2 * t->nl;
    whyU = "ConstDim must not take any inputs";
    whyP = "ConstDim is parameterized by [value, length] pairs";
    break;
  default:
    return FAIL(t, "unknown transform kind %d", (int)k);
  }
  if (k != ROCK_TRANSFORM_CONST_DIM && t->nu == 0)
    return FAIL(t, "%s", "The transformation must have at least one input");
  if (k != ROCK_TRANSFORM_ADD_DIM && t->nl == 0)
    return FAIL(t, "%s", "The transformation must define outputs");
  if (wantNu >= 0 && t->nu != wantNu)
    return FAIL(t, "has %ld upper dims but must have %ld (%s)", (long)t->nu,
                (long)wantNu, whyU);
  if (wantNl >= 0 && t->nl != wantNl)
    return FAIL(t, "has %ld lower dims but must have %ld (%s)", (long)t->nl,
                (long)wantNl, whyL);
  if (t->np != wantNp)
    return FAIL(t, "has %ld params but must have %ld (%s)", (long)t->np,
                (long)wantNp, whyP);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkPadSlice(const Tr *t, bool pad) {
  for (intptr_t k = 0; k < t->nu; ++k) {
    int64_t a = prm(t, 2 * k), b = prm(t, 2 * k + 1);
    if (a < 0 || b < 0)
      return FAIL(t, "params {%lld, %lld} of dim %ld must be non-negative",
                  LL(a), LL(b), (long)k);
    int64_t u = ubound(t, k), l = lbound(t, k);
    if (pad) {
      if (u != l + a + b)
        return FAIL(t,
                    "upper bound (%lld) must equal lower bound (%lld) + left "
                    "(%lld) + right (%lld)",
                    LL(u), LL(l), LL(a), LL(b));
      continue;
    }
    if (b <= a)
      return FAIL(t, "slice end (%lld) must be greater than begin (%lld)",
                  LL(b), LL(a));
    if (b > l)
      return FAIL(t, "slice end (%lld) must not exceed the lower bound (%lld)",
                  LL(b), LL(l));
    if (u != b - a)
      return FAIL(t,
                  "upper bound (%lld) must equal slice end (%lld) - begin "
                  "(%lld)",
                  LL(u), LL(b), LL(a));
  }
  return mlirLogicalResultSuccess();
}

/* Merge (split = false: 1 upper -> n lower) / Unmerge (n upper -> 1 lower). */
static MlirLogicalResult checkMergeLike(const Tr *t, bool merge) {
  int64_t prod = 1;
  for (intptr_t k = 0; k < t->np; ++k) {
    int64_t s = prm(t, k);
    if (s <= 0)
      return FAIL(t, "param %ld (%lld) must be positive", (long)k, LL(s));
    int64_t b = merge ? lbound(t, k) : ubound(t, k);
    if (b != s)
      return FAIL(t, "%s bound of dim %ld (%lld) must equal param %ld (%lld)",
                  merge ? "lower" : "upper", (long)k, LL(b), (long)k, LL(s));
    prod = prod > INT64_MAX / s ? INT64_MAX : prod * s;
  }
  int64_t b = merge ? ubound(t, 0) : lbound(t, 0);
  if (prod != b)
    return FAIL(t, "product of params (%lld) must equal the %s bound (%lld)",
                LL(prod), merge ? "upper" : "lower", LL(b));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkParams(const Tr *t, RockTransformKind k) {
  switch (k) {
  case ROCK_TRANSFORM_PASS_THROUGH:
    for (intptr_t i = 0; i < t->nu; ++i)
      if (ubound(t, i) != lbound(t, i))
        return FAIL(t, "upper bound (%lld) must equal lower bound (%lld)",
                    LL(ubound(t, i)), LL(lbound(t, i)));
    return mlirLogicalResultSuccess();
  case ROCK_TRANSFORM_PAD:
    return checkPadSlice(t, true);
  case ROCK_TRANSFORM_SLICE:
    return checkPadSlice(t, false);
  case ROCK_TRANSFORM_MERGE:
    return checkMergeLike(t, true);
  case ROCK_TRANSFORM_UNMERGE:
    return checkMergeLike(t, false);
  case ROCK_TRANSFORM_ADD_DIM:
    if (prm(t, 0) != ubound(t, 0))
      return FAIL(t, "size param (%lld) must equal the upper bound (%lld)",
                  LL(prm(t, 0)), LL(ubound(t, 0)));
    return mlirLogicalResultSuccess();
  case ROCK_TRANSFORM_BROADCAST:
    for (intptr_t i = 0; i < t->nu; ++i) {
      if (prm(t, i) <= 0)
        return FAIL(t, "param %ld (%lld) must be positive", (long)i,
                    LL(prm(t, i)));
      if (prm(t, i) != lbound(t, i))
        return FAIL(t, "param %ld (%lld) must equal the lower bound (%lld)",
                    (long)i, LL(prm(t, i)), LL(lbound(t, i)));
    }
    return mlirLogicalResultSuccess();
  case ROCK_TRANSFORM_CONST_DIM:
    for (intptr_t i = 0; i < t->nl; ++i) {
      int64_t v = prm(t, 2 * i), len = prm(t, 2 * i + 1);
      if (len != lbound(t, i))
        return FAIL(t, "length (%lld) must equal the lower bound (%lld)",
                    LL(len), LL(lbound(t, i)));
      if (v < 0 || v >= len)
        return FAIL(t, "value (%lld) must be in [0, %lld)", LL(v), LL(len));
    }
    return mlirLogicalResultSuccess();
  default:
    return mlirLogicalResultSuccess();
  }
}

/* Counts, dim ranges, references and params of transform `t`. */
static MlirLogicalResult checkTransform(Tr *t, MlirAttribute attr,
                                        intptr_t nUpper, intptr_t nLower,
                                        int *upRefs, int *lowRefs) {
  RockTransformKind k = rockTransformAttrGetKind(attr);
  MlirAttribute un = rockTransformAttrGetUpperNames(attr);
  MlirAttribute ln = rockTransformAttrGetLowerNames(attr);
  t->kind = rockTransformKindGetName(k);
  t->params = rockTransformAttrGetParams(attr);
  t->ud = rockTransformAttrGetUpperDims(attr);
  t->ld = rockTransformAttrGetLowerDims(attr);
  t->np = mlirDenseArrayGetNumElements(t->params);
  t->nu = mlirDenseArrayGetNumElements(t->ud);
  t->nl = mlirDenseArrayGetNumElements(t->ld);
  intptr_t nun = mlirArrayAttrGetNumElements(un);
  intptr_t nln = mlirArrayAttrGetNumElements(ln);
  if (nun != t->nu)
    return FAIL(t, "%ld upper names but %ld upper dims", (long)nun,
                (long)t->nu);
  if (nln != t->nl)
    return FAIL(t, "%ld lower names but %ld lower dims", (long)nln,
                (long)t->nl);
  if (mlirLogicalResultIsFailure(checkCounts(t, k)))
    return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < t->nu; ++i) {
    int64_t d = udim(t, i);
    if (d < 0 || d >= nUpper)
      return FAIL(t, "upper dim %lld is out of range [0, %ld)", LL(d),
                  (long)nUpper);
    ++upRefs[d];
  }
  for (intptr_t i = 0; i < t->nl; ++i) {
    int64_t d = ldim(t, i);
    if (d < 0 || d >= nLower)
      return FAIL(t, "lower dim %lld is out of range [0, %ld)", LL(d),
                  (long)nLower);
    ++lowRefs[d];
  }
  return checkParams(t, k);
}

/* Bounds of `map` against the shape `s` of the result (upper) or input. */
static MlirLogicalResult checkBounds(MlirOperation op, MlirAttribute bounds,
                                     const RockShape *s, const char *which,
                                     const char *operand, int64_t *out) {
  char b1[256], b2[256];
  intptr_t n = mlirDenseArrayGetNumElements(bounds);
  bool ok = n == s->rank;
  for (intptr_t i = 0; i < n && i < ROCK_MAX_RANK; ++i) {
    out[i] = mlirDenseI64ArrayGetElement(bounds, i);
    if (i < s->rank && rock__verifyDimsDiffer(out[i], s->dims[i]))
      ok = false;
  }
  if (n > ROCK_MAX_RANK)
    return rock__verifyFail(op, "transform_map has more than %d %s bounds",
                            ROCK_MAX_RANK, which);
  if (!ok)
    return rock__verifyFail(
        op,
        "transform_map %s bounds (%s) must equal the %s shape "
        "(%s)",
        which, rock__verifyShapeStr(out, n, b1, sizeof b1), operand,
        rock__verifyShapeStr(s->dims, s->rank, b2, sizeof b2));
  for (intptr_t i = 0; i < n; ++i)
    if (out[i] < 0)
      return rock__verifyFail(op,
                              "transform_map %s bound %ld (%lld) is negative",
                              which, (long)i, LL(out[i]));
  return mlirLogicalResultSuccess();
}

/* Upper dims (`many`) are read by at least one transform, lower dims by
 * exactly one. */
static MlirLogicalResult checkRefs(MlirOperation op, const int *refs,
                                   intptr_t n, const char *which, bool many) {
  for (intptr_t d = 0; d < n; ++d)
    if (refs[d] == 0 || (!many && refs[d] != 1))
      return rock__verifyFail(
          op,
          "%s dim %ld is referenced %d times by the transforms "
          "(must be %s)",
          which, (long)d, refs[d], many ? "at least once" : "exactly once");
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rockTransformOpVerify(MlirOperation op) {
  MlirAttribute map = rock__attr(op, "transform");
  if (mlirAttributeIsNull(map) || !rockAttributeIsATransformMap(map))
    return rock__verifyFail(op, "transform must be a #rock.transform_map");
  RockShape in, out;
  if (!rock__verifyShapeOf(mlirValueGetType(mlirOperationGetOperand(op, 0)),
                           &in) ||
      !rock__verifyShapeOf(mlirValueGetType(mlirOperationGetResult(op, 0)),
                           &out))
    return rock__verifyFail(op,
                            "input and result must be ranked memrefs of rank "
                            "at most 16");
  if (mlirLogicalResultIsFailure(
          rock__verifySameElt(op, "result", out.elt, "the input", in.elt)))
    return mlirLogicalResultFailure();
  /* Upstream's #rock.transform_map rule: one affine-map input per upper
   * bound, one result per lower bound. */
  MlirAttribute have = rockTransformMapAttrGetMap(map);
  if (!mlirAttributeIsAAffineMap(have))
    return rock__verifyFail(op, "transform_map must hold an affine map");
  MlirAffineMap am = mlirAffineMapAttrGetValue(have);
  intptr_t nUb =
      mlirDenseArrayGetNumElements(rockTransformMapAttrGetUpperBounds(map));
  intptr_t nLb =
      mlirDenseArrayGetNumElements(rockTransformMapAttrGetLowerBounds(map));
  if (mlirAffineMapGetNumDims(am) != nUb)
    return rock__verifyFail(op,
                            "Affine map has %ld inputs but there are %ld "
                            "input dimensions",
                            (long)mlirAffineMapGetNumDims(am), (long)nUb);
  if (mlirAffineMapGetNumResults(am) != nLb)
    return rock__verifyFail(op,
                            "Affine map has %ld outputs but there are %ld "
                            "output dimensions",
                            (long)mlirAffineMapGetNumResults(am), (long)nLb);
  int64_t ub[ROCK_MAX_RANK], lb[ROCK_MAX_RANK];
  if (mlirLogicalResultIsFailure(
          checkBounds(op, rockTransformMapAttrGetUpperBounds(map), &out,
                      "upper", "result", ub)) ||
      mlirLogicalResultIsFailure(
          checkBounds(op, rockTransformMapAttrGetLowerBounds(map), &in, "lower",
                      "input", lb)))
    return mlirLogicalResultFailure();
  int upRefs[ROCK_MAX_RANK] = {0}, lowRefs[ROCK_MAX_RANK] = {0};
  MlirAttribute ops = rockTransformMapAttrGetOps(map);
  intptr_t nOps = mlirArrayAttrGetNumElements(ops);
  for (intptr_t i = 0; i < nOps; ++i) {
    MlirAttribute t = mlirArrayAttrGetElement(ops, i);
    if (!rockAttributeIsATransform(t))
      return rock__verifyFail(op, "transform %ld is not a #rock.transform",
                              (long)i);
    Tr tr = {.op = op, .idx = i, .kind = "", .ub = ub, .lb = lb};
    if (mlirLogicalResultIsFailure(
            checkTransform(&tr, t, out.rank, in.rank, upRefs, lowRefs)))
      return mlirLogicalResultFailure();
  }
  if (mlirLogicalResultIsFailure(
          checkRefs(op, upRefs, out.rank, "upper", true)) ||
      mlirLogicalResultIsFailure(
          checkRefs(op, lowRefs, in.rank, "lower", false)))
    return mlirLogicalResultFailure();
  MlirAffineMap want = rockTransformMapDeriveAffineMap(
      mlirOperationGetContext(op), ops, out.rank, in.rank);
  if (mlirAffineMapIsNull(want) ||
      !rock__verifyAffineMapsAgree(am, want, ub, out.rank))
    return rock__verifyFail(
        op, "transform_map affine map does not match its transforms");
  return mlirLogicalResultSuccess();
}
