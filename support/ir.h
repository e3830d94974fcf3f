/*===- ir.h - small IR queries shared by verifiers and passes -----*- C -*-===*
 *
 * Attribute and op lookups over MLIR's C API, one copy for dialect/ and
 * passes/. Every handle is borrowed; nothing here allocates.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_IR_H
#define ROCK_SUPPORT_IR_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The attribute `name` of `op` (inherent or discardable), or a null one. */
MlirAttribute rock__attr(MlirOperation op, const char *name);
/* True when `op` carries attribute `name` (whatever its value). */
bool rock__hasAttr(MlirOperation op, const char *name);
/* Integer value of attribute `name`, or `dflt` when absent or no integer. */
int64_t rock__intAttr(MlirOperation op, const char *name, int64_t dflt);
/* Value of bool attribute `name`, or `dflt` when absent or no bool. */
bool rock__boolAttr(MlirOperation op, const char *name, bool dflt);
/* True when unit/bool attribute `name` is present and not false. */
bool rock__flagAttr(MlirOperation op, const char *name);
/* The attribute `name` of `op` or of its nearest ancestor carrying one
 * (module-level switches such as rock.no_prefetch), or a null attribute. */
MlirAttribute rock__nearestAttr(MlirOperation op, const char *name);
/* The target of `op`: the string attribute mhal.arch (rocMLIR's name) or
 * rock.arch (rock's earlier one) of `op` or of its nearest ancestor carrying
 * either, mhal.arch first at each level. `*name` (when not NULL) gets the
 * attribute's name, for diagnostics. Null when there is none. */
MlirAttribute rock__archAttr(MlirOperation op, const char **name);
/* True when `op` is not null and is named `name`. */
bool rock__isOp(MlirOperation op, const char *name);
/* The last op of `block` (null when empty). Use instead of
 * mlirBlockGetTerminator, which misses rock.yield across shared objects. */
MlirOperation rock__blockLastOp(MlirBlock block);

#ifdef __cplusplus
}
#endif

#endif
