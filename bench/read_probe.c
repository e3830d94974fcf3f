/*===- read_probe.c - memory read-bandwidth probe ----------------------------===
 *
 * rock-read-probe [MiB] [reps]: sums a buffer of MiB mebibytes (default 1024)
 * with all cores (OpenMP) and prints the best read rate as
 * `read_gbps: X` (10^9 bytes/s). The buffer should exceed the last-level
 * cache several times.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 199309L
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t n = mib * 1024 * 1024 / sizeof(float);
  float *a = aligned_alloc(64, n * sizeof(float));
  if (!a) {
    fprintf(stderr, "rock-read-probe: cannot allocate %zu MiB\n", mib);
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i)
    a[i] = (float)(i & 7);
  double best = 0, sink = 0;
  for (int r = 0; r < reps; ++r) {
    double t0 = now(), s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
    for (size_t i = 0; i < n; ++i)
      s += a[i];
    double t = now() - t0;
    sink += s;
    double gbps = (double)(n * sizeof(float)) / t / 1e9;
    if (gbps > best)
      best = gbps;
  }
  printf("threads: %d\nbuffer_mib: %zu\nread_gbps: %.3f\n", omp_get_max_threads(),
         mib, best);
  free(a);
  return sink == -1.0;
}
