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
  int64_t g = bq / p->numHeadsQ;
  if (p->slidingWindow >= 0) {
    // The window looks back from the KV-cache bound, whatever the causal
    // bound of the row.
    int64_t anchor = p->seqLenK - 1;
    if (p->numCurrentSeqLen > 0 && p->currentSeqLen[g] < anchor)
      anchor = p->currentSeqLen[g];
    if (j < anchor - p->slidingWindow)
      return false;
  }
  if (p->causalLookBack >= 0) {
    // The band looks back from the row's causal bound.
    int64_t c = i + (p->numPrefixOffset > 0 ? p->prefixOffset[g] : 0);
    if (j < c - p->causalLookBack)
      return false;
  }
  return true;
}

// Element (bkv, j, d) of K and (bkv, j, e) of V, widened exactly, through
// the stored layouts; for paged problems through the page pools (logical
// page k lives in pool slot perm[k]), so no logical copy needs to exist.
static double cacheAt(const RockBuffer *buf, const RockPagedCache *cache,
                      int64_t flat) {
  if (!cache)
    return rockBufferGet(buf, flat);
  int64_t ps = cache->pageSize;
  return rockBufferGet(cache->pool, cache->perm[flat / ps] * ps + flat % ps);
}

static double kAt(const RockAttnProblem *p, const RockAttnInputs *in,
                  int64_t bkv, int64_t j, int64_t d) {
  int64_t sk = p->seqLenK, dqk = p->headDimQK;
  bool seqMajor = in->kvHeadMajor || p->transK; // stored [Bkv, Sk, D]
  return cacheAt(in->k, in->kCache,
                 seqMajor ? (bkv * sk + j) * dqk + d
                          : (bkv * dqk + d) * sk + j);
}

static double vAt(const RockAttnProblem *p, const RockAttnInputs *in,
                  int64_t bkv, int64_t j, int64_t e) {
  int64_t sk = p->seqLenK, dv = p->headDimV;
  bool seqMajor = in->kvHeadMajor || !p->transV; // stored [Bkv, Sk, Dv]
  return cacheAt(in->v, in->vCache,
                 seqMajor ? (bkv * sk + j) * dv + e : (bkv * dv + e) * sk + j);
}

typedef double (*KeyAt)(const RockAttnProblem *, const RockAttnInputs *,
                        int64_t, int64_t, int64_t);

// Copies keys j0 .. j0 + n - 1 (n = min(chunk, Sk - j0)) of KV group `bkv`,
// `width` elements each as `at` reads them, into `dst` [n][width]; returns n.
static int64_t loadKeys(const RockAttnProblem *p, const RockAttnInputs *in,
                        KeyAt at, int64_t bkv, int64_t j0, int64_t chunk,
                        int64_t width, double *dst) {
  int64_t n = p->seqLenK - j0 < chunk ? p->seqLenK - j0 : chunk;
  for (int64_t jj = 0; jj < n; ++jj)
    for (int64_t e = 0; e < width; ++e)
      dst[jj * width + e] = at(p, in, bkv, j0 + jj, e);
  return n;
}

static double qAt(const RockAttnProblem *p, const RockAttnInputs *in,
                  int64_t bq, int64_t i, int64_t d) {
  int64_t sq = p->seqLenQ, dqk = p->headDimQK;
  return rockBufferGet(in->q, p->transQ ? (bq * dqk + d) * sq + i
                                        : (bq * sq + i) * dqk + d);
}

// `s` rounded to `t` where the verifier models the kernel's roundings: all of
// them with `strict`; with `roundNarrow` only those to f16 and bf16, which
// lose far more than the kernel's f32 accumulation order (a value the kernel
// holds in f32 differs from the f64 one rounded to f32 by that order anyway).
static double roundAt(const RockAttnProblem *p, RockDType t, double s) {
  bool narrow = t == ROCK_DTYPE_F16 || t == ROCK_DTYPE_BF16;
  return p->strict || (p->roundNarrow && narrow) ? rockDTypeRound(t, s) : s;
}

