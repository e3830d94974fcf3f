//===- reference.c - f64 reference attention -----------------------------===//
#include "reference.h"

#include <math.h>
#include <stdlib.h>

int64_t rockReferenceLastKey(const RockAttnProblem *p, int64_t bq,
                             int64_t i) {
  int64_t g = bq / p->numHeadsQ;
  int64_t last = p->seqLenK - 1;
  if (p->numCurrentSeqLen > 0 && p->currentSeqLen[g] < last)
    last = p->currentSeqLen[g];
  if (p->causal) {
    int64_t c = i + (p->numPrefixOffset > 0 ? p->prefixOffset[g] : 0);
    if (c < last)
      last = c;
  }
  return last < 0 ? -1 : last;
}

bool rockReferenceIsVisible(const RockAttnProblem *p, int64_t bq, int64_t i,
                            int64_t j) {
  int64_t last = rockReferenceLastKey(p, bq, i);
  if (last < 0 || j > last)
    return false;
  if (p->slidingWindow >= 0) {
    int64_t first = last - p->slidingWindow;
    if (j < (first < 0 ? 0 : first))
      return false;
  }
  return true;
}

// Element readers in canonical coordinates.
static double readQ(const RockAttnProblem *p, const RockAttnInputs *in,
                    int64_t bq, int64_t i, int64_t d) {
  int64_t sq = p->seqLenQ, dqk = p->headDimQK;
  int64_t idx = p->transQ ? (bq * dqk + d) * sq + i : (bq * sq + i) * dqk + d;
  return rockBufferGet(in->q, idx);
}

static double readK(const RockAttnProblem *p, const RockAttnInputs *in,
                    int64_t bkv, int64_t j, int64_t d) {
  int64_t sk = p->seqLenK, dqk = p->headDimQK;
  bool seqMajor = in->kvHeadMajor || p->transK; // [Bkv, Sk, D]
  int64_t idx = seqMajor ? (bkv * sk + j) * dqk + d : (bkv * dqk + d) * sk + j;
  return rockBufferGet(in->k, idx);
}

static double readV(const RockAttnProblem *p, const RockAttnInputs *in,
                    int64_t bkv, int64_t j, int64_t e) {
  int64_t sk = p->seqLenK, dv = p->headDimV;
  bool seqMajor = in->kvHeadMajor || !p->transV; // [Bkv, Sk, Dv]
  int64_t idx = seqMajor ? (bkv * sk + j) * dv + e : (bkv * dv + e) * sk + j;
  return rockBufferGet(in->v, idx);
}

// Score of (bq, i, j) after the pre-softmax region (section 1 step 2).
static double score(const RockAttnProblem *p, const RockAttnInputs *in,
                    int64_t bq, int64_t bkv, int64_t i, int64_t j) {
  double s = 0.0;
  for (int64_t d = 0; d < p->headDimQK; ++d)
    s += readQ(p, in, bq, i, d) * readK(p, in, bkv, j, d);
  bool isInt = p->dtype == ROCK_DTYPE_I8;
  // The region computes in its argument type: Q's type for floats; for i8
  // the dequant runs in i32 then f16.
  RockDType regionType = isInt ? ROCK_DTYPE_F16 : p->dtype;
  bool anyRegion = isInt || p->withScale || p->withBias;
  int64_t elem = (bq * p->seqLenQ + i) * p->seqLenK + j;
  if (p->strict && anyRegion && !isInt)
    s = rockDTypeRound(p->dtype, s);
  if (isInt) {
    if (in->quantBias)
      s -= rockBufferGet(in->quantBias, 0);
    if (p->strict)
      s = rockDTypeRound(ROCK_DTYPE_F16, s);
    if (in->quantScale)
      s *= rockBufferGet(in->quantScale, 0);
    if (p->strict)
      s = rockDTypeRound(ROCK_DTYPE_F16, s);
  }
  if (p->withScale && in->scale) {
    s *= rockBufferGet(in->scale, elem);
    if (p->strict)
      s = rockDTypeRound(regionType, s);
  }
  if (p->withBias && in->bias) {
    s += rockBufferGet(in->bias, elem);
    if (p->strict)
      s = rockDTypeRound(regionType, s);
  }
  if (p->strict)
    s = rockDTypeRound(p->softmaxType, s);
  return s;
}

bool rockReferenceAttention(const RockAttnProblem *p, const RockAttnInputs *in,
                            double *out, double *lse) {
  int64_t b = rockAttnProblemGetB(p);
  int64_t r = p->numHeadsQ / p->numHeadsKV;
  int64_t sq = p->seqLenQ, sk = p->seqLenK, dv = p->headDimV;
  double *s = malloc((size_t)sk * sizeof(double));
  double *acc = malloc((size_t)dv * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return false;
  }
  for (int64_t bq = 0; bq < b; ++bq) {
    int64_t bkv = bq / r; // consecutive query heads share one KV head
    for (int64_t i = 0; i < sq; ++i) {
      double m = -INFINITY;
      for (int64_t j = 0; j < sk; ++j) {
        // Masks by selection, never by arithmetic.
        s[j] = rockReferenceIsVisible(p, bq, i, j) ? score(p, in, bq, bkv, i, j)
                                                   : -INFINITY;
        if (s[j] > m)
          m = s[j];
      }
      double *o = out + (bq * sq + i) * dv;
      if (m == -INFINITY) { // fully masked row
        for (int64_t e = 0; e < dv; ++e)
          o[e] = 0.0;
        if (lse)
          lse[bq * sq + i] = -INFINITY;
        continue;
      }
      double l = 0.0;
      for (int64_t e = 0; e < dv; ++e)
        acc[e] = 0.0;
      for (int64_t j = 0; j < sk; ++j) {
        if (s[j] == -INFINITY)
          continue;
        double w = exp(s[j] - m);
        l += w;
        for (int64_t e = 0; e < dv; ++e)
          acc[e] += w * readV(p, in, bkv, j, e);
      }
      for (int64_t e = 0; e < dv; ++e)
        o[e] = acc[e] / l;
      if (lse)
        lse[bq * sq + i] = m + log(l);
    }
  }
  free(s);
  free(acc);
  return true;
}
