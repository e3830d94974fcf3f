/*===- host_tosa.h - TOSA text for the host reference -------------*- C -*-===*
 *
 * Internal to capi/lib: emitters of the TOSA / tensor ops that
 * host_reference.c composes into rocmlir-gen's @host_naive_attention. Each
 * appends one op to the builder's text and returns the SSA number of its
 * result (%tN); tensor types travel as HT values.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_CAPI_HOST_TOSA_H
#define ROCK_CAPI_HOST_TOSA_H

#include "module_text.h"

enum { HT_MAX_RANK = 5 };

/// A ranked tensor type.
typedef struct HT {
  int rank;
  int64_t d[HT_MAX_RANK];
  const char *elt;
} HT;

/// The emitter's state: the text, the next SSA number, the mul shift.
typedef struct HostGen {
  Buf *b;
  int next;
  int shift; ///< %tN of the `tensor<1xi8>` zero shift of tosa.mul
} HostGen;

HT rock__ht(int rank, const int64_t *dims, const char *elt);
HT rock__htElt(HT t, const char *elt);  ///< `t` with another element type
HT rock__htDim(HT t, int i, int64_t v); ///< `t` with dim i set to v
TypeStr rock__htStr(HT t);

/// `%tN = "tosa.const"() <{values = dense<value> : T}>`.
int rock__hConst(HostGen *g, HT t, const char *value);
/// A `tensor<n x i32>` const holding 0 .. n-1.
int rock__hRange(HostGen *g, int64_t n);
/// bufferization.to_tensor of the memref argument %name (n elements).
int rock__hToTensor(HostGen *g, const char *name, int64_t n, const char *elt);
/// Writes `x` (of type `t`, any rank) flattened into the memref %name.
void rock__hStore(HostGen *g, int x, HT t, const char *name);

int rock__hReshape(HostGen *g, int x, HT from, HT to);
int rock__hCast(HostGen *g, int x, HT from, const char *toElt);
/// Elementwise `op` (tosa.add, sub, maximum, minimum, greater, ...) with
/// TOSA broadcasting to `out`.
int rock__hBinary(HostGen *g, const char *op, int a, HT ta, int b, HT tb,
                  HT out);
int rock__hMul(HostGen *g, int a, HT ta, int b, HT tb, HT out);
int rock__hSelect(HostGen *g, int m, HT tm, int a, HT ta, int b, HT tb);
int rock__hUnary(HostGen *g, const char *op, int x, HT t);
/// tosa.reduce_max / reduce_sum over `axis`, kept as a 1.
int rock__hReduce(HostGen *g, const char *op, int x, HT t, int axis, HT *res);
/// tosa.matmul [B, M, K] x [B, K, N] with zero points, result element type
/// `accElt`, recorded as `acc_type` as rocmlir-gen does (MLIR 22 ignores it:
/// the result type is the accumulator).
int rock__hMatmul(HostGen *g, int a, HT ta, int b, HT tb, const char *accElt,
                  HT *res);
/// tosa.transpose of the last two dims of a rank-3 `t`.
int rock__hTranspose3(HostGen *g, int x, HT t, HT *res);
/// tensor.expand_shape inserting a unit dim at `at` / collapse_shape merging
/// dims `at` and `at + 1`.
int rock__hExpand(HostGen *g, int x, HT t, int at, HT *res);
int rock__hCollapse(HostGen *g, int x, HT t, int at, HT *res);
/// `x` (with a unit dim at `at`) broadcast to `n` there, by tosa.mul with
/// ones, rocmlir-gen's form.
int rock__hBroadcastMul(HostGen *g, int x, HT t, int at, int64_t n, HT *res);

/// The text of a splat `value` of element type `elt`: "1.0", "0", ...
const char *rock__hOne(const char *elt);
const char *rock__hZero(const char *elt);
/// The lowest finite value of float type `elt`.
const char *rock__hLowest(const char *elt);

#endif
