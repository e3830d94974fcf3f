/*===- read_probe.c - memory read-bandwidth probes --------------------------===
 *
 * rock-read-probe [MiB] [reps] [pageBytes ...]: sums a buffer of MiB
 * mebibytes (default 1024) with all cores (OpenMP) and prints the best read
 * rate as `read_gbps: X` (10^9 bytes/s). The buffer should exceed the
 * last-level cache several times.
 *
 * For each pageBytes given it also reads the same buffer as a paged KV pool
 * would be read by decode: pages of pageBytes in a seeded random order,
 * each thread summing groups of G pages with the G pages interleaved line
 * by line (G = 8 and 16; the best is kept), and prints
 * `paged_read_gbps[pageBytes]: X`. Scattered pages of a few KiB defeat the
 * hardware prefetchers' streams, so this is the ceiling of a kernel that
 * reads each KV page once, not the linear rate.
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

enum { LINE = 16 }; /* floats per 64-byte line */

/* Sums `n` pages of `pageFloats` floats given by `pages`, `group` pages at
 * a time interleaved line by line. */
static double pagedSum(float *const *pages, size_t n, size_t pageFloats,
                       size_t group) {
  double total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (size_t g0 = 0; g0 < n / group; ++g0) {
    float acc[LINE] = {0};
    for (size_t l = 0; l < pageFloats; l += LINE)
      for (size_t k = 0; k < group; ++k) {
        const float *p = pages[g0 * group + k] + l;
#pragma omp simd
        for (int i = 0; i < LINE; ++i)
          acc[i] += p[i];
      }
    for (int i = 0; i < LINE; ++i)
      total += acc[i];
  }
  return total;
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t n = mib * 1024 * 1024 / sizeof(float);
  float *a = aligned_alloc(64, n * sizeof(float));
  if (!a || reps <= 0) {
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
  printf("threads: %d\nbuffer_mib: %zu\nread_gbps: %.3f\n",
         omp_get_max_threads(), mib, best);

  for (int arg = 3; arg < argc; ++arg) {
    size_t pageBytes = (size_t)atol(argv[arg]);
    if (pageBytes < 64 || pageBytes % 64 != 0) {
      fprintf(stderr, "rock-read-probe: page size %s is not a multiple of 64\n",
              argv[arg]);
      free(a);
      return 1;
    }
    size_t pageFloats = pageBytes / sizeof(float);
    size_t np = n / pageFloats;
    float **pages = malloc(np * sizeof *pages);
    if (!pages)
      return 1;
    for (size_t k = 0; k < np; ++k)
      pages[k] = a + k * pageFloats;
    uint64_t x = 0x9E3779B97F4A7C15ull; /* xorshift64, fixed seed */
    for (size_t k = np - 1; k > 0; --k) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      size_t j = (size_t)(x % (k + 1));
      float *t = pages[k];
      pages[k] = pages[j];
      pages[j] = t;
    }
    double pbest = 0;
    for (size_t group = 8; group <= 16; group *= 2)
      for (int r = 0; r < reps; ++r) {
        double t0 = now();
        sink += pagedSum(pages, np, pageFloats, group);
        double t = now() - t0;
        double gbps = (double)(np / group * group * pageBytes) / t / 1e9;
        if (gbps > pbest)
          pbest = gbps;
      }
    printf("paged_read_gbps[%zu]: %.3f\n", pageBytes, pbest);
    free(pages);
  }
  free(a);
  return sink == -1.0;
}
