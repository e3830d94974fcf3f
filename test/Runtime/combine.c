// RUN: rock-runtime-combine-test | FileCheck %s
/* Host split combine (docs/semantics.md §5.8). With lse = {1, 0} the weights
   are {1, 1/e}: O = (e*O0 + O1)/(e + 1), LSE = ln(e + 1) = 1.313262. */
#include "combine.h"

#include <math.h>
#include <stdio.h>

static void combine(const char *name, double l0, double l1, double o0,
                    double o1) {
  RockBuffer *op = rockBufferCreate(ROCK_DTYPE_F16, 2);
  RockBuffer *lp = rockBufferCreate(ROCK_DTYPE_F32, 2);
  RockBuffer *o = rockBufferCreate(ROCK_DTYPE_F32, 1);
  RockBuffer *l = rockBufferCreate(ROCK_DTYPE_F32, 1);
  rockBufferSet(op, 0, o0);
  rockBufferSet(op, 1, o1);
  rockBufferSet(lp, 0, l0);
  rockBufferSet(lp, 1, l1);
  rockCombineSplits(op, lp, 1, 2, 1, 1, false, o, l);
  printf("%s: O %.6f LSE %.6f\n", name, rockBufferGet(o, 0),
         rockBufferGet(l, 0));
  rockBufferDestroy(op);
  rockBufferDestroy(lp);
  rockBufferDestroy(o);
  rockBufferDestroy(l);
}

int main(void) {
  // TEST: equal weights
  combine("equal", 0, 0, 1, 3);
  // CHECK: equal: O 2.000000 LSE 0.693147
  // TEST: weights {1, 1/e}: O = (e + 3)/(e + 1) = 1.537883
  combine("weighted", 1, 0, 1, 3);
  // CHECK: weighted: O 1.537883 LSE 1.313262
  // TEST: an empty split (-inf) is skipped, its NaN partial is not read
  combine("one empty", 0.5, -INFINITY, 4, NAN);
  // CHECK: one empty: O 4.000000 LSE 0.500000
  // TEST: all splits empty: O = 0, LSE = -inf
  combine("all empty", -INFINITY, -INFINITY, NAN, NAN);
  // CHECK: all empty: O 0.000000 LSE -inf
  // TEST: large LSEs do not overflow (f32 weights relative to the max)
  combine("large", 1000, 1000, 60000, 62080);
  // CHECK: large: O 61040.000000 LSE 1000.693176

  // TEST: transposed partials [B*S, Dv, Sq] with Sq = Dv = 2
  RockBuffer *op = rockBufferCreate(ROCK_DTYPE_F32, 8);
  RockBuffer *lp = rockBufferCreate(ROCK_DTYPE_F32, 4);
  RockBuffer *o = rockBufferCreate(ROCK_DTYPE_F32, 4);
  // split 0: [Dv=2][Sq=2] = {{1, 2}, {3, 4}}; split 1 all 5; row 0 equal
  // weights, row 1 only split 0 (split 1 empty for row 1).
  const double opv[] = {1, 2, 3, 4, 5, 5, 5, 5};
  const double lpv[] = {0, 0, 0, -INFINITY};
  for (int i = 0; i < 8; ++i)
    rockBufferSet(op, i, opv[i]);
  for (int i = 0; i < 4; ++i)
    rockBufferSet(lp, i, lpv[i]);
  rockCombineSplits(op, lp, 1, 2, 2, 2, true, o, NULL);
  printf("transposed: %g %g %g %g\n", rockBufferGet(o, 0), rockBufferGet(o, 1),
         rockBufferGet(o, 2), rockBufferGet(o, 3));
  // out[e][i]: e0 = {(1+5)/2, 2}, e1 = {(3+5)/2, 4}
  // CHECK: transposed: 3 2 4 4
  rockBufferDestroy(op);
  rockBufferDestroy(lp);
  rockBufferDestroy(o);
  return 0;
}
