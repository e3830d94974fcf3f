//===- gpu_compile.c - a GPU module to a kernel bundle --------------------===//
#include "gpu_compile.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Pass.h"
#include "rock-c/Passes.h"
#include "support/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static bool opIs(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return mlirStringRefEqual(n, str(name));
}

/* A constant of the LLVM dialect without uses: gpu-kernel-outlining sinks
 * copies of the constants a launch body uses into the kernel and leaves the
 * host's (e.g. the llvm.mlir.undef a wgmma accumulator struct starts from);
 * there is nothing to run for it. */
static bool deadLlvmConstant(MlirOperation op) {
  static const char *const names[] = {"llvm.mlir.undef", "llvm.mlir.poison",
                                      "llvm.mlir.zero"};
  bool named = false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    named |= opIs(op, names[i]);
  return named && mlirOperationGetNumResults(op) == 1 &&
         mlirOpOperandIsNull(
             mlirValueGetFirstUse(mlirOperationGetResult(op, 0)));
}

static bool fail(char *err, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, size, fmt, ap);
  va_end(ap);
  return false;
}

bool rockGpuModuleGetArch(MlirModule module, char *arch, size_t archSize) {
  MlirAttribute a = rock__archAttr(mlirModuleGetOperation(module), NULL);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(a);
  snprintf(arch, archSize, "%.*s", (int)s.length, s.data);
  return s.length > 3 && !strncmp(s.data, "sm_", 3);
}

/// The upstream tail writing `format` (isa: PTX; bin: a cubin).
static void tailText(const char *arch, const char *format, char *buf,
                     size_t size) {
  // libdevice and ptxas come from the toolkit when it is installed; without
  // one, PTX that needs libdevice fails to load (the runner says why).
  const char *toolkit =
      access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda" : "";
  snprintf(buf, size,
           "gpu-kernel-outlining,nvvm-attach-target{chip=%s O=3},"
           "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-"
           "memref-call-conv=1}),reconcile-unrealized-casts,"
           "gpu-module-to-binary{format=%s%s%s}",
           arch, format, *toolkit ? " toolkit=" : "", toolkit);
}

void rockGpuTailPipelineText(const char *arch, char *buf, size_t size) {
  tailText(arch, "isa", buf, size);
}

/// True when some op nested in `op` is a gpu.launch.
static bool hasGpuLaunch(MlirOperation op) {
  if (opIs(op, "gpu.launch"))
    return true;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        if (hasGpuLaunch(o))
          return true;
  }
  return false;
}

static MlirOperation findSymbol(MlirModule module, MlirStringRef name,
                                const char *opName) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(op, str("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) &&
        mlirStringRefEqual(mlirStringAttrGetValue(sym), name) &&
        opIs(op, opName))
      return op;
  }
  MlirOperation null = {NULL};
  return null;
}

static bool elementType(MlirType t, RockDType *dt) {
  if (mlirTypeIsAF32(t))
    *dt = ROCK_DTYPE_F32;
  else if (mlirTypeIsAF16(t))
    *dt = ROCK_DTYPE_F16;
  else if (mlirTypeIsABF16(t))
    *dt = ROCK_DTYPE_BF16;
  else if (mlirTypeIsAF64(t))
    *dt = ROCK_DTYPE_F64;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 8)
    *dt = ROCK_DTYPE_I8;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 32)
    *dt = ROCK_DTYPE_I32;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64)
    *dt = ROCK_DTYPE_I64;
  else
    return false;
  return true;
}

/// Element count and type of a static memref type; false otherwise.
static bool staticMemRef(MlirType t, int64_t *n, RockDType *dt) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      !elementType(mlirShapedTypeGetElementType(t), dt))
    return false;
  *n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    *n *= mlirShapedTypeGetDimSize(t, d);
  return true;
}

