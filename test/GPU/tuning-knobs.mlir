// The GPU lowering reads the knobs a perf_config's rock fields set (docs/
// tuning.md): the SIMT schedule's keys per lane group and the internal split
// change the kernel. A GQA decode, bf16 d 128, 2048 keys, sm_90.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:split=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=ONE
// ONE-COUNT-1: gpu.launch
// ONE-NOT: gpu.launch
// ONE-NOT: memref.alloc
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:split=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=FOUR
// Four partitions: f32 partials [B * 4, Sq, Dv] and a combine launch.
// FOUR: memref.alloc() {{.*}}: memref<64x1x128xf32>
// FOUR-COUNT-2: gpu.launch
// The schedule --emit-tuning-space -v names for each config follows the
// knobs: keys per lane group and the split.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=quick -v | FileCheck %s --check-prefix=PLAN
// PLAN: {{^}}# heuristic: simt vec 8 lanes 16 groups 2 warps 4 keys 4 stages 1 rows 4 split [[P:[0-9]+]]{{$}}
// PLAN-NEXT: {{^}}attn:v3:{{[0-9,]+}}{{[[:space:]]}}simt vec 8 lanes 16 groups 2 warps 4 keys 4 stages 1 rows 4 split [[P]]{{$}}
// PLAN: {{^}}attn:v3:{{[0-9,]+}}:rock:path=simt,keys=8,lanes=16,stages=1{{[[:space:]]}}simt vec 8 lanes 16 groups 2 warps 4 keys 8 stages 1 rows 4 split [[P]]{{$}}
