// RUN: rock-runtime-metrics-test | FileCheck %s
/* Verification metrics (docs/user-guide.md §3.4) against hand-computed values.
 */
#include "metrics.h"

#include <math.h>
#include <stdio.h>

static void gate(const char *name, const double *ref, const double *res, int n,
                 RockDType t, bool lse) {
  RockMetrics m;
  rockMetricsCompute(ref, res, n, 0.0, &m);
  RockThresholds th = rockThresholdsGetDefault(t);
  RockVerdict v = rockMetricsGate(&m, &th, lse, lse);
  printf("%s: rms %.8f abs %g rel %g mag %g nan %lld -> %d %d %d\n", name,
         m.rms, m.maxAbsDiff, m.maxRelDiff, m.maxMag,
         (long long)m.numNaNMismatch, v.rms, v.absDiff, v.relDiff);
}

int main(void) {
  // TEST: RMS = sqrt(0.25) / (2.5 * sqrt(2)) = 0.14142136, rel = 0.5 / 2
  const double r1[] = {1, 2}, s1[] = {1, 2.5};
  gate("rms", r1, s1, 2, ROCK_DTYPE_F32, false);
  // CHECK: rms: rms 0.14142136 abs 0.5 rel 0.25 mag 2.5 nan 0 -> 0 1 0
  gate("identical", r1, r1, 2, ROCK_DTYPE_F32, false);
  // CHECK: identical: rms 0.00000000 abs 0 rel 0 mag 2 nan 0 -> 1 1 1

  // TEST: NaN in the result fails all three gates, also for LSE
  const double s2[] = {1, NAN};
  gate("nan", r1, s2, 2, ROCK_DTYPE_F16, false);
  // CHECK: nan: rms 0.00000000 abs 0 rel 0 mag 1 nan 1 -> 0 0 0
  gate("nan lse", r1, s2, 2, ROCK_DTYPE_F32, true);
  // CHECK: nan lse: {{.*}} -> 0 0 0
  const double rn[] = {NAN}, sn[] = {NAN};
  gate("both nan", rn, sn, 1, ROCK_DTYPE_F32, false);
  // CHECK: both nan: {{.*}} nan 0 -> 1 1 1

  // TEST: matching -inf passes; -inf against 0 is 65504 off
  const double r3[] = {-INFINITY, 1}, s3[] = {-INFINITY, 1};
  gate("match -inf", r3, s3, 2, ROCK_DTYPE_F32, false);
  // CHECK: match -inf: rms 0.00000000 abs 0 rel 0 mag 1 nan 0 -> 1 1 1
  const double s4[] = {0, 1};
  gate("-inf vs 0", r3, s4, 2, ROCK_DTYPE_F32, false);
  // CHECK: -inf vs 0: {{.*}} abs 65504 rel 1 mag 1 nan 0 -> 0 0 0
  const double s5[] = {INFINITY, 1};
  gate("-inf vs inf", r3, s5, 2, ROCK_DTYPE_F32, false);
  // CHECK: -inf vs inf: {{.*}} abs inf {{.*}} -> 0 0 0

  // TEST: maxMag == 0
  const double z[] = {0, 0, -INFINITY}, zz[] = {0, 0, -INFINITY};
  gate("all zero", z, zz, 3, ROCK_DTYPE_F32, false);
  // CHECK: all zero: rms 0.00000000 abs 0 rel 0 mag 0 nan 0 -> 1 1 1
  const double zi[] = {0, 0, INFINITY};
  gate("zero vs inf", z, zi, 3, ROCK_DTYPE_F32, false);
  // CHECK: zero vs inf: {{.*}} mag 0 nan 0 -> 0 0 0

  // TEST: a reference rounded to the output type: a row whose f64 values
  // underflow f16 (the kernel stores 0) passes; a wrong tiny value that f16
  // can hold (6.1e-5 is its smallest normal) still fails relDiff.
  const double r7[] = {0.5, 1e-77, 1e-115, 3e-9}, s7[] = {0.5, 0, 0, 0};
  double q7[4];
  rockMetricsRoundReference(ROCK_DTYPE_F16, r7, q7, 4);
  printf("rounded f16: %g %g %g %g\n", q7[0], q7[1], q7[2], q7[3]);
  // CHECK: rounded f16: 0.5 0 0 0
  gate("f64 underflow", r7, s7, 4, ROCK_DTYPE_F32, false);
  // CHECK: f64 underflow: {{.*}} rel 1 {{.*}} -> 1 1 0
  gate("f16 underflow", q7, s7, 4, ROCK_DTYPE_F32, false);
  // CHECK: f16 underflow: {{.*}} rel 0 {{.*}} -> 1 1 1
  const double r8[] = {0.5, 6.103515625e-05}, s8[] = {0.5, 0};
  double q8[2];
  rockMetricsRoundReference(ROCK_DTYPE_F16, r8, q8, 2);
  gate("f16 wrong tiny", q8, s8, 2, ROCK_DTYPE_F32, false);
  // CHECK: f16 wrong tiny: {{.*}} rel 1 {{.*}} -> 0 1 0
  // The same for f32: 1e-46 is below its smallest subnormal, 2^-100 is not.
  const double r9[] = {1, 1e-46, 0x1p-100}, s9[] = {1, 0, 0x1p-100};
  double q9[3];
  rockMetricsRoundReference(ROCK_DTYPE_F32, r9, q9, 3);
  gate("f32 underflow", q9, s9, 3, ROCK_DTYPE_F32, false);
  // CHECK: f32 underflow: {{.*}} rel 0 {{.*}} -> 1 1 1
  const double s10[] = {1, 0, 0};
  gate("f32 wrong tiny", q9, s10, 3, ROCK_DTYPE_F32, false);
  // CHECK: f32 wrong tiny: {{.*}} rel 1 {{.*}} -> 1 1 0
  // In place, and bf16 (8 exponent bits: 1e-30 survives, 1e-45 does not).
  double r11[] = {1e-30, 1e-45};
  rockMetricsRoundReference(ROCK_DTYPE_BF16, r11, r11, 2);
  printf("rounded bf16: %.2g %g\n", r11[0], r11[1]);
  // CHECK: rounded bf16: 1e-30 0

  // TEST: LSE under rocMLIR's rule (-pv-strict): only the RMS gate applies
  const double r6[] = {100, 1000}, s6[] = {100, 1000.01};
  gate("lse", r6, s6, 2, ROCK_DTYPE_F32, true);
  // CHECK: lse: {{.*}} -> 1 1 1
  gate("not lse", r6, s6, 2, ROCK_DTYPE_F32, false);
  // CHECK: not lse: {{.*}} -> 1 1 0
  // rock's LSE gates: RMS and absDiff, never relDiff.
  RockMetrics ml;
  rockMetricsCompute(r6, s6, 2, 0.0, &ml);
  RockThresholds tl = {1.0, 0.001, 0.0};
  RockVerdict vl = rockMetricsGate(&ml, &tl, true, false);
  printf("lse gates %d %d %d\n", vl.rms, vl.absDiff, vl.relDiff);
  // CHECK: lse gates 1 0 1

  // TEST: ulps: 1 in f16 is 2^-10, 5 in bf16 2^-5, 0 the smallest subnormal
  printf("ulp %g %g %g %g %g\n", rockDTypeUlp(ROCK_DTYPE_F16, 1.0),
         rockDTypeUlp(ROCK_DTYPE_BF16, 5.0), rockDTypeUlp(ROCK_DTYPE_F32, 0.75),
         rockDTypeUlp(ROCK_DTYPE_F16, 0.0), rockDTypeUlp(ROCK_DTYPE_F16, 1e-7));
  // CHECK: ulp 0.000976562 0.03125 5.96046e-08 5.96046e-08 5.96046e-08

  // TEST: derived gates (docs/semantics.md §8). bf16, M = 5 (ulp 2^-5),
  // Dqk 64 + Sk 192, exact scores, no split, L = 0:
  // tau = 1.25 * 2^-5 / 5 + 4 * 16 * 2^-24 = 0.0078163; absDiff tau M,
  // RMS 0.75 tau, relDiff 4 tau.
  RockGateScale sc = {5.0, 64, 192, false, 0.0, true, false};
  RockThresholds td = rockThresholdsDerive(ROCK_DTYPE_BF16, &sc);
  printf("bf16 derived %.6g %.6g %.6g\n", td.rms, td.absDiff, td.relDiff);
  // CHECK: bf16 derived 0.00586224 0.0390816 0.0312653
  // 1% of M (0.05) is over it; one ulp at M (0.03125) is not.
  // A split adds one more rounding of the output: 2.25 ulps.
  sc.splits = true;
  td = rockThresholdsDerive(ROCK_DTYPE_BF16, &sc);
  printf("bf16 split absDiff %.6g\n", td.absDiff);
  // CHECK: bf16 split absDiff 0.0703316
  // f32, M = 1, inexact scores of magnitude L = 100 with a region: 3 sqrt(64)
  // u L + 2 u L = 2600 u on top of 1.25 * 2^-23 + 64 u.
  RockGateScale s32 = {1.0, 64, 192, false, 100.0, false, true};
  td = rockThresholdsDerive(ROCK_DTYPE_F32, &s32);
  printf("f32 derived absDiff %.6g\n", td.absDiff);
  // CHECK: f32 derived absDiff 0.000158936
  s32.exactScores = true;
  td = rockThresholdsDerive(ROCK_DTYPE_F32, &s32);
  printf("f32 exact absDiff %.6g\n", td.absDiff);
  // CHECK: f32 exact absDiff 1.58846e-05
  // An all-zero reference: every difference fails.
  RockGateScale zs = {0.0, 64, 192, false, 0.0, true, false};
  td = rockThresholdsDerive(ROCK_DTYPE_F16, &zs);
  printf("zero derived %g %g %g\n", td.rms, td.absDiff, td.relDiff);
  // CHECK: zero derived 0 0 0
  // The LSE: 4 ulps of L (2^-17 at 100) and the same f32 terms; RMS 0.75
  // tau / L.
  s32.exactScores = false;
  td = rockThresholdsDeriveLse(&s32);
  printf("lse derived %.6g %.6g\n", td.rms, td.absDiff);
  // CHECK: lse derived 1.41978e-06 0.000189304

  // TEST: the relDiff floor is tau / relDiff, at most M; 0 gives the raw rule
  printf("floor %g %g %g\n", rockRelDiffFloor(0.04, 0.02, 5.0),
         rockRelDiffFloor(0.04, 0.001, 5.0), rockRelDiffFloor(0.04, 0.0, 5.0));
  // CHECK: floor 2 5 5
  // Elements below the floor leave maxRelDiff; cancellation near 0 counts
  // only under the raw rule.
  const double rc[] = {4, 1e-4, -2}, sc2[] = {4.01, 3e-4, -2};
  RockMetrics mf;
  rockMetricsCompute(rc, sc2, 3, 0.0, &mf);
  printf("raw rel %g over %lld\n", mf.maxRelDiff, (long long)mf.numRelCounted);
  // CHECK: raw rel 2 over 3
  rockMetricsCompute(rc, sc2, 3, 0.5, &mf);
  printf("floored rel %g over %lld\n", mf.maxRelDiff,
         (long long)mf.numRelCounted);
  // CHECK: floored rel 0.0025 over 2

  // TEST: defaults keyed on the output type
  RockThresholds t = rockThresholdsGetDefault(ROCK_DTYPE_F16);
  printf("f16 defaults %g %g %g\n", t.rms, t.absDiff, t.relDiff);
  // CHECK: f16 defaults 0.001 100 100
  t = rockThresholdsGetDefault(ROCK_DTYPE_BF16);
  printf("bf16 defaults %g %g %g\n", t.rms, t.absDiff, t.relDiff);
  // CHECK: bf16 defaults 0.001 100 100
  t = rockThresholdsGetDefault(ROCK_DTYPE_F32);
  printf("f32 defaults %g %g %g\n", t.rms, t.absDiff, t.relDiff);
  // CHECK: f32 defaults 3e-05 100 1e-06

  // TEST: integer outputs compare exactly
  const double i1[] = {1, 2, 3}, i2[] = {1, 2, 4};
  RockVerdict v = rockMetricsCompareExact(i1, i1, 3);
  printf("exact same %d %d %d\n", v.rms, v.absDiff, v.relDiff);
  // CHECK: exact same 1 1 1
  v = rockMetricsCompareExact(i1, i2, 3);
  printf("exact differ %d %d %d\n", v.rms, v.absDiff, v.relDiff);
  // CHECK: exact differ 0 0 0

  // TEST: allclose; f16 with K = 10: atol = 1e-5 + 10/100, rtol 1e-3
  double atol, rtol;
  rockAllcloseGetDefault(ROCK_DTYPE_F16, 10, &atol, &rtol);
  printf("f16 allclose %g %g\n", atol, rtol);
  // CHECK: f16 allclose 0.10001 0.001
  rockAllcloseGetDefault(ROCK_DTYPE_F32, 0, &atol, &rtol);
  printf("f32 allclose %g %g\n", atol, rtol);
  // CHECK: f32 allclose 1e-05 1.3e-06
  const double a1[] = {1, -INFINITY}, a2[] = {1.001, -INFINITY};
  int64_t bad, nanBad;
  bool ok = rockAllclose(a1, a2, 2, 1e-5, 1.3e-6, &bad, &nanBad);
  printf("allclose tight %d bad %lld\n", ok, (long long)bad);
  // CHECK: allclose tight 0 bad 1
  ok = rockAllclose(a1, a2, 2, 0.10001, 1e-3, &bad, &nanBad);
  printf("allclose loose %d bad %lld\n", ok, (long long)bad);
  // CHECK: allclose loose 1 bad 0
  const double a3[] = {NAN, -INFINITY};
  ok = rockAllclose(a1, a3, 2, 1, 1, &bad, &nanBad);
  printf("allclose nan %d nan-mismatch %lld\n", ok, (long long)nanBad);
  // CHECK: allclose nan 0 nan-mismatch 1
  return 0;
}
