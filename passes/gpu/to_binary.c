/*===- to_binary.c - rock-gpu-to-{llvm,binary,cubin} ----------------------===*
 *
 * The target-specific tail of rock's GPU pipeline, chosen from the module's
 * `rock.arch` (rockGpuTargetParse) after rock-gpu-attach-target: C passes take
 * no options, so this pass builds the upstream pipeline with the chip in its
 * options and runs it on the module in a nested pass manager.
 *   NVIDIA: gpu.module(convert-scf-to-cf, convert-nvgpu-to-nvvm,
 *           convert-arith-to-llvm, convert-gpu-to-nvvm{bare pointers}[,
 *           convert-nvvm-to-llvm for sm_<N>a, and for sm_90 kernels that
 *           hold wgmma (rock__gpuChip): wgmma is PTX inline asm]),
 *           reconcile-unrealized-casts; the dynamic workgroup memory
 *           made external; gpu-module-to-binary{format=isa (PTX) | bin
 *           (cubin)}
 *   AMD:    gpu.module(convert-scf-to-cf, convert-arith-to-llvm,
 *           convert-amdgpu-to-rocdl{chipset}, convert-gpu-to-rocdl{chipset
 *           runtime=HIP bare pointers}), reconcile-unrealized-casts,
 *           gpu-module-to-binary{format=bin toolkit=DIR}  (an hsaco)
 * DIR is a ROCm-layout toolkit (amdgcn/bitcode, llvm/bin/ld.lld): the
 * module's string attribute rock.rocm_toolkit, else the one the build made
 * (ROCK_ROCM_TOOLKIT_DIR, a compile definition). rock-gpu-to-binary gives
 * PTX for NVIDIA; rock-gpu-to-cubin a cubin (ptxas needed); both give an
 * hsaco for AMD; rock-gpu-to-llvm stops before the serialisation (the
 * gpu.modules in the LLVM dialect with NVVM / ROCDL ops, for tests). One
 * pass with its mode bound three ways.
 *
 * The GPU lowering spells the hardware's approximate exp2 / log2 with NVVM's
 * intrinsic names; for AMD the tail renames them to llvm.amdgcn.exp2 /
 * llvm.amdgcn.log (v_exp_f32 / v_log_f32), so no device library call is left.
 * Before the tail, every workgroup attribution gets 16-byte alignment.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ROCK_ROCM_TOOLKIT_DIR
#define ROCK_ROCM_TOOLKIT_DIR ""
#endif

/* The toolkit of `root`: its module attribute rock.rocm_toolkit (a
 * string; rock-gen --module-attr rock.rocm_toolkit='"/opt/rocm"'), else the
 * build's. Copied into `buf` (len bytes). */
static const char *rocmToolkit(MlirOperation root, char *buf, size_t len) {
  MlirAttribute a = rock__attr(root, "rock.rocm_toolkit");
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    MlirStringRef v = mlirStringAttrGetValue(a);
    snprintf(buf, len, "%.*s", (int)v.length, v.data);
  } else {
    snprintf(buf, len, "%s", ROCK_ROCM_TOOLKIT_DIR);
  }
  return buf;
}

/* Renames NVVM's approximate exp2 / log2 intrinsics to AMDGCN's. */
static void retargetIntrinsics(MlirOperation root) {
  static const char *const map[][2] = {
      {"llvm.nvvm.ex2.approx.ftz.f", "llvm.amdgcn.exp2"},
      {"llvm.nvvm.ex2.approx.f", "llvm.amdgcn.exp2"},
      {"llvm.nvvm.lg2.approx.ftz.f", "llvm.amdgcn.log"},
      {"llvm.nvvm.lg2.approx.f", "llvm.amdgcn.log"},
  };
  intptr_t n = 0;
  MlirOperation *ops = rock__collectOps(root, "llvm.call_intrinsic", &n);
  MlirContext ctx = mlirOperationGetContext(root);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute a = rock__attr(ops[i], "intrin");
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
      continue;
    MlirStringRef s = mlirStringAttrGetValue(a);
    for (size_t k = 0; k < sizeof map / sizeof map[0]; ++k)
      if (strlen(map[k][0]) == s.length &&
          !strncmp(s.data, map[k][0], s.length))
        mlirOperationSetAttributeByName(
            ops[i], mlirStringRefCreateFromCString("intrin"),
            mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(map[k][1])));
  }
  free(ops);
}

