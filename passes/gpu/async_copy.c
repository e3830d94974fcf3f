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
 * On NVIDIA it also turns the prefetches rock-lower-views makes of a
 * schedule's rock.view_prefetch (memref.prefetch of a contiguous view,
 * llvm.intr.prefetch of a paged one) into prefetch.global.L2 of the
 * address (inline PTX): NVPTX drops llvm.prefetch.
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

/* The L2 prefetch of generic address $0 (PTX: nvvm.prefetch's intrinsic,
 * llvm.nvvm.prefetch.global.L2, does not select for sm_90 in NVPTX 22). */
static const char kPrefetchAsm[] =
    "{ .reg .u64 g; cvta.to.global.u64 g, $0; prefetch.global.L2 [g]; }";

/* memref.prefetch %m[%i...] -> an L2 prefetch of the element's address:
 * aligned pointer + (offset + sum of index x stride) x bytes. */
static bool rewriteMemrefPrefetch(MlirOperation pf) {
  MlirValue mem = mlirOperationGetOperand(pf, 0);
  MlirType mt = mlirValueGetType(mem);
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (rank < 1 || rank > 6 || mlirOperationGetNumOperands(pf) != rank + 1)
    return false;
  unsigned eb = rock__bitWidth(mlirShapedTypeGetElementType(mt)) / 8;
  RockStr mts = {0}, et = {0}, t = {0};
  rock__strAppendType(&mts, mt);
  rock__strAppendType(&et, mlirShapedTypeGetElementType(mt));
  rock__strAppendf(&t, "func.func @body(%%m: %s", mts.data);
  for (intptr_t i = 0; i < rank; ++i)
    rock__strAppendf(&t, ", %%i%d: index", (int)i);
  rock__strAppend(&t, ") {\n  %b, %e0");
  for (intptr_t i = 0; i < rank; ++i)
    rock__strAppendf(&t, ", %%sz%d", (int)i);
  for (intptr_t i = 0; i < rank; ++i)
    rock__strAppendf(&t, ", %%st%d", (int)i);
  rock__strAppendf(&t,
                   " = memref.extract_strided_metadata %%m : %s -> "
                   "memref<%s>, index",
                   mts.data, et.data);
  for (intptr_t i = 0; i < 2 * rank; ++i)
    rock__strAppend(&t, ", index");
  rock__strAppend(&t, "\n");
  for (intptr_t i = 0; i < rank; ++i)
    rock__strAppendf(&t,
                     "  %%p%d = arith.muli %%i%d, %%st%d : index\n"
                     "  %%e%d = arith.addi %%e%d, %%p%d : index\n",
                     (int)i, (int)i, (int)i, (int)i + 1, (int)i, (int)i);
  rock__strAppendf(
      &t,
      "  %%base = memref.extract_aligned_pointer_as_index %%m : %s -> index\n"
      "  %%eb = arith.constant %u : index\n"
      "  %%off = arith.muli %%e%d, %%eb : index\n"
      "  %%a = arith.addi %%base, %%off : index\n"
      "  %%ai = arith.index_cast %%a : index to i64\n"
      "  llvm.inline_asm has_side_effects \"%s\", \"l\" %%ai : (i64) -> ()\n"
      "  return\n}\n",
      mts.data, eb, (int)rank, kPrefetchAsm);
  MlirValue args[7];
  for (intptr_t i = 0; i <= rank; ++i)
    args[i] = mlirOperationGetOperand(pf, i);
  bool ok = rock__inlineFuncText(pf, t.data, rank + 1, args, 0, NULL);
  rock__strFree(&t);
  rock__strFree(&mts);
  rock__strFree(&et);
  if (ok)
    mlirOperationDestroy(pf);
  return ok;
}

/* "llvm.intr.prefetch"(%p) (a paged view's page pointer + offset) -> an
 * L2 prefetch of %p. */
static bool rewritePtrPrefetch(MlirOperation pf) {
  MlirValue p = mlirOperationGetOperand(pf, 0);
  if (!mlirTypeIsALLVMPointerType(mlirValueGetType(p)) ||
      mlirLLVMPointerTypeGetAddressSpace(mlirValueGetType(p)) != 0)
    return false;
  char t[512];
  snprintf(
      t, sizeof t,
      "func.func @body(%%p: !llvm.ptr) {\n"
      "  %%a = llvm.ptrtoint %%p : !llvm.ptr to i64\n"
      "  llvm.inline_asm has_side_effects \"%s\", \"l\" %%a : (i64) -> ()\n"
      "  return\n}\n",
      kPrefetchAsm);
  bool ok = rock__inlineFuncText(pf, t, 1, &p, 0, NULL);
  if (ok)
    mlirOperationDestroy(pf);
  return ok;
}

/* The prefetches of the module on NVIDIA (rewrite*Prefetch). */
static void prefetchesToL2(MlirOperation root, MlirExternalPass pass) {
  static const char *const names[2] = {"memref.prefetch", "llvm.intr.prefetch"};
  for (int k = 0; k < 2; ++k) {
    intptr_t n = 0;
    MlirOperation *ops = rock__collectOps(root, names[k], &n);
    for (intptr_t i = 0; i < n; ++i)
      if (!(k ? rewritePtrPrefetch(ops[i]) : rewriteMemrefPrefetch(ops[i])))
        rock__passFail(pass, ops[i],
                       "rock internal error: a GPU prefetch does not lower");
    free(ops);
  }
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
  if (nv)
    prefetchesToL2(root, pass);
}

static const RockPassDef def = {
    "RockGpuAsyncCopy", "rock-gpu-async-copy",
    "turn rock.async_copy staging stores of global loads into cp.async",
    "builtin.module", run};

MlirPass rockGpuAsyncCopyPassCreate(void) { return rock__passCreate(&def); }
void rockGpuAsyncCopyPassRegister(void) { rock__passRegister(&def); }
