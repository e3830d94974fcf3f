/*===- tuning.c - tuning keys, perf DBs and spaces of rock-c/Tuning.h -----===*/
/* RUN: rm -rf %t && mkdir -p %t && cd %t && rock-capi-tuning-test 2>&1 | FileCheck %s
 */

#include "rock-c/Tuning.h"
#include "rock-c/Attention.h"

#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void problem(RockAttentionConfig *c) {
  rockAttentionConfigInit(c);
  c->dtype = ROCK_ATTENTION_BF16;
  c->numHeadsQ = 4;
  c->numHeadsKV = 2;
  c->seqLenQ = 1;
  c->seqLenK = 300;
  c->headDimQK = c->headDimV = 32;
}

static void write(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void testKey(void) {
  fprintf(stderr, "TEST: key\n");
  RockAttentionConfig c;
  problem(&c);
  char key[1024];
  size_t n = rockAttentionTuningKey(
      &c, "sm_90", rockTuningDefaultNumCu("sm_90"), key, sizeof key);
  fprintf(stderr, "%zu %s\n", n, key);
  // CHECK-LABEL: TEST: key
  // CHECK-NEXT: {{^}}[[N:[0-9]+]] sm_90{{[[:space:]]}}132{{[[:space:]]}}-t bf16 -transQ false -transK false -transV false -transO false -g 1 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 -causal false -return_lse false -split_kv 1 -num_heads_q 4 -num_heads_kv 2{{$}}
  /* rock's fields where set; a short buffer truncates, the length stays. */
  c.paged = true;
  c.pageSize = 256;
  c.withScale = true;
  int64_t csl[1] = {99};
  c.currentSeqLen = csl;
  c.numCurrentSeqLen = 1;
  char small[8];
  size_t m = rockAttentionTuningKey(&c, "", 64, small, sizeof small);
  rockAttentionTuningKey(&c, "", 64, key, sizeof key);
  fprintf(stderr, "%d '%s' %s\n", m == strlen(key), small, key);
  // CHECK-NEXT: {{^}}1 'cpu{{[[:space:]]}}64{{[[:space:]]}}' cpu{{[[:space:]]}}64{{[[:space:]]}}-t bf16 {{.*}} -num_heads_kv 2 -with-attn-scale true -paged_attention true -page_size 256 -current_seq_len 99{{$}}
  fprintf(stderr, "%lld %lld\n", (long long)rockTuningDefaultNumCu("gfx942"),
          (long long)rockTuningDefaultNumCu("cpu"));
  // CHECK-NEXT: {{^}}304 64{{$}}
}

static void testDb(void) {
  fprintf(stderr, "TEST: db\n");
  RockAttentionConfig c;
  problem(&c);
  char key[1024], pc[256], err[512], row[1400];
  rockAttentionTuningKey(&c, "", 64, key, sizeof key);
  snprintf(row, sizeof row,
           "# arch\tnumCUs\ttestVector\tperfConfig\n%s\t"
           "attn:v3:32,32,4,8,32,32,16,4,1,1,0,0,1\n",
           key);
  write("db.tsv", row);
  RockPerfDbStatus st =
      rockPerfDbLookup("db.tsv", key, pc, sizeof pc, err, sizeof err);
  fprintf(stderr, "%d %s\n", st, pc);
  // CHECK-LABEL: TEST: db
  // CHECK-NEXT: {{^}}0 attn:v3:32,32,4,8,32,32,16,4,1,1,0,0,1{{$}}
  st = rockPerfDbLookup("db.tsv", "cpu\t64\t-t f32", pc, sizeof pc, err,
                        sizeof err);
  fprintf(stderr, "%d\n", st);
  // CHECK-NEXT: {{^}}1{{$}}
  st = rockPerfDbLookup("nope.tsv", key, pc, sizeof pc, err, sizeof err);
  fprintf(stderr, "%d %s\n", st, err);
  // CHECK-NEXT: {{^}}2 cannot open perf DB 'nope.tsv': No such file or directory{{$}}
  /* Resolution: given, else the DB, else the heuristic (with the reason). */
  RockPerfSource src = rockAttentionResolvePerfConfig(
      &c, "", 64, "db.tsv", pc, sizeof pc, err, sizeof err);
  fprintf(stderr, "%d %s '%s'\n", src, pc, err);
  // CHECK-NEXT: {{^}}1 attn:v3:32,32,4,8,32,32,16,4,1,1,0,0,1 ''{{$}}
  c.perfConfig = "attn:v3:16,16,4,8,32,32,16,4,1,1,0,0,1";
  src = rockAttentionResolvePerfConfig(&c, "", 64, "db.tsv", pc, sizeof pc, err,
                                       sizeof err);
  fprintf(stderr, "%d %s\n", src, pc);
  // CHECK-NEXT: {{^}}0 attn:v3:16,16,4,8,32,32,16,4,1,1,0,0,1{{$}}
  c.perfConfig = NULL;
  write("bad.tsv", "# arch\tnumCUs\ttestVector\tperfConfig\ncpu\t64\tx\n");
  src = rockAttentionResolvePerfConfig(&c, "", 64, "bad.tsv", pc, sizeof pc,
                                       err, sizeof err);
  fprintf(stderr, "%d '%s' %s\n", src, pc, err);
  // CHECK-NEXT: {{^}}2 '' perf DB 'bad.tsv' line 2: 3 tab-separated fields, the header has 4{{$}}
  /* The builders consult cfg.perfDb when no perf_config is set. */
  MlirContext ctx = mlirContextCreate();
  c.perfDb = "db.tsv";
  char *text = rockAttentionBuildModuleText(ctx, &c, NULL);
  const char *at = text ? strstr(text, "perf_config = ") : NULL;
  fprintf(stderr, "%.54s\n", at ? at : "none");
  // CHECK-NEXT: {{^}}perf_config = "attn:v3:32,32,4,8,32,32,16,4,1,1,0,0,1"{{$}}
  free(text);
  c.perfDb = "bad.tsv"; /* unreadable: the heuristic, no perf_config */
  text = rockAttentionBuildModuleText(ctx, &c, NULL);
  fprintf(stderr, "%s\n",
          text && !strstr(text, "perf_config") ? "heuristic" : "?");
  // CHECK-NEXT: {{^}}heuristic{{$}}
  free(text);
  mlirContextDestroy(ctx);
}

static void onConfig(const char *perfConfig, const char *schedule, void *user) {
  int *n = user;
  if (!perfConfig)
    fprintf(stderr, "heuristic: %s\n", schedule);
  else if ((*n)++ < 2)
    fprintf(stderr, "%s | %s\n", perfConfig, schedule);
}

static void testSpace(void) {
  fprintf(stderr, "TEST: space\n");
  RockAttentionConfig c;
  problem(&c);
  MlirContext ctx = mlirContextCreate();
  char err[256];
  int n = 0;
  int64_t got = rockAttentionTuningSpace(ctx, &c, "", 64, ROCK_TUNING_QUICK,
                                         onConfig, &n, err, sizeof err);
  fprintf(stderr, "%lld %d\n", (long long)got, n);
  // CHECK-LABEL: TEST: space
  // CHECK-NEXT: {{^}}heuristic: cpu keys 32 rows 4{{$}}
  // CHECK-NEXT: {{^}}attn:v3:32,32,4,8,32,32,16,4,1,1,0,0,1 | cpu keys 32 rows 4{{$}}
  // CHECK-NEXT: {{^}}attn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1 | cpu keys 64 rows 4{{$}}
  // CHECK-NEXT: {{^}}4 4{{$}}
  c.headDimQK = c.headDimV = 4096;
  c.dtype = ROCK_ATTENTION_F32;
  n = 0;
  got = rockAttentionTuningSpace(ctx, &c, "sm_90", 132, ROCK_TUNING_FULL,
                                 onConfig, &n, err, sizeof err);
  fprintf(stderr, "%lld %s\n", (long long)got, err);
  // CHECK-NEXT: {{^}}-1 the problem does not lower on sm_90{{$}}
  mlirContextDestroy(ctx);
}

int main(void) {
  testKey();
  testDb();
  testSpace();
  return 0;
}
