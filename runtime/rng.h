//===- rng.h - the documented PRNG of rock's host tools -----------*- C -*-===//
//
// splitmix64 (Steele, Lea, Flood 2014; the generator of Java's
// SplittableRandom): state += 0x9e3779b97f4a7c15, then the output is the
// state mixed by two xor-shift-multiply rounds. One stream per run; rock-run
// fills its tensors from it in kernel argument order.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_RNG_H
#define ROCK_RUNTIME_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// splitmix64 state; a plain value, copy it to fork a stream.
typedef struct RockRng {
  uint64_t state;
} RockRng;

/// Returns a generator seeded with `seed`.
RockRng rockRngCreate(uint64_t seed);
/// Returns the next 64 random bits.
uint64_t rockRngNext(RockRng *rng);
/// Returns a double uniform in [0, 1) with 53 random bits.
double rockRngUniform(RockRng *rng);
/// Returns an integer uniform in [lo, hi) (lo if hi <= lo).
int64_t rockRngInt(RockRng *rng, int64_t lo, int64_t hi);

#ifdef __cplusplus
}
#endif

#endif
