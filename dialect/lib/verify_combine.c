/*===- verify_combine.c - rock.attention_combine verifier (dialect.md) -----===*
 *
 * partialOut [B*S, Sq, Dv] (or [B*S, Dv, Sq] with oTransposed), partialLse
 * [B*S, Sq] f32 -> out [B, Sq, Dv] (same layout, partialOut's element type),
 * optional lse [B, Sq] f32.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinTypes.h"

#define LL(x) ((long long)(x))

static MlirLogicalResult shapeOf(MlirOperation op, intptr_t i, const char *name,
                                 intptr_t rank, RockShape *s) {
  if (!rock__verifyShapeOf(mlirValueGetType(mlirOperationGetOperand(op, i)),
                           s) ||
      s->rank != rank)
    return rock__verifyFail(op, "%s must be rank %ld (got rank %ld)", name,
                            (long)rank, (long)s->rank);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult isF32(MlirOperation op, const RockShape *s,
                               const char *name) {
  char b[128];
  if (!mlirTypeIsAF32(s->elt))
    return rock__verifyFail(op, "%s element type must be f32 (got %s)", name,
                            rock__typeToBuf(s->elt, b, sizeof b));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult same(MlirOperation op, const char *what, int64_t a,
                              const char *ofWhat, int64_t b) {
  if (rock__verifyDimsDiffer(a, b))
    return rock__verifyFail(op, "%s (%lld) must equal %s (%lld)", what, LL(a),
                            ofWhat, LL(b));
  return mlirLogicalResultSuccess();
}

#define CHECK(x)                                                               \
  do {                                                                         \
    if (mlirLogicalResultIsFailure(x))                                         \
      return mlirLogicalResultFailure();                                       \
  } while (0)

MlirLogicalResult rockAttentionCombineOpVerify(MlirOperation op) {
  char b1[128];
  int64_t S = rock__intAttr(op, "splitKV", 0);
  bool oT = rock__hasAttr(op, "oTransposed");
  if (S <= 0)
    return rock__verifyFail(op, "splitKV (%lld) must be positive", LL(S));
  RockShape po, pl, out, lse;
  CHECK(shapeOf(op, 0, "partialOut", 3, &po));
  CHECK(shapeOf(op, 1, "partialLse", 2, &pl));
  CHECK(shapeOf(op, 2, "out", 3, &out));
  CHECK(isF32(op, &pl, "partialLse"));
  int64_t pb = po.dims[0], sq = po.dims[oT ? 2 : 1], dv = po.dims[oT ? 1 : 2];
  if (pb != ROCK_DYN && pb % S != 0)
    return rock__verifyFail(
        op,
        "partialOut batch (%lld) must be divisible by splitKV "
        "(%lld)",
        LL(pb), LL(S));
  CHECK(same(op, "partialLse batch", pl.dims[0], "partialOut batch", pb));
  CHECK(same(op, "partialLse sequence length", pl.dims[1],
             "partialOut sequence length", sq));
  if (pb != ROCK_DYN && rock__verifyDimsDiffer(out.dims[0] * S, pb) &&
      out.dims[0] != ROCK_DYN)
    return rock__verifyFail(op,
                            "partialOut batch (%lld) must equal splitKV (%lld) "
                            "times out batch (%lld)",
                            LL(pb), LL(S), LL(out.dims[0]));
  CHECK(same(op, "out sequence length", out.dims[oT ? 2 : 1],
             "partialOut sequence length", sq));
  CHECK(same(op, "out head dim", out.dims[oT ? 1 : 2], "partialOut head dim",
             dv));
  if (mlirLogicalResultIsFailure(
          rock__verifySameElt(op, "out", out.elt, "partialOut", po.elt)))
    return mlirLogicalResultFailure();
  if (!mlirTypeIsAFloat(po.elt))
    return rock__verifyFail(op,
                            "partialOut element type must be a float (got %s)",
                            rock__typeToBuf(po.elt, b1, sizeof b1));
  if (mlirOperationGetNumOperands(op) > 3) {
    CHECK(shapeOf(op, 3, "lse", 2, &lse));
    CHECK(isF32(op, &lse, "lse"));
    CHECK(same(op, "lse batch", lse.dims[0], "out batch", out.dims[0]));
    CHECK(same(op, "lse sequence length", lse.dims[1],
               "partialOut sequence length", sq));
  }
  return mlirLogicalResultSuccess();
}
