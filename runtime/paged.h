//===- paged.h - paged K/V caches with shuffled pages -------------*- C -*-===//
//
// Builds the physical page pool and i64 page table of a paged K or V cache
// (docs/semantics.md §6, docs/user-guide.md §3.2), and checks page tables
// before a kernel may dereference them.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_PAGED_H
#define ROCK_RUNTIME_PAGED_H

#include "buffer.h"
#include "rng.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A paged cache: `pool` holds `numSlots` pages of `pageSize` elements in a
/// shuffled order; `table` (i64, `numSlots` entries in logical order) holds
/// the byte address of each logical page's slot.
typedef struct RockPagedCache {
  RockBuffer *pool;  ///< owned
  RockBuffer *table; ///< owned, i64
  int64_t *perm;     ///< owned: logical page -> pool slot
  int64_t numSlots, pageSize;
} RockPagedCache;

/// Cuts `logical` (borrowed; per batch the head-major cache `[Hkv][Sk][D]`,
/// `numBatches` batches, each exactly `pagesPerBatch * pageSize` elements)
/// into pages, copies logical page `b*P + p` to pool slot `perm[b*P + p]` for
/// a random permutation drawn from `rng` (Fisher-Yates), and fills the table.
/// Returns a cache owned by the caller (free with rockPagedCacheDestroy), or
/// NULL if the sizes disagree or memory is exhausted.
RockPagedCache *rockPagedCacheCreate(const RockBuffer *logical,
                                     int64_t numBatches, int64_t pagesPerBatch,
                                     int64_t pageSize, RockRng *rng);

/// Frees `c` and everything it owns; NULL is allowed.
void rockPagedCacheDestroy(RockPagedCache *c);

/// Checks that every one of the `n` addresses in `table` lies inside the pool
/// `[poolBase, poolBase + poolBytes)` and is a multiple of `pageBytes` from
/// `poolBase` (no entry is dereferenced). Returns true if all are valid;
/// otherwise writes a one-line message (NUL-terminated, truncated to
/// `errSize`) to `err` and returns false. `err` may be NULL.
bool rockPageTableCheck(const int64_t *table, int64_t n, uintptr_t poolBase,
                        size_t poolBytes, size_t pageBytes, char *err,
                        size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
