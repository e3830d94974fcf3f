// The internal split filling its waves (rock.gpu_split_fill = true, opt-in;
// fillWave in passes/gpu/attention_accel.c, docs/gpu.md "Decode"): the fewest
// partitions whose workgroups fill 90 % of the waves they take (6 one-warp
// decode workgroups an SM, 132 SMs: 792 a wave), not only a power of two.
// bf16 GQA 4 decode, d 128. B 8 L 8k (64 KV groups, 128 key tiles): 12
// partitions of 11 tiles, 768 workgroups and 12 x 256 partial rows, where
// the default takes 8 (512).
// RUN: rock-gen -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_split_fill=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=FILL
// FILL: memref.alloc() {{.*}} : memref<3072x1x128xf32>
// FILL: gpu.launch blocks({{.*}}) in ({{.*}} = %c768,
// FILL: gpu.launch blocks({{.*}}) in ({{.*}} = %c256
// RUN: rock-gen -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=POW2
// POW2: memref.alloc() {{.*}} : memref<2048x1x128xf32>
// POW2: gpu.launch blocks({{.*}}) in ({{.*}} = %c512,
// B 64 L 2k (512 KV groups, under one wave, 32 tiles): 3 partitions of 11
// tiles, 1536 workgroups in two waves (97 %); the default does not split.
// RUN: rock-gen -t bf16 -g 64 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_split_fill=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TWO
// TWO: gpu.launch blocks({{.*}}) in ({{.*}} = %c1536,
// RUN: rock-gen -t bf16 -g 64 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 2048 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=ONE
// ONE-COUNT-1: gpu.launch blocks
// ONE-NOT: gpu.launch
// The fused merge keeps the power of two (its tree's nodes all have the same
// children): B 1 L 32k stays 64 partitions in one kernel; with the second
// launch (rock.gpu_fused_combine = false) the split fills: 86 partitions of
// 6 tiles, 688 workgroups.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_split_fill=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=FUSED
// FUSED-COUNT-1: gpu.launch blocks({{.*}}) in ({{.*}} = %c512,
// FUSED-NOT: gpu.launch
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_split_fill=true --module-attr rock.gpu_fused_combine=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=UNFUSED
// UNFUSED: gpu.launch blocks({{.*}}) in ({{.*}} = %c688,
// UNFUSED: gpu.launch blocks({{.*}}) in ({{.*}} = %c32
// A perf_config's split wins over the rule: 4 partitions, 256 workgroups.
// RUN: rock-gen -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --perf-db none -perf_config attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:split=4 --module-attr rock.gpu_split_fill=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=FORCED
// FORCED: gpu.launch blocks({{.*}}) in ({{.*}} = %c256,