typedef enum Mode { TO_LLVM, TO_BINARY, TO_CUBIN } Mode;

/* The lowering to the LLVM dialect (`lower`) and, unless mode is TO_LLVM,
 * the serialisation (`ser`; "" otherwise), as anchored pipelines. */
static bool tailText(MlirOperation root, const RockGpuTarget *t, bool sma,
                     Mode mode, char *lower, char *ser, size_t size, char *err,
                     size_t errSize) {
  ser[0] = '\0';
  if (t->vendor == ROCK_GPU_NVIDIA) {
    /* sm_<N>a: the architecture-specific ops (wgmma) are PTX inline asm. */
    snprintf(lower, size,
             "builtin.module(gpu.module(convert-scf-to-cf,convert-nvgpu-to-"
             "nvvm,convert-arith-to-llvm,convert-gpu-to-nvvm{use-bare-ptr-"
             "memref-call-conv=1}%s),reconcile-unrealized-casts)",
             sma ? ",convert-nvvm-to-llvm" : "");
    if (mode != TO_LLVM)
      snprintf(ser, size, "builtin.module(gpu-module-to-binary{format=%s})",
               mode == TO_CUBIN ? "bin" : "isa");
    return true;
  }
  snprintf(
      lower, size,
      "builtin.module(gpu.module(convert-scf-to-cf,convert-arith-to-llvm,"
      "convert-amdgpu-to-rocdl{chipset=%s},convert-gpu-to-rocdl{chipset=%s "
      "runtime=HIP use-bare-ptr-memref-call-conv=1}),"
      "reconcile-unrealized-casts)",
      t->chip, t->chip);
  if (mode == TO_LLVM)
    return true;
  char tkBuf[2048];
  const char *tk = rocmToolkit(root, tkBuf, sizeof tkBuf);
  char probe[4096];
  snprintf(probe, sizeof probe, "%s/amdgcn/bitcode/ocml.bc", tk);
  char lld[4096];
  snprintf(lld, sizeof lld, "%s/llvm/bin/ld.lld", tk);
  if (!*tk || access(probe, R_OK) || access(lld, X_OK)) {
    snprintf(err, errSize,
             "AMD code objects need a ROCm-layout toolkit with "
             "amdgcn/bitcode/ocml.bc and llvm/bin/ld.lld (Debian: "
             "rocm-device-libs, lld-22); '%s' has none: set the module "
             "attribute rock.rocm_toolkit",
             tk);
    return false;
  }
  snprintf(ser, size,
           "builtin.module(gpu-module-to-binary{format=bin toolkit=%s})", tk);
  return true;
}

/* The dynamic workgroup memory the GPU lowering declares (an internal
 * zero-length array per gpu.module) made external: NVPTX would otherwise
 * demote it to a 1-byte static variable in front of the dynamic block
 * instead of `.extern .shared .b8 name[]` at the block's start. */
static void externDynamicShared(MlirOperation root) {
  intptr_t n = 0;
  MlirOperation *gs = rock__collectOps(root, "llvm.mlir.global", &n);
  MlirContext ctx = mlirOperationGetContext(root);
  MlirAttribute ext = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#llvm.linkage<external>"));
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute name = rock__attr(gs[i], "sym_name");
    if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name) &&
        !strncmp(mlirStringAttrGetValue(name).data, "__dynamic_shmem__", 17))
      mlirOperationSetAttributeByName(
          gs[i], mlirStringRefCreateFromCString("linkage"), ext);
  }
  free(gs);
}

/* Workgroup buffers aligned to 16 bytes (`llvm.align` on every workgroup
 * attribution of each gpu.func that has none): ldmatrix rows and cp.async
 * destinations need 16-byte addresses, and the lowering otherwise gives a
 * byte buffer alignment 1. */
