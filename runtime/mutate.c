//===- mutate.c - planted wrong results, for testing the verdicts --------===//
#include "mutate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rockMutationParse(const char *name, RockMutation *m) {
  static const char *const names[] = {"element", "row-shift", "scale-ignored",
                                      "split-dropped", "lse"};
  *m = ROCK_MUTATE_NONE;
  if (!name)
    return true;
  for (int k = 0; k < 5; ++k)
    if (!strcmp(name, names[k])) {
      *m = (RockMutation)(k + 1);
      return true;
    }
  return false;
}

/* Flat index of (bq, i, e) in the kernel's out buffer (transO aware). */
static int64_t outIndex(const RockAttnProblem *p, int64_t bq, int64_t i,
                        int64_t e) {
  int64_t sq = p->seqLenQ, dv = p->headDimV;
  return p->transO ? (bq * dv + e) * sq + i : (bq * sq + i) * dv + e;
}

/* Writes rows [bq, i, :] of `ref` (canonical [B, Sq, Dv]) into the out
 * buffer for every (bq, i) with `all`, else only (0, 0). */
static void writeRows(RockSession *s, const double *ref, bool all) {
  const RockAttnProblem *p = &s->h->problem;
  int64_t b = all ? rockAttnProblemGetB(p) : 1, sq = all ? p->seqLenQ : 1;
  for (int64_t bq = 0; bq < b; ++bq)
    for (int64_t i = 0; i < sq; ++i)
      for (int64_t e = 0; e < p->headDimV; ++e)
        rockBufferSet(s->out, outIndex(p, bq, i, e),
                      ref[(bq * p->seqLenQ + i) * p->headDimV + e]);
}

/* The reference of problem `q` on inputs `in` into a new array, written to
 * the out buffer (all rows or row (0, 0)). */
static bool rewrite(RockSession *s, const RockAttnProblem *q,
                    const RockAttnInputs *in, bool all) {
  int64_t n = rockAttnProblemGetOutSize(q);
  double *o = malloc((size_t)n * sizeof *o);
  bool ok = o && rockReferenceAttention(q, in, o, NULL);
  if (ok)
    writeRows(s, o, all);
  free(o);
  return ok;
}

/* Row (0, 0) as if its keys were shifted by one: the causal bound (or the
 * KV-cache bound) one key further. */
static bool rowShift(RockSession *s, const RockAttnInputs *in, char *err,
                     size_t n) {
  RockAttnProblem q = s->h->problem;
  if (q.causal) {
    if (!q.numPrefixOffset)
      q.numPrefixOffset = q.g;
    for (int64_t g = 0; g < q.g; ++g)
      q.prefixOffset[g] += 1;
  } else if (q.numCurrentSeqLen) {
    for (int64_t g = 0; g < q.g; ++g)
      q.currentSeqLen[g] += q.currentSeqLen[g] > 0 ? -1 : 1;
  } else {
    snprintf(err, n, "row-shift needs a causal or KV-cache problem");
    return false;
  }
  return rewrite(s, &q, in, false);
}

static bool mutateElement(RockSession *s) {
  const RockAttnProblem *p = &s->h->problem;
  int64_t n = rockAttnProblemGetOutSize(p), at = 0;
  double mag = 0.0;
  for (int64_t k = 0; k < n; ++k) {
    double a = fabs(s->refOut[k]);
    if (isfinite(a) && a > mag)
      mag = a;
    if (a < fabs(s->refOut[at]))
      at = k;
  }
  // The smallest element: its own rounding keeps the whole 1%.
  int64_t e = at % p->headDimV, row = at / p->headDimV;
  int64_t idx = outIndex(p, row / p->seqLenQ, row % p->seqLenQ, e);
  rockBufferSet(s->out, idx, rockBufferGet(s->out, idx) + 0.01 * mag);
  return true;
}

bool rockMutationApply(RockSession *s, const RockAttnInputs *in, RockMutation m,
                       int stage, char *err, size_t errSize) {
  const RockAttnProblem *p = &s->h->problem;
  if ((m == ROCK_MUTATE_SPLIT_DROPPED) != (stage == 0))
    return true;
  switch (m) {
  case ROCK_MUTATE_NONE:
    return true;
  case ROCK_MUTATE_ELEMENT:
    return mutateElement(s);
  case ROCK_MUTATE_ROW_SHIFT:
    return rowShift(s, in, err, errSize);
  case ROCK_MUTATE_SCALE_IGNORED: {
    if (!p->withScale || !in->scale) {
      snprintf(err, errSize, "scale-ignored needs --with-attn-scale");
      return false;
    }
    RockAttnInputs noScale = *in;
    noScale.scale = NULL;
    return rewrite(s, p, &noScale, true);
  }
  case ROCK_MUTATE_SPLIT_DROPPED:
    if (p->splitKV < 2) {
      snprintf(err, errSize, "split-dropped needs -split_kv > 1");
      return false;
    }
    for (int64_t bq = 0; bq < rockAttnProblemGetB(p); ++bq)
      for (int64_t i = 0; i < p->seqLenQ; ++i)
        rockBufferSet(s->lsePartial, bq * p->splitKV * p->seqLenQ + i,
                      -INFINITY);
    return true;
  case ROCK_MUTATE_LSE:
    if (!p->returnLse) {
      snprintf(err, errSize, "lse needs -return_lse");
      return false;
    }
    for (int64_t k = 0; k < rockAttnProblemGetLseSize(p); ++k)
      if (isfinite(rockBufferGet(s->lse, k))) {
        rockBufferSet(s->lse, k, rockBufferGet(s->lse, k) + 1e-3);
        return true;
      }
    snprintf(err, errSize, "lse: every row is fully masked");
    return false;
  }
  return true;
}
