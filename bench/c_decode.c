/*===- c_decode.c - plain C decode-attention peer ---------------------------===
 *
 * rock-c-decode B Hq Hkv L d [reps]: a plain C loop (no BLAS, no fusion
 * tricks beyond reading K/V once per KV-head group) over contiguous f32
 * K/V [B][Hkv][L][d], q = 1 token. Prints `c_decode_ms: X` (median) and
 * `c_decode_gbps: Y` over the algorithmic bytes (K and V once, Q, O).
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: rock-c-decode B Hq Hkv L d [reps]\n");
    return 2;
  }
  long B = atol(argv[1]), Hq = atol(argv[2]), Hkv = atol(argv[3]),
       L = atol(argv[4]), d = atol(argv[5]);
  int reps = argc > 6 ? atoi(argv[6]) : 5;
  long R = Hq / Hkv;
  size_t kvN = (size_t)B * Hkv * L * d;
  float *K = malloc(kvN * 4), *V = malloc(kvN * 4);
  float *Q = malloc((size_t)B * Hq * d * 4),
        *O = malloc((size_t)B * Hq * d * 4);
  if (!K || !V || !Q || !O)
    return 1;
#pragma omp parallel for
  for (size_t i = 0; i < kvN; ++i) {
    K[i] = (float)((i * 7) % 13) * 0.01f;
    V[i] = (float)((i * 5) % 11) * 0.01f;
  }
  for (long i = 0; i < B * Hq * d; ++i)
    Q[i] = (float)(i % 5) * 0.1f;
  double *ts = malloc(sizeof(double) * (size_t)reps);
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
#pragma omp parallel for collapse(2) schedule(static)
    for (long b = 0; b < B; ++b)
      for (long h = 0; h < Hkv; ++h) {
        const float *k = K + ((size_t)b * Hkv + h) * L * d;
        const float *v = V + ((size_t)b * Hkv + h) * L * d;
        float m[64], l[64], acc[64 * 256];
        const float *q = Q + ((size_t)b * Hq + h * R) * d;
        for (long r2 = 0; r2 < R; ++r2) {
          m[r2] = -INFINITY;
          l[r2] = 0;
          memset(acc + r2 * d, 0, sizeof(float) * (size_t)d);
        }
        for (long j = 0; j < L; ++j) {
          for (long r2 = 0; r2 < R; ++r2) {
            float s = 0;
            for (long x = 0; x < d; ++x)
              s += q[r2 * d + x] * k[j * d + x];
            float mn = s > m[r2] ? s : m[r2];
            float c = expf(m[r2] - mn), p = expf(s - mn);
            l[r2] = l[r2] * c + p;
            for (long x = 0; x < d; ++x)
              acc[r2 * d + x] = acc[r2 * d + x] * c + p * v[j * d + x];
            m[r2] = mn;
          }
        }
        for (long r2 = 0; r2 < R; ++r2)
          for (long x = 0; x < d; ++x)
            O[((size_t)b * Hq + h * R + r2) * d + x] = acc[r2 * d + x] / l[r2];
      }
    ts[r] = now() - t0;
  }
  qsort(ts, (size_t)reps, sizeof(double), cmp);
  double t = ts[reps / 2];
  double bytes = 2.0 * (double)kvN * 4 + 2.0 * (double)B * Hq * d * 4;
  printf("c_decode_ms: %.3f\nc_decode_gbps: %.3f\n", t * 1e3, bytes / t / 1e9);
  return O[0] == 12345.f;
}
