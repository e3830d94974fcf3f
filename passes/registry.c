/*===- registry.c - rockRegisterAllPasses ---------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

#include <stdbool.h>

void rockRegisterAllPasses(void) {
  static bool done = false;
  if (done)
    return;
  done = true;
  rockFoldTransformsPassRegister();
  rockLowerViewsPassRegister();
  rockAttentionToGridwisePassRegister();
  rockLowerGridwiseAttentionPassRegister();
  rockLowerCombinePassRegister();
  rockGridwiseAttentionToGpuPassRegister();
  rockCombineToGpuPassRegister();
  rockGpuAttachTargetPassRegister();
  rockGpuToLlvmPassRegister();
  rockAccelGemmPassRegister();
  rockGpuToBinaryPassRegister();
  rockGpuToCubinPassRegister();
  rockRegisterPassPipeline(
      mlirStringRefCreateFromCString("rock-cpu-pipeline"),
      mlirStringRefCreateFromCString(
          "rock IR to the LLVM dialect for the host CPU (OpenMP workgroups)"),
      mlirStringRefCreateFromCString(rockCpuPipelineGetText()));
  rockRegisterPassPipeline(
      mlirStringRefCreateFromCString("rock-gpu-pipeline"),
      mlirStringRefCreateFromCString(
          "rock IR to gpu.binary (PTX, or an hsaco for AMD) for the module's "
          "rock.arch"),
      mlirStringRefCreateFromCString(rockGpuPipelineGetText()));
  rockRegisterPassPipeline(
      mlirStringRefCreateFromCString("rock-gpu-cubin-pipeline"),
      mlirStringRefCreateFromCString(
          "rock-gpu-pipeline with a cubin from ptxas (CUDA toolkit needed)"),
      mlirStringRefCreateFromCString(rockGpuCubinPipelineGetText()));
}
