// RUN: rock-runtime-reference-test | FileCheck %s
/* The f64 reference on tiny cases whose answers are computed by hand:
   softmax over scores {0, 1} is {1/(1+e), e/(1+e)} = {0.268941, 0.731059};
   with V = {1, 3}: O = 1 + 2e/(1+e) = 2.462117, LSE = ln(1+e) = 1.313262. */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static RockAttnProblem prob;

static RockBuffer *buf(RockDType t, int n, const double *v) {
  RockBuffer *b = rockBufferCreate(t, n);
  for (int i = 0; i < n; ++i)
    rockBufferSet(b, i, v[i]);
  return b;
}

static void setup(int64_t hq, int64_t hkv, int64_t sq, int64_t sk, int64_t dqk,
                  int64_t dv) {
  rockAttnProblemInit(&prob);
  prob.numHeadsQ = hq;
  prob.numHeadsKV = hkv;
  prob.seqLenQ = sq;
  prob.seqLenK = sk;
  prob.headDimQK = dqk;
  prob.headDimV = dv;
}

static void run(const char *name, RockAttnInputs *in) {
  int64_t b = rockAttnProblemGetB(&prob);
  int64_t n = b * prob.seqLenQ;
  double out[64], lse[16];
  rockReferenceAttention(&prob, in, out, lse);
  printf("%s: O", name);
  for (int64_t i = 0; i < n * prob.headDimV; ++i)
    printf(" %.6f", out[i]);
  printf(" LSE");
  for (int64_t i = 0; i < n; ++i)
    printf(" %.6f", lse[i]);
  printf("\n");
}

static void visible(const char *name, int64_t i) {
  printf("%s:", name);
  for (int j = 0; j < prob.seqLenK; ++j)
    printf(" %d", rockReferenceIsVisible(&prob, 0, i, j));
  printf("\n");
}

