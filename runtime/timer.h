//===- timer.h - monotonic timer ---------------------------------*- C -*-===//
#ifndef ROCK_RUNTIME_TIMER_H
#define ROCK_RUNTIME_TIMER_H

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the time of CLOCK_MONOTONIC in milliseconds (only differences are
/// meaningful).
double rockTimerNowMs(void);

/// Returns the median of the `n` values in `v` (sorted in place); 0 if n == 0.
double rockTimerMedian(double *v, int n);

#ifdef __cplusplus
}
#endif

#endif
