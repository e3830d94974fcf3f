//===- harness_types.h - run settings of the rock.harness dictionary -*- C
//-*-===//
//
// The plain-data form of the `rock.harness` dictionary: the problem and the
// run settings. harness.h reads it from MLIR attributes; bundle.h reads it
// from a GPU bundle, without MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_HARNESS_TYPES_H
#define ROCK_RUNTIME_HARNESS_TYPES_H

#include "problem.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Run settings of the harness; `has*` flags mark optional keys present.
typedef struct RockHarness {
  RockAttnProblem problem;
  char rand[32];  ///< "distinct" (absent), "fixed", "none" or a seed
  bool randFloat; ///< rand_type float
  double randMin, randMax;
  int64_t randMinInt, randMaxInt;
  bool hasRms, hasAbsDiff, hasRelDiff, hasAtol, hasRtol;
  double rms, absDiff, relDiff, atol, rtol;
  bool allclose; ///< comparator "allclose" (or atol/rtol given)
  int64_t kernelRepeats;
  bool printResults, printInputs, printValidation;
  char printVerify[16]; ///< always / failure / summary / off
  char verifier[16];    ///< none / mlir / mlir-strict
} RockHarness;

#ifdef __cplusplus
}
#endif

#endif
