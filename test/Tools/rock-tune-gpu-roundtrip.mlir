// rock-tune's GPU round trip (docs/tuning.md) without a GPU: --prepare
// compiles cubin bundles of the heuristic and each config with the
// manifest and the device half; `go.sh --fake-gpu` runs the device half's
// orchestration with made-up times (no GPU here) and writes the perf DB,
// which rock-gen then reads. What the GPU run measures is not tested here:
// the fake times come from the bundles' bytes, so whether the quick winner
// is within 2 % of the exhaustive one changes with the kernels.
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-tune --prepare %t/dir --arch sm_90 --cases smoke --max-configs 3 --jobs 2 | FileCheck %s --check-prefix=PREP
// PREP: {{^}}rock-tune: 2 cases, 8 bundles (0 failed to compile) in {{[0-9]+}} s; {{.*}}dir: {{[0-9.]+}} MiB; 1 exhaustive shapes: GQA ratios 4; head dims 64; B 1; layouts dense{{$}}
// PREP-NEXT: {{^}}rock-tune: the run should take about {{[0-9]+}} s on an H200 (smoke {{[0-9]+}} s; the start 20 s){{$}}
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
// GO: {{^}}device: fake GPU (rock-tune --fake-gpu), no GPU; rock {{.*}}, sm_90; 2 cases; budget 170 s, 8 s a case; ready in {{.*}}
// GO-NEXT: {{^}}[1/2] smoke-dense-R4-d64-B1-L1k: n 3/3, heur {{[0-9.]+}} us, tuned {{[0-9.]+}} ({{.*}}); <= heur, exh {{[-+][0-9.]+}}% {{ok|MISSED}}, f64 [1 1 1] (fake); {{.*}}
// GO-NEXT: {{^}}[2/2] smoke-p16-R4-d64-B1-L1k: n 3/3, heur {{[0-9.]+}} us, tuned {{[0-9.]+}} ({{.*}}); <= heur, f64 [1 1 1] (fake); {{.*}}
// GO-NEXT: {{^}}rock-tune: 2 DB rows in {{.*}}perf-db.tsv; the whole table in {{.*}}table.md
// GO-NEXT: {{^}}rock-tune summary: 2 cases, 2 tuned, 0 not; 2 DB rows; 6 configs timed, 0 failed their check or launch; {{[0-9]+}} s
// GO-NEXT: {{^}}tuned <= heuristic (round 2): 2 of 2{{$}}
// GO-NEXT: {{^}}within 2 % of exhaustive: {{[01]}} of 1{{(; MISSED .*)?$}}
// GO-NEXT: {{^}}verified: 2 of 2 (2 by rock-run-gpu's f64 reference, the rest on the slice){{$}}
// GO-NEXT: {{^}}smoke: 2 cases, heuristic/tuned geomean {{.*}}
// The whole table, the summary and the raw results are under $OUT.
// RUN: FileCheck %s --check-prefix=TABLE --input-file %t/out/table.md
// TABLE: | shape | n | heuristic µs | tuned µs | exhaustive µs | verdict |
// TABLE: | smoke-dense-R4-d64-B1-L1k | 3 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | <= heur, exh {{[-+][0-9.]+}}% {{ok|MISSED}}, f64 [1 1 1] (fake) |
// TABLE: | smoke-p16-R4-d64-B1-L1k | 3 | {{[0-9.]+}} | {{[0-9.]+}} | - | <= heur, f64 [1 1 1] (fake) |
// RUN: ls %t/out | FileCheck %s --check-prefix=OUTFILES
// OUTFILES: perf-db.tsv
// OUTFILES-NEXT: rock-tune.log
// OUTFILES-NEXT: summary.txt
// OUTFILES-NEXT: table.md
// OUTFILES-NEXT: tune.json
// OUTFILES-NEXT: tune.jsonl
// RUN: grep -c . %t/out/tune.jsonl | FileCheck %s --check-prefix=ROWS
// The budgets: a case's screening stops at --case-budget (after the
// heuristic), which leaves the exhaustive search incomplete, and no case
// starts past --budget; either fails the run (exit status 1).
// RUN: not env OUT=%t/out2 bash %t/dir/go.sh --fake-gpu --case-budget 0 | FileCheck %s --check-prefix=CASEBUDGET
// CASEBUDGET: {{^}}[1/2] smoke-dense-R4-d64-B1-L1k: n 1/3, {{.*}}; <= heur, exh INCOMPLETE (1 of 3), f64 [1 1 1] (fake); {{.*}}
// CASEBUDGET: {{^}}within 2 % of exhaustive: 0 of 1; MISSED smoke-dense-R4-d64-B1-L1k (incomplete){{$}}
// RUN: not env OUT=%t/out3 bash %t/dir/go.sh --fake-gpu --budget 0 | FileCheck %s --check-prefix=BUDGET
// BUDGET: {{^}}[1/2] smoke-dense-R4-d64-B1-L1k: skipped (budget){{$}}
// BUDGET: {{^}}[2/2] smoke-p16-R4-d64-B1-L1k: skipped (budget){{$}}
// BUDGET: {{^}}rock-tune summary: 2 cases, 0 tuned, 2 not; 0 DB rows;{{.*}}
// BUDGET: {{^}}not tuned: smoke-dense-R4-d64-B1-L1k (skipped (budget)); smoke-p16-R4-d64-B1-L1k (skipped (budget)){{$}}
// --only picks cases by name.
// RUN: env OUT=%t/out4 bash %t/dir/go.sh --fake-gpu --only p16 | FileCheck %s --check-prefix=ONLY
// ONLY: {{^}}[1/1] smoke-p16-R4-d64-B1-L1k: n 3/3{{.*}}
// The DB has one row per case, and rock-gen takes its entry.
// RUN: grep -c '^sm_90' %t/out/perf-db.tsv | FileCheck %s --check-prefix=ROWS
// ROWS: 2
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 --transK --perf-db %t/out/perf-db.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=USED
// USED: {{^}}rock-gen: perf_config attn:v3:{{.*}} from perf DB {{.*}}perf-db.tsv{{$}}
// --ingest: the run's rows into a DB (the shipped one by default; a copy
// here, the shipped one's header without its rows), a row replacing its key's; its summary and table into a results
// file, as one section between markers that a second ingest replaces.
// RUN: grep '^#' %rock_obj_root/share/rock/perf-db.tsv > %t/shipped.tsv
// RUN: rock-tune --ingest %t/out --db %t/shipped.tsv --results %t/res.md --raw %t/raw.json | FileCheck %s --check-prefix=INGEST
// RUN: rock-tune --ingest %t/out --db %t/shipped.tsv --results %t/res.md --raw %t/raw.json | FileCheck %s --check-prefix=INGEST2
// INGEST: {{^}}rock-tune: 2 rows into {{.*}}shipped.tsv (0 replaced), {{.*}}res.md, {{.*}}raw.json{{$}}
// INGEST2: {{^}}rock-tune: 2 rows into {{.*}}shipped.tsv (2 replaced), {{.*}}res.md, {{.*}}raw.json{{$}}
// RUN: grep -c '^sm_90' %t/shipped.tsv | FileCheck %s --check-prefix=ROWS
// RUN: grep -c 'rock-tune --ingest: begin' %t/res.md | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// RUN: FileCheck %s --check-prefix=RES --input-file %t/res.md
// RES: {{^}}## GPU: fake GPU (rock-tune --fake-gpu), rock {{.*}}
// RES: {{^}}within 2 % of exhaustive: {{[01]}} of 1{{(; MISSED .*)?$}}
// RES: {{^}}| smoke-dense-R4-d64-B1-L1k | 3 |
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 --transK --perf-db %t/shipped.tsv -v 2>&1 >/dev/null | FileCheck %s --check-prefix=USEDSHIPPED
// USEDSHIPPED: {{^}}rock-gen: perf_config attn:v3:{{.*}} from perf DB {{.*}}shipped.tsv{{$}}
// A DB that is not one is refused, and nothing is written.
// RUN: printf 'junk\n' > %t/out4/perf-db.tsv
// RUN: not rock-tune --ingest %t/out4 --db %t/shipped.tsv --results %t/res.md --raw %t/raw.json 2>&1 | FileCheck %s --check-prefix=BADINGEST
// BADINGEST: {{^}}rock-tune: error: {{.*}}perf-db.tsv:1: not a row of the header's width{{$}}
