//===- read_probe.h - a plain read of a kernel's K and V ----------*- C -*-===//
//
// rock-run --time-probe times, after each kernel run, a plain read of the
// bytes the kernel streams (its K and V, page by page through the page
// table when paged), so that the kernel's read rate is judged against the
// memory system of the same moment: a shared host's bandwidth moves by
// tens of percent within a minute, far more than between two runs a few
// milliseconds apart.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_READ_PROBE_H
#define ROCK_RUNTIME_READ_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The spans a probe reads: `n` regions of `bytes` bytes each, at
/// `starts[0..n)`. Read in this order: each thread takes a contiguous
/// share and reads eight spans at a time interleaved 64 bytes by 64 bytes,
/// as a kernel reads the pages of one sequence.
typedef struct RockReadSpans {
  const unsigned char **starts; ///< owned (the regions themselves borrowed)
  int64_t n;
  size_t bytes;
} RockReadSpans;

/// Appends to `s` the `bytes` bytes at `base` cut into spans of `piece`
/// bytes; a shorter tail is left out (rockReadSpansBytes does not count
/// it). All spans of one list have one length. Returns false if out of
/// memory, `piece` is 0 or differs from the length of the spans already
/// there.
bool rockReadSpansAddLinear(RockReadSpans *s, const void *base, size_t bytes,
                            size_t piece);

/// Appends the `n` page addresses of an i64 page table (`table`, borrowed;
/// each entry the byte address of a page of `pageBytes`). Same rules.
bool rockReadSpansAddTable(RockReadSpans *s, const int64_t *table, int64_t n,
                           size_t pageBytes);

/// Frees the span list (not the regions) and zeroes `s`.
void rockReadSpansClear(RockReadSpans *s);

/// Reads every span of the `numLists` lists `lists` (borrowed; K's, then
/// V's) once on `threads` threads (clamped to 1..64; the calling thread is
/// one of them), each thread its share of each list in turn, and returns
/// the elapsed milliseconds, or a negative value if there is nothing to
/// read. The bytes are folded into `*sink` so that no read can be elided.
double rockReadProbeRun(const RockReadSpans *lists, int numLists, int threads,
                        uint64_t *sink);

/// The bytes one rockReadProbeRun of `lists` reads.
uint64_t rockReadSpansBytes(const RockReadSpans *lists, int numLists);

#ifdef __cplusplus
}
#endif

#endif
