// rock-tune's GPU round trip (docs/tuning.md) without a GPU: --prepare
// compiles cubin bundles of the heuristic and each config with the
// manifest and the device half; `go.sh --fake-gpu` runs the device half's
// orchestration with made-up times (no GPU here) and writes the perf DB,
// which rock-gen then reads. What the GPU run measures is not tested here.
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-tune --prepare %t/dir --arch sm_90 --cases smoke --max-configs 3 --jobs 2 | FileCheck %s --check-prefix=PREP
// PREP: {{^}}rock-tune: 2 cases, 8 bundles (0 failed to compile) in {{[0-9]+}} s; {{.*}}dir: {{[0-9.]+}} MiB{{$}}
// RUN: ls %t/dir | FileCheck %s --check-prefix=FILES
// RUN: ls %t/dir/src/tools %t/dir/src/runtime | FileCheck %s --check-prefix=SRC
// SRC: gpu_run.c
// SRC: rock_run_gpu.c
// FILES: attention_bench.py
// FILES-NEXT: bundles.tar.gz
// FILES-NEXT: go.sh
// FILES-NEXT: manifest.json
// FILES-NEXT: rock-run-gpu
// FILES-NEXT: rock-tune
// FILES-NEXT: src
// FILES-NEXT: tune_device.py
// RUN: python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(m['arch'], [(c['name'], c['exhaustive'], len(c['configs'])) for c in m['cases']])" %t/dir/manifest.json | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: sm_90 [('smoke-dense-R4-d64-B1-L1k', True, 3), ('smoke-p16-R4-d64-B1-L1k', False, 3)]
// RUN: env OUT=%t/out bash %t/dir/go.sh --fake-gpu | FileCheck %s --check-prefix=GO
// GO: rock-tune: 2 DB rows in {{.*}}perf-db.tsv; {{[0-9]+}} s
// GO: | shape | n | heuristic µs | tuned µs | exhaustive µs | verdict |
// GO: | smoke-dense-R4-d64-B1-L1k | {{[0-9]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | <= heur, exh {{.*}}, quick {{.*}}, f64 [1 1 1] (fake) |
// GO: | smoke-p16-R4-d64-B1-L1k | {{[0-9]+}} | {{[0-9.]+}} | {{[0-9.]+}} | - | <= heur, f64 [1 1 1] (fake) |
// The DB has one row per case, and rock-gen takes its entry.
// RUN: grep -c '^sm_90' %t/out/perf-db.tsv | FileCheck %s --check-prefix=ROWS
// ROWS: 2
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 --transK --perf-db %t/out/perf-db.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=USED
// USED: {{^}}rock-gen: perf_config attn:v3:{{.*}} from perf DB {{.*}}perf-db.tsv{{$}}
