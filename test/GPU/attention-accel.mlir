// The tensor-core schedule of rock-gridwise-attention-to-gpu (passes/gpu/
// attention_accel.c): prefill and multi-token decode (Sq·R >= 16 merged
// rows) in f16 / bf16 use mma.sync for Q·Kᵀ and P·V. On NVIDIA: one
// workgroup buffer viewed as Q, K and V (rows padded by 16 bytes; Q under
// K and V when they do not fit side by side), fragments by ldmatrix (.trans
// for V), K / V staged with stores marked rock.async_copy (cp.async after
// rock-gpu-async-copy) while the other gemm runs, P in registers (two m16n8
// score tiles are the A fragment of one k16 step, converted in pairs), 64-key
// tiles, masks only on the tiles that need them. rock.gpu_accel_ldmatrix = false /
// rock.gpu_accel_p_in_registers = false turn the ldmatrix / register forms off;
// decode runs on it with padded rows; f32 and rock.gpu_accel = false keep the
// SIMT schedule.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PREFILL
// 4 warps of 16 merged rows; K, V, Q [64][128] side by side, 16-byte chunks
// XOR-swizzled by row (chunk ^ row % 8).
// PREFILL: gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}}) workgroup(%[[B:.*]] : memref<49152xi8, #gpu.address_space<workgroup>>) {
// PREFILL-NEXT: nvvm.griddepcontrol launch_dependents
// PREFILL-NEXT: %[[Q:.*]] = memref.view %[[B]][%c32768][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<64x128xbf16, #gpu.address_space<workgroup>>
// PREFILL-NEXT: %[[K:.*]] = memref.view %[[B]][%c0][] : {{.*}} to memref<64x128xbf16, #gpu.address_space<workgroup>>
// PREFILL-NEXT: %[[V:.*]] = memref.view %[[B]][%c16384][] : {{.*}} to memref<64x128xbf16, #gpu.address_space<workgroup>>
// K of the first tile is in flight before Q is staged (they do not overlap).
// PREFILL: vector.store {{.*}}, %[[K]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// PREFILL: nvvm.cp.async.commit.group
// PREFILL: rock.view_load {{.*}} {rock.align = 16 : i64} : memref<{{.*}}xbf16{{.*}}> -> vector<8xbf16>
// PREFILL: %[[R7:.*]] = arith.andi %[[ROW:.*]], %c7 : index
// PREFILL-NEXT: %[[X:.*]] = arith.shli %[[R7]], %c3 : index
// PREFILL-NEXT: %[[COL:.*]] = arith.xori %{{.*}}, %[[X]] : index
// PREFILL-NEXT: vector.store {{.*}}, %[[Q]][%[[ROW]], %[[COL]]]
// PREFILL: gpu.barrier
// PREFILL: nvgpu.ldmatrix %[[Q]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x128xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// PREFILL: scf.for
// PREFILL: nvvm.cp.async.wait.group 0
// PREFILL-NEXT: gpu.barrier
// PREFILL: vector.store {{.*}}, %[[V]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// PREFILL: nvvm.cp.async.commit.group
// PREFILL: nvgpu.ldmatrix %[[K]][{{.*}}] {numTiles = 4 : i32, transpose = false}
// PREFILL: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// Causal: the masks only when the tile is not inside every row's keys.
// PREFILL: = scf.if %{{.*}} -> (f32, f32,
// PREFILL: arith.cmpi sgt
// PREFILL: arith.select
// The online softmax: xor shuffles over the 4 lanes of a row (offsets 1, 2).
// PREFILL: arith.maxnumf
// PREFILL: gpu.shuffle xor
// PREFILL: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// PREFILL-NOT: memref.store {{.*}}#gpu.address_space<workgroup>
// PREFILL: nvvm.cp.async.wait.group 0
// PREFILL-NEXT: gpu.barrier
// PREFILL: scf.if
// PREFILL: vector.store {{.*}}, %[[K]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// PREFILL: nvvm.cp.async.commit.group
// P in pairs, then the V fragments by ldmatrix.trans.
// PREFILL: arith.truncf {{.*}} : vector<2xf32> to vector<2xbf16>
// PREFILL: nvgpu.ldmatrix %[[V]][{{.*}}] {numTiles = 4 : i32, transpose = true}
// PREFILL: nvvm.mma.sync

