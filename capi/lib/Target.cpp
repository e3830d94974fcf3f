//===- Target.cpp - what LLVM knows about CPU targets ---------------------===//
//
// Bridges LLVM's X86 target parser (C++ only; LLVM's and MLIR's C APIs have
// no way to validate a CPU name or list its features) to rock-c/Target.h.
//
//===----------------------------------------------------------------------===//
#include "rock-c/Target.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

static llvm::StringRef ref(MlirStringRef s) { return {s.data, s.length}; }

bool rockX86CpuIsKnown(MlirStringRef cpu) {
  return llvm::X86::parseArchX86(ref(cpu), /*Only64Bit=*/true) !=
         llvm::X86::CK_None;
}

bool rockX86CpuHasFeature(MlirStringRef cpu, MlirStringRef feature) {
  if (!rockX86CpuIsKnown(cpu))
    return false;
  llvm::SmallVector<llvm::StringRef, 64> features;
  llvm::X86::getFeaturesForCPU(ref(cpu), features);
  for (llvm::StringRef f : features)
    if (f == ref(feature))
      return true;
  return false;
}

bool rockX86HostHasFeature(MlirStringRef feature) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto it = features.find(ref(feature));
  return it != features.end() && it->second;
}
