/*===- ops.c - building rock operations over the generic C API -----------===*/
#include "rock-c/Ops.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rock-c/Dialect.h"

/* Upper bound of named attributes any builder sets. */
enum { MAX_ATTRS = 20 };

static const MlirOperation nullOp = {NULL};

/* Starts a state for `name`, or returns false if the op is not registered
 * (the rock dialect is not loaded in `loc`'s context). */
static bool stateGet(MlirLocation loc, const char *name,
                     MlirOperationState *state) {
  MlirStringRef ref = mlirStringRefCreateFromCString(name);
  if (!mlirContextIsRegisteredOperation(mlirLocationGetContext(loc), ref))
    return false;
  *state = mlirOperationStateGet(ref, loc);
  return true;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute attr) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

static MlirAttribute i32Attr(MlirContext ctx, int32_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), v);
}

MlirOperation rockTransformOpCreate(MlirLocation loc, MlirValue input,
                                    MlirAttribute transformMap,
                                    MlirType resultType) {
  MlirOperationState state;
  if (mlirValueIsNull(input) || mlirAttributeIsNull(transformMap) ||
      mlirTypeIsNull(resultType) ||
      !rockAttributeIsATransformMap(transformMap) ||
      !stateGet(loc, "rock.transform", &state))
    return nullOp;
  MlirNamedAttribute attr =
      named(mlirLocationGetContext(loc), "transform", transformMap);
  mlirOperationStateAddOperands(&state, 1, &input);
  mlirOperationStateAddResults(&state, 1, &resultType);
  mlirOperationStateAddAttributes(&state, 1, &attr);
  return mlirOperationCreate(&state);
}

MlirOperation rockDerefOpCreate(MlirLocation loc, MlirValue pointers,
                                MlirType resultType) {
  MlirOperationState state;
  if (mlirValueIsNull(pointers) || mlirTypeIsNull(resultType) ||
      !stateGet(loc, "rock.deref", &state))
    return nullOp;
  mlirOperationStateAddOperands(&state, 1, &pointers);
  mlirOperationStateAddResults(&state, 1, &resultType);
  return mlirOperationCreate(&state);
}

MlirOperation rockViewLoadOpCreate(MlirLocation loc, MlirValue source,
                                   intptr_t nIndices, const MlirValue *indices,
                                   MlirType resultType,
                                   MlirAttribute padValue) {
  MlirOperationState state;
  if (mlirValueIsNull(source) || mlirTypeIsNull(resultType) ||
      (nIndices > 0 && !indices) || !stateGet(loc, "rock.view_load", &state))
    return nullOp;
  mlirOperationStateAddOperands(&state, 1, &source);
  if (nIndices > 0)
    mlirOperationStateAddOperands(&state, nIndices, indices);
  mlirOperationStateAddResults(&state, 1, &resultType);
  if (!mlirAttributeIsNull(padValue)) {
    MlirNamedAttribute attr =
        named(mlirLocationGetContext(loc), "padValue", padValue);
    mlirOperationStateAddAttributes(&state, 1, &attr);
  }
  return mlirOperationCreate(&state);
}

MlirOperation rockViewStoreOpCreate(MlirLocation loc, MlirValue value,
                                    MlirValue dest, intptr_t nIndices,
                                    const MlirValue *indices) {
  MlirOperationState state;
  if (mlirValueIsNull(value) || mlirValueIsNull(dest) ||
      (nIndices > 0 && !indices) || !stateGet(loc, "rock.view_store", &state))
    return nullOp;
  MlirValue head[2] = {value, dest};
  mlirOperationStateAddOperands(&state, 2, head);
  if (nIndices > 0)
    mlirOperationStateAddOperands(&state, nIndices, indices);
  return mlirOperationCreate(&state);
}

MlirOperation rockViewPrefetchOpCreate(MlirLocation loc, MlirValue source,
                                       intptr_t nIndices,
                                       const MlirValue *indices,
                                       int32_t locality) {
  MlirOperationState state;
  if (mlirValueIsNull(source) || (nIndices > 0 && !indices) ||
      !stateGet(loc, "rock.view_prefetch", &state))
    return nullOp;
  mlirOperationStateAddOperands(&state, 1, &source);
  if (nIndices > 0)
    mlirOperationStateAddOperands(&state, nIndices, indices);
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute attr =
      named(ctx, "locality",
            mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), (int64_t)locality));
  mlirOperationStateAddAttributes(&state, 1, &attr);
  return mlirOperationCreate(&state);
}

/* Adds `v` to the state when present; returns its segment size (0 or 1). */
static int32_t addOptional(MlirOperationState *state, MlirValue v) {
  if (mlirValueIsNull(v))
    return 0;
  mlirOperationStateAddOperands(state, 1, &v);
  return 1;
}

