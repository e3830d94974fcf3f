/*===- pipelines.c - the texts of rock's named pipelines ------------------===*
 *
 * Data only: registry.c registers these texts and adds them to pass
 * managers (rockAddCpuPipeline, rockAddGpuPipeline).
 *
 *===----------------------------------------------------------------------===*/
#include "rock-c/Passes.h"

/* rocmlir-gen's host functions (rock-gen -pv / -ph: TOSA on tensors) to
 * linalg on buffers; a module without them is unchanged. */
#define HOST_TO_BUFFERS                                                        \
  "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"               \
  "tosa-to-tensor),"                                                           \
  "one-shot-bufferize{bufferize-function-boundaries "                          \
  "function-boundary-type-conversion=identity-layout-map},"

static const char cpuPipeline[] = HOST_TO_BUFFERS
    "rock-attention-to-gridwise,"
    "rock-lower-combine,"
    "rock-lower-gridwise-attention,"
    /* after the attention regions (whose linalg form the lowering reads) are
     * gone: the host functions' linalg ops to loops */
    "func.func(convert-linalg-to-loops),"
    "rock-lower-views,"
    "rock-fold-transforms,"
    "canonicalize,cse,"
    "convert-scf-to-openmp,"
    /* scf-to-openmp wraps each parallel body in memref.alloca_scope, which
     * must stay single-block: canonicalize inlines the scopes that hold no
     * alloca before scf-to-cf splits the bodies into blocks. */
    "canonicalize,"
    "lower-affine,"
    /* f32 -> bf16 truncation as integer rounding, in vectors: x86 CPUs
     * without AVX512-BF16 would otherwise call compiler-rt's __truncsfbf2
     * once per lane (docs/internals.md, "Narrow floats"). */
    "arith-expand{include-bf16=true},"
    "convert-scf-to-cf,"
    /* enable-amx: the amx dialect's tiles of the AMX prefill form (the
     * patterns match nothing elsewhere). */
    "convert-vector-to-llvm{enable-amx},"
    "convert-openmp-to-llvm,"
    "expand-strided-metadata,"
    "convert-math-to-llvm,"
    "convert-arith-to-llvm,"
    "finalize-memref-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-func-to-llvm,"
    "convert-ub-to-llvm,"
    "reconcile-unrealized-casts";

const char *rockCpuPipelineGetText(void) { return cpuPipeline; }

/* rock IR to gpu.launch (the rock passes; the host functions only to
 * buffers, they stay on the host), then upstream outlining, the
 * target from rock.arch, and the target's lowering and serialisation
 * (rock-gpu-to-binary: NVVM or ROCDL with bare-pointer kernel arguments;
 * docs/gpu.md says why each pass is there). */
#define GPU_PIPELINE(TAIL)                                                     \
  HOST_TO_BUFFERS                                                              \
  "rock-attention-to-gridwise,"                                                \
  "rock-combine-to-gpu,"                                                       \
  "rock-gridwise-attention-to-gpu,"                                            \
  "rock-lower-views,"                                                          \
  "rock-fold-transforms,"                                                      \
  "canonicalize,cse,"                                                          \
  "rock-gpu-async-copy,"                                                       \
  "lower-affine,"                                                              \
  "expand-strided-metadata,"                                                   \
  "gpu-launch-sink-index-computations,"                                        \
  "gpu-kernel-outlining,"                                                      \
  "rock-gpu-mark-dependents,"                                                  \
  "rock-gpu-attach-target," TAIL

static const char gpuPipeline[] = GPU_PIPELINE("rock-gpu-to-binary");
static const char gpuCubinPipeline[] = GPU_PIPELINE("rock-gpu-to-cubin");

const char *rockGpuPipelineGetText(void) { return gpuPipeline; }
const char *rockGpuCubinPipelineGetText(void) { return gpuCubinPipeline; }