/// Context of one host function's extraction.
typedef struct Extract {
  MlirModule module;
  RockBundle *b;
  RockBundleFunc *fn;
  MlirBlock entry;
  MlirOperation scratch[ROCK_BUNDLE_MAX_SCRATCH]; ///< the memref.alloc ops
  MlirOperation tmaps[ROCK_BUNDLE_MAX_TMAPS]; ///< those marked rock.tensor_map
  char *err;
  size_t errSize;
} Extract;

/// The integer value of an arith.constant result, or false.
static bool constantInt(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!opIs(def, "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(def, str("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/// Maps one kernel operand to a bundle parameter.
static bool mapOperand(Extract *x, MlirValue v, RockBundleParam *p) {
  if (mlirValueIsABlockArgument(v)) {
    if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), x->entry))
      return fail(x->err, x->errSize,
                  "@%s: a kernel operand is a block argument of a nested "
                  "block",
                  x->fn->name);
    p->kind = ROCK_PARAM_ARG;
    p->value = mlirBlockArgumentGetArgNumber(v);
    return true;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  if (opIs(def, "memref.alloc")) {
    for (int m = 0; m < x->fn->numTensorMaps; ++m)
      if (mlirOperationEqual(x->tmaps[m], def)) {
        p->kind = ROCK_PARAM_TMAP;
        p->value = m;
        return true;
      }
    for (int s = 0; s < x->fn->numScratch; ++s)
      if (mlirOperationEqual(x->scratch[s], def)) {
        p->kind = ROCK_PARAM_SCRATCH;
        p->value = s;
        return true;
      }
  }
  if (opIs(def, "arith.constant")) {
    MlirAttribute a = mlirOperationGetAttributeByName(def, str("value"));
    MlirType t = mlirValueGetType(v);
    if (mlirAttributeIsAInteger(a) &&
        (mlirTypeIsAIndex(t) ||
         (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64))) {
      p->kind = ROCK_PARAM_I64;
      p->value = mlirIntegerAttrGetValueInt(a);
      return true;
    }
    if (mlirAttributeIsAInteger(a) && mlirTypeIsAInteger(t) &&
        mlirIntegerTypeGetWidth(t) == 32) {
      p->kind = ROCK_PARAM_I32;
      p->value = mlirIntegerAttrGetValueInt(a);
      return true;
    }
    if (mlirAttributeIsAFloat(a) && mlirTypeIsAF32(t)) {
      float f = (float)mlirFloatAttrGetValueDouble(a);
      uint32_t bits;
      memcpy(&bits, &f, sizeof bits);
      p->kind = ROCK_PARAM_F32;
      p->value = bits;
      return true;
    }
  }
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(def));
  return fail(x->err, x->errSize,
              "@%s: a kernel operand comes from %.*s (expected a function "
              "argument, a constant or a static memref.alloc)",
              x->fn->name, (int)n.length, n.data);
}

/// The object index of gpu.binary `name`, adding it on first use.
static int objectIndex(Extract *x, MlirStringRef name) {
  RockBundle *b = x->b;
  for (int i = 0; i < b->numObjects; ++i)
    if (mlirStringRefEqual(str(b->objects[i].name), name))
      return i;
  MlirOperation bin = findSymbol(x->module, name, "gpu.binary");
  if (mlirOperationIsNull(bin) || name.length >= ROCK_BUNDLE_NAME_SIZE ||
      b->numObjects >= ROCK_BUNDLE_MAX_OBJECTS)
    return -1;
  MlirAttribute objs = mlirOperationGetAttributeByName(bin, str("objects"));
  if (mlirAttributeIsNull(objs) || !mlirAttributeIsAArray(objs) ||
      mlirArrayAttrGetNumElements(objs) < 1)
    return -1;
  MlirAttribute o = mlirArrayAttrGetElement(objs, 0);
  if (!mlirAttributeIsAGPUObjectAttr(o))
    return -1;
  uint32_t format = mlirGPUObjectAttrGetFormat(o);
  if (format != ROCK_OBJECT_PTX && format != ROCK_OBJECT_CUBIN)
    return -1;
  MlirStringRef data = mlirGPUObjectAttrGetObject(o);
  RockBundleObject *bo = &b->objects[b->numObjects];
  bo->data = malloc(data.length + 1);
  if (!bo->data)
    return -1;
  memcpy(bo->data, data.data, data.length);
  bo->data[data.length] = 0;
  bo->size = data.length;
  bo->format = (int)format;
  snprintf(bo->name, sizeof bo->name, "%.*s", (int)name.length, name.data);
  return b->numObjects++;
}

