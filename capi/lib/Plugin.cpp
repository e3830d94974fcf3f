//===- Plugin.cpp - mlir-opt dialect and pass plugin entry points ---------===//
//
// Bridges what MLIR 22's C API cannot do: the plugin ABI of
// mlir/Tools/Plugins (DialectPluginLibraryInfo, PassPluginLibraryInfo).
// The callbacks only call C.
//
//===----------------------------------------------------------------------===//
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Rock", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            MlirDialectRegistry r = wrap(registry);
            mlirDialectHandleInsertDialect(mlirGetDialectHandle__rock__(), r);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RockPasses", LLVM_VERSION_STRING,
          []() { rockRegisterAllPasses(); }};
}
