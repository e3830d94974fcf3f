//===- RegistryShim.cpp - global registration of C passes and pipelines ---===//
//
// Bridges what MLIR 22's C API cannot do: registering a pass or a named
// pipeline in the global registry (upstream adds mlirRegisterExternalPass
// after 22). Wrapping only.
//
//===----------------------------------------------------------------------===//
#include "rock-c/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassRegistry.h"

#include <string>
#include <vector>

void rockRegisterExternalPass(MlirTypeID passID, MlirStringRef name,
                              MlirStringRef argument, MlirStringRef description,
                              MlirStringRef opName, intptr_t nDependentDialects,
                              MlirDialectHandle *dependentDialects,
                              MlirExternalPassCallbacks callbacks,
                              void *userData) {
  std::string n(name.data, name.length), a(argument.data, argument.length),
      d(description.data, description.length), o(opName.data, opName.length);
  std::vector<MlirDialectHandle> deps(dependentDialects,
                                      dependentDialects + nDependentDialects);
  mlir::registerPass([=]() mutable {
    MlirPass p = mlirCreateExternalPass(
        passID, mlirStringRefCreate(n.data(), n.size()),
        mlirStringRefCreate(a.data(), a.size()),
        mlirStringRefCreate(d.data(), d.size()),
        mlirStringRefCreate(o.data(), o.size()), (intptr_t)deps.size(),
        deps.data(), callbacks, callbacks.clone(userData));
    return std::unique_ptr<mlir::Pass>(unwrap(p));
  });
}

void rockRegisterPassPipeline(MlirStringRef argument, MlirStringRef description,
                              MlirStringRef elements) {
  // PassPipelineRegistration keeps references to its strings: give it copies
  // that live as long as the process.
  auto *arg = new std::string(argument.data, argument.length);
  auto *desc = new std::string(description.data, description.length);
  std::string text(elements.data, elements.length);
  mlir::PassPipelineRegistration<>(*arg, *desc,
                                   [text](mlir::OpPassManager &pm) {
                                     (void)mlir::parsePassPipeline(text, pm);
                                   });
}
