// rock-sweep sampling (tools/rock_sweep.py), without running anything (--list).
// RUN: rm -rf %t && mkdir -p %t
// Determinism: the same seed gives the same samples, another seed others.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 5 --tools-dir /T > %t/a.txt
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 5 --tools-dir /T > %t/b.txt
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 6 --tools-dir /T > %t/c.txt
// RUN: diff %t/a.txt %t/b.txt
// RUN: not diff -q %t/a.txt %t/c.txt
// RUN: FileCheck %s --check-prefix=LIST < %t/a.txt
// Sharding: same seed, disjoint samples whose union is the unsharded run.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 5 --tools-dir /T --shard 0/3 > %t/s0.txt
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 5 --tools-dir /T --shard 1/3 > %t/s1.txt
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 5 --tools-dir /T --shard 2/3 > %t/s2.txt
// RUN: cat %t/s0.txt %t/s1.txt %t/s2.txt | grep -v '^#' | sort -n > %t/union.txt
// RUN: grep -v '^#' %t/a.txt | sort -n | diff - %t/union.txt
// RUN: grep -c '^[0-9]' %t/s0.txt | FileCheck %s --check-prefix=S0
// RUN: grep -c '^[0-9]' %t/s2.txt | FileCheck %s --check-prefix=S2
// RUN: FileCheck %s --check-prefix=SHARD1 < %t/s1.txt
// Invariants: filters, RMS policy, default relDiff / absDiff gates, -pv, flag
// spelling, paged geometry, the input data.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 300 --seed 11 | python3 %rock_src/test/e2e/Inputs/sweep/check_list.py --expect-paged some | FileCheck %s --check-prefix=CHK300
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 50 --seed 11 --paged-fraction 1 | python3 %rock_src/test/e2e/Inputs/sweep/check_list.py --expect-paged all
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 50 --seed 11 --paged-fraction 0 --small | python3 %rock_src/test/e2e/Inputs/sweep/check_list.py --expect-paged none --max-tokens 512 --max-head-dim 128
// --data: random inputs per sample, from their own stream (the problems are
// those of the default pattern run).
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 11 --data float | python3 %rock_src/test/e2e/Inputs/sweep/check_list.py --data float
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 11 --data mixed | python3 %rock_src/test/e2e/Inputs/sweep/check_list.py --data mixed
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 11 --data int --tools-dir /T | grep -v '^#' | sed -e 's/ -rand [0-9]*//' > %t/d1.txt
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 11 --tools-dir /T | grep -v '^#' | diff - %t/d1.txt
// The paged fraction does not change the unpaged samples' stream.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 11 --paged-fraction 0 --tools-dir /T | grep -v '^#' > %t/p0.txt
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 11 --tools-dir /T | grep -v paged-attention | grep -v '^#' > %t/p1.txt
// RUN: grep -F -x -f %t/p1.txt %t/p0.txt | diff - %t/p1.txt
// Memory prefilter (8.2): limit 0 removes every split_kv > 1 draw and counts it.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 40 --seed 5 --splitkv-extra-bytes-limit 0 > %t/m.txt
// RUN: python3 %rock_src/test/e2e/Inputs/sweep/check_list.py --limit 0 < %t/m.txt
// RUN: FileCheck %s --check-prefix=MEM < %t/m.txt
// Default seed: the ISO week number.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 1 | head -1 > %t/seed.txt
// RUN: python3 -c "import datetime; print('# seed %%d, shard 0/1' %% datetime.date.today().isocalendar()[1])" | diff - %t/seed.txt
// WMMA perf-config table: block sizes <= 128, waves 16-64, mnPerXdl 16.
// RUN: python3 %rock_src/tools/rock_sweep.py --list --samples 30 --seed 5 --codepath wmma | FileCheck %s --check-prefix=WMMA
// Usage errors.
// RUN: not python3 %rock_src/tools/rock_sweep.py --op gemm_gemm 2>&1 | FileCheck %s --check-prefix=GG
// RUN: not python3 %rock_src/tools/rock_sweep.py --shard 3/3 2>&1 | FileCheck %s --check-prefix=BADSHARD

// LIST: # seed 5, shard 0/1
// LIST-NEXT: 0: /T/rock-gen --operation attention -t {{(f32|f16|bf16|i8)}} --arch cpu -g {{[0-9]+}} -seq_len_q {{[0-9]+}} -seq_len_k {{[0-9]+}} -head_dim_qk {{[0-9]+}} -head_dim_v {{[0-9]+}} -num_heads_q {{[0-9]+}} -num_heads_kv {{[0-9]+}} -with-attn-scale={{True|False}} -with-attn-bias={{True|False}} -transQ={{True|False}} -transK={{True|False}} -transV={{True|False}} -transO={{True|False}} -causal={{True|False}} -return_lse={{True|False}} -split_kv={{[0-9]+}} {{.*}}--perf_config=attn:v3:{{([0-9]+,){12}[0-9]+}} -RMS_threshold {{0.15|0.01|0.005}} -pv | /T/rock-run
// LIST: 39: /T/rock-gen
// LIST-NEXT: # Filtered: {{[0-9]+}}

// S0: 14
// S2: 13
// SHARD1: # seed 5, shard 1/3
// SHARD1-NEXT: 1: /T/rock-gen
// SHARD1-NEXT: 4: /T/rock-gen
// SHARD1-NEXT: 7: /T/rock-gen

// CHK300: checked 300 samples, {{[1-9][0-9]}} paged

// MEM-NOT: -split_kv={{[2-9]}}
// MEM: # Filtered: {{[1-9][0-9]*}} (splitkv-extra-bytes: {{[1-9][0-9]*}})

// WMMA-COUNT-30: --perf_config=attn:v3:{{(16|32|64|128),(16|32|64|128),(16|32|64|128|256),(8|16|32|64),(16|32|64),(16|32|64),16,(4|8|16),1,(1|2),(0|1|2),(0|1|2|4|8|16),(0|1)}} -RMS

// GG: error: --op gemm_gemm: rock-gen implements attention only
// BADSHARD: error: argument --shard: expected i/n with 0 <= i < n
