//===- init.h - input initialisation (rock-gen's -rand modes) -----*- C -*-===//
//
// Fills input buffers as docs/user-guide.md §3.2 says:
// - fixed: element k gets {0.5, -1, 0.75}[k mod 3] (float buffers) or
//   {1, -1, 2}[k mod 3] (integer buffers), rocmlir-gen's literal pattern:
//   equal-sized buffers hold equal values, so a kernel that reads the wrong
//   one can pass;
// - distinct (rock-gen's default): the fixed pattern scaled per buffer in
//   fill order (rock-run: Q, K, V, ...): floats x4, x0.25, x0.5, then x1;
//   integers x1, x-1, then x1. Equal-sized Q, K and V differ in every
//   element, while Q.K scores equal the fixed pattern's and outputs are
//   half its, with the same roundings (powers of two), so thresholds tuned
//   for fixed data keep their meaning;
// - none: every element 1 (0.1 for float buffers with rand_type float);
// - seeded: one splitmix64 stream (rng.h) shared by all tensors, used in the
//   order the caller fills them (rock-run: kernel argument order). Integer
//   buffers, and float buffers with rand_type int, get integers uniform in
//   [minInt, maxInt); float buffers with rand_type float get values uniform
//   in [minFloat, maxFloat). Values are rounded (RNE) to the buffer's type
//   when written, so readers see exactly what the kernel sees.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_INIT_H
#define ROCK_RUNTIME_INIT_H

#include "buffer.h"
#include "rng.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum RockRandMode {
  ROCK_RAND_FIXED,
  ROCK_RAND_NONE,
  ROCK_RAND_SEEDED,
  ROCK_RAND_DISTINCT,
} RockRandMode;

/// Initialisation settings, shared by all buffers of one run.
typedef struct RockInitConfig {
  RockRandMode mode;
  bool floatValues; ///< rand_type float (else int)
  double minFloat, maxFloat;
  int64_t minInt, maxInt;
  RockRng rng;       ///< the stream, advanced by each seeded fill
  int64_t numFilled; ///< buffers filled so far (distinct: the stream index)
} RockInitConfig;

/// Parses a -rand value ("fixed", "distinct", "none", "0" = a nonzero 31-bit
/// seed from
/// the clock, "N" = seed N) into `cfg->mode` and seeds `cfg->rng`; `*seedOut`
/// (if not NULL) receives the seed used. Returns false for anything else.
/// Borrows `text`.
bool rockInitConfigSetRand(RockInitConfig *cfg, const char *text,
                           uint64_t *seedOut);

/// Fills `buf` per `cfg`, advancing `cfg->rng` in seeded mode. Borrows both.
void rockInitFill(RockInitConfig *cfg, RockBuffer *buf);

#ifdef __cplusplus
}
#endif

#endif
