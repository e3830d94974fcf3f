//===- read_probe.c - a plain read of a kernel's K and V ------------------===//
#define _POSIX_C_SOURCE 200809L
#include "read_probe.h"

#include "timer.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { LINE = 64, GROUP = 8, MAX_THREADS = 64 };

/// 16 bytes in a vector register (SSE2 on any x86-64; NEON on AArch64).
typedef uint64_t Vec __attribute__((vector_size(16)));

/// Room for `extra` more spans of `bytes` each; false if out of memory or
/// `bytes` is 0 or differs from the spans already there.
static bool reserve(RockReadSpans *s, int64_t extra, size_t bytes) {
  if (bytes == 0 || (s->n && s->bytes != bytes))
    return false;
  const unsigned char **grown =
      realloc(s->starts, (size_t)(s->n + extra) * sizeof *grown);
  if (!grown && s->n + extra > 0)
    return false;
  s->starts = grown;
  s->bytes = bytes;
  return true;
}

bool rockReadSpansAddLinear(RockReadSpans *s, const void *base, size_t bytes,
                            size_t piece) {
  const unsigned char *p = base;
  if (!reserve(s, piece ? (int64_t)(bytes / piece) : 0, piece))
    return false;
  for (size_t off = 0; off + piece <= bytes; off += piece)
    s->starts[s->n++] = p + off;
  return true;
}

bool rockReadSpansAddTable(RockReadSpans *s, const int64_t *table, int64_t n,
                           size_t pageBytes) {
  if (!reserve(s, n, pageBytes))
    return false;
  for (int64_t i = 0; i < n; ++i)
    s->starts[s->n++] = (const unsigned char *)(uintptr_t)table[i];
  return true;
}

void rockReadSpansClear(RockReadSpans *s) {
  free(s->starts);
  memset(s, 0, sizeof *s);
}

/// One thread's share: spans [first, end) of each list.
typedef struct Share {
  const RockReadSpans *lists;
  int numLists, t, n;    ///< thread t of n
  const atomic_bool *go; ///< set when every thread has started
  Vec acc;
} Share;

/// Folds `bytes` (< one line, or a span's tail) at `p` into `acc`.
static Vec foldTail(Vec acc, const unsigned char *p, size_t bytes) {
  uint64_t w = 0;
  for (size_t i = 0; i < bytes; ++i)
    w = w * 31 + p[i];
  acc[0] ^= w;
  return acc;
}

/// Reads spans [g, g + k) interleaved line by line.
static Vec readGroup(const RockReadSpans *s, int64_t g, int k, Vec acc) {
  size_t lines = s->bytes / LINE;
  for (size_t l = 0; l < lines; ++l)
    for (int j = 0; j < k; ++j) {
      Vec v[4];
      memcpy(v, s->starts[g + j] + l * LINE, sizeof v); // any alignment
      acc ^= v[0] ^ v[1] ^ v[2] ^ v[3];
    }
  for (int j = 0; j < k; ++j)
    acc = foldTail(acc, s->starts[g + j] + lines * LINE, s->bytes % LINE);
  return acc;
}

static void *readShare(void *arg) {
  Share *sh = arg;
  while (!atomic_load_explicit(sh->go, memory_order_acquire))
    sched_yield();
  for (int i = 0; i < sh->numLists; ++i) {
    const RockReadSpans *s = &sh->lists[i];
    int64_t end = s->n * (sh->t + 1) / sh->n;
    for (int64_t g = s->n * sh->t / sh->n; g < end; g += GROUP)
      sh->acc =
          readGroup(s, g, end - g < GROUP ? (int)(end - g) : GROUP, sh->acc);
  }
  return NULL;
}

uint64_t rockReadSpansBytes(const RockReadSpans *lists, int numLists) {
  uint64_t total = 0;
  for (int i = 0; i < numLists; ++i)
    total += (uint64_t)lists[i].n * lists[i].bytes;
  return total;
}

double rockReadProbeRun(const RockReadSpans *lists, int numLists, int threads,
                        uint64_t *sink) {
  if (rockReadSpansBytes(lists, numLists) == 0)
    return -1;
  int n = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
  atomic_bool go = false;
  Share shares[MAX_THREADS];
  pthread_t ids[MAX_THREADS];
  for (int t = 0; t < n; ++t)
    shares[t] = (Share){lists, numLists, t, n, &go, {0, 0}};
  // The threads start before the clock does (a kernel's thread pool is warm
  // too); the share of a thread that cannot start is read by this one.
  int started = 1;
  for (; started < n; ++started)
    if (pthread_create(&ids[started], NULL, readShare, &shares[started]))
      break;
  double start = rockTimerNowMs();
  atomic_store_explicit(&go, true, memory_order_release);
  readShare(&shares[0]);
  for (int t = started; t < n; ++t)
    readShare(&shares[t]);
  for (int t = 1; t < started; ++t)
    pthread_join(ids[t], NULL);
  double ms = rockTimerNowMs() - start;
  for (int t = 0; t < n; ++t)
    *sink ^= shares[t].acc[0] ^ shares[t].acc[1];
  return ms;
}
