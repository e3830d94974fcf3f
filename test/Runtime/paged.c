// RUN: rock-runtime-paged-test | FileCheck %s
/* Paged cache builder (shuffled pool, logical-order table) and the page
   table checker. */
#include "paged.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  // 2 batches x 3 pages x 4 f32 elements; element k holds k.
  RockBuffer *logical = rockBufferCreate(ROCK_DTYPE_F32, 24);
  for (int k = 0; k < 24; ++k)
    rockBufferSet(logical, k, k);
  RockRng rng = rockRngCreate(42);
  RockPagedCache *c = rockPagedCacheCreate(logical, 2, 3, 4, &rng);
  // TEST: creation
  printf("created %d slots %lld\n", c != NULL, (long long)c->numSlots);
  // CHECK: created 1 slots 6

  // TEST: the permutation hits every slot once and is not the identity
  int seen[6] = {0}, identity = 1;
  for (int k = 0; k < 6; ++k) {
    ++seen[c->perm[k]];
    identity &= c->perm[k] == k;
  }
  int perm = 1;
  for (int k = 0; k < 6; ++k)
    perm &= seen[k] == 1;
  printf("permutation %d identity %d\n", perm, identity);
  // CHECK: permutation 1 identity 0

  // TEST: table entry k is the address of slot perm[k], holding page k
  const int64_t *table = c->table->data;
  char *pool = c->pool->data;
  int addrOk = 1, dataOk = 1;
  for (int k = 0; k < 6; ++k) {
    addrOk &= table[k] == (int64_t)(uintptr_t)(pool + c->perm[k] * 16);
    const float *page = (const float *)(uintptr_t)table[k];
    for (int e = 0; e < 4; ++e)
      dataOk &= page[e] == (float)(k * 4 + e);
  }
  printf("addresses %d contents %d\n", addrOk, dataOk);
  // CHECK: addresses 1 contents 1

  // TEST: the checker accepts the table and rejects bad entries
  char err[256];
  uintptr_t base = (uintptr_t)pool;
  printf("check %d\n", rockPageTableCheck(table, 6, base, 96, 16, err, 256));
  // CHECK: check 1
  int64_t bad[2] = {table[0], (int64_t)(base + 96)};
  printf("past end %d: %s\n",
         rockPageTableCheck(bad, 2, base, 96, 16, err, 256), err);
  // CHECK: past end 0: page table entry 1 {{.*}} is outside the page pool
  bad[1] = (int64_t)(base - 16);
  printf("before %d: %s\n", rockPageTableCheck(bad, 2, base, 96, 16, err, 256),
         err);
  // CHECK: before 0: page table entry 1 {{.*}} is outside the page pool
  bad[1] = (int64_t)(base + 20);
  printf("misaligned %d: %s\n",
         rockPageTableCheck(bad, 2, base, 96, 16, err, 256), err);
  // CHECK: misaligned 0: page table entry 1 {{.*}} is not page-aligned
  bad[1] = 0;
  printf("null %d\n", rockPageTableCheck(bad, 2, base, 96, 16, NULL, 0));
  // CHECK: null 0

  // TEST: a size mismatch is refused
  RockPagedCache *wrong = rockPagedCacheCreate(logical, 2, 3, 5, &rng);
  printf("mismatch %d\n", wrong == NULL);
  // CHECK: mismatch 1
  rockPagedCacheDestroy(c);
  rockBufferDestroy(logical);
  return 0;
}
