// The tensor-core schedule of rock-gridwise-attention-to-gpu (passes/gpu/
// attention_accel.c): prefill and multi-token decode (Sq·R >= 16 merged
// rows) in f16 / bf16 use mma.sync for Q·Kᵀ and P·V, with Q, K, V and P
// staged in workgroup memory (with ROCK_GPU_ACCEL_PREG=1, P stays in
// registers: two m16n8 score tiles are the A fragment of one k16 step of
// P·V, and tiles take 64 keys); decode (Sq·R < 16), f32, and ROCK_GPU_ACCEL=0 keep
// the SIMT schedule.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PREFILL
// 4 warps of 16 merged rows, tiles of 32 keys.
// PREFILL: gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in ({{.*}}) workgroup(%{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x128xbf16, #gpu.address_space<workgroup>>
// PREFILL-SAME: %{{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>>) {
// PREFILL: rock.view_load {{.*}} {rock.align = 16 : i64} : memref<{{.*}}xbf16{{.*}}> -> vector<8xbf16>
// PREFILL: scf.for
// PREFILL: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// The online softmax: xor shuffles over the 4 lanes of a row (offsets 1, 2).
// PREFILL: arith.maxnumf
// PREFILL: gpu.shuffle xor
// PREFILL: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// PREFILL: memref.store {{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>>
// PREFILL: nvvm.mma.sync

// P in registers: no P buffer, 64-key tiles, the A fragment built from the
// score accumulators.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 \
// RUN:   | env ROCK_GPU_ACCEL_PREG=1 rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PREG
// PREG: workgroup(%{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>) {
// PREG: nvvm.mma.sync
// PREG-NOT: memref.store {{.*}}#gpu.address_space<workgroup>
// PREG: vector.from_elements {{.*}} : vector<8xbf16>
// PREG: nvvm.mma.sync

// Multi-token decode: q 4 x GQA group 4 = 16 merged rows in one MMA tile.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 4 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MTD
// MTD: threads({{.*}}) in (%{{.*}} = %[[T:.*]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) workgroup(%{{.*}} : memref<16x128xf16, #gpu.address_space<workgroup>>
// MTD: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)

// Single-token decode, f32, and the switch keep the SIMT schedule.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | env ROCK_GPU_ACCEL=0 rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// SIMT: gpu.launch
// SIMT-NOT: nvvm.mma.sync

// Paged K/V, prefix offsets, a sliding window, scale / bias regions and
// per-row KV-cache lengths take the same schedule (shared masks, views and
// region slot).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -paged_attention -page_size 16 -num_pages 4096 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -causal -prefix_offset=16,32 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -causal -sliding_window_size 16 -current_seq_len=40,60 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -with_attn_scale -with_attn_bias -current_seq_len=100,200 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// VARIANT: gpu.binary @rock_attention_kernel {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.{{b?}}f16.{{b?}}f16.f32