static void alignWorkgroup(MlirOperation root) {
  intptr_t n = 0;
  MlirOperation *fns = rock__collectOps(root, "gpu.func", &n);
  MlirContext ctx = mlirOperationGetContext(root);
  MlirStringRef count =
      mlirStringRefCreateFromCString("workgroup_attributions");
  MlirStringRef attrs =
      mlirStringRefCreateFromCString("workgroup_attrib_attrs");
  MlirAttribute dict = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("{llvm.align = 16 : i64}"));
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute c = mlirOperationGetAttributeByName(fns[i], count);
    if (mlirAttributeIsNull(c) || !mlirAttributeIsAInteger(c) ||
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(fns[i], attrs)))
      continue;
    intptr_t k = (intptr_t)mlirIntegerAttrGetValueInt(c);
    if (k <= 0 || k > 16)
      continue;
    MlirAttribute ds[16];
    for (intptr_t j = 0; j < k; ++j)
      ds[j] = dict;
    mlirOperationSetAttributeByName(fns[i], attrs,
                                    mlirArrayAttrGet(ctx, k, ds));
  }
  free(fns);
}

static void appendText(MlirStringRef s, void *ud) {
  rock__strAppendf(ud, "%.*s", (int)s.length, s.data);
}

/* Parses the anchored pipeline `text` and runs it on `root`; false after
 * signalling `pass` failure. */
static bool runText(MlirOperation root, MlirExternalPass pass,
                    const char *text) {
  MlirContext ctx = mlirOperationGetContext(root);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  RockStr why = {0};
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString(text), appendText, &why);
  if (mlirLogicalResultIsFailure(parsed)) {
    mlirPassManagerDestroy(pm);
    rock__passFail(pass, root, "rock internal error: GPU tail %s: %s", text,
                   why.data ? why.data : "");
    rock__strFree(&why);
    return false;
  }
  rock__strFree(&why);
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, root);
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(r)) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  return true;
}

static void runTail(MlirOperation root, MlirExternalPass pass, Mode mode) {
  char err[512], lower[6144], ser[6144], chip[24];
  RockGpuTarget t;
  if (!rock__gpuArch(root, pass, &t))
    return;
  rock__gpuChip(root, &t, chip, sizeof chip);
  bool sma = t.vendor == ROCK_GPU_NVIDIA && chip[strlen(chip) - 1] == 'a';
  if (!tailText(root, &t, sma, mode, lower, ser, sizeof lower, err,
                sizeof err)) {
    rock__passFail(pass, root, "%s", err);
    return;
  }
  if (t.vendor == ROCK_GPU_AMD)
    retargetIntrinsics(root);
  alignWorkgroup(root);
  if (!runText(root, pass, lower))
    return;
  if (t.vendor == ROCK_GPU_NVIDIA)
    externDynamicShared(root);
  if (ser[0])
    (void)runText(root, pass, ser);
}

static void runLlvm(MlirOperation root, MlirExternalPass pass) {
  runTail(root, pass, TO_LLVM);
}
static void runPtx(MlirOperation root, MlirExternalPass pass) {
  runTail(root, pass, TO_BINARY);
}
static void runCubin(MlirOperation root, MlirExternalPass pass) {
  runTail(root, pass, TO_CUBIN);
}

static const RockPassDef defLlvm = {
    "RockGpuToLlvm", "rock-gpu-to-llvm",
    "lower the gpu.modules for rock.arch to the LLVM dialect (NVVM / ROCDL)",
    "builtin.module", runLlvm};
static const RockPassDef defPtx = {
    "RockGpuToBinary", "rock-gpu-to-binary",
    "lower the gpu.modules for rock.arch and serialise them (PTX / hsaco)",
    "builtin.module", runPtx};
static const RockPassDef defCubin = {
    "RockGpuToCubin", "rock-gpu-to-cubin",
    "rock-gpu-to-binary with a cubin for NVIDIA (ptxas needed)",
    "builtin.module", runCubin};

MlirPass rockGpuToLlvmPassCreate(void) { return rock__passCreate(&defLlvm); }
void rockGpuToLlvmPassRegister(void) { rock__passRegister(&defLlvm); }
MlirPass rockGpuToBinaryPassCreate(void) { return rock__passCreate(&defPtx); }
void rockGpuToBinaryPassRegister(void) { rock__passRegister(&defPtx); }
MlirPass rockGpuToCubinPassCreate(void) { return rock__passCreate(&defCubin); }
void rockGpuToCubinPassRegister(void) { rock__passRegister(&defCubin); }
