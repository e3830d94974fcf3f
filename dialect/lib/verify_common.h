/*===- verify_common.h - helpers shared by the C op verifiers -----*- C -*-===*
 *
 * Internal to dialect/lib/verify_*.c (never included by C++): diagnostics
 * with printf-style formatting, shape accessors and operand segment lookup.
 * Attribute and op lookups (rock__attr, rock__intAttr, rock__isOp, ...) and
 * type printing (rock__typeToBuf) come from support/.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_VERIFY_COMMON_H
#define ROCK_VERIFY_COMMON_H

#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "support/ir.h"
#include "support/str.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest rank the verifiers look at; larger shapes are reported as such. */
#define ROCK_MAX_RANK 16

/* rocMLIR's words for a prefix offset without causal masking (rock.attention
 * and rock.gridwise_attention_accel share the rule). */
#define ROCK_PREFIX_NEEDS_CAUSAL                                               \
  "prefixOffset requires causal to be enabled. Prefix causal attention is "    \
  "causal masking with an offset."

/* The keyword of a #rock<StoreMethod ...> attribute ("set", "atomic_add",
 * "atomic_max"; "?" for anything else). */
const char *rock__storeMethodName(MlirAttribute storeMethod);

/* Emits the formatted error at `op`'s location and returns failure. */
MlirLogicalResult rock__verifyFail(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Success when element types `ta` and `tb` are equal; otherwise fails with
 * "<a> element type (<ta>) must equal <b> element type (<tb>)". */
MlirLogicalResult rock__verifySameElt(MlirOperation op, const char *a,
                                      MlirType ta, const char *b, MlirType tb);

/* Prints dims as "2x3x?" into `buf`. Returns buf. */
const char *rock__verifyShapeStr(const int64_t *dims, intptr_t rank, char *buf,
                                 size_t size);

/* A shaped operand: rank and static dims (ROCK_DYN for dynamic ones). */
#define ROCK_DYN INT64_MIN
typedef struct RockShape {
  MlirType type;
  MlirType elt;
  intptr_t rank;
  int64_t dims[ROCK_MAX_RANK];
} RockShape;

/* Fills `s` from a shaped type. Returns false if `t` is not shaped/ranked or
 * its rank exceeds ROCK_MAX_RANK. */
bool rock__verifyShapeOf(MlirType t, RockShape *s);

/* True if both dims are static and differ. */
static inline bool rock__verifyDimsDiffer(int64_t a, int64_t b) {
  return a != ROCK_DYN && b != ROCK_DYN && a != b;
}

/* Element bit width of an int or float type; 0 otherwise. */
unsigned rock__verifyEltBits(MlirType t);

/* True if `t` is an i<width> integer type (any signedness). */
bool rock__verifyIsInt(MlirType t, unsigned width);

/* True for the element types attention reads as queries and keys: f32,
 * f16, bf16, i8. */
bool rock__verifyIsAttnInput(MlirType t);

/* True for the element types attention reads as values and writes as out:
 * f32, f16, bf16. */
bool rock__verifyIsAttnFloat(MlirType t);

/* Operand segments: `start[i]` and `size[i]` for each of `n` segments read
 * from the op's operandSegmentSizes. Returns false (with an error emitted) if
 * the attribute is missing or malformed. */
bool rock__verifySegments(MlirOperation op, intptr_t n, intptr_t *start,
                          intptr_t *size);

/* The defining op of `v` if it is an op result named `name`, else null. */
MlirOperation rock__verifyDefiningOpNamed(MlirValue v, const char *name);

/* Follows rock.transform inputs from `v`; returns the rock.deref at the
 * bottom, or a null op if the chain ends anywhere else. */
MlirOperation rock__verifyDerefUnder(MlirValue v);

/* Checks a pre-softmax region (one block, 1 + nInputs args, rock.yield of
 * one float); `inputs` are the elementwise input values (for argument types).
 * Emits the error and returns false on failure. An empty region is fine when
 * nInputs == 0. */
bool rock__verifyPreSoftmaxRegion(MlirOperation op, const MlirValue *inputs,
                                  intptr_t nInputs);

/* Evaluates `e` at dims `x[0..n)` into *out; false when undefined
 * (division by zero, symbols, dims past n). */
bool rock__affineExprEval(MlirAffineExpr e, const int64_t *x, intptr_t n,
                          int64_t *out);

/* True if affine maps `a` and `b` compute the same results over the index
 * space [0, bounds[i]) of their `n` dims (structurally equal maps trivially
 * do). Small spaces are checked exhaustively, large ones at corners and
 * sampled points. */
bool rock__verifyAffineMapsAgree(MlirAffineMap a, MlirAffineMap b,
                                 const int64_t *bounds, intptr_t n);

#endif
