//===- host_features.c - CPU features of the JIT host --------------------===//
#define _DEFAULT_SOURCE /* syscall */
#include "host_features.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rock-c/Dialect.h"
#include "rock-c/Target.h"

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

bool rockCpuHasFeature(const char *cpu, const char *feature) {
  MlirStringRef f = mlirStringRefCreateFromCString(feature);
  return cpu ? rockX86CpuHasFeature(mlirStringRefCreateFromCString(cpu), f)
             : rockX86HostHasFeature(f);
}

bool rockCpuHasBf16Dot(const char *cpu) {
  return rockCpuHasFeature(cpu, "avx512bf16");
}

/* Linux's arch_prctl request for the AMX tile data state (asm/prctl.h,
 * arch/x86/include/uapi/asm/prctl.h; glibc has no wrapper). */
#define ROCK_ARCH_REQ_XCOMP_PERM 0x1023
#define ROCK_XFEATURE_XTILEDATA 18

bool rockAmxPermit(void) {
  static int state; /* 0: not asked, 1: granted, -1: refused */
  if (!state) {
#if defined(__linux__) && defined(__x86_64__)
    state = syscall(SYS_arch_prctl, ROCK_ARCH_REQ_XCOMP_PERM,
                    ROCK_XFEATURE_XTILEDATA) == 0
                ? 1
                : -1;
#else
    state = -1;
#endif
  }
  return state > 0;
}

bool rockCpuHasAmx(const char *cpu) {
  if (!rockCpuHasFeature(cpu, "amx-tile") ||
      !rockCpuHasFeature(cpu, "amx-bf16") ||
      !rockCpuHasFeature(cpu, "amx-int8"))
    return false;
  /* On a host with AMX the kernel needs the permission, whatever CPU it is
   * compiled for; a named AMX CPU on a host without it is compiled for
   * (rock-opt-like checks of the code), and faults on its first tile
   * instruction, as AVX-512 code does on an AVX2 host. */
  if (rockX86HostHasFeature(mlirStringRefCreateFromCString("amx-tile")))
    return rockAmxPermit();
  return cpu != NULL;
}

bool rockCpuHasVnni(const char *cpu) {
  return rockCpuHasFeature(cpu, "avx512vnni") &&
         rockCpuHasFeature(cpu, "avx512bw");
}

typedef struct Walk {
  bool add;      // add `dot`
  bool needsDot; // some op asks for `dot`
  int pass;      // 0: inspect, 1: rewrite
} Walk;

static bool isAttentionOp(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return (n.length == 14 && !strncmp(n.data, "rock.attention", 14)) ||
         (n.length == 23 && !strncmp(n.data, "rock.gridwise_attention", 23));
}

static MlirWalkResult visit(MlirOperation op, void *ud) {
  Walk *w = ud;
  if (!isAttentionOp(op))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirStringRefCreateFromCString("features");
  MlirAttribute f = mlirOperationGetAttributeByName(op, name);
  int64_t bits = mlirAttributeIsNull(f) ? 0 : rockGemmFeaturesAttrGetValue(f);
  if (bits < 0)
    bits = 0;
  if (w->pass == 0) {
    w->needsDot = w->needsDot || (bits & ROCK_GEMM_FEATURE_DOT);
  } else if (w->add && !(bits & ROCK_GEMM_FEATURE_DOT)) {
    mlirOperationSetAttributeByName(
        op, name,
        rockGemmFeaturesAttrGet(mlirOperationGetContext(op),
                                (uint32_t)(bits | ROCK_GEMM_FEATURE_DOT)));
  }
  return MlirWalkResultAdvance;
}

bool rockHostFeaturesApply(MlirModule module, bool enable, const char *cpu,
                           char *err, size_t errSize) {
  bool host = rockCpuHasBf16Dot(cpu);
  Walk w = {enable && host, false, 0};
  MlirOperation m = mlirModuleGetOperation(module);
  mlirOperationWalk(m, visit, &w, MlirWalkPreOrder);
  if (w.needsDot && !host) {
    snprintf(err, errSize,
             "the module's GemmFeatures include `dot` (AVX512-BF16 dot "
             "products on the CPU) but %s lacks avx512bf16",
             cpu ? cpu : "this CPU");
    return false;
  }
  w.pass = 1;
  if (w.add)
    mlirOperationWalk(m, visit, &w, MlirWalkPreOrder);
  return true;
}

/* Sets the unit attribute `name` on `m` when `add`; fails when `m` has it
 * and the CPU cannot execute what it allows (`has` false). */
static bool unitFeature(MlirOperation m, const char *name, bool add, bool has,
                        const char *what, const char *cpu, char *err,
                        size_t errSize) {
  MlirStringRef n = mlirStringRefCreateFromCString(name);
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(m, n)) && !has) {
    snprintf(err, errSize, "the module has `%s` (%s) but %s lacks it", name,
             what, cpu ? cpu : "this CPU");
    return false;
  }
  if (add && has)
    mlirOperationSetAttributeByName(
        m, n, mlirUnitAttrGet(mlirOperationGetContext(m)));
  return true;
}

bool rockCpuMatrixApply(MlirModule module, bool enable, const char *cpu,
                        char *err, size_t errSize) {
  MlirOperation m = mlirModuleGetOperation(module);
  return unitFeature(m, "rock.amx", enable, rockCpuHasAmx(cpu),
                     "AMX-BF16 / AMX-INT8 tiles", cpu, err, errSize) &&
         unitFeature(m, "rock.vnni", enable, rockCpuHasVnni(cpu),
                     "AVX512-VNNI dot products", cpu, err, errSize);
}

int rockCpuVectorBits(const char *cpu) {
  return rockCpuHasFeature(cpu, "avx512f") ? 512 : 256;
}

int64_t rockCpuVectorBitsApply(MlirModule module, const char *cpu) {
  MlirOperation m = mlirModuleGetOperation(module);
  MlirStringRef name = mlirStringRefCreateFromCString("rock.vector_bits");
  MlirAttribute a = mlirOperationGetAttributeByName(m, name);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
    return mlirIntegerAttrGetValueInt(a);
  MlirContext ctx = mlirModuleGetContext(module);
  int64_t bits = rockCpuVectorBits(cpu);
  mlirOperationSetAttributeByName(
      m, name, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), bits));
  return bits;
}
