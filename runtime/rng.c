//===- rng.c - splitmix64 ------------------------------------------------===//
#include "rng.h"

RockRng rockRngCreate(uint64_t seed) {
  RockRng r = {seed};
  return r;
}

uint64_t rockRngNext(RockRng *rng) {
  uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double rockRngUniform(RockRng *rng) {
  return (double)(rockRngNext(rng) >> 11) * 0x1p-53;
}

int64_t rockRngInt(RockRng *rng, int64_t lo, int64_t hi) {
  if (hi <= lo)
    return lo;
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  return lo + (int64_t)(rockRngNext(rng) % span);
}
