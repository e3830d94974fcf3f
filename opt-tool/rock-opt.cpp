//===- rock-opt.cpp - MlirOptMain with upstream MLIR plus rock ------------===//
//
// Bridges what MLIR 22's C API cannot do: MlirOptMain and registering every
// upstream dialect, extension, LLVM IR translation and pass.
//
//===----------------------------------------------------------------------===//
#include "Rock/RockOps.h"
#include "rock-c/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates gpu.module / NVVM to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  registry.insert<mlir::rock::RockDialect>();
  rockRegisterAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "rock optimizer driver\n", registry));
}