// Applies the pre-softmax region (docs/semantics.md §2.2) to the raw score
// `s` of element (bq, i, j): it computes in the problem's region type, the
// i8 dequantisation in i32 first.
static double region(const RockAttnProblem *p, const RockAttnInputs *in,
                     int64_t bq, int64_t i, int64_t j, double s) {
  bool isInt = p->dtype == ROCK_DTYPE_I8;
  RockDType regionType = rockAttnProblemGetRegionType(p);
  bool anyRegion = isInt || p->withScale || p->withBias;
  int64_t elem = (bq * p->seqLenQ + i) * p->seqLenK + j;
  int64_t biasElem =
      p->transBias ? (bq * p->seqLenK + j) * p->seqLenQ + i : elem;
  if (anyRegion && !isInt)
    s = roundAt(p, regionType, s);
  if (isInt) {
    if (in->quantBias)
      s -= rockBufferGet(in->quantBias, 0);
    s = roundAt(p, regionType, s);
    if (in->quantScale)
      s *= rockBufferGet(in->quantScale, 0);
    s = roundAt(p, regionType, s);
  }
  if (p->withScale && in->scale) {
    s *= rockBufferGet(in->scale, elem);
    s = roundAt(p, regionType, s);
  }
  if (p->withBias && in->bias) {
    s += rockBufferGet(in->bias, biasElem);
    s = roundAt(p, regionType, s);
  }
  s = roundAt(p, p->softmaxType, s);
  return s;
}

/* Streaming: the rows of one KV head (R query heads x Sq rows, flattened
 * as t = h * Sq + i) are cut into blocks whose scores fit SCORE_BUDGET
 * doubles; per block, K and V are widened a chunk of keys at a time (at
 * most KEY_CHUNK, fewer for wide heads: a chunk holds at most SCORE_BUDGET
 * doubles too). Every
 * row is still the textbook two-pass softmax over all its scores, summed in
 * key order, so the result does not depend on the blocking or the threads;
 * scratch per worker is O(SCORE_BUDGET), not O(Sk * D). */
enum { SCORE_BUDGET = 1 << 21, KEY_CHUNK = 256 };

/// Per-thread state: the work items (KV head, row block) it owns.
typedef struct Worker {
  const RockAttnProblem *p;
  const RockAttnInputs *in;
  double *out, *lse;
  int64_t rowsPerBlock, blocksPerKv, keyChunk, firstItem, endItem;
  double *q, *k, *v, *s, *m, *l;
  bool ok;
} Worker;

static void runBlock(Worker *w, int64_t bkv, int64_t t0, int64_t t1) {
  const RockAttnProblem *p = w->p;
  const RockAttnInputs *in = w->in;
  int64_t r = p->numHeadsQ / p->numHeadsKV;
  int64_t sq = p->seqLenQ, sk = p->seqLenK, dqk = p->headDimQK,
          dv = p->headDimV;
  int64_t nr = t1 - t0;
  for (int64_t t = t0; t < t1; ++t)
    for (int64_t d = 0; d < dqk; ++d)
      w->q[(t - t0) * dqk + d] = qAt(p, in, bkv * r + t / sq, t % sq, d);
  for (int64_t t = 0; t < nr; ++t)
    w->m[t] = -INFINITY, w->l[t] = 0.0;
  // Pass 1: scores and their max. A NaN score makes the row NaN (l = NaN
  // marks it), never "masked".
  for (int64_t j0 = 0; j0 < sk; j0 += w->keyChunk) {
    int64_t nj = loadKeys(p, in, kAt, bkv, j0, w->keyChunk, dqk, w->k);
    for (int64_t t = 0; t < nr; ++t) {
      int64_t bq = bkv * r + (t0 + t) / sq, i = (t0 + t) % sq;
      const double *qi = w->q + t * dqk;
      double *st = w->s + t * sk;
      for (int64_t jj = 0; jj < nj; ++jj) {
        int64_t j = j0 + jj;
        // Masks by selection, never by arithmetic.
        if (!rockReferenceIsVisible(p, bq, i, j)) {
          st[j] = -INFINITY;
          continue;
        }
        const double *kj = w->k + jj * dqk;
        double dot = 0.0;
        for (int64_t d = 0; d < dqk; ++d)
          dot += qi[d] * kj[d];
        st[j] = region(p, in, bq, i, j, dot);
        if (isnan(st[j]))
          w->l[t] = NAN;
        if (st[j] > w->m[t])
          w->m[t] = st[j];
      }
    }
  }
  // Pass 2: O = sum_j exp(s_j - m) V_j / sum_j exp(s_j - m), in key order.
  for (int64_t t = 0; t < nr; ++t) {
    int64_t bq = bkv * r + (t0 + t) / sq, i = (t0 + t) % sq;
    double *o = w->out + (bq * sq + i) * dv;
    for (int64_t e = 0; e < dv; ++e)
      o[e] = 0.0;
  }
  RockDType vType = rockAttnProblemGetValueType(p);
  for (int64_t j0 = 0; j0 < sk; j0 += w->keyChunk) {
    int64_t nj = loadKeys(p, in, vAt, bkv, j0, w->keyChunk, dv, w->v);
    for (int64_t t = 0; t < nr; ++t) {
      if (w->m[t] == -INFINITY || isnan(w->l[t]))
        continue;
      int64_t bq = bkv * r + (t0 + t) / sq, i = (t0 + t) % sq;
      double *o = w->out + (bq * sq + i) * dv;
      const double *st = w->s + t * sk;
      for (int64_t jj = 0; jj < nj; ++jj) {
        if (st[j0 + jj] == -INFINITY)
          continue;
        double pj = exp(st[j0 + jj] - w->m[t]);
        w->l[t] += pj;
        // The kernel multiplies V by P in V's type; the sum takes P as is.
        double pv = roundAt(p, vType, pj);
        const double *vj = w->v + jj * dv;
        for (int64_t e = 0; e < dv; ++e)
          o[e] += pv * vj[e];
      }
    }
  }
  for (int64_t t = 0; t < nr; ++t) {
    int64_t bq = bkv * r + (t0 + t) / sq, i = (t0 + t) % sq;
    double *o = w->out + (bq * sq + i) * dv;
    double *lse = w->lse ? w->lse + bq * sq + i : NULL;
    if (isnan(w->l[t])) {
      for (int64_t e = 0; e < dv; ++e)
        o[e] = NAN;
      if (lse)
        *lse = NAN;
    } else if (w->m[t] == -INFINITY) { // fully masked row: O = 0
      if (lse)
        *lse = -INFINITY;
    } else {
      for (int64_t e = 0; e < dv; ++e)
        o[e] /= w->l[t];
      if (lse)
        *lse = w->m[t] + log(w->l[t]);
    }
  }
}

