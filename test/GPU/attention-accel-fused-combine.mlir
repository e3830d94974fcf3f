// The internal split merged in the kernel (rock.gpu_fused_combine = true; by
// default for at most 4 merged rows Sq·R and at least 16 partitions, the
// B 1 decode rows where it was measured faster on the H200;
// passes/gpu/fused_combine.c, docs/gpu.md "Decode"): one launch;
// a tree of fan-in 8 whose nodes' arrival counters are scratch marked
// rock.zero_init; each workgroup makes its partials visible (membar.gl),
// thread 0 counts the arrival, and the workgroup that completes a node
// merges its children (a row's children on consecutive lanes: max and sum by
// xor shuffles over them, weights in workgroup memory) and puts the counter
// back to zero. GQA 4, Sk 1024: 16 tiles, P = 8 partitions, one node.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK -return_lse --arch sm_90 -pv --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=FUSED
// FUSED: func.func @rock_attention(
// FUSED-DAG: %[[P1:.*]] = arith.constant 7 : i32
// FUSED-DAG: %[[PO:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x1x128xf32>
// FUSED-DAG: %[[PL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x1xf64>
// FUSED-DAG: %[[CNT:.*]] = memref.alloc() {alignment = 64 : i64, rock.zero_init} : memref<2xi32>
// FUSED: gpu.launch blocks({{.*}}) in ({{.*}} = %c16,
// The partials, then the arrival.
// FUSED: rock.view_store {{.*}}, %[[PO]][
// FUSED: llvm.call_intrinsic "llvm.nvvm.membar.gl"() : () -> ()
// FUSED-NEXT: gpu.barrier
// FUSED: %[[OLD:.*]] = memref.atomic_rmw addi %c1_i32, %[[CNT]][%[[CI:.*]]] : (i32, memref<2xi32>) -> i32
// FUSED: gpu.barrier
// FUSED: %[[SEEN:.*]] = memref.load
// FUSED: %[[LAST:.*]] = arith.cmpi eq, %[[SEEN]], %[[P1]] : i32
// FUSED: scf.if %[[LAST]] {
// FUSED-NEXT: llvm.call_intrinsic "llvm.nvvm.membar.gl"() : () -> ()
// FUSED: rock.view_load %[[PL]][
// FUSED: arith.maximumf
// FUSED: llvm.nvvm.ex2.approx.ftz.f
// FUSED-COUNT-3: gpu.shuffle  xor {{.*}} : f32
// FUSED: llvm.nvvm.lg2.approx.ftz.f
// FUSED: rock.view_store {{.*}} : f32, memref<8x1xf32>
// The stats in one pass over the (row, child) pairs of the 4 merged rows
// (not of the 16 rows of the MMA tile), the outputs without a loop (4 rows
// x 32 four-column chunks: 4 chunks a thread).
// FUSED-NOT: llvm.nvvm.ex2.approx.ftz.f
// FUSED: gpu.barrier
// FUSED-NOT: scf.for
// FUSED: rock.view_load %[[PO]][{{.*}}] {rock.align = 16 : i64} : memref<64x1x128xf32> -> vector<4xf32>
// FUSED: arith.cmpf uge
// FUSED: arith.divf
// The chunks' stores unguarded (a chunk past the rows is clamped to the last
// one): no branch, so LLVM keeps every chunk's loads ahead of the sums.
// FUSED-NOT: scf.if
// FUSED: arith.truncf {{.*}} : vector<4xf32> to vector<4xbf16>
// FUSED: rock.view_store {{.*}} {rock.align = 8 : i64} : vector<4xbf16>, memref<8x1x128xbf16>
// FUSED: memref.store %c0_i32, %[[CNT]][%[[CI]]] : memref<2xi32>
// FUSED: gpu.terminator
// No second launch: the combine is in the kernel.
// FUSED-NOT: gpu.launch
// FUSED: memref.dealloc %[[CNT]] : memref<2xi32>

