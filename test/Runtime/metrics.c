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

  // TEST: LSE: only the RMS gate applies
  const double r6[] = {100, 1000}, s6[] = {100, 1000.01};
  gate("lse", r6, s6, 2, ROCK_DTYPE_F32, true);
  // CHECK: lse: {{.*}} -> 1 1 1
  gate("not lse", r6, s6, 2, ROCK_DTYPE_F32, false);
  // CHECK: not lse: {{.*}} -> 1 1 0

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
