//===- session_probe.h - rock-run --time-probe for a run session --*- C -*-===//
//
// Pairs each timed kernel run of a session with a plain read of the K and V
// it streams (runtime/read_probe.h), and prints the kernel's rate over the
// probe's.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_SESSION_PROBE_H
#define ROCK_RUNTIME_SESSION_PROBE_H

#include "read_probe.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/// --time-probe's state: K's and V's spans and one probe time per run.
/// Zero-initialise with `threads` set (0: no probe); owned by the caller,
/// freed with rockSessionProbeClear.
typedef struct RockSessionProbe {
  RockReadSpans lists[2];
  int threads;
  double *times; ///< owned; NULL = no probe
  uint64_t sink;
} RockSessionProbe;

/// When `pr->threads` > 0: the spans of `s`'s K and V (borrowed from `s`:
/// every page of the pools through their tables, in the tables' order, or
/// the dense K and V in 4 KiB spans) and room for `repeats` times. Returns
/// an exit status after a one-line message.
int rockSessionProbeStart(const RockSession *s, RockSessionProbe *pr,
                          int64_t repeats);

/// Reads the spans once, recording the time as run `k`'s; a no-op without
/// a probe.
void rockSessionProbeRun(RockSessionProbe *pr, int64_t k);

/// Prints probe_bytes, probe_time_ms (median), probe_time_min_ms,
/// probe_read_gbps (best), kernel_vs_probe (the median over the runs of
/// the kernel's K+V rate over the probe's in the same run) and
/// kernel_vs_probe_best, given the kernel's `times` of the `repeats` runs
/// (borrowed, unsorted: run k pairs with probe run k). Nothing without a
/// probe.
void rockSessionProbePrint(const RockSession *s, RockSessionProbe *pr,
                           const double *times, int64_t repeats);

/// Frees what `pr` owns.
void rockSessionProbeClear(RockSessionProbe *pr);

#ifdef __cplusplus
}
#endif

#endif
