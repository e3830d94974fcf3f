//===- harness.h - the rock.harness module attribute --------------*- C -*-===//
//
// Reads the `rock.harness` dictionary that rock-gen attaches to its module
// (docs/internals.md, "rock-gen -> rock-run contract") into a problem
// description and the run settings.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_HARNESS_H
#define ROCK_RUNTIME_HARNESS_H

#include "harness_types.h"

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The `rock.harness` dictionary of `module` (borrowed): the module
/// attribute, or the attribute of its `@main` function (where rock-gen puts
/// it next to rocmlir-gen's host functions); a null attribute when neither
/// has one.
MlirAttribute rockHarnessFind(MlirModule module);

/// Fills `h` from `dict` (borrowed; must be a DictionaryAttr), starting from
/// rock-gen's defaults for absent keys. Returns false and writes a one-line
/// message to `err` (size `errSize`) if `dict` is not a dictionary, a key
/// has the wrong kind of value, a required size is missing, or the problem
/// is inconsistent (rockAttnProblemCheck).
bool rockHarnessRead(MlirAttribute dict, RockHarness *h, char *err,
                     size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
