//===- Dialect.cpp - C API of the rock dialect ----------------------------===//
//
// The dialect handle, which MLIR 22's C API cannot define from C. The
// attribute accessors live with the dialect (dialect/lib/RockAttrsC.cpp).
//
//===----------------------------------------------------------------------===//
#include "rock-c/Dialect.h"

#include "Rock/RockOps.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::rock;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Rock, rock, mlir::rock::RockDialect)
