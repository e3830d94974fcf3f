//===- Ops.h - building rock operations from C -------------------*- C -*-===//
//
// Builders of rock's operations over mlirOperationStateGet /
// mlirOperationCreate. Every builder returns a new, detached operation owned
// by the caller: insert it into a block (mlirBlockAppendOwnedOperation,
// mlirBlockInsertOwnedOperation...), which takes ownership, or free it with
// mlirOperationDestroy. Operand values, types and attributes are borrowed
// handles; the op keeps references to them, so they must outlive it (values)
// or live in its context (types, attributes).
//
// The builders check only what they need to build the op (non-null required
// handles, rock dialect loaded); the op's semantics are checked by its
// verifier (mlirOperationVerify). On failure they return a null operation
// (mlirOperationIsNull) and emit no diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_OPS_H
#define ROCK_C_OPS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Returns a new `%r = rock.transform %input by #map : T to resultType`.
/// `transformMap` must be a #rock.transform_map (see rock-c/TransformMap.h).
/// Borrows every argument. Returns a null op if `input`, `transformMap` or
/// `resultType` is null, `transformMap` is not a #rock.transform_map, or the
/// rock dialect is not loaded in `loc`'s context.
MLIR_CAPI_EXPORTED MlirOperation
rockTransformOpCreate(MlirLocation loc, MlirValue input,
                      MlirAttribute transformMap, MlirType resultType);

/// Returns a new `%r = rock.deref %pointers : T -> resultType`. Borrows every
/// argument. Returns a null op if a handle is null or the rock dialect is not
/// loaded.
MLIR_CAPI_EXPORTED MlirOperation rockDerefOpCreate(MlirLocation loc,
                                                   MlirValue pointers,
                                                   MlirType resultType);

/// Returns a new `%r = rock.view_load %source[indices] : T -> resultType`.
/// `indices` (nIndices index values, may be NULL when 0) is read during the
/// call only. `padValue` is an f64 FloatAttr, or a null attribute for none
/// (reads of padding then give 0). Borrows every handle. Returns a null op if
/// `source` or `resultType` is null or the rock dialect is not loaded.
MLIR_CAPI_EXPORTED MlirOperation rockViewLoadOpCreate(
    MlirLocation loc, MlirValue source, intptr_t nIndices,
    const MlirValue *indices, MlirType resultType, MlirAttribute padValue);

/// Returns a new `rock.view_store %value, %dest[indices]`. `indices`
/// (nIndices index values) is read during the call only. Borrows every
/// handle. Returns a null op if `value` or `dest` is null or the rock dialect
/// is not loaded.
MLIR_CAPI_EXPORTED MlirOperation
rockViewStoreOpCreate(MlirLocation loc, MlirValue value, MlirValue dest,
                      intptr_t nIndices, const MlirValue *indices);

/// Returns a new `rock.view_prefetch %source[indices] {locality}`; locality
/// is 0..3 as in llvm.prefetch (the verifier rejects others). `indices` is
/// read during the call only. Borrows every handle. Returns a null op if
/// `source` is null or the rock dialect is not loaded.
MLIR_CAPI_EXPORTED MlirOperation
rockViewPrefetchOpCreate(MlirLocation loc, MlirValue source, intptr_t nIndices,
                         const MlirValue *indices, int32_t locality);

//===----------------------------------------------------------------------===//
// rock.attention
//===----------------------------------------------------------------------===//

