//===- harness.c - fuzz target: rock-run's harness reader and inputs ------===//
//
// The bytes are the text of a `rock.harness` dictionary. One that reads
// cleanly (rockHarnessRead) and whose buffers all fit a small budget of
// elements gets what rock-run builds from it: argument buffers, inputs
// filled per its rand settings, paged caches with shuffled pages, and the
// f64 reference over them. Anything else must be refused with a message.
//
//===----------------------------------------------------------------------===//
#include "fuzz_common.h"

#include "buffer.h"
#include "harness.h"
#include "init.h"
#include "paged.h"
#include "problem.h"
#include "reference.h"
#include "rock-c/Sizes.h"

#include <stdlib.h>
#include <string.h>

/// The element budget: every buffer, and the reference's work, stays small.
enum { BUDGET = 1 << 14 };

static void build(const RockHarness *h) {
  const RockAttnProblem *p = &h->problem;
  int64_t sizes[] = {rockAttnProblemGetQSize(p), rockAttnProblemGetKSize(p),
                     rockAttnProblemGetVSize(p), rockAttnProblemGetScoreSize(p),
                     rockAttnProblemGetPartialOutSize(p)};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    if (sizes[i] < 0 || sizes[i] > BUDGET)
      return;
  int64_t work;
  if (!rockSizeMul(sizes[3], p->headDimQK + p->headDimV, &work) ||
      work > 16 * BUDGET)
    return;
  RockInitConfig init;
  memset(&init, 0, sizeof init);
  if (!rockInitConfigSetRand(&init, h->rand, NULL))
    return;
  init.floatValues = h->randFloat;
  init.minFloat = h->randMin, init.maxFloat = h->randMax;
  init.minInt = h->randMinInt, init.maxInt = h->randMaxInt;
  RockDType vt = rockAttnProblemGetValueType(p);
  RockBuffer *q = rockBufferCreate(p->dtype, sizes[0]);
  RockBuffer *k = rockBufferCreate(p->dtype, sizes[1]);
  RockBuffer *v = rockBufferCreate(vt, sizes[2]);
  RockBuffer *scale = p->withScale ? rockBufferCreate(vt, sizes[3]) : NULL;
  RockBuffer *bias = p->withBias ? rockBufferCreate(vt, sizes[3]) : NULL;
  RockPagedCache *kc = NULL, *vc = NULL;
  double *out =
      malloc((size_t)rockAttnProblemGetOutSize(p) * sizeof(double) + 8);
  double *lse =
      malloc((size_t)rockAttnProblemGetLseSize(p) * sizeof(double) + 8);
  if (q && k && v && out && lse && (!p->withScale || scale) &&
      (!p->withBias || bias)) {
    RockBuffer *fill[] = {q, k, v, scale, bias};
    for (size_t i = 0; i < 5; ++i)
      if (fill[i])
        rockInitFill(&init, fill[i]);
    bool ok = true;
    if (p->paged) {
      RockRng rng = rockRngCreate(7);
      kc = rockPagedCacheCreate(k, p->g, p->numPages, p->pageSize, &rng);
      vc = rockPagedCacheCreate(v, p->g, p->numPages, p->pageSize, &rng);
      ok = kc && vc;
    }
    RockAttnInputs in = {q, k, v, NULL, NULL, scale, bias, p->paged, kc, vc};
    if (ok && p->dtype != ROCK_DTYPE_I8)
      (void)rockReferenceAttention(p, &in, out, p->returnLse ? lse : NULL);
  }
  rockPagedCacheDestroy(kc);
  rockPagedCacheDestroy(vc);
  rockBufferDestroy(q);
  rockBufferDestroy(k);
  rockBufferDestroy(v);
  rockBufferDestroy(scale);
  rockBufferDestroy(bias);
  free(out);
  free(lse);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MlirStringRef text = {(const char *)data, size};
  if (size > 8192 ||
      !rockTextCheckNesting(text, ROCK_MAX_TEXT_NESTING, NULL, 0))
    return 0;
  char *copy = rockFuzzText(data, size);
  if (!copy)
    return 0;
  MlirContext ctx = rockFuzzContext();
  MlirAttribute a = mlirAttributeParseGet(ctx, (MlirStringRef){copy, size});
  if (!mlirAttributeIsNull(a)) {
    RockHarness *h = malloc(sizeof *h);
    char err[512];
    if (h && rockHarnessRead(a, h, err, sizeof err))
      build(h);
    free(h);
  }
  mlirContextDestroy(ctx);
  free(copy);
  return 0;
}
