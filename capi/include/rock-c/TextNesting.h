//===- TextNesting.h - bound bracket nesting before MLIR parses --*- C -*-===//
//
// MLIR's parser recurses once per nested attribute, type or region, so a
// deeply nested text (an attribute nested 10,000 deep) overflows the stack.
// rock's tools scan the text first and refuse it with a one-line error.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_TEXTNESTING_H
#define ROCK_C_TEXTNESTING_H

#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The deepest bracket nesting rock-opt and rock-run accept (far above any
/// IR rock or rocMLIR generates, far below what overflows an 8 MiB stack,
/// sanitizer builds included).
#define ROCK_MAX_TEXT_NESTING 256

/// Returns true when brackets `( [ { <` in `text` nest at most `maxDepth`
/// deep, not counting string literals, `//` comments and the `>` of `->`.
/// Otherwise returns false and writes "line L: brackets nest deeper than N"
/// to `err` (`errSize` bytes, may be 0). Borrows `text`; never recurses.
MLIR_CAPI_EXPORTED bool rockTextCheckNesting(MlirStringRef text, int maxDepth,
                                             char *err, size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
