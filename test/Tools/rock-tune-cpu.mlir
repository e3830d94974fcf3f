// rock-tune on the CPU (docs/tuning.md): times the space in place, verifies
// the winner, writes a perf DB row keyed by --emit-tuning-key's line, and
// rock-gen then takes the DB's perf_config for the problem. --check also
// times the full space and reports the quick winner against its best.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: rock-tune -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --check --repeats 1 --db %t/db.tsv | FileCheck %s
// CHECK: {{^}}CPU: {{.+}}; best of 3 rounds x up to 1 runs (ms){{$}}
// CHECK: {{^}}| -t bf16 -g 1 {{.*}} | quick 10 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | verified, within {{.*}} % of exhaustive
// RUN: FileCheck %s --check-prefix=DBFILE < %t/db.tsv
// DBFILE: {{^}}# rock perf DB (docs/tuning.md): rock {{.+}}, {{.+}}{{$}}
// DBFILE-NEXT: {{^}}# arch{{[[:space:]]}}numCUs{{[[:space:]]}}testVector{{[[:space:]]}}perfConfig{{[[:space:]]}}us{{[[:space:]]}}tuningSpace{{[[:space:]]}}rockVersion{{[[:space:]]}}device{{[[:space:]]}}timestamp{{$}}
// DBFILE-NEXT: {{^}}cpu{{[[:space:]]}}64{{[[:space:]]}}-t bf16 {{.*}} -num_heads_kv 2{{[[:space:]]}}attn:v3:{{[0-9,]+}}{{[[:space:]]}}{{[0-9.]+}}{{[[:space:]]}}quick{{[[:space:]]}}
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=USED
// USED: {{^}}rock-gen: perf_config attn:v3:{{[0-9,]+}} from perf DB {{.*}}db.tsv{{$}}
// A second tune appends a row; the DB stays valid (rock-gen reads it).
// RUN: rock-tune -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --repeats 1 --db %t/db.tsv > /dev/null
// RUN: grep -c '^cpu' %t/db.tsv | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 3 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --perf-db %t/db.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=USED
// Usage errors: no problem; --prepare without an NVIDIA target.
// RUN: not rock-tune 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: rock-tune: error: give one of: PROBLEM-FLAGS, --problems FILE, --bench-cpu, --prepare DIR, --run DIR, --estimate DIR, --ingest OUT
// RUN: not rock-tune --prepare %t/p 2>&1 | FileCheck %s --check-prefix=PREP
// PREP: rock-tune: error: --prepare compiles NVIDIA bundles: give --arch sm_<N>
