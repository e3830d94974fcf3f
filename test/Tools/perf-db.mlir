// The perf DB (docs/tuning.md): rock-gen without -perf_config takes the
// DB's entry for the problem's tuning key; a missing key, a missing or a
// corrupt DB keep the heuristic (the latter two with one error line, exit
// status 0); -v says which; rock-run --perf-db does the same for a module.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --emit-tuning-key > %t/key
// RUN: printf '# a comment\n# arch\tnumCUs\ttestVector\tperfConfig\tus\ttuningSpace\trockVersion\tdevice\ttimestamp\n' > %t/db.tsv
// RUN: printf 'cpu\t64\t-t f32 -g 9\tattn:v3:16,16,4,8,32,32,16,4,1,1,0,0,1\t1.0\tquick\tx\ty\tz\n' >> %t/db.tsv
// RUN: printf '%%s\tattn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1\t2.0\tquick\tx\ty\tz\n' "$(cat %t/key)" >> %t/db.tsv
// The last row of a key wins (a re-tune appended).
// RUN: cp %t/db.tsv %t/db2.tsv
// RUN: printf '%%s\tattn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1\t1.5\tfull\tx\ty\tz\n' "$(cat %t/key)" >> %t/db2.tsv

// The DB's entry; -v names it.
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv -v 2>%t/err | FileCheck %s --check-prefix=FROMDB
// RUN: FileCheck %s --check-prefix=FROMDBV < %t/err
// FROMDB: perf_config = "attn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1"
// FROMDBV: {{^}}rock-gen: perf_config attn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1 from perf DB {{.*}}db.tsv{{$}}
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db2.tsv | FileCheck %s --check-prefix=LAST
// LAST: perf_config = "attn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1"
// The kernel the DB chose runs and verifies.
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv -pv -relDiff_threshold 1e-4 | rock-run | FileCheck %s --check-prefix=PASS
// PASS: [1 1 1]

// -perf_config wins over the DB.
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv -perf_config attn:v3:128,128,4,8,32,32,16,4,1,1,0,0,1 -v 2>%t/err | FileCheck %s --check-prefix=GIVEN
// RUN: FileCheck %s --check-prefix=GIVENV < %t/err
// GIVEN: perf_config = "attn:v3:128,128,4,8,32,32,16,4,1,1,0,0,1"
// GIVENV: rock-gen: perf_config attn:v3:128,128,4,8,32,32,16,4,1,1,0,0,1 (given)

// A problem the DB does not have: the heuristic, nothing on stderr without -v.
// RUN: rock-gen -t f32 -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv 2>%t/err | FileCheck %s --check-prefix=HEUR
// RUN: count 0 < %t/err
// RUN: rock-gen -t f32 -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=HEURV
// HEUR-NOT: perf_config =
// HEUR: rock.attention
// HEUR-NOT: perf_config =
// HEURV: {{^}}rock-gen: no perf_config: the heuristic (perf DB {{.*}}db.tsv has no entry for this problem){{$}}
// --perf-db none: no DB at all.
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db none -v 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// NONE: {{^}}rock-gen: no perf_config: the heuristic (no perf DB){{$}}

// A missing DB: one error line, then the heuristic (exit status 0).
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/nope.tsv 2>%t/err | FileCheck %s --check-prefix=HEUR
// RUN: FileCheck %s --check-prefix=MISSING < %t/err
// MISSING: {{^}}rock-gen: error: cannot open perf DB '{{.*}}nope.tsv': No such file or directory; the heuristic is used{{$}}
// MISSING-NOT: error
// RUN: count 1 < %t/err

// Corrupt DBs: a row of the wrong width, a perf_config that does not parse,
// no header. Each: one error naming the file and line, the heuristic.
// RUN: cp %t/db.tsv %t/bad1.tsv && printf 'cpu\t64\tonly three\n' >> %t/bad1.tsv
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/bad1.tsv 2>%t/err | FileCheck %s --check-prefix=HEUR
// RUN: FileCheck %s --check-prefix=BAD1 < %t/err
// BAD1: {{^}}rock-gen: error: perf DB '{{.*}}bad1.tsv' line 5: 3 tab-separated fields, the header has 9; the heuristic is used{{$}}
// BAD1-NOT: error
// RUN: count 1 < %t/err
// RUN: cp %t/db.tsv %t/bad2.tsv && printf 'cpu\t64\t-t f32\tattn:v3:1,2\t1\tq\tx\ty\tz\n' >> %t/bad2.tsv
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/bad2.tsv 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD2
// BAD2: {{^}}rock-gen: error: perf DB '{{.*}}bad2.tsv' line 5: invalid perf_config 'attn:v3:1,2': attn:v3 needs 12 or 13 integers, got 2; the heuristic is used{{$}}
// RUN: printf 'cpu\t64\t-t f32\tattn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1\n' > %t/bad3.tsv
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/bad3.tsv 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD3
// BAD3: {{^}}rock-gen: error: perf DB '{{.*}}bad3.tsv' line 1: a row before the header line '# arch<TAB>numCUs<TAB>testVector<TAB>perfConfig...'; the heuristic is used{{$}}
// RUN: printf '# arch\tnumCUs\ttestVector\tperfConfig\n' > %t/bad4.tsv && printf 'cpu\tmany\t-t f32\tattn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1\n' >> %t/bad4.tsv
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/bad4.tsv 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD4
// BAD4: {{^}}rock-gen: error: perf DB '{{.*}}bad4.tsv' line 2: arch, numCUs (an integer) and testVector must be set; the heuristic is used{{$}}
// An empty file has no header either.
// RUN: : > %t/empty.tsv
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/empty.tsv 2>&1 >/dev/null | FileCheck %s --check-prefix=EMPTY
// EMPTY: {{^}}rock-gen: error: perf DB '{{.*}}empty.tsv' has no header line '# arch<TAB>numCUs<TAB>testVector<TAB>perfConfig...'; the heuristic is used{{$}}

