//===- host_features.c - CPU features of the JIT host --------------------===//
#include "host_features.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rock-c/Dialect.h"
#include "rock-c/Target.h"

#include <stdio.h>
#include <string.h>

bool rockCpuHasBf16Dot(const char *cpu) {
  if (cpu)
    return rockX86CpuHasFeature(mlirStringRefCreateFromCString(cpu),
                                mlirStringRefCreateFromCString("avx512bf16"));
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
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

int rockCpuVectorBits(const char *cpu) {
  if (cpu)
    return rockX86CpuHasFeature(mlirStringRefCreateFromCString(cpu),
                                mlirStringRefCreateFromCString("avx512f"))
               ? 512
               : 256;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") ? 512 : 256;
#else
  return 256;
#endif
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
