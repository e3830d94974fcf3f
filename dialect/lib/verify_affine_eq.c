/*===- verify_affine_eq.c - semantic equality of transform affine maps ----===*
 *
 * A transform_map's stored affine map may be written in any form that
 * computes the derived one ("d0 * 32 + d1 * 8 + d2" for the derived
 * "(d0 * 4 + d1) * 8 + d2"). MLIR's C API has no simplifier, so the maps are
 * compared by evaluation over the upper index space: exhaustively when it is
 * small, else at its corners and at pseudo-random points.
 *
 *===----------------------------------------------------------------------===*/
#include "verify_common.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"

#include <stdbool.h>

#define EXHAUSTIVE_LIMIT 65536
#define SAMPLES 4096

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Evaluates `e` at dims `x`; false when undefined (division by zero,
 * symbols). Also used by passes/ (declared in passes/internal.h). */
bool rock__affineExprEval(MlirAffineExpr e, const int64_t *x, intptr_t n,
                          int64_t *out) {
  if (mlirAffineExprIsADim(e)) {
    intptr_t p = mlirAffineDimExprGetPosition(e);
    if (p < 0 || p >= n)
      return false;
    *out = x[p];
    return true;
  }
  if (mlirAffineExprIsAConstant(e)) {
    *out = mlirAffineConstantExprGetValue(e);
    return true;
  }
  if (!mlirAffineExprIsABinary(e))
    return false;
  int64_t l, r;
  if (!rock__affineExprEval(mlirAffineBinaryOpExprGetLHS(e), x, n, &l) ||
      !rock__affineExprEval(mlirAffineBinaryOpExprGetRHS(e), x, n, &r))
    return false;
  if (mlirAffineExprIsAAdd(e)) {
    *out = (int64_t)((uint64_t)l + (uint64_t)r);
    return true;
  }
  if (mlirAffineExprIsAMul(e)) {
    *out = (int64_t)((uint64_t)l * (uint64_t)r);
    return true;
  }
  if (r == 0)
    return false;
  if (mlirAffineExprIsAFloorDiv(e)) {
    *out = floorDiv(l, r);
    return true;
  }
  if (mlirAffineExprIsACeilDiv(e)) {
    *out = -floorDiv(-l, r);
    return true;
  }
  if (mlirAffineExprIsAMod(e)) {
    *out = l - floorDiv(l, r) * r;
    return true;
  }
  return false;
}

/* True unless `a` and `b` provably differ at `x`. */
static bool agreeAt(MlirAffineMap a, MlirAffineMap b, const int64_t *x,
                    intptr_t n) {
  intptr_t nr = mlirAffineMapGetNumResults(a);
  for (intptr_t i = 0; i < nr; ++i) {
    int64_t va, vb;
    bool da = rock__affineExprEval(mlirAffineMapGetResult(a, i), x, n, &va);
    bool db = rock__affineExprEval(mlirAffineMapGetResult(b, i), x, n, &vb);
    if (da != db || (da && va != vb))
      return false;
  }
  return true;
}

bool rock__verifyAffineMapsAgree(MlirAffineMap a, MlirAffineMap b,
                                 const int64_t *bounds, intptr_t n) {
  if (mlirAffineMapEqual(a, b))
    return true;
  if (mlirAffineMapGetNumDims(a) != n || mlirAffineMapGetNumDims(b) != n ||
      mlirAffineMapGetNumSymbols(a) != 0 ||
      mlirAffineMapGetNumResults(a) != mlirAffineMapGetNumResults(b))
    return false;
  int64_t total = 1;
  for (intptr_t i = 0; i < n; ++i) {
    if (bounds[i] <= 0)
      return true; /* empty index space: nothing can differ */
    total = total > EXHAUSTIVE_LIMIT / bounds[i] ? EXHAUSTIVE_LIMIT + 1
                                                 : total * bounds[i];
  }
  int64_t x[ROCK_MAX_RANK] = {0};
  if (total <= EXHAUSTIVE_LIMIT) {
    for (int64_t k = 0; k < total; ++k) {
      int64_t rest = k;
      for (intptr_t i = n - 1; i >= 0; --i) {
        x[i] = rest % bounds[i];
        rest /= bounds[i];
      }
      if (!agreeAt(a, b, x, n))
        return false;
    }
    return true;
  }
  /* Corners (first and last index of every dim), for up to 2^12 of them. */
  if (n <= 12) {
    for (int64_t c = 0; c < ((int64_t)1 << n); ++c) {
      for (intptr_t i = 0; i < n; ++i)
        x[i] = (c >> i) & 1 ? bounds[i] - 1 : 0;
      if (!agreeAt(a, b, x, n))
        return false;
    }
  }
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int k = 0; k < SAMPLES; ++k) {
    for (intptr_t i = 0; i < n; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      x[i] = (int64_t)((s >> 17) % (uint64_t)bounds[i]);
    }
    if (!agreeAt(a, b, x, n))
      return false;
  }
  return true;
}
