/*===- pipelines.c - rock's named pipelines -------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

static const char cpuPipeline[] =
    "rock-attention-to-gridwise,"
    "rock-lower-combine,"
    "rock-lower-gridwise-attention,"
    "rock-lower-views,"
    "rock-fold-transforms,"
    "canonicalize,cse,"
    "convert-scf-to-openmp,"
    /* scf-to-openmp wraps each parallel body in memref.alloca_scope, which
     * must stay single-block: canonicalize inlines the scopes that hold no
     * alloca before scf-to-cf splits the bodies into blocks. */
    "canonicalize,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-vector-to-llvm,"
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

MlirLogicalResult rockAddCpuPipeline(MlirOpPassManager pm) {
  rockRegisterAllPasses();
  return mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreateFromCString(cpuPipeline), NULL, NULL);
}

/* rock IR to gpu.launch (the rock passes), then upstream outlining, the
 * target from rock.arch, and the target's lowering and serialisation
 * (rock-gpu-to-binary: NVVM or ROCDL with bare-pointer kernel arguments). */
#define GPU_PIPELINE(TAIL)                                                     \
  "rock-attention-to-gridwise,"                                                \
  "rock-combine-to-gpu,"                                                       \
  "rock-gridwise-attention-to-gpu,"                                            \
  "rock-lower-views,"                                                          \
  "rock-fold-transforms,"                                                      \
  "canonicalize,cse,"                                                          \
  "lower-affine,"                                                              \
  "expand-strided-metadata,"                                                   \
  "gpu-launch-sink-index-computations,"                                        \
  "gpu-kernel-outlining,"                                                      \
  "rock-gpu-attach-target," TAIL

static const char gpuPipeline[] = GPU_PIPELINE("rock-gpu-to-binary");
static const char gpuCubinPipeline[] = GPU_PIPELINE("rock-gpu-to-cubin");

const char *rockGpuPipelineGetText(void) { return gpuPipeline; }
const char *rockGpuCubinPipelineGetText(void) { return gpuCubinPipeline; }

MlirLogicalResult rockAddGpuPipeline(MlirOpPassManager pm) {
  rockRegisterAllPasses();
  return mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreateFromCString(gpuPipeline), NULL, NULL);
}
