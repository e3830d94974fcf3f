//===- rock-opt.cpp - MlirOptMain with upstream MLIR plus rock ------------===//
//
// Bridges what MLIR 22's C API cannot do: MlirOptMain and registering every
// upstream dialect, extension, LLVM IR translation and pass.
//
// The input is read here, not by MlirOptMain, so that its bracket nesting is
// bounded (rock-c/TextNesting.h) before MLIR's recursive parser sees it: a
// pre-scan works for files and stdin alike, costs one linear pass, and gives
// a one-line error, where a big-stack parser thread would only move the
// depth at which the stack overflows.
//
//===----------------------------------------------------------------------===//
#include "Rock/RockOps.h"
#include "rock-c/Passes.h"
#include "rock-c/TextNesting.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates gpu.module / NVVM to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  registry.insert<mlir::rock::RockDialect>();
  rockRegisterAllPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "rock optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &message);
  if (!file) {
    llvm::errs() << "rock-opt: error: " << message << "\n";
    return 1;
  }
  char err[256];
  llvm::StringRef text = file->getBuffer();
  if (!rockTextCheckNesting({text.data(), text.size()}, ROCK_MAX_TEXT_NESTING,
                            err, sizeof err)) {
    llvm::errs() << "rock-opt: error: " << inputFilename << ": " << err << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << "rock-opt: error: " << message << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
