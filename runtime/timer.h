//===- timer.h - monotonic timer ---------------------------------*- C -*-===//
#ifndef ROCK_RUNTIME_TIMER_H
#define ROCK_RUNTIME_TIMER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the time of CLOCK_MONOTONIC in milliseconds (only differences are
/// meaningful).
double rockTimerNowMs(void);

/// Returns the median of the `n` values in `v` (sorted in place); 0 if n == 0.
double rockTimerMedian(double *v, int n);

/// Returns the least of the `n` values in `v` (not modified); 0 if n <= 0.
double rockTimerMin(const double *v, int64_t n);

#ifdef __cplusplus
}
#endif

#endif
