//===- metrics.c - result verification -----------------------------------===//
#include "metrics.h"
#include "support/thresholds.h"

#include <math.h>

void rockMetricsRoundReference(RockDType outType, const double *ref,
                               double *out, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    out[k] = rockDTypeRound(outType, ref[k]);
}

void rockMetricsCompute(const double *ref, const double *res, int64_t n,
                        RockMetrics *m) {
  double sumSq = 0.0;
  m->numElements = n;
  m->maxAbsDiff = 0.0;
  m->maxRelDiff = 0.0;
  m->maxMag = 0.0;
  m->numNaNMismatch = 0;
  for (int64_t k = 0; k < n; ++k) {
    double a = ref[k], b = res[k];
    if (isnan(a) || isnan(b)) {
      if (isnan(a) != isnan(b))
        ++m->numNaNMismatch;
      continue;
    }
    if (isfinite(a) && fabs(a) > m->maxMag)
      m->maxMag = fabs(a);
    if (isfinite(b) && fabs(b) > m->maxMag)
      m->maxMag = fabs(b);
    if (isinf(a) && a == b)
      continue; // matching infinities: d = 0
    if (isinf(a))
      a = a > 0 ? 65504.0 : -65504.0;
    double d = fabs(b - a);
    sumSq += d * d;
    if (d > m->maxAbsDiff || isnan(d))
      m->maxAbsDiff = d;
    if (a != 0.0) {
      double rel = d / fabs(a);
      if (rel > m->maxRelDiff)
        m->maxRelDiff = rel;
    }
  }
  m->rmsValid = true;
  if (m->maxMag == 0.0) {
    m->rms = 0.0;
    m->rmsValid = sumSq == 0.0;
  } else {
    m->rms = sqrt(sumSq) / (m->maxMag * sqrt((double)n));
  }
}

RockThresholds rockThresholdsGetDefault(RockDType outType) {
  bool narrow = outType == ROCK_DTYPE_F16 || outType == ROCK_DTYPE_BF16;
  RockThresholds t;
  rock__defaultThresholds(narrow, &t.rms, &t.absDiff, &t.relDiff);
  return t;
}

RockVerdict rockMetricsGate(const RockMetrics *m, const RockThresholds *t,
                            bool rmsOnly) {
  RockVerdict v;
  // Comparisons written so that a NaN metric fails.
  v.rms = m->rmsValid && m->rms <= t->rms;
  v.absDiff = rmsOnly || m->maxAbsDiff <= t->absDiff;
  v.relDiff = rmsOnly || m->maxRelDiff <= t->relDiff;
  if (m->numNaNMismatch > 0)
    v.rms = v.absDiff = v.relDiff = false;
  return v;
}

RockVerdict rockMetricsCompareExact(const double *ref, const double *res,
                                    int64_t n) {
  bool ok = true;
  for (int64_t k = 0; k < n && ok; ++k)
    ok = ref[k] == res[k];
  RockVerdict v = {ok, ok, ok};
  return v;
}

void rockAllcloseGetDefault(RockDType outType, int64_t k, double *atol,
                            double *rtol) {
  double a, r, sumErrTol;
  switch (outType) {
  case ROCK_DTYPE_F16:
    a = 1e-5, r = 1e-3, sumErrTol = 1.0 / 100;
    break;
  case ROCK_DTYPE_BF16:
    a = 1e-5, r = 1.6e-2, sumErrTol = 1.0 / 900;
    break;
  case ROCK_DTYPE_F64:
    a = 1e-7, r = 1e-7, sumErrTol = 0.0;
    break;
  default:
    a = 1e-5, r = 1.3e-6, sumErrTol = 1.0 / 10000;
    break;
  }
  *atol = a + (double)k * sumErrTol;
  *rtol = r;
}

bool rockAllclose(const double *ref, const double *res, int64_t n, double atol,
                  double rtol, int64_t *numBad, int64_t *numNaNMismatch) {
  int64_t bad = 0, nan = 0;
  for (int64_t k = 0; k < n; ++k) {
    double a = ref[k], b = res[k];
    if (isnan(a) || isnan(b)) {
      if (isnan(a) != isnan(b)) {
        ++nan;
        ++bad;
      }
      continue;
    }
    if (isinf(a) && a == b)
      continue;
    if (!(fabs(b - a) <= atol + rtol * fabs(a)))
      ++bad;
  }
  if (numBad)
    *numBad = bad;
  if (numNaNMismatch)
    *numNaNMismatch = nan;
  return bad == 0;
}
