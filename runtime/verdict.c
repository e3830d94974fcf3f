//===- verdict.c - the gates of one verified run -------------------------===//
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

RockGates rockGatesResolve(const RockHarness *h, const RockRunOptions *o,
                           double lseMag, bool exactScores) {
  const RockAttnProblem *p = &h->problem;
  RockGates g = {0};
  g.hasRms = h->hasRms || o->hasRms;
  g.rms = o->hasRms ? o->rms : h->rms;
  g.hasAbsDiff = h->hasAbsDiff || o->hasAbsDiff;
  g.absDiff = o->hasAbsDiff ? o->absDiff : h->absDiff;
  g.hasRelDiff = h->hasRelDiff || o->hasRelDiff;
  g.relDiff = o->hasRelDiff ? o->relDiff : h->relDiff;
  g.strict = p->strict;
  g.valueType = rockAttnProblemGetValueType(p);
  g.scale.headDim = p->headDimQK;
  g.scale.keys = p->seqLenK;
  g.scale.splits = p->splitKV > 1;
  g.scale.lseMag = lseMag;
  g.scale.exactScores = exactScores;
  g.scale.region = p->withScale || p->withBias || p->dtype == ROCK_DTYPE_I8;
  g.allclose = o->comparator >= 0 ? o->comparator == 1 : h->allclose;
  if (o->hasAtol || o->hasRtol)
    g.allclose = true;
  rockAllcloseGetDefault(g.valueType, p->headDimQK + p->seqLenK, &g.atol,
                         &g.rtol);
  if (h->hasAtol)
    g.atol = h->atol;
  if (h->hasRtol)
    g.rtol = h->rtol;
  if (o->hasAtol)
    g.atol = o->atol;
  if (o->hasRtol)
    g.rtol = o->rtol;
  return g;
}

/// The thresholds of one output and its relDiff floor (*floor, 0 = none).
static RockThresholds thresholds(const RockGates *g, bool isLse,
                                 RockDType outType, double refMag,
                                 double *floor) {
  RockGateScale sc = g->scale;
  sc.refMag = refMag;
  RockThresholds t = g->strict ? rockThresholdsGetDefault(g->valueType)
                     : isLse   ? rockThresholdsDeriveLse(&sc)
                               : rockThresholdsDerive(outType, &sc);
  double derivedAbs = t.absDiff;
  if (g->hasRms)
    t.rms = g->rms;
  if (g->hasAbsDiff)
    t.absDiff = g->absDiff;
  if (g->hasRelDiff)
    t.relDiff = g->relDiff;
  *floor = g->strict || isLse ? 0.0
                              : rockRelDiffFloor(derivedAbs, t.relDiff, refMag);
  return t;
}

static double largestFinite(const double *v, int64_t n) {
  double m = 0.0;
  for (int64_t k = 0; k < n; ++k)
    if (isfinite(v[k]) && fabs(v[k]) > m)
      m = fabs(v[k]);
  return m;
}

static void printMetrics(const char *name, const RockMetrics *m,
                         const RockThresholds *t, RockVerdict v, bool isLse,
                         double floor) {
  printf("%s: RMS %.6g (threshold %g, %s)%s\n", name, m->rms, t->rms,
         v.rms ? "pass" : "FAIL", m->rmsValid ? "" : " maxMag is 0");
  printf("%s: maxAbsDiff %.6g (threshold %g, %s)\n", name, m->maxAbsDiff,
         t->absDiff, v.absDiff ? "pass" : "FAIL");
  if (!isLse)
    printf("%s: maxRelDiff %.6g (threshold %g, %s)\n", name, m->maxRelDiff,
           t->relDiff, v.relDiff ? "pass" : "FAIL");
  if (floor > 0.0)
    printf("%s: relDiff floor %.6g: %lld of %lld elements have |ref| at "
           "least that (smaller ones are judged by absDiff)\n",
           name, floor, (long long)m->numRelCounted, (long long)m->numElements);
  printf("%s: maxMag %.6g, NaN mismatches %lld of %lld elements\n", name,
         m->maxMag, (long long)m->numNaNMismatch, (long long)m->numElements);
}

RockVerdict rockVerifyOutput(const char *name, const double *ref64,
                             const double *plain64, const double *res,
                             int64_t n, bool isLse, RockDType outType,
                             const RockGates *g, bool details) {
  RockVerdict v = {false, false, false};
  double *ref = malloc((size_t)(n > 0 ? n : 1) * sizeof *ref);
  if (!ref) {
    printf("%s: out of memory for the rounded reference, FAIL\n", name);
    return v;
  }
  rockMetricsRoundReference(outType, ref64, ref, n);
  double floor = 0.0;
  if (g->allclose) {
    double atol = isLse ? 1.5e-2 : g->atol, rtol = isLse ? 5e-4 : g->rtol;
    int64_t bad = 0, nanBad = 0;
    bool ok = rockAllclose(ref, res, n, atol, rtol, &bad, &nanBad);
    v.rms = v.absDiff = v.relDiff = ok;
    if (details)
      printf("%s: allclose atol %g rtol %g: %lld of %lld elements outside%s, "
             "%s\n",
             name, atol, rtol, (long long)bad, (long long)n,
             nanBad ? " (NaN-mismatch)" : "", ok ? "pass" : "FAIL");
  } else if (rockDTypeIsInteger(outType)) {
    v = rockMetricsCompareExact(ref, res, n);
    if (details)
      printf("%s: exact compare %s\n", name, v.rms ? "pass" : "FAIL");
  } else {
    RockThresholds t =
        thresholds(g, isLse, outType, largestFinite(ref, n), &floor);
    RockMetrics m;
    rockMetricsCompute(ref, res, n, floor, &m);
    v = rockMetricsGate(&m, &t, isLse, g->strict && isLse);
    if (details)
      printMetrics(name, &m, &t, v, isLse, floor);
  }
  if (details && !rockDTypeIsInteger(outType)) {
    RockMetrics m64;
    rockMetricsCompute(plain64 ? plain64 : ref64, res, n, floor, &m64);
    printf("%s: against the f64 reference (not rounded to %s%s): RMS %.6g, "
           "maxAbsDiff %.6g, maxRelDiff %.6g\n",
           name, rockDTypeGetName(outType),
           plain64 ? ", no intermediate rounding" : "", m64.rms, m64.maxAbsDiff,
           m64.maxRelDiff);
  }
  free(ref);
  return v;
}
