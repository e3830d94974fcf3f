/*===- async_copy.c - rock-gpu-async-copy ---------------------------------===*
 *
 * Turns the staging stores a GPU schedule marked `rock.async_copy` into
 * cp.async copies: a `vector.store {rock.async_copy}` of 16 bytes into
 * workgroup memory whose value is a `vector.load` from a global memref
 * (what rock-lower-views makes of a contiguous view) used only there
 * becomes `nvgpu.device_async_copy {bypassL1}` (cp.async.cg ... 16), on
 * NVIDIA targets. Every other marked store (a paged view's rock.deref
 * load, a guarded access, AMD) stays a plain store and only loses the
 * mark. The schedule emits the nvvm.cp.async.commit.group /
 * wait.group lines itself: with no copy in flight they cost nothing, so
 * both forms are ordered by the same barriers.
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

static const char kMark[] = "rock.async_copy";

static bool named(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && !memcmp(n.data, name, n.length);
}

static bool isGlobal(MlirType mt) {
  MlirAttribute ms = mlirMemRefTypeGetMemorySpace(mt);
  return mlirAttributeIsNull(ms) ||
         (mlirAttributeIsAInteger(ms) && mlirIntegerAttrGetValueInt(ms) == 1);
}

/* The load feeding `st` when the pair can be one cp.async, else null. */
static MlirOperation copySource(MlirOperation st) {
  MlirOperation none = {NULL};
  MlirValue val = mlirOperationGetOperand(st, 0);
  MlirType vt = mlirValueGetType(val);
  if (!mlirValueIsAOpResult(val) || !mlirTypeIsAVector(vt) ||
      mlirShapedTypeGetRank(vt) != 1 ||
      mlirShapedTypeGetDimSize(vt, 0) *
              (int64_t)rock__bitWidth(mlirShapedTypeGetElementType(vt)) !=
          128)
    return none;
  MlirOperation ld = mlirOpResultGetOwner(val);
  if (!named(ld, "vector.load"))
    return none;
  MlirOpOperand use = mlirValueGetFirstUse(val);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return none;
  if (!isGlobal(mlirValueGetType(mlirOperationGetOperand(ld, 0))))
    return none;
  return ld;
}

static void rewrite(MlirOperation st, MlirOperation ld) {
  MlirContext ctx = mlirOperationGetContext(st);
  MlirLocation loc = mlirOperationGetLocation(st);
  intptr_t nSt = mlirOperationGetNumOperands(st);
  intptr_t nLd = mlirOperationGetNumOperands(ld);
  MlirValue ops[16];
  int n = 0;
  for (intptr_t i = 1; i < nSt && n < 16; ++i) /* dst, dst indices */
    ops[n++] = mlirOperationGetOperand(st, i);
  for (intptr_t i = 0; i < nLd && n < 16; ++i) /* src, src indices */
    ops[n++] = mlirOperationGetOperand(ld, i);
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(st, 0));
  int32_t seg[5] = {1, (int32_t)(nSt - 2), 1, (int32_t)(nLd - 1), 0};
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("dstElements")),
          mlirIntegerAttrGet(mlirIndexTypeGet(ctx),
                             mlirShapedTypeGetDimSize(vt, 0))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("bypassL1")),
          mlirUnitAttrGet(ctx)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(
              ctx, mlirStringRefCreateFromCString("operandSegmentSizes")),
          mlirDenseI32ArrayGet(ctx, 5, seg))};
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("nvgpu.device_async_copy"), loc);
  mlirOperationStateAddOperands(&state, n, ops);
  MlirType tok = mlirTypeParseGet(
      ctx, mlirStringRefCreateFromCString("!nvgpu.device.async.token"));
  mlirOperationStateAddResults(&state, 1, &tok);
  mlirOperationStateAddAttributes(&state, 3, attrs);
  MlirOperation cp = mlirOperationCreate(&state);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(st), st, cp);
  mlirOperationDestroy(st);
  mlirOperationDestroy(ld);
}

static void run(MlirOperation root, MlirExternalPass pass) {
  (void)pass;
  RockGpuTarget t;
  MlirExternalPass quiet = {NULL};
  bool nv = rock__gpuArch(root, quiet, &t) && t.vendor == ROCK_GPU_NVIDIA;
  intptr_t n = 0;
  MlirOperation *sts = rock__collectOps(root, "vector.store", &n);
  MlirStringRef mark = mlirStringRefCreateFromCString(kMark);
  for (intptr_t i = 0; i < n; ++i) {
    if (mlirAttributeIsNull(mlirOperationGetAttributeByName(sts[i], mark)))
      continue;
    MlirOperation ld = nv ? copySource(sts[i]) : (MlirOperation){NULL};
    if (!mlirOperationIsNull(ld) && mlirOperationGetNumOperands(sts[i]) <= 8 &&
        mlirOperationGetNumOperands(ld) <= 8)
      rewrite(sts[i], ld);
    else
      mlirOperationRemoveAttributeByName(sts[i], mark);
  }
  free(sts);
}

static const RockPassDef def = {
    "RockGpuAsyncCopy", "rock-gpu-async-copy",
    "turn rock.async_copy staging stores of global loads into cp.async",
    "builtin.module", run};

MlirPass rockGpuAsyncCopyPassCreate(void) { return rock__passCreate(&def); }
void rockGpuAsyncCopyPassRegister(void) { rock__passRegister(&def); }