int main(void) {
  const double one[] = {1, 1, 1, 1}, keys01[] = {0, 1}, v13[] = {1, 3};
  // TEST: 1 query, 2 keys, scores {0, 1}
  setup(1, 1, 1, 2, 1, 1);
  RockBuffer *q = buf(ROCK_DTYPE_F32, 1, one);
  RockBuffer *k = buf(ROCK_DTYPE_F32, 2, keys01);
  RockBuffer *v = buf(ROCK_DTYPE_F32, 2, v13);
  RockAttnInputs in = {q, k, v, NULL, NULL, NULL, NULL, false, NULL, NULL};
  run("two keys", &in);
  // CHECK: two keys: O 2.462117 LSE 1.313262

  // TEST: equal scores: plain mean, LSE = ln 2
  const double keys00[] = {0, 0};
  RockBuffer *k00 = buf(ROCK_DTYPE_F32, 2, keys00);
  in.k = k00;
  run("equal", &in);
  // CHECK: equal: O 2.000000 LSE 0.693147
  in.k = k;

  // TEST: causal, 2 rows: row 0 sees key 0 only (O = V0, LSE = s0 = 0)
  setup(1, 1, 2, 2, 1, 1);
  prob.causal = true;
  RockBuffer *q2 = buf(ROCK_DTYPE_F32, 2, one);
  in.q = q2;
  run("causal", &in);
  // CHECK: causal: O 1.000000 2.462117 LSE 0.000000 1.313262

  // TEST: prefix offset -1 masks row 0 fully: O = 0, LSE = -inf
  prob.numPrefixOffset = 1;
  prob.prefixOffset[0] = -1;
  run("prefix -1", &in);
  // CHECK: prefix -1: O 0.000000 1.000000 LSE -inf 0.000000
  prob.prefixOffset[0] = 1; // row 0 sees keys 0..1
  run("prefix 1", &in);
  // CHECK: prefix 1: O 2.462117 2.462117 LSE 1.313262 1.313262
  prob.numPrefixOffset = 0;

  // TEST: sliding window W = 0 keeps only the key at the KV bound (Sk - 1 =
  // 1): row 0, whose causal bound is key 0, is fully masked
  prob.slidingWindow = 0;
  run("window 0", &in);
  // CHECK: window 0: O 0.000000 3.000000 LSE -inf 1.000000
  prob.slidingWindow = -1;
  prob.causal = false;

  // TEST: currentSeqLen is inclusive and clamps at Sk-1
  prob.numCurrentSeqLen = 1;
  prob.currentSeqLen[0] = 0;
  run("kv 0", &in);
  // CHECK: kv 0: O 1.000000 1.000000 LSE 0.000000 0.000000
  prob.currentSeqLen[0] = 7;
  run("kv 7", &in);
  // CHECK: kv 7: O 2.462117 2.462117 LSE 1.313262 1.313262
  prob.currentSeqLen[0] = -1;
  run("kv -1", &in);
  // CHECK: kv -1: O 0.000000 0.000000 LSE -inf -inf
  prob.numCurrentSeqLen = 0;

  // TEST: GQA 4/2: query heads 0,1 use KV head 0, heads 2,3 use KV head 1
  setup(4, 2, 1, 1, 1, 1);
  const double v1020[] = {10, 20};
  RockBuffer *q4 = buf(ROCK_DTYPE_F32, 4, one);
  RockBuffer *k2 = buf(ROCK_DTYPE_F32, 2, keys01);
  RockBuffer *v2 = buf(ROCK_DTYPE_F32, 2, v1020);
  RockAttnInputs gin = {q4, k2, v2, NULL, NULL, NULL, NULL, false, NULL, NULL};
  run("gqa", &gin);
  // CHECK: gqa: O 10.000000 10.000000 20.000000 20.000000 LSE 0.000000 0.000000 1.000000 1.000000

  // TEST: transV reads V as [Bkv, Dv, Sk]
  setup(1, 1, 1, 2, 1, 2);
  const double vv[] = {1, 3, 10, 30};
  RockBuffer *v4 = buf(ROCK_DTYPE_F32, 4, vv);
  RockAttnInputs tin = {q, k00, v4, NULL, NULL, NULL, NULL, false, NULL, NULL};
  run("V", &tin);
  // CHECK: V: O 5.500000 16.500000 LSE 0.693147
  prob.transV = true;
  run("transV", &tin);
  // CHECK: transV: O 2.000000 20.000000 LSE 0.693147

  // TEST: transK and paged layout read K as [Bkv, Sk, Dqk]
  setup(1, 1, 1, 2, 2, 1);
  const double q10[] = {1, 0}, kk[] = {0, 1, 0, 0};
  // [Dqk, Sk] = {{0, 1}, {0, 0}}: scores {0, 1}; [Sk, Dqk]: scores {0, 0}
  RockBuffer *qd = buf(ROCK_DTYPE_F32, 2, q10);
  RockBuffer *kd = buf(ROCK_DTYPE_F32, 4, kk);
  RockAttnInputs kin = {qd, kd, v, NULL, NULL, NULL, NULL, false, NULL, NULL};
  run("K", &kin);
  // CHECK: K: O 2.462117 LSE 1.313262
  prob.transK = true;
  run("transK", &kin);
  // CHECK: transK: O 2.000000 LSE 0.693147
  prob.transK = false;
  kin.kvHeadMajor = true;
  run("paged K", &kin);
  // CHECK: paged K: O 2.000000 LSE 0.693147

  // TEST: i8 dequant (s - quantBias) * quantScale, then scale, then bias
  // s = 2*{3, 1} = {6, 2}; -2 -> {4, 0}; *0.25 -> {1, 0}; *{1, 3} -> {1, 0};
  // +{0, 1} -> {1, 1}: equal scores, O = 2, LSE = 1 + ln 2.
  setup(1, 1, 1, 2, 1, 1);
  prob.dtype = ROCK_DTYPE_I8;
  prob.withScale = prob.withBias = true;
  const double q2v[] = {2}, k31[] = {3, 1}, qb[] = {2}, qs[] = {0.25},
               sc[] = {1, 3}, bi[] = {0, 1};
  RockBuffer *qi = buf(ROCK_DTYPE_I8, 1, q2v), *ki = buf(ROCK_DTYPE_I8, 2, k31),
             *vi = buf(ROCK_DTYPE_F16, 2, v13),
             *qbi = buf(ROCK_DTYPE_I8, 1, qb),
             *qsi = buf(ROCK_DTYPE_F16, 1, qs),
             *sci = buf(ROCK_DTYPE_F16, 2, sc),
             *bii = buf(ROCK_DTYPE_F16, 2, bi);
  RockAttnInputs iin = {qi, ki, vi, qbi, qsi, sci, bii, false, NULL, NULL};
  run("i8", &iin);
  // CHECK: i8: O 2.000000 LSE 1.693147
  prob.strict = true;
  run("i8 strict", &iin);
  // CHECK: i8 strict: O 2.000000 LSE 1.693147

  // TEST: roundNarrow (-pv's reference) and strict round the f16 scores
  // where the region computes: 3 * {683, 682} = {2049, 2046}; f16 stores 2049
  // as 2048 (ties to even). V = {1, -1}: unrounded d = 3, O = tanh(d / 2) =
  // 0.905148; rounded d = 2, and P = e^-2 = 0.13533528 meets V as the f16
  // 0.13537598 (next test): O = (1 - 0.13537598) / (1 + e^-2) = 0.761558.
  // LSE = 2049 + ln(1 + e^-3), rounded 2048 + ln(1 + e^-2).
  setup(1, 1, 1, 2, 1, 1);
  prob.dtype = ROCK_DTYPE_F16;
  prob.withScale = true;
  const double q3[] = {3}, k683[] = {683, 682}, vpm[] = {1, -1},
               sc11[] = {1, 1};
  RockBuffer *qh = buf(ROCK_DTYPE_F16, 1, q3),
             *kh = buf(ROCK_DTYPE_F16, 2, k683),
             *vh = buf(ROCK_DTYPE_F16, 2, vpm),
             *sch = buf(ROCK_DTYPE_F16, 2, sc11);
  RockAttnInputs hin = {qh, kh, vh, NULL, NULL, sch, NULL, false, NULL, NULL};
  run("f16 plain", &hin);
  // CHECK: f16 plain: O 0.905148 LSE 2049.048587
  prob.roundNarrow = true;
  run("f16 narrow", &hin);
  // CHECK: f16 narrow: O 0.761558 LSE 2048.126928
  prob.roundNarrow = false;
  prob.strict = true;
  run("f16 strict", &hin);
  // CHECK: f16 strict: O 0.761558 LSE 2048.126928
  // TEST: P meets V in V's type (semantics.md §5.6), the row sum takes it
  // unrounded: scores {0, -2^-10}, exp(-2^-10) = 0.99902391 is stored in f16
  // as 0.99902344. V = {1000, -1000}: unrounded O = 1000 tanh(2^-11) =
  // 0.488281; rounded O = 1000 (1 - 0.99902344) / 1.99902391 = 0.488520.
  setup(1, 1, 1, 2, 1, 1);
  prob.dtype = ROCK_DTYPE_F16;
  const double kp[] = {0, -1.0 / 1024}, vp[] = {1000, -1000};
  RockBuffer *qp = buf(ROCK_DTYPE_F16, 1, one),
             *kpb = buf(ROCK_DTYPE_F16, 2, kp),
             *vpb = buf(ROCK_DTYPE_F16, 2, vp);
  RockAttnInputs pin = {qp,   kpb,  vpb,   NULL, NULL,
                        NULL, NULL, false, NULL, NULL};
  run("p plain", &pin);
  // CHECK: p plain: O 0.488281 LSE 0.692659
  prob.roundNarrow = true;
  run("p narrow", &pin);
  // CHECK: p narrow: O 0.488520 LSE 0.692659

  // TEST: roundNarrow leaves f32 scores alone, strict rounds them: scores
  // {1, 0} + bias 2^24 are {2^24 + 1, 2^24}; f32 stores 2^24 + 1 as 2^24.
  // V = {1, 0}: unrounded O = e/(1+e), LSE = 2^24 + 1 + ln(1 + 1/e);
  // rounded O = 1/2, LSE = 2^24 + ln 2.
  setup(1, 1, 1, 2, 1, 1);
  prob.withBias = true;
  const double kf[] = {1, 0}, vf[] = {1, 0}, bf[] = {16777216, 16777216};
  RockBuffer *qfb = buf(ROCK_DTYPE_F32, 1, one),
             *kfb = buf(ROCK_DTYPE_F32, 2, kf),
             *vfb = buf(ROCK_DTYPE_F32, 2, vf),
             *bfb = buf(ROCK_DTYPE_F32, 2, bf);
  RockAttnInputs fin = {qfb,  kfb, vfb,   NULL, NULL,
                        NULL, bfb, false, NULL, NULL};
  prob.roundNarrow = true;
  run("f32 narrow", &fin);
  // CHECK: f32 narrow: O 0.731059 LSE 16777217.313262
  prob.roundNarrow = false;
  prob.strict = true;
  run("f32 strict", &fin);
  // CHECK: f32 strict: O 0.500000 LSE 16777216.693147

  // TEST: visibility helper. Causal, KV-cache index 5, window 2: the window
  // looks back from the index (keys [3, 5]) whatever the row's causal bound,
  // so row 3 sees key 3 alone and row 1 nothing. A causal look-back of 1
  // looks back from the row instead (row 3: keys [2, 3]); with both, row 4
  // keeps keys [3, 4].
  setup(1, 1, 8, 8, 1, 1);
  prob.causal = true;
  prob.numCurrentSeqLen = 1;
  prob.currentSeqLen[0] = 5;
  prob.slidingWindow = 2;
  visible("window row 3", 3);
  // CHECK: window row 3: 0 0 0 1 0 0 0 0
  visible("window row 1", 1);
  // CHECK: window row 1: 0 0 0 0 0 0 0 0
  visible("window row 7", 7);
  // CHECK: window row 7: 0 0 0 1 1 1 0 0
  prob.slidingWindow = -1;
  prob.causalLookBack = 1;
  visible("band row 3", 3);
  // CHECK: band row 3: 0 0 1 1 0 0 0 0
  prob.slidingWindow = 2;
  visible("both row 4", 4);
  // CHECK: both row 4: 0 0 0 1 1 0 0 0

  RockBuffer *all[] = {q,  k,  v,  k00, q2,  q4,  k2,  v2, v4, qd, kd,
                       qi, ki, vi, qbi, qsi, sci, bii, qh, kh, vh, sch};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    rockBufferDestroy(all[i]);
  return 0;
}
