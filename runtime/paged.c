//===- paged.c - paged K/V caches ----------------------------------------===//
#include "paged.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RockPagedCache *rockPagedCacheCreate(const RockBuffer *logical,
                                     int64_t numBatches, int64_t pagesPerBatch,
                                     int64_t pageSize, RockRng *rng) {
  if (numBatches <= 0 || pagesPerBatch <= 0 || pageSize <= 0 ||
      numBatches * pagesPerBatch * pageSize != logical->numElements)
    return NULL;
  RockPagedCache *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->numSlots = numBatches * pagesPerBatch;
  c->pageSize = pageSize;
  c->pool = rockBufferCreate(logical->dtype, logical->numElements);
  c->table = rockBufferCreate(ROCK_DTYPE_I64, c->numSlots);
  c->perm = malloc((size_t)c->numSlots * sizeof(int64_t));
  if (!c->pool || !c->table || !c->perm) {
    rockPagedCacheDestroy(c);
    return NULL;
  }
  for (int64_t k = 0; k < c->numSlots; ++k)
    c->perm[k] = k;
  for (int64_t k = c->numSlots - 1; k > 0; --k) {
    int64_t r = rockRngInt(rng, 0, k + 1);
    int64_t t = c->perm[k];
    c->perm[k] = c->perm[r];
    c->perm[r] = t;
  }
  size_t pageBytes = (size_t)pageSize * rockDTypeGetSize(logical->dtype);
  char *pool = c->pool->data;
  const char *src = logical->data;
  int64_t *table = c->table->data;
  for (int64_t k = 0; k < c->numSlots; ++k) {
    char *slot = pool + (size_t)c->perm[k] * pageBytes;
    memcpy(slot, src + (size_t)k * pageBytes, pageBytes);
    table[k] = (int64_t)(uintptr_t)slot;
  }
  return c;
}

void rockPagedCacheDestroy(RockPagedCache *c) {
  if (!c)
    return;
  rockBufferDestroy(c->pool);
  rockBufferDestroy(c->table);
  free(c->perm);
  free(c);
}

bool rockPageTableCheck(const int64_t *table, int64_t n, uintptr_t poolBase,
                        size_t poolBytes, size_t pageBytes, char *err,
                        size_t errSize) {
  for (int64_t k = 0; k < n; ++k) {
    uintptr_t a = (uintptr_t)table[k];
    const char *why = NULL;
    if (a < poolBase || a - poolBase >= poolBytes)
      why = "outside the page pool";
    else if (pageBytes == 0 || (a - poolBase) % pageBytes != 0)
      why = "not page-aligned";
    if (why) {
      if (err && errSize)
        snprintf(err, errSize,
                 "page table entry %lld (0x%llx) is %s (pool 0x%llx, %zu "
                 "bytes, pages of %zu bytes)",
                 (long long)k, (unsigned long long)a, why,
                 (unsigned long long)poolBase, poolBytes, pageBytes);
      return false;
    }
  }
  return true;
}

void rockPageTableRebase(const RockPagedCache *c, uint64_t poolCopy,
                         int64_t *out) {
  const int64_t *table = c->table->data;
  uintptr_t base = (uintptr_t)c->pool->data;
  for (int64_t i = 0; i < c->numSlots; ++i)
    out[i] = (int64_t)(poolCopy + ((uintptr_t)table[i] - base));
}
