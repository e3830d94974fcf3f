/*===- registry.c - rockRegisterAllPasses, rockAdd{Cpu,Gpu}Pipeline -------===*
 *
 * Registration reads the pipeline texts of pipelines.c; nothing there calls
 * back here. C11 call_once makes registration run exactly once however many
 * threads call it.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

#include <threads.h>

static once_flag registered = ONCE_FLAG_INIT;

static void registerAll(void) {
  rockFoldTransformsPassRegister();
  rockLowerViewsPassRegister();
  rockAttentionToGridwisePassRegister();
  rockLowerGridwiseAttentionPassRegister();
  rockLowerCombinePassRegister();
  rockGridwiseAttentionToGpuPassRegister();
  rockCombineToGpuPassRegister();
  rockGpuAttachTargetPassRegister();
  rockGpuMarkDependentsPassRegister();
  rockGpuAsyncCopyPassRegister();
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

void rockRegisterAllPasses(void) { call_once(&registered, registerAll); }

MlirLogicalResult rockAddCpuPipeline(MlirOpPassManager pm) {
  rockRegisterAllPasses();
  return mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreateFromCString(rockCpuPipelineGetText()), NULL, NULL);
}

MlirLogicalResult rockAddGpuPipeline(MlirOpPassManager pm) {
  rockRegisterAllPasses();
  return mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreateFromCString(rockGpuPipelineGetText()), NULL, NULL);
}
