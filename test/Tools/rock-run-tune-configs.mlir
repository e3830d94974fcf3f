// rock-run --tune-configs FILE (rock-tune's CPU step, docs/tuning.md): one
// fill of the inputs, every listed perf_config compiled (`heuristic`: the
// module's own), timed in interleaved rounds, one `tune:` line each with
// the median and the best run, the load average, the best (least best run),
// then the best run and verified as a plain run. A config that does not
// compile is one `tune: N error` line; the others still run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'heuristic\n# a comment\n\nattn:v3:16,16,4,8,32,32,16,4,1,1,0,0,1\nattn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1\nattn:v3:1,2\n' > %t/cfgs
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db none -pv \
// RUN:   | rock-run --tune-configs %t/cfgs --time --kernel-repeats 2 2>%t/err | FileCheck %s
// CHECK: {{^}}tune: 3 error attn:v3:1,2{{$}}
// CHECK: {{^}}tune: 0 median_ms {{[0-9.]+}} min_ms {{[0-9.]+}} heuristic{{$}}
// CHECK-NEXT: {{^}}tune: 1 median_ms {{[0-9.]+}} min_ms {{[0-9.]+}} attn:v3:16,16,4,8,32,32,16,4,1,1,0,0,1{{$}}
// CHECK-NEXT: {{^}}tune: 2 median_ms {{[0-9.]+}} min_ms {{[0-9.]+}} attn:v3:64,64,4,8,32,32,16,4,1,1,0,0,1{{$}}
// CHECK-NEXT: {{^}}tune: load average {{[0-9.]+}} before, {{[0-9.]+}} after (3 rounds of 2 runs){{$}}
// CHECK-NEXT: {{^}}tune: best {{[0-2]}} {{heuristic|attn:v3:.*}}{{$}}
// CHECK-NEXT: {{^}}[1 1 1]{{$}}
// CHECK-NEXT: compile_time_ms:
// CHECK-NEXT: kernel_time_ms:
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// ERR: invalid perf_config 'attn:v3:1,2'
// A file without configs, and a missing file: one error, exit status 3.
// RUN: printf '# nothing\n' > %t/none
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 -pv > %t/m.mlir
// RUN: not rock-run %t/m.mlir --tune-configs %t/none 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: {{^}}rock-run: error: {{.*}}none: no perf_config{{$}}
// RUN: not rock-run %t/m.mlir --tune-configs %t/missing 2>&1 | FileCheck %s --check-prefix=MISS
// MISS: {{^}}rock-run: error: cannot open '{{.*}}missing': No such file or directory{{$}}
