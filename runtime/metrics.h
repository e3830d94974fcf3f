//===- metrics.h - result verification (docs/user-guide.md) -------*- C -*-===//
//
// rocMLIR's RMS / absDiff / relDiff comparison with rock's infinity and NaN
// rules, the per-dtype default thresholds, integer exact comparison, and the
// optional allclose comparator.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_METRICS_H
#define ROCK_RUNTIME_METRICS_H

#include "buffer.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Metrics of one output.
typedef struct RockMetrics {
  int64_t numElements;
  double rms;             ///< sqrt(sum d^2) / (maxMag * sqrt(N)); see rmsValid
  double maxAbsDiff;      ///< max d
  double maxRelDiff;      ///< max d/|ref| over |ref| >= the floor, ref != 0
  int64_t numRelCounted;  ///< elements maxRelDiff was taken over
  double maxMag;          ///< max over finite elements of max(|ref|, |res|)
  double refMag;          ///< max |ref| over finite elements
  int64_t numNaNMismatch; ///< elements where exactly one side is NaN
  bool rmsValid; ///< false when maxMag == 0 but some d != 0 (fails the gate)
} RockMetrics;

/// Gate results; true = pass.
typedef struct RockVerdict {
  bool rms, absDiff, relDiff;
} RockVerdict;

/// Thresholds of the three gates.
typedef struct RockThresholds {
  double rms, absDiff, relDiff;
} RockThresholds;

/// Computes the metrics of `res` against `ref` (`n` elements each, borrowed):
/// matching infinities (same sign) count as d = 0; otherwise an infinite ref
/// is replaced by +-65504; both NaN counts as d = 0; one NaN is a mismatch
/// (and is left out of the sums). maxRelDiff is taken over the elements with
/// |ref| >= `relFloor` (and ref != 0): 0 gives the raw rule, every nonzero
/// reference counts.
void rockMetricsCompute(const double *ref, const double *res, int64_t n,
                        double relFloor, RockMetrics *m);

/// What rock's default gates are derived from (docs/semantics.md §8).
typedef struct RockGateScale {
  double refMag;    ///< M: the largest finite |reference| of the output
  int64_t headDim;  ///< Dqk: the length of a score's dot product
  int64_t keys;     ///< Sk: the length of the row sums
  bool splits;      ///< splitKV > 1: partials stored in the output type and
                    ///< combined through f32 LSEs
  double lseMag;    ///< L: the largest finite |LSE| of the reference rows,
                    ///< which is also the magnitude of the scores that count
  bool exactScores; ///< Q and K hold integers whose dot products f32 holds
                    ///< exactly (integer data, i8)
  bool region;      ///< a region (scale, bias, dequantisation) rounds them
} RockGateScale;

/// The spacing of the values of float type `t` at magnitude `x` (its ulp;
/// the subnormal spacing below the normal range).
double rockDTypeUlp(RockDType t, double x);

/// rock's default thresholds for an output of float type `t` (derived from
/// its resolution at M, the accumulation length and, with splits, the f32
/// LSE resolution, docs/semantics.md §8): absDiff tau M, RMS 0.75 tau,
/// relDiff 4 tau, with tau the relative tolerance.
RockThresholds rockThresholdsDerive(RockDType t, const RockGateScale *s);

/// rock's default thresholds for the f32 LSE output: absDiff and RMS.
RockThresholds rockThresholdsDeriveLse(const RockGateScale *s);

/// The relDiff floor: |ref| below it is judged by absDiff alone. `tauAbs`
/// is the derived absDiff threshold, `relDiff` the relDiff threshold in
/// effect; the floor is tauAbs / relDiff, at most M (`refMag`).
double rockRelDiffFloor(double tauAbs, double relDiff, double refMag);

/// Writes `ref` (f64 reference values, `n` elements, borrowed) rounded to
/// the values of `outType` (rockDTypeRound) into `out` (caller-owned, `n`
/// elements; may be `ref` itself). This is what a reference computed in the
/// output type holds (rocMLIR's): a value the type cannot represent (an f64
/// 1e-77 for f16 or f32) becomes what the kernel can store (0), so it is not
/// counted as a relative error of 1, while any representable value is kept.
void rockMetricsRoundReference(RockDType outType, const double *ref,
                               double *out, int64_t n);

/// Returns rocMLIR's default thresholds for an attention output of type
/// `outType`: RMS 3e-5 (0.001 for f16/bf16), absDiff 100, relDiff 1e-6 (100
/// for f16/bf16). rock-run uses them under -pv-strict.
RockThresholds rockThresholdsGetDefault(RockDType outType);

/// Applies `t` to `m`. With `isLse` the relDiff gate cannot fail, and with
/// `rmsOnly` (rocMLIR's rule for LSE outputs, -pv-strict) neither can
/// absDiff. Any NaN mismatch fails all three gates.
RockVerdict rockMetricsGate(const RockMetrics *m, const RockThresholds *t,
                            bool isLse, bool rmsOnly);

/// Exact comparison for integer outputs: all three gates pass iff every
/// element is equal.
RockVerdict rockMetricsCompareExact(const double *ref, const double *res,
                                    int64_t n);

/// Default allclose tolerances for output type `outType` (f16, bf16, f32,
/// f64) and reduction length `k` = Dqk + Sk: atol = base + k * sumErrTol.
void rockAllcloseGetDefault(RockDType outType, int64_t k, double *atol,
                            double *rtol);

/// Returns true iff every element satisfies |res - ref| <= atol + rtol*|ref|
/// (matching infinities and matching NaNs pass). `*numBad` receives the
/// number of failing elements, `*numNaNMismatch` those with exactly one NaN
/// (either pointer may be NULL). Borrows the arrays.
bool rockAllclose(const double *ref, const double *res, int64_t n, double atol,
                  double rtol, int64_t *numBad, int64_t *numNaNMismatch);

#ifdef __cplusplus
}
#endif

#endif
