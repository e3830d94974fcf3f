//===- RockDialect.cpp - rock dialect registration ------------------------===//
//
// Bridges what MLIR 22's C API cannot do: defining a dialect (ODS classes,
// initialize(), the alias interface).
//
//===----------------------------------------------------------------------===//
#include "Rock/RockOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rock;

#include "Rock/RockEnums.cpp.inc"
#include "Rock/RockOpsDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Rock/RockAttrs.cpp.inc"

namespace {
/// Prints transform maps as `#transform_map` aliases, as rocMLIR's IR does.
struct RockOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TransformMapAttr>(attr)) {
      os << "transform_map";
      return AliasResult::OverridableAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void RockDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Rock/RockOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Rock/RockAttrs.cpp.inc"
      >();
  addInterfaces<RockOpAsmInterface>();
}
