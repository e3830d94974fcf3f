// RUN: rock-runtime-bundle-test %t | FileCheck %s
/* GPU bundles: every harness field and every kind of kernel parameter
   survives a write and a read; binary objects keep NUL bytes and newlines;
   page tables rebase onto a pool copy (what the GPU runner uploads). */
#include "bundle.h"
#include "paged.h"

#include <stdio.h>
#include <string.h>

static RockBundle written, read;

static void fill(RockBundle *b) {
  rockHarnessInit(&b->harness);
  RockHarness *h = &b->harness;
  RockAttnProblem *p = &h->problem;
  // Every field differs from its default.
  p->dtype = ROCK_DTYPE_BF16;
  p->softmaxType = ROCK_DTYPE_F16;
  p->g = 3, p->numHeadsQ = 32, p->numHeadsKV = 8, p->seqLenQ = 1;
  p->seqLenK = 4096, p->headDimQK = 128, p->headDimV = 128, p->splitKV = 4;
  p->causal = p->returnLse = p->withScale = p->withBias = true;
  p->transQ = p->transK = p->transV = p->transO = true;
  p->paged = true, p->numPages = 256, p->pageSize = 16384;
  p->numCurrentSeqLen = 3;
  p->currentSeqLen[0] = 1, p->currentSeqLen[1] = 4095, p->currentSeqLen[2] = 7;
  p->numPrefixOffset = 3;
  p->prefixOffset[0] = 0, p->prefixOffset[1] = 2, p->prefixOffset[2] = 5;
  p->slidingWindow = 17, p->causalLookBack = 9;
  p->strict = p->roundNarrow = true;
  strcpy(h->rand, "12345");
  h->randFloat = true;
  h->randMin = -0.1, h->randMax = 1.0 / 3.0;
  h->randMinInt = -7, h->randMaxInt = 9;
  h->hasRms = h->hasAbsDiff = h->hasRelDiff = h->hasAtol = h->hasRtol = true;
  h->rms = 1e-3, h->absDiff = 0.25, h->relDiff = 3e-300, h->atol = 1e-5;
  h->rtol = 2e-2;
  h->allclose = true;
  h->kernelRepeats = 5;
  h->printResults = h->printInputs = h->printValidation = true;
  strcpy(h->printVerify, "always");
  strcpy(h->verifier, "mlir-strict");
  strcpy(b->arch, "sm_90a");
  b->compileMs = 812.5;
  static char ptx[] = ".version 8.0\n.target sm_90\n\nend\n";
  static char cubin[] = {0x7f, 'E', 'L', 'F', 0, '\n', 0, 'x'};
  b->numObjects = 2;
  b->objects[0] =
      (RockBundleObject){"k0", ROCK_OBJECT_PTX, sizeof ptx - 1, ptx};
  b->objects[1] =
      (RockBundleObject){"k1", ROCK_OBJECT_CUBIN, sizeof cubin, cubin};
  b->numFuncs = 2;
  RockBundleFunc *f = &b->funcs[0];
  strcpy(f->name, "rock_attention");
  f->numArgs = 3;
  f->args[0] = (RockBundleArg){ROCK_DTYPE_BF16, 4096};
  f->args[1] = (RockBundleArg){ROCK_DTYPE_I64, 512};
  f->args[2] = (RockBundleArg){ROCK_DTYPE_F32, 96};
  f->numScratch = 2;
  f->scratchBytes[0] = 1024, f->scratchBytes[1] = 0;
  f->scratchZero[1] = true; /* rock.zero_init scratch: `scratch 0 zero` */
  f->numLaunches = 2;
  RockBundleLaunch *l = &f->launches[0];
  l->object = 0;
  strcpy(l->kernel, "attn");
  l->grid[0] = 132, l->grid[1] = 2, l->grid[2] = 3;
  l->block[0] = 128, l->block[1] = l->block[2] = 1;
  l->smem = 65536;
  l->numParams = 6;
  l->params[0] = (RockBundleParam){ROCK_PARAM_ARG, 2};
  l->params[1] = (RockBundleParam){ROCK_PARAM_ARG, 0};
  l->params[2] = (RockBundleParam){ROCK_PARAM_SCRATCH, 1};
  l->params[3] = (RockBundleParam){ROCK_PARAM_I64, -9000000000LL};
  l->params[4] = (RockBundleParam){ROCK_PARAM_I32, -3};
  l->params[5] = (RockBundleParam){ROCK_PARAM_F32, 0x3f800000};
  l = &f->launches[1];
  l->object = 1;
  strcpy(l->kernel, "second");
  l->grid[0] = l->grid[1] = l->grid[2] = 1;
  l->block[0] = l->block[1] = l->block[2] = 1;
  l->numParams = 1;
  l->params[0] = (RockBundleParam){ROCK_PARAM_ARG, 1};
  f = &b->funcs[1];
  strcpy(f->name, "rock_attention_combine");
  f->numArgs = 2;
  f->args[0] = (RockBundleArg){ROCK_DTYPE_F16, 3};
  f->args[1] = (RockBundleArg){ROCK_DTYPE_F32, 1};
  f->numLaunches = 1;
  f->launches[0] = b->funcs[0].launches[1];
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  fill(&written);
  FILE *f = fopen(argv[1], "wb");
  bool wrote = f && rockBundleWrite(f, &written);
  wrote = f && fclose(f) == 0 && wrote;
  char err[512] = "";
  bool ok = rockBundleRead(argv[1], &read, err, sizeof err);
  // TEST: the bundle is written and read back
  printf("wrote %d read %d '%s'\n", wrote, ok, err);
  // CHECK: wrote 1 read 1 ''

  // TEST: the harness is identical, field for field (both start from
  // rockHarnessInit, so padding matches too)
  printf("harness same %d\n",
         !memcmp(&written.harness, &read.harness, sizeof read.harness));
  // CHECK: harness same 1

  // TEST: functions, arguments, scratch and launches are identical
  printf("funcs same %d\n",
         !memcmp(written.funcs, read.funcs, sizeof read.funcs));
  // CHECK: funcs same 1

  // TEST: arch, compile time and objects (bytes, formats, names)
  int objs = read.numObjects == 2;
  for (int i = 0; objs && i < 2; ++i)
    objs = read.objects[i].size == written.objects[i].size &&
           read.objects[i].format == written.objects[i].format &&
           !strcmp(read.objects[i].name, written.objects[i].name) &&
           !memcmp(read.objects[i].data, written.objects[i].data,
                   read.objects[i].size);
  printf("arch %s compile %.1f objects same %d\n", read.arch, read.compileMs,
         objs);
  // CHECK: arch sm_90a compile 812.5 objects same 1
  rockBundleDestroy(&read);

  // TEST: a table rebased onto a pool copy keeps each entry's offset
  RockBuffer *logical = rockBufferCreate(ROCK_DTYPE_F16, 24);
  RockRng rng = rockRngCreate(3);
  RockPagedCache *c = rockPagedCacheCreate(logical, 2, 3, 4, &rng);
  int64_t rebased[6];
  rockPageTableRebase(c, 0x7000000000ull, rebased);
  const int64_t *table = c->table->data;
  int same = 1;
  for (int i = 0; i < 6; ++i)
    same &= rebased[i] == 0x7000000000ll + c->perm[i] * 8 &&
            table[i] - (int64_t)(uintptr_t)c->pool->data == c->perm[i] * 8;
  printf("rebased %d\n", same);
  // CHECK: rebased 1
  rockPagedCacheDestroy(c);
  rockBufferDestroy(logical);
  return 0;
}
