//===- reference.c - f64 reference attention -----------------------------===//
#define _POSIX_C_SOURCE 200809L
#include "reference.h"

#include "rock-c/Sizes.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int64_t rockReferenceLastKey(const RockAttnProblem *p, int64_t bq, int64_t i) {
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

// Widens the slices one query batch needs into canonical f64 layouts:
// Q [Sq][Dqk], K [Sk][Dqk], V [Sk][Dv].
static void widenQ(const RockAttnProblem *p, const RockAttnInputs *in,
                   int64_t bq, double *q) {
  int64_t sq = p->seqLenQ, dqk = p->headDimQK;
  for (int64_t i = 0; i < sq; ++i)
    for (int64_t d = 0; d < dqk; ++d)
      q[i * dqk + d] = rockBufferGet(
          in->q, p->transQ ? (bq * dqk + d) * sq + i : (bq * sq + i) * dqk + d);
}

static void widenK(const RockAttnProblem *p, const RockAttnInputs *in,
                   int64_t bkv, double *k) {
  int64_t sk = p->seqLenK, dqk = p->headDimQK;
  bool seqMajor = in->kvHeadMajor || p->transK; // stored [Bkv, Sk, D]
  for (int64_t j = 0; j < sk; ++j)
    for (int64_t d = 0; d < dqk; ++d)
      k[j * dqk + d] =
          rockBufferGet(in->k, seqMajor ? (bkv * sk + j) * dqk + d
                                        : (bkv * dqk + d) * sk + j);
}

static void widenV(const RockAttnProblem *p, const RockAttnInputs *in,
                   int64_t bkv, double *v) {
  int64_t sk = p->seqLenK, dv = p->headDimV;
  bool seqMajor = in->kvHeadMajor || !p->transV; // stored [Bkv, Sk, Dv]
  for (int64_t j = 0; j < sk; ++j)
    for (int64_t e = 0; e < dv; ++e)
      v[j * dv + e] = rockBufferGet(in->v, seqMajor ? (bkv * sk + j) * dv + e
                                                    : (bkv * dv + e) * sk + j);
}