MlirOperation rockAttentionOpCreate(MlirLocation loc,
                                    const RockAttentionOperands *operands,
                                    const RockAttentionAttrs *attrs,
                                    MlirRegion preSoftmaxBody) {
  MlirOperationState state;
  const RockAttentionOperands *o = operands;
  if (!o || !attrs || mlirValueIsNull(o->queries) || mlirValueIsNull(o->keys) ||
      mlirValueIsNull(o->values) || mlirValueIsNull(o->out) ||
      (o->nPreSoftmaxElemWiseInputs > 0 && !o->preSoftmaxElemWiseInputs) ||
      !stateGet(loc, "rock.attention", &state)) {
    /* The region was handed to us: it is ours to free on failure. */
    if (!mlirRegionIsNull(preSoftmaxBody))
      mlirRegionDestroy(preSoftmaxBody);
    return nullOp;
  }
  MlirContext ctx = mlirLocationGetContext(loc);

  /* Operands, in ODS order, and their segment sizes. */
  MlirValue qkv[3] = {o->queries, o->keys, o->values};
  mlirOperationStateAddOperands(&state, 3, qkv);
  int32_t nIns = (int32_t)o->nPreSoftmaxElemWiseInputs;
  if (nIns > 0)
    mlirOperationStateAddOperands(&state, nIns, o->preSoftmaxElemWiseInputs);
  int32_t seg[10] = {1, 1, 1, nIns, 0, 0, 0, 0, 1, 0};
  seg[4] = addOptional(&state, o->currentSeqLen);
  seg[5] = addOptional(&state, o->prefixOffset);
  seg[6] = addOptional(&state, o->keyAddresses);
  seg[7] = addOptional(&state, o->valueAddresses);
  mlirOperationStateAddOperands(&state, 1, &o->out);
  seg[9] = addOptional(&state, o->lse);

  /* Attributes. */
  MlirNamedAttribute a[MAX_ATTRS];
  intptr_t n = 0;
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  a[n++] =
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 10, seg));
  a[n++] = named(ctx, "numHeadsQ", i32Attr(ctx, attrs->numHeadsQ));
  a[n++] = named(ctx, "numHeadsKV", i32Attr(ctx, attrs->numHeadsKV));
  a[n++] =
      named(ctx, "splitKV", i32Attr(ctx, attrs->splitKV ? attrs->splitKV : 1));
  const struct {
    bool on;
    const char *name;
  } flags[] = {
      {attrs->qTransposed, "qTransposed"}, {attrs->kTransposed, "kTransposed"},
      {attrs->vTransposed, "vTransposed"}, {attrs->oTransposed, "oTransposed"},
      {attrs->causal, "causal"},           {attrs->reverseGrid, "reverseGrid"}};
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; ++i)
    if (flags[i].on)
      a[n++] = named(ctx, flags[i].name, unit);
  if (!mlirTypeIsNull(attrs->softmaxType))
    a[n++] = named(ctx, "softmaxType", mlirTypeAttrGet(attrs->softmaxType));
  if (attrs->perfConfig)
    a[n++] = named(ctx, "perf_config",
                   mlirStringAttrGet(
                       ctx, mlirStringRefCreateFromCString(attrs->perfConfig)));
  if (attrs->slidingWindowSize)
    a[n++] =
        named(ctx, "slidingWindowSize", i32Attr(ctx, attrs->slidingWindowSize));
  if (attrs->causalLookBack)
    a[n++] = named(ctx, "causalLookBack", i32Attr(ctx, attrs->causalLookBack));
  if (attrs->features)
    a[n++] =
        named(ctx, "features", rockGemmFeaturesAttrGet(ctx, attrs->features));
  a[n++] = named(ctx, "storeMethod",
                 rockStoreMethodAttrGet(ctx, attrs->storeMethod));
  mlirOperationStateAddAttributes(&state, n, a);

  /* The region: the caller's (ownership moves into the op) or a new one. */
  MlirRegion region =
      mlirRegionIsNull(preSoftmaxBody) ? mlirRegionCreate() : preSoftmaxBody;
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  return mlirOperationCreate(&state);
}

MlirOperation rockAttentionCombineOpCreate(MlirLocation loc,
                                           MlirValue partialOut,
                                           MlirValue partialLse, MlirValue out,
                                           MlirValue lse, int32_t splitKV,
                                           bool oTransposed) {
  MlirOperationState state;
  if (mlirValueIsNull(partialOut) || mlirValueIsNull(partialLse) ||
      mlirValueIsNull(out) || !stateGet(loc, "rock.attention_combine", &state))
    return nullOp;
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirValue ops[3] = {partialOut, partialLse, out};
  mlirOperationStateAddOperands(&state, 3, ops);
  addOptional(&state, lse);
  MlirNamedAttribute a[2];
  intptr_t n = 0;
  a[n++] = named(ctx, "splitKV", i32Attr(ctx, splitKV));
  if (oTransposed)
    a[n++] = named(ctx, "oTransposed", mlirUnitAttrGet(ctx));
  mlirOperationStateAddAttributes(&state, n, a);
  return mlirOperationCreate(&state);
}
