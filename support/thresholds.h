/*===- thresholds.h - the default verification thresholds ---------*- C -*-===*
 *
 * rocMLIR's default gates (docs/user-guide.md §3.4), for rock-run's
 * verification (runtime/metrics.c) and the verify function of the host
 * harness rock-gen emits (capi/lib/host_main.c). Header-only: rock-run-gpu
 * links no MLIR.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_THRESHOLDS_H
#define ROCK_SUPPORT_THRESHOLDS_H

#include <stdbool.h>

/* RMS, maximum absolute and maximum relative difference allowed for an
 * output of a narrow (f16 / bf16) or a wide (f32) element type. */
static inline void rock__defaultThresholds(bool narrow, double *rms,
                                           double *absDiff, double *relDiff) {
  *rms = narrow ? 0.001 : 3e-5;
  *absDiff = 100.0;
  *relDiff = narrow ? 100.0 : 1e-6;
}

#endif