static void runItems(Worker *w) {
  int64_t rows = w->p->numHeadsQ / w->p->numHeadsKV * w->p->seqLenQ;
  for (int64_t it = w->firstItem; it < w->endItem; ++it) {
    int64_t bkv = it / w->blocksPerKv,
            t0 = it % w->blocksPerKv * w->rowsPerBlock;
    int64_t t1 = t0 + w->rowsPerBlock < rows ? t0 + w->rowsPerBlock : rows;
    runBlock(w, bkv, t0, t1);
  }
}

static void *workerMain(void *arg) {
  runItems(arg);
  return NULL;
}

static void freeScratch(Worker *w) {
  free(w->q);
  free(w->k);
  free(w->v);
  free(w->s);
  free(w->m);
  free(w->l);
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
  int64_t rb = w->rowsPerBlock;
  w->q = allocDoubles(rb, p->headDimQK);
  w->k = allocDoubles(w->keyChunk, p->headDimQK);
  w->v = allocDoubles(w->keyChunk, p->headDimV);
  w->s = allocDoubles(rb, p->seqLenK);
  w->m = allocDoubles(rb, 1);
  w->l = allocDoubles(rb, 1);
  return w->q && w->k && w->v && w->s && w->m && w->l;
}

static int threadCount(int64_t items) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  const char *env = getenv("ROCK_REFERENCE_THREADS");
  if (env && atoi(env) > 0)
    n = atoi(env);
  if (n < 1)
    n = 1;
  if (n > 64)
    n = 64;
  return (int)(n < items ? n : items);
}

bool rockReferenceAttention(const RockAttnProblem *p, const RockAttnInputs *in,
                            double *out, double *lse) {
  int64_t rows = p->numHeadsQ / p->numHeadsKV * p->seqLenQ;
  int64_t widest = p->seqLenK > p->headDimQK ? p->seqLenK : p->headDimQK;
  int64_t rb = SCORE_BUDGET / widest;
  rb = rb < 1 ? 1 : rb > rows ? rows : rb;
  int64_t blocksPerKv = (rows + rb - 1) / rb;
  int64_t d = p->headDimQK > p->headDimV ? p->headDimQK : p->headDimV;
  int64_t chunk = SCORE_BUDGET / d;
  chunk = chunk < 1 ? 1 : chunk > KEY_CHUNK ? KEY_CHUNK : chunk;
  int64_t items = rockAttnProblemGetBkv(p) * blocksPerKv;
  int n = threadCount(items);
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
    w->rowsPerBlock = rb;
    w->blocksPerKv = blocksPerKv;
    w->keyChunk = chunk;
    w->firstItem = items * t / n;
    w->endItem = items * (t + 1) / n;
    ok = allocScratch(w, p) && ok;
  }
  int started = 0;
  for (int t = 1; ok && t < n; ++t, ++started)
    if (pthread_create(&threads[t], NULL, workerMain, &workers[t]) != 0)
      break;
  if (ok) {
    // Items of threads that could not start run here.
    runItems(&workers[0]);
    for (int t = 1 + started; t < n; ++t)
      runItems(&workers[t]);
  }
  for (int t = 1; t <= started; ++t)
    pthread_join(threads[t], NULL);
  for (int t = 0; t < n; ++t)
    freeScratch(&workers[t]);
  return ok;
}