/// Reads one gpu.launch_func into the function's launches.
static bool readLaunch(Extract *x, MlirOperation op) {
  RockBundleFunc *fn = x->fn;
  if (fn->numLaunches >= ROCK_BUNDLE_MAX_LAUNCHES)
    return fail(x->err, x->errSize, "@%s has too many launches", fn->name);
  RockBundleLaunch *la = &fn->launches[fn->numLaunches++];
  MlirAttribute kernel = mlirOperationGetAttributeByName(op, str("kernel"));
  MlirAttribute seg =
      mlirOperationGetAttributeByName(op, str("operandSegmentSizes"));
  if (mlirAttributeIsNull(kernel) || !mlirAttributeIsASymbolRef(kernel) ||
      mlirSymbolRefAttrGetNumNestedReferences(kernel) != 1 ||
      mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 13)
    return fail(x->err, x->errSize,
                "@%s: unexpected gpu.launch_func form (kernel symbol or 13 "
                "operand segments)",
                fn->name);
  int32_t sizes[13];
  for (int i = 0; i < 13; ++i)
    sizes[i] = mlirDenseI32ArrayGetElement(seg, i);
  if (sizes[0] != 0 || sizes[12] != 0)
    return fail(x->err, x->errSize, "@%s: async gpu.launch_func", fn->name);
  MlirStringRef leaf = mlirSymbolRefAttrGetLeafReference(kernel);
  snprintf(la->kernel, sizeof la->kernel, "%.*s", (int)leaf.length, leaf.data);
  la->object = objectIndex(x, mlirSymbolRefAttrGetRootReference(kernel));
  if (la->object < 0)
    return fail(x->err, x->errSize,
                "@%s: kernel %s has no gpu.binary with a PTX or cubin object",
                fn->name, la->kernel);
  intptr_t at = 0; // no async dependencies (checked above)
  int64_t *dims[6] = {&la->grid[0],  &la->grid[1],  &la->grid[2],
                      &la->block[0], &la->block[1], &la->block[2]};
  for (int i = 0; i < 6; ++i, ++at)
    if (!constantInt(mlirOperationGetOperand(op, at), dims[i]))
      return fail(x->err, x->errSize,
                  "@%s: grid and block sizes must be constants", fn->name);
  if (sizes[7] + sizes[8] + sizes[9] != 0)
    return fail(x->err, x->errSize, "@%s: cluster launches are unsupported",
                fn->name);
  la->pdl = !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, str("rock.pdl")));
  la->smem = 0;
  if (sizes[10] == 1 &&
      !constantInt(mlirOperationGetOperand(op, at++), &la->smem))
    return fail(x->err, x->errSize,
                "@%s: dynamic shared memory size must be a constant", fn->name);
  if (sizes[11] > ROCK_BUNDLE_MAX_PARAMS)
    return fail(x->err, x->errSize, "@%s: too many kernel operands", fn->name);
  la->numParams = sizes[11];
  for (int i = 0; i < sizes[11]; ++i)
    if (!mapOperand(x, mlirOperationGetOperand(op, at + i), &la->params[i]))
      return false;
  return true;
}

