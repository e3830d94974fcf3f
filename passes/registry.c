/*===- registry.c - rockRegisterAllPasses, rockAddCpuPipeline -------------===*
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
  rockRegisterPassPipeline(
      mlirStringRefCreateFromCString("rock-cpu-pipeline"),
      mlirStringRefCreateFromCString(
          "rock IR to the LLVM dialect for the host CPU (OpenMP workgroups)"),
      mlirStringRefCreateFromCString(rockCpuPipelineGetText()));
}

void rockRegisterAllPasses(void) { call_once(&registered, registerAll); }

MlirLogicalResult rockAddCpuPipeline(MlirOpPassManager pm) {
  rockRegisterAllPasses();
  return mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreateFromCString(rockCpuPipelineGetText()), NULL, NULL);
}