/// Operands of rock.attention (docs/dialect.md). Optional operands
/// are null handles (mlirValueIsNull) when absent. All handles are borrowed.
typedef struct RockAttentionOperands {
  /// Required: `[B, Sq, Dqk]` (or transposed) queries.
  MlirValue queries;
  /// Required: keys.
  MlirValue keys;
  /// Required: values.
  MlirValue values;
  /// Number of pre-softmax elementwise inputs (0 for none).
  intptr_t nPreSoftmaxElemWiseInputs;
  /// The elementwise inputs, `nPreSoftmaxElemWiseInputs` values (may be NULL
  /// when 0); read during the call only.
  const MlirValue *preSoftmaxElemWiseInputs;
  /// Optional `[B]` i32 KV-cache lengths.
  MlirValue currentSeqLen;
  /// Optional `[1]` or `[B]` i32 prefix offsets.
  MlirValue prefixOffset;
  /// Optional, paged mode: the rock.deref that `keys` is a view of (its
  /// result, as rocmlir-gen emits it, or a view of it such as `keys`).
  MlirValue keyAddresses;
  /// Optional, paged mode: the same for `values`.
  MlirValue valueAddresses;
  /// Required: the output buffer.
  MlirValue out;
  /// Optional f32 log-sum-exp output.
  MlirValue lse;
} RockAttentionOperands;

/// Attributes of rock.attention. Zero-initialise, then set what differs:
/// every "none" below is the zero value, except `splitKV`, where 0 also
/// means the default 1.
typedef struct RockAttentionAttrs {
  /// `numHeadsQ`, `numHeadsKV` (i32, required by the verifier to be > 0).
  int32_t numHeadsQ;
  int32_t numHeadsKV;
  /// `splitKV` (i32); 0 is written as 1.
  int32_t splitKV;
  /// Unit attributes, present when true.
  bool qTransposed;
  bool kTransposed;
  bool vTransposed;
  bool oTransposed;
  bool causal;
  bool reverseGrid;
  /// `softmaxType` (a TypeAttr of this type); a null type for none.
  MlirType softmaxType;
  /// `perf_config` string, NUL-terminated and copied; NULL for none.
  const char *perfConfig;
  /// `slidingWindowSize` (i32); 0 for none.
  int32_t slidingWindowSize;
  /// `causalLookBack` (i32, needs `causal`); 0 for none.
  int32_t causalLookBack;
  /// `features`: #rock<GemmFeatures> bits (see rockGemmFeaturesAttrGet);
  /// 0 omits the attribute.
  uint32_t features;
  /// `storeMethod`: 0 set, 1 atomic_add, 2 atomic_max; always written.
  uint32_t storeMethod;
} RockAttentionAttrs;

/// Returns a new memref-form rock.attention (no results) with the operands
/// and attributes of `operands` and `attrs` (both read during the call only)
/// and `operandSegmentSizes` set from which operands are present.
///
/// `preSoftmaxBody` becomes the op's `preSoftmaxBody` region: pass a null
/// region (`(MlirRegion){NULL}`) for an empty one, or a region created with
/// mlirRegionCreate and owned by the caller (one block whose arguments are
/// the gemm element and one scalar per elementwise input, ending in
/// rock.yield). Ownership of a non-null `preSoftmaxBody` is transferred to
/// this call whether it succeeds or fails: the caller must not use or
/// destroy it afterwards (on failure it is destroyed here).
///
/// Returns a null op if `operands` or `attrs` is NULL, a required operand
/// (queries, keys, values, out) is null, or the rock dialect is not loaded.
MLIR_CAPI_EXPORTED MlirOperation rockAttentionOpCreate(
    MlirLocation loc, const RockAttentionOperands *operands,
    const RockAttentionAttrs *attrs, MlirRegion preSoftmaxBody);

//===----------------------------------------------------------------------===//
// rock.attention_combine
//===----------------------------------------------------------------------===//

/// Returns a new `rock.attention_combine %partialOut, %partialLse into %out
/// (, %lse)` with `splitKV` and, when `oTransposed`, the unit attribute
/// `oTransposed`. `lse` is optional (null handle for none). Borrows every
/// handle. Returns a null op if a required value is null or the rock dialect
/// is not loaded.
MLIR_CAPI_EXPORTED MlirOperation rockAttentionCombineOpCreate(
    MlirLocation loc, MlirValue partialOut, MlirValue partialLse, MlirValue out,
    MlirValue lse, int32_t splitKV, bool oTransposed);

#ifdef __cplusplus
}
#endif

#endif