// P = 64 (B 1, GQA 32 / 8, L 8k): two levels, 8 nodes of 8 splits and the
// root: 9 counters per KV group (72), 8 inner partial rows per query row
// after the 32 x 64 of the splits (2304); a node's merge writes f32 partial
// rows, then arrives at the root.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TREE
// TREE-DAG: %[[PO:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2304x1x128xf32>
// TREE-DAG: %[[CNT:.*]] = memref.alloc() {alignment = 64 : i64, rock.zero_init} : memref<72xi32>
// TREE: memref.atomic_rmw addi %c1_i32, %[[CNT]][
// TREE: rock.view_store {{.*}}, %[[PO]][{{.*}}] {rock.align = 16 : i64} : vector<4xf32>, memref<2304x1x128xf32>
// TREE: memref.store %c0_i32, %[[CNT]][
// TREE: llvm.call_intrinsic "llvm.nvvm.membar.gl"() : () -> ()
// TREE-NEXT: gpu.barrier
// TREE: memref.atomic_rmw addi %c1_i32, %[[CNT]][
// TREE: rock.view_store {{.*}} : vector<4xbf16>, memref<32x1x128xbf16>
// TREE: memref.store %c0_i32, %[[CNT]][
// TREE-NOT: atomic_rmw
// TREE: gpu.terminator

// Without a split (enough workgroups already) there is nothing to merge: no
// counters; and by default, with 8 partitions (fewer than 16), the combine
// stays a second launch.
// RUN: rock-gen -t bf16 -g 512 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 128 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=NOSPLIT
// NOSPLIT-NOT: rock.zero_init
// NOSPLIT-NOT: atomic_rmw
// NOSPLIT: gpu.launch
// NOSPLIT-NOT: gpu.launch
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK -return_lse --arch sm_90 -pv --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TWO
// TWO-NOT: rock.zero_init
// TWO-NOT: atomic_rmw
// TWO: gpu.launch
// TWO: gpu.launch
// The second launch's weights without a branch (an empty split's weight is
// selected away), so no load waits on the LSEs' before it is issued.
// TWO: arith.cmpf une, {{.*}} : f64
// TWO-NOT: scf.if
// TWO: llvm.nvvm.ex2.approx.ftz.f
// TWO-NEXT: arith.select

// By default: the P = 64 problem above fuses (4 rows, 64 partitions); with
// rock.gpu_fused_combine = false it keeps two launches; GQA 16 (16 merged
// rows) does not fuse.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TREE
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_fused_combine=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TWO
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 128 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -pv --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=TWO

// Only a power-of-two split fuses: a row's children are reduced by xor
// shuffles over an aligned group of that many lanes and every node of a level
// has the same children. A forced split is clamped to the key tiles: 384 keys
// with rock.internal_split = 8 are 6 partitions of one 64-key tile, which
// keep the second launch (its partials freed after it). Fused, the 6
// children of row 0 on lanes 0-5 were summed with lanes 6 and 7: wrong rows
// on the H200. So do the i8 prefill (Sq 384: 6 row blocks of 6 partitions)
// and 12 forced partitions of 16 tiles (a second node of 4 children counted
// to 8). 512 keys (8 tiles) with the same switches fuse: one node of 8.
// RUN: rock-gen -t bf16 -seq_len_q 1 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 -pv --module-attr rock.internal_split=8 --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=TWO,SIX
// SIX: memref.dealloc %{{.*}} : memref<6x1x64xf32>
// RUN: rock-gen -t i8 -seq_len_q 384 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 -pv --module-attr rock.internal_split=8 --module-attr rock.gpu_fused_combine=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=TWO,I8
// I8: memref.dealloc %{{.*}} : memref<6x384x64xf32>
// RUN: rock-gen -t bf16 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 -pv --module-attr rock.internal_split=12 --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=TWO,TWELVE
// TWELVE: memref.dealloc %{{.*}} : memref<12x1x64xf32>
// RUN: rock-gen -t bf16 -seq_len_q 1 -seq_len_k 512 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 -pv --module-attr rock.internal_split=8 --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=EIGHT
// EIGHT-DAG: %[[P1:.*]] = arith.constant 7 : i32
// EIGHT-DAG: memref.alloc() {alignment = 64 : i64} : memref<8x1x64xf32>
// EIGHT-DAG: memref.alloc() {alignment = 64 : i64, rock.zero_init} : memref<1xi32>
// EIGHT: memref.atomic_rmw addi
// EIGHT: arith.cmpi eq, %{{.*}}, %[[P1]] : i32
// EIGHT-COUNT-3: gpu.shuffle  xor {{.*}} : f32
// EIGHT: gpu.terminator
// EIGHT-NOT: gpu.launch
// The same by the default rule (4 merged rows or fewer, 16 partitions or
// more): a tuning candidate split=32 of 1280 keys is 20 partitions, which
// fused before into a level of 3 nodes, the last of 4 children counted to 8
// (never merged); now the second launch.
// RUN: rock-gen -t bf16 -seq_len_q 1 -seq_len_k 1280 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 -pv --module-attr rock.internal_split=32 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=TWO,TWENTY
// TWENTY: memref.dealloc %{{.*}} : memref<20x1x64xf32>