// The key: arch and compute units are part of it (another -num_cu misses).
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 -num_cu 32 --perf-db %t/db.tsv 2>/dev/null | FileCheck %s --check-prefix=HEUR

// rock-run --perf-db: a module without perf_config takes the DB's entry
// (the same key, computed from the harness); -v says so on stderr.
// RUN: rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db none -pv -relDiff_threshold 1e-4 > %t/m.mlir
// RUN: rock-run %t/m.mlir --perf-db %t/db.tsv -v 2>%t/err | FileCheck %s --check-prefix=PASS
// RUN: FileCheck %s --check-prefix=RUNV < %t/err
// RUNV: {{^}}rock-run: tuning key: cpu{{.*}}
// RUNV: {{^}}rock-run: perf_config attn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1 from perf DB {{.*}}db.tsv{{$}}
// rock-run's key is rock-gen's, byte for byte.
// RUN: sed -n 's/^rock-run: tuning key: //p' %t/err | diff - %t/key
// RUN: FileCheck %s --check-prefix=KEYSAME --input-file %t/key
// KEYSAME: {{^}}cpu{{[[:space:]]}}64{{[[:space:]]}}-t f32 -transQ false -transK false -transV false -transO false -g 1 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 -causal false -return_lse false -split_kv 1 -num_heads_q 4 -num_heads_kv 2{{$}}
// A GPU module (mhal.arch = "sm_90"): rock-run's key names the target and
// its compute units, as rock-gen's does, and the DB's entry for it is taken
// (compiled only: no GPU needed).
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 --emit-tuning-key > %t/gkey
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 --perf-db none -pv > %t/g.mlir
// RUN: cp %t/db.tsv %t/gdb.tsv && printf '%%s\tattn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1:rock:path=simt,keys=8\t3.0\tquick\tx\ty\tz\n' "$(cat %t/gkey)" >> %t/gdb.tsv
// RUN: rock-run %t/g.mlir --perf-db %t/gdb.tsv -v --compile-only -o %t/g.bundle 2>%t/gerr
// RUN: sed -n 's/^rock-run: tuning key: //p' %t/gerr | diff - %t/gkey
// RUN: FileCheck %s --check-prefix=GPUKEY --input-file %t/gerr
// GPUKEY: {{^}}rock-run: tuning key: sm_90{{[[:space:]]}}132{{[[:space:]]}}-t bf16
// GPUKEY: {{^}}rock-run: perf_config attn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1:rock:path=simt,keys=8 from perf DB {{.*}}gdb.tsv{{$}}
// RUN: rock-run %t/m.mlir --perf-db %t/nope.tsv 2>&1 | FileCheck %s --check-prefix=RUNMISSING
// RUNMISSING: {{^}}rock-run: error: cannot open perf DB '{{.*}}nope.tsv': No such file or directory; the heuristic is used{{$}}
// RUNMISSING: [1 1 1]

// Without --perf-db, rock-gen takes $ROCK_PERF_DB (the lit suites set it to
// none), else the DB shipped with rock (build/share/rock/perf-db.tsv).
// RUN: env ROCK_PERF_DB=%t/db.tsv rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 -v 2>&1 >/dev/null | FileCheck %s --check-prefix=FROMENV
// FROMENV: {{^}}rock-gen: perf_config attn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1 from perf DB {{.*}}db.tsv{{$}}
// RUN: env -u ROCK_PERF_DB rock-gen -t f32 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 301 -head_dim_qk 32 -head_dim_v 32 -v 2>&1 >/dev/null | FileCheck %s --check-prefix=SHIPPED
// SHIPPED: {{^}}rock-gen: no perf_config: the heuristic (perf DB {{.*}}share/rock/perf-db.tsv has no entry for this problem){{$}}
// The shipped DB itself is well formed.
// RUN: rock-gen -p --perf-db %rock_obj_root/share/rock/perf-db.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=SHIPPEDOK
// SHIPPEDOK-NOT: error
// SHIPPEDOK: rock-gen: {{.*}}perf