/// The i64 array `key` of dictionary `d` into out (at most max values);
/// its length, or -1.
static int i64Array(MlirAttribute d, const char *key, int64_t *out, int max) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(d, str(key));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) > max)
    return -1;
  int n = (int)mlirDenseArrayGetNumElements(a);
  for (int i = 0; i < n; ++i)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return n;
}

static bool i64Field(MlirAttribute d, const char *key, int64_t *out) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(d, str(key));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/// A memref.alloc marked rock.tensor_map = {arg, dtype, offset, dims,
/// strides, box, swizzle} (the sm_90a prefill's TMA staging,
/// passes/gpu/attention_wgmma_tma.c): the next tensor map of the function.
static bool readTensorMap(Extract *x, MlirOperation op, MlirAttribute d) {
  RockBundleFunc *fn = x->fn;
  if (fn->numTensorMaps >= ROCK_BUNDLE_MAX_TMAPS)
    return fail(x->err, x->errSize, "@%s has too many tensor maps", fn->name);
  RockBundleTensorMap *m = &fn->tensorMaps[fn->numTensorMaps];
  if (!mlirAttributeIsADictionary(d))
    return fail(x->err, x->errSize, "@%s: rock.tensor_map is no dictionary",
                fn->name);
  MlirAttribute dt = mlirDictionaryAttrGetElementByName(d, str("dtype"));
  int64_t arg = -1, swz = -1;
  char dname[16] = "";
  if (!mlirAttributeIsNull(dt) && mlirAttributeIsAString(dt)) {
    MlirStringRef sr = mlirStringAttrGetValue(dt);
    snprintf(dname, sizeof dname, "%.*s", (int)sr.length, sr.data);
  }
  m->rank = i64Array(d, "dims", m->dims, ROCK_BUNDLE_TMAP_MAX_RANK);
  bool ok = i64Field(d, "arg", &arg) && i64Field(d, "offset", &m->offset) &&
            i64Field(d, "swizzle", &swz) && rockDTypeParse(dname, &m->dtype) &&
            m->rank >= 1 &&
            i64Array(d, "strides", m->strides, ROCK_BUNDLE_TMAP_MAX_RANK - 1) ==
                m->rank - 1 &&
            i64Array(d, "box", m->box, ROCK_BUNDLE_TMAP_MAX_RANK) == m->rank &&
            arg >= 0 && arg < fn->numArgs;
  if (!ok)
    return fail(x->err, x->errSize,
                "@%s: a malformed rock.tensor_map (arg, dtype, offset, dims, "
                "strides, box, swizzle)",
                fn->name);
  int64_t pool = 0; /* (optional: a page pool map, tma_view.h) */
  if (!mlirAttributeIsNull(
          mlirDictionaryAttrGetElementByName(d, str("pool"))) &&
      (!i64Field(d, "pool", &pool) || (pool != 0 && pool != 1)))
    return fail(x->err, x->errSize, "@%s: a malformed rock.tensor_map pool",
                fn->name);
  m->arg = (int)arg;
  m->pool = pool == 1;
  m->swizzle = (int)swz;
  x->tmaps[fn->numTensorMaps++] = op;
  return true;
}

