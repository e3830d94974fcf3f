// The GPU lowering reads the knobs a perf_config's rock fields set (docs/
// tuning.md): the internal split and the schedule (path) change the
// kernel. A GQA decode, bf16 d 128, 2048 keys, sm_90.
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
// knobs. This bf16 decode runs on the tensor cores: the L2 prefetch
// distance, the split, the staging rule's opposite and the SIMT schedule at
// its defaults (path=simt).
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=full -v | FileCheck %s --check-prefix=PLAN
// PLAN: {{^}}# heuristic: tc warps 1 rows 16 {{.*}} split [[P:[0-9]+]] fan 16 key_warps 2{{$}}
// PLAN-NEXT: {{^}}attn:v3:{{[0-9,]+}}{{[[:space:]]}}tc warps 1 rows 16 {{.*}} split [[P]] fan 16 key_warps 2{{$}}
// PLAN: {{^}}attn:v3:{{[0-9,]+}}:rock:l2=2{{[[:space:]]}}tc warps 1 rows 16 {{.*}} l2 2 overlap 1 pages 00 split [[P]] fan 16 key_warps 1 (l2){{$}}
// The staging rule's opposite: the K / V overlap is on by rule (q-1 decode,
// since run 13), so the space offers ovl=0; ovl=1 is the heuristic's
// schedule and drops out.
// PLAN: {{^}}attn:v3:{{[0-9,]+}}:rock:ovl=0{{[[:space:]]}}tc warps 1 rows 16 {{.*}} overlap 0 pages 00 split [[P]] fan 16 key_warps 2{{$}}
// PLAN-NOT: ovl=1
// PLAN: {{^}}attn:v3:{{[0-9,]+}}:rock:path=simt{{[[:space:]]}}simt vec 8 lanes 16 groups 2 warps 4 keys 4 stages 1 rows 4 split {{[0-9]+}}{{$}}
// PLAN-NOT: keys=
// An f32 decode runs the SIMT schedule: its knobs are in the space.
// RUN: rock-gen -t f32 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --emit-tuning-space=quick -v | FileCheck %s --check-prefix=SIMT
// SIMT: {{^}}# heuristic: simt vec 4 lanes 16 groups 2 warps 4 keys 4 stages 1 rows 4 split [[P:[0-9]+]]{{$}}
// SIMT: {{^}}attn:v3:{{[0-9,]+}}:rock:path=simt,keys=4,lanes=8,stages=1{{[[:space:]]}}simt vec 4 lanes 8 groups 4 warps 4 keys 4 stages 1 rows 4 split [[P]]{{$}}
// SIMT: {{^}}attn:v3:{{[0-9,]+}}:rock:path=simt,keys=8,lanes=16,stages=2{{[[:space:]]}}simt vec 4 lanes 16 groups 2 warps 4 keys 8 stages 2 rows 4 split [[P]]{{$}}
// path=simt turns the tensor cores off: a SIMT launch (no mma.sync).
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:path=simt,split=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PATH
// PATH-NOT: nvvm.mma.sync
// PATH: gpu.launch
// PATH-NOT: nvvm.mma.sync
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:split=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TCPATH
// TCPATH: nvvm.mma.sync
// kvstages=N sets rock.gpu_accel_stages: N = 3 is the ring of three 32-key
// slots (48 KiB, one wait for all but the newest group a tile).
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:kvstages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KVST
// KVST: workgroup(%{{.*}} : memref<49152xi8, #gpu.address_space<workgroup>>)
// KVST: scf.for {{.*}} iter_args
// KVST: nvvm.cp.async.wait.group 1
// KVST-NOT: nvvm.cp.async.wait.group 0
// KVST: scf.yield
// kwarps=N sets rock.gpu_accel_key_warps: 1 is the one-warp decode
// workgroup (32 threads), where the rule's default (dense K [keys][d] on
// sm_90) has two key warps (64 threads); the space offers kwarps=1.
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:kwarps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KW1
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KW2
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --emit-tuning-space=quick -v | FileCheck %s --check-prefix=KWSPACE
// KW1: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c32,
// KW2: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c64,
// KWSPACE: {{^}}attn:v3:{{[0-9,]+}}:rock:kwarps=1{{[[:space:]]}}tc warps 1 rows 16 keys 64 {{.*}} split [[KP:[0-9]+]] fan [[KP]]{{$}}
// KWSPACE-NOT: kwarps=2
// ktpairs=1 sets rock.gpu_accel_kt_pairs (rocMLIR's default K layout).
// RUN: rock-gen -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:ktpairs=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KTP
// KTP: workgroup(%{{.*}} : memref<49152xi8, #gpu.address_space<workgroup>>)
// KTP: memref.view {{.*}} to memref<128x64xbf16
// KTP: memref.view {{.*}} to memref<128x64xbf16
// KTP: scf.for {{.*}} iter_args
// KTP: arith.cmpi eq, %{{.*}}, %c1 : index
