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
  rockRegisterPassPipeline(
      mlirStringRefCreateFromCString("rock-cpu-pipeline"),
      mlirStringRefCreateFromCString(
          "rock IR to the LLVM dialect for the host CPU (OpenMP workgroups)"),
      mlirStringRefCreateFromCString(rockCpuPipelineGetText()));
}
