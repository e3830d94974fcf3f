//===- session_probe.c - rock-run --time-probe for a run session ----------===//
#include "session_probe.h"

#include "timer.h"

#include <stdio.h>
#include <stdlib.h>

/// Fills `pr`'s lists with the bytes the kernel streams. Returns false if
/// out of memory.
static bool probeLists(const RockSession *s, RockSessionProbe *pr) {
  if (s->kCache) {
    const RockPagedCache *c[2] = {s->kCache, s->vCache};
    for (int i = 0; i < 2; ++i)
      if (!rockReadSpansAddTable(
              &pr->lists[i], c[i]->table->data, c[i]->numSlots,
              rockBufferGetBytes(c[i]->pool) / (size_t)c[i]->numSlots))
        return false;
    return true;
  }
  const RockBuffer *b[2] = {s->k, s->v};
  for (int i = 0; i < 2; ++i) {
    size_t bytes = rockBufferGetBytes(b[i]),
           piece = bytes < 4096 ? bytes : 4096;
    if (piece &&
        !rockReadSpansAddLinear(&pr->lists[i], b[i]->data, bytes, piece))
      return false;
  }
  return true;
}

int rockSessionProbeStart(const RockSession *s, RockSessionProbe *pr,
                          int64_t repeats) {
  if (pr->threads <= 0)
    return ROCK_EXIT_PASS;
  pr->times = calloc((size_t)repeats, sizeof(double));
  if (!pr->times || !probeLists(s, pr))
    return rockReportError(s->tool, "out of memory for --time-probe");
  if (rockReadSpansBytes(pr->lists, 2) == 0)
    return rockReportError(s->tool, "--time-probe: K and V are empty");
  return ROCK_EXIT_PASS;
}

void rockSessionProbeRun(RockSessionProbe *pr, int64_t k) {
  if (pr->times)
    pr->times[k] = rockReadProbeRun(pr->lists, 2, pr->threads, &pr->sink);
}

void rockSessionProbePrint(const RockSession *s, RockSessionProbe *pr,
                           const double *times, int64_t repeats) {
  if (!pr->times)
    return;
  uint64_t bytes = rockReadSpansBytes(pr->lists, 2), kv = bytes;
  if (!s->kCache)
    kv = rockBufferGetBytes(s->k) + rockBufferGetBytes(s->v);
  double *ratio = malloc((size_t)repeats * sizeof(double));
  for (int64_t k = 0; ratio && k < repeats; ++k) // kernel rate / probe rate
    ratio[k] = (double)kv / times[k] / ((double)bytes / pr->times[k]);
  double bestK = rockTimerMin(times, repeats);
  double bestP = rockTimerMin(pr->times, repeats);
  printf("probe_bytes: %llu\n", (unsigned long long)bytes);
  printf("probe_time_ms: %.3f\n", rockTimerMedian(pr->times, (int)repeats));
  printf("probe_time_min_ms: %.3f\n", bestP);
  printf("probe_read_gbps: %.3f\n", (double)bytes / bestP * 1e-6);
  if (ratio)
    printf("kernel_vs_probe: %.3f\n", rockTimerMedian(ratio, (int)repeats));
  printf("kernel_vs_probe_best: %.3f\n",
         (double)kv / bestK / ((double)bytes / bestP));
  free(ratio);
}

void rockSessionProbeClear(RockSessionProbe *pr) {
  free(pr->times);
  pr->times = NULL;
  rockReadSpansClear(&pr->lists[0]);
  rockReadSpansClear(&pr->lists[1]);
}
