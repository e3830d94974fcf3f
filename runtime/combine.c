//===- combine.c - host split-KV combine ---------------------------------===//
#include "combine.h"

#include <math.h>

static int64_t outIndex(int64_t batch, int64_t i, int64_t e, int64_t sq,
                        int64_t dv, bool transposed) {
  return transposed ? (batch * dv + e) * sq + i : (batch * sq + i) * dv + e;
}

void rockCombineSplits(const RockBuffer *outPartial,
                       const RockBuffer *lsePartial, int64_t b, int64_t s,
                       int64_t sq, int64_t dv, bool transposed, RockBuffer *out,
                       RockBuffer *lse) {
  for (int64_t bq = 0; bq < b; ++bq) {
    for (int64_t i = 0; i < sq; ++i) {
      float m = -INFINITY;
      for (int64_t k = 0; k < s; ++k) {
        float l = (float)rockBufferGet(lsePartial, (bq * s + k) * sq + i);
        if (l > m)
          m = l;
      }
      if (m == -INFINITY) {
        for (int64_t e = 0; e < dv; ++e)
          rockBufferSet(out, outIndex(bq, i, e, sq, dv, transposed), 0.0);
        if (lse)
          rockBufferSet(lse, bq * sq + i, -INFINITY);
        continue;
      }
      float sumW = 0.0f;
      for (int64_t k = 0; k < s; ++k) {
        float l = (float)rockBufferGet(lsePartial, (bq * s + k) * sq + i);
        sumW += expf(l - m);
      }
      for (int64_t e = 0; e < dv; ++e) {
        float acc = 0.0f;
        for (int64_t k = 0; k < s; ++k) {
          float w =
              expf((float)rockBufferGet(lsePartial, (bq * s + k) * sq + i) - m);
          if (w == 0.0f)
            continue;
          acc += w *
                 (float)rockBufferGet(outPartial, outIndex(bq * s + k, i, e, sq,
                                                           dv, transposed));
        }
        rockBufferSet(out, outIndex(bq, i, e, sq, dv, transposed),
                      (double)(acc / sumW));
      }
      if (lse)
        rockBufferSet(lse, bq * sq + i, (double)(m + logf(sumW)));
    }
  }
}