// Applies the pre-softmax region (section 1 step 2) to the raw score `s` of
// element (bq, i, j).
static double region(const RockAttnProblem *p, const RockAttnInputs *in,
                     int64_t bq, int64_t i, int64_t j, double s) {
  bool isInt = p->dtype == ROCK_DTYPE_I8;
  // The region computes in its argument type: Q's type for floats; for i8
  // the dequant runs in i32, then f16.
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

/// Per-thread state: scratch slices and the query batches it owns.
typedef struct Worker {
  const RockAttnProblem *p;
  const RockAttnInputs *in;
  double *out, *lse;
  int64_t firstBq, endBq;
  double *q, *k, *v, *s, *acc;
  bool ok;
} Worker;

static void runRows(Worker *w) {
  const RockAttnProblem *p = w->p;
  int64_t r = p->numHeadsQ / p->numHeadsKV;
  int64_t sq = p->seqLenQ, sk = p->seqLenK, dqk = p->headDimQK,
          dv = p->headDimV;
  int64_t loadedKv = -1;
  for (int64_t bq = w->firstBq; bq < w->endBq; ++bq) {
    int64_t bkv = bq / r; // consecutive query heads share one KV head
    widenQ(p, w->in, bq, w->q);
    if (bkv != loadedKv) {
      widenK(p, w->in, bkv, w->k);
      widenV(p, w->in, bkv, w->v);
      loadedKv = bkv;
    }
    for (int64_t i = 0; i < sq; ++i) {
      const double *qi = w->q + i * dqk;
      double m = -INFINITY;
      bool nan = false; // a NaN score makes the row NaN, never "masked"
      for (int64_t j = 0; j < sk; ++j) {
        // Masks by selection, never by arithmetic.
        if (!rockReferenceIsVisible(p, bq, i, j)) {
          w->s[j] = -INFINITY;
          continue;
        }
        const double *kj = w->k + j * dqk;
        double dot = 0.0;
        for (int64_t d = 0; d < dqk; ++d)
          dot += qi[d] * kj[d];
        w->s[j] = region(p, w->in, bq, i, j, dot);
        nan |= isnan(w->s[j]);
        if (w->s[j] > m)
          m = w->s[j];
      }
      double *o = w->out + (bq * sq + i) * dv;
      if (nan) {
        for (int64_t e = 0; e < dv; ++e)
          o[e] = NAN;
        if (w->lse)
          w->lse[bq * sq + i] = NAN;
        continue;
      }
      if (m == -INFINITY) { // fully masked row
        for (int64_t e = 0; e < dv; ++e)
          o[e] = 0.0;
        if (w->lse)
          w->lse[bq * sq + i] = -INFINITY;
        continue;
      }
      double l = 0.0;
      for (int64_t e = 0; e < dv; ++e)
        w->acc[e] = 0.0;
      for (int64_t j = 0; j < sk; ++j) {
        if (w->s[j] == -INFINITY)
          continue;
        double pj = exp(w->s[j] - m);
        l += pj;
        const double *vj = w->v + j * dv;
        for (int64_t e = 0; e < dv; ++e)
          w->acc[e] += pj * vj[e];
      }
      for (int64_t e = 0; e < dv; ++e)
        o[e] = w->acc[e] / l;
      if (w->lse)
        w->lse[bq * sq + i] = m + log(l);
    }
  }
}

static void *workerMain(void *arg) {
  runRows(arg);
  return NULL;
}

static void freeScratch(Worker *w) {
  free(w->q);
  free(w->k);
  free(w->v);
  free(w->s);
  free(w->acc);
}

/* malloc of rows*cols doubles; NULL when the count overflows. */
static double *allocDoubles(int64_t rows, int64_t cols) {
  int64_t n;
  if (!rockSizeMul(rows, cols, &n) ||
      !rockSizeMul(n, (int64_t)sizeof(double), &n))
    return NULL;
  return malloc(n ? (size_t)n : 1);
}

static bool allocScratch(Worker *w, const RockAttnProblem *p) {
  w->q = allocDoubles(p->seqLenQ, p->headDimQK);
  w->k = allocDoubles(p->seqLenK, p->headDimQK);
  w->v = allocDoubles(p->seqLenK, p->headDimV);
  w->s = allocDoubles(p->seqLenK, 1);
  w->acc = allocDoubles(p->headDimV, 1);
  return w->q && w->k && w->v && w->s && w->acc;
}

static int threadCount(int64_t b) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  const char *env = getenv("ROCK_REFERENCE_THREADS");
  if (env && atoi(env) > 0)
    n = atoi(env);
  if (n < 1)
    n = 1;
  if (n > 64)
    n = 64;
  return (int)(n < b ? n : b);
}

bool rockReferenceAttention(const RockAttnProblem *p, const RockAttnInputs *in,
                            double *out, double *lse) {
  int64_t b = rockAttnProblemGetB(p);
  int n = threadCount(b);
  Worker workers[64];
  pthread_t threads[64];
  bool ok = true;
  for (int t = 0; t < n; ++t) {
    Worker *w = &workers[t];
    memset(w, 0, sizeof *w);
    w->p = p;
    w->in = in;
    w->out = out;
    w->lse = lse;
    w->firstBq = b * t / n;
    w->endBq = b * (t + 1) / n;
    ok = allocScratch(w, p) && ok;
  }
  int started = 0;
  for (int t = 1; ok && t < n; ++t, ++started)
    if (pthread_create(&threads[t], NULL, workerMain, &workers[t]) != 0)
      break;
  if (ok) {
    // Rows of threads that could not start run here.
    runRows(&workers[0]);
    for (int t = 1 + started; t < n; ++t)
      runRows(&workers[t]);
  }
  for (int t = 1; t <= started; ++t)
    pthread_join(threads[t], NULL);
  for (int t = 0; t < n; ++t)
    freeScratch(&workers[t]);
  return ok;
}
