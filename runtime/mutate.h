//===- mutate.h - planted wrong results, for testing the verdicts -*- C -*-===//
//
// `--testing-mutate=KIND` (rock-run and rock-run-gpu, for tests only):
// perturbs the kernel's results after it ran, the way a wrong kernel would,
// so that a test can check that the default gates fail it
// (test/Tools/rock-run-mutations.mlir). Nothing else sets a mutation.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_MUTATE_H
#define ROCK_RUNTIME_MUTATE_H

#include "reference.h"
#include "session.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum RockMutation {
  ROCK_MUTATE_NONE,
  ROCK_MUTATE_ELEMENT,   ///< "element": one output off by 1% of max |ref|
  ROCK_MUTATE_ROW_SHIFT, ///< "row-shift": row 0 sees its keys shifted by one
  ROCK_MUTATE_SCALE_IGNORED, ///< "scale-ignored": out as if scale were 1
  ROCK_MUTATE_SPLIT_DROPPED, ///< "split-dropped": split 0 never combined
  ROCK_MUTATE_LSE,           ///< "lse": one LSE off by 1e-3
} RockMutation;

/// Parses a KIND (NULL: none); false for an unknown name.
bool rockMutationParse(const char *name, RockMutation *m);

/// Applies `m` to session `s` (borrowed) at `stage` 0 (after the kernel,
/// before the combine: split-dropped) or 1 (after the reference: the
/// others); `in` is the reference's view of the inputs. Returns false with a
/// message in `err` when the problem has nothing to mutate (no scale, no
/// splits, no LSE, no mask to shift) or memory runs out.
bool rockMutationApply(RockSession *s, const RockAttnInputs *in, RockMutation m,
                       int stage, char *err, size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