// Rows padded by 16 bytes instead (rock.gpu_accel_swizzle = false, and head dims off
// multiples of 64): Q [64][136] under K and V, a barrier between the Q
// fragments and the first K tile.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_swizzle=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PAD
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 96 -head_dim_v 96 --transK --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PAD96
// PAD: workgroup(%[[B:.*]] : memref<34816xi8, #gpu.address_space<workgroup>>) {
// PAD-NEXT: nvvm.griddepcontrol launch_dependents
// PAD-NEXT: %[[Q:.*]] = memref.view %[[B]][%c0][] : memref<34816xi8, #gpu.address_space<workgroup>> to memref<64x136xbf16, #gpu.address_space<workgroup>>
// PAD-NEXT: %[[K:.*]] = memref.view %[[B]][%c0][] : {{.*}} to memref<64x136xbf16, #gpu.address_space<workgroup>>
// PAD-NEXT: memref.view %[[B]][%c17408][] : {{.*}} to memref<64x136xbf16, #gpu.address_space<workgroup>>
// PAD-NOT: arith.xori
// PAD: nvgpu.ldmatrix %[[Q]]
// PAD: gpu.barrier
// PAD-NEXT: arith.muli
// PAD: vector.store {{.*}}, %[[K]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// PAD96: memref.view {{.*}} to memref<64x104xf16, #gpu.address_space<workgroup>>
// PAD96-NOT: arith.xori
// PAD96: nvgpu.ldmatrix

// The off switches: without ldmatrix, P in registers and 64-key tiles in
// separate buffers; without the register form, P's buffer and 32-key tiles.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_ldmatrix=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PREG
// PREG: workgroup(%{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>) {
// PREG-NOT: nvgpu.ldmatrix
// PREG-NOT: rock.async_copy
// PREG: nvvm.mma.sync
// PREG-NOT: memref.store {{.*}}#gpu.address_space<workgroup>
// PREG: vector.shuffle {{.*}} : vector<4xbf16>, vector<4xbf16>
// PREG: nvvm.mma.sync
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_p_in_registers=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PBUF
// PBUF: workgroup(%{{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x128xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>>) {
// PBUF: nvvm.mma.sync
// PBUF: memref.store {{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>>
// PBUF: nvvm.mma.sync

// Multi-token decode: q 4 x GQA group 4 = 16 merged rows in one MMA tile.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 16 -num_heads_kv 4 -seq_len_q 4 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MTD
// MTD: threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) workgroup(%{{.*}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// MTD: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)

// Single-token decode of every GQA ratio takes it too on NVIDIA (16-bit
// Q/K): one warp, the 16-row tile padded (4 real rows here), 64-key tiles,
// K / V by cp.async (rock.async_copy); rocMLIR's default K layout (no
// --transK) is staged as K^T [128][64] and read with ldmatrix .trans.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DECODE
// DECODE: threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) workgroup(%{{.*}} : memref<36864xi8, #gpu.address_space<workgroup>>
// DECODE: memref<64x128xbf16, #gpu.address_space<workgroup>>
// DECODE: rock.async_copy
// DECODE: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KT
// KT: threads({{.*}}) in (%{{.*}} = %c32,
// KT: %[[KT:.*]] = memref.view {{.*}} to memref<128x64xbf16, #gpu.address_space<workgroup>>
// KT: rock.transform {{.*}} : memref<2x1024x128xbf16> to memref<2x128x1024xbf16>
// KT: rock.view_load {{.*}} : memref<2x128x1024xbf16> -> vector<8xbf16>
// KT: vector.store {{.*}}, %[[KT]][{{.*}}] {alignment = 16 : i64, rock.async_copy}
// KT: nvgpu.ldmatrix %[[KT]][{{.*}}] {numTiles = 4 : i32, transpose = true}
// KT: nvvm.mma.sync
// With a key count off whole 16-byte chunks the default layout keeps K rows.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1020 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=KROWS
// KROWS-NOT: memref<128x64xbf16
// KROWS: nvvm.mma.sync
// rock.gpu_accel_min_rows sets the rule's threshold: 16 keeps this decode
// on SIMT.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel_min_rows=16 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT

// f32, and the switch keep the SIMT schedule.
// RUN: rock-gen --operation attention -t f32 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -wgmma=off --module-attr rock.gpu_accel=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// SIMT: gpu.launch
// SIMT-NOT: nvvm.mma.sync

// Paged K/V, prefix offsets, a sliding window, scale / bias regions and
// per-row KV-cache lengths take the same schedule (shared masks, views and
// region slot).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -paged_attention -page_size 16 -num_pages 4096 --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -causal -prefix_offset=16,32 --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -causal -sliding_window_size 16 -current_seq_len=40,60 --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 128 -head_dim_v 128 -with_attn_scale -with_attn_bias -current_seq_len=100,200 --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' | FileCheck %s --check-prefix=VARIANT
// VARIANT: gpu.binary @rock_attention_kernel {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.{{b?}}f16.{{b?}}f16.f32
