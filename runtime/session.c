//===- session.c - one verified attention run, shared by the runners ------===//
#define _POSIX_C_SOURCE 200809L

#include "session.h"

#include "combine.h"
#include "init.h"
#include "metrics.h"
#include "mutate.h"
#include "npy.h"
#include "problem.h"
#include "reference.h"
#include "session_probe.h"
#include "timer.h"
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

int rockReportError(const char *tool, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", tool);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  return ROCK_EXIT_ERROR;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

void rockSessionDestroy(RockSession *r) {
  RockBuffer *owned[] = {r->q,
                         r->k,
                         r->v,
                         r->quantBias,
                         r->quantScale,
                         r->scale,
                         r->bias,
                         r->currentSeqLen,
                         r->prefixOffset,
                         r->lsePartial,
                         r->outPartial};
  for (size_t i = 0; i < sizeof owned / sizeof owned[0]; ++i)
    rockBufferDestroy(owned[i]);
  if (r->out != r->outPartial)
    rockBufferDestroy(r->out);
  if (r->lse != r->lsePartial)
    rockBufferDestroy(r->lse);
  rockPagedCacheDestroy(r->kCache);
  rockPagedCacheDestroy(r->vCache);
  free(r->refOut);
  free(r->refLse);
  free(r->resOut);
  free(r->resLse);
  memset(r, 0, sizeof *r);
}

static RockBuffer *addArg(RockSession *r, const char *role, RockBuffer *buf) {
  r->args[r->numArgs].role = role;
  r->args[r->numArgs].buf = buf;
  ++r->numArgs;
  return buf;
}

/// Bytes of host memory the run holds at once (arguments, paged pools,
/// combined results, f64 reference and result copies). Every size was
/// bounded by rockAttnProblemCheck, so the sum cannot wrap.
static int64_t runBytes(const RockAttnProblem *p) {
  int64_t vs = (int64_t)rockDTypeGetSize(rockAttnProblemGetValueType(p));
  int64_t qs = (int64_t)rockDTypeGetSize(p->dtype);
  int64_t kv =
      rockAttnProblemGetKSize(p) * qs + rockAttnProblemGetVSize(p) * vs;
  // Paged: both pools, plus one logical cache while it is cut into pages.
  int64_t n = rockAttnProblemGetQSize(p) * qs + kv;
  if (p->paged)
    n += rockAttnProblemGetKSize(p) * qs > rockAttnProblemGetVSize(p) * vs
             ? rockAttnProblemGetKSize(p) * qs
             : rockAttnProblemGetVSize(p) * vs;
  n += rockAttnProblemGetScoreSize(p) * vs * (p->withScale + p->withBias);
  n += rockAttnProblemGetPartialOutSize(p) * vs +
       rockAttnProblemGetPartialLseSize(p) * 4;
  n += rockAttnProblemGetOutSize(p) * (vs + 16) +
       rockAttnProblemGetLseSize(p) * (4 + 16);
  return n;
}

/// Memory this process may still use, in bytes: MemAvailable (else the
/// physical memory), capped by RLIMIT_AS and RLIMIT_DATA.
static int64_t memoryLimit(void) {
  int64_t avail = (int64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
  FILE *f = fopen("/proc/meminfo", "r");
  char line[128];
  long long kb;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
      avail = (int64_t)kb * 1024;
  if (f)
    fclose(f);
  const int res[2] = {RLIMIT_AS, RLIMIT_DATA};
  for (int i = 0; i < 2; ++i) {
    struct rlimit rl;
    if (getrlimit(res[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (int64_t)rl.rlim_cur < avail)
      avail = (int64_t)rl.rlim_cur;
  }
  return avail;
}

/// Allocates the kernel arguments in docs/user-guide.md §2.3 order. Paged K/V
/// are not allocated here: fillArgs builds each logical cache, cuts it into its
/// page pool and frees it before the next (unless `keepLogical`).
/// Returns an exit status (one line on stderr on failure).
static int allocateArgs(const char *tool, const RockAttnProblem *p,
                        RockSession *r, bool keepLogical) {
  int64_t need = runBytes(p), limit = memoryLimit();
  if (need > limit)
    return rockReportError(tool,
                           "out of memory: the run needs %lld MiB of host "
                           "buffers, %lld MiB are available",
                           (long long)(need >> 20), (long long)(limit >> 20));
  RockDType vt = rockAttnProblemGetValueType(p);
  r->q = rockBufferCreate(p->dtype, rockAttnProblemGetQSize(p));
  if (!p->paged || keepLogical) {
    r->k = rockBufferCreate(p->dtype, rockAttnProblemGetKSize(p));
    r->v = rockBufferCreate(vt, rockAttnProblemGetVSize(p));
  }
  if (p->dtype == ROCK_DTYPE_I8) {
    r->quantBias = rockBufferCreate(ROCK_DTYPE_I8, 1);
    r->quantScale = rockBufferCreate(ROCK_DTYPE_F16, 1);
  }
  if (p->withScale)
    r->scale = rockBufferCreate(vt, rockAttnProblemGetScoreSize(p));
  if (p->withBias)
    r->bias = rockBufferCreate(vt, rockAttnProblemGetScoreSize(p));
  if (p->numCurrentSeqLen)
    r->currentSeqLen = rockBufferCreate(ROCK_DTYPE_I32, p->g);
  if (p->numPrefixOffset)
    r->prefixOffset = rockBufferCreate(ROCK_DTYPE_I32, p->g);
  if (p->returnLse)
    r->lsePartial =
        rockBufferCreate(ROCK_DTYPE_F32, rockAttnProblemGetPartialLseSize(p));
  r->outPartial = rockBufferCreate(vt, rockAttnProblemGetPartialOutSize(p));
  size_t nOut = (size_t)rockAttnProblemGetOutSize(p);
  size_t nLse = (size_t)rockAttnProblemGetLseSize(p);
  r->refOut = malloc(nOut * sizeof(double));
  r->resOut = malloc(nOut * sizeof(double));
  r->refLse = malloc(nLse * sizeof(double));
  r->resLse = malloc(nLse * sizeof(double));
  if (!r->q || ((!p->paged || keepLogical) && (!r->k || !r->v)) ||
      !r->outPartial || !r->refOut || !r->resOut || !r->refLse || !r->resLse ||
      (p->dtype == ROCK_DTYPE_I8 && (!r->quantBias || !r->quantScale)) ||
      (p->withScale && !r->scale) || (p->withBias && !r->bias) ||
      (p->numCurrentSeqLen && !r->currentSeqLen) ||
      (p->numPrefixOffset && !r->prefixOffset) ||
      (p->returnLse && !r->lsePartial))
    return rockReportError(tool, "out of memory allocating the arguments");
  return ROCK_EXIT_PASS;
}

/// Fills the inputs in argument order, builds the paged caches, and lists the
/// kernel arguments.
/// Fills one logical paged cache (`*logical`, or a temporary when it is
/// NULL), cuts it into `*cache` and frees the temporary: at most one
/// logical cache exists at a time.
static bool fillPaged(const RockAttnProblem *p, RockInitConfig *init,
                      RockRng *pageRng, RockDType t, int64_t n,
                      RockBuffer *logical, RockPagedCache **cache) {
  RockBuffer *tmp = logical ? NULL : rockBufferCreate(t, n);
  RockBuffer *src = logical ? logical : tmp;
  if (!src)
    return false;
  rockInitFill(init, src);
  *cache = rockPagedCacheCreate(src, p->g, p->numPages, p->pageSize, pageRng);
  rockBufferDestroy(tmp);
  return *cache != NULL;
}

static bool fillArgs(const RockAttnProblem *p, RockInitConfig *init,
                     uint64_t seed, RockSession *r) {
  // The page permutations have their own stream so that they do not shift
  // the values of later tensors.
  RockRng pageRng = rockRngCreate(seed ^ 0x70a6ed5eedull);
  RockBuffer *inputs[] = {r->q,          r->k,     r->v,   r->quantBias,
                          r->quantScale, r->scale, r->bias};
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; ++i) {
    if (p->paged && (i == 1 || i == 2)) {
      bool isK = i == 1;
      if (!fillPaged(p, init, &pageRng,
                     isK ? p->dtype : rockAttnProblemGetValueType(p),
                     isK ? rockAttnProblemGetKSize(p)
                         : rockAttnProblemGetVSize(p),
                     inputs[i], isK ? &r->kCache : &r->vCache))
        return false;
    } else if (inputs[i]) {
      rockInitFill(init, inputs[i]);
    }
  }
  for (int64_t i = 0; r->currentSeqLen && i < p->g; ++i)
    rockBufferSet(r->currentSeqLen, i, (double)p->currentSeqLen[i]);
  for (int64_t i = 0; r->prefixOffset && i < p->g; ++i)
    rockBufferSet(r->prefixOffset, i, (double)p->prefixOffset[i]);
  addArg(r, "Q", r->q);
  if (p->paged) {
    addArg(r, "K page table", r->kCache->table);
    addArg(r, "V page table", r->vCache->table);
  } else {
    addArg(r, "K", r->k);
    addArg(r, "V", r->v);
  }
  if (r->quantBias) {
    addArg(r, "quantBias", r->quantBias);
    addArg(r, "quantScale", r->quantScale);
  }
  if (r->scale)
    addArg(r, "scale", r->scale);
  if (r->bias)
    addArg(r, "bias", r->bias);
  if (r->currentSeqLen)
    addArg(r, "currentSeqLen", r->currentSeqLen);
  if (r->prefixOffset)
    addArg(r, "prefixOffset", r->prefixOffset);
  if (r->lsePartial)
    addArg(r, "LSE", r->lsePartial);
  addArg(r, "out", r->outPartial);
  rockSessionResetOutputs(r);
  return true;
}

void rockSessionResetOutputs(RockSession *s) {
  // Outputs start as NaN so that an element the kernel never writes fails.
  RockBuffer *outs[4] = {s->outPartial, s->lsePartial, s->out, s->lse};
  for (int b = 0; b < 4; ++b)
    for (int64_t i = 0; outs[b] && i < outs[b]->numElements; ++i)
      rockBufferSet(outs[b], i, NAN);
}

static bool checkPageTables(const RockSession *r) {
  const RockPagedCache *caches[2] = {r->kCache, r->vCache};
  for (int c = 0; c < 2; ++c) {
    const RockPagedCache *pc = caches[c];
    char err[256];
    if (!rockPageTableCheck(
            pc->table->data, pc->numSlots, (uintptr_t)pc->pool->data,
            rockBufferGetBytes(pc->pool),
            (size_t)pc->pageSize * rockDTypeGetSize(pc->pool->dtype), err,
            sizeof err)) {
      rockReportError(r->tool, "%s cache: %s", c ? "V" : "K", err);
      return false;
    }
  }
  return true;
}

/// Returns a new buffer [batch][cols][rows] from `src` [batch][rows][cols].
static RockBuffer *swapLast2(const RockBuffer *src, int64_t batch, int64_t rows,
                             int64_t cols) {
  RockBuffer *dst = rockBufferCreate(src->dtype, src->numElements);
  if (!dst)
    return NULL;
  size_t es = rockDTypeGetSize(src->dtype);
  const char *s = src->data;
  char *d = dst->data;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        memcpy(d + (size_t)((b * cols + j) * rows + i) * es,
               s + (size_t)((b * rows + i) * cols + j) * es, es);
  return dst;
}

static void printBuffer(const char *what, const char *role,
                        const RockBuffer *b) {
  printf("%s %s (%s, %lld elements):", what, role, rockDTypeGetName(b->dtype),
         (long long)b->numElements);
  for (int64_t i = 0; i < b->numElements; ++i)
    printf("%s%.9g", i % 16 ? " " : "\n  ", rockBufferGet(b, i));
  printf("\n");
}

static void printDoubles(const char *what, const double *v, int64_t n) {
  printf("%s (f64, %lld elements):", what, (long long)n);
  for (int64_t i = 0; i < n; ++i)
    printf("%s%.9g", i % 16 ? " " : "\n  ", v[i]);
  printf("\n");
}

//===----------------------------------------------------------------------===//
// Dumps
//===----------------------------------------------------------------------===//

static bool dumpBuffer(const char *dir, const char *name, const RockBuffer *b,
                       int64_t d0, int64_t d1, int64_t d2, int rank) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.npy", dir, name);
  int64_t shape[3] = {d0, d1, d2};
  return rockNpyWriteBuffer(path, b, shape, rank);
}

static bool dumpCanonical(const char *dir, const char *name,
                          const RockBuffer *b, bool swap, int64_t d0,
                          int64_t d1, int64_t d2) {
  if (!swap)
    return dumpBuffer(dir, name, b, d0, d1, d2, 3);
  RockBuffer *c = swapLast2(b, d0, d2, d1); // stored [d0][d2][d1]
  bool ok = c && dumpBuffer(dir, name, c, d0, d1, d2, 3);
  rockBufferDestroy(c);
  return ok;
}

static bool writeConfig(const char *dir, const RockHarness *h, uint64_t seed) {
  const RockAttnProblem *p = &h->problem;
  char path[4096];
  snprintf(path, sizeof path, "%s/config.json", dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  const char *tf[2] = {"false", "true"};
  fprintf(f, "{\n  \"t\": \"%s\",\n", rockDTypeGetName(p->dtype));
  fprintf(f,
          "  \"g\": %lld,\n  \"num_heads_q\": %lld,\n  \"num_heads_kv\": "
          "%lld,\n  \"seq_len_q\": %lld,\n  \"seq_len_k\": %lld,\n"
          "  \"head_dim_qk\": %lld,\n  \"head_dim_v\": %lld,\n"
          "  \"split_kv\": %lld,\n",
          (long long)p->g, (long long)p->numHeadsQ, (long long)p->numHeadsKV,
          (long long)p->seqLenQ, (long long)p->seqLenK, (long long)p->headDimQK,
          (long long)p->headDimV, (long long)p->splitKV);
  fprintf(f,
          "  \"causal\": %s,\n  \"return_lse\": %s,\n  \"with_attn_scale\": "
          "%s,\n  \"with_attn_bias\": %s,\n  \"transQ\": %s,\n  \"transK\": "
          "%s,\n  \"transV\": %s,\n  \"transO\": %s,\n  \"paged\": %s,\n",
          tf[p->causal], tf[p->returnLse], tf[p->withScale], tf[p->withBias],
          tf[p->transQ], tf[p->transK], tf[p->transV], tf[p->transO],
          tf[p->paged]);
  if (p->paged)
    fprintf(f, "  \"num_pages\": %lld,\n  \"page_size\": %lld,\n",
            (long long)p->numPages, (long long)p->pageSize);
  const int64_t *lists[2] = {p->currentSeqLen, p->prefixOffset};
  const int64_t counts[2] = {p->numCurrentSeqLen, p->numPrefixOffset};
  const char *names[2] = {"current_seq_len", "prefix_offset"};
  for (int l = 0; l < 2; ++l) {
    if (!counts[l])
      continue;
    fprintf(f, "  \"%s\": [", names[l]);
    for (int64_t i = 0; i < counts[l]; ++i)
      fprintf(f, "%s%lld", i ? ", " : "", (long long)lists[l][i]);
    fprintf(f, "],\n");
  }
  if (p->slidingWindow >= 0)
    fprintf(f, "  \"sliding_window_size\": %lld,\n",
            (long long)p->slidingWindow);
  if (p->causalLookBack >= 0)
    fprintf(f, "  \"causal_look_back\": %lld,\n", (long long)p->causalLookBack);
  fprintf(f, "  \"softmax_dtype\": \"%s\",\n  \"rand\": \"%s\",\n",
          rockDTypeGetName(p->softmaxType), h->rand);
  fprintf(f, "  \"seed\": %llu,\n", (unsigned long long)seed);
  fprintf(f, "  \"rand_type\": \"%s\"\n}\n", h->randFloat ? "float" : "int");
  return fclose(f) == 0;
}

static bool dumpAll(const char *dir, const RockHarness *h, const RockSession *r,
                    uint64_t seed) {
  const RockAttnProblem *p = &h->problem;
  int64_t b = rockAttnProblemGetB(p), bkv = rockAttnProblemGetBkv(p);
  int64_t sq = p->seqLenQ, sk = p->seqLenK, dqk = p->headDimQK,
          dv = p->headDimV, s = p->splitKV;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return false;
  bool ok = writeConfig(dir, h, seed);
  ok = ok && dumpCanonical(dir, "q", r->q, p->transQ, b, sq, dqk);
  ok = ok &&
       dumpCanonical(dir, "k", r->k, !p->paged && !p->transK, bkv, sk, dqk);
  ok = ok && dumpCanonical(dir, "v", r->v, !p->paged && p->transV, bkv, sk, dv);
  ok = ok && dumpCanonical(dir, "out", r->out, p->transO, b, sq, dv);
  if (r->lse)
    ok = ok && dumpBuffer(dir, "lse", r->lse, b, sq, 0, 2);
  if (r->scale)
    ok = ok && dumpBuffer(dir, "scale", r->scale, b, sq, sk, 3);
  if (r->bias)
    ok = ok && dumpBuffer(dir, "bias", r->bias, b, sq, sk, 3);
  if (r->currentSeqLen)
    ok = ok &&
         dumpBuffer(dir, "current_seq_len", r->currentSeqLen, p->g, 0, 0, 1);
  if (r->prefixOffset)
    ok = ok && dumpBuffer(dir, "prefix_offset", r->prefixOffset, p->g, 0, 0, 1);
  if (r->quantBias) {
    ok = ok && dumpBuffer(dir, "quant_bias", r->quantBias, 1, 0, 0, 1);
    ok = ok && dumpBuffer(dir, "quant_scale", r->quantScale, 1, 0, 0, 1);
  }
  if (s > 1) {
    ok = ok && dumpCanonical(dir, "out_partial", r->outPartial, p->transO,
                             b * s, sq, dv);
    ok = ok && dumpBuffer(dir, "lse_partial", r->lsePartial, b * s, sq, 0, 2);
  }
  char path[4096];
  int64_t shape[3] = {b, sq, dv};
  snprintf(path, sizeof path, "%s/ref_out.npy", dir);
  ok = ok && rockNpyWriteF64(path, r->refOut, shape, 3);
  if (r->lse) {
    snprintf(path, sizeof path, "%s/ref_lse.npy", dir);
    ok = ok && rockNpyWriteF64(path, r->refLse, shape, 2);
  }
  if (p->paged) {
    const RockPagedCache *caches[2] = {r->kCache, r->vCache};
    const char *names[2][2] = {{"k_page_table", "k_page_pool"},
                               {"v_page_table", "v_page_pool"}};
    for (int c = 0; c < 2; ++c) {
      ok = ok && dumpBuffer(dir, names[c][0], caches[c]->table,
                            caches[c]->numSlots, 0, 0, 1);
      ok = ok && dumpBuffer(dir, names[c][1], caches[c]->pool,
                            caches[c]->numSlots, caches[c]->pageSize, 0, 2);
    }
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// The session
//===----------------------------------------------------------------------===//

int rockSessionPrepare(RockSession *s, const char *tool, const RockHarness *h,
                       bool hasCombine, bool keepLogical) {
  memset(s, 0, sizeof *s);
  s->tool = tool;
  s->h = h;
  s->hasCombine = hasCombine;
  const RockAttnProblem *p = &h->problem;
  int status = allocateArgs(tool, p, s, keepLogical);
  if (status != ROCK_EXIT_PASS)
    return status;
  RockInitConfig init;
  memset(&init, 0, sizeof init);
  if (!rockInitConfigSetRand(&init, h->rand, &s->seed))
    return rockReportError(tool, "rock.harness: bad rand value '%s'", h->rand);
  init.floatValues = h->randFloat;
  init.minFloat = h->randMin;
  init.maxFloat = h->randMax;
  init.minInt = h->randMinInt;
  init.maxInt = h->randMaxInt;
  double fillStart = rockTimerNowMs();
  if (!fillArgs(p, &init, s->seed, s))
    return rockReportError(tool, "cannot build the paged caches");
  s->fillMs = rockTimerNowMs() - fillStart;
  if (p->splitKV > 1) {
    s->out = rockBufferCreate(rockAttnProblemGetValueType(p),
                              rockAttnProblemGetOutSize(p));
    s->lse = rockBufferCreate(ROCK_DTYPE_F32, rockAttnProblemGetLseSize(p));
    if (!s->out || !s->lse)
      return rockReportError(tool, "out of memory");
    RockSessionArg ca[4] = {{"partial out", s->outPartial},
                            {"partial LSE", s->lsePartial},
                            {"out", s->out},
                            {"LSE", s->lse}};
    memcpy(s->combineArgs, ca, sizeof ca);
  } else {
    s->out = s->outPartial;
    s->lse = s->lsePartial;
  }
  if (p->paged && !checkPageTables(s))
    return ROCK_EXIT_ERROR;
  return ROCK_EXIT_PASS;
}

/// Invokes `name` through the backend; returns an exit status.
static int invoke(const RockSession *s, const RockSessionBackend *be,
                  const char *name, const RockSessionArg *args, int n) {
  RockBuffer *bufs[ROCK_SESSION_MAX_ARGS];
  for (int i = 0; i < n; ++i)
    bufs[i] = args[i].buf;
  char err[512] = "";
  if (be->invoke(be->user, name, bufs, n, err, sizeof err))
    return ROCK_EXIT_PASS;
  if (err[0])
    return rockReportError(s->tool, "%s", err);
  return rockReportError(s->tool, "cannot invoke %s", name);
}

/// Runs the kernel `repeats` times, timing each run with the host clock,
/// and after each run the probe `pr` if it has times.
static int runKernel(RockSession *s, const RockSessionBackend *be,
                     double *times, int64_t repeats, RockSessionProbe *pr) {
  for (int64_t k = 0; k < repeats; ++k) {
    double start = rockTimerNowMs();
    int status = invoke(s, be, "rock_attention", s->args, s->numArgs);
    if (status != ROCK_EXIT_PASS)
      return status;
    times[k] = rockTimerNowMs() - start;
    if (pr)
      rockSessionProbeRun(pr, k);
  }
  if (s->h->problem.paged && !checkPageTables(s))
    return ROCK_EXIT_ERROR; // the kernel overwrote its page tables
  return ROCK_EXIT_PASS;
}

/// Combines the splits with the module's combine or on the host.
static int combine(RockSession *s, const RockSessionBackend *be) {
  const RockAttnProblem *p = &s->h->problem;
  if (p->splitKV <= 1)
    return ROCK_EXIT_PASS;
  if (!s->hasCombine) {
    rockCombineSplits(s->outPartial, s->lsePartial, rockAttnProblemGetB(p),
                      p->splitKV, p->seqLenQ, p->headDimV, p->transO, s->out,
                      s->lse);
    return ROCK_EXIT_PASS;
  }
  for (int64_t i = 0; i < s->out->numElements; ++i)
    rockBufferSet(s->out, i, NAN);
  for (int64_t i = 0; i < s->lse->numElements; ++i)
    rockBufferSet(s->lse, i, NAN);
  return invoke(s, be, "rock_attention_combine", s->combineArgs, 4);
}

int rockSessionTimeKernel(RockSession *s, const RockSessionBackend *be,
                          double *times, int64_t repeats) {
  int status = runKernel(s, be, times, repeats, NULL);
  if (status != ROCK_EXIT_PASS || s->h->problem.splitKV <= 1 || !s->hasCombine)
    return status;
  // A user split's combine is part of each run: time it once and add it.
  double start = rockTimerNowMs();
  status = combine(s, be);
  double combineMs = rockTimerNowMs() - start;
  for (int64_t k = 0; k < repeats; ++k)
    times[k] += combineMs;
  return status;
}

/// The reference's view of the session's input buffers (borrowed).
static RockAttnInputs sessionInputs(const RockSession *s) {
  const RockAttnProblem *p = &s->h->problem;
  RockAttnInputs in = {s->q,     s->k,    s->v,     s->quantBias, s->quantScale,
                       s->scale, s->bias, p->paged, s->kCache,    s->vCache};
  return in;
}

/// With a rounding verifier, the -v figures are also given against the f64
/// reference without intermediate roundings: computes it into `*out` (and
/// `*lse` with -return_lse), caller-freed; leaves NULL when out of memory.
static void plainReference(const RockSession *s, double **out, double **lse) {
  RockAttnProblem plain = s->h->problem;
  plain.strict = plain.roundNarrow = false;
  RockAttnInputs in = sessionInputs(s);
  int64_t nOut = rockAttnProblemGetOutSize(&plain);
  int64_t nLse = rockAttnProblemGetLseSize(&plain);
  *out = malloc((size_t)(nOut > 0 ? nOut : 1) * sizeof **out);
  *lse = plain.returnLse ? malloc((size_t)(nLse > 0 ? nLse : 1) * sizeof **lse)
                         : NULL;
  if (!*out || (plain.returnLse && !*lse) ||
      !rockReferenceAttention(&plain, &in, *out, *lse)) {
    free(*out);
    free(*lse);
    *out = *lse = NULL;
  }
}

/// The largest |x| of `b` (0 when NULL), and whether every x is an integer.
static double intMagnitude(const RockBuffer *b, bool *integers) {
  double m = 0.0;
  for (int64_t k = 0; b && k < b->numElements; ++k) {
    double x = rockBufferGet(b, k);
    *integers = *integers && x == nearbyint(x);
    m = fabs(x) > m ? fabs(x) : m;
  }
  return m;
}

/// Whether f32 holds every score's dot product exactly: Q and K hold
/// integers and Dqk * max|q| * max|k| stays within f32's 24 bits.
static bool scoresExact(const RockSession *s) {
  bool ints = true;
  double q = intMagnitude(s->q, &ints);
  double k = intMagnitude(s->kCache ? s->kCache->pool : s->k, &ints);
  return ints && (double)s->h->problem.headDimQK * q * k <= 0x1p24;
}

/// Compares out (and LSE) with the reference; prints details when asked.
static RockVerdict verify(RockSession *s, const RockRunOptions *o) {
  const RockHarness *h = s->h;
  const RockAttnProblem *p = &h->problem;
  RockDType vt = rockAttnProblemGetValueType(p);
  int64_t b = rockAttnProblemGetB(p);
  int64_t sq = p->seqLenQ, dv = p->headDimV, nOut = b * sq * dv;
  for (int64_t bq = 0; bq < b; ++bq)
    for (int64_t i = 0; i < sq; ++i)
      for (int64_t e = 0; e < dv; ++e)
        s->resOut[(bq * sq + i) * dv + e] =
            rockBufferGet(s->out, p->transO ? (bq * dv + e) * sq + i
                                            : (bq * sq + i) * dv + e);
  for (int64_t k = 0; p->returnLse && k < b * sq; ++k)
    s->resLse[k] = rockBufferGet(s->lse, k);
  // The LSE magnitude scales the combine's error (the split weights come
  // from f32 LSEs): the reference rows' LSE, computed whether or not the
  // kernel returns one.
  double lseMag = 0.0;
  for (int64_t k = 0; k < b * sq; ++k)
    if (isfinite(s->refLse[k]) && fabs(s->refLse[k]) > lseMag)
      lseMag = fabs(s->refLse[k]);
  RockGates g = rockGatesResolve(h, o, lseMag, scoresExact(s));
  bool always = o->verbose || !strcmp(h->printVerify, "always");
  bool onFailure = !strcmp(h->printVerify, "failure");
  RockVerdict verdict = {true, true, true};
  double *plainOut = NULL, *plainLse = NULL;
  for (int pass = 0; pass < 2; ++pass) {
    bool details = pass == 1;
    if (details && !always &&
        !(onFailure && !(verdict.rms && verdict.absDiff && verdict.relDiff)))
      break;
    if (details && (p->strict || p->roundNarrow))
      plainReference(s, &plainOut, &plainLse);
    RockVerdict all = {true, true, true};
    RockVerdict v = rockVerifyOutput("out", s->refOut, plainOut, s->resOut,
                                     nOut, false, vt, &g, details);
    all.rms &= v.rms, all.absDiff &= v.absDiff, all.relDiff &= v.relDiff;
    if (p->returnLse) {
      v = rockVerifyOutput("lse", s->refLse, plainLse, s->resLse, b * sq, true,
                           ROCK_DTYPE_F32, &g, details);
      all.rms &= v.rms, all.absDiff &= v.absDiff, all.relDiff &= v.relDiff;
    }
    verdict = all;
  }
  free(plainOut);
  free(plainLse);
  return verdict;
}

/// The -v lines, the printed results and the dumps after verification.
static int report(RockSession *s, const RockRunOptions *o,
                  const RockSessionBackend *be, RockVerdict verdict) {
  const RockHarness *h = s->h;
  const RockAttnProblem *p = &h->problem;
  int64_t nOut = rockAttnProblemGetB(p) * p->seqLenQ * p->headDimV;
  if (o->verbose && be->printPhases)
    be->printPhases(be->user, s);
  // A clock-seeded run that fails names its seed, so that it can be
  // reproduced with -rand <seed>.
  bool passed = verdict.rms && verdict.absDiff && verdict.relDiff;
  if (o->verbose || (!passed && !strcmp(h->rand, "0")))
    printf("inputs: rand %s (seed %llu), %s\n", h->rand,
           (unsigned long long)s->seed,
           s->hasCombine || p->splitKV == 1 ? "combine in the module"
                                            : "combine on the host");
  if (o->printResults || h->printResults) {
    if (p->splitKV > 1) {
      printBuffer("result", "out partial", s->outPartial);
      printBuffer("result", "LSE partial", s->lsePartial);
    }
    printBuffer("result", "out", s->out);
    if (s->lse)
      printBuffer("result", "LSE", s->lse);
  }
  if (o->printValidation || h->printValidation) {
    printDoubles("reference out", s->refOut, nOut);
    if (p->returnLse)
      printDoubles("reference LSE", s->refLse,
                   rockAttnProblemGetB(p) * p->seqLenQ);
  }
  if (o->dumpDir && !dumpAll(o->dumpDir, h, s, s->seed))
    return rockReportError(s->tool, "cannot write dumps to '%s'", o->dumpDir);
  return ROCK_EXIT_PASS;
}

/// Prints compile_time_ms and the kernel's median and best time.
static int printTimes(const RockSession *s, const RockSessionBackend *be,
                      double compileMs, double *times, int64_t repeats) {
  double best = rockTimerMin(times, repeats);
  double median = rockTimerMedian(times, (int)repeats);
  if (be->time) {
    char err[512] = "";
    if (!be->time(be->user, s, &median, &best, err, sizeof err))
      return rockReportError(s->tool, "%s",
                             err[0] ? err : "cannot time the kernel");
  }
  printf("compile_time_ms: %.3f\n", compileMs);
  printf("kernel_time_ms: %.3f\n", median);
  printf("kernel_time_min_ms: %.3f\n", best);
  return ROCK_EXIT_PASS;
}

bool rockSessionNeedsLogical(const RockRunOptions *o, const RockHarness *h) {
  return o->printInputs || o->dumpDir || h->printInputs;
}

void rockSessionPrintInputs(const RockSession *s) {
  for (int i = 0; i < s->numArgs - 1 - (s->lsePartial != NULL); ++i)
    printBuffer("input", s->args[i].role, s->args[i].buf);
  if (s->h->problem.paged) {
    printBuffer("input", "K (logical)", s->k);
    printBuffer("input", "V (logical)", s->v);
  }
}

/// The body of rockSessionRun once `times` exists.
static int runAndVerify(RockSession *s, const RockRunOptions *o,
                        const RockSessionBackend *be, double compileMs,
                        double *times, int64_t repeats, RockSessionProbe *pr) {
  const RockHarness *h = s->h;
  const RockAttnProblem *p = &h->problem;
  if (o->printInputs || h->printInputs)
    rockSessionPrintInputs(s);
  int status = runKernel(s, be, times, repeats, pr);
  RockMutation mutation;
  rockMutationParse(o->mutate, &mutation);
  RockAttnInputs in = sessionInputs(s);
  char err[256];
  if (status == ROCK_EXIT_PASS &&
      !rockMutationApply(s, &in, mutation, 0, err, sizeof err))
    return rockReportError(s->tool, "--testing-mutate: %s", err);
  if (status == ROCK_EXIT_PASS)
    status = combine(s, be);
  if (status != ROCK_EXIT_PASS)
    return status;
  // Reference and verification (skipped with verifier none: benchmarks).
  bool verifyOn = strcmp(h->verifier, "none") != 0;
  RockVerdict verdict = {true, true, true};
  if (verifyOn) {
    double start = rockTimerNowMs();
    if (!rockReferenceAttention(p, &in, s->refOut, s->refLse))
      return rockReportError(s->tool, "out of memory in the reference");
    s->referenceMs = rockTimerNowMs() - start;
    // A non-finite reference cannot judge anything: NaN compared with NaN
    // would pass. The inputs overflowed (or were NaN / inf to begin with).
    int64_t bad = 0, nOut = rockAttnProblemGetOutSize(p);
    for (int64_t k = 0; k < nOut; ++k)
      bad += !isfinite(s->refOut[k]);
    for (int64_t k = 0; p->returnLse && k < rockAttnProblemGetLseSize(p); ++k)
      bad += isnan(s->refLse[k]) || s->refLse[k] == INFINITY; // -inf: masked
    if (bad)
      return rockReportError(
          s->tool,
          "inputs out of range: the f64 reference has %lld non-finite "
          "results (NaN or inf inputs, or values too large for %s); narrow "
          "-rand_min/-rand_max",
          (long long)bad, rockDTypeGetName(p->dtype));
    if (!rockMutationApply(s, &in, mutation, 1, err, sizeof err))
      return rockReportError(s->tool, "--testing-mutate: %s", err);
    verdict = verify(s, o);
    status = report(s, o, be, verdict);
    if (status != ROCK_EXIT_PASS)
      return status;
    printf("[%d %d %d]\n", verdict.rms, verdict.absDiff, verdict.relDiff);
  } else {
    printf("verification skipped (verifier none)\n");
  }
  if (o->time) {
    // The probe's pairs first: printTimes sorts `times`.
    rockSessionProbePrint(s, pr, times, repeats);
    status = printTimes(s, be, compileMs, times, repeats);
    if (status != ROCK_EXIT_PASS)
      return status;
  }
  return verdict.rms && verdict.absDiff && verdict.relDiff ? ROCK_EXIT_PASS
                                                           : ROCK_EXIT_GATE;
}

int rockSessionRun(RockSession *s, const RockRunOptions *o,
                   const RockSessionBackend *be, double compileMs) {
  int64_t repeats = o->kernelRepeats ? o->kernelRepeats : s->h->kernelRepeats;
  if (repeats < 1)
    repeats = 1;
  double *times = calloc((size_t)repeats, sizeof(double));
  if (!times)
    return rockReportError(s->tool, "out of memory");
  RockSessionProbe pr = {.threads = o->probeThreads};
  int status = rockSessionProbeStart(s, &pr, repeats);
  if (status == ROCK_EXIT_PASS)
    status = runAndVerify(s, o, be, compileMs, times, repeats, &pr);
  fflush(stdout);
  free(times);
  rockSessionProbeClear(&pr);
  return status;
}
