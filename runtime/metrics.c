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
                        double relFloor, RockMetrics *m) {
  double sumSq = 0.0;
  m->numElements = n;
  m->maxAbsDiff = 0.0;
  m->maxRelDiff = 0.0;
  m->numRelCounted = 0;
  m->maxMag = 0.0;
  m->refMag = 0.0;
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
    if (isfinite(a) && fabs(a) > m->refMag)
      m->refMag = fabs(a);
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
    if (a != 0.0 && fabs(a) >= relFloor) {
      ++m->numRelCounted;
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

/* Mantissa bits (without the implicit one) and the smallest normal
 * exponent of the float types. */
static void floatFormat(RockDType t, int *mant, int *minExp) {
  switch (t) {
  case ROCK_DTYPE_F16:
    *mant = 10, *minExp = -14;
    break;
  case ROCK_DTYPE_BF16:
    *mant = 7, *minExp = -126;
    break;
  case ROCK_DTYPE_F64:
    *mant = 52, *minExp = -1022;
    break;
  default:
    *mant = 23, *minExp = -126;
    break;
  }
}

double rockDTypeUlp(RockDType t, double x) {
  int mant, minExp, e;
  floatFormat(t, &mant, &minExp);
  frexp(fabs(x), &e); // |x| in [2^(e-1), 2^e)
  if (!isfinite(x) || x == 0.0 || e - 1 < minExp)
    e = minExp + 1;
  return ldexp(1.0, e - 1 - mant);
}

/* What the kernel's f32 arithmetic adds, as a relative error of P (and so
 * of the output) or an absolute one of the LSE: the row sums (up to Dqk +
 * Sk terms), the scores' dot products (an error relative to the scores that
 * count, whose magnitude is the LSE's; none when they are exact) and the
 * region's f32 roundings, and with f32 LSEs between the splits their
 * resolution. */
static double f32Terms(const RockGateScale *s, bool lseResolution) {
  const double u32 = 0x1p-24;
  double L = s->lseMag;
  double tau = 4.0 * sqrt((double)(s->headDim + s->keys)) * u32;
  if (!s->exactScores)
    tau += 3.0 * sqrt((double)s->headDim) * u32 * L;
  if (s->region)
    tau += 2.0 * u32 * L;
  if (lseResolution && L > 0.0)
    tau += 4.0 * rockDTypeUlp(ROCK_DTYPE_F32, L);
  return tau;
}

/* The derived absolute tolerance tau of an output of type `t`, as a
 * fraction of M (docs/semantics.md §8). */
static double tauRelative(RockDType t, const RockGateScale *s) {
  double M = s->refMag;
  double res = rockDTypeUlp(t, M) / M; // the output's resolution at M
  double tau = 1.25 * res;             // its own rounding, with a margin
  if (s->splits)
    tau += res; // each partial was stored in the output type
  tau += f32Terms(s, s->splits);
  return tau;
}

RockThresholds rockThresholdsDerive(RockDType t, const RockGateScale *s) {
  if (!(s->refMag > 0.0) || !isfinite(s->refMag)) {
    // An all-zero (or masked) reference: any nonzero result is wrong.
    RockThresholds z = {0.0, 0.0, 0.0};
    return z;
  }
  double tau = tauRelative(t, s);
  RockThresholds r = {0.75 * tau, tau * s->refMag, 4.0 * tau};
  return r;
}

RockThresholds rockThresholdsDeriveLse(const RockGateScale *s) {
  double L = s->lseMag > 1.0 ? s->lseMag : 1.0;
  // The LSE's own f32 rounding (and that of log2(l) + m) and the f32
  // arithmetic before it.
  double tau = f32Terms(s, true);
  RockThresholds r = {0.75 * tau / L, tau, 0.0};
  return r;
}

double rockRelDiffFloor(double tauAbs, double relDiff, double refMag) {
  if (!(relDiff > 0.0))
    return refMag;
  double f = tauAbs / relDiff;
  return f < refMag ? f : refMag;
}

RockVerdict rockMetricsGate(const RockMetrics *m, const RockThresholds *t,
                            bool isLse, bool rmsOnly) {
  RockVerdict v;
  // Comparisons written so that a NaN metric fails.
  v.rms = m->rmsValid && m->rms <= t->rms;
  v.absDiff = rmsOnly || m->maxAbsDiff <= t->absDiff;
  v.relDiff = isLse || rmsOnly || m->maxRelDiff <= t->relDiff;
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
