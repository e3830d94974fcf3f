//===- timer.c - monotonic timer -----------------------------------------===//
#define _POSIX_C_SOURCE 199309L
#include "timer.h"

#include <stdlib.h>
#include <time.h>

double rockTimerNowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double rockTimerMedian(double *v, int n) {
  if (n <= 0)
    return 0.0;
  qsort(v, (size_t)n, sizeof *v, cmpDouble);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double rockTimerMin(const double *v, int64_t n) {
  double m = n > 0 ? v[0] : 0.0;
  for (int64_t k = 1; k < n; ++k)
    m = v[k] < m ? v[k] : m;
  return m;
}
