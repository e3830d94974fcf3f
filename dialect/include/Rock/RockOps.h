//===- RockOps.h - rock dialect, attributes and ops (C++) -------*- C++ -*-===//
//
// C++ declarations generated from ODS. MLIR 22's C API cannot define dialects,
// so the ODS classes live here; all logic (verification) is in C.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_ROCKOPS_H
#define ROCK_ROCKOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Rock/RockEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "Rock/RockAttrs.h.inc"
#include "Rock/RockOpsDialect.h.inc"
#define GET_OP_CLASSES
#include "Rock/RockOps.h.inc"

#endif
