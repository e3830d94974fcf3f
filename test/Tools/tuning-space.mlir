// rock-gen --emit-tuning-space (docs/tuning.md): the perf_configs a
// target's lowering tells apart for the problem, the heuristic's first;
// quick is the pruned list; -v names each config's schedule. A sample of
// each target's space compiles (and on the CPU verifies); the nightly suite
// checks whole full spaces (tuning-space-nightly.mlir).

// CPU, decode-like (8 merged rows, 300 keys): keys per tile 16-256 up to
// the keys rounded up (512), one row tile of 8; the heuristic (64 keys,
// 8 rows) first.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --emit-tuning-space -v | FileCheck %s --check-prefix=CPU
// CPU: {{^}}# heuristic: cpu keys 32 rows 8{{$}}
// CPU-NEXT: {{^}}attn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1{{[[:space:]]}}cpu keys 32 rows 8{{$}}
// CPU-NEXT: {{^}}attn:v3:16,16,4,8,32,32,16,4,1,1,0,0,1{{[[:space:]]}}cpu keys 16 rows 4{{$}}
// CPU-NEXT: {{^}}attn:v3:16,16,8,8,32,32,16,4,1,1,0,0,1{{[[:space:]]}}cpu keys 16 rows 8{{$}}
// CPU-NEXT: {{^}}attn:v3:32,32,4,8,32,32,16,4,1,1,0,0,1{{[[:space:]]}}cpu keys 32 rows 4{{$}}
// CPU:      {{^}}attn:v3:256,256,8,8,32,32,16,4,1,1,0,0,1{{[[:space:]]}}cpu keys 256 rows 8{{$}}
// CPU-NOT: attn:v3
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 --emit-tuning-space=quick | FileCheck %s --check-prefix=CPUQ
// CPUQ: {{^}}attn:v3:32,32,8,8,32,32,16,4,1,1,0,0,1{{$}}
// CPUQ-NEXT: {{^}}attn:v3:64,64,8,8,32,32,16,4,1,1,0,0,1{{$}}
// CPUQ-NEXT: {{^}}attn:v3:128,128,8,8,32,32,16,4,1,1,0,0,1{{$}}
// CPUQ-NEXT: {{^}}attn:v3:256,256,8,8,32,32,16,4,1,1,0,0,1{{$}}
// CPUQ-NOT: attn:v3
// Every second config of that full space verifies.
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --every 2 -- -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 300 -head_dim_qk 32 -head_dim_v 32 | FileCheck %s --check-prefix=CPUOK
// CPUOK: {{^}}5 of 5 configs compiled and verified (10 in the full space, cpu){{$}}
// A causal prefill with GQA: a sample of every sixth config verifies.
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --every 6 -- -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 40 -seq_len_k 77 -head_dim_qk 32 -head_dim_v 16 -causal | FileCheck %s --check-prefix=PREOK
// PREOK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled and verified ({{[0-9]+}} in the full space, cpu){{$}}

// sm_90, a GQA decode (bf16, d 128): on the tensor cores (the decode's 4
// merged rows padded to 16), with the split, the L2 prefetch and the SIMT
// schedule at its defaults; the quick list is a subset (by schedule) of
// the full one. The heuristic's split (P) first, then none, then 2P.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=quick -v | FileCheck %s --check-prefix=SM90Q
// SM90Q: {{^}}# heuristic: tc warps 1 rows 16 keys 32 {{.*}} split [[P:[0-9]+]] fan 16 key_warps 2{{$}}
// SM90Q-NEXT: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1{{[[:space:]]}}tc {{.*}} split [[P]] fan 16 key_warps 2{{$}}
// SM90Q-NEXT: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:split=1{{[[:space:]]}}tc {{.*}} split 1 key_warps 2{{$}}
// SM90Q-NEXT: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:split={{[0-9]+}}{{[[:space:]]}}tc {{.*}}{{$}}
// SM90Q: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:path=simt{{[[:space:]]}}simt {{.*}}{{$}}
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=quick -v | cut -f2 | grep -v '^#' | sort > %t.quick
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=full -v | cut -f2 | grep -v '^#' | sort > %t.full
// RUN: comm -23 %t.quick %t.full | count 0
// No two configs of a space share a schedule.
// RUN: uniq -d %t.full | count 0
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --space quick --every 6 -- -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 | FileCheck %s --check-prefix=SM90OK
// SM90OK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled ({{[0-9]+}} in the quick space, sm_90){{$}}

