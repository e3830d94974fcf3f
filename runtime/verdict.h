//===- verdict.h - the gates of one verified run ------------------*- C -*-===//
//
// How rock-run and rock-run-gpu judge an output against the reference
// (docs/user-guide.md §3.4, docs/semantics.md §8): the thresholds in effect
// (explicit ones exactly as given, the others derived from the output type's
// resolution, or rocMLIR's under -pv-strict), the relDiff floor, and the -v
// lines.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_VERDICT_H
#define ROCK_RUNTIME_VERDICT_H

#include "harness_types.h"
#include "metrics.h"
#include "run_options.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The gates of one run: explicit thresholds (command line over harness),
/// the rule, the comparator, and what the derived defaults scale with.
typedef struct RockGates {
  bool hasRms, hasAbsDiff, hasRelDiff;
  double rms, absDiff, relDiff;
  /// -pv-strict: rocMLIR's default thresholds and the raw relDiff rule (no
  /// floor; the LSE judged by RMS alone).
  bool strict;
  bool allclose;
  double atol, rtol;
  RockDType valueType; ///< the output's type
  RockGateScale scale; ///< length, splits and LSE magnitude; M per output
} RockGates;

/// Resolves the gates of harness `h` under command line `o` (both borrowed);
/// `lseMag` is the largest finite |LSE| of the reference rows (0 if none),
/// `exactScores` whether f32 holds the scores' dot products exactly.
RockGates rockGatesResolve(const RockHarness *h, const RockRunOptions *o,
                           double lseMag, bool exactScores);

/// Judges one output: `res` (`n` elements) against `ref64`, the f64
/// reference rounded to `outType` (what a reference computed in that type
/// holds); `isLse` selects the LSE's gates. With `details` prints the
/// metrics, the thresholds, the relDiff floor and the figures against
/// `plain64` (the f64 reference without intermediate roundings; NULL:
/// `ref64`). All arrays are borrowed.
RockVerdict rockVerifyOutput(const char *name, const double *ref64,
                             const double *plain64, const double *res,
                             int64_t n, bool isLse, RockDType outType,
                             const RockGates *g, bool details);

#ifdef __cplusplus
}
#endif

#endif