/// Reads host function `name` (absent: skipped) into the next function.
static bool readFunc(MlirModule module, RockBundle *b, const char *name,
                     char *err, size_t errSize) {
  MlirOperation func = findSymbol(module, str(name), "func.func");
  if (mlirOperationIsNull(func))
    return true;
  RockBundleFunc *fn = &b->funcs[b->numFuncs++];
  memset(fn, 0, sizeof *fn);
  snprintf(fn->name, sizeof fn->name, "%s", name);
  Extract x = {module, b, fn, {NULL}, {{NULL}}, {{NULL}}, err, errSize};
  MlirRegion body = mlirOperationGetRegion(func, 0);
  x.entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(x.entry) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(x.entry)))
    return fail(err, errSize, "@%s must have one block after the GPU pipeline",
                name);
  fn->numArgs = (int)mlirBlockGetNumArguments(x.entry);
  if (fn->numArgs > ROCK_BUNDLE_MAX_ARGS)
    return fail(err, errSize, "@%s has too many arguments", name);
  for (int a = 0; a < fn->numArgs; ++a)
    if (!staticMemRef(mlirValueGetType(mlirBlockGetArgument(x.entry, a)),
                      &fn->args[a].numElements, &fn->args[a].dtype))
      return fail(err, errSize, "@%s argument %d is not a static memref", name,
                  a);
  for (MlirOperation op = mlirBlockGetFirstOperation(x.entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (opIs(op, "gpu.launch_func")) {
      if (!readLaunch(&x, op))
        return false;
    } else if (opIs(op, "memref.alloc") &&
               !mlirAttributeIsNull(rock__attr(op, "rock.tensor_map"))) {
      if (!readTensorMap(&x, op, rock__attr(op, "rock.tensor_map")))
        return false;
    } else if (opIs(op, "memref.alloc")) {
      int64_t n;
      RockDType dt;
      if (!staticMemRef(mlirValueGetType(mlirOperationGetResult(op, 0)), &n,
                        &dt) ||
          fn->numScratch >= ROCK_BUNDLE_MAX_SCRATCH)
        return fail(err, errSize,
                    "@%s: scratch memref.alloc must have a static shape", name);
      x.scratch[fn->numScratch] = op;
      fn->scratchZero[fn->numScratch] =
          !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
              op, mlirStringRefCreateFromCString("rock.zero_init")));
      fn->scratchBytes[fn->numScratch++] = n * (int64_t)rockDTypeGetSize(dt);
    } else if (!opIs(op, "arith.constant") && !opIs(op, "memref.dealloc") &&
               !opIs(op, "func.return") && !deadLlvmConstant(op)) {
      MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
      return fail(err, errSize,
                  "@%s holds %.*s after the GPU pipeline (only launches, "
                  "constants, allocations and return are run)",
                  name, (int)n.length, n.data);
    }
  }
  if (fn->numLaunches == 0)
    return fail(err, errSize,
                "@%s has no gpu.launch_func after the GPU "
                "pipeline",
                name);
  return true;
}

/// The pass-pipeline parser reports through a callback that must not be
/// NULL; the one-line error below says what failed.
static void ignoreMsg(MlirStringRef s, void *user) {
  (void)s;
  (void)user;
}

bool rockGpuCompile(MlirModule module, const char *arch, RockBundle *b,
                    char *err, size_t errSize) {
  return rockGpuCompileAs(module, arch, false, b, err, errSize);
}

bool rockGpuCompileAs(MlirModule module, const char *arch, bool cubin,
                      RockBundle *b, char *err, size_t errSize) {
  char tail[512];
  const char *text = cubin ? "rock-gpu-cubin-pipeline" : "rock-gpu-pipeline";
  if (hasGpuLaunch(mlirModuleGetOperation(module))) {
    tailText(arch, cubin ? "bin" : "isa", tail, sizeof tail);
    text = tail;
  }
  rockRegisterAllPasses();
  MlirPassManager pm = mlirPassManagerCreate(
      mlirOperationGetContext(mlirModuleGetOperation(module)));
  MlirLogicalResult res = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm), str(text), ignoreMsg, NULL);
  bool parsed = !mlirLogicalResultIsFailure(res);
  if (parsed)
    res = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  if (!parsed)
    return fail(err, errSize,
                "cannot build the GPU pipeline for %s (is '%s' registered?)",
                arch, text == tail ? "the upstream tail" : text);
  if (mlirLogicalResultIsFailure(res))
    return fail(err, errSize, "lowering with %s failed",
                text == tail ? "the GPU pipeline tail" : text);
  b->numFuncs = 0;
  return readFunc(module, b, "rock_attention", err, errSize) &&
         readFunc(module, b, "rock_attention_combine", err, errSize);
}