// sm_90, a prefill at d 64: the warpgroup-MMA schedule (the heuristic's:
// three consumer warpgroups), without its producer warpgroup, with the
// 32-byte swizzle, with cp.async instead of TMA, with two consumer
// warpgroups, ping-pong (a ring of the three: pingpong=1), and mma.sync (wgmma=0) with its warps from rocMLIR's wave
// fields (W = (64 / 64) * (16 W / 16)).
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --emit-tuning-space=quick -v | FileCheck %s --check-prefix=TC
// TC: {{^}}# heuristic: wgmma warpgroups 3 rows 192 keys 128 producer 1 overlap 1 pingpong 0 swizzle128 1 tma 1 paged_tma 0 split [[P:[0-9]+]]{{$}}
// TC-NEXT: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1{{[[:space:]]}}wgmma warpgroups 3 {{.*}} split [[P]]{{$}}
// TC: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:producer=0{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 128 producer 0 {{.*}}{{$}}
// TC: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:pingpong=1{{[[:space:]]}}wgmma warpgroups 3 rows 192 keys 128 producer 1 overlap 1 pingpong 1 {{.*}}{{$}}
// TC: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:swizzle128=0{{[[:space:]]}}wgmma {{.*}} pingpong 0 swizzle128 0 {{.*}}{{$}}
// TC: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:tma=0{{[[:space:]]}}wgmma {{.*}} producer 1 {{.*}} tma 0 paged_tma 0 split {{.*}}{{$}}
// TC: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:consumers=2{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 128 producer 1 {{.*}}{{$}}
// TC: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:wgmma=0{{[[:space:]]}}tc warps 1 rows 16 {{.*}}{{$}}
// TC: {{^}}attn:v3:64,64,128,8,64,16,16,4,1,1,2,0,1:rock:wgmma=0{{[[:space:]]}}tc warps 8 rows 128 {{.*}}{{$}}
// d 128 (the rule's two consumer warpgroups): the opt-in ping-pong with
// and without the 32-byte swizzle.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=quick -v | FileCheck %s --check-prefix=TC128
// TC128: {{^}}# heuristic: wgmma warpgroups 2 rows 128 keys 128 producer 1 overlap 1 pingpong 0 swizzle128 1 tma 1
// TC128: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:pingpong=1{{[[:space:]]}}wgmma {{.*}} pingpong 1 swizzle128 1 {{.*}}{{$}}
// TC128: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:pingpong=1,swizzle128=0{{[[:space:]]}}wgmma {{.*}} pingpong 1 swizzle128 0 {{.*}}{{$}}
// TC128-NOT: rock:pingpong=0
// TC128: {{^}}attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:consumers=3{{[[:space:]]}}wgmma warpgroups 3 rows 192
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --space quick -- -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90a | FileCheck %s --check-prefix=TCOK
// TCOK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled ({{[0-9]+}} in the quick space, sm_90a){{$}}

// AMD (gfx942, gfx90a, gfx1201): the same knobs; the tensor-core schedule
// has 1-4 waves. The pipeline up to the GPU lowering (hsaco needs the ROCm
// toolkit: the nightly suite, where it is installed).
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --space quick --every 3 --amd-llvm-only -- -t f16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --arch gfx942 | FileCheck %s --check-prefix=AMDOK
// AMDOK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled ({{[0-9]+}} in the quick space, gfx942){{$}}
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --space quick --amd-llvm-only -- -t f16 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 128 -head_dim_qk 64 -head_dim_v 64 --arch gfx1201 | FileCheck %s --check-prefix=AMD12OK
// AMD12OK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled ({{[0-9]+}} in the quick space, gfx1201){{$}}
// RUN: python3 %rock_src/scripts/tuning-space-check.py --build %rock_obj_root --space quick --every 3 --amd-llvm-only -- -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 128 -head_dim_qk 64 -head_dim_v 64 --arch gfx90a | FileCheck %s --check-prefix=AMD9AOK
// AMD9AOK: {{^}}[[N:[0-9]+]] of [[N]] configs compiled ({{[0-9]+}} in the quick space, gfx90a){{$}}

// A problem the target cannot lower: one error, exit status 2.
// RUN: not rock-gen -t f32 -g 1 -num_heads_q 1 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 4096 -head_dim_v 4096 --arch sm_90 --emit-tuning-space 2>&1 | FileCheck %s --check-prefix=NOLOWER
// NOLOWER: {{^}}rock-gen: error: the problem does not lower on sm_90{{$}}
