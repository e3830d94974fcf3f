/*===- async_copy.c - rock-gpu-async-copy ---------------------------------===*
 *
 * Turns the staging stores a GPU schedule marked `rock.async_copy` into
 * cp.async copies (cp.async.cg.shared.global, 16 bytes, on NVIDIA targets):
 * a `vector.store {rock.async_copy}` of 16 bytes into workgroup memory,
 * whose value is used only there and is
 *   - a `vector.load` from a global memref (what rock-lower-views makes of
 *     a contiguous view): nvgpu.device_async_copy {bypassL1};
 *   - an `llvm.load` through a generic pointer (a paged view's rock.deref:
 *     page pointer + offset): nvvm.cp.async.shared.global from that pointer
 *     cast to the global space into the workgroup element's address.
 * Every other marked store (a guarded access, scalar loads, AMD) stays a
 * plain store and only loses the mark. The schedule emits the
 * nvvm.cp.async.commit.group / wait.group lines itself: with no copy in
 * flight they cost nothing, so both forms are ordered by the same barriers.
 *
 *===----------------------------------------------------------------------===*/
#include "attention/attention.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdio.h>
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

/* The load feeding `st` when the pair can be one cp.async (*paged: an
 * llvm.load through a pointer), else null. */
static MlirOperation copySource(MlirOperation st, bool *paged) {
  MlirOperation none = {NULL};
  MlirValue val = mlirOperationGetOperand(st, 0);
  MlirType vt = mlirValueGetType(val);
  if (!mlirValueIsAOpResult(val) || !mlirTypeIsAVector(vt) ||
      mlirShapedTypeGetRank(vt) != 1 ||
      mlirShapedTypeGetDimSize(vt, 0) *
              (int64_t)rock__bitWidth(mlirShapedTypeGetElementType(vt)) !=
          128 ||
      mlirOperationGetNumOperands(st) != 4)
    return none;
  MlirOperation ld = mlirOpResultGetOwner(val);
  *paged = named(ld, "llvm.load");
  if (!named(ld, "vector.load") && !*paged)
    return none;
  MlirOpOperand use = mlirValueGetFirstUse(val);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return none;
  MlirType src = mlirValueGetType(mlirOperationGetOperand(ld, 0));
  if (*paged ? !mlirTypeIsALLVMPointerType(src) ||
                   mlirLLVMPointerTypeGetAddressSpace(src) != 0
             : !isGlobal(src))
    return none;
  return ld;
}

/* The paged form: the workgroup element's address from the memref's
 * aligned pointer, the source pointer cast to the global space. */
static bool rewritePaged(MlirOperation st, MlirOperation ld) {
  MlirValue mem = mlirOperationGetOperand(st, 1);
  MlirType mt = mlirValueGetType(mem);
  RockStr mts = {0};
  rock__strAppendType(&mts, mt);
  int64_t pitch = mlirShapedTypeGetDimSize(mt, 1);
  unsigned eb = rock__bitWidth(mlirShapedTypeGetElementType(mt)) / 8;
  RockStr t = {0};
  rock__strAppendf(
      &t,
      "func.func @body(%%m: %s, %%r: index, %%c: index, %%p: !llvm.ptr) {\n"
      "  %%base = memref.extract_aligned_pointer_as_index %%m : %s -> index\n"
      "  %%pitch = arith.constant %lld : index\n"
      "  %%eb = arith.constant %u : index\n"
      "  %%row = arith.muli %%r, %%pitch : index\n"
      "  %%el = arith.addi %%row, %%c : index\n"
      "  %%off = arith.muli %%el, %%eb : index\n"
      "  %%a = arith.addi %%base, %%off : index\n"
      "  %%ai = arith.index_cast %%a : index to i64\n"
      "  %%dst = llvm.inttoptr %%ai : i64 to !llvm.ptr<3>\n"
      "  %%src = llvm.addrspacecast %%p : !llvm.ptr to !llvm.ptr<1>\n"
      "  nvvm.cp.async.shared.global %%dst, %%src, 16, cache = cg : "
      "!llvm.ptr<3>, !llvm.ptr<1>\n"
      "  return\n"
      "}\n",
      mts.data, mts.data, (long long)pitch, eb);
  MlirValue args[4] = {mem, mlirOperationGetOperand(st, 2),
                       mlirOperationGetOperand(st, 3),
                       mlirOperationGetOperand(ld, 0)};
  bool ok = rock__inlineFuncText(st, t.data, 4, args, 0, NULL);
  rock__strFree(&t);
  rock__strFree(&mts);
  if (!ok)
    return false;
  mlirOperationDestroy(st);
  mlirOperationDestroy(ld);
  return true;
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
  RockGpuTarget t;
  MlirExternalPass quiet = {NULL};
  bool nv = rock__gpuArch(root, quiet, &t) && t.vendor == ROCK_GPU_NVIDIA;
  intptr_t n = 0;
  MlirOperation *sts = rock__collectOps(root, "vector.store", &n);
  MlirStringRef mark = mlirStringRefCreateFromCString(kMark);
  for (intptr_t i = 0; i < n; ++i) {
    if (mlirAttributeIsNull(mlirOperationGetAttributeByName(sts[i], mark)))
      continue;
    bool paged = false;
    MlirOperation ld = nv ? copySource(sts[i], &paged) : (MlirOperation){NULL};
    if (mlirOperationIsNull(ld) || mlirOperationGetNumOperands(ld) > 8)
      mlirOperationRemoveAttributeByName(sts[i], mark);
    else if (!paged)
      rewrite(sts[i], ld);
    else if (!rewritePaged(sts[i], ld))
      rock__passFail(pass, sts[i],
                     "rock internal error: cp.async of a paged "
                     "load does not parse");
  }
  free(sts);
}

static const RockPassDef def = {
    "RockGpuAsyncCopy", "rock-gpu-async-copy",
    "turn rock.async_copy staging stores of global loads into cp.async",
    "builtin.module", run};

MlirPass rockGpuAsyncCopyPassCreate(void) { return rock__passCreate(&def); }
void rockGpuAsyncCopyPassRegister(void) { rock__passRegister(&def); }
